// SPDX-License-Identifier: MIT
/*
 * test_compare.c - stats_compare.h against SciPy/NumPy (tests/fixtures/stats/cmp.txt,
 * tests/ref/gen_stats_fixtures.py) and by construction.
 */
#include "test.h"

#include <math.h>

#include <gsl/gsl_rng.h>

#include <benchscope/stats.h>

#include "fixtures.h"

/* geometric mean of fixed replicate matrices: scipy.stats.gmean per column,
 * numpy.percentile 2.5 / 97.5 */
static void test_gmean_vs_scipy(void)
{
	static const char *const cases[] = {"g3", "g1", "g12"};
	struct fixture f;

	if (fix_load(&f, "cmp.txt")) {
		FAILF("fixture cmp.txt missing or malformed");
		return;
	}
	for (size_t c = 0; c < 3; c++) {
		char k[96];
		size_t np_, nr;
		const double *pts, *rep, *ref;
		struct bs_ci ci;

		snprintf(k, sizeof(k), "gmean.%s.points", cases[c]);
		pts = fix_get(&f, k, &np_);
		snprintf(k, sizeof(k), "gmean.%s.rep", cases[c]);
		rep = fix_get(&f, k, &nr);
		snprintf(k, sizeof(k), "gmean.%s.ci", cases[c]);
		ref = fix_get(&f, k, NULL);
		CHECK(pts && rep && ref);
		if (!pts || !rep || !ref)
			continue;
		CHECK_INT_EQ(bs_geomean_ci_from_replicates(rep, np_, nr / np_, pts, 0.95, &ci),
			     BS_OK);
		CHECK_NEAR(ci.point, ref[0], 0, 1e-12);
		CHECK_NEAR(ci.lo, ref[1], 0, 1e-12);
		CHECK_NEAR(ci.hi, ref[2], 0, 1e-12);
		CHECK(ci.n_resamples == nr / np_);
	}
	fix_free(&f);
}

/* the MDS grid search: the same search done with scipy.stats.mannwhitneyu */
static void test_mds_vs_scipy(void)
{
	static const char *const cases[] = {"iters_30", "runs_5_5", "runs_3_3", "noisy_12"};
	struct fixture f;

	if (fix_load(&f, "cmp.txt")) {
		FAILF("fixture cmp.txt missing or malformed");
		return;
	}
	for (size_t c = 0; c < 4; c++) {
		char k[96];
		size_t na, nb;
		const double *a, *b, *ci, *ref;
		struct bs_ci r = {0};
		struct bs_shift_mds m;

		snprintf(k, sizeof(k), "mds.%s.a", cases[c]);
		a = fix_get(&f, k, &na);
		snprintf(k, sizeof(k), "mds.%s.b", cases[c]);
		b = fix_get(&f, k, &nb);
		snprintf(k, sizeof(k), "mds.%s.ci", cases[c]);
		ci = fix_get(&f, k, NULL);
		snprintf(k, sizeof(k), "mds.%s.ref", cases[c]);
		ref = fix_get(&f, k, NULL);
		CHECK(a && b && ci && ref);
		if (!a || !b || !ci || !ref)
			continue;
		r.point = ci[0];
		r.lo = ci[1];
		r.hi = 2 * ci[0] - ci[1];
		CHECK_INT_EQ(bs_shift_mds(a, na, b, nb, &r, 0.05, 0.001, 1.0, &m), BS_OK);
		if (!(m.mds == ref[0] || (isnan(m.mds) && isnan(ref[0]))))
			FAILF("%s: mds %.17g vs %.17g", cases[c], m.mds, ref[0]);
		CHECK(m.mds_ci == ref[1]);
		if (!(m.mds_u == ref[2] || (isnan(m.mds_u) && isnan(ref[2]))))
			FAILF("%s: mds_u %.17g vs %.17g", cases[c], m.mds_u, ref[2]);
		CHECK_NEAR(m.p_min, ref[3], 0, 1e-9);
	}
	fix_free(&f);
}

/* Truth by construction: constant samples are told apart at the first
 * step (never 0); with 2 values a side the U test can never reach 0.05. */
static void test_mds_construction(void)
{
	double a[6] = {10, 10, 10, 10, 10, 10}, b[6] = {10, 10, 10, 10, 10, 10};
	struct bs_ci r = {.point = 1, .lo = 1 - 1e-12, .hi = 1 + 1e-12, .level = 0.95};
	struct bs_shift_mds m;

	CHECK_INT_EQ(bs_shift_mds(a, 6, b, 6, &r, 0, 0, 0, &m), BS_OK);
	CHECK_NEAR(m.mds, 0.001, 1e-15, 0);
	CHECK(m.mds > 0);
	CHECK_NEAR(m.p_min, 2.0 / 924, 1e-15, 1e-12); /* exact: 2 / C(12, 6) */
	CHECK_INT_EQ(bs_shift_mds(a, 2, b, 2, &r, 0.05, 0.01, 0.5, &m), BS_OK);
	CHECK(isnan(m.mds) && isnan(m.mds_u));
	CHECK_NEAR(m.mds_ci, 0.01, 1e-15, 0);
	CHECK_NEAR(m.p_min, 2.0 / 6, 1e-15, 1e-12);
	r.lo = 0;
	CHECK_INT_EQ(bs_shift_mds(a, 6, b, 6, &r, 0, 0, 0, &m), BS_EINVAL);
	CHECK_INT_EQ(bs_shift_mds(a, 0, b, 6, &(struct bs_ci){.point = 1, .lo = 0.9}, 0, 0, 0, &m),
		     BS_EEMPTY);
}

/* bs_ci_mds by hand: B at A's level needs (1 + s) 0.99 / 1.02 > 1, so
 * s > 1.02 / 0.99 - 1 = 0.030303...: 0.031 on the 0.1 % grid, 0.04 on a
 * 1 % grid; a CI already at 1 still needs one step; none within max_s or
 * bad arguments give NAN */
static void test_ci_mds(void)
{
	struct bs_ci r = {.point = 1.02, .lo = 0.99, .hi = 1.05, .level = 0.95};

	CHECK_NEAR(bs_ci_mds(&r, 0, 0), 0.031, 1e-12, 0);
	CHECK_NEAR(bs_ci_mds(&r, 0.01, 0.5), 0.04, 1e-12, 0);
	CHECK(isnan(bs_ci_mds(&r, 0.001, 0.03)));
	CHECK_NEAR(bs_ci_mds(&(struct bs_ci){.point = 1, .lo = 1}, 0, 0), 0.001, 1e-15, 0);
	CHECK(isnan(bs_ci_mds(&(struct bs_ci){.point = 1, .lo = 0}, 0, 0)));
	CHECK(isnan(bs_ci_mds(&(struct bs_ci){.point = NAN, .lo = 1}, 0, 0)));
	CHECK(isnan(bs_ci_mds(NULL, 0, 0)));
	CHECK(isnan(bs_ci_mds(&r, -1, 0)));
}

/* the replicates kept equal those of bs_hier_ratio_ci with the same seed,
 * and one benchmark's geometric mean CI is its own ratio CI */
static void test_ratio_replicates(void)
{
	double xa[12], xb[10], rep[500];
	size_t ia[] = {4, 4, 4}, ib[] = {5, 5};
	struct bs_hier a = {xa, 3, ia, NULL}, b = {xb, 2, ib, NULL};
	struct bs_ci c1, c2, g;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	for (int i = 0; i < 12; i++)
		xa[i] = 100 + (i * 37 % 11);
	for (int i = 0; i < 10; i++)
		xb[i] = 110 + (i * 53 % 13);
	gsl_rng_set(r, 7);
	CHECK_INT_EQ(bs_hier_ratio_ci(&a, &b, 0.95, 500, r, &c1), BS_OK);
	gsl_rng_set(r, 7);
	CHECK_INT_EQ(bs_hier_ratio_ci_rep(&a, &b, 0.95, 500, r, rep, &c2), BS_OK);
	CHECK(c1.lo == c2.lo && c1.hi == c2.hi && c1.point == c2.point);
	CHECK_INT_EQ(bs_geomean_ci_from_replicates(rep, 1, 500, &c2.point, 0.95, &g), BS_OK);
	CHECK_NEAR(g.lo, c2.lo, 0, 1e-12);
	CHECK_NEAR(g.hi, c2.hi, 0, 1e-12);
	CHECK_NEAR(g.point, c2.point, 0, 1e-15);
	rep[3] = 0;
	CHECK_INT_EQ(bs_geomean_ci_from_replicates(rep, 1, 500, &c2.point, 0.95, &g),
		     BS_ENONFINITE);
	CHECK_INT_EQ(bs_geomean_ci_from_replicates(rep, 0, 500, &c2.point, 0.95, &g), BS_EEMPTY);
	gsl_rng_free(r);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_gmean_vs_scipy);
	RUN_TEST(test_mds_vs_scipy);
	RUN_TEST(test_mds_construction);
	RUN_TEST(test_ci_mds);
	RUN_TEST(test_ratio_replicates);
	return test_summary("stats-compare");
}
