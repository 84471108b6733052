// SPDX-License-Identifier: MIT
/* test_duet_model.c - the run-level duet model with CPU placement terms
 * (stats_duet_model.h): against NumPy/SciPy references, on synthetic duets
 * in which one CPU is slowed by a known factor for known periods, and over
 * 1000 simulated A/A duets with autocorrelated iterations. Also the pooled
 * lag-1 autocorrelation. */
#include "test.h"

#include <math.h>
#include <stdbool.h>

#include <benchscope/stats.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "fixtures.h"

#define MAX_RUNS  16
#define MAX_PAIRS 64
#define MAX_CPUS  4

/* a pair of a synthetic run: ln(score_B / score_A) and the sides' CPUs */
struct tpair {
	double log_ratio;
	int cpu_a, cpu_b; /* < 0: unknown */
};

struct trun {
	const struct tpair *pairs;
	size_t n;
};

/* a run's observation as the NumPy reference defines it: y the mean log
 * ratio; each CPU's share of A's and of B's sides over the pairs, counting
 * only pairs whose two CPUs are known */
static void obs(const struct trun *r, struct bs_dmodel_share *sh, struct bs_dmodel_run *out)
{
	double y = 0;

	for (int c = 0; c < MAX_CPUS; c++)
		sh[c] = (struct bs_dmodel_share){.cpu = c};
	for (size_t p = 0; p < r->n; p++) {
		const struct tpair *q = &r->pairs[p];

		y += q->log_ratio / (double)r->n;
		if (q->cpu_a >= 0 && q->cpu_b >= 0) {
			sh[q->cpu_a].a += 1.0 / (double)r->n;
			sh[q->cpu_b].b += 1.0 / (double)r->n;
		}
	}
	*out = (struct bs_dmodel_run){.y = y, .n = r->n, .share = sh, .n_share = MAX_CPUS};
}

static int fit(const struct trun *runs, size_t n, const struct bs_dmodel_opts *o,
	       struct bs_dmodel_result *res)
{
	static struct bs_dmodel_share sh[MAX_RUNS][MAX_CPUS];
	struct bs_dmodel_run mr[MAX_RUNS];

	if (!runs || n > MAX_RUNS)
		return bs_dmodel_fit(NULL, n, o, res);
	for (size_t k = 0; k < n; k++)
		obs(&runs[k], sh[k], &mr[k]);
	return bs_dmodel_fit(mr, n, o, res);
}

/* the runs of one fixture case, built from its flattened records */
struct fcase {
	struct tpair pairs[MAX_RUNS * MAX_PAIRS];
	struct trun runs[MAX_RUNS];
	size_t n_runs;
};

static int load_case(const struct fixture *f, const char *name, struct fcase *c)
{
	size_t nl, np, na, nb, off = 0;
	const double *len, *lr, *ca, *cb;

	len = fix_getf(f, &nl, "%s.len", name);
	lr = fix_getf(f, &np, "%s.log_ratio", name);
	ca = fix_getf(f, &na, "%s.cpu_a", name);
	cb = fix_getf(f, &nb, "%s.cpu_b", name);
	if (!len || !lr || !ca || !cb || na != np || nb != np || nl > MAX_RUNS ||
	    np > MAX_RUNS * MAX_PAIRS)
		return -1;
	for (size_t i = 0; i < np; i++)
		c->pairs[i] = (struct tpair){lr[i], (int)ca[i], (int)cb[i]};
	for (size_t r = 0; r < nl; r++) {
		c->runs[r] = (struct trun){c->pairs + off, (size_t)len[r]};
		off += (size_t)len[r];
	}
	c->n_runs = nl;
	return off == np ? 0 : -1;
}

static void test_vs_numpy(void)
{
	static const char *const cases[] = {"same_cpu", "crossover", "unbalanced",
					    "unbalanced_nocpu", "three_cpus"};
	static struct fcase c;
	struct fixture f;

	if (fix_load(&f, "dmodel.txt")) {
		FAILF("fixture dmodel.txt missing or malformed");
		return;
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const double *ref, *opt, *eff, *eff_se;
		struct bs_dmodel_result r;
		struct bs_dmodel_opts o;
		size_t ne;

		CHECK_INT_EQ(load_case(&f, cases[i], &c), 0);
		opt = fix_getf(&f, NULL, "%s.opts", cases[i]);
		ref = fix_getf(&f, NULL, "%s.ref", cases[i]);
		eff = fix_getf(&f, &ne, "%s.effects", cases[i]);
		eff_se = fix_getf(&f, NULL, "%s.effects_se", cases[i]);
		CHECK(opt && ref && eff && eff_se);
		if (!opt || !ref || !eff || !eff_se)
			continue;
		o = (struct bs_dmodel_opts){.level = opt[0], .no_cpu = (int)opt[1]};
		CHECK_INT_EQ(fit(c.runs, c.n_runs, &o, &r), BS_OK);
		CHECK_NEAR(r.v, ref[0], 1e-12, 1e-9);
		CHECK_NEAR(r.se, ref[1], 1e-14, 1e-9);
		/* GSL's t quantile agrees with SciPy's to about 1e-9 */
		CHECK_NEAR(r.lo, ref[2], 1e-12, 1e-8);
		CHECK_NEAR(r.hi, ref[3], 1e-12, 1e-8);
		CHECK_NEAR(r.p, ref[4], 1e-14, 1e-7);
		CHECK_NEAR(r.mds, ref[5], 1e-14, 1e-8);
		CHECK_INT_EQ((int)r.df, (int)ref[6]);
		CHECK_NEAR(r.resid_sd, ref[7], 1e-14, 1e-9);
		if (isnan(eff[0])) {
			CHECK_INT_EQ((int)r.n_terms, 0);
		} else {
			CHECK_INT_EQ((int)r.n_terms, (int)ne);
			for (size_t j = 0; j < ne && j < r.n_terms; j++)
				CHECK_NEAR(r.term_effect[j], eff[j], 1e-12, 1e-9);
			for (size_t j = 0; j < ne && j < r.n_terms; j++)
				CHECK_NEAR(r.term_se[j], eff_se[j], 1e-14, 1e-9);
		}
	}
	fix_free(&f);
}

static void test_lag1_vs_numpy(void)
{
	const double *len, *x, *ref, *one;
	const double *series[8];
	size_t nl, nx, n[8], off = 0;
	struct fixture f;
	double r1;

	if (fix_load(&f, "dmodel.txt")) {
		FAILF("fixture dmodel.txt missing or malformed");
		return;
	}
	len = fix_get(&f, "lag1.len", &nl);
	x = fix_get(&f, "lag1.x", &nx);
	ref = fix_get(&f, "lag1.ref", NULL);
	one = fix_get(&f, "lag1_one.ref", NULL);
	CHECK(len && x && ref && one && nl <= 8);
	if (!len || !x || !ref || !one || nl > 8)
		goto out;
	for (size_t s = 0; s < nl; s++) {
		series[s] = x + off;
		n[s] = (size_t)len[s];
		off += n[s];
	}
	CHECK_INT_EQ(bs_lag1_autocorr_pooled(series, n, nl, &r1), BS_OK);
	CHECK_NEAR(r1, ref[0], 1e-13, 1e-11);
	CHECK_INT_EQ(bs_lag1_autocorr_pooled(series, n, 1, &r1), BS_OK);
	CHECK_NEAR(r1, one[0], 1e-13, 1e-11);
	/* AR(1) with phi 0.6: the estimate is clearly positive */
	CHECK(r1 > 0.3);
	n[0] = 1;
	CHECK_INT_EQ(bs_lag1_autocorr_pooled(series, n, 1, &r1), BS_ETOOFEW);
out:
	fix_free(&f);
}

/*
 * A synthetic duet with known truth: n_runs runs of n_pairs pairs; B does
 * `ratio` times A's work; iteration noise is AR(1) on the log scale (phi,
 * sd), each side its own; CPU 1 is slower by `slow` while slow_on[k] (k:
 * run); side A runs on cpu_a(k, p) and B on the other CPU (or the same when
 * same_cpu). Fills pairs with ln(sB / sA) and the CPUs.
 */
struct synth {
	size_t n_runs, n_pairs;
	double ratio, slow, phi, sd, run_sd;
	bool slow_on[MAX_RUNS];
	int a_cpu[MAX_RUNS][2]; /* A's CPU in the first and second half of run k */
	bool same_cpu;
};

static void synth_duet(const struct synth *s, gsl_rng *g, struct tpair *pairs, struct trun *runs)
{
	for (size_t k = 0; k < s->n_runs; k++) {
		double ea = 0, eb = 0;
		/* each side's own level in this run (e.g. its vCPU's speed) */
		double ua = gsl_ran_gaussian(g, s->run_sd), ub = gsl_ran_gaussian(g, s->run_sd);

		runs[k] = (struct trun){pairs + k * s->n_pairs, s->n_pairs};
		for (size_t p = 0; p < s->n_pairs; p++) {
			int ca = s->a_cpu[k][p >= s->n_pairs / 2], cb = s->same_cpu ? ca : 1 - ca;
			double la, lb;

			ea = s->phi * ea + gsl_ran_gaussian(g, s->sd);
			eb = s->phi * eb + gsl_ran_gaussian(g, s->sd);
			la = ua + ea + (s->slow_on[k] && ca == 1 ? log(s->slow) : 0);
			lb =
			    ub + eb + log(s->ratio) + (s->slow_on[k] && cb == 1 ? log(s->slow) : 0);
			pairs[k * s->n_pairs + p] = (struct tpair){lb - la, ca, cb};
		}
	}
}

/*
 * One CPU is 1.6x slower throughout and the sides swapped CPUs in 3 of 10
 * runs (as a scheduler may place them): the model with the placement term
 * recovers B/A = 1.03 within 0.5 %, the CPU-unaware run-level analysis is
 * far off. With the slowdown only in known periods and the sides swapped at
 * the middle of every run (within-run crossover), the model recovers it
 * too; left unswapped (A always on CPU 0), the model refuses
 * (confounded) and the unaware analysis is far off.
 */
static void test_slowed_cpu_recovered(void)
{
	static struct tpair pairs[MAX_RUNS * MAX_PAIRS];
	struct trun runs[MAX_RUNS];
	struct bs_dmodel_opts nocpu = {.no_cpu = 1};
	struct bs_dmodel_result r, naive;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct synth s = {.n_runs = 10,
			  .n_pairs = 30,
			  .ratio = 1.03,
			  .slow = 1.6,
			  .phi = 0.5,
			  .sd = 0.01,
			  .run_sd = 0.002};

	gsl_rng_set(g, 20261122);
	for (size_t k = 0; k < s.n_runs; k++) {
		s.slow_on[k] = true;
		s.a_cpu[k][0] = s.a_cpu[k][1] = (k == 2 || k == 5 || k == 9);
	}
	synth_duet(&s, g, pairs, runs);
	CHECK_INT_EQ(fit(runs, s.n_runs, NULL, &r), BS_OK);
	CHECK_INT_EQ(fit(runs, s.n_runs, &nocpu, &naive), BS_OK);
	if (fabs(exp(r.v) / s.ratio - 1) > 0.005)
		FAILF("CPU-aware B/A %.4f, truth %.2f", exp(r.v), s.ratio);
	if (!(fabs(exp(naive.v) / s.ratio - 1) > 0.10))
		FAILF("CPU-unaware B/A %.4f should be far from %.2f", exp(naive.v), s.ratio);
	CHECK_INT_EQ((int)r.n_terms, 1);
	CHECK_INT_EQ(r.term_cpu[0], 1);
	CHECK_NEAR(exp(r.term_effect[0]), 1.6, 0, 0.01);
	CHECK(r.lo < log(s.ratio) && log(s.ratio) < r.hi);
	/* each run shows the CPU ratio, once the version term is removed */
	for (size_t k = 0; k < s.n_runs; k++) {
		struct bs_dmodel_share sh[MAX_CPUS];
		struct bs_dmodel_run mr;

		obs(&runs[k], sh, &mr);
		CHECK_NEAR(bs_dmodel_run_cpu_ratio(&r, mr.y, bs_dmodel_run_x(&mr, 1)), 1.6, 0,
			   0.02);
	}

	/* slowdowns in known periods; swapped at the middle of every run */
	for (size_t k = 0; k < s.n_runs; k++) {
		s.slow_on[k] = (k >= 2 && k <= 5) || k == 8;
		s.a_cpu[k][0] = (int)(k % 2);
		s.a_cpu[k][1] = 1 - (int)(k % 2);
	}
	synth_duet(&s, g, pairs, runs);
	CHECK_INT_EQ(fit(runs, s.n_runs, NULL, &r), BS_OK);
	if (fabs(exp(r.v) / s.ratio - 1) > 0.005)
		FAILF("within-run crossover: B/A %.4f, truth %.2f", exp(r.v), s.ratio);
	CHECK_INT_EQ((int)r.n_terms, 0); /* balanced in every run: nothing to fit */

	/* the same periods, A always on CPU 0: confounded */
	for (size_t k = 0; k < s.n_runs; k++)
		s.a_cpu[k][0] = s.a_cpu[k][1] = 0;
	synth_duet(&s, g, pairs, runs);
	CHECK_INT_EQ(fit(runs, s.n_runs, NULL, &r), BS_ECONFOUNDED);
	CHECK_INT_EQ(r.confounded_cpu, 1);
	CHECK_INT_EQ(fit(runs, s.n_runs, &nocpu, &naive), BS_OK);
	if (!(fabs(exp(naive.v) / s.ratio - 1) > 0.10))
		FAILF("CPU-unaware B/A %.4f should be far from %.2f", exp(naive.v), s.ratio);

	/* both sides on one CPU (time-sliced): no term, the plain interval */
	s.same_cpu = true;
	synth_duet(&s, g, pairs, runs);
	CHECK_INT_EQ(fit(runs, s.n_runs, NULL, &r), BS_OK);
	CHECK_INT_EQ((int)r.n_terms, 0);
	CHECK_NEAR(exp(r.v), s.ratio, 0, 0.005);
	gsl_rng_free(g);
}

/*
 * K simulated A/A duets of 10 runs x 30 pairs: AR(1) iterations (phi 0.7),
 * a level per side and run, the sides swapped at the middle of every run,
 * and CPU 1 slowed 1.6x in a random share p_slow of the runs. Returns the
 * percentage of duets whose model interval (95 %) excludes 0 and, in
 * *merged, of duets where an interval treating every pair as independent
 * (the iterations merged, normal quantile) does.
 */
static double aa_alarm_pct(int K, double p_slow, unsigned long seed, double *merged)
{
	static struct tpair pairs[MAX_RUNS * MAX_PAIRS];
	struct trun runs[MAX_RUNS];
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct synth s = {.n_runs = 10,
			  .n_pairs = 30,
			  .ratio = 1.0,
			  .slow = 1.6,
			  .phi = 0.7,
			  .sd = 0.01,
			  .run_sd = 0.004};
	int alarms = 0, merged_alarms = 0;

	gsl_rng_set(g, seed);
	for (int d = 0; d < K; d++) {
		struct bs_dmodel_result r;
		size_t np = s.n_runs * s.n_pairs;
		double m = 0, v = 0, h;

		for (size_t k = 0; k < s.n_runs; k++) {
			s.slow_on[k] = gsl_rng_uniform(g) < p_slow;
			s.a_cpu[k][0] = (int)(k % 2);
			s.a_cpu[k][1] = 1 - (int)(k % 2);
		}
		synth_duet(&s, g, pairs, runs);
		if (fit(runs, s.n_runs, NULL, &r)) {
			FAILF("duet %d: the model could not be fitted", d);
			break;
		}
		alarms += r.lo > 0 || r.hi < 0;
		for (size_t i = 0; i < np; i++)
			m += pairs[i].log_ratio / (double)np;
		for (size_t i = 0; i < np; i++)
			v += (pairs[i].log_ratio - m) * (pairs[i].log_ratio - m) / (double)(np - 1);
		h = 1.959964 * sqrt(v / (double)np);
		merged_alarms += fabs(m) > h;
	}
	gsl_rng_free(g);
	*merged = 100.0 * merged_alarms / K;
	return 100.0 * alarms / K;
}

/*
 * The model's false alarms stay at the nominal 5 % (at most 6 %) over 5000
 * A/A duets (binomial sd of the rate 0.3 %), with and without the hidden CPU
 * slowdowns; treating iterations as independent raises far more. (With a
 * 1.6x slowdown that comes and goes between runs and the sides swapped only
 * between runs, 20000 duets gave 5.6-6.1 %: run ratios then mix two levels,
 * which the within-run swap cancels.)
 */
static void test_aa_false_alarms(void)
{
	const int K = 5000;
	double merged_slow, merged_none;
	double slow = aa_alarm_pct(K, 0.3, 424242, &merged_slow);
	double none = aa_alarm_pct(K, 0.0, 4242, &merged_none);

	printf(
	    "  A/A false alarms over %d duets: model %.1f %% (CPU 1 slowed in 30 %% of the runs), "
	    "%.1f %% (never); iterations merged %.1f %% (never)\n",
	    K, slow, none, merged_none);
	if (slow > 6.0 || none > 6.0)
		FAILF("model: %.1f %% / %.1f %% false alarms (> 6 %%)", slow, none);
	if (!(merged_none > 15.0))
		FAILF("merged iterations: only %.1f %% false alarms; the simulation does not show "
		      "the anti-conservative analysis",
		      merged_none);
}

/* MDS: B rescaled by any constant gives the same MDS; never 0 with spread */
static void test_mds_aa_equivalent(void)
{
	static struct tpair pairs[MAX_RUNS * MAX_PAIRS], scaled[MAX_RUNS * MAX_PAIRS];
	struct trun runs[MAX_RUNS], sruns[MAX_RUNS];
	struct bs_dmodel_result r, rs;
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	struct synth s = {.n_runs = 8,
			  .n_pairs = 20,
			  .ratio = 1.10,
			  .slow = 1.0,
			  .phi = 0.3,
			  .sd = 0.01,
			  .run_sd = 0.003,
			  .same_cpu = true};

	gsl_rng_set(g, 7);
	synth_duet(&s, g, pairs, runs);
	for (size_t i = 0; i < s.n_runs * s.n_pairs; i++) {
		scaled[i] = pairs[i];
		scaled[i].log_ratio -= log(1.10);
	}
	for (size_t k = 0; k < s.n_runs; k++)
		sruns[k] = (struct trun){scaled + (runs[k].pairs - pairs), runs[k].n};
	CHECK_INT_EQ(fit(runs, s.n_runs, NULL, &r), BS_OK);
	CHECK_INT_EQ(fit(sruns, s.n_runs, NULL, &rs), BS_OK);
	CHECK(r.lo > 0); /* a 10 % slowdown is found */
	CHECK(r.mds > 0 && r.mds < 0.05);
	CHECK_NEAR(r.mds, rs.mds, 1e-15, 1e-12);
	CHECK_NEAR(r.mds, expm1(r.t_crit * r.se), 1e-15, 1e-12);
	CHECK_NEAR(r.v - rs.v, log(1.10), 1e-12, 0);
	gsl_rng_free(g);
}

static void test_bad_input(void)
{
	struct tpair p[4] = {{0.1, 0, 0}, {0.1, 0, 0}, {0.2, 0, 0}, {NAN, 0, 0}};
	struct trun one[3] = {{p, 1}, {p + 1, 1}, {p + 2, 1}};
	struct trun same[2] = {{p, 1}, {p + 1, 1}};
	struct trun none[2] = {{p, 0}, {NULL, 0}};
	struct trun bad[1] = {{p + 3, 1}};
	struct bs_dmodel_share far = {.cpu = BS_DMODEL_MAX_CPU, .a = 1}, neg = {.cpu = 0, .b = 1.5};
	struct bs_dmodel_run farr[1] = {{.y = 0.1, .n = 1, .share = &far, .n_share = 1}};
	struct bs_dmodel_run negr[1] = {{.y = 0.1, .n = 1, .share = &neg, .n_share = 1}};
	struct bs_dmodel_opts lvl = {.level = 1.5};
	struct bs_dmodel_result r;

	CHECK_INT_EQ(fit(one, 3, NULL, &r), BS_OK);
	CHECK_INT_EQ((int)r.df, 2);
	CHECK_INT_EQ(fit(one, 1, NULL, &r), BS_ETOOFEW);
	CHECK_INT_EQ(fit(same, 2, NULL, &r), BS_EZEROVAR);
	CHECK_INT_EQ(fit(none, 2, NULL, &r), BS_EEMPTY);
	CHECK_INT_EQ(fit(bad, 1, NULL, &r), BS_ENONFINITE);
	CHECK_INT_EQ(bs_dmodel_fit(farr, 1, NULL, &r), BS_EINVAL);
	CHECK_INT_EQ(bs_dmodel_fit(negr, 1, NULL, &r), BS_EINVAL);
	CHECK_INT_EQ(fit(one, 3, &lvl, &r), BS_EINVAL);
	CHECK_INT_EQ(bs_dmodel_fit(NULL, 1, NULL, &r), BS_EINVAL);
	CHECK_INT_EQ(fit(one, 3, NULL, NULL), BS_EINVAL);
	CHECK(strcmp(bs_stats_strerror(BS_ECONFOUNDED), "unknown statistics error"));
}

/*
 * The spread split and the runs an MDS needs, by hand: a residual sd of
 * 5 % with runs whose iterations imply variances 0.0009 and 0.0016 (mean
 * 0.00125) leaves sqrt(0.0025 - 0.00125) to the runs; a fit of 4 runs with
 * se 0.5 % has one run's worth of 1 %, and an MDS of exp(0.01) - 1 needs
 * the first n with t(0.975, n - 1) <= sqrt(n): t(5) = 2.5706 > sqrt(6) =
 * 2.4495, t(6) = 2.4469 <= sqrt(7) = 2.6458, so 7 runs (t from a table).
 */
static void test_spread_by_hand(void)
{
	struct bs_dmodel_run runs[3] = {{.y = 0, .n = 5, .w2 = 0.0009},
					{.y = 0, .n = 0, .w2 = -1}, /* left out */
					{.y = 0, .n = 5, .w2 = 0.0016}};
	struct bs_dmodel_result r = {.n_runs = 4, .se = 0.005, .level = 0.95, .resid_sd = 0.05};
	struct bs_dmodel_spread sp;
	size_t n = 99;

	CHECK_INT_EQ(bs_dmodel_spread(&r, runs, 3, &sp), BS_OK);
	CHECK_NEAR(sp.within_sd, sqrt(0.00125), 0, 1e-14);
	CHECK_NEAR(sp.run_sd, sqrt(0.00125), 0, 1e-12);
	r.resid_sd = 0.01; /* less than the iterations explain: nothing left to the runs */
	CHECK_INT_EQ(bs_dmodel_spread(&r, runs, 3, &sp), BS_OK);
	CHECK_NEAR(sp.run_sd, 0, 0, 0);
	runs[0].w2 = NAN;
	CHECK_INT_EQ(bs_dmodel_spread(&r, runs, 3, &sp), BS_EINVAL);
	CHECK_INT_EQ(bs_dmodel_spread(&r, runs, 0, &sp), BS_EINVAL);

	CHECK_INT_EQ(bs_dmodel_runs_for_mds(&r, expm1(0.01), 10000, &n), BS_OK);
	CHECK_INT_EQ((int)n, 7);
	CHECK_INT_EQ(bs_dmodel_runs_for_mds(&r, expm1(0.01), 6, &n), BS_ETOOFEW);
	CHECK_INT_EQ((int)n, 0);
	/* a placement term costs a degree of freedom (df = n - 2): for
	 * exp(0.01) - 1, 6 runs: t(4) = 2.7764 > sqrt(6); 7: t(5) = 2.5706 <=
	 * sqrt(7) = 2.6458, still 7; for exp(0.009) - 1 (t <= 0.9 sqrt(n)), 7:
	 * 2.5706 > 2.3812, 8: t(6) = 2.4469 <= 2.5456, so 8 */
	r.n_terms = 1;
	CHECK_INT_EQ(bs_dmodel_runs_for_mds(&r, expm1(0.01), 10000, &n), BS_OK);
	CHECK_INT_EQ((int)n, 7);
	CHECK_INT_EQ(bs_dmodel_runs_for_mds(&r, expm1(0.009), 10000, &n), BS_OK);
	CHECK_INT_EQ((int)n, 8);
	CHECK_INT_EQ(bs_dmodel_runs_for_mds(&r, 0, 10000, &n), BS_EINVAL);
	CHECK_INT_EQ(bs_dmodel_runs_for_mds(NULL, 0.01, 10000, &n), BS_EINVAL);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_vs_numpy);
	RUN_TEST(test_lag1_vs_numpy);
	RUN_TEST(test_slowed_cpu_recovered);
	RUN_TEST(test_aa_false_alarms);
	RUN_TEST(test_mds_aa_equivalent);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_spread_by_hand);
	return test_summary("stats-duet-model");
}
