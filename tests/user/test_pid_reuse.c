// SPDX-License-Identifier: MIT
/*
 * test_pid_reuse.c - a pid reused within one trace is two processes: in a
 * trace FORK(P), iterations, EXIT(P), FORK(P), iterations (indexes from 0
 * again), each with its BENCH name, the report's per-process table has two
 * rows with their own comm, compare sees two runs, the calibration rule
 * runs per process, and the second process does not inherit the first's
 * name. Traces without reuse, and without PROC records, group by pid as
 * before (every instance 0).
 */
#include <json-c/json.h>

#include "test.h"
#include "fixture.h"
#include "compare/side.h"
#include "report/summary.h"
#include "trace/bench_groups.h"
#include "trace/dataset.h"
#include "trace/trace.h"

static const char ctx[] =
    "{\"tool\":\"benchscope\",\"version\":\"0.1\",\"kernel\":\"6.18.0-test\",\"ncpus\":2,"
    "\"clock\":\"CLOCK_MONOTONIC\",\"boundaries\":{\"kind\":\"uprobe\",\"begin\":\"b\","
    "\"end\":\"e\"}}";

#define P 4242u
#define Q 4243u

static int proc(struct bs_trace_writer *w, uint32_t kind, uint32_t pid, uint64_t ts,
		const char *comm)
{
	struct bs_proc_rec r;

	memset(&r, 0, sizeof(r));
	r.type = BS_REC_PROC;
	r.kind = kind;
	r.pid = pid;
	r.ppid = 1;
	r.ts_ns = ts;
	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	return bs_trace_write_proc(w, &r);
}

static int bench(struct bs_trace_writer *w, uint32_t pid, uint64_t ts, const char *name)
{
	struct bs_bench_rec b = fx_bench(pid, ts, name);

	return bs_trace_write_bench(w, &b);
}

/* runs of one process from index 0: invoc[i] invocations, 10 ns each, from *t on */
static int iters(struct bs_trace_writer *w, uint32_t pid, uint64_t *t, const uint64_t *invoc,
		 size_t n)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		struct bs_iter_rec r;

		memset(&r, 0, sizeof(r));
		r.type = BS_REC_ITER;
		r.flags = BS_ITER_F_INVOC;
		r.index = i;
		r.pid = r.tid = pid;
		r.begin_ns = *t;
		r.end_ns = *t + invoc[i] * (10 + i % 2);
		r.invocations = invoc[i];
		ret |= bs_trace_write_iter(w, &r);
		*t = r.end_ns + 100;
	}
	return ret;
}

/* first process: one calibration run (10), three measurements (100); second: three (1000) */
static const uint64_t first[] = {10, 100, 100, 100}, second[] = {1000, 1000, 1000};

/*
 * The trace: FORK(P) "bench1", BENCH "BenchmarkA", the first runs, EXIT(P);
 * then FORK(@pid2) "bench2", BENCH "BenchmarkA" 1 us after it, the second
 * runs, EXIT. @procs false: no PROC records at all (an import, an old trace).
 */
static struct bs_dataset *load(const char *name, uint32_t pid2, bool procs)
{
	char path[300], err[256];
	struct bs_trace_writer *w =
	    bs_trace_create(fx_path(path, sizeof(path), name), ctx, err, sizeof(err));
	struct bs_dataset *ds = NULL;
	uint64_t t = 1000000;
	int ret = 0;

	if (!w)
		return NULL;
	ret |= procs ? proc(w, BS_PROC_FORK, P, t, "bench1") : 0;
	ret |= bench(w, P, t + 100, "BenchmarkA");
	t += 1000;
	ret |= iters(w, P, &t, first, 4);
	ret |= procs ? proc(w, BS_PROC_EXIT, P, t, "bench1") : 0;
	t += 1000000;
	ret |= procs ? proc(w, BS_PROC_FORK, pid2, t, "bench2") : 0;
	ret |= bench(w, pid2, t + 1000, "BenchmarkA");
	t += 2000;
	ret |= iters(w, pid2, &t, second, 3);
	ret |= procs ? proc(w, BS_PROC_EXIT, pid2, t, "bench2") : 0;
	ret |= bs_trace_write_end(w, "{\"interrupted\":false}");
	ret |= bs_trace_close(w);
	CHECK_INT_EQ(ret, 0);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	return ds;
}

/* the begin of the second process's first iteration (after its FORK, before its name) */
static uint64_t second_fork_ns(const struct bs_dataset *ds)
{
	return ds->iters[4].begin_ns - 2000;
}

/* the dataset: two instances of P; the second's time before its BENCH record has no name */
static void test_instances_and_names(void)
{
	struct bs_dataset *ds = load("reuse.trace", P, true);

	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 7);
	for (size_t i = 0; i < ds->n_iters; i++)
		CHECK_INT_EQ(bs_dataset_iter_instance(ds, &ds->iters[i]), i < 4 ? 0 : 1);
	CHECK_INT_EQ(bs_dataset_proc_instance(ds, P, second_fork_ns(ds)), 1);
	CHECK(!strcmp(bs_dataset_bench_name(ds, P, ds->iters[3].begin_ns), "BenchmarkA"));
	/* the new process named nothing yet: no name inherited from the old one */
	CHECK(bs_dataset_bench_name(ds, P, second_fork_ns(ds) + 500) == NULL);
	CHECK(!strcmp(bs_dataset_bench_name(ds, P, ds->iters[4].begin_ns), "BenchmarkA"));
	bs_dataset_free(ds);
}

/* a record after EXIT and before a new FORK belongs to a new process */
static void test_after_exit(void)
{
	char path[300], err[256];
	struct bs_trace_writer *w =
	    bs_trace_create(fx_path(path, sizeof(path), "exit.trace"), ctx, err, sizeof(err));
	struct bs_dataset *ds = NULL;
	uint64_t t = 5000, one[] = {100};

	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT_EQ(iters(w, P, &t, one, 1), 0); /* a process without FORK record (the root) */
	CHECK_INT_EQ(proc(w, BS_PROC_EXIT, P, t, "root"), 0);
	t += 1000;
	CHECK_INT_EQ(iters(w, P, &t, one, 1), 0); /* its FORK record lost */
	CHECK_INT_EQ(bs_trace_close(w), 0);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_dataset_iter_instance(ds, &ds->iters[0]), 0);
	CHECK_INT_EQ(bs_dataset_iter_instance(ds, &ds->iters[1]), 1);
	/* the EXIT record is the first process's */
	CHECK_INT_EQ(bs_dataset_proc_instance(ds, P, ds->procs[0].ts_ns), 0);
	bs_dataset_free(ds);
}

/* the calibration rule per process: the first process's last run stays a measurement */
static void test_calibration_per_process(void)
{
	struct bs_dataset *ds = load("calib.trace", P, true);
	const struct bs_iter_rec *all[7];
	long grp[7];

	if (!ds)
		return;
	for (size_t i = 0; i < 7; i++)
		all[i] = &ds->iters[i];
	CHECK_INT_EQ(bs_bench_group(ds, all, 7, grp, NULL), 1);
	for (size_t i = 0; i < 7; i++)
		CHECK_INT_EQ(grp[i], i == 0 ? BS_GBENCH_CALIBRATION : 0);
	bs_dataset_free(ds);
}

/* the report: two rows, each with its own comm and iterations */
static void test_report_procs(void)
{
	struct bs_dataset *ds = load("report.trace", P, true);
	struct bs_run_summary s;

	if (!ds)
		return;
	CHECK_INT_EQ(bs_run_summarize(ds, 0, &s), 0);
	CHECK_INT_EQ(s.n_procs, 2);
	CHECK_INT_EQ(s.n_calibration, 1);
	if (s.n_procs == 2) {
		CHECK_INT_EQ(s.procs[0].pid, P);
		CHECK_INT_EQ(s.procs[0].inst, 0);
		CHECK(!strcmp(s.procs[0].comm, "bench1"));
		CHECK_INT_EQ(s.procs[0].n_iters, 3);
		CHECK_INT_EQ(s.procs[1].pid, P);
		CHECK_INT_EQ(s.procs[1].inst, 1);
		CHECK(!strcmp(s.procs[1].comm, "bench2"));
		CHECK_INT_EQ(s.procs[1].n_iters, 3);
	}
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/* compare: the two processes are two runs of BenchmarkA, three values each */
static void test_compare_runs(void)
{
	struct bs_dataset *ds = load("compare.trace", P, true);
	struct bs_cmp_side side;
	char err[256];

	if (!ds)
		return;
	CHECK_INT_EQ(bs_cmp_side_load(ds, "compare.trace", &side, err, sizeof(err)), 0);
	CHECK_INT_EQ(side.n, 1);
	if (side.n == 1) {
		CHECK(!strcmp(side.b[0].name, "BenchmarkA"));
		CHECK_INT_EQ(side.b[0].n_runs, 2);
		CHECK_INT_EQ(side.b[0].n, 6);
		if (side.b[0].n_runs == 2) {
			CHECK_INT_EQ(side.b[0].runs[0].n, 3);
			CHECK_INT_EQ(side.b[0].runs[1].n, 3);
			CHECK_INT_EQ(side.b[0].runs[1].inst, 1);
		}
	}
	bs_cmp_side_free(&side);
	bs_dataset_free(ds);
}

/* without reuse (two pids), and without PROC records: grouped by pid, every instance 0 */
static void test_no_reuse_unchanged(void)
{
	struct bs_dataset *ds = load("two.trace", Q, true);
	struct bs_run_summary s;

	if (!ds)
		return;
	for (size_t i = 0; i < ds->n_iters; i++)
		CHECK_INT_EQ(bs_dataset_iter_instance(ds, &ds->iters[i]), 0);
	CHECK_INT_EQ(bs_run_summarize(ds, 0, &s), 0);
	CHECK_INT_EQ(s.n_procs, 2);
	CHECK_INT_EQ(s.n_calibration, 1);
	if (s.n_procs == 2) {
		CHECK(s.procs[0].pid == P && s.procs[0].inst == 0 &&
		      !strcmp(s.procs[0].comm, "bench1"));
		CHECK(s.procs[1].pid == Q && s.procs[1].inst == 0 &&
		      !strcmp(s.procs[1].comm, "bench2"));
	}
	CHECK(bs_dataset_bench_name(ds, Q, second_fork_ns(ds) + 500) == NULL);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);

	/* no PROC records: one pid is one process, as it always was */
	ds = load("noproc.trace", P, false);
	if (!ds)
		return;
	CHECK(ds->proc_inst == NULL);
	for (size_t i = 0; i < ds->n_iters; i++)
		CHECK_INT_EQ(bs_dataset_iter_instance(ds, &ds->iters[i]), 0);
	CHECK(!strcmp(bs_dataset_bench_name(ds, P, second_fork_ns(ds) + 500), "BenchmarkA"));
	CHECK_INT_EQ(bs_run_summarize(ds, 0, &s), 0);
	CHECK_INT_EQ(s.n_procs, 1);
	CHECK_INT_EQ(s.n_calibration, 2); /* 100 followed by 1000: the growing rule's calibration */
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

int main(void)
{
	RUN_TEST(test_instances_and_names);
	RUN_TEST(test_after_exit);
	RUN_TEST(test_calibration_per_process);
	RUN_TEST(test_report_procs);
	RUN_TEST(test_compare_runs);
	RUN_TEST(test_no_reuse_unchanged);
	return test_summary("test_pid_reuse");
}
