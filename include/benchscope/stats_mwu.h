/* SPDX-License-Identifier: MIT */
/*
 * stats_mwu.h - Mann-Whitney U test (Drozdík 2023 §4.3.3).
 *
 * Same rule and results as scipy.stats.mannwhitneyu(x, y,
 * use_continuity=True, method="auto") of SciPy 1.10: the exact null
 * distribution when min(n1, n2) <= 8 and there are no ties, otherwise the
 * normal approximation with tie correction and continuity correction.
 */
#ifndef BENCHSCOPE_STATS_MWU_H
#define BENCHSCOPE_STATS_MWU_H

#include <stddef.h>

/** The alternative hypothesis of bs_mannwhitneyu, as SciPy's `alternative`
 * (Mann & Whitney 1947): the distributions of x and y differ (two-sided),
 * or the one of x lies below / above the one of y. */
enum bs_alternative {
	BS_TWO_SIDED = 0,
	BS_LESS = 1,	/* x stochastically less than y */
	BS_GREATER = 2, /* x stochastically greater than y */
};

/** Result of bs_mannwhitneyu (Mann & Whitney 1947; SciPy 1.10's figures). */
struct bs_mwu {
	double u1; /* U statistic of x: R1 - n1 (n1 + 1) / 2 (SciPy's) */
	double u2; /* n1 n2 - u1 */
	double p;  /* p-value for the alternative */
	double z;  /* standardised statistic (NAN when exact) */
	int exact; /* 1 when the exact distribution was used */
};

/**
 * bs_mannwhitneyu - x[0..n1-1] vs y[0..n2-1] (e.g. iteration durations of
 * A and B, any unit). Ranks with ties averaged.
 * Returns BS_OK, BS_EINVAL (NULL, bad alternative), BS_EEMPTY (n1 or n2 is
 * 0), BS_ENONFINITE, BS_ETIED (all n1 + n2 values equal: the statistic has
 * no variance and SciPy's p would be degenerate), BS_ENOMEM.
 */
int bs_mannwhitneyu(const double *x, size_t n1, const double *y, size_t n2, enum bs_alternative alt,
		    struct bs_mwu *out);

/**
 * bs_mwu_exact_sf - P(U >= k) under H0 with sample sizes m and n (no ties),
 * computed exactly with 128-bit integer counts when they fit (m + n
 * choose min(m, n) < 2^126), in long double otherwise.
 * Returns BS_OK, BS_EINVAL (NULL out, m or n == 0), BS_ENOMEM.
 */
int bs_mwu_exact_sf(size_t m, size_t n, long long k, double *p);

#endif
