// SPDX-License-Identifier: MIT
/*
 * test_duet - `benchscope duet` on the bundled Google Benchmark example
 * (A, and B with exactly 10 % more work per invocation) and on the
 * ground-truth harness iter_loop: A/A reports no difference, B is detected
 * slower with the right sign and size, the sync barrier's release skew is
 * measured and bounded (and agrees with the iteration records), failing
 * sides fail their run only, --stop-ci stops, Ctrl-C keeps the trace.
 * Each test states its bound; they are set from what this 2-vCPU VM gives
 * while other work shares it.
 */
#include <math.h>
#include <signal.h>

#include "duet/analysis.h"
#include "duet/data.h"
#include "duet/noise.h"
#include "ktest.h"

#define BENCHSCOPE kpath("benchscope")
#define ITER_LOOP  kpath("progs/iter_loop")

/* One benchmark, short runs: about 0.4 s per side and run. */
#define GB_ARGS                                                                                    \
	" --benchmark_filter=BM_SortInts --benchmark_min_time=0.03 --benchmark_repetitions=5"
/* B's 10 % more work costs 10-17 % more time in BM_MapInsert (Google
 * Benchmark's own B/A on an AMD EPYC/KVM VM, 1.10-1.17 in 38 measurements);
 * in BM_SortInts only 1.02-1.07 there, the repeated sort costing less than
 * a whole invocation (a duet there found 3.7 %, under the 4 % bound; 9 % on
 * an Intel Xeon) */
#define GB_ARGS_AB                                                                                 \
	" --benchmark_filter=BM_MapInsert --benchmark_min_time=0.03 --benchmark_repetitions=5"

static char cmd_a[4200], cmd_ab_b[4200], cmd_ab_a[4200], sym_iter[4200];

static json_object *ev_member(json_object *ev, const char *a, const char *b)
{
	return bs_json_get(bs_json_get(ev, a), b);
}

/* The analysis the report prints, at confidence @level (0: the report's
 * 0.95): the verdict of `method` of benchmark 0. */
static bool verdict_at(const struct bs_dataset *ds, enum bs_dmethod method, double level,
		       struct bs_dmres *out)
{
	struct bs_danalysis_opts o = {
	    .seed = 1, .no_mds = true, .n_resamples = 2000, .level = level};
	struct bs_duet_data *d = kduet_model(ds, 0);
	struct bs_duet_analysis *an = NULL;
	bool ok = false;

	if (!d)
		return false;
	if (bs_duet_analysis_run(d, &o, &an) == 0 && an->n >= 1 && an->b[0].m[method].has_verdict) {
		*out = an->b[0].m[method];
		out->pairs = NULL;
		out->n_pairs = NULL;
		ok = true;
	} else if (an && an->n >= 1) {
		char why[300];

		/* say why, for the failure that follows */
		bs_duet_model_err_text(&an->b[0].m[method], why, sizeof(why));
		fprintf(stderr, "    no %s verdict: %zu runs, %s\n", bs_dmethod_name(method),
			an->b[0].m[method].n_runs, why);
	}
	bs_duet_analysis_free(an);
	bs_duet_data_free(d);
	return ok;
}

static bool verdict_of(const struct bs_dataset *ds, enum bs_dmethod method, struct bs_dmres *out)
{
	return verdict_at(ds, method, 0, out);
}

/*
 * Run-queue wait as a fraction of the analysed sides' iteration time. On
 * 2 vCPUs an async duet gives each side a CPU; when other work (a QEMU
 * guest, a compiler) takes one, both sides share the other and the wait
 * share goes to ~50 %: per-run means then swing by 2x and no 8-run duet
 * can resolve 10 %. The accuracy checks below hold on a machine where the
 * duet's sides waited less than BUSY_SHARE of their time; on a busier one
 * they print the measured share and are not judged (the functional checks
 * still are).
 */
#define BUSY_SHARE 0.15
static double runq_share(const struct bs_dataset *ds)
{
	double wait = 0, busy = 0;
	size_t i;

	for (i = 0; i < ds->n_iters; i++) {
		wait += (double)ds->iters[i].runq_wait_ns;
		busy += (double)(ds->iters[i].end_ns - ds->iters[i].begin_ns);
	}
	return busy > 0 ? wait / busy : 0;
}

/*
 * A/A without machine noise: the tool adds no bias of its own. iter_loop's
 * iterations end when the thread has used 2 ms of CPU time, so their
 * duration does not depend on which vCPU runs them or how fast it is that
 * moment (the host's contention is counted as the thread's CPU time); only
 * time the thread did not run lengthens them, and the kernel accounts that
 * (run-queue wait, IRQ, softirq, steal). Both sides are the same command on
 * the same probe, so per side the median of (duration - lost time) is 2 ms
 * plus the probe cost. That excess is the CPU's, not only the tool's: on
 * an AMD EPYC/KVM VM with another task on vCPU 0 (a sleeper waking every
 * 300 us), it was 30-57 us there against 2-8 us on vCPU 1, so A and B
 * differed by 1.3-1.5 % when each kept its CPU for a whole run, and by up
 * to 0.36 % when they took vCPU 0 in turns, run by run; a host that slows
 * one vCPU does the same. So the sides exchange CPUs every 20 ms within
 * each run (--swap-every) and are compared CPU by CPU over the iterations
 * that stayed on one CPU: there both sides meet the same CPU at nearly the
 * same moments (with that sleeper: within 0.19 %), and any difference
 * between A and B beyond a few microseconds would come from how benchscope
 * starts, follows or stamps the sides. Asserted: at least a quarter of each
 * side's iterations on each CPU (the exchange happened), on each CPU the
 * two medians within 0.3 % of each other, all four within [2 ms, 2 ms +
 * 3 %]. The verdict is printed (a preemption of a few ms in one run moves
 * the mean, which is why the medians of what remains are compared).
 */
static void test_aa_no_tool_bias(void)
{
	const char *trace = ktmp("aabias.trace");
	char cmd[4200];
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"async",
			"--swap-every",
			"20",
			"--runs",
			"4",
			"--seed",
			"7",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	/* [cpu][side]: duration - lost of the iterations that stayed there */
	static double own[2][2][4096];
	size_t n[2][2] = {{0, 0}, {0, 0}}, n_moved = 0, n_other = 0;
	struct bs_duet_data *d = NULL;
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_dmres v;
	double med[2][2];

	NEED_BPF();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("--crossover needs 2 CPUs (this machine has %ld)",
		     sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(cmd, sizeof(cmd), "%s 150 2000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	if (!(d = kduet_model(ds, 1)))
		goto out;
	for (size_t k = 0; k < d->benches[0].n_runs[BS_DM_ASYNC]; k++)
		for (int s = 0; s < 2; s++) {
			const struct bs_dside *sd = &d->benches[0].runs[BS_DM_ASYNC][k].side[s];

			for (size_t i = 0; i < sd->n; i++) {
				__u32 c = sd->rec[i]->cpu_begin;

				if (c != sd->rec[i]->cpu_end || sd->rec[i]->migrations) {
					n_moved++;
					continue;
				}
				if (c > 1 || n[c][s] >= 4096) {
					n_other++;
					continue;
				}
				own[c][s][n[c][s]++] =
				    (double)(sd->iv[i].end_ns - sd->iv[i].start_ns) -
				    (double)bs_duet_iter_lost_ns(sd->rec[i]);
			}
		}
	/* 4 runs of 150 iterations per side, about half on each CPU */
	fprintf(stderr, "    %zu of 1200 iterations moved between CPUs (not compared)\n", n_moved);
	CHECK_INT_EQ(n_other, 0);
	for (int c = 0; c < 2; c++)
		for (int s = 0; s < 2; s++) {
			CHECK(n[c][s] >= 150);
			if (!n[c][s] || bs_quantile(own[c][s], n[c][s], 0.5, &med[c][s])) {
				FAILF("no median of duration - lost on CPU %d, side %c", c,
				      "AB"[s]);
				goto out;
			}
		}
	for (int c = 0; c < 2; c++)
		fprintf(
		    stderr,
		    "    A/A iter_loop 2 ms (run-queue wait %.1f %%), CPU %d: median duration - "
		    "lost: A %.1f us, B %.1f us (B %+.3f %%)\n",
		    100 * runq_share(ds), c, med[c][0] / 1e3, med[c][1] / 1e3,
		    (med[c][1] / med[c][0] - 1) * 100);
	if (verdict_of(ds, BS_DM_ASYNC, &v))
		fprintf(stderr, "      verdict: %s\n", v.verdict);
	for (int c = 0; c < 2; c++) {
		if (ktest_relaxed("A/A tool bias")) {
			CHECK(fabs(med[c][1] / med[c][0] - 1) < 0.05);
			continue;
		}
		CHECK(fabs(med[c][1] / med[c][0] - 1) < 0.003);
		CHECK(med[c][0] > 2e6 && med[c][0] < 2.06e6);
		CHECK(med[c][1] > 2e6 && med[c][1] < 2.06e6);
	}
out:
	bs_duet_data_free(d);
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * A/A (the same command on both sides), async with --crossover, 10 runs:
 * no difference. On these VMs the host may slow one vCPU by up to 2x for
 * seconds while the guest sees nothing; the sides start half the runs on
 * each CPU and the run-level model's CPU term takes that speed difference
 * out (duet/model.h). What is judged is that the interval holds: with the
 * CPU carried into the version term (the defect this guards against) an
 * A/A duet printed "B is 59.6 % slower". At the report's 95 % a model that
 * holds still calls a difference in 1 A/A duet of 20, by construction:
 * 42 of these duets on an Intel Xeon/KVM VM whose vCPUs the host slows at
 * times (residual sd 6-45 % per run) gave p < 0.05 in 2 and p < 0.1 in 4,
 * and a CI run on an AMD EPYC/KVM VM printed "B is 25.2 % slower, 95 % CI
 * [8.7, 44.2] %" (p = 0.006). So the 95 % verdict is printed, and the same
 * model is judged at 99.9 %: it fails 1 duet in 1000 when the interval
 * holds, and would have failed 37 of those 42 had their estimates carried
 * a CPU's 1.6x (their 99.9 % half widths were under ln 1.6). One
 * duet, one seed, no retry: a failure needs the 99.9 % interval to exclude
 * 0 AND the estimate to be off by more than 1.5 %. The tool's own bias is
 * measured on a harness of known timing by test_aa_no_tool_bias. Not
 * judged when the machine was busy (other work took a CPU from both sides:
 * run-queue wait above BUSY_SHARE).
 */
static void test_aa_no_difference(void)
{
	const char *trace = ktmp("aa.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--preset",
			"gbench",
			"--method",
			"async",
			"--crossover",
			"--runs",
			"10",
			"-o",
			(char *)trace,
			"-A",
			cmd_a,
			"-B",
			cmd_a,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_dmres v, v999;
	bool quiet, busy;

	NEED_BPF();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("--crossover needs 2 CPUs (this machine has %ld)",
		     sysconf(_SC_NPROCESSORS_ONLN));
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK(json_object_get_boolean(ev_member(ds->context, "duet", "aa")));
	CHECK(json_object_get_boolean(ev_member(ds->context, "duet", "crossover")));
	CHECK_INT_EQ(kevents(ds, "duet_run", NULL, 0), 10);
	CHECK_INT_EQ(json_object_get_int(ev_member(ds->end, "status_runs", "ok")), 10);
	busy = runq_share(ds) > BUSY_SHARE;
	if (!verdict_of(ds, BS_DM_ASYNC, &v) || !verdict_at(ds, BS_DM_ASYNC, 0.999, &v999)) {
		FAILF("no async verdict");
		bs_dataset_free(ds);
		return;
	}
	fprintf(stderr, "    A/A async --crossover (run-queue wait %.1f %%): %s (p = %.3g)",
		100 * runq_share(ds), v.verdict, v.model.p);
	if (v.cpu.checked)
		fprintf(stderr, "; vCPU %d / vCPU %d %.2fx, slowed in %zu of %zu runs",
			v.cpu.slow_cpu, v.cpu.fast_cpu, v.cpu.ratio, v.cpu.n_slowed, v.cpu.n_apart);
	fprintf(stderr, "\n      judged at 99.9 %%: %s\n", v999.verdict);
	CHECK(fabs(v999.v.pct - v.v.pct) < 1e-9);
	CHECK(v999.v.lo_pct < v.v.lo_pct && v999.v.hi_pct > v.v.hi_pct);
	quiet = v999.v.kind == BS_VERDICT_NO_DIFFERENCE || fabs(v999.v.pct) < 1.5;
	if (!quiet && busy)
		SKIP_JUDGEMENT("A/A accuracy not judged: the sides waited for a CPU %.1f %% of "
			       "their time (> %.0f %%)",
			       100 * runq_share(ds), 100 * BUSY_SHARE);
	else if (!quiet && ktest_emulated())
		SKIP_JUDGEMENT("A/A accuracy not judged under TCG emulation (the host preempts "
			       "the vCPU threads unseen)");
	else
		CHECK(quiet);
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * Time taken from the duet's sides by third parties (neither side), as a
 * fraction of their analysed iteration time, from the noise diagnosis. The
 * charges cover more than those iterations (with one probe per iteration,
 * every thread of a side for the whole run), so this overstates: a gate on
 * it errs towards not judging.
 */
static double third_party_share(const struct bs_dataset *ds)
{
	struct bs_duet_data *d = NULL;
	struct bs_duet_noise *n = NULL;
	char err[512];
	double third = 0, busy = 0;

	if (bs_duet_data_build(ds, &d, err, sizeof(err)))
		return NAN;
	if (bs_duet_noise_build(ds, d, &n) == 0) {
		for (int s = 0; s < 2; s++) {
			third += (double)n->method[BS_DM_ASYNC][s].by_third_ns;
			busy += (double)n->method[BS_DM_ASYNC][s].busy_ns;
		}
		bs_duet_noise_free(n);
	}
	bs_duet_data_free(d);
	return busy > 0 ? third / busy : NAN;
}

/*
 * B does 10 % more work per invocation of BM_MapInsert (GB_ARGS_AB): the
 * async duet (8 runs) sees B slower by 4-16 % (the tolerance: the
 * invocation also runs the harness's loop) with the CI excluding 0; the
 * exit status follows --fail-on-regression 2 (5 exactly when the reported
 * lower bound is above 2 %).
 *
 * Both sides are pinned to CPU 0 (--cpus A=0,B=0): the kernel time-slices
 * them, so whatever speed that vCPU has at a moment, both sides have it.
 * With one side per vCPU, hosts that slow one vCPU unseen by the guest
 * (AMD EPYC under PVM: 1.6-2x for seconds, steal reading 0) make an 8-run
 * duet's CI 50-80 % wide and this test fail for the host's sake; measured
 * there, seeds 1-3: default placement missed 1 of 3, pinned found
 * 8.1-10.3 % in 3 of 3. Cancelling per-CPU speed in the default placement
 * is the duet's own open problem, measured by bench/duet-bench, not here.
 * The accuracy is judged when third parties took less than BUSY_SHARE of
 * the sides' time (the time each side waits for the other is by design).
 */
static void test_b_slower_detected(void)
{
	const char *trace = ktmp("ab.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--preset",
			"gbench",
			"--method",
			"async",
			"--runs",
			"8",
			"--fail-on-regression",
			"2",
			"--cpus",
			"A=0,B=0",
			"--seed",
			"1",
			"-o",
			(char *)trace,
			"-A",
			cmd_ab_a,
			"-B",
			cmd_ab_b,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_dmres v;
	double third;

	NEED_BPF();
	krun(&r, argv);
	ds = kload(trace);
	if (!ds)
		return;
	CHECK(!json_object_get_boolean(ev_member(ds->context, "duet", "aa")));
	if (!verdict_of(ds, BS_DM_ASYNC, &v)) {
		FAILF("no async verdict in the duet trace (exit %d)", r.exit_code);
		goto out;
	}
	third = third_party_share(ds);
	fprintf(
	    stderr,
	    "    B +10 %% work (BM_MapInsert), async on one CPU (third parties took %.1f %%): %s\n",
	    100 * third, v.verdict);
	CHECK_INT_EQ(r.exit_code, v.v.lo_pct > 2 ? 5 : 0);
	if (r.exit_code == 5)
		CHECK(strstr(r.err, "regression") != NULL);
	if (third > BUSY_SHARE) {
		SKIP_JUDGEMENT("B +10 %% accuracy not judged: third parties took %.1f %% (> %.0f "
			       "%%)",
			       100 * third, 100 * BUSY_SHARE);
	} else if (ktest_emulated()) {
		SKIP_JUDGEMENT("B +10 %% accuracy not judged under TCG emulation (the host "
			       "preempts the vCPU threads unseen)");
	} else {
		CHECK(v.v.pct > 4 && v.v.pct < 16);
		CHECK(v.v.lo_pct > 0);
	}
out:
	bs_dataset_free(ds);
	unlink(trace);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Sync: every iteration index of A and B is released together. The skew
 * in each duet_run event equals |begin_A - begin_B| of the iteration
 * records (the stopped side's begin re-stamped when it ran again); its
 * median is under 1 ms (about 40 us measured here), and the wait is not in
 * the iterations (no blocked time: these iterations never block).
 *
 * The harness is iter_loop, 12 iterations of 2 ms of CPU per side: the
 * iteration count is fixed by construction, so every run has 12 pairs to
 * release (36 in all). A harness that sizes itself by time (Google
 * Benchmark) may choose different calibration counts for A and B under
 * emulated timing, and the barrier pairs the k-th begins (README).
 */
static void test_sync_release_skew(void)
{
	const char *trace = ktmp("sync.trace");
	char cmd[4200];
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"sync",
			"--runs",
			"3",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	int64_t skews[4096];
	size_t n_skews = 0, e, i, n_blocked = 0, n_sync_iters = 0;

	NEED_BPF();
	snprintf(cmd, sizeof(cmd), "%s 12 2000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	for (e = 0; e < 3; e++) {
		json_object *ev = knth_event(ds, "duet_run", e), *bar = bs_json_get(ev, "barrier");
		json_object *sk = bs_json_get(bar, "skew_ns");
		uint32_t pa =
		    (uint32_t)json_object_get_int(ev_member(bs_json_get(ev, "sides"), "A", "pid"));
		uint32_t pb =
		    (uint32_t)json_object_get_int(ev_member(bs_json_get(ev, "sides"), "B", "pid"));
		uint64_t ba[256] = {0}, bb[256] = {0};
		size_t na = 0, nb = 0, k;

		if (!ev || !bar || !sk) {
			FAILF("run %zu has no barrier block", e);
			continue;
		}
		for (i = 0; i < ds->n_iters; i++) {
			const struct bs_iter_rec *it = &ds->iters[i];

			if ((it->pid != pa && it->pid != pb) || it->index >= 256)
				continue;
			n_sync_iters++;
			if (it->blocked_ns > 1000000)
				n_blocked++;
			if (it->pid == pa)
				ba[it->index] = it->begin_ns, na++;
			else
				bb[it->index] = it->begin_ns, nb++;
		}
		CHECK_INT_EQ(na, 12);
		CHECK_INT_EQ(nb, 12);
		if (json_object_get_int(bs_json_get(bar, "timeouts")) > 0 &&
		    ktest_relaxed("every iteration pair released by the barrier (open: a pair "
				  "released by the exit-time fallback under slow timing)")) {
			/* every pair still accounted for: by the barrier or the fallback */
			CHECK_INT_EQ(json_object_get_int(bs_json_get(bar, "released")) +
					 json_object_get_int(bs_json_get(bar, "timeouts")),
				     na);
			CHECK_INT_EQ(json_object_array_length(sk),
				     json_object_get_int(bs_json_get(bar, "released")));
		} else {
			CHECK_INT_EQ(json_object_get_int(bs_json_get(bar, "released")), na);
			CHECK_INT_EQ(json_object_get_int(bs_json_get(bar, "timeouts")), 0);
			CHECK_INT_EQ(json_object_array_length(sk), na);
		}
		for (k = 0; k < json_object_array_length(sk) && k < na; k++) {
			int64_t s = json_object_get_int64(json_object_array_get_idx(sk, k));
			int64_t d = (int64_t)ba[k] - (int64_t)bb[k];

			CHECK_INT_EQ(s, d < 0 ? -d : d);
			if (n_skews < 4096)
				skews[n_skews++] = s;
		}
	}
	/* 36; under TCG the exit-time fallback may release some (relaxed above) */
	CHECK(n_skews >= (ktest_emulated() ? 18u : 36u));
	if (n_skews) {
		qsort(skews, n_skews, sizeof(skews[0]), cmp_i64);
		fprintf(stderr,
			"    sync release skew: median %.1f us, p90 %.1f us, max %.1f us (%zu "
			"releases)\n",
			(double)skews[n_skews / 2] / 1e3, (double)skews[n_skews * 9 / 10] / 1e3,
			(double)skews[n_skews - 1] / 1e3, n_skews);
		if (skews[n_skews / 2] >= 1000000 && !ktest_relaxed("median release skew < 1 ms"))
			CHECK(skews[n_skews / 2] < 1000000);
	}
	CHECK(n_blocked <= n_sync_iters / 10);
	kcheck_charges(ds, "sync duet");
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * Failing sides, fixed schedule, async, iter_loop (20 x 1 ms): run 0 ok;
 * run 1 B never reaches its probe (timeout 1 s); run 2 B exits 1 at once;
 * run 3 B is killed by SIGSEGV mid-run; run 4 ok. Failed runs say why (with
 * the side's last stderr line), the others continue; 2 runs used, exit 0.
 */
static void test_failing_sides(void)
{
	const char *trace = ktmp("fail.trace"), *counter = ktmp("fail.count");
	char bcmd[8192], acmd[4200];
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"async",
			"--schedule",
			"fixed",
			"--runs",
			"5",
			"--timeout",
			"1",
			"-o",
			(char *)trace,
			"-A",
			acmd,
			"-B",
			bcmd,
			NULL};
	static const char *const want[] = {NULL, "B did not reach its iteration probe within 1 s",
					   "B exited with status 1", "B was killed by signal 11",
					   NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t e;

	NEED_BPF();
	snprintf(acmd, sizeof(acmd), "%s 20 1000", ITER_LOOP);
	snprintf(bcmd, sizeof(bcmd),
		 "sh -c 'n=$(cat %s 2>/dev/null || echo 0); echo $((n+1)) > %s; "
		 "case $n in 1) exec sleep 30;; 2) echo bad input >&2; exit 1;; "
		 "3) (sleep 0.2; kill -SEGV $$) & exec %s 1000 1000;; esac; exec %s 20 1000'",
		 counter, counter, ITER_LOOP, ITER_LOOP);
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 0);
	if (r.exit_code)
		fprintf(stderr, "%s", r.err);
	ds = kload(trace);
	if (!ds)
		return;
	CHECK_INT_EQ(kevents(ds, "duet_run", NULL, 0), 5);
	CHECK_INT_EQ(json_object_get_int(ev_member(ds->end, "status_runs", "ok")), 2);
	CHECK_INT_EQ(json_object_get_int(ev_member(ds->end, "status_runs", "failed")), 3);
	for (e = 0; e < 5; e++) {
		json_object *ev = knth_event(ds, "duet_run", e);
		const char *reason = json_object_get_string(bs_json_get(ev, "reason"));

		CHECK_INT_EQ(json_object_get_boolean(bs_json_get(ev, "ok")), want[e] == NULL);
		if (want[e]) {
			CHECK(reason && strstr(reason, want[e]));
			if (!reason || !strstr(reason, want[e]))
				fprintf(stderr, "    run %zu: '%s', want '%s'\n", e,
					reason ? reason : "(null)", want[e]);
		}
	}
	/* the failing side's own message is quoted */
	{
		const char *reason =
		    json_object_get_string(bs_json_get(knth_event(ds, "duet_run", 2), "reason"));

		CHECK(reason && strstr(reason, "bad input"));
	}
	bs_dataset_free(ds);
	unlink(trace);
	unlink(counter);
}

/* A command that cannot run is bad input (exit 2, one line), before any run. */
static void test_bad_command(void)
{
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"--iter",
			sym_iter,
			"-o",
			(char *)ktmp("x.trace"),
			"-A",
			(char *)ITER_LOOP,
			"-B",
			"/nonexistent/prog 1",
			NULL};
	char *argv2[] = {(char *)BENCHSCOPE, "duet", "--iter",	       sym_iter, "-A",
			 (char *)ITER_LOOP,  "-B",   "prog; rm -rf x", NULL};
	struct kresult r;

	NEED_BPF();
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "/nonexistent/prog") != NULL);
	krun(&r, argv2);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "unquoted") != NULL);
}

/*
 * --stop-ci on an A/A sync duet of iter_loop with a width every finite
 * interval meets: stops at the minimum of 3 runs, and logs a decision per
 * run. The verdict's interval needs the sides to exchange CPUs (--crossover
 * with the fixed schedule: runs 0 and 2 unswapped, run 1 swapped) and, with
 * its one placement term, 3 runs; sync pairs iteration j with j, so every
 * run has pairs. (On a 2-vCPU PVM host the A/A interval after 3 runs was
 * 30 wide: a width like 0.5 tests the host, not the rule.) Even 100, the
 * widest the option takes, is a bound on the host: with one residual degree
 * of freedom (t = 12.71) it holds only while runs 0 and 2 agree within about
 * 2.3x, and a host that slows one vCPU 2x in one of them comes near. So the
 * rule is checked against the widths it recorded: stop exactly at the first
 * decided width <= 100 from run 3 on, and the interval decided at 3 runs.
 * Also --probe-A/--probe-B (uprobe for A, the same on B given apart) and
 * --cpus A=0,B=1: every iteration ran on the CPU its run's event gives its side.
 */
static void test_stop_ci_probes_cpus(void)
{
	const char *trace = ktmp("stop.trace");
	char acmd[4200], pa[4300];
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--no-calibrate",
			"--probe-A",
			pa,
			"--probe-B",
			pa,
			"--method",
			"sync",
			"--runs",
			"3:10",
			"--stop-ci",
			"100",
			"--cpus",
			"A=0,B=1",
			"--crossover",
			"--schedule",
			"fixed",
			"-o",
			(char *)trace,
			"-A",
			acmd,
			"-B",
			acmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t i;
	int n_runs;

	NEED_BPF();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs 2 CPUs");
	snprintf(acmd, sizeof(acmd), "%s 30 500", ITER_LOOP);
	snprintf(pa, sizeof(pa), "--iter '%s'", sym_iter);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	/* one decision per run, always, each the rule applied to its own width */
	n_runs = kevents(ds, "duet_run", NULL, 0);
	CHECK_INT_EQ(kevents(ds, "duet_stop_check", NULL, 0), n_runs);
	CHECK(n_runs >= 3 && n_runs <= 10);
	for (i = 0; i < (size_t)n_runs; i++) {
		json_object *ev = knth_event(ds, "duet_stop_check", i);
		json_object *w = bs_json_get(ev, "rel_ci_width");
		bool decided = json_object_get_boolean(bs_json_get(ev, "decided"));
		bool want = bs_json_int(ev, "runs_ok", 0) >= bs_json_int(ev, "min_runs", 3) &&
			    decided && w && json_object_get_double(w) <= 100;
		bool stop = !strcmp(bs_json_str(ev, "decision", ""), "stop");

		if (i == 2) {
			CHECK(decided && w != NULL && bs_json_int(ev, "runs_ok", 0) == 3);
			fprintf(stderr, "    width after 3 runs %.3g (stops at <= 100)\n",
				w ? json_object_get_double(w) : NAN);
		}
		CHECK_INT_EQ(stop, want);
		/* the duet ends at its first stop, or at the 10 runs' limit */
		CHECK_INT_EQ(stop || i + 1 == 10, i + 1 == (size_t)n_runs);
	}
	CHECK_INT_EQ(
	    json_object_get_boolean(ev_member(ds->end, "status_runs", "stopped_by_ci")),
	    n_runs < 10 ||
		!strcmp(bs_json_str(knth_event(ds, "duet_stop_check", n_runs - 1), "decision", ""),
			"stop"));
	CHECK(!strcmp(json_object_get_string(ev_member(knth_event(ds, "duet_run", 0), "cpus", "A"))
			  ?: "",
		      "0"));
	CHECK(!strcmp(json_object_get_string(ev_member(knth_event(ds, "duet_run", 1), "cpus", "A"))
			  ?: "",
		      "1"));
	CHECK(!strcmp(bs_json_str(knth_event(ds, "duet_stop_check", 0), "interval", ""),
		      "run_model"));
	CHECK_INT_EQ(
	    json_object_get_int(bs_json_get(knth_event(ds, "duet_stop_check", 0), "min_runs")), 3);
	CHECK(bs_json_get(bs_json_get(ds->context, "duet"), "smt_siblings") != NULL);
	CHECK_INT_EQ(ds->n_iters, (size_t)kevents(ds, "duet_run", NULL, 0) * 2 * 30);
	for (i = 0; i < 3; i++) {
		json_object *run = knth_event(ds, "duet_run", i);
		json_object *sides = bs_json_get(run, "sides");
		uint32_t a = (uint32_t)json_object_get_int(ev_member(sides, "A", "pid"));
		uint32_t b = (uint32_t)json_object_get_int(ev_member(sides, "B", "pid"));
		uint32_t ca =
		    (uint32_t)atoi(json_object_get_string(ev_member(run, "cpus", "A")) ?: "9");
		uint32_t cb =
		    (uint32_t)atoi(json_object_get_string(ev_member(run, "cpus", "B")) ?: "9");
		size_t k, n_wrong = 0;

		for (k = 0; k < ds->n_iters; k++)
			if ((ds->iters[k].pid == a && ds->iters[k].cpu_begin != ca) ||
			    (ds->iters[k].pid == b && ds->iters[k].cpu_begin != cb))
				n_wrong++;
		CHECK_INT_EQ(n_wrong, 0);
	}
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * --stop-ci with A always on CPU 0 and B on CPU 1 (no crossover): the
 * verdict's model cannot tell the version from the CPUs, so the rule never
 * stops, even with a width no interval could miss, and says why.
 */
static void test_stop_ci_confounded(void)
{
	const char *trace = ktmp("stopconf.trace");
	char acmd[4200];
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"sync",
			"--runs",
			"3:4",
			"--stop-ci",
			"100",
			"--cpus",
			"A=0,B=1",
			"-o",
			(char *)trace,
			"-A",
			acmd,
			"-B",
			acmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs 2 CPUs");
	snprintf(acmd, sizeof(acmd), "%s 30 500", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(kevents(ds, "duet_run", NULL, 0), 4);
	CHECK_INT_EQ(kevents(ds, "duet_stop_check", NULL, 0), 4);
	for (int i = 0; i < 4; i++) {
		json_object *e = knth_event(ds, "duet_stop_check", i);

		CHECK(!strcmp(bs_json_str(e, "decision", ""), "continue"));
		CHECK(bs_json_get(e, "rel_ci_width") == NULL);
		if (i >= 1)
			CHECK(strstr(bs_json_str(e, "reason", ""), "never exchanged CPUs") != NULL);
	}
	CHECK(!json_object_get_boolean(ev_member(ds->end, "status_runs", "stopped_by_ci")));
	bs_dataset_free(ds);
	unlink(trace);
}

/* SIGINT during a duet: exit 130, the trace holds the runs so far and an END. */
static void test_interrupt_keeps_trace(void)
{
	const char *trace = ktmp("int.trace");
	char acmd[4200];
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-mds",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"all",
			"--runs",
			"50",
			"-o",
			(char *)trace,
			"-A",
			acmd,
			"-B",
			acmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	snprintf(acmd, sizeof(acmd), "%s 100 1000", ITER_LOOP);
	krun_sig(&r, argv, 1500, SIGINT, trace);
	CHECK_INT_EQ(r.exit_code, 130);
	ds = kload(trace);
	if (!ds)
		return;
	CHECK(ds->end != NULL);
	CHECK(json_object_get_boolean(bs_json_get(ds->end, "interrupted")));
	CHECK(kevents(ds, "duet_run", NULL, 0) >= 1);
	CHECK(ds->n_iters > 0);
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	snprintf(cmd_a, sizeof(cmd_a), "%s" GB_ARGS, kpath("progs/gbench_example"));
	snprintf(cmd_ab_a, sizeof(cmd_ab_a), "%s" GB_ARGS_AB, kpath("progs/gbench_example"));
	snprintf(cmd_ab_b, sizeof(cmd_ab_b), "%s" GB_ARGS_AB, kpath("progs/gbench_example_b"));
	snprintf(sym_iter, sizeof(sym_iter), "%s:bs_iteration", ITER_LOOP);
	RUN_TEST(test_bad_command);
	RUN_TEST(test_failing_sides);
	RUN_TEST(test_stop_ci_probes_cpus);
	RUN_TEST(test_stop_ci_confounded);
	RUN_TEST(test_interrupt_keeps_trace);
	RUN_TEST(test_sync_release_skew);
	RUN_TEST(test_aa_no_tool_bias);
	RUN_TEST(test_aa_no_difference);
	RUN_TEST(test_b_slower_detected);
	return test_summary("kernel-duet");
}
