/* SPDX-License-Identifier: MIT */
/*
 * analysis.h - `benchscope compare A B`: the benchmarks of two run traces
 * matched by name and compared, with a verdict per benchmark, a geometric
 * mean over them and the regression gate.
 *
 * Per benchmark (values: side.h; a run is a process):
 *   - ratio = mean(B) / mean(A) with a percentile CI from hierarchical
 *     resampling, runs then iterations within them (Kalibera & Jones 2013;
 *     bs_hier_ratio_ci_rep); delta = ratio - 1;
 *   - the two-sided Mann-Whitney U test (Mann & Whitney 1947) on run-level
 *     values: the runs' means when both sides have >= 2 runs; else (one
 *     process a side, e.g. Google Benchmark's repetitions in one process)
 *     the iterations, as benchstat and compare.py do, and the report says
 *     so (unit "iters": variation between processes is not covered);
 *   - the verdict: slower / faster only when the CI excludes 1 AND p <
 *     alpha; else "no difference detected" with the MDS (stats_compare.h,
 *     bs_shift_mds on the U test's values); none (a problem) with fewer
 *     than 2 values on a side, or with both sides constant (zero variance:
 *     the CI of B/A is a point and any MDS would be the grid's first step);
 *   - noise flags per side (noise.h).
 * Summary: the geometric mean of the ratios with the CI of the
 * replicate-by-replicate geometric mean (bs_geomean_ci_from_replicates).
 * Gate: a benchmark is a regression when its verdict is "slower" and its
 * CI's lower bound exceeds 1 + fail_pct / 100. A benchmark without a test
 * (a problem, or "no test") is counted apart (n_untested): neither passed
 * nor failed.
 */
#ifndef BENCHSCOPE_COMPARE_ANALYSIS_H
#define BENCHSCOPE_COMPARE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/stats.h"
#include "compare/noise.h"
#include "compare/side.h"
#include "util/steps.h"

/** Options; zero fields take the defaults shown. */
struct bs_cmp_opts {
	double level;	    /**< CI level, 0.95 */
	size_t n_resamples; /**< bootstrap resamples, 10000 (Laaber et al. 2020 §5.4) */
	double alpha;	    /**< U test significance, 0.05 */
	uint64_t seed;	    /**< bootstrap seed (0: 1) */
	double fail_pct;    /**< gate: regression beyond this %; NAN: no gate */
	/** told of each benchmark as its analysis starts, and of the end
	 *  (util/steps.h); NULL: none. Not kept in the result's opts */
	const struct bs_steps *steps;
};

enum bs_cmp_unit {
	BS_CMP_UNIT_RUNS = 0,  /**< the U test compares the runs' means */
	BS_CMP_UNIT_ITERS = 1, /**< one run on a side: it compares iterations */
};

/** One benchmark found on both sides. */
struct bs_cmp_row {
	const char *name;
	const struct bs_cmp_bench *a, *b;
	const char *problem;	     /**< why no statistics (static text), or NULL */
	struct bs_ci mean_a, mean_b; /**< hierarchical CI of each side's mean, ns */
	struct bs_ci ratio;	     /**< B/A */
	enum bs_cmp_unit unit;
	size_t u_na, u_nb; /**< values the U test compared */
	struct bs_mwu u;
	struct bs_shift_mds mds;
	size_t u_needed; /**< mds.p_min >= alpha: the values a side (as many on each) the
			  *   U test needs to reach p < alpha; else 0 */
	enum bs_verdict_kind verdict;
	bool regression;	      /**< beyond the gate */
	struct bs_cmp_noise noise[2]; /**< A, B */
};

struct bs_cmp_result {
	struct bs_cmp_opts opts; /**< as used (defaults filled) */
	struct bs_cmp_row *rows; /**< in A's order */
	size_t n_rows;
	const char **only_a, **only_b; /**< names found on one side only */
	size_t n_only_a, n_only_b;
	bool has_geomean; /**< two or more rows with statistics */
	struct bs_ci geomean;
	size_t n_geomean;			  /**< rows in it */
	size_t n_slower, n_faster, n_regressions; /**< rows with those verdicts / beyond the gate */
	size_t
	    n_untested; /**< rows without a test: a problem (no statistics), or no p below
			 *   alpha possible (u_needed: "no test"); the gate does not cover them */
};

/**
 * bs_cmp_analyze - compare @a with @b into *out (zeroed first).
 * Returns 0; -EINVAL with one line in @err when no benchmark is on both
 * sides (naming a few of each); -ENOMEM. Statistics that cannot be
 * computed or would not hold for a benchmark (one value on a side, both
 * sides constant, a mean of 0) leave its row with a problem text, not an
 * error. opts->steps hears of every benchmark (N of the benchmarks on both
 * sides, its name) and, before it returns, of the end. Free with
 * bs_cmp_result_free().
 */
int bs_cmp_analyze(const struct bs_cmp_side *a, const struct bs_cmp_side *b,
		   const struct bs_cmp_opts *opts, struct bs_cmp_result *out, char *err,
		   size_t errlen);

/** Free what bs_cmp_analyze() allocated (NULL-safe). */
void bs_cmp_result_free(struct bs_cmp_result *r);

#endif
