// SPDX-License-Identifier: MIT
/* test_mwu.c - Mann-Whitney U vs scipy.stats.mannwhitneyu(method="auto"). */
#include "test.h"

#include <benchscope/stats.h>

#include "fixtures.h"

/* U statistics are sums of (half-)integers: exact equality. p-values:
 * exact ones to 1e-12 relative (SciPy sums float pmfs), asymptotic ones to
 * 1e-9 relative (erfc implementations differ in the last bits). */
static void test_vs_scipy(void)
{
	static const char *const cases[] = {
	    "exact_small", "exact_8_30", "exact_3_200",	    "exact_separated",
	    "exact_1_1",   "asym_9_9",	 "ties_small",	    "tied_ints",
	    "large",	   "identical",	 "skewed_vs_iters",
	};
	static const char *const alts[] = {"two-sided", "less", "greater"};
	static const enum bs_alternative av[] = {BS_TWO_SIDED, BS_LESS, BS_GREATER};
	struct fixture f;

	if (fix_load(&f, "mwu.txt")) {
		FAILF("fixture mwu.txt missing or malformed");
		return;
	}
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char k[96];
		size_t n1, n2;
		const double *x, *y;

		x = fix_getf(&f, &n1, "%s.x", cases[c]);
		y = fix_getf(&f, &n2, "%s.y", cases[c]);
		CHECK(x && y);
		if (!x || !y)
			continue;
		for (int a = 0; a < 3; a++) {
			struct bs_mwu r;
			const double *ref;

			snprintf(k, sizeof(k), "%s.%s", cases[c], alts[a]);
			ref = fix_get(&f, k, NULL);
			CHECK(ref != NULL);
			if (!ref)
				continue;
			CHECK_INT_EQ(bs_mannwhitneyu(x, n1, y, n2, av[a], &r), BS_OK);
			if (r.u1 != ref[0])
				FAILF("%s: U1 %.17g vs SciPy %.17g", k, r.u1, ref[0]);
			CHECK(r.u1 + r.u2 == (double)n1 * n2);
			CHECK_INT_EQ(r.exact, !strncmp(cases[c], "exact", 5));
			if (fabs(r.p - ref[1]) > (r.exact ? 1e-12 : 1e-9) * ref[1] + 1e-300)
				FAILF("%s: p %.17g vs SciPy %.17g", k, r.p, ref[1]);
		}
	}
	fix_free(&f);
}

/* Textbook example (Shier 2004, in SciPy's docs): U = 17, p = 1/9 */
static void test_hand(void)
{
	double m[] = {19, 22, 16, 29, 24}, w[] = {20, 11, 17, 12};
	struct bs_mwu r;
	double p;

	CHECK_INT_EQ(bs_mannwhitneyu(m, 5, w, 4, BS_TWO_SIDED, &r), BS_OK);
	CHECK_NEAR(r.u1, 17, 0, 0);
	CHECK_NEAR(r.p, 1.0 / 9, 0, 1e-15);
	CHECK_INT_EQ(bs_mannwhitneyu(w, 4, m, 5, BS_LESS, &r), BS_OK);
	CHECK_NEAR(r.p, 1.0 / 18, 0, 1e-15);
	/* exact distribution: P(U >= 0) = 1, P(U >= mn) = 1/C(m+n, m) */
	CHECK_INT_EQ(bs_mwu_exact_sf(3, 4, 0, &p), BS_OK);
	CHECK_NEAR(p, 1, 0, 0);
	CHECK_INT_EQ(bs_mwu_exact_sf(3, 4, 12, &p), BS_OK);
	CHECK_NEAR(p, 1.0 / 35, 0, 1e-15);
	CHECK_INT_EQ(bs_mwu_exact_sf(3, 4, 13, &p), BS_OK);
	CHECK_NEAR(p, 0, 0, 0);
	/* symmetry P(U >= k) = P(U <= mn - k) = 1 - P(U >= mn - k + 1) */
	double a, b;

	bs_mwu_exact_sf(8, 50, 123, &a);
	bs_mwu_exact_sf(8, 50, 400 - 123 + 1, &b);
	CHECK_NEAR(a, 1 - b, 1e-15, 0);
	/* beyond 128-bit counts (C(8 + 100000, 8) ~ 2.5e35 fits; 8 vs 3e5
	 * does not): the long double path agrees with the normal limit */
	CHECK_INT_EQ(bs_mwu_exact_sf(8, 300000, 1200000, &a), BS_OK);
	CHECK_NEAR(a, 0.5, 0.01, 0);
}

static void test_bad_input(void)
{
	double x[] = {1, 2, 3}, t[] = {4, 4, 4}, nx[] = {1, NAN};
	struct bs_mwu r;

	CHECK_INT_EQ(bs_mannwhitneyu(x, 0, x, 3, BS_TWO_SIDED, &r), BS_EEMPTY);
	CHECK_INT_EQ(bs_mannwhitneyu(x, 3, x, 0, BS_TWO_SIDED, &r), BS_EEMPTY);
	CHECK_INT_EQ(bs_mannwhitneyu(nx, 2, x, 3, BS_TWO_SIDED, &r), BS_ENONFINITE);
	CHECK_INT_EQ(bs_mannwhitneyu(t, 3, t, 3, BS_TWO_SIDED, &r), BS_ETIED);
	CHECK_INT_EQ(bs_mannwhitneyu(x, 3, t, 3, 9, &r), BS_EINVAL);
	CHECK_INT_EQ(bs_mannwhitneyu(x, 3, t, 3, BS_TWO_SIDED, NULL), BS_EINVAL);
	CHECK_INT_EQ(bs_mwu_exact_sf(0, 3, 1, &r.p), BS_EINVAL);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_vs_scipy);
	RUN_TEST(test_hand);
	RUN_TEST(test_bad_input);
	return test_summary("stats-mwu");
}
