/* SPDX-License-Identifier: MIT */
/*
 * stats_verdict.h - the one-line A/B verdict renderers print (Drozdík 2023
 * §4.3-4.4):
 *   "B is 3.2 % slower than A, 95 % CI [1.1, 5.0] %"
 *   "no difference detected (95 % CI [-1.0, 2.1] %); this setup detects >= 4 %"
 */
#ifndef BENCHSCOPE_STATS_VERDICT_H
#define BENCHSCOPE_STATS_VERDICT_H

#include "benchscope/stats_boot.h"
#include "benchscope/stats_duet.h"

enum bs_verdict_kind {
	BS_VERDICT_NO_DIFFERENCE = 0,
	BS_VERDICT_SLOWER = 1, /* B slower than A */
	BS_VERDICT_FASTER = 2, /* B faster than A */
};

struct bs_verdict {
	enum bs_verdict_kind kind;
	double pct;	       /* (mean_B - mean_A) / mean_A * 100 from the
				  paired mean difference; > 0: B slower */
	double lo_pct, hi_pct; /* CI of pct */
	double level;	       /* e.g. 0.95 */
	double mds_pct;	       /* MDS in %; NAN when not detected/unknown */
	double mds_max_pct;    /* largest slowdown searched; NAN unknown */
	char text[200];	       /* the sentence, NUL-terminated */
};

/**
 * bs_verdict_make - verdict from the CI of the mean paired difference
 * X = dur_A - dur_B (ns) and A's mean duration (ns, > 0). mds and mds_max
 * are fractions (0.03 = 3 %) or NAN when unknown.
 * Returns BS_OK, BS_EINVAL (NULL, mean_a <= 0 or not finite, CI not
 * finite or lo > hi).
 */
int bs_verdict_make(double mean_a, const struct bs_ci *diff_ci, double mds, double mds_max,
		    struct bs_verdict *out);

/**
 * bs_verdict_from_duet - bs_verdict_make from bs_duet_analyze's result r
 * (r->mean_a and r->ci, the CI test's interval of the mean of X = A - B)
 * and an optional bs_duet_mds result m: its CI-test MDS m->mds_ci is the
 * MDS (m->mds_u, the U test's, is not used). mds_max: the largest slowdown
 * the MDS search tried (bs_duet_mds's max_s, 0.15 when that was 0), a
 * fraction like mds_ci (0.15 = 15 %), or NAN; used only when m is given
 * and m->mds_ci is NAN (nothing detected up to it). m NULL: MDS and
 * mds_max unknown (mds_max ignored).
 * Source: Drozdík 2023 §4.3-4.4.
 * Returns BS_OK, BS_EINVAL (r or out NULL, and the errors of
 * bs_verdict_make: mean_a <= 0 or not finite, CI not finite or lo > hi).
 */
int bs_verdict_from_duet(const struct bs_duet_result *r, const struct bs_mds *m, double mds_max,
			 struct bs_verdict *out);

#endif
