// SPDX-License-Identifier: MIT
/*
 * test_onep - one probe per iteration (`--probes 1`, bpf/onep.bpf.h) on
 * the Go harness (tests/progs/gobench), against two probes:
 *
 * - durations: each mode's iterations against Go's own time for the same
 *   runs (ns/op x N, the truth independent of benchscope), in interleaved
 *   rounds; the two modes' medians of that ratio agree within 0.5 %. On a
 *   shared 2-vCPU VM a benchmark's ns/op varies by tens of % from one run
 *   to the next, so comparing the two modes' absolute durations across
 *   runs would test the machine, not the probes; their ratios to the
 *   harness's clock in the same run compare like with like. One probe
 *   begins at Go's own b.start (same clock: a different clock would be
 *   seconds off and give no record), two probes at a trap just before it;
 *   both end at a trap just before Go's time.Since: a difference of a few
 *   microseconds in 100 ms runs, far inside 0.5 %.
 * - traps: with a fixed count (-test.benchtime=100x) the runs are known
 *   (runN(1) and runN(100) per -test.count); one probe fires once per run
 *   (go_stop), two fire three times (go_runn, go_start, go_stop): at least
 *   halved, counted by BPF_STATS_RUN_TIME in the trace's END.
 * - interference counts from the harness's begin: BenchmarkSetup sleeps
 *   5 ms before b.ResetTimer(), which restarts b.start; that sleep (and
 *   runN's runtime.GC before StartTimer) ended before the begin and is
 *   excluded: blocked_ns stays under 5 ms, and off-CPU time never exceeds
 *   the duration.
 * - Google Benchmark (tests/progs/gbench_example): each repetition against
 *   its own real_time x iterations, both modes, interleaved rounds, medians
 *   within 0.5 % of each other; exactly one trap per iteration against two.
 * - another process running the same binary meanwhile: probes are set on
 *   the file, so its hits run the programs too; they are counted apart
 *   (END foreign_hits), and the runs less those are still exactly one or
 *   two per iteration, every repetition found.
 * - the choice: auto takes 1 for Go and records it in the trace's context;
 *   `--probes 1` where it cannot work (catch2, a duet method that stops a
 *   side at its begin), or a bad value: one line on stderr, exit 2.
 */
#include <json-c/json.h>
#include <math.h>
#include <signal.h>

#include "ktest.h"

#define ROUNDS	  3
#define MAX_LINES 64

/* Runs of one program by name in END's bpf_stats (0 when absent). */
static int64_t prog_runs(const struct bs_dataset *ds, const char *prog)
{
	for (size_t i = 0; i < ds->run_end.n_bpf_stats; i++)
		if (ds->run_end.bpf_stats[i].prog && !strcmp(ds->run_end.bpf_stats[i].prog, prog))
			return ds->run_end.bpf_stats[i].run_cnt;
	return 0;
}

/*
 * One run of `bench` with --probes `probes`: appends to ratio[] our
 * duration / Go's for each run Go printed (matched in order by N), returns
 * the dataset (NULL on failure, reported).
 */
static struct bs_dataset *measure(const char *probes, const char *bench, const char *benchtime,
				  const char *count, double *ratio, size_t *nr, size_t max)
{
	const char *trace = ktmp("onep.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"go",
			"--probes",
			(char *)probes,
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gobench.test"),
			"-test.run=^$",
			(char *)bench,
			(char *)benchtime,
			(char *)count,
			NULL};
	static struct kresult r;
	struct kgoline g[MAX_LINES];
	struct bs_dataset *ds = krun_ok(&r, argv, trace);
	size_t ng, cursor = 0;

	unlink(trace);
	if (!ds)
		return NULL;
	ng = kparse_go(r.out, g, MAX_LINES);
	CHECK(ng > 0);
	for (size_t j = 0; j < ng && *nr < max; j++) {
		while (cursor < ds->n_iters && ds->iters[cursor].invocations != (uint64_t)g[j].n)
			cursor++;
		if (cursor == ds->n_iters) {
			FAILF("--probes %s: no iteration with %lld invocations", probes, g[j].n);
			break;
		}
		ratio[(*nr)++] = dur_ns(&ds->iters[cursor]) / ((double)g[j].n * g[j].ns_op);
		cursor++;
	}
	return ds;
}

static void test_durations_agree(void)
{
	double r1[ROUNDS * 8], r2[ROUNDS * 8], m1, m2;
	size_t n1 = 0, n2 = 0;

	NEED_BPF();
	for (int k = 0; k < ROUNDS; k++) {
		const char *b = "-test.bench=^Benchmark(Small|Large)$";
		struct bs_dataset *d1, *d2;

		/* interleaved, the order alternating per round */
		d1 = measure(k % 2 ? "2" : "1", b, "-test.benchtime=100ms", "-test.count=2",
			     k % 2 ? r2 : r1, k % 2 ? &n2 : &n1, ROUNDS * 8);
		d2 = measure(k % 2 ? "1" : "2", b, "-test.benchtime=100ms", "-test.count=2",
			     k % 2 ? r1 : r2, k % 2 ? &n1 : &n2, ROUNDS * 8);
		if (d1 && d1->run_ctx.probes != (k % 2 ? 2 : 1))
			FAILF("the context records %lld probes", (long long)d1->run_ctx.probes);
		bs_dataset_free(d1);
		bs_dataset_free(d2);
	}
	CHECK_INT_EQ(n1, n2);
	m1 = kmedian(r1, n1);
	m2 = kmedian(r2, n2);
	fprintf(stderr,
		"    duration / Go's own, median of %zu runs: one probe %.5f, two probes %.5f "
		"(differ by %+.3f %%)\n",
		n1, m1, m2, (m1 / m2 - 1) * 100);
	CHECK(fabs(m1 / m2 - 1) < 0.005);
	CHECK(fabs(m1 - 1) < 0.005);
	CHECK(fabs(m2 - 1) < 0.005);
}

/*
 * Google Benchmark (tests/progs/gbench_example), --probes `probes`: appends
 * to ratio[] our duration / its own real_time x iterations for each
 * repetition (matched in order by the count); *traps: the boundary
 * programs' runs in the measured process (all runs less END's
 * foreign_hits, which must be there), *foreign those hits, *iters the
 * iterations recorded.
 */
static void measure_gbench(const char *probes, double *ratio, size_t *nr, size_t max,
			   int64_t *traps, int64_t *foreign, size_t *iters)
{
	const char *trace = ktmp("onep_gb.trace"), *gbjson = ktmp("onep_gb.json");
	char outarg[300];
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"gbench",
			"--probes",
			(char *)probes,
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gbench_example"),
			"--benchmark_repetitions=3",
			"--benchmark_min_time=0.05",
			outarg,
			"--benchmark_out_format=json",
			NULL};
	static struct kresult r;
	struct bs_dataset *ds;
	json_object *root, *benches;
	size_t cursor = 0;

	snprintf(outarg, sizeof(outarg), "--benchmark_out=%s", gbjson);
	ds = krun_ok(&r, argv, trace);
	root = json_object_from_file(gbjson);
	if (!ds || !root || !json_object_object_get_ex(root, "benchmarks", &benches)) {
		FAILF("no trace or no Google Benchmark JSON (%s)", r.err);
		goto out;
	}
	CHECK(ds->run_end.has_foreign_hits);
	*foreign = (int64_t)ds->run_end.foreign_hits;
	*traps = prog_runs(ds, "iter_begin_gbench") + prog_runs(ds, "iter_end") +
		 prog_runs(ds, "iter_end_gbench1") - *foreign;
	*iters = ds->n_iters;
	if (*traps != (probes[0] == '1' ? 1 : 2) * (int64_t)ds->n_iters) {
		size_t nested = 0;

		for (size_t i = 0; i < ds->n_iters; i++)
			nested += !!(ds->iters[i].flags & BS_ITER_F_NESTED);
		fprintf(stderr,
			"    --probes %s: %lld traps, %zu iterations begun again while open\n",
			probes, (long long)*traps, nested);
		kdump_run(probes[0] == '1' ? "--probes 1" : "--probes 2", ds);
	}
	for (size_t i = 0; i < json_object_array_length(benches) && *nr < max; i++) {
		int64_t n;
		double real_time;

		if (!kgb_repetition(json_object_array_get_idx(benches, i), &n, &real_time, NULL))
			continue; /* aggregates */
		while (cursor < ds->n_iters && ds->iters[cursor].invocations != (uint64_t)n)
			cursor++;
		if (cursor == ds->n_iters) {
			FAILF("--probes %s: no iteration with %lld invocations", probes,
			      (long long)n);
			break;
		}
		ratio[(*nr)++] = dur_ns(&ds->iters[cursor]) / (real_time * (double)n);
		cursor++;
	}
out:
	if (root)
		json_object_put(root);
	bs_dataset_free(ds);
	unlink(trace);
	unlink(gbjson);
}

/* The same for Google Benchmark: durations agree, traps halved exactly. */
static void test_gbench(void)
{
	double r1[ROUNDS * 12], r2[ROUNDS * 12], m1, m2;
	size_t n1 = 0, n2 = 0, it1 = 0, it2 = 0;
	int64_t t1 = 0, t2 = 0, f = 0;

	NEED_BPF();
	for (int k = 0; k < ROUNDS; k++) {
		if (k % 2) {
			measure_gbench("2", r2, &n2, ROUNDS * 12, &t2, &f, &it2);
			measure_gbench("1", r1, &n1, ROUNDS * 12, &t1, &f, &it1);
		} else {
			measure_gbench("1", r1, &n1, ROUNDS * 12, &t1, &f, &it1);
			measure_gbench("2", r2, &n2, ROUNDS * 12, &t2, &f, &it2);
		}
		/* one trap per iteration, or two */
		CHECK_INT_EQ(t1, (int64_t)it1);
		CHECK_INT_EQ(t2, 2 * (int64_t)it2);
	}
	CHECK_INT_EQ(n1, n2);
	m1 = kmedian(r1, n1);
	m2 = kmedian(r2, n2);
	fprintf(stderr,
		"    gbench duration / its own, median of %zu repetitions: one probe %.5f, two "
		"probes %.5f (differ by %+.3f %%); traps per iteration 1 and 2\n",
		n1, m1, m2, (m1 / m2 - 1) * 100);
	CHECK(fabs(m1 / m2 - 1) < 0.005);
	CHECK(fabs(m1 - 1) < 0.005);
	CHECK(fabs(m2 - 1) < 0.005);
}

/* The same with another run of gbench_example going on all the while. */
static void test_foreign_process(void)
{
	char loop[4300];
	double r[24];
	size_t n = 0, it1 = 0, it2 = 0;
	int64_t t1 = 0, t2 = 0, f1 = 0, f2 = 0;
	pid_t other;

	NEED_BPF();
	snprintf(loop, sizeof(loop),
		 "while :; do '%s' --benchmark_min_time=0.01 >/dev/null 2>&1; done",
		 kpath("progs/gbench_example"));
	other = fork();
	if (other == 0) {
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", loop, (char *)NULL);
		_exit(126);
	}
	if (other < 0) {
		FAILF("fork: %s", strerror(errno));
		return;
	}
	setpgid(other, other);
	usleep(300000);
	measure_gbench("1", r, &n, 24, &t1, &f1, &it1);
	measure_gbench("2", r, &n, 24, &t2, &f2, &it2);
	CHECK(waitpid(other, NULL, WNOHANG) == 0); /* it ran all the while */
	kill(-other, SIGKILL);
	waitpid(other, NULL, 0);
	fprintf(stderr,
		"    with another gbench_example running: %lld and %lld of its hits counted apart; "
		"%lld and %lld traps for %zu and %zu iterations\n",
		(long long)f1, (long long)f2, (long long)t1, (long long)t2, it1, it2);
	CHECK(f1 > 0 && f2 > 0);
	/* Once, under TCG (6.12 guests) and natively, the runs of the measured
	 * process (all runs less the foreign hits) exceeded the traps its
	 * iterations explain, with nothing counted as lost. The likely cause,
	 * fixed: the foreign process hit the probes between the reads of
	 * foreign_hits and of the run counts (now one snapshot,
	 * bs_probes_detach); exact since, natively and in a 6.1 guest. A count
	 * is never relaxed. */
	CHECK_INT_EQ(t1, (int64_t)it1);
	CHECK_INT_EQ(t2, 2 * (int64_t)it2);
	CHECK(n >= 2 * 9); /* 3 benchmarks x 3 repetitions, each run */
}

static void test_traps_halved(void)
{
	const char *b = "-test.bench=^BenchmarkLarge$";
	double ratio[64];
	size_t nr = 0;
	struct bs_dataset *d1, *d2;
	int64_t t1, t2, runs = 2 * 5; /* runN(1) and runN(100) per count */

	NEED_BPF();
	d1 = measure("1", b, "-test.benchtime=100x", "-test.count=5", ratio, &nr, 64);
	d2 = measure("2", b, "-test.benchtime=100x", "-test.count=5", ratio, &nr, 64);
	if (!d1 || !d2)
		goto out;
	/* nothing else runs gobench.test: no hits counted apart */
	CHECK(d1->run_end.has_foreign_hits && !d1->run_end.foreign_hits);
	CHECK(d2->run_end.has_foreign_hits && !d2->run_end.foreign_hits);
	t1 = prog_runs(d1, "go_runn") + prog_runs(d1, "go_start") + prog_runs(d1, "go_stop");
	t2 = prog_runs(d2, "go_runn") + prog_runs(d2, "go_start") + prog_runs(d2, "go_stop");
	fprintf(stderr, "    traps of %lld Go runs (+ Main's): one probe %lld, two probes %lld\n",
		(long long)runs, (long long)t1, (long long)t2);
	/* Main, the root B, runs runN(1) once more */
	CHECK_INT_EQ(prog_runs(d1, "go_stop"), runs + 1);
	CHECK_INT_EQ(t1, runs + 1);
	/* each of the three at least once per run (a 6.1 guest under TCG once
	 * counted 34: Go may start a timer once more than it runs) */
	CHECK(prog_runs(d2, "go_runn") >= runs + 1 && prog_runs(d2, "go_start") >= runs &&
	      prog_runs(d2, "go_stop") == runs + 1);
	CHECK(t2 >= 3 * runs + 2 && 2 * t1 <= t2);
	/* a run is never without its record: no end probe found its begin
	 * unreadable, no record or thread state went missing (the FAIL line
	 * names the counters: vmtest shows that line alone) */
	for (int k = 0; k < 2; k++) {
		const struct bs_dataset *d = k ? d2 : d1;
		char lost[512], inv[256] = "";
		size_t o = 0;

		if (d->n_iters == (size_t)runs && !klost_count(d, "end_without_begin") &&
		    !klost_count(d, "iter_lost") && !klost_count(d, "thread_map_full"))
			continue;
		kdump_run(k ? "--probes 2" : "--probes 1", d);
		for (size_t i = 0; i < d->n_iters && o + 24 < sizeof(inv); i++)
			o += (size_t)snprintf(inv + o, sizeof(inv) - o, "%s%llu", i ? "," : "",
					      (unsigned long long)d->iters[i].invocations);
		FAILF("--probes %d: %zu iterations of %lld runs (invocations %s); END lost: %s",
		      k + 1, d->n_iters, (long long)runs, inv,
		      bs_run_end_lost_list(&d->run_end, lost, sizeof(lost)));
	}
out:
	bs_dataset_free(d1);
	bs_dataset_free(d2);
}

static void test_interference_from_begin(void)
{
	double ratio[64];
	size_t nr = 0, setup = 0;
	struct bs_dataset *ds;

	NEED_BPF();
	ds = measure("auto", "-test.bench=^BenchmarkSetup$", "-test.benchtime=20ms",
		     "-test.count=3", ratio, &nr, 64);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->run_ctx.probes, 1);
	CHECK(ds->run_ctx.probes_choice && !strcmp(ds->run_ctx.probes_choice, "auto"));
	/* Under TCG an iteration of one invocation once took 10.2 ms, 9.6 ms of
	 * it blocked after Go's begin: there the sleep's length tells nothing,
	 * and only the bound by the iteration's own span is checked. */
	bool span_only = ktest_relaxed("blocked time bounded by the iteration, not by the sleep");

	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];

		setup++;
		if ((!span_only && it->blocked_ns >= 5000000) ||
		    it->preempted_ns + it->blocked_ns > it->end_ns - it->begin_ns ||
		    it->runq_wait_ns > it->end_ns - it->begin_ns)
			FAILF("iteration %zu (flags 0x%x): blocked %llu ns, preempted %llu ns, "
			      "run-queue wait %llu ns in %llu ns",
			      i, it->flags, (unsigned long long)it->blocked_ns,
			      (unsigned long long)it->preempted_ns,
			      (unsigned long long)it->runq_wait_ns,
			      (unsigned long long)(it->end_ns - it->begin_ns));
	}
	CHECK(setup >= 3 * 2);
	bs_dataset_free(ds);
}

static void test_bad_combinations(void)
{
	char *bs = (char *)kpath("benchscope"), *go = (char *)kpath("progs/gobench.test"),
	     *c2 = (char *)kpath("progs/catch2_bench");
	char *catch2[] = {bs, "run", "-q", "--probes", "1", "--preset", "catch2", "--", c2, NULL};
	char *three[] = {bs, "run", "-q", "--probes", "3", "--preset", "go", "--", go, NULL};
	char *sync[] = {bs,	    "duet", "-q", "--probes", "1",  "--preset", "go",
			"--method", "sync", "-A", go,	      "-B", go,		NULL};

	NEED_BPF();
	kexpect_usage(catch2, "--probes 1: only --preset go and gbench");
	kexpect_usage(three, "--probes takes 1, 2 or auto, not '3'");
	kexpect_usage(sync, "--probes 1: --method sync stops a side at its begin probe");
}

int main(void)
{
	RUN_TEST(test_durations_agree);
	RUN_TEST(test_traps_halved);
	RUN_TEST(test_gbench);
	RUN_TEST(test_foreign_process);
	RUN_TEST(test_interference_from_begin);
	RUN_TEST(test_bad_combinations);
	return test_summary("kernel-onep");
}
