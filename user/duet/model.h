/* SPDX-License-Identifier: MIT */
/*
 * model.h - one method's runs as the observations of the run-level duet
 * model (benchscope/stats_duet_model.h): per run, y = ln(trimmed mean score
 * of B / trimmed mean score of A) over the iterations that are in at least
 * one pair (each counted once; BS_DUET_RUN_TRIM of each side's scores off
 * each end), and the share of each side's iterations on each CPU (an
 * iteration's CPU is its cpu_begin when it equals its cpu_end; unknown, in
 * no share, when the side changed CPU within it). A ratio of each side's
 * location, not a mean of pair ratios: async pairs form by overlap, and
 * when one CPU is slower, which iterations overlap depends on their
 * durations, which would bias a mean over pairs. Trimmed, because on a
 * cloud VM the host stalls single iterations by 30 % and more: one such
 * iteration of five moved a run's mean by 7 %, while the run-to-run spread
 * of undisturbed runs is 1-2 %. Also the pooled lag-1 autocorrelation of
 * the scores;
 * and the diagnosis of hidden host contention that the placement terms
 * measure: one vCPU slower than another while the guest accounted nothing.
 * Sources: Jones & Kenward 2014 §2 (crossover), Kalibera & Jones 2013 §4
 * (the run as the unit), Box & Jenkins 1976 §2.1.4 (lag-1).
 */
#ifndef BENCHSCOPE_DUET_MODEL_H
#define BENCHSCOPE_DUET_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "benchscope/stats_duet.h"
#include "benchscope/stats_duet_model.h"
#include "duet/data.h"

/**
 * The smallest CPU ratio (slow / fast) called host contention: one vCPU
 * 20 % slower than the other (the run-to-run spread of a ratio on an
 * undisturbed 2-vCPU VM stays within a few %). A run counts as "slowed"
 * when the ratio it shows is at least this, either way, and beyond what
 * its own iterations' noise explains (see bs_duet_cpu_diag); the duet's
 * contention is steady when the placement term is at least this and its
 * interval lies above 1.
 */
#define BS_DUET_CPU_SLOW_RATIO 1.2

/**
 * The share of each side's paired scores trimmed off each end before a
 * run's location is taken: the 20 % trimmed mean (Wilcox 2012 §3.1), which
 * keeps about 95 % of the mean's efficiency when nothing is wrong. With 5
 * iterations it drops the fastest and the slowest; under 5, nothing.
 */
#define BS_DUET_RUN_TRIM 0.2

/** The model's input for one method: runs[r] is run r's observation. */
struct bs_dmodel_in {
	struct bs_dmodel_run *runs;    /**< n_runs (the method's ok runs, in order) */
	struct bs_dmodel_share *share; /**< the runs' shares, run after run */
	size_t n_runs;
	size_t n_moved; /**< paired iterations whose side changed CPU within them */
};

/**
 * bs_duet_model_in_build - the observations of method @m of benchmark @b,
 * from the pairs already formed: pairs[r][0..n_pairs[r]-1] index run r's
 * sides (warmup dropped by the caller). A run whose paired scores do not
 * give two positive means is left out (n = 0). Returns 0 or -ENOMEM; free
 * with bs_duet_model_in_free.
 */
int bs_duet_model_in_build(const struct bs_dbench *b, enum bs_dmethod m,
			   struct bs_pair *const *pairs, const size_t *n_pairs,
			   struct bs_dmodel_in *out);

/** Free what in holds and zero it, not in itself; in must not be NULL (not
 * NULL-safe). A zeroed or already freed one is fine. */
void bs_duet_model_in_free(struct bs_dmodel_in *in);

/**
 * bs_duet_lag1 - the pooled lag-1 autocorrelation (bs_lag1_autocorr_pooled)
 * of the scores of method @m's runs, A's and B's series apart, from index
 * @skip[side] of each run (the analysed iterations). NAN when it cannot be
 * computed (too few iterations, constant scores) or on allocation failure.
 */
double bs_duet_lag1(const struct bs_dbench *b, enum bs_dmethod m, bool drop_warmup_half);

/** What the diagnosis calls the CPUs' difference. */
enum bs_dcontention {
	BS_DCONT_NONE,	       /**< no steady term, no slowed run departing from it */
	BS_DCONT_INTERMITTENT, /**< slowed runs departing from a term that is not
				*   steady: it came and went */
	BS_DCONT_STEADY,       /**< the term is >= BS_DUET_CPU_SLOW_RATIO, its interval above 1 */
};

/** Hidden host contention seen through a two-CPU placement term. */
struct bs_dcpudiag {
	bool checked;	      /**< a model with one placement term was fitted */
	int slow_cpu;	      /**< the CPU the term finds slower */
	int fast_cpu;	      /**< the other */
	double ratio;	      /**< the term: score on slow_cpu / on fast_cpu, >= 1 */
	double ratio_lo;      /**< its interval at the model's level (Student t on
			       *   the term's standard error), lower end */
	double ratio_hi;      /**< upper end */
	size_t n_apart;	      /**< runs whose sides were mostly apart (|x| >= 0.5) */
	size_t n_slowed;      /**< of them, runs whose ratio is >= BS_DUET_CPU_SLOW_RATIO
			       *   (or <= its inverse) and beyond their noise */
	size_t n_departed;    /**< of the slowed runs, those whose ratio departs from
			       *   the term beyond their noise as well */
	size_t n_unpaired;    /**< runs without a pair (async: a vCPU slowed enough
			       *   leaves no iterations that overlap): in no figure here */
	double max_run_ratio; /**< the largest ratio of a departing slowed run, either
			       *   CPU slower, >= 1; NAN when none */
	double median_ratio;  /**< median over the n_apart runs of their ratio (slow / fast) */
	enum bs_dcontention contention;
};

/**
 * bs_duet_cpu_diag - the diagnosis from a fitted model @r of @in: per run
 * whose sides were apart, the speed ratio of the two CPUs once the version
 * term is removed (bs_dmodel_run_cpu_ratio), q = exp((y - v) / x). A run
 * is slowed when |ln q| >= ln BS_DUET_CPU_SLOW_RATIO and |ln q| exceeds
 * t sd, with sd^2 = (w2 + se(v)^2) / x^2 (its iterations' noise, and v's)
 * and t the Student quantile of the model's level with the run's trimmed
 * mean's degrees of freedom (h - 1, Wilcox 2012 §4.5.1), Bonferroni-
 * corrected over the runs apart (so a noisy duet of n runs calls one at the
 * model's error rate, not n times it); it departs from the term's c when
 * |ln q - c| is at least ln BS_DUET_CPU_SLOW_RATIO and exceeds t sd as well. Contention is steady
 * when the term is
 * >= BS_DUET_CPU_SLOW_RATIO with its interval above 1, else intermittent
 * when a slowed run departs from it. out->checked is false unless the model has
 * exactly one placement term; all fields are 0 on allocation failure.
 */
void bs_duet_cpu_diag(const struct bs_dmodel_in *in, const struct bs_dmodel_result *r,
		      struct bs_dcpudiag *out);

/** "steady", "intermittent" or "none". */
const char *bs_dcontention_name(enum bs_dcontention c);

#endif
