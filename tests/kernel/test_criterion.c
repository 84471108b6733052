// SPDX-License-Identifier: MIT
/*
 * test_criterion - `--preset criterion` on a real, unmodified criterion.rs
 * benchmark (tests/progs/criterion_bench, built from Debian's
 * librust-criterion-dev 0.3.6), against criterion's own figures:
 *  - every sample criterion stored in <id>/new/sample.json (iters, times)
 *    is an iteration of ours with the same invocation count, in order, and
 *    agrees with its time within 1 % (samples of 5 ms or more), or within
 *    1 % plus the measured probe cost per iteration (shorter ones), plus
 *    whatever interference the kernel recorded in that iteration (a
 *    preemption at a probe's trap falls between our timestamp and
 *    criterion's clock read); our window contains criterion's (the probes
 *    are outside its clock reads), so ours is never the shorter;
 *  - the iterations before them are criterion's warm-up (1, 2, 4, ...),
 *    marked by the probe on Routine::warm_up, and bs_criterion_calibration
 *    finds the same split from the counts alone;
 *  - the benchmark ids are criterion's own (benchmark.json full_id), and the
 *    reports' grouping (bench_groups.h) keeps exactly the 10 samples of each;
 *  - bad input: a stripped binary, one without debug info and a non-criterion
 *    program are refused with one line and exit status 2;
 *  - run --stop leaves criterion's warm-up out of the stopper's iterations;
 *  - an A/A duet runs and reports each benchmark.
 */
#include <json-c/json.h>

#include "ktest.h"
#include "trace/bench_groups.h"
#include "trace/criterion_runs.h"

static const char *const ids[] = {"spin_1k", "spin_20k", "custom/spin_5k"};
#define N_IDS (sizeof(ids) / sizeof(ids[0]))

/* A fresh CRITERION_HOME (criterion writes its results there), and short times. */
static const char *crit_env(void)
{
	static char home[64];

	snprintf(home, sizeof(home), "/tmp/bs-ktest-crit-XXXXXX");
	if (!mkdtemp(home))
		return NULL;
	setenv("CRITERION_HOME", home, 1);
	/* 10 samples of 5.5 to 55 ms (linear sampling over 300 ms) */
	setenv("BS_CRIT_WARMUP_MS", "100", 1);
	setenv("BS_CRIT_MEASURE_MS", "300", 1);
	return home;
}

static void rm_rf(const char *dir)
{
	char cmd[300];

	if (!strncmp(dir, "/tmp/bs-ktest-crit-", 19)) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "note: could not remove %s\n", dir);
	}
}

/* CRITERION_HOME/<id>/new/<file> as JSON (NULL after a failed check). */
static json_object *crit_json(const char *home, const char *id, const char *file)
{
	char path[512];
	json_object *o;

	snprintf(path, sizeof(path), "%s/%s/new/%s", home, id, file);
	o = json_object_from_file(path);
	if (!o)
		FAILF("criterion wrote no %s", path);
	return o;
}

/* The iterations of benchmark `id` in trace order, by the names the probes recorded. */
static size_t runs_of(const struct bs_dataset *ds, const char *id, const struct bs_iter_rec **out,
		      size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < ds->n_iters && n < max; i++) {
		const char *nm = bs_dataset_bench_name(ds, ds->iters[i].pid, ds->iters[i].begin_ns);

		if (nm && !strcmp(nm, id))
			out[n++] = &ds->iters[i];
	}
	return n;
}

/* One benchmark: the samples against sample.json; returns the samples out of tolerance. */
static int check_benchmark(const struct bs_dataset *ds, const char *home, const char *id,
			   double probe_ns)
{
	const struct bs_iter_rec *runs[256];
	struct bs_iter_rec copy[256];
	const struct bs_iter_rec *cp[256];
	bool calib[256];
	json_object *bj = crit_json(home, id, "benchmark.json"), *sj, *v, *iters, *times;
	size_t n = runs_of(ds, id, runs, 256), nw = 0, ns = 0, k;
	double max_excess = 0, max_rel = 0;
	int bad = 0;

	if (!bj)
		return 0;
	/* criterion's own name for it */
	if (!json_object_object_get_ex(bj, "full_id", &v) || strcmp(json_object_get_string(v), id))
		FAILF("benchmark.json of %s: full_id %s", id,
		      v ? json_object_get_string(v) : "missing");
	json_object_put(bj);
	sj = crit_json(home, id, "sample.json");
	if (!sj)
		return 0;
	if (!json_object_object_get_ex(sj, "iters", &iters) ||
	    !json_object_object_get_ex(sj, "times", &times) ||
	    json_object_array_length(iters) != json_object_array_length(times)) {
		FAILF("sample.json of %s: no iters/times", id);
		json_object_put(sj);
		return 0;
	}
	/* warm-up first (1, 2, 4, ...), marked by the probes, then the samples */
	for (k = 0; k < n && (runs[k]->flags & BS_ITER_F_HARNESS_WARMUP); k++, nw++)
		CHECK_INT_EQ(runs[k]->invocations, 1ull << k);
	CHECK(nw >= 1);
	for (; k < n; k++) {
		const struct bs_iter_rec *r = runs[k];
		double ours = dur_ns(r), theirs, tol, interf;
		uint64_t want;

		CHECK(!(r->flags & BS_ITER_F_HARNESS_WARMUP));
		CHECK(r->flags & BS_ITER_F_INVOC);
		if (ns >= json_object_array_length(iters)) {
			FAILF("%s: more samples in the trace than sample.json's %zu", id,
			      json_object_array_length(iters));
			break;
		}
		want = (uint64_t)json_object_get_double(json_object_array_get_idx(iters, ns));
		theirs = json_object_get_double(json_object_array_get_idx(times, ns));
		ns++;
		if (r->invocations != want) {
			FAILF("%s sample %zu: %llu invocations, criterion %llu", id, ns,
			      (unsigned long long)r->invocations, (unsigned long long)want);
			continue;
		}
		/* our window holds criterion's, timed on the same clock */
		if (ours < theirs)
			FAILF("%s sample %zu: %.0f ns, shorter than criterion's %.0f ns", id, ns,
			      ours, theirs);
		if (ours - theirs > max_excess)
			max_excess = ours - theirs;
		if ((ours - theirs) / theirs > max_rel)
			max_rel = (ours - theirs) / theirs;
		tol = 0.01 * theirs +
		      (theirs < 5e6 || ktest_relaxed("probe cost added to samples of 5 ms or more")
			   ? probe_ns
			   : 0);
		/* The two windows differ by the probes' traps and by what
		 * interrupted the thread between our timestamp and criterion's
		 * clock read: a preemption right at a trap's return (this VM has
		 * 2 vCPUs, shared). That much of an excess is explained by the
		 * interference recorded in the iteration; more is an error. */
		interf = (double)(r->runq_wait_ns + r->irq_ns + r->softirq_ns + r->steal_ns);
		if (ours - theirs > tol + interf) {
			bad++;
			fprintf(stderr,
				"note: %s sample %zu over: benchscope %.0f ns, criterion %.0f ns "
				"(+%.0f "
				"ns, tolerance %.0f ns, interference %.0f ns)\n",
				id, ns, ours, theirs, ours - theirs, tol, interf);
		} else if (ours - theirs > tol) {
			fprintf(
			    stderr,
			    "note: %s sample %zu: benchscope %.0f ns, criterion %.0f ns: +%.0f ns, "
			    "over the tolerance %.0f ns, within the interference recorded in it "
			    "(%.0f ns)\n",
			    id, ns, ours, theirs, ours - theirs, tol, interf);
		}
	}
	CHECK_INT_EQ(ns, json_object_array_length(iters));
	CHECK_INT_EQ(ns, 10);
	fprintf(stderr,
		"note: %s: %zu warm-up runs, %zu samples; benchscope - criterion at most %.0f ns, "
		"%.3f %%\n",
		id, nw, ns, max_excess, 100 * max_rel);
	/* the rule of the reports finds the same split without the marks */
	for (k = 0; k < n; k++) {
		copy[k] = *runs[k];
		copy[k].flags &= ~BS_ITER_F_HARNESS_WARMUP;
		cp[k] = &copy[k];
	}
	bs_criterion_calibration(cp, n, calib, NULL);
	for (k = 0; k < n; k++)
		if (calib[k] != (k < nw))
			FAILF("%s: bs_criterion_calibration calls run %zu (%llu invocations) %s",
			      id, k, (unsigned long long)runs[k]->invocations,
			      calib[k] ? "warm-up" : "a sample");
	json_object_put(sj);
	return bad;
}

/* The reports' grouping (bench_groups.h, criterion's rule): each benchmark,
 * under its id, with its 10 samples and nothing else. */
static void check_groups(const struct bs_dataset *ds)
{
	const struct bs_iter_rec **p = calloc(ds->n_iters + 1, sizeof(*p));
	long *group = calloc(ds->n_iters + 1, sizeof(*group)), k;
	const char **names = calloc(ds->n_iters + 1, sizeof(*names));
	size_t count[N_IDS] = {0};

	if (!p || !group || !names) {
		FAILF("out of memory");
		goto out;
	}
	for (size_t i = 0; i < ds->n_iters; i++)
		p[i] = &ds->iters[i];
	k = bs_bench_group(ds, p, ds->n_iters, group, names);
	CHECK_INT_EQ(k, N_IDS);
	for (long g = 0; g < k && g < (long)N_IDS; g++)
		CHECK(names[g] && !strcmp(names[g], ids[g]));
	for (size_t i = 0; i < ds->n_iters; i++)
		if (group[i] >= 0 && group[i] < (long)N_IDS) {
			count[group[i]]++;
			CHECK(!(ds->iters[i].flags & BS_ITER_F_HARNESS_WARMUP));
		}
	for (size_t g = 0; g < N_IDS; g++)
		CHECK_INT_EQ(count[g], 10);
out:
	free(p);
	free(group);
	free(names);
}

static void test_samples_agree_with_criterion(void)
{
	const char *trace = ktmp("crit.trace"), *home;
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"criterion",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/criterion_bench"),
			"--bench",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	double probe_ns;
	int bad = 0;

	NEED_BPF();
	if (access(kpath("progs/criterion_bench"), X_OK))
		SKIP("%s not built (make examples: cargo, rustc, librust-criterion-dev)",
		     kpath("progs/criterion_bench"));
	home = crit_env();
	if (!home)
		SKIP("mkdtemp failed");
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		goto out;
	probe_ns = ds->run_ctx.probe_cost_per_iter_ns;
	CHECK(probe_ns > 0);
	fprintf(stderr, "note: probe cost %.0f ns per iteration\n", probe_ns);
	/* the names, in the order criterion ran them */
	CHECK_INT_EQ(ds->n_benches, N_IDS);
	for (size_t i = 0; i < N_IDS && i < ds->n_benches; i++)
		CHECK(!strcmp(ds->benches[i].name, ids[i]));
	for (size_t i = 0; i < N_IDS; i++)
		bad += check_benchmark(ds, home, ids[i], probe_ns);
	/* Under TCG the host deschedules the vCPU threads unseen by the guest
	 * (no interference recorded), and a trap takes long enough there for
	 * that to land between our timestamp and criterion's clock read: up to
	 * +3.8 ms seen in a sample of 25 ms, and 5 of 30 samples over (+1.3 to
	 * +2.8 %) in one 6.12 guest. There, a third of the 30 samples may be
	 * over, as test_catch2 allows for disturbed samples (none shorter:
	 * checked above; the invocation counts stay exact). */
	if (bad > 0 && bad <= 10 &&
	    ktest_relaxed("every sample within tolerance: 10 of 30 may be over"))
		bad = 0;
	CHECK_INT_EQ(bad, 0);
	CHECK(!strcmp(ds->run_ctx.boundaries_kind ? ds->run_ctx.boundaries_kind : "", "criterion"));
	check_groups(ds);
out:
	bs_dataset_free(ds);
	unlink(trace);
	rm_rf(home);
}

/*
 * run --stop: a fork of the criterion benchmark, ended after 3 warmup and 5
 * measurement iterations (inside spin_1k's 10 samples): criterion's warm-up
 * runs are counted as calibration and never fed (the preset's rule, live),
 * so exactly its first 8 samples are the stopper's warmup and measurement.
 */
static void test_stop_leaves_out_warm_up(void)
{
	const char *trace = ktmp("crit-stop.trace"), *home;
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"criterion",
			"--stop",
			"none",
			"--forks",
			"1:1",
			"--warmup",
			"3:3",
			"--measure",
			"5",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/criterion_bench"),
			"--bench",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	const struct bs_fork_event *f;
	size_t chain = 0, warm = 0, meas = 0;
	uint64_t d = 0;

	NEED_BPF();
	if (access(kpath("progs/criterion_bench"), X_OK))
		SKIP("%s not built", kpath("progs/criterion_bench"));
	home = crit_env();
	if (!home)
		SKIP("mkdtemp failed");
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		goto out;
	CHECK_INT_EQ(ds->run_ev.n_forks, 1);
	if (ds->run_ev.n_forks != 1)
		goto out;
	f = &ds->run_ev.forks[0];
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];

		if (it->pid != f->pid || (it->flags & BS_ITER_F_AFTER_STOP))
			continue;
		if (it->flags & BS_ITER_F_HARNESS_WARMUP) {
			CHECK_INT_EQ(it->invocations, 1ull << chain);
			chain++;
			continue;
		}
		if (!d)
			d = it->invocations;
		CHECK_INT_EQ(it->invocations, (warm + meas + 1) * d); /* linear sampling */
		if (it->flags & BS_ITER_F_WARMUP)
			warm++;
		else
			meas++;
	}
	fprintf(stderr, "note: %zu warm-up runs, then samples of %llu x k\n", chain,
		(unsigned long long)d);
	CHECK(chain >= 2);
	CHECK_INT_EQ(f->calibration_runs, chain);
	CHECK_INT_EQ(f->warmup_iterations, 3);
	CHECK_INT_EQ(f->measurement_iterations, 5);
	CHECK_INT_EQ(warm, 3);
	CHECK_INT_EQ(meas, 5);
out:
	bs_dataset_free(ds);
	unlink(trace);
	rm_rf(home);
}

/* `run --preset criterion -- PROG --bench`: exit 2, one line on stderr containing `want`. */
static void expect_refused(const char *prog, const char *want)
{
	char *argv[] = {(char *)kpath("benchscope"), "run", "--preset",		 "criterion", "-o",
			(char *)ktmp("bad.trace"),   "--",  (char *)kpath(prog), "--bench",   NULL};

	if (access(kpath(prog), X_OK)) {
		FAILF("%s not built", kpath(prog));
		return;
	}
	kexpect_usage(argv, want);
}

static void test_bad_input(void)
{
	if (access(kpath("progs/criterion_bench"), X_OK))
		SKIP("%s not built", kpath("progs/criterion_bench"));
	expect_refused("progs/criterion_bench_stripped", "has no symbol table");
	expect_refused("progs/criterion_bench_nodebug", "no DWARF debug information");
	expect_refused("progs/gbench_example", "does not look like a criterion benchmark");
}

static void test_aa_duet_reports_each_benchmark(void)
{
	const char *trace = ktmp("crit-duet.trace"), *home;
	char cmd[4200];
	char *argv[] = {(char *)kpath("benchscope"),
			"duet",
			"--preset",
			"criterion",
			"--runs",
			"3",
			"--no-mds",
			"--resamples",
			"999",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	struct kresult r;
	char want[128];

	NEED_BPF();
	if (access(kpath("progs/criterion_bench"), X_OK))
		SKIP("%s not built", kpath("progs/criterion_bench"));
	home = crit_env();
	if (!home)
		SKIP("mkdtemp failed");
	snprintf(cmd, sizeof(cmd), "%s --bench", kpath("progs/criterion_bench"));
	/* shorter still: 6 processes of 3 benchmarks */
	setenv("BS_CRIT_WARMUP_MS", "50", 1);
	setenv("BS_CRIT_MEASURE_MS", "150", 1);
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 0);
	if (r.exit_code)
		fprintf(stderr, "%s", r.err);
	for (size_t i = 0; i < N_IDS; i++) {
		snprintf(want, sizeof(want), "Benchmark %s ", ids[i]);
		if (!strstr(r.out, want))
			FAILF("the duet report has no '%s'", want);
	}
	unlink(trace);
	rm_rf(home);
}

int main(void)
{
	RUN_TEST(test_samples_agree_with_criterion);
	RUN_TEST(test_stop_leaves_out_warm_up);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_aa_duet_reports_each_benchmark);
	return test_summary("kernel-criterion");
}
