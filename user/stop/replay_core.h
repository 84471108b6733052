/* SPDX-License-Identifier: MIT */
/*
 * replay_core.h - dynamic reconfiguration computed post hoc on forks recorded
 * with a fixed long configuration: the evaluation method of Laaber et al. 2020 §5.3
 * (forks recorded once; the static baseline and every stoppage criterion
 * applied to the same data) and its metrics (§5.4, Tables 2 and 3):
 *
 *  - time saved: 1 - t_dyn / t_sta. t_sta sums, over the first F forks, the
 *    time from the fork's start to the end of its WI + MI-th usable
 *    iteration; t_dyn sums the same up to the last iteration the dynamic
 *    configuration uses in each fork it runs, plus the checkpoint
 *    computation measured while replaying (the paper's overhead o, here
 *    measured rather than assumed constant). Fork start-up and Google
 *    Benchmark calibration runs are therefore in both.
 *  - A/A test: percentile CI of mean(dynamic) / mean(static) by
 *    hierarchical bootstrap (forks, then iterations; bs_hier_ratio_ci,
 *    10,000 resamples); "unchanged" when it straddles 1.
 *  - change rate: |mean(dynamic) / mean(static) - 1|, the relative
 *    difference of the means of all measurement values.
 *
 * Pure computation on arrays (no trace, no I/O); replay_set.c loads traces.
 */
#ifndef BENCHSCOPE_REPLAY_CORE_H
#define BENCHSCOPE_REPLAY_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/stats_boot.h"
#include "stop/stop_fsm.h"

/** One recorded fork: its usable iterations in order. */
struct bs_replay_fork {
	const double *v;	 /**< value per iteration: ns per invocation, or duration ns */
	const uint64_t *cost_ns; /**< time from the fork's start until the fork could
				      have been ended after iteration i, ns (non-decreasing) */
	size_t n;
};

/** The static configuration <WI, MI, F> (Laaber et al. 2020 §5.3: 50, 50, 5). */
struct bs_replay_static {
	size_t wi, mi, f;
};

struct bs_replay_result {
	int crit;		/**< enum bs_criterion */
	size_t forks_used;	/**< forks the dynamic configuration ran */
	size_t *warmup;		/**< per used fork: warmup iterations */
	size_t *measure;	/**< per used fork: measurement iterations */
	int *warmup_stable;	/**< per used fork */
	size_t n_warmup_stable; /**< forks whose warmup ended by stability */
	size_t n_short;		/**< forks the recording was too short for */
	int forks_stable;	/**< the last fork checkpoint said stable */
	int fork_bound;		/**< f_max forks ran without fork stability */
	double warmup_mean;	/**< mean warmup iterations per used fork */
	size_t n_checkpoints;
	uint64_t compute_ns;	      /**< checkpoint computation while replaying */
	double t_static_ns, t_dyn_ns; /**< t_dyn includes compute_ns */
	double saved;		      /**< 1 - t_dyn / t_static */
	double mean_static, mean_dyn;
	double change_rate; /**< |mean_dyn / mean_static - 1| */
	struct bs_ci aa;    /**< CI of mean_dyn / mean_static */
	int aa_err;	    /**< BS_* error of the A/A bootstrap, 0 if none (BS_EEMPTY: the
			     *   dynamic configuration measured nothing, change_rate NaN) */
	int aa_same;	    /**< the CI straddles 1: result unchanged; meaningless (0)
			     *   with aa_err: no A/A result, neither unchanged nor changed */
};

/**
 * bs_replay_check - whether the recording holds the static configuration:
 * n_forks >= st->f and the first st->f forks hold >= wi + mi iterations each.
 * Returns 0, or -EINVAL with a one-line reason in err.
 */
int bs_replay_check(const struct bs_replay_fork *forks, size_t n_forks,
		    const struct bs_replay_static *st, char *err, size_t errlen);

/**
 * bs_replay_run - apply Algorithm 1 with plan (its criterion must not be
 * none) to the recorded forks in order (a fork with fewer iterations than
 * the dynamic configuration needs is used as far as it goes and counted
 * short; forks beyond the recording are not run) and compare it with the
 * static configuration st: time saved, A/A test (level, e.g. 0.99;
 * resamples, e.g. 10,000; seed for its generator) and change rate.
 * Returns 0, -EINVAL (bad plan, recording does not hold st), -ENOMEM.
 * Free out with bs_replay_result_free.
 */
int bs_replay_run(const struct bs_replay_fork *forks, size_t n_forks,
		  const struct bs_stop_plan *plan, const struct bs_replay_static *st, double level,
		  size_t resamples, uint64_t seed, struct bs_replay_result *out);

/** Free r's arrays (warmup, measure, warmup_stable; set to NULL), not r
 * itself; other fields are left as they are. NULL is a no-op, and so is a
 * zeroed or already freed result. */
void bs_replay_result_free(struct bs_replay_result *r);

#endif
