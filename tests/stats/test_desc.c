// SPDX-License-Identifier: MIT
/* test_desc.c - descriptive statistics, quantiles, outlier rules. */
#include "test.h"

#include <benchscope/stats.h>

#include "fixtures.h"

static void test_summary_hand(void)
{
	/* values chosen so every field is known by hand */
	double x[] = {4, 1, 3, 2, 10};
	struct bs_summary s;

	CHECK_INT_EQ(bs_summarize(x, 5, &s), BS_OK);
	CHECK_INT_EQ(s.n, 5);
	CHECK_NEAR(s.mean, 4.0, 1e-15, 0);
	CHECK_NEAR(s.median, 3.0, 0, 0);
	CHECK_NEAR(s.min, 1.0, 0, 0);
	CHECK_NEAR(s.max, 10.0, 0, 0);
	CHECK_NEAR(s.q1, 2.0, 0, 0);
	CHECK_NEAR(s.q3, 4.0, 0, 0);
	CHECK_NEAR(s.sd, sqrt(12.5), 1e-15, 1e-15); /* ss = 50, /4 */
	CHECK_NEAR(s.cv, sqrt(12.5) / 4, 1e-15, 1e-15);
	CHECK_NEAR(s.mean_trimmed, 3.0, 1e-15, 0);
	CHECK_NEAR(s.geomean, pow(240.0, 0.2), 1e-14, 1e-14);
}

static void test_summary_small_n(void)
{
	double one[] = {7}, two[] = {2, 4}, neg[] = {-1, 2, 3};
	struct bs_summary s;

	CHECK_INT_EQ(bs_summarize(one, 1, &s), BS_OK);
	CHECK(isnan(s.sd) && isnan(s.cv));
	CHECK_NEAR(s.mean_trimmed, 7, 0, 0);
	CHECK_NEAR(s.q1, 7, 0, 0);
	CHECK_INT_EQ(bs_summarize(two, 2, &s), BS_OK);
	CHECK_NEAR(s.mean_trimmed, 3, 0, 0);
	CHECK_NEAR(s.sd, sqrt(2.0), 1e-15, 0);
	CHECK_NEAR(s.geomean, sqrt(8.0), 1e-15, 0);
	CHECK_INT_EQ(bs_summarize(neg, 3, &s), BS_OK);
	CHECK(isnan(s.geomean));
	CHECK_NEAR(s.mean_trimmed, 2, 0, 0);
}

static void test_bad_input(void)
{
	double x[] = {1, NAN, 3}, y[] = {1, INFINITY}, q;
	struct bs_summary s;

	CHECK_INT_EQ(bs_summarize(x, 0, &s), BS_EEMPTY);
	CHECK_INT_EQ(bs_summarize(x, 3, &s), BS_ENONFINITE);
	CHECK_INT_EQ(bs_summarize(y, 2, &s), BS_ENONFINITE);
	CHECK_INT_EQ(bs_summarize(NULL, 2, &s), BS_EINVAL);
	CHECK_INT_EQ(bs_summarize(x, 1, NULL), BS_EINVAL);
	CHECK_INT_EQ(bs_quantile(x, 1, 1.5, &q), BS_EINVAL);
	CHECK_INT_EQ(bs_quantile(x, 1, -0.1, &q), BS_EINVAL);
	CHECK_INT_EQ(bs_quantile(x, 1, NAN, &q), BS_EINVAL);
	CHECK_INT_EQ(bs_quantile(x, 0, 0.5, &q), BS_EEMPTY);
	CHECK_INT_EQ(bs_quantile(y, 2, 0.5, &q), BS_ENONFINITE);
	CHECK_INT_EQ(bs_sample_var(x, 1, &q), BS_ETOOFEW);
	for (int e = 0; e >= -9; e--)
		CHECK(strcmp(bs_stats_strerror(e), "unknown statistics error"));
	CHECK(!strcmp(bs_stats_strerror(-42), "unknown statistics error"));
}

static void test_quantile_hand(void)
{
	double x[] = {10, 0, 30, 20}, q;

	/* sorted 0 10 20 30: h = 3q */
	CHECK_INT_EQ(bs_quantile(x, 4, 0.0, &q), BS_OK);
	CHECK_NEAR(q, 0, 0, 0);
	bs_quantile(x, 4, 1.0, &q);
	CHECK_NEAR(q, 30, 0, 0);
	bs_quantile(x, 4, 0.5, &q);
	CHECK_NEAR(q, 15, 0, 0);
	bs_quantile(x, 4, 0.1, &q);
	CHECK_NEAR(q, 3, 1e-14, 0);
	/* input must be left unmodified */
	CHECK(x[0] == 10 && x[1] == 0 && x[2] == 30 && x[3] == 20);
}

static void test_outliers_hand(void)
{
	double x[] = {10, 11, 12, 13, 500, 11, 12, 14, 9, 12};
	double kept[10], rem[10];
	size_t ki[10], ri[10], nk, nr;

	CHECK_INT_EQ(bs_outliers(x, 10, BS_OUTLIER_MAGNITUDE, 0, kept, ki, &nk, rem, ri, &nr),
		     BS_OK);
	CHECK_INT_EQ(nk, 9);
	CHECK_INT_EQ(nr, 1);
	CHECK_NEAR(rem[0], 500, 0, 0);
	CHECK_INT_EQ(ri[0], 4);
	CHECK_INT_EQ(ki[4], 5);
	CHECK_INT_EQ(bs_outliers(x, 10, BS_OUTLIER_TUKEY, 0, kept, NULL, &nk, rem, NULL, &nr),
		     BS_OK);
	CHECK_INT_EQ(nr, 1);
	CHECK_INT_EQ(bs_outliers(x, 10, BS_OUTLIER_MAD, 0, NULL, NULL, &nk, rem, NULL, &nr), BS_OK);
	CHECK_INT_EQ(nr, 1);
	CHECK_INT_EQ(nk + nr, 10);
	/* MAD of 0: no scale, nothing removed */
	double t[] = {5, 5, 5, 5, 9};
	CHECK_INT_EQ(bs_outliers(t, 5, BS_OUTLIER_MAD, 0, NULL, NULL, &nk, NULL, NULL, &nr), BS_OK);
	CHECK_INT_EQ(nr, 0);
	CHECK_INT_EQ(bs_outliers(t, 5, 99, 0, NULL, NULL, &nk, NULL, NULL, &nr), BS_EINVAL);
	CHECK_INT_EQ(bs_outliers(t, 5, BS_OUTLIER_TUKEY, -1, NULL, NULL, &nk, NULL, NULL, &nr),
		     BS_EINVAL);
	CHECK_INT_EQ(bs_outliers(t, 0, BS_OUTLIER_TUKEY, 0, NULL, NULL, &nk, NULL, NULL, &nr),
		     BS_EEMPTY);
}

static const char *const DS[] = {"small", "large", "tied", "skewed", "bimodal", "iters"};

/* 20 % of 5 is one value off each end: the outlier 100 never counts */
static void test_trimmed_mean_hand(void)
{
	const double x[] = {3, 100, 1, 2, 4}, bad[] = {1, NAN, 2};
	double v = 0;

	CHECK_INT_EQ(bs_trimmed_mean(x, 5, 0.2, &v), BS_OK);
	CHECK_NEAR(v, 3, 0, 0);
	CHECK_INT_EQ(bs_trimmed_mean(x, 5, 0.1, &v), BS_OK); /* floor(0.5): none dropped */
	CHECK_NEAR(v, 22, 0, 1e-15);
	CHECK_INT_EQ(bs_trimmed_mean(x, 5, 0.5, &v), BS_EINVAL);
	CHECK_INT_EQ(bs_trimmed_mean(x, 5, -0.1, &v), BS_EINVAL);
	CHECK_INT_EQ(bs_trimmed_mean(x, 5, 0.2, NULL), BS_EINVAL);
	CHECK_INT_EQ(bs_trimmed_mean(x, 0, 0.2, &v), BS_EEMPTY);
	CHECK_INT_EQ(bs_trimmed_mean(bad, 3, 0.2, &v), BS_ENONFINITE);
	/* winsorized 20 %: {2, 2, 3, 4, 4}, sd sqrt(1), / (0.6 sqrt(5)) */
	{
		double se = 0;

		CHECK_INT_EQ(bs_trimmed_mean_se(x, 5, 0.2, &v, &se), BS_OK);
		CHECK_NEAR(v, 3, 0, 0);
		CHECK_NEAR(se, 1.0 / (0.6 * sqrt(5.0)), 0, 1e-15);
		CHECK_INT_EQ(bs_trimmed_mean_se(x, 1, 0.2, &v, &se), BS_ETOOFEW);
		CHECK_INT_EQ(bs_trimmed_mean_se(x, 5, 0.2, &v, NULL), BS_EINVAL);
	}
}

/* NumPy reference: mean/median/sd/quantiles, SciPy's trimmed means to 1e-12 relative (different
 * summation order), outlier indexes exactly */
static void test_numpy_reference(void)
{
	struct fixture f;
	size_t nq, n, m;

	if (fix_load(&f, "desc.txt")) {
		FAILF("fixture desc.txt missing or malformed");
		return;
	}
	const double *qs = fix_get(&f, "quantile_levels", &nq);

	CHECK(qs && nq == 10);
	for (size_t d = 0; d < sizeof(DS) / sizeof(DS[0]); d++) {
		const double *x = fix_get(&f, DS[d], &n), *s, *q;
		struct bs_summary r;

		s = fix_getf(&f, &m, "%s.summary", DS[d]);
		q = fix_getf(&f, NULL, "%s.quantiles", DS[d]);
		CHECK(x && s && q && m == 11);
		if (!x || !s || !q)
			continue;
		CHECK_INT_EQ(bs_summarize(x, n, &r), BS_OK);
		CHECK_INT_EQ(r.n, s[0]);
		CHECK_NEAR(r.mean, s[1], 0, 1e-12);
		CHECK_NEAR(r.median, s[2], 0, 1e-14);
		CHECK_NEAR(r.sd, s[3], 0, 1e-10);
		CHECK_NEAR(r.cv, s[4], 0, 1e-10);
		CHECK_NEAR(r.min, s[5], 0, 0);
		CHECK_NEAR(r.max, s[6], 0, 0);
		CHECK_NEAR(r.q1, s[7], 0, 1e-14);
		CHECK_NEAR(r.q3, s[8], 0, 1e-14);
		CHECK_NEAR(r.mean_trimmed, s[9], 0, 1e-12);
		CHECK_NEAR(r.geomean, s[10], 0, 1e-12);
		for (size_t i = 0; i < nq; i++) {
			double v;

			CHECK_INT_EQ(bs_quantile(x, n, qs[i], &v), BS_OK);
			CHECK_NEAR(v, q[i], 0, 1e-14);
		}
		/* scipy.stats.trim_mean at 0, 0.1, 0.2, 0.25, 0.45 */
		q = fix_getf(&f, &m, "%s.trim", DS[d]);
		CHECK(q && m == 5);
		for (size_t i = 0; q && i < m; i++) {
			static const double frac[] = {0.0, 0.1, 0.2, 0.25, 0.45};
			double v = NAN;

			CHECK_INT_EQ(bs_trimmed_mean(x, n, frac[i], &v), BS_OK);
			CHECK_NEAR(v, q[i], 0, 1e-12);
		}
		/* scipy.stats.mstats.trimmed_stde at the same proportions */
		q = fix_getf(&f, &m, "%s.trim_se", DS[d]);
		CHECK(q && m == 5);
		for (size_t i = 0; q && i < m; i++) {
			static const double frac[] = {0.0, 0.1, 0.2, 0.25, 0.45};
			double v = NAN, se = NAN;

			CHECK_INT_EQ(bs_trimmed_mean_se(x, n, frac[i], &v, &se), BS_OK);
			CHECK_NEAR(se, q[i], 1e-12 * fabs(v), 1e-10);
		}
		static const enum bs_outlier_rule rules[] = {BS_OUTLIER_MAGNITUDE, BS_OUTLIER_TUKEY,
							     BS_OUTLIER_MAD};
		static const char *const rn[] = {"magnitude", "tukey", "mad"};

		for (int r2 = 0; r2 < 3; r2++) {
			size_t idx[5000], nr, nk, ne;
			const double *e;

			e = fix_getf(&f, &ne, "%s.out_%s", DS[d], rn[r2]);
			CHECK_INT_EQ(
			    bs_outliers(x, n, rules[r2], 0, NULL, NULL, &nk, NULL, idx, &nr),
			    BS_OK);
			CHECK_INT_EQ(nr, ne);
			CHECK_INT_EQ(nk + nr, n);
			for (size_t i = 0; e && i < nr && i < ne; i++)
				CHECK_INT_EQ(idx[i], e[i]);
		}
	}
	fix_free(&f);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_summary_hand);
	RUN_TEST(test_summary_small_n);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_quantile_hand);
	RUN_TEST(test_outliers_hand);
	RUN_TEST(test_trimmed_mean_hand);
	RUN_TEST(test_numpy_reference);
	return test_summary("stats-desc");
}
