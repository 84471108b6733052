// SPDX-License-Identifier: MIT
/* test_duet_report.c - the duet model, analysis and noise diagnosis on
 * synthetic duet traces with known truth (duet_fixture.h). */
#include "test.h"

#include "benchscope/stats.h"

#include <gsl/gsl_cdf.h>
#include "trace/dataset.h"
#include "duet/analysis.h"
#include "duet/data.h"
#include "duet/noise.h"
#include "duet/report.h"
#include "fixture.h"
#include "duet_fixture.h"
#include "steps_record.h"

static struct df_truth truth;

/* write the spec's trace, load it and build the model */
static struct bs_dataset *load(const struct df_spec *sp, const char *name, struct bs_duet_data **d)
{
	char path[300], err[256];
	struct bs_dataset *ds = NULL;

	fx_path(path, sizeof(path), name);
	if (df_write(path, sp, &truth)) {
		FAILF("cannot write %s", path);
		return NULL;
	}
	if (bs_dataset_load(path, &ds, err, sizeof(err))) {
		FAILF("load: %s", err);
		return NULL;
	}
	if (d && bs_duet_data_build(ds, d, err, sizeof(err))) {
		FAILF("build: %s", err);
		bs_dataset_free(ds);
		return NULL;
	}
	return ds;
}

static const struct bs_drun *find_run(const struct bs_duet_data *d, int run)
{
	for (size_t b = 0; b < d->n_benches; b++)
		for (int m = 0; m < BS_DM_N; m++)
			for (size_t k = 0; k < d->benches[b].n_runs[m]; k++)
				if (d->benches[b].runs[m][k].run == run)
					return &d->benches[b].runs[m][k];
	return NULL;
}

/* runs, methods, failed run excluded and counted with its reason; the
 * sides hold exactly the written timestamps; overlaps from the trace equal
 * stats/ on the same timestamps */
static void test_model_and_overlaps(void)
{
	struct df_spec sp = {.runs_per_method = 4,
			     .methods = {true, true, true},
			     .iters = 20,
			     .slow_b = 0.1,
			     .noise = 0.01,
			     .failed_run = true,
			     .seed = 7};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "model.trace", &d);

	if (!ds)
		return;
	CHECK(bs_dataset_is_duet(ds));
	CHECK_INT_EQ(d->runs_total, 13);
	CHECK_INT_EQ(d->runs_ok, 12);
	CHECK_INT_EQ(d->n_failed, 1);
	CHECK_INT_EQ(d->failed[0].run, truth.failed_run);
	CHECK(!strcmp(d->failed[0].reason, "B crashed (signal 11)"));
	CHECK_INT_EQ(d->n_benches, 1);
	CHECK(!strcmp(d->benches[0].name, "synth"));
	for (int m = 0; m <= BS_DM_ASYNC; m++)
		CHECK_INT_EQ(d->benches[0].n_runs[m], 4);
	CHECK_INT_EQ(d->n_unmatched, 6); /* the failed run's 2 x 3 iterations */
	for (int r = 0; r < truth.n_runs; r++) {
		const struct bs_drun *dr = find_run(d, r);
		struct bs_overlap o1[2 * DF_MAX_ITERS], o2[2 * DF_MAX_ITERS];
		size_t n1, n2;

		if (r == truth.failed_run) {
			CHECK(dr == NULL);
			continue;
		}
		CHECK(dr != NULL);
		if (!dr)
			continue;
		CHECK_INT_EQ(dr->method, truth.method[r]);
		for (int s = 0; s < 2; s++) {
			CHECK_INT_EQ(dr->side[s].n, truth.n[r][s]);
			CHECK_INT_EQ(dr->side[s].pid, truth.pid[r][s]);
			CHECK(!memcmp(dr->side[s].iv, truth.it[r][s],
				      (size_t)truth.n[r][s] * sizeof(struct bs_iter)));
		}
		CHECK_INT_EQ(bs_duet_overlaps(dr->side[0].iv, dr->side[0].n, dr->side[1].iv,
					      dr->side[1].n, o1, &n1),
			     BS_OK);
		CHECK_INT_EQ(bs_duet_overlaps(truth.it[r][0], (size_t)truth.n[r][0], truth.it[r][1],
					      (size_t)truth.n[r][1], o2, &n2),
			     BS_OK);
		CHECK_INT_EQ(n1, n2);
		CHECK(!memcmp(o1, o2, n1 * sizeof(*o1)));
		if (truth.method[r] == BS_DM_ASYNC)
			CHECK(n1 >= 19);
		if (truth.method[r] == BS_DM_SEQ)
			CHECK_INT_EQ(n1, 0);
	}
	/* the analysis pairs exactly what stats/ pairs on those timestamps */
	struct bs_duet_analysis *a = NULL;
	struct bs_danalysis_opts ao = {.no_mds = true, .seed = 1, .n_resamples = 999};

	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	if (a) {
		const struct bs_dmres *r = &a->b[0].m[BS_DM_ASYNC];

		for (size_t k = 0; k < r->n_runs; k++) {
			const struct bs_drun *dr = &d->benches[0].runs[BS_DM_ASYNC][k];
			struct bs_duet_run sr = {.a = truth.it[dr->run][0],
						 .na = (size_t)truth.n[dr->run][0],
						 .b = truth.it[dr->run][1],
						 .nb = (size_t)truth.n[dr->run][1]};
			struct bs_pair p[2 * DF_MAX_ITERS];
			size_t np;

			CHECK_INT_EQ(bs_duet_pairs(&sr, BS_DUET_ASYNC, 0.4, p, &np, NULL), BS_OK);
			CHECK_INT_EQ(r->n_pairs[k], np);
			CHECK(!memcmp(r->pairs[k], p, np * sizeof(*p)));
		}
		CHECK_INT_EQ(a->b[0].primary, BS_DM_ASYNC);
	}
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* B 10 % slower by construction: every method says "slower" with an
 * estimate within 1.5 points of 10 %; speedup of the duets versus seq is
 * about 2 (both sides at once) */
static void test_verdict_slower(void)
{
	struct df_spec sp = {.runs_per_method = 6,
			     .methods = {true, true, true},
			     .iters = 20,
			     .slow_b = 0.1,
			     .noise = 0.01,
			     .seed = 11};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "slower.trace", &d);
	struct bs_duet_analysis *a = NULL;
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 2000};

	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	if (!a)
		goto out;
	for (int m = 0; m <= BS_DM_ASYNC; m++) {
		const struct bs_dmres *r = &a->b[0].m[m];

		CHECK(r->present);
		CHECK_INT_EQ(r->err, BS_OK);
		CHECK(!r->runs_merged); /* 6 runs: run means */
		CHECK_INT_EQ(r->res.n_obs, 6);
		CHECK(r->has_verdict);
		CHECK_INT_EQ(r->v.kind, BS_VERDICT_SLOWER);
		CHECK_NEAR(r->v.pct, 10, 1.5, 0);
		CHECK(r->v.lo_pct < r->v.pct && r->v.hi_pct > r->v.pct);
		CHECK(!strncmp(r->verdict, "B is ", 5) &&
		      strstr(r->verdict, "% slower, 95 % CI ["));
		/* the A/A-equivalent MDS: what the setup could detect, never 0 */
		CHECK(r->has_mds);
		CHECK(r->model.mds > 0.001 && r->model.mds < 0.05);
		CHECK_NEAR(r->v.mds_pct, r->model.mds * 100, 1e-9, 0);
		CHECK_INT_EQ((int)r->model.n_terms, 0); /* every side on CPU 0 */
		if (m != BS_DM_SEQ)
			CHECK_NEAR(r->speedup, 1.9, 0.25, 0);
		else
			CHECK(isnan(r->speedup));
	}
	CHECK(a->any_difference);
	CHECK(a->worst_slowdown_lo_pct > 5);
	CHECK_INT_EQ(a->n_verdicts, 3);
	/* the outcome through the public entry point */
	struct bs_duet_report_opts o = {
	    .no_table = true, .no_mds = true, .seed = 1, .n_resamples = 999};
	struct bs_duet_outcome out;
	char err[256];

	CHECK_INT_EQ(bs_duet_report_render(ds, &o, &out, err, sizeof(err)), 0);
	CHECK_INT_EQ(out.runs_total, 18);
	CHECK_INT_EQ(out.runs_used, 18);
	CHECK_INT_EQ(out.n_verdicts, 3);
	CHECK(out.any_difference && out.worst_slowdown_lo_pct > 5);
out:
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/*
 * --fail-on-regression gates on each benchmark's headline verdict: when
 * only seq puts B 10 % slower and the headline (async) sees no difference,
 * seq's lower bound is beyond 2 % but there is no regression; with B
 * slower in every method the line names the benchmark and the method.
 */
static void test_regression_on_headline(void)
{
	struct df_spec sp = {.runs_per_method = 6,
			     .methods = {true, false, true},
			     .iters = 20,
			     .seq_slow_b = 0.1,
			     .noise = 0.01,
			     .seed = 17};
	struct bs_duet_report_opts o = {
	    .no_table = true, .no_mds = true, .seed = 1, .n_resamples = 999};
	struct bs_duet_outcome out;
	struct bs_dataset *ds = load(&sp, "seq-slower.trace", NULL);
	char err[256], line[512];

	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_report_render(ds, &o, &out, err, sizeof(err)), 0);
	CHECK(out.worst_slowdown_lo_pct > 5); /* seq's verdict */
	CHECK_INT_EQ(out.headline_method, BS_DM_ASYNC);
	CHECK(out.headline_slowdown_lo_pct < 2);
	CHECK(!bs_duet_regression_text(&out, 2, line, sizeof(line)));
	CHECK(!line[0]);
	bs_dataset_free(ds);
	sp.seq_slow_b = 0;
	sp.slow_b = 0.1;
	ds = load(&sp, "all-slower.trace", NULL);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_report_render(ds, &o, &out, err, sizeof(err)), 0);
	CHECK(out.headline_slowdown_lo_pct > 5);
	CHECK(bs_duet_regression_text(&out, 2, line, sizeof(line)));
	if (!strstr(line, "B is slower than A by more than 2 % in synth (async verdict, CI "
			  "lower bound "))
		FAILF("regression line '%s'", line);
	CHECK(!bs_duet_regression_text(&out, 50, line, sizeof(line)));
	bs_dataset_free(ds);
}

/* A/A with noise: no difference, and the sentence names the MDS */
static void test_aa_no_difference(void)
{
	struct df_spec sp = {.runs_per_method = 8,
			     .methods = {false, false, true},
			     .iters = 20,
			     .noise = 0.01,
			     .aa = true,
			     .seed = 3};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "aa.trace", &d);
	struct bs_duet_analysis *a = NULL;
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 2000};

	if (!ds)
		return;
	CHECK(d->aa);
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	if (a) {
		const struct bs_dmres *r = &a->b[0].m[BS_DM_ASYNC];

		CHECK(r->has_verdict);
		CHECK_INT_EQ(r->v.kind, BS_VERDICT_NO_DIFFERENCE);
		CHECK(!strncmp(r->verdict, "no difference detected (MDS here: ", 34));
		CHECK(r->model.mds > 0 && r->model.mds <= 0.05);
		CHECK(fabs(r->v.pct) < 1);
		CHECK(!a->any_difference);
		CHECK(!a->b[0].m[BS_DM_SEQ].present);
		CHECK(isnan(r->speedup));
	}
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* the asymmetric run: A's lost time (20 % run-queue wait) split into the
 * other side (5 ms) and third parties (3 ms, kworker); flagged; the other
 * runs are symmetric (no interference) */
static void test_noise_split(void)
{
	struct df_spec sp = {.runs_per_method = 3,
			     .methods = {false, false, true},
			     .iters = 10,
			     .noise = 0.01,
			     .asym_run = true,
			     .seed = 5};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "noise.trace", &d);
	struct bs_duet_noise *n = NULL;

	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_noise_build(ds, d, &n), 0);
	if (n) {
		const struct bs_dnoise_run *r = bs_duet_noise_run(n, truth.asym_run);

		CHECK(n->has_interference);
		CHECK(r != NULL);
		if (r) {
			CHECK_INT_EQ(r->side[0].by_other_ns, truth.other_ns);
			CHECK_INT_EQ(r->side[0].by_third_ns, truth.third_ns);
			CHECK_INT_EQ(r->side[0].by_own_ns, truth.own_ns);
			CHECK_INT_EQ(r->side[1].by_other_ns, 0);
			CHECK_NEAR(r->share[0], 0.2, 0.001, 0);
			CHECK_NEAR(r->share[1], 0.001, 0.0002, 0);
			CHECK_NEAR(r->asym_pp, (r->share[0] - r->share[1]) * 100, 1e-12, 0);
			CHECK(r->imbalance > 0.98);
			CHECK(r->asymmetric);
			CHECK_INT_EQ(r->side[0].nivcsw, 30);
		}
		CHECK_INT_EQ(n->n_asymmetric[BS_DM_ASYNC], 1);
		CHECK_INT_EQ(n->n_runs, 3);
		for (size_t i = 0; i < n->n_runs; i++)
			if (n->runs[i].run != truth.asym_run)
				CHECK(!n->runs[i].asymmetric && n->runs[i].share[0] == 0);
		CHECK_INT_EQ(n->n_third, 1);
		CHECK(!strcmp(n->third[0].comm, "kworker/0:1"));
		CHECK_INT_EQ(n->third[0].ns[0], truth.third_ns);
		CHECK_INT_EQ(n->method[BS_DM_ASYNC][0].by_other_ns, truth.other_ns);
		/* A's own thread is neither the other side nor a third party */
		CHECK_INT_EQ(n->charged_ns, truth.other_ns + truth.third_ns + truth.own_ns);
		CHECK_INT_EQ(n->scope, BS_CHARGES_ITERATIONS);
		CHECK(bs_duet_noise_self_share(n) == 0);
	}
	bs_duet_noise_free(n);
	n = NULL;
	/* charges kept per iteration: the third party's fall in an iteration
	 * no run analyses (index 1000) and are left out; the other side's in
	 * A's analysed iteration 0; A's own thread's not cut to an iteration */
	ds->run_ctx.charges_by_iteration = true;
	for (size_t i = 0; i < ds->n_interferers; i++) {
		struct bs_interferer_rec *ir = &ds->interferers[i];

		ir->victim_iter = ir->interferer_tid == 77		 ? 1000
				  : ir->interferer_pid == ir->victim_pid ? BS_CHARGE_NO_ITER
									 : 0;
	}
	CHECK_INT_EQ(bs_duet_noise_build(ds, d, &n), 0);
	if (n) {
		const struct bs_dnoise_run *r = bs_duet_noise_run(n, truth.asym_run);

		CHECK_INT_EQ(n->scope, BS_CHARGES_ANALYSED);
		CHECK(r && r->side[0].by_other_ns == truth.other_ns &&
		      r->side[0].by_third_ns == 0 && r->side[0].by_own_ns == truth.own_ns);
		CHECK_INT_EQ(n->charged_ns, truth.other_ns + truth.own_ns);
		CHECK_INT_EQ(n->n_third, 0);
	}
	bs_duet_noise_free(n);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/*
 * The spread split against a known truth: sync A/A duets of 30 runs of 20
 * iterations, each iteration with its own 1 % noise on each side (a pair's
 * log ratio: sd 1.41 %, so the 20 % trimmed mean of 20 of them has an se
 * of about 0.33 %), and in the second duet each process slower or faster
 * by a factor exp(2 % N(0, 1)) for its whole run (a run's log ratio: sd
 * 2.83 %). The split finds the first duet's spread in its iterations and
 * the second's in its runs, each within 35 % (30 runs); the runs an MDS
 * needs follow from the model's own se, as bs_dmodel_runs_for_mds defines.
 */
static void test_spread(void)
{
	struct df_spec sp = {.runs_per_method = 30,
			     .methods = {false, true, false},
			     .iters = 20,
			     .noise = 0.01,
			     .aa = true,
			     .seed = 21};
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 200};

	for (int k = 0; k < 2; k++) {
		struct bs_duet_analysis *a = NULL;
		struct bs_duet_data *d = NULL;
		struct bs_dataset *ds;
		const struct bs_dmres *r;

		sp.run_sd = k ? 0.02 : 0;
		ds = load(&sp, k ? "spread_run.trace" : "spread_iter.trace", &d);
		if (!ds)
			return;
		CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
		r = a ? &a->b[0].m[BS_DM_SYNC] : NULL;
		CHECK(r && r->model_err == BS_OK && r->has_spread);
		if (r && r->has_spread) {
			double se1 = r->model.se * sqrt((double)r->model.n_runs);

			fprintf(stderr,
				"    run_sd %.2f: resid %.3f %%, within %.3f %%, run %.3f %%\n",
				sp.run_sd, 100 * r->model.resid_sd, 100 * r->spread.within_sd,
				100 * r->spread.run_sd);
			CHECK_NEAR(r->spread.within_sd, 0.0033, 0, 0.35);
			if (k)
				CHECK_NEAR(r->spread.run_sd, 0.0283, 0, 0.35);
			else
				CHECK(r->spread.run_sd < r->spread.within_sd);
			for (int j = 0; j < 2; j++) {
				size_t n = r->runs_for[j];
				double mds = j ? 0.02 : 0.01;

				CHECK(n >= 2);
				CHECK(gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * se1 /
					  sqrt((double)n) <=
				      log1p(mds));
				CHECK(gsl_cdf_tdist_Pinv(0.975, (double)(n - 2)) * se1 /
					      sqrt((double)(n - 1)) >
					  log1p(mds) ||
				      n == 2);
			}
		}
		bs_duet_analysis_free(a);
		bs_duet_data_free(d);
		bs_dataset_free(ds);
	}
}

/*
 * Hidden host contention: CPU 1 runs 1.6x slower than CPU 0 while nothing
 * is accounted. With the sides exchanging CPUs between runs, the model's
 * CPU term takes the 1.6x, the A/A verdict is "no difference" with a
 * narrow interval, and the diagnosis names CPU 1; without the term the
 * interval is wide. With A always on CPU 0 and B on CPU 1, the model
 * refuses (confounded) where the CPU-unaware analysis claims B is about
 * 60 % slower. A real 3 % difference is recovered through the slowdown
 * (sync within 0.5 %; its interval holds the truth).
 */
static void test_cpu_diagnosis(void)
{
	struct df_spec sp = {.runs_per_method = 10,
			     .methods = {false, true, true},
			     .iters = 20,
			     .noise = 0.01,
			     .aa = true,
			     .cpu_place = 2,
			     .cpu1_slow = 1.6,
			     .seed = 9};
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 500}, nocpu = ao;
	struct bs_duet_analysis *a = NULL, *an = NULL;
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "cpuslow.trace", &d);

	nocpu.no_cpu = true;
	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	CHECK_INT_EQ(bs_duet_analysis_run(d, &nocpu, &an), 0);
	for (int m = BS_DM_SYNC; a && an && m <= BS_DM_ASYNC; m++) {
		const struct bs_dmres *r = &a->b[0].m[m], *rn = &an->b[0].m[m];

		CHECK_INT_EQ(r->model_err, BS_OK);
		CHECK(r->has_verdict && r->v.kind == BS_VERDICT_NO_DIFFERENCE);
		CHECK_INT_EQ((int)r->model.n_terms, 1);
		CHECK(r->cpu.checked && r->cpu.slow_cpu == 1 && r->cpu.fast_cpu == 0);
		CHECK_NEAR(r->cpu.ratio, 1.6, 0, 0.02);
		CHECK_NEAR(r->cpu.median_ratio, 1.6, 0, 0.02);
		CHECK_INT_EQ((int)r->cpu.n_apart, 10);
		CHECK_INT_EQ((int)r->cpu.n_slowed, 10);
		CHECK_INT_EQ(r->cpu.contention, BS_DCONT_STEADY);
		CHECK(r->cpu.ratio_lo > 1.5 && r->cpu.ratio_lo < 1.6 && 1.6 < r->cpu.ratio_hi &&
		      r->cpu.ratio_hi < 1.7);
		CHECK(exp(r->model.hi) - exp(r->model.lo) < 0.03);
		CHECK_INT_EQ(rn->model_err, BS_OK);
		CHECK(exp(rn->model.hi) - exp(rn->model.lo) > 0.2);
		CHECK(!rn->cpu.checked);
	}
	bs_duet_analysis_free(a);
	bs_duet_analysis_free(an);
	bs_duet_data_free(d);
	bs_dataset_free(ds);

	/* A always on CPU 0, B on CPU 1: confounded */
	sp.cpu_place = 1;
	a = an = NULL;
	ds = load(&sp, "cpuconf.trace", &d);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	CHECK_INT_EQ(bs_duet_analysis_run(d, &nocpu, &an), 0);
	if (a && an) {
		const struct bs_dmres *r = &a->b[0].m[BS_DM_ASYNC], *rn = &an->b[0].m[BS_DM_ASYNC];
		char why[300];

		CHECK_INT_EQ(r->model_err, BS_ECONFOUNDED);
		CHECK_INT_EQ(r->model.confounded_cpu, 1);
		CHECK(!r->has_verdict);
		bs_duet_model_err_text(r, why, sizeof(why));
		CHECK(strstr(why, "--crossover") != NULL);
		CHECK(rn->has_verdict && rn->v.kind == BS_VERDICT_SLOWER);
		CHECK_NEAR(rn->v.pct, 60, 2, 0);
	}
	bs_duet_analysis_free(a);
	bs_duet_analysis_free(an);
	bs_duet_data_free(d);
	bs_dataset_free(ds);

	/* B 3 % slower, crossover through the 1.6x CPU */
	sp.cpu_place = 2;
	sp.aa = false;
	sp.slow_b = 0.03;
	a = NULL;
	ds = load(&sp, "cpuab.trace", &d);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	for (int m = BS_DM_SYNC; a && m <= BS_DM_ASYNC; m++) {
		const struct bs_dmres *r = &a->b[0].m[m];

		/* async pairs whichever iterations overlap by > 40 %: with one
		 * side 1.6x slower, a fast iteration that straddles two slow ones
		 * is left out more often when it is long, and the work per
		 * iteration differs by +-10 % here; measured: +2.1 %, CI [1.3,
		 * 2.9]. Sync pairs iteration j with j and holds the truth. */
		double tol = m == BS_DM_SYNC ? 0.5 : 1.5;

		CHECK(r->has_verdict && r->v.kind == BS_VERDICT_SLOWER);
		if (m == BS_DM_SYNC)
			CHECK(r->v.lo_pct < 3 && 3 < r->v.hi_pct);
		if (fabs(r->v.pct - 3) > tol)
			FAILF("%s: B vs A %.2f %%, truth 3 %%", bs_dmethod_name(m), r->v.pct);
	}
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* the CPU diagnosis of the runs of one method of a generated duet and,
 * when @md is not NULL, the Markdown report (@len bytes) */
static void cpu_diag_of(const struct df_spec *sp, const char *name, enum bs_dmethod m,
			struct bs_dcpudiag *out, char *md, size_t len)
{
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 200};
	struct bs_duet_report_opts o = {.no_table = true, .no_mds = true, .n_resamples = 200};
	struct bs_duet_analysis *a = NULL;
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(sp, name, &d);
	char path[300], err[256];
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	if (a) {
		CHECK_INT_EQ(a->b[0].m[m].model_err, BS_OK);
		*out = a->b[0].m[m].cpu;
	}
	if (md) {
		o.md_path = fx_path(path, sizeof(path), "cpu.md");
		md[0] = 0;
		CHECK_INT_EQ(bs_duet_report_render(ds, &o, NULL, err, sizeof(err)), 0);
		if ((f = fopen(path, "r"))) {
			md[fread(md, 1, len - 1, f)] = 0;
			fclose(f);
		}
	}
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/*
 * Host contention that comes and goes: CPU 1 is 1.6x slower in two runs of
 * ten, once under A and once under B. The placement term averages it to
 * about 1.1x with an interval that holds 1: the diagnosis must not call it
 * a steady difference the CPU term removes, but name the two runs.
 */
static void test_cpu_intermittent(void)
{
	struct df_spec sp = {.runs_per_method = 10,
			     .methods = {false, false, true},
			     .iters = 20,
			     .noise = 0.01,
			     .aa = true,
			     .cpu_place = 2,
			     .cpu1_slow = 1.6,
			     .cpu1_slow_runs = 1u << 3 | 1u << 6,
			     .seed = 9};
	struct bs_dcpudiag c;
	static char md[1 << 16];

	cpu_diag_of(&sp, "cpuint.trace", BS_DM_ASYNC, &c, md, sizeof(md));
	CHECK(c.checked);
	CHECK_INT_EQ(c.contention, BS_DCONT_INTERMITTENT);
	CHECK_INT_EQ((int)c.n_apart, 10);
	CHECK_INT_EQ((int)c.n_slowed, 2);
	CHECK_NEAR(c.max_run_ratio, 1.6, 0, 0.03);
	CHECK(c.ratio_lo < 1 && c.ratio_hi > 1.1);
	if (!strstr(md, "- hidden host contention (async), intermittent: in 2 of the 10 runs with "
			"the sides apart one vCPU ran >= 1.2x slower than the other (up to 1.6") ||
	    !strstr(md, "it widens the verdict's interval"))
		FAILF("no intermittent contention line in:\n%s", md);
	/* in every run: steady, and the term removes it */
	sp.cpu1_slow_runs = 0;
	cpu_diag_of(&sp, "cpusteady.trace", BS_DM_ASYNC, &c, md, sizeof(md));
	CHECK_INT_EQ(c.contention, BS_DCONT_STEADY);
	if (!strstr(md, "- hidden host contention (async): vCPU 1 ran 1.6") ||
	    !strstr(md, "slower than vCPU 0 over the 10 runs with the sides apart (>= 1.2x beyond "
			"its noise in 10 of them)") ||
	    !strstr(md, "The verdict's CPU term removes it."))
		FAILF("no steady contention line in:\n%s", md);
}

/*
 * A steady difference below 1.2x (CPU 1 1.15x slower in every run, with
 * per-run layout noise): single runs reach 1.2x, but none departs from the
 * term, so it is never called intermittent; where its interval lies above
 * 1 the line says it is a steady difference the CPU term removes.
 */
static void test_cpu_small_steady(void)
{
	struct df_spec sp = {.runs_per_method = 10,
			     .methods = {false, false, true},
			     .iters = 20,
			     .noise = 0.02,
			     .run_sd = 0.02,
			     .aa = true,
			     .cpu_place = 2,
			     .cpu1_slow = 1.15};
	static char md[1 << 16];
	int small = 0;

	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct bs_dcpudiag c;

		sp.seed = seed;
		cpu_diag_of(&sp, "cpusmall.trace", BS_DM_ASYNC, &c, md, sizeof(md));
		CHECK(c.checked);
		if (c.contention != BS_DCONT_NONE)
			FAILF("seed %d: %s, %.3fx [%.3f, %.3f], %zu slowed, %zu departing",
			      (int)seed, bs_dcontention_name(c.contention), c.ratio, c.ratio_lo,
			      c.ratio_hi, c.n_slowed, c.n_departed);
		if (c.ratio_lo > 1) {
			small++;
			if (!strstr(md, "a steady difference below the 1.2x called hidden host "
					"contention; the verdict's CPU term removes it"))
				FAILF("seed %d: no steady-difference line in:\n%s", (int)seed, md);
		}
	}
	CHECK(small >= 10);
}

/*
 * One async run with CPU 1 3x slower: its sides' iterations no longer
 * overlap enough to pair, so the run is in no figure of the diagnosis, and
 * the line says so.
 */
static void test_cpu_unpaired_run(void)
{
	struct df_spec sp = {.runs_per_method = 6,
			     .methods = {false, false, true},
			     .iters = 20,
			     .noise = 0.01,
			     .aa = true,
			     .cpu_place = 2,
			     .cpu1_slow = 3,
			     .cpu1_slow_runs = 1u << 2,
			     .seed = 5};
	static char md[1 << 16];
	struct bs_dcpudiag c;

	cpu_diag_of(&sp, "cpuunpaired.trace", BS_DM_ASYNC, &c, md, sizeof(md));
	CHECK(c.checked);
	CHECK_INT_EQ((int)c.n_unpaired, 1);
	CHECK_INT_EQ((int)c.n_apart, 5);
	if (!strstr(md, "runs without pairs, in none of this: 1"))
		FAILF("no unpaired-run note in:\n%s", md);
}

/*
 * Noisy iterations, no contention: with a 25 % sd per iteration and 10
 * iterations per run, single runs show CPU ratios of 1.2x and more by
 * chance (a rule on the ratio alone called 11 of these 20 duets hidden
 * host contention).
 * Beyond each run's own noise, Bonferroni-corrected over the runs, none is
 * slowed; over 20 seeds at most one duet in 20 may be called (the 95 %
 * level).
 */
static void test_cpu_noise_not_contention(void)
{
	struct df_spec sp = {.runs_per_method = 10,
			     .methods = {false, false, true},
			     .iters = 10,
			     .noise = 0.25,
			     .aa = true,
			     .cpu_place = 2};
	int called = 0;

	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct bs_dcpudiag c;

		sp.seed = seed;
		cpu_diag_of(&sp, "cpunoise.trace", BS_DM_ASYNC, &c, NULL, 0);
		CHECK(c.checked);
		called += c.contention != BS_DCONT_NONE;
		if (c.contention != BS_DCONT_NONE)
			printf("    seed %d: %s, %.3fx [%.3f, %.3f], %zu slowed, up to %.3fx\n",
			       (int)seed, bs_dcontention_name(c.contention), c.ratio, c.ratio_lo,
			       c.ratio_hi, c.n_slowed, c.max_run_ratio);
	}
	printf("    noisy A/A duets called contention: %d of 20\n", called);
	CHECK(called <= 1);
}

/* Google Benchmark style: calibration runs (10, 100 invocations) are left
 * out, scores are ns per invocation, B 10 % slower per invocation */
static void test_gbench_scores(void)
{
	struct df_spec sp = {.runs_per_method = 5,
			     .methods = {false, true, false},
			     .iters = 12,
			     .slow_b = 0.1,
			     .noise = 0.005,
			     .gbench = true,
			     .seed = 9};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "gbench.trace", &d);
	struct bs_duet_analysis *a = NULL;
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 2000, .no_mds = true};

	if (!ds)
		return;
	CHECK_INT_EQ(d->n_benches, 1);
	CHECK(!strcmp(d->benches[0].name, "synth #1"));
	CHECK(d->benches[0].per_invocation);
	CHECK_INT_EQ(d->n_calibration, 5 * 2 * 2);
	const struct bs_drun *r0 = &d->benches[0].runs[BS_DM_SYNC][0];

	CHECK_INT_EQ(r0->side[0].n, 10);
	CHECK_NEAR(r0->side[0].score[0],
		   (double)(r0->side[0].iv[0].end_ns - r0->side[0].iv[0].start_ns) / 1000, 0,
		   1e-15);
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	if (a) {
		const struct bs_dmres *r = &a->b[0].m[BS_DM_SYNC];

		CHECK_INT_EQ(r->v.kind, BS_VERDICT_SLOWER);
		CHECK_NEAR(r->v.pct, 10, 1, 0);
		CHECK(r->res.mean_a > 900 && r->res.mean_a < 1100); /* ns per invocation */
	}
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* Benchmarks named by the harness are matched by name, not by position: A
 * runs BM_First then BM_Second, B the other way round; each benchmark's
 * calibration runs are left out and B's scores are 10 % above A's in both
 * (matching by position would give ratios of 1.65 and 0.73). */
static void test_named_benches(void)
{
	struct df_spec sp = {.runs_per_method = 5,
			     .methods = {false, true, false},
			     .iters = 16,
			     .slow_b = 0.1,
			     .noise = 0.005,
			     .gbench = true,
			     .named = true,
			     .seed = 5};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "named.trace", &d);

	if (!ds)
		return;
	CHECK_INT_EQ(d->n_benches, 2);
	CHECK_INT_EQ(d->n_bench_mismatch, 0);
	CHECK_INT_EQ(d->n_calibration, 5 * 2 * 2 * 2);
	for (size_t b = 0; b < d->n_benches && d->n_benches == 2; b++) {
		const struct bs_dbench *x = &d->benches[b];
		double sum[2] = {0, 0};

		CHECK(!strcmp(x->name, b ? "BM_Second" : "BM_First"));
		CHECK_INT_EQ(x->n_runs[BS_DM_SYNC], 5);
		for (size_t k = 0; k < x->n_runs[BS_DM_SYNC]; k++)
			for (int s = 0; s < 2; s++) {
				const struct bs_dside *side = &x->runs[BS_DM_SYNC][k].side[s];

				CHECK_INT_EQ(side->n, 6);
				for (size_t i = 0; i < side->n; i++)
					sum[s] += side->score[i];
			}
		CHECK_NEAR(sum[1] / sum[0], 1.1, 0.005, 0);
		CHECK_NEAR(sum[0] / 30, b ? 1500 : 1000, 0, 0.01); /* ns per invocation */
	}
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* The analysis tells its hook of each benchmark, in order, then of the
 * end; the report passes its hook on and keeps nothing of it. */
static void test_steps(void)
{
	struct df_spec sp = {.runs_per_method = 5,
			     .methods = {false, true, false},
			     .iters = 16,
			     .slow_b = 0.1,
			     .noise = 0.005,
			     .gbench = true,
			     .named = true,
			     .seed = 5};
	struct steps_record rec;
	struct bs_steps st = steps_record_init(&rec);
	struct bs_danalysis_opts ao = {.seed = 1, .n_resamples = 200, .steps = &st};
	struct bs_duet_report_opts ro = {.no_table = true, .n_resamples = 200, .steps = &st};
	struct bs_duet_analysis *a = NULL;
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds = load(&sp, "steps.trace", &d);
	char err[256];

	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	CHECK_INT_EQ(rec.n, 3);
	CHECK(steps_record_is(&rec, 0, 0, 2, "BM_First"));
	CHECK(steps_record_is(&rec, 1, 1, 2, "BM_Second"));
	CHECK(steps_record_is(&rec, 2, 2, 2, "(null)"));
	CHECK(a && a->opts.steps == NULL);
	bs_duet_analysis_free(a);
	st = steps_record_init(&rec);
	CHECK_INT_EQ(bs_duet_report_render(ds, &ro, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(rec.n, 3);
	CHECK(steps_record_is(&rec, 2, 2, 2, "(null)"));
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* not a duet trace, or a duet trace whose runs all failed: -EINVAL, one line */
static void test_bad_traces(void)
{
	char path[300], err[256];
	struct bs_trace_writer *w;
	struct bs_dataset *ds = NULL;
	struct bs_duet_data *d = NULL;
	struct bs_duet_report_opts o = {.no_table = true};

	fx_path(path, sizeof(path), "plain.trace");
	w = bs_trace_create(path, "{\"tool\": \"benchscope\"}", err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	bs_trace_close(w);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK(!bs_dataset_is_duet(ds));
	CHECK_INT_EQ(bs_duet_data_build(ds, &d, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "not a duet trace") && !strchr(err, '\n'));
	CHECK_INT_EQ(bs_duet_report_render(ds, &o, NULL, err, sizeof(err)), -EINVAL);
	bs_dataset_free(ds);
	ds = NULL;
	fx_path(path, sizeof(path), "allfailed.trace");
	w = bs_trace_create(path, "{\"mode\": \"duet\"}", err, sizeof(err));
	if (!w) {
		FAILF("bs_trace_create: %s", err);
		return;
	}
	bs_trace_write_event(
	    w, "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", "
	       "\"ok\": false, \"reason\": \"A never reached its probe within 600 s\", "
	       "\"sides\": {\"A\": {\"pid\": 1}, \"B\": {\"pid\": 2}}}");
	bs_trace_close(w);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_report_render(ds, &o, NULL, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "no usable run") && strstr(err, "never reached its probe"));
	bs_dataset_free(ds);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_model_and_overlaps);
	RUN_TEST(test_verdict_slower);
	RUN_TEST(test_regression_on_headline);
	RUN_TEST(test_aa_no_difference);
	RUN_TEST(test_noise_split);
	RUN_TEST(test_cpu_diagnosis);
	RUN_TEST(test_cpu_intermittent);
	RUN_TEST(test_cpu_small_steady);
	RUN_TEST(test_cpu_unpaired_run);
	RUN_TEST(test_cpu_noise_not_contention);
	RUN_TEST(test_spread);
	RUN_TEST(test_gbench_scores);
	RUN_TEST(test_named_benches);
	RUN_TEST(test_bad_traces);
	RUN_TEST(test_steps);
	return test_summary("test_duet_report");
}
