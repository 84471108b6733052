/* SPDX-License-Identifier: MIT */
/*
 * stats_compare.h - comparing two independent recordings, A and B, of the
 * same benchmarks (`benchscope compare`): the geometric mean of the
 * per-benchmark ratios B/A with a bootstrap CI, and the minimal detectable
 * slowdown (MDS) of one benchmark's comparison.
 *
 * Ratios are B/A of mean time (> 1: B slower). Their CI comes from
 * bs_hier_ratio_ci_rep (Kalibera & Jones 2013: runs, then iterations
 * within them); the U test is bs_mannwhitneyu (Mann & Whitney 1947).
 */
#ifndef BENCHSCOPE_STATS_COMPARE_H
#define BENCHSCOPE_STATS_COMPARE_H

#include <stddef.h>

#include "benchscope/stats_boot.h"

/**
 * bs_geomean_ci_from_replicates - CI of the geometric mean of k ratios,
 * combined replicate by replicate: rep[i * nrep + r] is bootstrap replicate
 * r of ratio i (benchmark-major, each > 0), points[i] ratio i's point
 * estimate. Replicate r of the summary is exp(mean over i of
 * log rep[i * nrep + r]); the interval is the percentile interval (NumPy
 * linear quantiles) of those nrep values, around point = the geometric
 * mean of points. The benchmarks are the fixed set compared, not a sample
 * of benchmarks: each one's own uncertainty is carried into the summary
 * (benchmarks resampled independently of each other).
 * Returns BS_OK, BS_EINVAL (NULL, level outside (0, 1), nrep < 2),
 * BS_EEMPTY (k == 0), BS_ENONFINITE (a value <= 0, NaN or infinite),
 * BS_ENOMEM.
 */
int bs_geomean_ci_from_replicates(const double *rep, size_t k, size_t nrep, const double *points,
				  double level, struct bs_ci *out);

/**
 * bs_ci_mds - the MDS of a verdict made by a ratio CI alone (B/A, > 1: B
 * slower): B is brought to A's level (its ratio divided by @ratio->point)
 * and slowed by s = step, 2 step, ... up to max_s; with the same
 * resamples, a bootstrap CI of a ratio of means scales by (1 + s) / point,
 * so the verdict "B slower" (the CI above 1) holds from the first grid s
 * with (1 + s) * ratio->lo / ratio->point > 1 on. The search starts at
 * s = step: the MDS is never 0. Defaults when 0: step 0.001, max_s 1.0.
 * Returns that s (a fraction: 0.03 = 3 %); NAN when none <= max_s or the
 * arguments are invalid (NULL, point or lo not > 0 and finite, step or
 * max_s < 0).
 */
double bs_ci_mds(const struct bs_ci *ratio, double step, double max_s);

/** Result of bs_shift_mds. Slowdowns are fractions (0.03 = 3 %). */
struct bs_shift_mds {
	double mds;    /**< smallest grid s where both tests detect; NAN if none <= max_s */
	double mds_ci; /**< smallest grid s where the ratio CI excludes 1; NAN if none */
	double mds_u;  /**< smallest grid s where the U test has p < alpha; NAN if none */
	double p_min;  /**< smallest p the U test reaches with these sample sizes (the
			*   two samples completely apart): >= alpha means it never detects */
};

/**
 * bs_shift_mds - what slowdown a comparison of a[0..na-1] (A's values,
 * e.g. per-run means, ns) and b[0..nb-1] (B's) could detect: B is first
 * brought to A's level (every value divided by @ratio->point, the observed
 * B/A), then slowed by s = step, 2 step, ... up to max_s (every value
 * times 1 + s), and both tests of the verdict are repeated:
 *   - the ratio CI (bs_ci_mds);
 *   - the two-sided U test of a against the shifted b, p < alpha.
 * The search starts at s = step: the MDS is never 0 (a comparison that
 * cannot tell a 0 % change from none detects nothing at 0).
 * Defaults when 0: step 0.001, max_s 1.0, alpha 0.05.
 * Returns BS_OK, BS_EINVAL (NULL, ratio point or lo not > 0, step or
 * max_s < 0, alpha outside (0, 1)), the errors of bs_mannwhitneyu except
 * BS_ETIED (counted as not detected), BS_ENOMEM.
 */
int bs_shift_mds(const double *a, size_t na, const double *b, size_t nb, const struct bs_ci *ratio,
		 double alpha, double step, double max_s, struct bs_shift_mds *out);

#endif
