// SPDX-License-Identifier: MIT
/* test_desc.c - descriptive statistics, quantiles, outlier rules. */
#include "test.h"

#include <benchscope/stats.h>



static void test_summary_hand(void)
{
	/* values chosen so every field is known by hand */
	double x[] = { 4, 1, 3, 2, 10 };
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
	double one[] = { 7 }, two[] = { 2, 4 }, neg[] = { -1, 2, 3 };
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
	double x[] = { 1, NAN, 3 }, y[] = { 1, INFINITY }, q;
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
	double x[] = { 10, 0, 30, 20 }, q;

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
	double x[] = { 10, 11, 12, 13, 500, 11, 12, 14, 9, 12 };
	double kept[10], rem[10];
	size_t ki[10], ri[10], nk, nr;

	CHECK_INT_EQ(bs_outliers(x, 10, BS_OUTLIER_MAGNITUDE, 0, kept, ki, &nk,
				 rem, ri, &nr), BS_OK);
	CHECK_INT_EQ(nk, 9);
	CHECK_INT_EQ(nr, 1);
	CHECK_NEAR(rem[0], 500, 0, 0);
	CHECK_INT_EQ(ri[0], 4);
	CHECK_INT_EQ(ki[4], 5);
	CHECK_INT_EQ(bs_outliers(x, 10, BS_OUTLIER_TUKEY, 0, kept, NULL, &nk,
				 rem, NULL, &nr), BS_OK);
	CHECK_INT_EQ(nr, 1);
	CHECK_INT_EQ(bs_outliers(x, 10, BS_OUTLIER_MAD, 0, NULL, NULL, &nk, rem,
				 NULL, &nr), BS_OK);
	CHECK_INT_EQ(nr, 1);
	CHECK_INT_EQ(nk + nr, 10);
	/* MAD of 0: no scale, nothing removed */
	double t[] = { 5, 5, 5, 5, 9 };
	CHECK_INT_EQ(bs_outliers(t, 5, BS_OUTLIER_MAD, 0, NULL, NULL, &nk, NULL,
				 NULL, &nr), BS_OK);
	CHECK_INT_EQ(nr, 0);
	CHECK_INT_EQ(bs_outliers(t, 5, 99, 0, NULL, NULL, &nk, NULL, NULL, &nr),
		     BS_EINVAL);
	CHECK_INT_EQ(bs_outliers(t, 5, BS_OUTLIER_TUKEY, -1, NULL, NULL, &nk,
				 NULL, NULL, &nr), BS_EINVAL);
	CHECK_INT_EQ(bs_outliers(t, 0, BS_OUTLIER_TUKEY, 0, NULL, NULL, &nk,
				 NULL, NULL, &nr), BS_EEMPTY);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_summary_hand);
	RUN_TEST(test_summary_small_n);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_quantile_hand);
	RUN_TEST(test_outliers_hand);
	return test_summary("stats-desc");
}
