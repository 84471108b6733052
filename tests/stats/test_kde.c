// SPDX-License-Identifier: MIT
/* test_kde.c - Silverman bandwidth, Gaussian KDE on a grid, KLD similarity
 * probability vs the independent NumPy reimplementation (Laaber et al. 2020 §4). */
#include "test.h"

#include <benchscope/stats.h>

#include "fixtures.h"

static void test_bandwidth_and_density(void)
{
	static const char *const ds[] = {"small", "large", "tied", "skewed", "bimodal", "iters"};
	struct fixture f, d;
	size_t n, nd;

	if (fix_load(&f, "kld.txt")) {
		FAILF("fixture kld.txt missing or malformed");
		return;
	}
	if (fix_load(&d, "desc.txt")) {
		FAILF("fixture desc.txt missing or malformed");
		fix_free(&f);
		return;
	}
	for (int i = 0; i < 6; i++) {
		double h;

		const double *ref = fix_getf(&f, NULL, "bw.%s", ds[i]);
		const double *x = fix_get(&d, ds[i], &n);

		CHECK(ref && x);
		if (!ref || !x)
			continue;
		CHECK_INT_EQ(bs_silverman_bandwidth(x, n, &h), BS_OK);
		CHECK_NEAR(h, ref[0], 0, 1e-12);
	}
	const double *x = fix_get(&f, "kde.data", &n);
	const double *p = fix_get(&f, "kde.params", NULL);
	const double *ref = fix_get(&f, "kde.density", &nd);

	CHECK(x && p && ref);
	if (x && p && ref) {
		double dens[512];

		CHECK_INT_EQ(nd, (size_t)p[3]);
		CHECK_INT_EQ(bs_kde_grid(x, n, p[0], p[1], p[2], nd, dens), BS_OK);
		/* the recurrence accumulates ~1e-13 relative error per
		 * 1000 steps; densities spanning 1e-3..1e-7 here */
		for (size_t i = 0; i < nd; i++)
			CHECK_NEAR(dens[i], ref[i], 1e-300, 1e-10);
	}
	fix_free(&f);
	fix_free(&d);
}

/* KLD probability vs the NumPy reimplementation with direct exp() (and
 * via it SciPy's gaussian_kde), same data: rounding-level agreement. */
static void test_kld_vs_reference(void)
{
	static const char *const cases[] = {"same", "shifted",	  "bimodal_half", "skewed",
					    "tied", "one_vs_two", "point",	  "bench_2x500"};
	struct fixture f;

	if (fix_load(&f, "kld.txt")) {
		FAILF("fixture kld.txt missing or malformed");
		return;
	}
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n1, n2;
		struct bs_kld r;

		const double *a = fix_getf(&f, &n1, "kld.%s.d1", cases[c]);

		const double *b = fix_getf(&f, &n2, "kld.%s.d2", cases[c]);

		const double *p = fix_getf(&f, NULL, "kld.%s.p", cases[c]);

		CHECK(a && b && p);
		if (!a || !b || !p)
			continue;
		CHECK_INT_EQ(bs_kld_prob(a, n1, b, n2, 0, &r), BS_OK);
		if (fabs(r.p - p[0]) > 1e-9)
			FAILF("%s: p %.17g vs reference %.17g", cases[c], r.p, p[0]);
		CHECK(r.p >= 0 && r.p <= 1);
	}
	fix_free(&f);
}

static void test_kld_known(void)
{
	double a[200], b[200];
	struct bs_kld r;

	/* identical samples: KL 0 both ways, p = 1 */
	for (int i = 0; i < 200; i++)
		a[i] = b[i] = 1000 + (i * 7919 % 200);
	CHECK_INT_EQ(bs_kld_prob(a, 200, b, 200, 0, &r), BS_OK);
	CHECK_NEAR(r.p, 1, 1e-15, 0);
	CHECK_NEAR(r.kl12, 0, 1e-15, 0);
	/* disjoint samples far apart: every grid point has one density
	 * underflowing to 0; p = 0 by our no-common-support rule */
	for (int i = 0; i < 200; i++)
		b[i] = a[i] + 5000;
	CHECK_INT_EQ(bs_kld_prob(a, 200, b, 200, 0, &r), BS_OK);
	CHECK(r.p == 0);
	CHECK(isinf(r.kl12) && isinf(r.kl21)); /* the rule's mark, not an underflow */
	/* a few bandwidths apart: small but positive */
	for (int i = 0; i < 200; i++)
		b[i] = a[i] + 100; /* uniform width 200, h ~ 21 */
	CHECK_INT_EQ(bs_kld_prob(a, 200, b, 200, 0, &r), BS_OK);
	CHECK(r.p > 0 && r.p < 0.05);
	/* symmetric in its arguments */
	struct bs_kld s;

	for (int i = 0; i < 200; i++)
		b[i] = a[i] * 1.01;
	bs_kld_prob(a, 200, b, 200, 0, &r);
	bs_kld_prob(b, 200, a, 200, 0, &s);
	CHECK_NEAR(r.p, s.p, 1e-12, 0);
	CHECK(r.p < 1 && r.p > 0.5);
	/* zero spread on both sides at different values */
	double c1[] = {3, 3}, c2[] = {9, 9};

	CHECK_INT_EQ(bs_kld_prob(c1, 2, c2, 2, 0, &r), BS_OK);
	CHECK_NEAR(r.p, 0, 0, 0);
}

/* direct sum with exp() as the reference of the recurrence, on data that
 * exercise the block walk, its fallback (points far apart within a block,
 * points outside the grid) and the one-point walk of the remainder */
static void test_kde_vs_direct(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	double x[203], dens[301];

	gsl_rng_set(r, 21);
	for (int trial = 0; trial < 12; trial++) {
		size_t n = 5 + gsl_rng_uniform_int(r, 199);
		double h = trial % 3 == 0 ? 0.5 : trial % 3 == 1 ? 5 : 40;

		for (size_t i = 0; i < n; i++)
			x[i] = 100 + 30 * gsl_rng_uniform(r);
		if (trial % 4 == 3) {
			/* sparse points, narrow kernel: a block's points are
			 * up to ~60 bandwidths from its start (fallback) */
			n = 17;
			h = 0.2;
			for (size_t i = 0; i < n; i++)
				x[i] = 91 + 3 * i;
		}
		/* outliers, also outside the grid */
		x[0] = 1e4;
		x[n / 2] = -300;
		x[n - 1] = 131;
		CHECK_INT_EQ(bs_kde_grid(x, n, h, 90, 140, 301, dens), BS_OK);
		for (int k = 0; k < 301; k++) {
			double t = 90 + k * 50.0 / 300, ref = 0;

			for (size_t i = 0; i < n; i++) {
				double z = (t - x[i]) / h;

				ref += exp(-0.5 * z * z);
			}
			ref /= n * h * sqrt(2 * M_PI);
			if (fabs(dens[k] - ref) > 1e-10 * ref + 1e-300) {
				FAILF("trial %d grid %d: %.17g vs %.17g", trial, k, dens[k], ref);
				break;
			}
		}
	}
	gsl_rng_free(r);
}

static void test_bad_input(void)
{
	double x[] = {1, 2, 3}, neg[] = {1, -2}, nx[] = {1, NAN}, h;
	double c[] = {4, 4, 4}, dens[4];
	struct bs_kld r;

	CHECK_INT_EQ(bs_kld_prob(x, 0, x, 3, 0, &r), BS_EEMPTY);
	CHECK_INT_EQ(bs_kld_prob(x, 3, neg, 2, 0, &r), BS_ENEGATIVE);
	CHECK_INT_EQ(bs_kld_prob(x, 3, nx, 2, 0, &r), BS_ENONFINITE);
	CHECK_INT_EQ(bs_kld_prob(x, 3, x, 3, 1, &r), BS_EINVAL);
	CHECK_INT_EQ(bs_silverman_bandwidth(c, 3, &h), BS_EZEROVAR);
	CHECK_INT_EQ(bs_silverman_bandwidth(c, 1, &h), BS_ETOOFEW);
	CHECK_INT_EQ(bs_kde_grid(x, 3, 0, 0, 1, 4, dens), BS_EINVAL);
	CHECK_INT_EQ(bs_kde_grid(x, 3, 1, 1, 1, 4, dens), BS_EINVAL);
	CHECK_INT_EQ(bs_kde_grid(x, 3, 1, 0, 1, 1, dens), BS_EINVAL);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_bandwidth_and_density);
	RUN_TEST(test_kld_vs_reference);
	RUN_TEST(test_kld_known);
	RUN_TEST(test_kde_vs_direct);
	RUN_TEST(test_bad_input);
	return test_summary("stats-kde");
}
