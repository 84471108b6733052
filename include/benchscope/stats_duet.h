/* SPDX-License-Identifier: MIT */
/*
 * stats_duet.h - duet benchmarking analysis (Drozdík 2023 §2-4.4):
 * overlaps of A's and B's iterations, pairing, paired
 * differences with run-means sampling, the CI test, the Mann-Whitney U
 * test, relative CI width, relative overlap time, runtime speedup and the
 * minimal detectable slowdown (MDS).
 *
 * Times are int64 nanoseconds (CLOCK_MONOTONIC or epoch); durations are
 * end - start. Iterations of one side must be in time order and must not
 * overlap each other (they run in one thread of one process).
 */
#ifndef BENCHSCOPE_STATS_DUET_H
#define BENCHSCOPE_STATS_DUET_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/stats_boot.h"
#include "benchscope/stats_mwu.h"

/** One iteration: [start_ns, end_ns). */
struct bs_iter {
	int64_t start_ns, end_ns;
};

/** One overlapping pair (Drozdík 2023 §3.3.2). */
struct bs_overlap {
	size_t a, b;	  /* iteration indexes in A and B */
	int64_t start_ns; /* max of the starts */
	int64_t end_ns;	  /* min of the ends; > start_ns */
	double rate;	  /* min(overlap/dur_A, overlap/dur_B) in (0,1] */
};

/**
 * bs_duet_check_side - BS_OK if it[0..n-1] is a valid side: n may be 0,
 * end >= start (else BS_ENEGATIVE), start of i+1 >= end of i (else
 * BS_EINVAL). NULL with n > 0 is BS_EINVAL.
 */
int bs_duet_check_side(const struct bs_iter *it, size_t n);

/**
 * bs_duet_overlaps - every overlapping pair (start < end: touching
 * intervals do not overlap) of A's and B's iterations, in one linear sweep
 * that advances the side whose current iteration ends first (both when
 * they end together). out must hold na + nb entries (at most na + nb - 1
 * pairs exist); *n_out receives the count. Empty sides give 0 pairs.
 * Source: the overlaps of Drozdík 2023 §3.3.2.
 * Returns BS_OK, BS_EINVAL (NULL, unordered side), BS_ENEGATIVE.
 */
int bs_duet_overlaps(const struct bs_iter *a, size_t na, const struct bs_iter *b, size_t nb,
		     struct bs_overlap *out, size_t *n_out);

/**
 * bs_overlap_rate - overlap_rate of two iterations (Drozdík 2023 §3.3.2):
 * the overlap's length over the longer iteration's duration,
 * min(overlap / dur_A, overlap / dur_B), a ratio in (0, 1] (1 only when
 * the two coincide); 0 when they do not
 * overlap (touching counts as not overlapping) or one has zero duration.
 * a and b must not be NULL (not checked).
 */
double bs_overlap_rate(const struct bs_iter *a, const struct bs_iter *b);

/**
 * One run of a duet (or a sequential A then B run): both sides.
 * score_a[na] / score_b[nb] (optional, NULL: the durations end - start) are
 * the per-iteration scores the tests compare, e.g. ns per invocation for
 * time-sized harnesses (Google Benchmark): duration / invocations. Overlaps,
 * pairing, relative overlap time and runtime speedup always use the
 * timestamps; the CI test, the U test, the means and the relative CI width
 * use the scores (lower is better, in any unit; ns when NULL).
 */
struct bs_duet_run {
	const struct bs_iter *a;
	size_t na;
	const struct bs_iter *b;
	size_t nb;
	const double *score_a; /* na scores or NULL */
	const double *score_b; /* nb scores or NULL */
};

enum bs_duet_type {
	BS_DUET_SEQUENTIAL = 0, /* A then B; pairs iteration j with j */
	BS_DUET_SYNC = 1,	/* synchronised duet; pairs j with j */
	BS_DUET_ASYNC = 2,	/* pairs by overlap_rate > min_overlap */
};

/** One pair of a run (bs_duet_pairs): an iteration of A and one of B whose
 * scores the CI test subtracts (Drozdík 2023 §4.3). */
struct bs_pair {
	size_t a, b; /* iteration indexes in run->a and run->b (0-based) */
};

/**
 * bs_duet_pairs - pairs of one run: j with j (j < min(na, nb)) for
 * sequential and sync duets; overlapping pairs with overlap_rate > m for
 * async duets (Drozdík 2023 eq. 4.1), m the minimum overlap ratio, a
 * fraction in [0, 1) (0.4 in the thesis; ignored for the other types).
 * out must hold na + nb entries; *n_out receives the number of pairs
 * written to out[0..*n_out-1], in iteration order. *overlap_ns (optional)
 * receives the sum of overlap_time (ns) of the kept async pairs (0 for
 * the other types).
 * Returns BS_OK, BS_EINVAL (NULL, bad type, m outside [0, 1), unordered
 * side), BS_ENEGATIVE, BS_ENOMEM (async).
 */
int bs_duet_pairs(const struct bs_duet_run *run, enum bs_duet_type type, double m,
		  struct bs_pair *out, size_t *n_out, double *overlap_ns);

/** Options of bs_duet_analyze; zero fields take the defaults shown. */
struct bs_duet_opts {
	enum bs_duet_type type;
	double min_overlap;   /* m = 0.4 */
	double level;	      /* 0.95 */
	size_t n_resamples;   /* 9999 */
	double alpha;	      /* U test significance, 0.05 */
	int runs_merged;      /* 0: run-means sampling (one mean of X per run);
				 1: every pair's X is one observation */
	int drop_warmup_half; /* 1: drop the first half (floor(n/2)) of each
				 side's iterations of every run (the thesis'
				 Java convention, Drozdík 2023 §4.2) */
	uint64_t seed;	      /* bootstrap seed */
};

/** Result of the CI test and the U test of one benchmark. Scores are the
 * runs' score_a/score_b where given, else durations (ns). */
struct bs_duet_result {
	size_t n_runs, n_pairs;	 /* runs used, pairs over all runs */
	size_t n_obs;		 /* bootstrap observations */
	double mean_a, mean_b;	 /* mean scores of A and B */
	double grand_mean;	 /* mean of all A and B scores */
	double mean_diff;	 /* mean of X = score_A - score_B */
	struct bs_ci ci;	 /* BCa CI of the mean of X (score unit) */
	double rel_ci_width;	 /* (hi - lo) / grand_mean */
	int ci_differs;		 /* CI excludes 0 */
	struct bs_mwu u;	 /* A's scores vs B's, two-sided */
	int u_differs;		 /* u.p < alpha */
	double rel_overlap_time; /* async: sum 2 overlap / sum durations
				    (timestamps, never scores); NAN for
				    the other types */
};

/**
 * bs_duet_analyze - CI test (paired differences X = A - B of the scores,
 * pairs from the timestamps; run-means sampling, BCa, 9999 resamples, 95 %)
 * and two-sided Mann-Whitney U test on all scores of A vs B (Drozdík 2023
 * §4.3). Scores: see struct bs_duet_run (NULL: durations).
 * Returns BS_OK, BS_EINVAL, BS_EEMPTY (no run), BS_ETOOFEW (fewer than 2
 * bootstrap observations or no pair), BS_ENEGATIVE, BS_EZEROVAR (all
 * observations equal: BCa undefined), BS_ETIED (U test on all-equal
 * durations), BS_ENOMEM.
 */
int bs_duet_analyze(const struct bs_duet_run *runs, size_t n_runs, const struct bs_duet_opts *o,
		    struct bs_duet_result *out);

/**
 * bs_duet_slow_b - B's iterations slowed by a factor (1 + s): every
 * duration is multiplied and, so that the gaps between B's iterations stay
 * unchanged, iteration j starts later by s times the sum of the durations
 * of iterations 0..j-1 (Drozdík 2023 §4.4). Durations are
 * rounded to whole ns. out holds n entries (may not alias in).
 * Returns BS_OK, BS_EINVAL (s < 0 or not finite, NULL), BS_ENEGATIVE.
 */
int bs_duet_slow_b(const struct bs_iter *in, size_t n, double s, struct bs_iter *out);

/** MDS search result. */
struct bs_mds {
	double mds_ci;	  /* smallest s (fraction, e.g. 0.03) the CI test
			     detects; NAN if none up to max */
	double mds_u;	  /* same for the U test */
	int differs_at_0; /* bit 0: CI test, bit 1: U test detect at s = 0 */
};

/**
 * bs_duet_mds - minimal detectable slowdown: for s = 0, step, 2 step, ...
 * up to max_s (defaults 0.01 and 0.15 when 0), slow B down with
 * bs_duet_slow_b, re-pair (async) and re-run both tests; the MDS of a test
 * is the smallest s it detects. B's scores, where given, are multiplied by
 * (1 + s) too (its timestamps move as bs_duet_slow_b says, so async pairs
 * follow). Each s reuses opts->seed.
 * Returns the errors of bs_duet_analyze (at s = 0), BS_EINVAL.
 */
int bs_duet_mds(const struct bs_duet_run *runs, size_t n_runs, const struct bs_duet_opts *o,
		double step, double max_s, struct bs_mds *out);

/**
 * bs_runtime_speedup - mean sequential run time (A's span + B's span) /
 * mean duet run time (latest end - earliest start) (Drozdík 2023 §5.2.1):
 * a ratio, no unit; > 1 when a duet run takes less wall-clock time than a
 * sequential run (2: half the time), < 1 when it takes longer. Spans are
 * first iteration's start to last iteration's end, from the timestamps.
 * Returns BS_OK, BS_EINVAL (NULL, total duet time 0), BS_EEMPTY (no run
 * or an empty side).
 */
int bs_runtime_speedup(const struct bs_duet_run *seq, size_t n_seq, const struct bs_duet_run *duet,
		       size_t n_duet, double *speedup);

#endif
