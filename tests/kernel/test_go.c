// SPDX-License-Identifier: MIT
/*
 * test_go - `--preset go` on a real, unmodified Go testing.B harness
 * (tests/progs/gobench, built with `go test -c` from Debian's golang-go):
 *
 * - every run Go prints (N and ns/op, -test.count=3) is an iteration of N
 *   invocations of the benchmark of that name, within 1 % of Go's ns/op;
 *   the iterations the calibration rule keeps (bench_groups.h) are exactly
 *   the runs Go printed; every iteration is named, and the runs of Bs with
 *   sub-benchmarks (Main, BenchmarkSub) are not iterations;
 * - BenchmarkMigrate's goroutine moves between threads (GOMAXPROCS=2, three
 *   competing goroutines): its iterations agree too, and with two probes
 *   (which follow the goroutine) some carry BS_ITER_F_MOVED;
 * - all of the above with one probe per iteration (--probes 1, the default
 *   for Go) and with two (the goroutine followed between threads);
 * - BenchmarkSetup sleeps 5 ms before b.ResetTimer(): it agrees only if the
 *   iteration restarts there, as Go's timer does;
 * - b.StopTimer in a benchmark flags its runs paused; runs ended by b.Skip
 *   (runtime.Goexit) give no iteration;
 * - bad input: a Go binary without DWARF, a stripped one, a program that is
 *   not Go: one line on stderr, exit status 2;
 * - `run --stop` ends its forks on Go measurement runs;
 * - an A/A duet runs and its report names the benchmarks as Go does;
 * - the waits of a B with sub-benchmarks (BenchmarkParent's set-up before
 *   its b.Run) and before a b.ResetTimer() (BenchmarkResetBusy's), beside a
 *   competitor on its CPU, are not charged to the interferers, but counted
 *   as left out.
 */
#include <json-c/json.h>

#include "ktest.h"
#include "trace/bench_groups.h"

#define GO_COUNT    3
#define MAX_LINES   64
#define GO_SLICE_NS 10e6 /* Go's scheduler slice (runtime's forcePreemptNS) */

static const char *name_of(const struct bs_dataset *ds, const struct bs_iter_rec *r)
{
	const char *n = bs_dataset_bench_name(ds, r->pid, r->begin_ns);

	return n ? n : "";
}

/*
 * One measured run, every run Go printed against ours, within 1 %. Between
 * our stamp and Go's own time.Now (or Go's time.Since and ours) there is
 * only the rest of a probe's trap; a thread preempted right there, on a
 * shared 2-vCPU VM, is the one way the two can differ by more than 1 % of a
 * 100 ms run, and the iteration's record then shows the preemption: such a
 * run is excused (kexcused, printed), at most a quarter of them. No retry.
 * Under QEMU TCG the host can stall the guest's vCPU thread for milliseconds
 * there, unseen (a 6.1 guest once had 3590 against Go's 3932 ns/op, a record
 * showing 0.6 ms of run-queue wait): there each run may be 10 % off, and
 * the median ratio, which one stall does not move but an error of the
 * probes would, must be within 2 %.
 * `probes`: --probes 1 (the end probe alone, bpf/onep.bpf.h) or 2
 * (goroutine-following, go.bpf.h).
 */
static void runs_agree_with_go(const char *probes)
{
	const char *trace = ktmp("go.trace");
	char count[32];
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
			"-test.bench=^Benchmark(Small|Large|Migrate|Setup|Sub)$",
			"-test.benchtime=100ms",
			count,
			NULL};
	static struct kresult r;
	struct kgoline g[MAX_LINES];
	struct bs_dataset *ds;
	const struct bs_iter_rec **ptr = NULL;
	long *group = NULL, k;
	bool *matched = NULL, dumped = false;
	size_t ng, cursor = 0, n_moved = 0, n_migrate = 0, n_kept = 0, excused = 0;
	const double tol = ktest_emulated() ? 0.10 : 0.01,
		     median_tol = ktest_emulated() ? 0.02 : 0.01;
	double ratio[MAX_LINES];
	size_t nr = 0;

	NEED_BPF();
	if (tol > 0.01)
		ktest_relaxed("runs within 1 % of Go's ns/op: 10 %, the median within 2 %");
	snprintf(count, sizeof(count), "-test.count=%d", GO_COUNT);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	ng = kparse_go(r.out, g, MAX_LINES);
	CHECK_INT_EQ(ng, 6 * GO_COUNT); /* Small, Large, Migrate, Setup, Sub/fast, Sub/slow */
	ptr = calloc(ds->n_iters + 1, sizeof(*ptr));
	group = calloc(ds->n_iters + 1, sizeof(*group));
	matched = calloc(ds->n_iters + 1, sizeof(*matched));
	if (!ptr || !group || !matched) {
		FAILF("out of memory");
		goto out;
	}
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];
		const char *nm = name_of(ds, it);

		ptr[i] = it;
		if (!dumped && (!*nm || (it->flags & BS_ITER_F_PAUSED))) {
			kdump_run(probes[0] == '1' ? "--probes 1" : "--probes 2", ds);
			dumped = true;
		}
		if (!*nm || !strcmp(nm, "Main") || !strcmp(nm, "BenchmarkSub")) {
			FAILF("iteration %zu is named '%s' (a B with sub-benchmarks, or none)", i,
			      nm);
		}
		CHECK(!(it->flags & BS_ITER_F_PAUSED)); /* no StopTimer in these bodies */
		/* what a thread suffered is inside the iteration, also after a move
		 * (a state carried over from another thread would break this) */
		if (it->preempted_ns + it->blocked_ns > it->end_ns - it->begin_ns ||
		    it->runq_wait_ns > it->end_ns - it->begin_ns)
			FAILF("iteration %zu (%s, flags 0x%x): off CPU %llu + %llu ns, run-queue "
			      "wait %llu ns in %llu ns",
			      i, nm, it->flags, (unsigned long long)it->preempted_ns,
			      (unsigned long long)it->blocked_ns,
			      (unsigned long long)it->runq_wait_ns,
			      (unsigned long long)(it->end_ns - it->begin_ns));
		if (!strcmp(nm, "BenchmarkMigrate")) {
			n_migrate++;
			n_moved += !!(it->flags & BS_ITER_F_MOVED);
		}
	}
	/* each run Go printed: the next iteration of that name with that count */
	for (size_t j = 0; j < ng; j++) {
		double ours;

		while (cursor < ds->n_iters &&
		       (strcmp(name_of(ds, &ds->iters[cursor]), g[j].name) ||
			ds->iters[cursor].invocations != (uint64_t)g[j].n))
			cursor++;
		if (cursor == ds->n_iters) {
			FAILF("no iteration of %s with %lld invocations", g[j].name, g[j].n);
			goto out;
		}
		CHECK(ds->iters[cursor].flags & BS_ITER_F_INVOC);
		matched[cursor] = true;
		ours = dur_ns(&ds->iters[cursor]) / (double)g[j].n;
		if (nr < MAX_LINES)
			ratio[nr++] = ours / g[j].ns_op;
		if (fabs(ours - g[j].ns_op) > tol * g[j].ns_op) {
			const struct bs_iter_rec *it = &ds->iters[cursor];
			double want = g[j].ns_op * (double)g[j].n;
			bool ok = kexcused(it, dur_ns(it) - want, tol * want);

			/* under TCG only: BenchmarkMigrate's goroutine shares 2 Ps
			 * with 3 busy ones, and Go's scheduler may take its P for
			 * their slices (10 ms each, forcePreemptNS) between a
			 * probe and Go's own clock read (the preemption signal
			 * lands as the trap returns; an emulated trap is long).
			 * Neither the thread nor the kernel sees that wait. */
			bool sched = !ok && ktest_emulated() &&
				     !strcmp(g[j].name, "BenchmarkMigrate") &&
				     fabs(dur_ns(it) - want) <= tol * want + 2 * GO_SLICE_NS;

			excused += ok || sched;
			if (sched)
				fprintf(stderr,
					"    %s N=%lld: benchscope %.4g ns/op, Go %.4g ns/op: "
					"excused under emulation, within two of Go's scheduler "
					"slices\n",
					g[j].name, g[j].n, ours, g[j].ns_op);
			else if (!ok)
				FAILF("%s N=%lld: benchscope %.4g ns/op, Go %.4g ns/op, run-queue "
				      "wait %llu ns, blocked %llu ns",
				      g[j].name, g[j].n, ours, g[j].ns_op,
				      (unsigned long long)it->runq_wait_ns,
				      (unsigned long long)it->blocked_ns);
			else
				fprintf(stderr,
					"    %s N=%lld: benchscope %.4g ns/op, Go %.4g ns/op: "
					"excused, its record shows %llu ns of run-queue wait and "
					"%llu ns blocked\n",
					g[j].name, g[j].n, ours, g[j].ns_op,
					(unsigned long long)it->runq_wait_ns,
					(unsigned long long)it->blocked_ns);
		}
		cursor++;
	}
	/* the calibration rule keeps exactly the runs Go printed */
	k = bs_bench_group(ds, ptr, ds->n_iters, group, NULL);
	CHECK_INT_EQ(k, 6);
	for (size_t i = 0; i < ds->n_iters; i++) {
		n_kept += group[i] != BS_GBENCH_CALIBRATION;
		if ((group[i] != BS_GBENCH_CALIBRATION) != matched[i])
			FAILF("iteration %zu (%s, N=%llu): %s by the rule, %s by Go", i,
			      name_of(ds, &ds->iters[i]),
			      (unsigned long long)ds->iters[i].invocations,
			      group[i] == BS_GBENCH_CALIBRATION ? "calibration" : "kept",
			      matched[i] ? "printed" : "not printed");
	}
	CHECK_INT_EQ(n_kept, ng);
	if (excused > ng / 4)
		FAILF("%zu of %zu runs excused by a preemption: more than a quarter", excused, ng);
	if (nr) {
		double m = kmedian(ratio, nr);

		if (fabs(m - 1) > median_tol)
			FAILF("median of benchscope / Go over %zu runs: %.4f", nr, m);
	}
	/* the goroutine of BenchmarkMigrate changed threads in some iteration:
	 * two probes follow it; one sees only an end thread off CPU at the begin */
	fprintf(stderr, "    BenchmarkMigrate (--probes %s): %zu of %zu iterations moved\n", probes,
		n_moved, n_migrate);
	if (!strcmp(probes, "2"))
		CHECK(n_moved > 0);
out:
	free(ptr);
	free(group);
	free(matched);
	bs_dataset_free(ds);
	unlink(trace);
}

static void test_runs_agree_with_go(void)
{
	runs_agree_with_go("1");
}

static void test_runs_agree_with_go_two_probes(void)
{
	runs_agree_with_go("2");
}

/*
 * A benchmark that stops its timer (b.StopTimer) gets the flag paused in
 * every run; one that skips (b.Skip: runtime.Goexit before runN's
 * StopTimer) has only its first run (N=1) recorded, the skipped ones
 * dropped, none closed at the exit.
 */
static void test_paused_and_skipped(void)
{
	const char *trace = ktmp("flags.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"go",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gobench.test"),
			"-test.run=^$",
			"-test.bench=^Benchmark(Paused|Skipped)$",
			"-test.benchtime=20ms",
			"-test.count=2",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t paused = 0, skipped = 0;

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];
		const char *nm = name_of(ds, it);

		CHECK(!(it->flags & BS_ITER_F_EXIT));
		if (!strcmp(nm, "BenchmarkPaused")) {
			paused++;
			CHECK(it->flags & BS_ITER_F_PAUSED);
		} else if (!strcmp(nm, "BenchmarkSkipped")) {
			skipped++;
			CHECK_INT_EQ(it->invocations, 1);
			CHECK(!(it->flags & BS_ITER_F_PAUSED));
		} else {
			FAILF("iteration %zu is named '%s'", i, nm);
		}
	}
	CHECK(paused >= 2 * 2);	  /* per count: runN(1) and at least one more */
	CHECK_INT_EQ(skipped, 2); /* runN(1) of each count */
	bs_dataset_free(ds);
	unlink(trace);
}

/* benchscope run --preset go -- PROG: exit 2, one line on stderr with `want`. */
static void bad_one(const char *prog, const char *want)
{
	char *argv[] = {
	    (char *)kpath("benchscope"), "run", "-q",	      "--preset",      "go", "-o",
	    (char *)ktmp("bad.trace"),	 "--",	(char *)prog, "-test.bench=.", NULL};

	kexpect_usage(argv, want);
}

static void test_bad_input(void)
{
	bad_one(kpath("progs/gobench_nodwarf.test"), "no DWARF");
	bad_one(kpath("progs/gobench_stripped.test"), "stripped of its symbol table");
	bad_one(kpath("progs/iter_loop"), "is not a Go program");
}

/* Without -test.bench Go runs tests only: no iteration, exit 3, and the
 * reason on stderr, beside the probes that never fired. */
static void test_no_benchmark_selected(void)
{
	const char *trace = ktmp("nobench.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"go",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gobench.test"),
			"-test.run=^TestLayout$",
			NULL};
	struct kresult r;

	NEED_BPF();
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 3);
	CHECK(strstr(r.err, "no iteration was recorded") != NULL);
	CHECK(strstr(r.err, "benchscope run: warning: the command has no -test.bench: Go runs no "
			    "benchmark unless it selects some") != NULL);
	unlink(trace);
}

/* run --stop: forks end on Go measurement runs, calibration runs never count. */
static void test_stop(void)
{
	const char *trace = ktmp("stop.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"go",
			"--stop",
			"cv",
			"--warmup",
			"1:2",
			"--measure",
			"3",
			"--forks",
			"1:1",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gobench.test"),
			"-test.run=^$",
			"-test.bench=^BenchmarkSmall$",
			"-test.benchtime=20ms",
			"-test.count=100000",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t measured = 0, printed;
	bool dumped = false;
	struct kgoline g[MAX_LINES];

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	/* measurement iterations: neither warmup nor after the stop nor calibration
	 * (the growing rule: followed by a run with more invocations) */
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];

		/* ended by SIGTERM, Main's iteration (a parent) gives no record */
		if (!dumped && !*name_of(ds, it)) {
			kdump_run("--stop cv", ds);
			dumped = true;
		}
		if (strcmp(name_of(ds, it), "BenchmarkSmall"))
			FAILF("iteration %zu is named '%s' (flags 0x%x)", i, name_of(ds, it),
			      it->flags);
		if (it->flags & (BS_ITER_F_WARMUP | BS_ITER_F_AFTER_STOP))
			continue;
		if (i + 1 < ds->n_iters && ds->iters[i + 1].invocations > it->invocations)
			continue;
		measured++;
	}
	CHECK_INT_EQ(measured, 3);
	/* Go printed at least warmup + measurement runs before the SIGTERM */
	printed = kparse_go(r.out, g, MAX_LINES);
	CHECK(printed >= 4);
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * An A/A duet of two Go benchmarks: it runs and names them as Go does.
 * Interleaved: the sides take turns, an iteration each, through the
 * barrier; the runs of Main (a B with sub-benchmarks, no iteration) must
 * pass their turn when their children begin, or both sides wait forever.
 *
 * What the interferers were charged is the run-queue wait (kcheck_charges).
 * Charging also a side's wait at the barrier, which its iteration leaves
 * out (preempted with its stop pending, or woken by the barrier's SIGCONT,
 * it waits there for the other side's whole iteration), and the wait of
 * Main, the parent B that Go does not measure, an AMD EPYC/KVM VM charged
 * 27.4 and 30.3 ms against 11.3 and 13.1 ms of wait; the barrier's alone,
 * 14.0 and 13.4 against 9.0 and 9.1 ms; neither, exactly the wait (9.23,
 * 9.20 and 12.55 ms in three runs).
 */
static void test_duet_aa(void)
{
	const char *trace = ktmp("duet.trace"), *json = ktmp("duet.json");
	char cmd[1024];
	char *argv[] = {(char *)kpath("benchscope"),
			"duet",
			"-q",
			"--preset",
			"go",
			"--method",
			"interleaved",
			"--noise-check",
			"0",
			"--runs",
			"3",
			"--json",
			(char *)json,
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	struct kresult r;
	json_object *root = NULL, *benches, *runs, *v;
	struct bs_dataset *ds;
	bool small = false, large = false;

	NEED_BPF();
	snprintf(cmd, sizeof(cmd),
		 "%s -test.run='^$' -test.bench='^Benchmark(Small|Large)$' -test.benchtime=50ms "
		 "-test.count=2",
		 kpath("progs/gobench.test"));
	if (!(root = krun_json(&r, argv, json)))
		goto out;
	CHECK(json_object_object_get_ex(root, "runs", &runs) &&
	      json_object_object_get_ex(runs, "used", &v) && json_object_get_int(v) == 3);
	CHECK(json_object_object_get_ex(root, "aa", &v) && json_object_get_boolean(v));
	CHECK(json_object_object_get_ex(root, "benchmarks", &benches));
	CHECK_INT_EQ(json_object_array_length(benches), 2);
	for (size_t i = 0; i < json_object_array_length(benches); i++) {
		const char *name = "";

		if (json_object_object_get_ex(json_object_array_get_idx(benches, i), "name", &v))
			name = json_object_get_string(v);
		small |= !strcmp(name, "BenchmarkSmall");
		large |= !strcmp(name, "BenchmarkLarge");
	}
	CHECK(small && large);
	if ((ds = kload(trace))) {
		kcheck_charges(ds, "interleaved Go A/A duet");
		bs_dataset_free(ds);
	}
out:
	if (root)
		json_object_put(root);
	unlink(trace);
	unlink(json);
}

/*
 * The harness and a competitor share one CPU, so BenchmarkParent waits for
 * it during its set-up (work(20000000), ~30 ms natively) before its child
 * begins, and BenchmarkResetBusy during its own (work(10000000)) before
 * b.ResetTimer(). Go measures neither the parent nor the time before a
 * reset, nor do the records, and what the competitor ran meanwhile is left
 * out of the interferers (counted apart) rather than charged: before, a
 * parent's wait was charged though no record had it (39.2 ms for a
 * 30M-round set-up beside a busy loop, against 0 ns of wait in the records).
 */
static void test_unmeasured_wait_left_out(void)
{
	const char *trace = ktmp("goparent.trace");
	char cpu[8];
	char *argv[] = {"/usr/bin/taskset",
			"-c",
			cpu,
			(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"go",
			"--probes",
			"2",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gobench.test"),
			"-test.run=^$",
			"-test.bench=^Benchmark(Parent|ResetBusy)$",
			"-test.benchtime=200x",
			"-test.count=2",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t n_reset = 0;
	pid_t comp;

	NEED_BPF();
	snprintf(cpu, sizeof(cpu), "%d", (int)sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0);
	comp = kcompetitor(atoi(cpu), "60");
	usleep(100000);
	ds = krun_ok(&r, argv, trace);
	kreap(comp);
	if (!ds)
		return;
	for (size_t i = 0; i < ds->n_iters; i++) {
		CHECK(strcmp(name_of(ds, &ds->iters[i]), "BenchmarkParent") != 0);
		n_reset += !strcmp(name_of(ds, &ds->iters[i]), "BenchmarkResetBusy");
	}
	CHECK_INT_EQ(n_reset, 4); /* count 2, each a runN(1) and a runN(200) */
	kcheck_charges(ds, "parent B and reset timer beside a competitor");
	/* set-ups of tens of ms, each sharing its CPU with the competitor */
	CHECK(ds->run_end.has_unrecorded);
	CHECK(ds->run_end.unrecorded_iterations >= 1);
	CHECK(ds->run_end.unrecorded_ns >= 10000000);
	fprintf(stderr, "    left out: %.3f ms in %llu iterations without a record\n",
		(double)ds->run_end.unrecorded_ns / 1e6,
		(unsigned long long)ds->run_end.unrecorded_iterations);
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	RUN_TEST(test_runs_agree_with_go);
	RUN_TEST(test_runs_agree_with_go_two_probes);
	RUN_TEST(test_paused_and_skipped);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_no_benchmark_selected);
	RUN_TEST(test_stop);
	RUN_TEST(test_duet_aa);
	RUN_TEST(test_unmeasured_wait_left_out);
	return test_summary("kernel-go");
}
