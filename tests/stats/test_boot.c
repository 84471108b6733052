// SPDX-License-Identifier: MIT
/* test_boot.c - bootstrap CIs vs SciPy, BCa formula on fixed replicates,
 * hierarchical resampling, ratio of means, moving block, bad input. */
#include "test.h"

#include <benchscope/stats.h>

#include "fixtures.h"
#include "../../stats/stats_internal.h"

static bs_statistic_fn stat_by_name(const char *s)
{
	if (!strcmp(s, "mean"))
		return bs_stat_mean;
	if (!strcmp(s, "median"))
		return bs_stat_median;
	return bs_stat_geomean;
}

/*
 * End to end vs scipy.stats.bootstrap with the same data, level (95 %) and
 * resample count (B = 2000, fewer than the 9999 default to keep the test
 * fast). The RNGs differ, so each endpoint is a random variable: the
 * fixture holds the mean m and the standard deviation s of SciPy's
 * endpoint over K = 20 seeds. Ours has the same Monte-Carlo spread s, so
 * ours - m has sd s sqrt(1 + 1/K); we accept 5 of those (a false alarm
 * has probability < 1e-6 per endpoint for normal errors). A small floor of
 * 2 % of the standard error of the mean covers discrete statistics (median)
 * whose endpoint may not vary between seeds at all.
 */
static void test_vs_scipy(void)
{
	static const char *const cases[][2] = {
	    {"small", "mean"},	  {"small", "median"},	 {"tied", "mean"},    {"skewed", "mean"},
	    {"skewed", "median"}, {"skewed", "geomean"}, {"bimodal", "mean"}, {"bimodal", "median"},
	    {"iters", "mean"},	  {"large", "mean"},
	};
	struct fixture f;
	const double *par;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	if (fix_load(&f, "boot.txt")) {
		FAILF("fixture boot.txt missing or malformed");
		gsl_rng_free(rng);
		return;
	}
	par = fix_get(&f, "params", NULL);
	CHECK(par != NULL);
	if (!par)
		goto out;
	double K = par[0], B = par[1], level = par[2];

	gsl_rng_set(rng, 42);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char k[96];
		size_t n;
		const double *x;

		x = fix_getf(&f, &n, "%s.%s.data", cases[c][0], cases[c][1]);
		CHECK(x != NULL);
		if (!x)
			continue;
		struct bs_summary s;

		bs_summarize(x, n, &s);
		double floor_ = 0.02 * s.sd / sqrt((double)n);

		for (int m = 0; m < 2; m++) {
			struct bs_ci ci;
			const double *ref;

			snprintf(k, sizeof(k), "%s.%s.%s", cases[c][0], cases[c][1],
				 m ? "percentile" : "BCa");
			ref = fix_get(&f, k, NULL);
			CHECK(ref != NULL);
			if (!ref)
				continue;
			CHECK_INT_EQ(bs_bootstrap_ci(x, n, stat_by_name(cases[c][1]), NULL,
						     m ? BS_CI_PERCENTILE : BS_CI_BCA, level,
						     (size_t)B, rng, NULL, &ci),
				     BS_OK);
			double tl = 5 * ref[1] * sqrt(1 + 1 / K) + floor_;
			double th = 5 * ref[3] * sqrt(1 + 1 / K) + floor_;

			if (fabs(ci.lo - ref[0]) > tl || fabs(ci.hi - ref[2]) > th)
				FAILF("%s: [%g, %g] vs SciPy [%g, %g] tol %g %g", k, ci.lo, ci.hi,
				      ref[0], ref[2], tl, th);
			CHECK(ci.lo <= ci.point && ci.point <= ci.hi);
		}
	}
out:
	gsl_rng_free(rng);
	fix_free(&f);
}

/* BCa on replicates drawn by NumPy: the interval must equal the textbook
 * formula (checked in the generator against SciPy's own _bca_interval)
 * to rounding. */
static void test_bca_fixed_replicates(void)
{
	static const char *const cases[][2] = {
	    {"skewed", "mean"}, {"bimodal", "median"}, {"small", "mean"}, {"iters", "geomean"}};
	struct fixture f;

	if (fix_load(&f, "boot.txt")) {
		FAILF("fixture boot.txt missing or malformed");
		return;
	}
	for (size_t c = 0; c < 4; c++) {
		size_t n, nr;
		const double *x, *rep, *ref, *pr;
		struct bs_ci ci;

		x = fix_getf(&f, &n, "rep.%s.%s.data", cases[c][0], cases[c][1]);
		rep = fix_getf(&f, &nr, "rep.%s.%s.replicates", cases[c][0], cases[c][1]);
		ref = fix_getf(&f, NULL, "rep.%s.%s.bca", cases[c][0], cases[c][1]);
		pr = fix_getf(&f, NULL, "rep.%s.%s.percentile", cases[c][0], cases[c][1]);
		CHECK(x && rep && ref && pr);
		if (!x || !rep || !ref || !pr)
			continue;
		CHECK_INT_EQ(bs_bca_from_replicates(x, n, stat_by_name(cases[c][1]), NULL, rep, nr,
						    0.95, &ci),
			     BS_OK);
		CHECK_NEAR(ci.lo, ref[0], 0, 1e-12);
		CHECK_NEAR(ci.hi, ref[1], 0, 1e-12);
		CHECK_NEAR(ci.z0, ref[2], 1e-12, 1e-10);
		CHECK_NEAR(ci.accel, ref[3], 1e-12, 1e-9); /* a ~ 0: rounding */
		CHECK_INT_EQ(bs_percentile_from_replicates(rep, nr, 0, 0.95, &ci), BS_OK);
		CHECK_NEAR(ci.lo, pr[0], 0, 1e-14);
		CHECK_NEAR(ci.hi, pr[1], 0, 1e-14);
	}
	fix_free(&f);
}

static void test_reproducible_and_replicates(void)
{
	double x[50], rep1[300], rep2[300];
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct bs_ci a, b;

	for (int i = 0; i < 50; i++)
		x[i] = 100 + 0.37 * i + (i * 37 % 17);
	gsl_rng_set(r, 7);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 50, bs_stat_median, NULL, BS_CI_BCA, 0.9, 300, r, rep1, &a),
		     BS_OK);
	gsl_rng_set(r, 7);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 50, bs_stat_median, NULL, BS_CI_BCA, 0.9, 300, r, rep2, &b),
		     BS_OK);
	CHECK(!memcmp(rep1, rep2, sizeof(rep1)));
	CHECK(a.lo == b.lo && a.hi == b.hi);
	/* replicates exposed: the interval follows from them */
	struct bs_ci c;

	CHECK_INT_EQ(bs_bca_from_replicates(x, 50, bs_stat_median, NULL, rep1, 300, 0.9, &c),
		     BS_OK);
	CHECK(c.lo == a.lo && c.hi == a.hi);
	/* a different seed gives a different bootstrap distribution */
	gsl_rng_set(r, 8);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 50, bs_stat_median, NULL, BS_CI_BCA, 0.9, 300, r, rep2, &b),
		     BS_OK);
	CHECK(memcmp(rep1, rep2, sizeof(rep1)));
	/* median statistic agrees with bs_quantile */
	double med, cp[50];

	memcpy(cp, x, sizeof(x));
	bs_quantile(x, 50, 0.5, &med);
	CHECK_NEAR(bs_stat_median(cp, 50, NULL), med, 0, 0);
	memcpy(cp, x, 49 * sizeof(double));
	bs_quantile(x, 49, 0.5, &med);
	CHECK_NEAR(bs_stat_median(cp, 49, NULL), med, 0, 0);
	gsl_rng_free(r);
}

static void test_bad_input(void)
{
	double x[] = {1, 2, 3, 4}, c[] = {5, 5, 5, 5}, nanx[] = {1, NAN};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct bs_ci ci;

	CHECK_INT_EQ(bs_bootstrap_ci(x, 0, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 100, r, NULL, &ci),
		     BS_EEMPTY);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 1, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 100, r, NULL, &ci),
		     BS_ETOOFEW);
	CHECK_INT_EQ(
	    bs_bootstrap_ci(nanx, 2, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 100, r, NULL, &ci),
	    BS_ENONFINITE);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 4, bs_stat_mean, NULL, BS_CI_BCA, 1.0, 100, r, NULL, &ci),
		     BS_EINVAL);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 4, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 1, r, NULL, &ci),
		     BS_EINVAL);
	CHECK_INT_EQ(bs_bootstrap_ci(x, 4, bs_stat_mean, NULL, 7, 0.95, 100, r, NULL, &ci),
		     BS_EINVAL);
	CHECK_INT_EQ(
	    bs_bootstrap_ci(x, 4, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 100, NULL, NULL, &ci),
	    BS_EINVAL);
	/* zero variance: BCa undefined, percentile is the point */
	CHECK_INT_EQ(bs_bootstrap_ci(c, 4, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 100, r, NULL, &ci),
		     BS_EZEROVAR);
	CHECK_INT_EQ(
	    bs_bootstrap_ci(c, 4, bs_stat_mean, NULL, BS_CI_PERCENTILE, 0.95, 100, r, NULL, &ci),
	    BS_OK);
	CHECK(ci.lo == 5 && ci.hi == 5);
	/* geomean of non-positive data */
	double neg[] = {-1, 2, 3};

	CHECK_INT_EQ(bs_bootstrap_ci(neg, 3, bs_stat_geomean, NULL, BS_CI_PERCENTILE, 0.95, 100, r,
				     NULL, &ci),
		     BS_ENONFINITE);
	double r1;

	CHECK_INT_EQ(bs_lag1_autocorr(c, 4, &r1), BS_EZEROVAR);
	CHECK_INT_EQ(bs_lag1_autocorr(x, 2, &r1), BS_ETOOFEW);
	CHECK_INT_EQ(bs_block_bootstrap_ci(x, 4, 5, bs_stat_mean, NULL, 0.95, 100, r, NULL, &ci),
		     BS_EINVAL);
	gsl_rng_free(r);
}

/* Hierarchical resampling: structural facts known by construction. */
static void test_hierarchical(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	/* 3 forks x 2 iterations x 2 invocations, each fork constant: only
	 * the fork level varies, so the CI lies within the fork means */
	double x[] = {10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30};
	size_t ni[] = {2, 2, 2}, nv[] = {2, 2, 2, 2, 2, 2};
	struct bs_hier h = {x, 3, ni, nv};
	struct bs_ci ci;
	double rciw;

	gsl_rng_set(r, 1);
	CHECK_INT_EQ(bs_hier_count(&h), 12);
	CHECK_INT_EQ(bs_hier_ci_mean(&h, 0.99, 1000, r, &ci), BS_OK);
	CHECK_NEAR(ci.point, 20, 1e-12, 0);
	CHECK(ci.lo >= 10 && ci.hi <= 30 && ci.lo < 20 && ci.hi > 20);
	/* resample means take only values (a + b + c) / 3 of fork means */
	CHECK(fabs(ci.lo * 3 - round(ci.lo * 3)) < 1e-9 || ci.lo != ci.lo);
	/* constant data: RCIW 0 */
	double k[] = {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5};
	struct bs_hier hk = {k, 3, ni, nv};

	CHECK_INT_EQ(bs_hier_rciw(&hk, 0.99, 200, r, &rciw, NULL), BS_OK);
	CHECK_NEAR(rciw, 0, 0, 0);
	/* one fork, one value per iteration: the plain bootstrap of the mean,
	 * whose 99 % percentile interval of 1..100 is about mean +- 2.58 se */
	double y[100];
	size_t one = 100;

	for (int i = 0; i < 100; i++)
		y[i] = i + 1;
	struct bs_hier hy = {y, 1, &one, NULL};

	CHECK_INT_EQ(bs_hier_rciw(&hy, 0.99, 4000, r, &rciw, &ci), BS_OK);
	double se = sqrt(833.25 / 100); /* population sd / sqrt(n) */

	CHECK_NEAR(ci.hi - ci.lo, 2 * 2.5758 * se, 0, 0.05);
	CHECK_NEAR(rciw, (ci.hi - ci.lo) / 50.5, 1e-12, 0);
	/* ratio of means: B = 1.1 A exactly, by construction */
	double z[12];

	for (int i = 0; i < 12; i++)
		z[i] = 1.1 * x[i];
	struct bs_hier hz = {z, 3, ni, nv};

	CHECK_INT_EQ(bs_hier_ratio_ci(&h, &hz, 0.95, 2000, r, &ci), BS_OK);
	CHECK_NEAR(ci.point, 1.1, 1e-12, 0);
	CHECK(ci.lo < 1.1 && ci.hi > 1.1);
	/* A/A: same data straddles 1 */
	CHECK_INT_EQ(bs_hier_ratio_ci(&h, &h, 0.95, 2000, r, &ci), BS_OK);
	CHECK(ci.lo < 1 && ci.hi > 1);
	/* clearly different: B twice as slow, low noise -> excludes 1 */
	double w[12];

	for (int i = 0; i < 12; i++)
		w[i] = 2 * k[i] + (i % 3) * 0.01;
	struct bs_hier hw = {w, 3, ni, nv};

	CHECK_INT_EQ(bs_hier_ratio_ci(&hk, &hw, 0.95, 2000, r, &ci), BS_OK);
	CHECK(ci.lo > 1.9 && ci.hi < 2.1);
	/* bad input */
	size_t zero[] = {2, 0, 2};
	struct bs_hier hb = {x, 3, zero, NULL};

	CHECK_INT_EQ(bs_hier_ci_mean(&hb, 0.99, 100, r, &ci), BS_EINVAL);
	hb.n_forks = 0;
	CHECK_INT_EQ(bs_hier_ci_mean(&hb, 0.99, 100, r, &ci), BS_EEMPTY);
	double xn[] = {1, INFINITY};
	size_t two = 2;
	struct bs_hier hn = {xn, 1, &two, NULL};

	CHECK_INT_EQ(bs_hier_ci_mean(&hn, 0.99, 100, r, &ci), BS_ENONFINITE);
	gsl_rng_free(r);
}

/* The RCIW of the hierarchical bootstrap against the Python
 * reimplementation is tested in test_stop (fork vector). Here: the moving
 * block bootstrap widens the interval of a positively autocorrelated
 * series, and lag-1 autocorrelation matches the fixture. */
static void test_block_and_acf(void)
{
	struct fixture f;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (fix_load(&f, "boot.txt")) {
		FAILF("fixture boot.txt missing or malformed");
		gsl_rng_free(r);
		return;
	}
	const char *names[] = {"iters", "skewed"};

	for (int i = 0; i < 2; i++) {
		size_t n;
		double r1;

		const double *x = fix_getf(&f, &n, "%s.mean.data", names[i]);

		const double *ref = fix_getf(&f, NULL, "acf1.%s", names[i]);

		CHECK(x && ref);
		if (!x || !ref)
			continue;
		CHECK_INT_EQ(bs_lag1_autocorr(x, n, &r1), BS_OK);
		CHECK_NEAR(r1, ref[0], 1e-13, 1e-11);
	}
	/* AR(1) series with phi = 0.8: iid bootstrap underestimates the
	 * spread of the mean by sqrt((1 + phi) / (1 - phi)) = 3; blocks of 20
	 * recover most of it */
	double y[400], e = 0;

	gsl_rng_set(r, 3);
	for (int t = 0; t < 400; t++) {
		e = 0.8 * e + (gsl_rng_uniform(r) - 0.5);
		y[t] = 100 + e;
	}
	struct bs_ci iid, blk;
	double r1;

	CHECK_INT_EQ(bs_bootstrap_ci(y, 400, bs_stat_mean, NULL, BS_CI_PERCENTILE, 0.95, 2000, r,
				     NULL, &iid),
		     BS_OK);
	CHECK_INT_EQ(
	    bs_block_bootstrap_ci(y, 400, 20, bs_stat_mean, NULL, 0.95, 2000, r, &r1, &blk), BS_OK);
	CHECK(r1 > 0.6 && r1 < 0.95);
	CHECK((blk.hi - blk.lo) > 2 * (iid.hi - iid.lo));
	/* block length 1 is the iid bootstrap: similar width */
	CHECK_INT_EQ(
	    bs_block_bootstrap_ci(y, 400, 1, bs_stat_mean, NULL, 0.95, 2000, r, NULL, &blk), BS_OK);
	CHECK_NEAR(blk.hi - blk.lo, iid.hi - iid.lo, 0, 0.15);
	/* auto block length */
	CHECK_INT_EQ(bs_block_bootstrap_ci(y, 400, 0, bs_stat_mean, NULL, 0.95, 500, r, NULL, &blk),
		     BS_OK);
	gsl_rng_free(r);
	fix_free(&f);
}

/* The four-indexes-per-draw resampler (batched multiply-shift with
 * rejection): every index in [0, n), including the edges n = 1 and
 * n = BS_BELOW4_MAX (threshold 0), and the pairs drawn from one 32-bit half
 * uniform on [0, n)^2 (chi-square with 48 df over 2 x 100,000 pairs for
 * n = 7, where 2^32 mod 49 != 0 so rejection matters; the bound is the
 * mean + 6 sd, and the seed is fixed). */
static void test_below4(void)
{
	static const uint32_t ns[] = {1, 3, 7, 1000, BS_BELOW4_MAX};
	struct bs_xrng g;
	uint32_t k[4];

	bs_xrng_seed_u64(&g, 2024);
	for (size_t c = 0; c < sizeof(ns) / sizeof(ns[0]); c++) {
		uint32_t n = ns[c], t = -(n * n) % (n * n), bad = 0;

		for (int r = 0; r < 10000; r++) {
			bs_xrng_below4(&g, n, t, k);
			bad += k[0] >= n || k[1] >= n || k[2] >= n || k[3] >= n;
		}
		CHECK_INT_EQ(bad, 0);
	}
	unsigned cnt[49] = {0};
	uint32_t t7 = -(7u * 7u) % (7u * 7u);
	const int draws = 100000;

	for (int r = 0; r < draws; r++) {
		bs_xrng_below4(&g, 7, t7, k);
		cnt[k[0] * 7 + k[1]]++;
		cnt[k[2] * 7 + k[3]]++;
	}
	double e = 2.0 * draws / 49, chi2 = 0;

	for (int i = 0; i < 49; i++)
		chi2 += (cnt[i] - e) * (cnt[i] - e) / e;
	if (chi2 > 48 + 6 * sqrt(2 * 48.0))
		FAILF("pair chi-square %g over 48 df", chi2);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_vs_scipy);
	RUN_TEST(test_bca_fixed_replicates);
	RUN_TEST(test_reproducible_and_replicates);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_hierarchical);
	RUN_TEST(test_block_and_acf);
	RUN_TEST(test_below4);
	return test_summary("stats-boot");
}
