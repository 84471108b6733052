// SPDX-License-Identifier: MIT
/*
 * test_replay_core - replay (replay_core.h) checked against stats/ directly:
 * the stoppage points recomputed with the batch functions bs_warmup_vector /
 * bs_fork_vector / bs_stop_stable (not the incremental stopper replay uses),
 * the static and dynamic means, the change rate and the A/A interval
 * (bs_hier_ratio_ci with the same seed); time saved from the costs.
 */
#include <errno.h>

#include <gsl/gsl_rng.h>

#include "benchscope/stats.h"
#include "stop/replay_core.h"
#include "test.h"

#define NF 5
#define NI 100

static double vals[NF][NI];
static uint64_t costs[NF][NI];
static struct bs_replay_fork forks[NF];

/* Fork f: K slow iterations decaying to a steady level (fork-specific), small noise. */
static void make_forks(unsigned seed, double noise)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, seed);
	for (int f = 0; f < NF; f++) {
		double level = 1000 * (1 + 0.002 * f), t = 5e6;

		for (int i = 0; i < NI; i++) {
			double v = level * (1 + noise * (2 * gsl_rng_uniform(r) - 1));

			if (i < 8)
				v += 1500.0 * (8 - i) / 8;
			vals[f][i] = v;
			t += v * 1000; /* 1000 invocations per iteration */
			costs[f][i] = (uint64_t)t;
		}
		forks[f].v = vals[f];
		forks[f].cost_ns = costs[f];
		forks[f].n = NI;
	}
	gsl_rng_free(r);
}

/* Algorithm 1 with the batch functions of stats/ (CV and KLD: deterministic). */
static void reference(const struct bs_stop_plan *p, size_t *warm, size_t *nforks, int *fstable)
{
	struct bs_stop_cfg cfg = {.crit = (enum bs_criterion)p->crit, .window = p->window};
	double m[NF * NI], v[NI];
	size_t mit[NF], nm = 0;

	*nforks = 0;
	*fstable = 0;
	for (size_t f = 0; f < p->f_max; f++) {
		struct bs_hier h = {vals[f], 1, (size_t[]){NI}, NULL};
		size_t w = p->wi_max, nv = 0;
		int st = 0;

		for (size_t upto = p->wi_min; upto <= p->wi_max; upto++) {
			if (upto <= p->window)
				continue;
			if (bs_warmup_vector(&cfg, &h, upto, NULL, v) == BS_OK &&
			    bs_stop_stable(&cfg, v, p->window, &st) == BS_OK && st) {
				w = upto;
				break;
			}
		}
		warm[f] = w;
		memcpy(m + nm, vals[f] + w, p->mi * sizeof(double));
		nm += p->mi;
		mit[f] = p->mi;
		(*nforks)++;
		if (f + 1 >= p->f_min) {
			struct bs_hier mh = {m, f + 1, mit, NULL};

			st = 0;
			if (bs_fork_vector(&cfg, &mh, NULL, v, &nv) == BS_OK &&
			    bs_stop_stable(&cfg, v, nv, &st) == BS_OK && st) {
				*fstable = 1;
				return;
			}
		}
	}
}

static void check_against_stats(int crit, double noise)
{
	struct bs_stop_plan p = bs_stop_plan_default(crit);
	struct bs_replay_static st = {50, 50, 5};
	struct bs_replay_result r;
	size_t warm[NF] = {0}, nf = 0;
	int fstable = 0;

	make_forks(42, noise);
	CHECK_INT_EQ(bs_replay_run(forks, NF, &p, &st, 0.99, 2000, 7, &r), 0);
	reference(&p, warm, &nf, &fstable);
	CHECK_INT_EQ(r.forks_used, nf);
	CHECK_INT_EQ(r.forks_stable, fstable);
	for (size_t f = 0; f < nf && f < r.forks_used; f++) {
		CHECK_INT_EQ(r.warmup[f], warm[f]);
		CHECK_INT_EQ(r.measure[f], p.mi);
		/* slow for 8 iterations: not stable before the window is past them */
		CHECK(r.warmup[f] >= 8 + p.window + 1 || !r.warmup_stable[f]);
	}
	/* means, change rate, A/A: recomputed on the same samples */
	{
		double xs[NF * 50], xd[NF * 50], sum = 0;
		size_t ns[NF], nd[NF], k = 0, kd = 0;
		struct bs_hier hs = {xs, NF, ns, NULL}, hd = {xd, r.forks_used, nd, NULL};
		struct bs_ci ci;
		gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
		double t_sta = 0, t_dyn = 0;

		for (int f = 0; f < NF; f++) {
			memcpy(xs + k, vals[f] + 50, 50 * sizeof(double));
			k += 50;
			ns[f] = 50;
			t_sta += (double)costs[f][99];
		}
		for (size_t f = 0; f < r.forks_used; f++) {
			memcpy(xd + kd, vals[f] + r.warmup[f], p.mi * sizeof(double));
			kd += p.mi;
			nd[f] = p.mi;
			t_dyn += (double)costs[f][r.warmup[f] + p.mi - 1];
		}
		for (size_t i = 0; i < k; i++)
			sum += xs[i];
		CHECK_NEAR(r.mean_static, sum / (double)k, 0, 1e-12);
		CHECK_NEAR(r.mean_dyn, bs_mean(xd, kd), 0, 1e-12);
		CHECK_NEAR(r.change_rate, fabs(bs_mean(xd, kd) / (sum / (double)k) - 1), 1e-15,
			   1e-9);
		gsl_rng_set(g, 7);
		CHECK_INT_EQ(bs_hier_ratio_ci(&hs, &hd, 0.99, 2000, g, &ci), BS_OK);
		CHECK_NEAR(r.aa.lo, ci.lo, 0, 1e-12);
		CHECK_NEAR(r.aa.hi, ci.hi, 0, 1e-12);
		CHECK_INT_EQ(r.aa_same, ci.lo <= 1 && ci.hi >= 1);
		CHECK_NEAR(r.t_static_ns, t_sta, 0, 1e-12);
		CHECK_NEAR(r.t_dyn_ns, t_dyn + (double)r.compute_ns, 0, 1e-12);
		CHECK_NEAR(r.saved, 1 - r.t_dyn_ns / r.t_static_ns, 0, 1e-12);
		gsl_rng_free(g);
	}
	bs_replay_result_free(&r);
}

static void test_cv_matches_stats(void)
{
	check_against_stats(BS_CRIT_CV, 0.002);
}

static void test_kld_matches_stats(void)
{
	check_against_stats(BS_CRIT_KLD, 0.002);
}

static void test_cv_noisy_hits_bounds(void)
{
	check_against_stats(BS_CRIT_CV, 0.2);
}

/* RCIW draws random numbers: same seed, same decisions; settled forks stop warmup early. */
static void test_rciw_reproducible(void)
{
	struct bs_stop_plan p = bs_stop_plan_default(BS_CRIT_RCIW);
	struct bs_replay_static st = {50, 50, 5};
	struct bs_replay_result a, b;

	make_forks(3, 0.002);
	CHECK_INT_EQ(bs_replay_run(forks, NF, &p, &st, 0.99, 1000, 1, &a), 0);
	CHECK_INT_EQ(bs_replay_run(forks, NF, &p, &st, 0.99, 1000, 1, &b), 0);
	CHECK_INT_EQ(a.forks_used, b.forks_used);
	for (size_t f = 0; f < a.forks_used; f++) {
		CHECK_INT_EQ(a.warmup[f], b.warmup[f]);
		CHECK(a.warmup[f] >= 8 + 1 && a.warmup[f] <= 8 + p.window + 1);
	}
	CHECK(a.saved > 0.5);
	CHECK(a.aa_same);
	bs_replay_result_free(&a);
	bs_replay_result_free(&b);
}

static void test_recording_too_short(void)
{
	struct bs_replay_static st = {50, 50, 5};
	struct bs_stop_plan p = bs_stop_plan_default(BS_CRIT_CV);
	struct bs_replay_result r;
	char err[256];

	make_forks(1, 0.01);
	CHECK_INT_EQ(bs_replay_check(forks, 3, &st, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "holds 3 forks") != NULL);
	forks[1].n = 60;
	CHECK_INT_EQ(bs_replay_check(forks, NF, &st, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "fork 2 holds 60") != NULL);
	CHECK_INT_EQ(bs_replay_run(forks, NF, &p, &st, 0.99, 1000, 1, &r), -EINVAL);
	p.crit = 0;
	forks[1].n = NI;
	CHECK_INT_EQ(bs_replay_run(forks, NF, &p, &st, 0.99, 1000, 1, &r), -EINVAL);
}

int main(void)
{
	RUN_TEST(test_cv_matches_stats);
	RUN_TEST(test_kld_matches_stats);
	RUN_TEST(test_cv_noisy_hits_bounds);
	RUN_TEST(test_rciw_reproducible);
	RUN_TEST(test_recording_too_short);
	return test_summary("replay-core");
}
