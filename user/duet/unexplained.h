/* SPDX-License-Identifier: MIT */
/*
 * unexplained.h - runs of a duet in which one side was slower for
 * reasons the guest kernel did not see (benchscope's own diagnosis, part
 * of issue 4 item 4).
 *
 * A duet cancels noise that hits both sides at once. On a cloud VM the host
 * can also slow ONE vCPU (another tenant on its core or its SMT sibling,
 * host work) with no run-queue wait, interrupt or steal time visible in the
 * guest; the side on that vCPU is then slower for the whole run, and its
 * paired differences carry the noise instead of cancelling it. Measured on
 * the 2-vCPU development VM: in A/A duets of gbench_example, whole runs
 * where one side was 12-16 % slower while the guest accounted < 0.5 % of
 * its time as lost.
 *
 * Per run k of a method (its analysed iterations):
 *   diff_k        = (mean score of B / mean score of A - 1) * 100, %
 *   explained_k   = (share_B - share_A) * 100, percentage points, where
 *                   share = lost / busy as in duet_noise.h (the part of
 *                   the difference that the guest's accounting explains)
 *   unexplained_k = diff_k - explained_k
 * A run is flagged when its unexplained_k lies outside the MAD bounds of
 * all runs' values (|u - median| > 3 * 1.4826 * MAD, bs_outlier_bounds)
 * AND at least BS_DUET_UNEXPL_MIN_PCT points from the median: a real
 * difference between A and B moves every run alike and is not flagged.
 * Checked only with at least BS_DUET_UNEXPL_MIN_RUNS runs.
 */
#ifndef BENCHSCOPE_DUET_UNEXPLAINED_H
#define BENCHSCOPE_DUET_UNEXPLAINED_H

#include <stddef.h>

#include "duet/data.h"

#define BS_DUET_UNEXPL_MIN_RUNS 5
#define BS_DUET_UNEXPL_MIN_PCT	2.0

/** One flagged run. */
struct bs_dunexpl_run {
	int run;		/**< run number over all methods (bs_drun.run) */
	int index;		/**< index within the method */
	double diff_pct;	/**< B vs A mean score, % */
	double explained_pct;	/**< share_B - share_A, percentage points */
	double unexplained_pct; /**< diff_pct - explained_pct */
};

/** The check of one method of one benchmark. */
struct bs_dunexpl {
	size_t n_checked;	     /**< runs compared (0: not checked) */
	double median_pct;	     /**< median of unexplained_k, % */
	double lo_pct, hi_pct;	     /**< flagging bounds on unexplained_k, % */
	struct bs_dunexpl_run *runs; /**< flagged runs, execution order (malloc) */
	size_t n_runs;
	/** the method's verdict from the other runs only (no MDS), filled by
	 * duet_analysis.c when runs were flagged and the rest can be tested */
	bool has_verdict_without;
	char verdict_without[200];
};

/**
 * bs_duet_unexplained - check the runs of method @m of benchmark @b (runs
 * whose sides both have iterations with positive mean scores).
 * Fills @out (free its runs with free()); n_checked is 0 with fewer than
 * BS_DUET_UNEXPL_MIN_RUNS usable runs. Returns 0 or -ENOMEM.
 */
int bs_duet_unexplained(const struct bs_dbench *b, enum bs_dmethod m, struct bs_dunexpl *out);

#endif
