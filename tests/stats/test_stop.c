// SPDX-License-Identifier: MIT
/* test_stop.c - CV / RCIW / KLD stoppage criteria (Laaber et al. 2020 §4.2):
 * warmup and fork vectors vs the Python reimplementation, incremental ==
 * batch, hand-built series with a known stopping point, bad input. */
#include "test.h"

#include <benchscope/stats.h>

#include "fixtures.h"

static size_t inv20[60], forks_ni[5] = {10, 10, 10, 10, 10}, forks_nv[50];

static void test_warmup_vs_reference(void)
{
	static const size_t uptos[] = {6, 7, 12, 30, 60};
	struct fixture f;
	size_t n_it, n_inv;

	if (fix_load(&f, "stop.txt")) {
		FAILF("fixture stop.txt missing or malformed");
		return;
	}
	const double *it = fix_get(&f, "iters", &n_it);
	const double *inv = fix_get(&f, "inv", &n_inv);

	CHECK(it && inv && n_inv == 1200);
	if (!it || !inv)
		goto out;
	size_t n1 = n_it;
	struct bs_hier hs = {it, 1, &n1, NULL};
	size_t n60 = 60;
	struct bs_hier hi = {inv, 1, &n60, inv20};

	for (int c = 0; c < 2; c++) {
		struct bs_stop_cfg cfg = {.crit = c ? BS_CRIT_KLD : BS_CRIT_CV};

		for (size_t u = 0; u < 5; u++) {
			for (int w = 0; w < 2; w++) {
				char k[64];
				double v[5];
				size_t nr;

				snprintf(k, sizeof(k), "warm.%s.%s.%zu", w ? "inv" : "single",
					 c ? "kld" : "cv", uptos[u]);
				const double *ref = fix_get(&f, k, &nr);

				CHECK(ref && nr == 5);
				if (!ref)
					continue;
				CHECK_INT_EQ(
				    bs_warmup_vector(&cfg, w ? &hi : &hs, uptos[u], NULL, v),
				    BS_OK);
				for (int e = 0; e < 5; e++)
					if (fabs(v[e] - ref[e]) > 1e-9 * fabs(ref[e]) + 1e-12)
						FAILF("%s[%d]: %.17g vs %.17g", k, e, v[e], ref[e]);
			}
		}
	}
	/* RCIW: Monte-Carlo tolerance, 5 sd of the Python spread over K
	 * seeds, scaled by sqrt(1 + 1/K) */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct bs_stop_cfg cfg = {.crit = BS_CRIT_RCIW};
	const double *K = fix_get(&f, "rciw_seeds", NULL);

	gsl_rng_set(rng, 11);
	for (size_t u = 12; K && u <= 40; u += 28) {
		double v[5];

		const double *m = fix_getf(&f, NULL, "warm.inv.rciw.%zu.mean", u);

		const double *sd = fix_getf(&f, NULL, "warm.inv.rciw.%zu.sd", u);

		CHECK(m && sd);
		if (!m || !sd)
			continue;
		CHECK_INT_EQ(bs_warmup_vector(&cfg, &hi, u, rng, v), BS_OK);
		for (int e = 0; e < 5; e++) {
			double tol = 5 * sd[e] * sqrt(1 + 1 / K[0]);

			if (fabs(v[e] - m[e]) > tol)
				FAILF("rciw warmup %zu[%d]: %g vs %g +- %g", u, e, v[e], m[e], tol);
		}
	}
	gsl_rng_free(rng);
out:
	fix_free(&f);
}

static void test_fork_vs_reference(void)
{
	struct fixture f;
	size_t n;

	if (fix_load(&f, "stop.txt")) {
		FAILF("fixture stop.txt missing or malformed");
		return;
	}
	const double *x = fix_get(&f, "forks", &n);
	const double *rcv = fix_get(&f, "fork.cv", NULL);
	const double *rkl = fix_get(&f, "fork.kld", NULL);
	const double *rm = fix_get(&f, "fork.rciw.mean", NULL);
	const double *rs = fix_get(&f, "fork.rciw.sd", NULL);
	const double *K = fix_get(&f, "fork_rciw_seeds", NULL);

	CHECK(x && n == 1500 && rcv && rkl && rm && rs && K);
	if (!x || !rcv || !rkl || !rm || !rs || !K)
		goto out;
	struct bs_hier h = {x, 5, forks_ni, forks_nv};
	double v[5];
	size_t nv;
	struct bs_stop_cfg cv = {.crit = BS_CRIT_CV}, kl = {.crit = BS_CRIT_KLD},
			   rc = {.crit = BS_CRIT_RCIW};

	CHECK_INT_EQ(bs_fork_vector(&cv, &h, NULL, v, &nv), BS_OK);
	CHECK_INT_EQ(nv, 5);
	for (int i = 0; i < 5; i++)
		CHECK_NEAR(v[i], rcv[i], 0, 1e-10);
	CHECK_INT_EQ(bs_fork_vector(&kl, &h, NULL, v, &nv), BS_OK);
	CHECK_INT_EQ(nv, 4);
	for (int i = 0; i < 4; i++)
		CHECK_NEAR(v[i], rkl[i], 1e-9, 0);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, 5);
	CHECK_INT_EQ(bs_fork_vector(&rc, &h, rng, v, &nv), BS_OK);
	for (int i = 0; i < 5; i++) {
		double tol = 5 * rs[i] * sqrt(1 + 1 / K[0]);

		if (fabs(v[i] - rm[i]) > tol)
			FAILF("rciw fork[%d]: %g vs %g +- %g", i, v[i], rm[i], tol);
	}
	/* incremental object: the same vectors, fork by fork */
	for (int c = 0; c < 3; c++) {
		struct bs_stop_cfg cfg = {.crit = c == 0   ? BS_CRIT_CV
						  : c == 1 ? BS_CRIT_KLD
							   : BS_CRIT_RCIW,
					  .seed = 9};
		int err, stable;
		struct bs_stopper *st = bs_stopper_new(&cfg, &err);
		double vec[5];
		size_t nvec;

		CHECK(st != NULL);
		if (!st)
			continue;
		for (int fk = 0; fk < 5; fk++) {
			CHECK_INT_EQ(bs_stopper_fork_add(st, x + 300 * fk, 10, forks_nv, &stable,
							 vec, &nvec),
				     BS_OK);
		}
		if (c == 0) {
			CHECK_INT_EQ(nvec, 5);
			for (int i = 0; i < 5; i++)
				CHECK_NEAR(vec[i], rcv[i], 0, 1e-10);
		} else if (c == 1) {
			CHECK_INT_EQ(nvec, 4);
			for (int i = 0; i < 4; i++)
				CHECK_NEAR(vec[i], rkl[i], 1e-9, 0);
		} else {
			CHECK_INT_EQ(nvec, 5);
			for (int i = 0; i < 5; i++)
				CHECK(fabs(vec[i] - rm[i]) <= 5 * rs[i] * sqrt(1 + 1 / K[0]));
		}
		bs_stopper_free(st);
	}
	gsl_rng_free(rng);
out:
	fix_free(&f);
}

/*
 * Hand-built series: iterations 1..k are unsettled (a decaying warmup,
 * 2x to several x slower), the rest are settled: every settled iteration
 * holds the same 20 invocation values (1 % spread), so the criteria see
 * one unchanging distribution. The warmup window of iteration i'' spans
 * i'' - 5 .. i'', so the first window free of iteration k ends at
 * i'' = k + 6: every criterion must say "stable" exactly there and never
 * before.
 */
static void settle(int i, int k, double *inv)
{
	for (int j = 0; j < 20; j++) {
		double v = 1e6 * (1 + 0.01 * ((j * 7) % 20 - 9.5) / 5.77);

		inv[j] = i <= k ? v * (2.0 + (k - i) * 0.5) : v;
	}
}

static void test_settles_at_k_plus_window(void)
{
	static const enum bs_criterion crits[] = {BS_CRIT_CV, BS_CRIT_RCIW, BS_CRIT_KLD};

	for (int c = 0; c < 3; c++) {
		for (int k = 1; k <= 12; k += 11) {
			struct bs_stop_cfg cfg = {
			    .crit = crits[c], .seed = 3, .rciw_resamples = 300};
			int err, stable = 0, first = -1;
			struct bs_stopper *st = bs_stopper_new(&cfg, &err);
			double inv[20], vec[5];

			CHECK(st != NULL);
			if (!st)
				continue;
			for (int i = 1; i <= k + 20; i++) {
				size_t nvec;

				settle(i, k, inv);
				CHECK_INT_EQ(
				    bs_stopper_warmup_add(st, inv, 20, &stable, vec, &nvec), BS_OK);
				CHECK_INT_EQ(nvec, i >= 6 ? 5 : 0);
				if (stable && first < 0)
					first = i;
			}
			if (first != k + 6)
				FAILF("criterion %d, k = %d: stable first at %d, "
				      "expected %d",
				      crits[c], k, first, k + 6);
			CHECK(stable);
			/* a new fork forgets the window */
			bs_stopper_next_fork(st);
			size_t nvec;

			CHECK_INT_EQ(bs_stopper_warmup_add(st, inv, 20, &stable, NULL, &nvec),
				     BS_OK);
			CHECK(!stable && nvec == 0);
			bs_stopper_free(st);
		}
	}
}

/* incremental warmup == batch warmup vector on the real-looking series */
static void test_incremental_equals_batch(void)
{
	struct fixture f;
	size_t n;

	if (fix_load(&f, "stop.txt")) {
		FAILF("fixture stop.txt missing or malformed");
		return;
	}
	const double *inv = fix_get(&f, "inv", &n);

	CHECK(inv != NULL);
	if (!inv)
		goto out;
	size_t n60 = 60;
	struct bs_hier h = {inv, 1, &n60, inv20};

	for (int c = 0; c < 2; c++) {
		struct bs_stop_cfg cfg = {.crit = c ? BS_CRIT_KLD : BS_CRIT_CV};
		int err, stable, bstable;
		struct bs_stopper *st = bs_stopper_new(&cfg, &err);

		CHECK(st != NULL);
		if (!st)
			continue;
		for (size_t i = 1; i <= 60; i++) {
			double v[5], b[5];
			size_t nv;

			CHECK_INT_EQ(
			    bs_stopper_warmup_add(st, inv + 20 * (i - 1), 20, &stable, v, &nv),
			    BS_OK);
			if (i < 6)
				continue;
			CHECK_INT_EQ(bs_warmup_vector(&cfg, &h, i, NULL, b), BS_OK);
			for (int e = 0; e < 5; e++)
				CHECK(v[e] == b[e]);
			bs_stop_stable(&cfg, b, 5, &bstable);
			CHECK_INT_EQ(stable, bstable);
		}
		bs_stopper_free(st);
	}
out:
	fix_free(&f);
}

static void test_stable_functions(void)
{
	double v[] = {0.02, 0.025, 0.029}, p[] = {0.995, 0.99, 0.989};
	int s;

	CHECK_INT_EQ(bs_stable_var(v, 3, 0.01, &s), BS_OK);
	CHECK(s);
	CHECK_INT_EQ(bs_stable_var(v, 3, 0.008, &s), BS_OK);
	CHECK(!s);
	CHECK_INT_EQ(bs_stable_prob(p, 3, 0.99, &s), BS_OK);
	CHECK(s); /* mean 0.99133 > 0.99 */
	CHECK_INT_EQ(bs_stable_prob(p + 1, 2, 0.99, &s), BS_OK);
	CHECK(!s);
	/* strict ">" for prob, "<=" for var, at the boundary */
	double eq[] = {0.5, 0.5}, bd[] = {0.0, 0.25};

	bs_stable_prob(eq, 2, 0.5, &s);
	CHECK(!s);
	bs_stable_var(bd, 2, 0.25, &s);
	CHECK(s);
	/* one value has no range: never stable, whatever t */
	s = 1;
	CHECK_INT_EQ(bs_stable_var(v, 1, 0.5, &s), BS_OK);
	CHECK(!s);
}

/*
 * One measurement iteration per fork (run --stop cv|rciw --measure 1): fork 1
 * holds one value, which has no CV or CI (BS_ETOOFEW, no vector element);
 * after fork 2 the vector holds one value and is not stable however small;
 * after fork 3 its two values are compared.
 */
static void test_one_value_fork_vector(void)
{
	static const enum bs_criterion crits[] = {BS_CRIT_CV, BS_CRIT_RCIW};
	double x[] = {1000, 1000.5, 1000.2};

	for (size_t c = 0; c < 2; c++) {
		struct bs_stop_cfg cfg = {.crit = crits[c], .seed = 3};
		struct bs_hier one = {x, 1, (size_t[]){1}, NULL};
		struct bs_stopper *st;
		double vec[3], value;
		size_t nvec = 9;
		int err, stable = 1;
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

		CHECK_INT_EQ(bs_stop_criterion(&cfg, &one, rng, &value), BS_ETOOFEW);
		gsl_rng_free(rng);
		st = bs_stopper_new(&cfg, &err);
		CHECK(st != NULL);
		if (!st)
			continue;
		CHECK_INT_EQ(bs_stopper_fork_add(st, x, 1, NULL, &stable, vec, &nvec), BS_ETOOFEW);
		CHECK(!stable);
		stable = 1;
		CHECK_INT_EQ(bs_stopper_fork_add(st, x + 1, 1, NULL, &stable, vec, &nvec), BS_OK);
		CHECK_INT_EQ(nvec, 1);
		if (!(vec[0] <= 0.03))
			FAILF("%d: criterion after 2 forks %g, not within the threshold", crits[c],
			      vec[0]);
		if (stable)
			FAILF("%d: a fork vector of one value was called stable", crits[c]);
		CHECK_INT_EQ(bs_stopper_fork_add(st, x + 2, 1, NULL, &stable, vec, &nvec), BS_OK);
		CHECK_INT_EQ(nvec, 2);
		bs_stopper_free(st);
	}
}

static void test_bad_input(void)
{
	struct bs_stop_cfg cfg = {.crit = BS_CRIT_CV}, bad = {.crit = 42};
	double x[] = {1, 2, 3, 4, 5, 6, 7}, neg[] = {1, -1}, v[5];
	size_t n7 = 7, n5 = 5;
	struct bs_hier h = {x, 1, &n7, NULL};
	int err, s;
	struct bs_stopper *st;

	CHECK_INT_EQ(bs_warmup_vector(&cfg, &h, 5, NULL, v), BS_ETOOFEW);
	CHECK_INT_EQ(bs_warmup_vector(&cfg, &h, 8, NULL, v), BS_EINVAL);
	CHECK_INT_EQ(bs_warmup_vector(&bad, &h, 7, NULL, v), BS_EINVAL);
	cfg.crit = BS_CRIT_RCIW;
	CHECK_INT_EQ(bs_warmup_vector(&cfg, &h, 7, NULL, v), BS_EINVAL);
	cfg.crit = BS_CRIT_CV;
	h.n_iters = &n5;
	CHECK_INT_EQ(bs_warmup_vector(&cfg, &h, 5, NULL, v), BS_ETOOFEW);
	CHECK(bs_stopper_new(&bad, &err) == NULL);
	CHECK_INT_EQ(err, BS_EINVAL);
	st = bs_stopper_new(&cfg, &err);
	CHECK(st != NULL);
	if (!st)
		return;
	CHECK_INT_EQ(bs_stopper_warmup_add(st, neg, 2, &s, NULL, NULL), BS_ENEGATIVE);
	CHECK_INT_EQ(bs_stopper_warmup_add(st, x, 0, &s, NULL, NULL), BS_EEMPTY);
	double nx[] = {NAN};

	CHECK_INT_EQ(bs_stopper_warmup_add(st, nx, 1, &s, NULL, NULL), BS_ENONFINITE);
	CHECK_INT_EQ(bs_stopper_fork_add(st, x, 0, NULL, &s, NULL, NULL), BS_EEMPTY);
	CHECK_INT_EQ(bs_stopper_fork_add(st, neg, 2, NULL, &s, NULL, NULL), BS_ENEGATIVE);
	CHECK_INT_EQ(bs_stable_var(v, 0, 0.01, &s), BS_EEMPTY);
	bs_stopper_free(st);
	bs_stopper_free(NULL);
}

int main(void)
{
	bs_stats_init();
	for (int i = 0; i < 60; i++)
		inv20[i] = 20;
	for (int i = 0; i < 50; i++)
		forks_nv[i] = 30;
	RUN_TEST(test_warmup_vs_reference);
	RUN_TEST(test_fork_vs_reference);
	RUN_TEST(test_settles_at_k_plus_window);
	RUN_TEST(test_incremental_equals_batch);
	RUN_TEST(test_stable_functions);
	RUN_TEST(test_one_value_fork_vector);
	RUN_TEST(test_bad_input);
	return test_summary("stats-stop");
}
