// SPDX-License-Identifier: MIT
/* test_duet_pidsets.c - which run and side a duet's iterations, forks and
 * interferer records belong to (duet/pidsets.h): pids reused between runs,
 * runs without a recorded span, and the cost of the look-ups. */
#include "test.h"

#include <inttypes.h>

#include "duet/data.h"
#include "duet/noise.h"
#include "duet/pidsets.h"
#include "fixture.h"
#include "trace/dataset.h"
#include "trace/trace.h"

#define MS 1000000LL /* ns */

static struct bs_trace_writer *open_trace(const char *path)
{
	char err[256];
	struct bs_trace_writer *w =
	    bs_trace_create(path,
			    "{\"tool\": \"benchscope\", \"mode\": \"duet\", \"duet\": {\"source\": "
			    "\"benchscope\", \"benchmark\": \"pids\", \"methods\": [\"async\"]}}",
			    err, sizeof(err));

	if (!w)
		FAILF("bs_trace_create: %s", err);
	return w;
}

/* an ok async run; start_ns = end_ns = 0: no recorded span */
static void put_run(struct bs_trace_writer *w, int run, int64_t start_ns, int64_t end_ns,
		    uint32_t pid_a, uint32_t pid_b)
{
	char ev[512];

	snprintf(ev, sizeof(ev),
		 "{\"kind\": \"duet_run\", \"run\": %d, \"method\": \"async\", \"index\": %d, "
		 "\"order\": \"AB\", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64
		 ", \"ok\": true, \"sides\": {\"A\": {\"pid\": %u}, \"B\": {\"pid\": %u}}}",
		 run, run, start_ns, end_ns, pid_a, pid_b);
	bs_trace_write_event(w, ev);
}

/* an iteration of process @pid (its only thread) from @t_ms, 50 ms long */
static void put_iter(struct bs_trace_writer *w, uint32_t pid, int64_t t_ms)
{
	struct bs_iter_rec r;

	memset(&r, 0, sizeof(r));
	r.type = BS_REC_ITER;
	r.index = (uint64_t)t_ms;
	r.pid = r.tid = pid;
	r.begin_ns = (uint64_t)(t_ms * MS);
	r.end_ns = (uint64_t)((t_ms + 50) * MS);
	bs_trace_write_iter(w, &r);
}

static void put_fork(struct bs_trace_writer *w, uint32_t ppid, uint32_t pid, int64_t t_ms)
{
	struct bs_proc_rec p;

	memset(&p, 0, sizeof(p));
	p.type = BS_REC_PROC;
	p.kind = BS_PROC_FORK;
	p.ppid = ppid;
	p.pid = pid;
	p.ts_ns = (uint64_t)(t_ms * MS);
	bs_trace_write_proc(w, &p);
}

static struct bs_dataset *load(const char *path, struct bs_duet_data **d)
{
	char err[256];
	struct bs_dataset *ds = NULL;

	if (bs_dataset_load(path, &ds, err, sizeof(err))) {
		FAILF("load: %s", err);
		return NULL;
	}
	if (bs_duet_data_build(ds, d, err, sizeof(err))) {
		FAILF("build: %s", err);
		bs_dataset_free(ds);
		return NULL;
	}
	return ds;
}

static const struct bs_drun *find_run(const struct bs_duet_data *d, int run)
{
	for (size_t b = 0; b < d->n_benches; b++)
		for (size_t k = 0; k < d->benches[b].n_runs[BS_DM_ASYNC]; k++)
			if (d->benches[b].runs[BS_DM_ASYNC][k].run == run)
				return &d->benches[b].runs[BS_DM_ASYNC][k];
	return NULL;
}

/* the pids of side @s's iterations, in time order, as "100 300" */
static const char *side_pids(const struct bs_drun *r, int s)
{
	static char buf[256];
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; r && i < r->side[s].n && len < sizeof(buf) - 12; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? " " : "",
					r->side[s].rec[i]->pid);
	return buf;
}

#define CHECK_PIDS(r, s, want)                                                                     \
	do {                                                                                       \
		const char *got_ = side_pids(r, s);                                                \
		if (strcmp(got_, want))                                                            \
			FAILF("run %d side %d: iterations of \"%s\", want \"%s\"",                 \
			      (r) ? (r)->run : -1, s, got_, want);                                 \
	} while (0)

/*
 * Run 0 (1000-2000 ms): A is 100 (which forks 300), B is 101. Run 1
 * (3000-4000 ms): the pids come back swapped, A is 101 and B is 100 (which
 * forks 300 again). Run 2: 102 and 103, at 5000-6000 ms, or before run 0
 * when @run2_first (the spans are then out of run order). An iteration of
 * 100 between the runs and one of 999 belong to no run. A look-up that
 * took the first run that has the pid would give run 0 (A) the iterations
 * that run 1's B ran.
 */
static void write_reuse(const char *path, bool run2_first)
{
	struct bs_trace_writer *w = open_trace(path);
	int64_t t2 = run2_first ? 200 : 5000;

	if (!w)
		return;
	put_fork(w, 100, 300, 1050);
	put_iter(w, 100, 1100);
	put_iter(w, 101, 1100);
	put_iter(w, 999, 1150);
	put_iter(w, 100, 1200);
	put_iter(w, 101, 1200);
	put_iter(w, 300, 1300);
	put_run(w, 0, 1000 * MS, 2000 * MS, 100, 101);
	put_iter(w, 100, 2500);
	put_fork(w, 100, 300, 3050);
	put_iter(w, 101, 3100);
	put_iter(w, 100, 3100);
	put_iter(w, 101, 3200);
	put_iter(w, 100, 3200);
	put_iter(w, 300, 3300);
	put_run(w, 1, 3000 * MS, 4000 * MS, 101, 100);
	put_iter(w, 102, t2 + 100);
	put_iter(w, 103, t2 + 100);
	put_run(w, 2, t2 * MS, (t2 + 1000) * MS, 102, 103);
	bs_trace_write_end(w, "{\"interrupted\": false}");
	bs_trace_close(w);
}

static void check_reuse(bool run2_first)
{
	char path[300];
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds;
	int side = -1;

	fx_path(path, sizeof(path), run2_first ? "reuse-unordered.trace" : "reuse.trace");
	write_reuse(path, run2_first);
	ds = load(path, &d);
	if (!ds)
		return;
	CHECK_INT_EQ(d->runs_ok, 3);
	CHECK_PIDS(find_run(d, 0), 0, "100 100 300");
	CHECK_PIDS(find_run(d, 0), 1, "101 101");
	CHECK_PIDS(find_run(d, 1), 0, "101 101");
	CHECK_PIDS(find_run(d, 1), 1, "100 100 300");
	CHECK_PIDS(find_run(d, 2), 0, "102");
	CHECK_PIDS(find_run(d, 2), 1, "103");
	CHECK_INT_EQ(d->n_unmatched, 2); /* 100 between the runs, 999 */
	CHECK_INT_EQ(bs_duet_data_side_of(d, 0, 100), 0);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 1, 100), 1);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 0, 300), 0);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 1, 300), 1);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 2, 100), -1);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 7, 100), -1);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 1, 999), -1);
	CHECK_INT_EQ(bs_duet_data_run_of_pid(d, 101, &side), 0); /* first in run order */
	CHECK_INT_EQ(side, 1);
	CHECK_INT_EQ(bs_duet_data_run_of_pid(d, 103, &side), 2);
	CHECK_INT_EQ(side, 1);
	CHECK_INT_EQ(bs_duet_data_run_of_pid(d, 999, NULL), -1);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* a pid of two runs: each run's span decides, spans in run order or not */
static void test_reused_pid(void)
{
	check_reuse(false);
	check_reuse(true);
}

/* runs without a recorded span: a reused pid's iterations (and forks) go
 * to the first run, in run order, whose sets have it */
static void test_no_span(void)
{
	char path[300];
	struct bs_duet_data *d = NULL;
	struct bs_trace_writer *w;
	struct bs_dataset *ds;

	fx_path(path, sizeof(path), "nospan.trace");
	w = open_trace(path);
	if (!w)
		return;
	put_fork(w, 100, 300, 1050);
	put_iter(w, 100, 1100);
	put_iter(w, 101, 1100);
	put_run(w, 0, 0, 0, 100, 101);
	put_fork(w, 101, 300, 3050);
	put_iter(w, 101, 3100);
	put_iter(w, 100, 3100);
	put_iter(w, 300, 3200);
	put_iter(w, 102, 3300);
	put_run(w, 1, 0, 0, 101, 102);
	bs_trace_write_end(w, "{\"interrupted\": false}");
	bs_trace_close(w);
	ds = load(path, &d);
	if (!ds)
		return;
	CHECK_PIDS(find_run(d, 0), 0, "100 100 300");
	CHECK_PIDS(find_run(d, 0), 1, "101 101");
	CHECK(!find_run(d, 1)); /* its A (101) is run 0's B: no A left */
	CHECK_INT_EQ(bs_duet_data_side_of(d, 1, 101), 0);
	CHECK_INT_EQ(bs_duet_data_side_of(d, 1, 300), -1); /* the fork went to run 0 */
	CHECK_INT_EQ(d->n_unmatched, 0);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/*
 * The look-ups examine about one run each, not every run: RUNS runs, each
 * with its own root pids (or, @reuse, the same two in every run) that fork
 * one child per side, 3 iterations per side and an interferer record. A
 * look-up that searched the runs in turn would examine RUNS / 2 runs per
 * record on average.
 */
#define RUNS 300
static void check_cost(bool spans, bool reuse)
{
	char path[300];
	struct bs_duet_data *d = NULL;
	struct bs_duet_noise *n = NULL;
	struct bs_trace_writer *w;
	struct bs_dataset *ds;
	size_t lookups, steps;

	fx_path(path, sizeof(path), "cost.trace");
	w = open_trace(path);
	if (!w)
		return;
	for (int k = 0; k < RUNS; k++) {
		int64_t t = 1000 + 1000 * (int64_t)k;
		uint32_t pid[2] = {reuse ? 100 : 10000 + 2 * (uint32_t)k,
				   reuse ? 101 : 10001 + 2 * (uint32_t)k};
		struct bs_interferer_rec ir = {.victim_pid = pid[0],
					       .interferer_pid = pid[1],
					       .interferer_tid = pid[1],
					       .ns = 1000};

		for (int s = 0; s < 2; s++) {
			uint32_t child = (reuse ? 200 : 50000 + 2 * (uint32_t)k) + (uint32_t)s;

			put_fork(w, pid[s], child, t + 10);
			put_iter(w, pid[s], t + 100);
			put_iter(w, pid[s], t + 200);
			put_iter(w, child, t + 300);
		}
		bs_trace_write_interferer(w, &ir);
		put_run(w, k, spans ? t * MS : 0, spans ? (t + 999) * MS : 0, pid[0], pid[1]);
	}
	bs_trace_write_end(w, "{\"interrupted\": false}");
	bs_trace_close(w);
	ds = load(path, &d);
	if (!ds)
		return;
	lookups = ds->n_iters + ds->n_procs;
	steps = bs_dpids_steps(d);
	if (steps > 2 * lookups)
		FAILF("placing %zu iterations and forks of %d runs examined %zu runs (spans %d, "
		      "reused pids %d)",
		      lookups, RUNS, steps, spans, reuse);
	if (spans || !reuse) {
		CHECK_INT_EQ(d->n_unmatched, 0);
		CHECK_INT_EQ(d->benches[0].n_runs[BS_DM_ASYNC], RUNS);
		CHECK_PIDS(find_run(d, RUNS - 1), 1, reuse ? "101 101 201" : "10599 10599 50599");
	}
	CHECK_INT_EQ(bs_duet_noise_build(ds, d, &n), 0);
	if (n && bs_dpids_steps(d) - steps > 2 * 2 * ds->n_interferers)
		FAILF("charging %zu interferer records examined %zu runs", ds->n_interferers,
		      bs_dpids_steps(d) - steps);
	bs_duet_noise_free(n);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

static void test_lookup_cost(void)
{
	check_cost(true, false);
	check_cost(false, false);
	check_cost(true, true);
	check_cost(false, true);
}

int main(void)
{
	RUN_TEST(test_reused_pid);
	RUN_TEST(test_no_span);
	RUN_TEST(test_lookup_cost);
	return test_summary("test_duet_pidsets");
}
