// SPDX-License-Identifier: MIT
/*
 * stats_bench.c - timing driver of bench/bench-stats: times benchscope's
 * statistics on data files written by the script, prints one line per
 * operation: "<name> <median seconds> <result>".
 *
 *   stats_bench DIR REPS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <benchscope/stats.h>

static double *load(const char *dir, const char *name, size_t *n)
{
	char path[1024];
	size_t cap = 1024;
	double *v = malloc(cap * sizeof(*v));
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f || !v) {
		fprintf(stderr, "stats_bench: cannot read %s\n", path);
		exit(1);
	}
	*n = 0;
	while (fscanf(f, "%lf", &v[*n]) == 1) {
		if (++*n == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				exit(1);
		}
	}
	fclose(f);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *t, int n)
{
	qsort(t, n, sizeof(*t), cmpd);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

#define TIME(name, reps, body, result)                                                             \
	do {                                                                                       \
		double t_[64];                                                                     \
		for (int r_ = 0; r_ < (reps); r_++) {                                              \
			double t0_ = now();                                                        \
			body;                                                                      \
			t_[r_] = now() - t0_;                                                      \
		}                                                                                  \
		printf("%s %.9f %.10g\n", name, median(t_, reps), result);                         \
	} while (0)

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	int reps = argc > 2 ? atoi(argv[2]) : 7, err = 0;
	size_t nb, nx, ny, n1, n2, nh;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	bs_stats_init();
	if (reps < 1 || reps > 64)
		reps = 7;
	double *b = load(dir, "boot.txt", &nb);
	double *x = load(dir, "mwu_x.txt", &nx);
	double *y = load(dir, "mwu_y.txt", &ny);
	double *d1 = load(dir, "kld_d1.txt", &n1);
	double *d2 = load(dir, "kld_d2.txt", &n2);
	double *h = load(dir, "hier.txt", &nh);
	struct bs_ci ci;
	struct bs_mwu u;
	double p = 0, rciw = 0;
	struct bs_stop_cfg kcfg = {.crit = BS_CRIT_KLD};
	/* 5 forks x 50 iterations x 100 invocations */
	size_t ni[5] = {50, 50, 50, 50, 50}, nv[250];

	for (int i = 0; i < 250; i++)
		nv[i] = 100;
	if (nh != 25000) {
		fprintf(stderr, "stats_bench: hier.txt must hold 25000 values\n");
		return 1;
	}
	struct bs_hier hh = {h, 5, ni, nv};
	/* warmup window: 6 iterations x 100 invocations of fork 0 */
	size_t six = 6;
	struct bs_hier hw = {h, 1, &six, nv};
	struct bs_stop_cfg rcfg = {.crit = BS_CRIT_RCIW};
	double wv[5];

	gsl_rng_set(rng, 1);
	TIME("bca_mean_1000x10000", reps,
	     err |=
	     bs_bootstrap_ci(b, nb, bs_stat_mean, NULL, BS_CI_BCA, 0.95, 10000, rng, NULL, &ci),
	     ci.hi - ci.lo);
	TIME("mwu_10000_10000", reps, err |= bs_mannwhitneyu(x, nx, y, ny, BS_TWO_SIDED, &u), u.p);
	TIME("kld_checkpoint_2x500", reps, err |= bs_stop_kld(&kcfg, d1, n1, d2, n2, &p), p);
	TIME("rciw_checkpoint_5x50x100", reps,
	     err |= bs_hier_rciw(&hh, 0.99, 1000, rng, &rciw, NULL), rciw);
	TIME("rciw_warmup_checkpoint_6x100", reps, err |= bs_warmup_vector(&rcfg, &hw, 6, rng, wv),
	     wv[4]);
	/* benchscope's usual case: one timestamped value per iteration */
	struct bs_hier h1 = {h, 1, &six, NULL};

	TIME("rciw_warmup_checkpoint_6x1", reps, err |= bs_warmup_vector(&rcfg, &h1, 6, rng, wv),
	     wv[4]);
	gsl_rng_free(rng);
	free(b), free(x), free(y), free(d1), free(d2), free(h);
	if (err) {
		fprintf(stderr, "stats_bench: a statistic failed\n");
		return 1;
	}
	return 0;
}
