// SPDX-License-Identifier: MIT
/* test_hierk.c - k-level hierarchical bootstrap (stats/hierk.c) vs an exact
 * NumPy reference, against ground truth (fleets with a known machine-level
 * spread), and bad input. */
#include "test.h"

#include <math.h>

#include <benchscope/stats.h>

#include "fixtures.h"

/*
 * vs tests/ref/gen_stats_fixtures.py's hierk_boot (exact resampling, K
 * seeds): each endpoint within 5 Monte-Carlo sd of NumPy's mean endpoint,
 * as test_boot's test_vs_scipy; both with every leaf resampled exactly and
 * with the normal approximation for leaf groups of more than 16 values.
 */
static void test_vs_numpy(void)
{
	static const char *const cases[] = {"mean", "ratio"};
	struct fixture f;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const double *par;

	if (fix_load(&f, "hierk.txt")) {
		FAILF("fixture hierk.txt missing or malformed");
		gsl_rng_free(rng);
		return;
	}
	par = fix_get(&f, "params", NULL);
	CHECK(par != NULL);
	gsl_rng_set(rng, 7);
	for (size_t c = 0; par && c < 2; c++) {
		size_t n0, n1, nx, ny = 0, nyc = 0;
		const double *c0, *c1, *x, *y = NULL, *yc = NULL, *ref;

		c0 = fix_getf(&f, &n0, "%s.c0", cases[c]);
		c1 = fix_getf(&f, &n1, "%s.c1", cases[c]);
		x = fix_getf(&f, &nx, "%s.x", cases[c]);
		ref = fix_getf(&f, NULL, "%s.ci", cases[c]);
		if (c == 1) {
			y = fix_get(&f, "ratio.y", &ny);
			yc = fix_get(&f, "ratio.yc", &nyc);
			CHECK(y && yc && nyc == n1);
		}
		CHECK(c0 && c1 && x && ref);
		if (!c0 || !c1 || !x || !ref)
			continue;
		size_t cnt0[64], cnt1[512], ycnt[512];
		CHECK(n0 <= 64 && n1 <= 512);
		for (size_t i = 0; i < n0; i++)
			cnt0[i] = (size_t)c0[i];
		for (size_t i = 0; i < n1; i++) {
			cnt1[i] = (size_t)c1[i];
			ycnt[i] = yc ? (size_t)yc[i] : 0;
		}
		const size_t *const ch[2] = {cnt0, cnt1};
		struct bs_hierk h = {.depth = 2,
				     .n_top = n0,
				     .n_child = ch,
				     .x = x,
				     .y = y,
				     .y_child = y ? ycnt : NULL};

		CHECK_INT_EQ((long)bs_hierk_count(&h), (long)nx);
		for (int approx = 0; approx < 2; approx++) {
			struct bs_hierk_opts o = {par[2], (size_t)par[1], approx ? 16 : 0};
			struct bs_ci ci;
			double tl = 5 * ref[2] * sqrt(1 + 1 / par[0]);
			double th = 5 * ref[4] * sqrt(1 + 1 / par[0]);

			CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_OK);
			CHECK_NEAR(ci.point, ref[0], 0, 1e-12);
			if (fabs(ci.lo - ref[1]) > tl || fabs(ci.hi - ref[3]) > th)
				FAILF("%s (%s): [%g, %g] vs NumPy [%g, %g] tol %g %g", cases[c],
				      approx ? "normal leaves" : "exact", ci.lo, ci.hi, ref[1],
				      ref[3], tl, th);
		}
	}
	gsl_rng_free(rng);
	fix_free(&f);
}

static double normal(gsl_rng *r)
{
	double u1 = gsl_rng_uniform_pos(r), u2 = gsl_rng_uniform(r);

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/*
 * Ground truth: fleets of 20 machines whose machine factor has a known
 * spread (log sd 0.05, far above the runs' 0.01 and the iterations' 0.02
 * divided by the iterations' count). The true mean of the population is
 * 100 exp((0.05^2 + 0.01^2 + 0.02^2) / 2); the 95 % interval with machines
 * as units must cover it in about 95 % of 300 fleets (percentile intervals
 * of 20 units cover a bit less: [0.88, 0.99] accepted, a binomial 300-draw
 * spread of 1.3 % around 0.93-0.95); the interval that ignores machines
 * (every run a unit, depth 1) must cover it far less often (about 0.67 = P(|Z| < 1.96 / 2), since
 * 80 runs pretend to be independent where 20 machines are; < 0.8 accepted).
 */
static void test_ground_truth(void)
{
	enum { M = 20, R = 4, I = 50, FLEETS = 300 };
	static double x[M * R * I];
	size_t c0[M], c1[M * R], c_runs[M * R];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double truth = 100 * exp((0.05 * 0.05 + 0.01 * 0.01 + 0.02 * 0.02) / 2);
	int cover = 0, cover_flat = 0;

	gsl_rng_set(rng, 11);
	for (size_t m = 0; m < M; m++)
		c0[m] = R;
	for (size_t r = 0; r < M * R; r++)
		c1[r] = c_runs[r] = I;
	for (int f = 0; f < FLEETS; f++) {
		size_t v = 0;

		for (int m = 0; m < M; m++) {
			double fm = exp(0.05 * normal(rng));

			for (int r = 0; r < R; r++) {
				double fr = exp(0.01 * normal(rng));

				for (int i = 0; i < I; i++)
					x[v++] = 100 * fm * fr * exp(0.02 * normal(rng));
			}
		}
		const size_t *const ch[2] = {c0, c1};
		const size_t *const flat[1] = {c_runs};
		struct bs_hierk h = {.depth = 2, .n_top = M, .n_child = ch, .x = x};
		struct bs_hierk hf = {.depth = 1, .n_top = M * R, .n_child = flat, .x = x};
		struct bs_hierk_opts o = {0.95, 500, 16};
		struct bs_ci ci, cf;

		CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_OK);
		CHECK_INT_EQ(bs_hierk_ci(&hf, &o, rng, &cf), BS_OK);
		cover += ci.lo <= truth && truth <= ci.hi;
		cover_flat += cf.lo <= truth && truth <= cf.hi;
	}
	printf("  coverage: machines as units %.3f, runs as units %.3f\n", (double)cover / FLEETS,
	       (double)cover_flat / FLEETS);
	CHECK(cover >= 0.88 * FLEETS && cover <= 0.99 * FLEETS);
	CHECK(cover_flat < 0.8 * FLEETS);
	gsl_rng_free(rng);
}

static void test_bad_input(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double x[3] = {1, 2, NAN};
	size_t c0[1] = {2}, c1[2] = {1, 0}, c1ok[2] = {1, 2};
	const size_t *const ch[2] = {c0, c1}, *const chok[2] = {c0, c1ok};
	struct bs_hierk h = {.depth = 2, .n_top = 1, .n_child = ch, .x = x};
	struct bs_hierk_opts o = {0.95, 100, 0};
	struct bs_ci ci;

	CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_EINVAL); /* a zero count */
	h.n_child = chok;
	CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_ENONFINITE);
	x[2] = 3;
	CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_OK);
	CHECK_NEAR(ci.point, 2, 0, 1e-12);
	h.depth = 0;
	CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_EINVAL);
	h.depth = 2;
	h.n_top = 0;
	CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_EEMPTY);
	h.n_top = 1;
	o.n_resamples = 1;
	CHECK_INT_EQ(bs_hierk_ci(&h, &o, rng, &ci), BS_EINVAL);
	gsl_rng_free(rng);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_vs_numpy);
	RUN_TEST(test_ground_truth);
	RUN_TEST(test_bad_input);
	return test_summary("test_hierk");
}
