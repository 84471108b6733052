/* SPDX-License-Identifier: MIT */
/*
 * stop_fsm.h - Algorithm 1 of Laaber et al. 2020 (§4.1) as a state
 * machine fed one iteration value at a time: the dynamic warmup phase with
 * its checkpoints, the mi measurement iterations, and the fork checkpoint.
 * `run --stop` drives it live from the collector's iteration hook; `replay`
 * drives it over the iterations of a recorded trace, so both take the same
 * decisions on the same values (and, for RCIW, the same seed).
 *
 * Values are one number per iteration: ns per invocation when the iteration
 * carries an invocation count (Google Benchmark), else the iteration's
 * duration in ns. The stopper (stats_stop.h) does the statistics; this layer
 * only applies wi_min / wi_max / mi / f_min / f_max and times each
 * checkpoint (CLOCK_MONOTONIC).
 *
 * Criterion 0 ("none") is the fixed configuration: exactly wi_max warmup and
 * mi measurement iterations per fork, f_max forks, no checkpoint.
 */
#ifndef BENCHSCOPE_STOP_FSM_H
#define BENCHSCOPE_STOP_FSM_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/stats_stop.h"

/** Upper bounds accepted for the configuration (sanity, not the paper's). */
#define BS_STOP_MAX_ITERS 100000
#define BS_STOP_MAX_FORKS 1000

/** The extended configuration <wi_min, wi_max, mi, f_min, f_max> and criterion. */
struct bs_stop_plan {
	int crit;	  /**< 0: none (fixed configuration), else enum bs_criterion */
	double threshold; /**< t; 0 takes the criterion's default (0.01 / 0.03 / 0.99) */
	size_t window;	  /**< s_W; 0 takes 5 */
	size_t wi_min, wi_max, mi, f_min, f_max;
	uint64_t seed; /**< RCIW resampling seed */
};

/** The paper's dynamic configuration <5, 50, 10, 2, 5> with criterion crit. */
struct bs_stop_plan bs_stop_plan_default(int crit);

/** "none", "cv", "rciw", "kld" (and the reverse); NULL / -1 when unknown. */
const char *bs_stop_crit_name(int crit);
int bs_stop_crit_parse(const char *s);

/**
 * bs_stop_threshold_parse - the text of a --threshold: a finite number in
 * (0, 1] (the plan check narrows KLD's to (0, 1)), the whole string.
 * Returns 0, or -EINVAL with *out untouched.
 */
int bs_stop_threshold_parse(const char *s, double *out);

/** The threshold in effect: plan->threshold, or the criterion's default. */
double bs_stop_plan_threshold(const struct bs_stop_plan *p);

/**
 * bs_stop_plan_check - validate a plan (after defaults are applied).
 * Rules: wi_min <= wi_max, f_min <= f_max, 1 <= mi, 1 <= f_min,
 * wi_max <= BS_STOP_MAX_ITERS, f_max <= BS_STOP_MAX_FORKS, window >= 1;
 * CV and RCIW: window >= 2 (bs_stable_var never calls one value stable, so
 * a window of 1 could never end warmup by stability; f_min 1 is taken: the
 * first fork's vector of one value is not stable, and a second fork follows
 * when f_max allows);
 * threshold: CV and RCIW in (0, 1], KLD in (0, 1). Returns 0, or -EINVAL with a
 * one-line reason in err.
 */
int bs_stop_plan_check(const struct bs_stop_plan *p, char *err, size_t errlen);

enum bs_stop_phase {
	BS_PHASE_WARMUP = 1,  /**< the iteration is a warmup iteration */
	BS_PHASE_MEASURE = 2, /**< a measurement iteration */
	BS_PHASE_AFTER = 3,   /**< after the fork's mi measurement iterations: ignored */
};

/** One checkpoint evaluation (Algorithm 1 line 9 or 14). */
struct bs_stop_decision {
	int made;	     /**< a checkpoint was evaluated (the rest is valid) */
	int fork_checkpoint; /**< 0: warmup checkpoint, 1: fork checkpoint */
	size_t fork;	     /**< 1-based */
	size_t iteration;    /**< 1-based iteration of the fork it follows */
	const double
	    *values;	 /**< the warmup / fork vector (owned by the fsm; valid until next call) */
	size_t n_values; /**< 0 while the vector does not exist yet */
	int stable;	 /**< the stable function said stable: "stop" */
	int bound;	 /**< wi_max / f_max reached: the phase ends whatever stable says */
	int err;	 /**< BS_* error of the criterion (treated as not stable), 0 if none */
	uint64_t compute_ns; /**< time spent computing this checkpoint */
};

/** State; fields are read-only for callers. */
struct bs_stop_fsm {
	struct bs_stop_plan p;
	double t; /**< threshold in effect */
	struct bs_stopper *st;
	size_t fork;		  /**< current fork, 1-based; 0 before the first */
	enum bs_stop_phase phase; /**< phase of the next iteration of the current fork */
	size_t wi, mi;		  /**< warmup / measurement iterations of the current fork */
	int warmup_stable;	  /**< the current fork's warmup ended by stability */
	double *mx;		  /**< the current fork's measurement values */
	size_t mcap;
	double *vec; /**< last vector */
	size_t vcap;
	int done;	     /**< no further fork: forks stable or f_max reached */
	int forks_stable;    /**< the last fork checkpoint said stable */
	uint64_t compute_ns; /**< every checkpoint's computation, summed */
	size_t n_checkpoints;
};

/** Returns 0, or -EINVAL (bad plan: see bs_stop_plan_check) / -ENOMEM. */
int bs_stop_fsm_init(struct bs_stop_fsm *f, const struct bs_stop_plan *p);
void bs_stop_fsm_free(struct bs_stop_fsm *f);

/** Start the next fork (warmup window forgotten). -EINVAL if done. */
int bs_stop_fsm_fork_begin(struct bs_stop_fsm *f);

/**
 * bs_stop_fsm_iter - feed the next usable iteration value v (ns, >= 0) of the
 * current fork. Returns the phase the iteration belongs to (BS_PHASE_*);
 * f->phase afterwards is the phase of the next one (BS_PHASE_AFTER: end
 * the fork). d (optional) receives the warmup checkpoint evaluated after
 * it, if any (from wi_min on).
 */
int bs_stop_fsm_iter(struct bs_stop_fsm *f, double v, struct bs_stop_decision *d);

/**
 * bs_stop_fsm_fork_end - the current fork ended (its mi iterations done, or
 * the harness stopped early: then the fork is short). Its measurement
 * iterations, if any, go to the fork vector; from f_min on the fork
 * checkpoint is evaluated into d (optional) and f->done is set when stable
 * or at f_max. Returns 0 or -ENOMEM.
 */
int bs_stop_fsm_fork_end(struct bs_stop_fsm *f, struct bs_stop_decision *d);

/** 1 if the current fork ended short of wi_min warmup or mi measurement iterations. */
int bs_stop_fsm_short(const struct bs_stop_fsm *f);

#endif
