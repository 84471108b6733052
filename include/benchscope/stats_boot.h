/* SPDX-License-Identifier: MIT */
/*
 * stats_boot.h - bootstrap confidence intervals (Kalibera & Jones 2013; Efron 1987).
 *
 * Percentile and BCa intervals for any statistic, hierarchical resampling
 * fork -> iteration -> invocation (Kalibera & Jones 2013; the `pa` tool, Laaber et al. 2020
 * §4.2.3) with the relative CI width (RCIW), the CI of the ratio of means of
 * two hierarchical samples (the A/A test of Laaber et al. 2020 §5.4), and a
 * moving-block bootstrap for autocorrelated series.
 *
 * Randomness comes only from the gsl_rng the caller passes: the same seed
 * gives the same interval. Functions draw from an internal xoshiro256**
 * generator seeded with four gsl_rng_get() values, so one call consumes
 * exactly four values of the caller's generator.
 */
#ifndef BENCHSCOPE_STATS_BOOT_H
#define BENCHSCOPE_STATS_BOOT_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

/**
 * A statistic of a sample x[0..n-1] (n >= 1). It may reorder x: the
 * bootstrap always passes a scratch copy. ctx is passed through.
 */
typedef double (*bs_statistic_fn)(double *x, size_t n, void *ctx);

/** Ready-made statistics for bs_bootstrap_ci (ctx unused): the mean; the
 * median (NumPy definition; reorders x); the geometric mean (NAN when a
 * value is <= 0, which bs_bootstrap_ci reports as BS_ENONFINITE). */
double bs_stat_mean(double *x, size_t n, void *ctx);
double bs_stat_median(double *x, size_t n, void *ctx);
double bs_stat_geomean(double *x, size_t n, void *ctx);

enum bs_ci_method {
	BS_CI_PERCENTILE = 0,
	BS_CI_BCA = 1, /* bias-corrected and accelerated (Efron 1987), the
			  formula of scipy.stats.bootstrap(method="BCa") */
};

/** A confidence interval. Units: those of the statistic. */
struct bs_ci {
	double point;  /* statistic of the original sample */
	double lo, hi; /* interval bounds */
	double level;  /* confidence level, e.g. 0.95 */
	size_t n_resamples;
	double z0;    /* BCa bias correction (0 for percentile) */
	double accel; /* BCa acceleration (0 for percentile) */
};

/**
 * bs_bootstrap_ci - bootstrap CI of stat(x) from n_resamples resamples of
 * x[0..n-1] drawn with replacement.
 * @level: confidence level in (0, 1).
 * @replicates: optional array of n_resamples doubles that receives the
 *              bootstrap distribution (in draw order), or NULL.
 * Percentile: bounds are the (1-level)/2 and (1+level)/2 quantiles (NumPy
 * linear definition) of the replicates. BCa: as scipy.stats.bootstrap
 * 1.10: z0 = Phi^-1((#{r < t} + #{r <= t}) / 2B), acceleration from the
 * jackknife, bounds at the adjusted quantiles.
 * Returns BS_OK, BS_EINVAL (NULL, level outside (0,1), n_resamples < 2),
 * BS_EEMPTY, BS_ETOOFEW (n < 2; or BCa with the whole bootstrap
 * distribution on one side of the point estimate), BS_ENONFINITE (data or
 * a statistic value not finite), BS_EZEROVAR (BCa with constant jackknife
 * values, e.g. constant data), BS_ENOMEM.
 */
int bs_bootstrap_ci(const double *x, size_t n, bs_statistic_fn stat, void *ctx,
		    enum bs_ci_method method, double level, size_t n_resamples, gsl_rng *rng,
		    double *replicates, struct bs_ci *out);

/**
 * bs_bca_from_replicates - the BCa interval from a given bootstrap
 * distribution rep[0..nrep-1] of stat over x[0..n-1] (jackknife on x).
 * Deterministic; lets tests check the BCa formula on fixed replicates.
 * Same errors as bs_bootstrap_ci.
 */
int bs_bca_from_replicates(const double *x, size_t n, bs_statistic_fn stat, void *ctx,
			   const double *rep, size_t nrep, double level, struct bs_ci *out);

/**
 * bs_percentile_from_replicates - percentile interval from a bootstrap
 * distribution rep[0..nrep-1] (any order; not modified): lo and hi are its
 * (1 - level)/2 and (1 + level)/2 quantiles (Hyndman & Fan 1996
 * definition 7, NumPy's "linear"), in the unit of the replicates, which is
 * that of point (copied to out->point unchecked; z0 = accel = 0).
 * level: in (0, 1), e.g. 0.95.
 * Returns BS_OK, BS_EINVAL (NULL rep or out, level outside (0, 1)),
 * BS_EEMPTY (nrep == 0), BS_ENONFINITE (a replicate), BS_ENOMEM.
 */
int bs_percentile_from_replicates(const double *rep, size_t nrep, double point, double level,
				  struct bs_ci *out);

/**
 * A hierarchical sample (Laaber et al. 2020 §4.2.3; Kalibera & Jones 2013): x holds every
 * invocation value (e.g. ns per invocation), fork-major then
 * iteration-major: fork 0's iteration 0's invocations, then its
 * iteration 1's, ... n_iters[f] is the number of iterations of fork f
 * (>= 1); n_invs[i] the invocations of the i-th iteration overall (>= 1;
 * sum(n_iters) entries), or NULL when every iteration is one value.
 */
struct bs_hier {
	const double *x;
	size_t n_forks;
	const size_t *n_iters;
	const size_t *n_invs;
};

/** Total number of values (sum of invocations) of h; 0 if malformed. */
size_t bs_hier_count(const struct bs_hier *h);

/**
 * bs_hier_ci_mean - percentile CI of the mean by hierarchical resampling:
 * forks with replacement, then iterations within each chosen fork, then
 * invocations within each chosen iteration; the mean of the merged sample
 * is one replicate. point = mean of all values.
 * Returns BS_OK, BS_EINVAL (NULL, level, n_resamples < 2, a zero count),
 * BS_EEMPTY, BS_ENONFINITE, BS_ENOMEM.
 */
int bs_hier_ci_mean(const struct bs_hier *h, double level, size_t n_resamples, gsl_rng *rng,
		    struct bs_ci *out);

/**
 * bs_hier_rciw - relative CI width of the mean, (hi - lo) / |point|, with
 * bs_hier_ci_mean (Laaber et al. 2020 §4.2.3: 99 %, 1000 resamples). *rciw
 * is a ratio, not a percentage (0.03 = 3 %, the paper's threshold); ci
 * (optional) receives the interval. Same errors, plus BS_EINVAL when rciw
 * is NULL or the mean is 0.
 */
int bs_hier_rciw(const struct bs_hier *h, double level, size_t n_resamples, gsl_rng *rng,
		 double *rciw, struct bs_ci *ci);

/**
 * bs_hier_ratio_ci - percentile CI of mean(b) / mean(a), each replicate
 * resampling a and b hierarchically and independently (Laaber et al. 2020 §5.4:
 * 10,000 resamples; the interval straddling 1 means no difference).
 * point = mean(b) / mean(a). Same errors as bs_hier_ci_mean, plus
 * BS_EINVAL when mean(a) == 0.
 */
int bs_hier_ratio_ci(const struct bs_hier *a, const struct bs_hier *b, double level,
		     size_t n_resamples, gsl_rng *rng, struct bs_ci *out);

/** Deepest tree bs_hierk accepts (levels above the values). */
#define BS_HIERK_MAX_DEPTH 8

/**
 * A k-level hierarchical sample (Kalibera & Jones 2013; Laaber et al. 2020
 * §4.2.3, generalised): a tree whose leaves are values, e.g. machine -> run
 * -> iteration (depth 2: machines and runs above the iteration values).
 * Level 0 has n_top groups; group g of level l (0 <= l < depth) has
 * n_child[l][g] >= 1 children: the groups of level l + 1, or values when
 * l == depth - 1. Groups of a level are numbered over the whole level in
 * tree order (the children of group 0 first), so n_child[l] has as many
 * entries as level l has groups; x holds the values in the same order.
 *
 * A second sample sharing the tree above the values (a duet's runs hold
 * both A and B): y, with y_child[g] >= 1 values in leaf group g (level
 * depth - 1); NULL when there is none.
 */
struct bs_hierk {
	size_t depth; /* 1 .. BS_HIERK_MAX_DEPTH */
	size_t n_top;
	const size_t *const *n_child;
	const double *x;
	const double *y;       /* optional second sample, or NULL */
	const size_t *y_child; /* its values per leaf group (with y) */
};

/**
 * Options of bs_hierk_ci. leaf_exact_max: a leaf group of more values than
 * this is resampled by the normal approximation of its resampled sum,
 * n * mean + sqrt(n) * sd * Z (sd with divisor n, the spread of the
 * bootstrap's own draws; the central limit theorem), instead of n draws;
 * 0 resamples every leaf exactly. The approximation makes a replicate cost
 * one draw per leaf group instead of one per value.
 */
struct bs_hierk_opts {
	double level;	       /* confidence level in (0, 1) */
	size_t n_resamples;    /* >= 2 */
	size_t leaf_exact_max; /* see above; 0: always exact */
};

/**
 * bs_hierk_ci - percentile CI by k-level hierarchical resampling: n_top
 * groups drawn with replacement from level 0, then, within each drawn
 * group, as many of its children as it has, with replacement, down to the
 * values; a replicate is the mean of the values drawn (without y), or
 * mean(y drawn) / mean(x drawn) (with y: a leaf group draws its x and its y
 * values independently). point = mean(x), or mean(y) / mean(x).
 * Returns BS_OK, BS_EINVAL (NULL, depth outside 1..BS_HIERK_MAX_DEPTH, a
 * zero count, level, n_resamples < 2, mean(x) == 0 with y), BS_EEMPTY
 * (n_top == 0), BS_ENONFINITE, BS_ENOMEM.
 */
int bs_hierk_ci(const struct bs_hierk *h, const struct bs_hierk_opts *o, gsl_rng *rng,
		struct bs_ci *out);

/** Number of values of h (x), 0 if malformed. */
size_t bs_hierk_count(const struct bs_hierk *h);

/**
 * bs_hier_ratio_ci_rep - bs_hier_ratio_ci that also writes the bootstrap
 * distribution of mean(b) / mean(a) into @replicates (n_resamples doubles,
 * in draw order; NULL: not kept), e.g. to combine the ratios of several
 * benchmarks replicate by replicate (stats_compare.h). The same seed gives
 * the same replicates as bs_hier_ratio_ci. Same errors.
 */
int bs_hier_ratio_ci_rep(const struct bs_hier *a, const struct bs_hier *b, double level,
			 size_t n_resamples, gsl_rng *rng, double *replicates, struct bs_ci *out);

/**
 * bs_lag1_autocorr - lag-1 autocorrelation of a series x[0..n-1] in time
 * order, r1 = sum_{t<n-1} (x_t - m)(x_{t+1} - m) / sum_t (x_t - m)^2, m the
 * mean: the sample autocorrelation r_1 of Box & Jenkins 1976 §2.1.4 (the
 * estimator of statsmodels' acf); no unit, in [-1, 1]. Returns BS_OK,
 * BS_EINVAL, BS_EEMPTY, BS_ETOOFEW (n < 3), BS_ENONFINITE, BS_EZEROVAR.
 */
int bs_lag1_autocorr(const double *x, size_t n, double *r1);

/**
 * bs_lag1_autocorr_pooled - the pooled lag-1 autocorrelation of k series
 * (e.g. the scores of each run, in time order): every series is centred on
 * its own mean, then r1 = sum of (x_t - m)(x_t+1 - m) over consecutive
 * values within each series / sum of (x_t - m)^2 over all values (for k = 1,
 * bs_lag1_autocorr). x[s] holds n[s] values; series with n[s] < 2 are
 * skipped. The sample autocorrelation of Box & Jenkins 1976 §2.1.4, pooled
 * over the series; no unit.
 * Returns BS_OK, BS_EINVAL (NULL), BS_ETOOFEW (no series of 2
 * values), BS_ENONFINITE, BS_EZEROVAR (every series constant).
 */
int bs_lag1_autocorr_pooled(const double *const *x, const size_t *n, size_t k, double *r1);

/**
 * bs_block_bootstrap_ci - moving-block bootstrap percentile CI of stat for
 * an autocorrelated series x[0..n-1] (iteration times in order): each
 * resample concatenates ceil(n / block_len) blocks of block_len consecutive
 * values starting at uniform positions in [0, n - block_len], truncated to
 * n values (the moving-block bootstrap of Künsch 1989). block_len 0
 * chooses ceil(n^(1/3)). The interval has the unit of stat. The lag-1
 * autocorrelation (bs_lag1_autocorr) is written to *r1 when r1 is not NULL
 * (NAN if undefined).
 * Returns BS_OK, BS_EINVAL (block_len > n, level, n_resamples < 2),
 * BS_EEMPTY, BS_ETOOFEW (n < 2), BS_ENONFINITE, BS_ENOMEM.
 */
int bs_block_bootstrap_ci(const double *x, size_t n, size_t block_len, bs_statistic_fn stat,
			  void *ctx, double level, size_t n_resamples, gsl_rng *rng, double *r1,
			  struct bs_ci *out);

#endif
