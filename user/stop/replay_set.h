/* SPDX-License-Identifier: MIT */
/*
 * replay_set.h - `benchscope replay` over a set of traces: each trace (one
 * benchmark, recorded with a fixed long configuration) loaded
 * (replay_load.h), replayed under every criterion (replay_core.h), and the
 * results totalled per criterion (Laaber et al. 2020 §5.4, Tables 2 and
 * 3). replay_report.h shows them.
 */
#ifndef BENCHSCOPE_REPLAY_SET_H
#define BENCHSCOPE_REPLAY_SET_H

#include <stddef.h>
#include <stdint.h>

#include "stop/replay_core.h"
#include "stop/replay_load.h"
#include "stop/stop_fsm.h"
#include "util/steps.h"

/** One trace replayed under one criterion. */
struct bs_replay_row {
	const char *name;	   /**< the trace's file name, without its directory */
	struct bs_replay_result r; /**< free with bs_replay_result_free */
	int ok;			   /**< r was computed */
};

/** Totals of one criterion over the traces (Tables 2 and 3). A trace without
 * an A/A result (r.aa_err: e.g. the dynamic configuration measured nothing)
 * has no change rate and no A/A verdict: it is left out of every total. */
struct bs_replay_total {
	double t_static, t_dyn, compute; /**< ns, summed over the traces */
	size_t n;			 /**< traces counted */
	size_t left_out;		 /**< traces left out: no A/A result */
	size_t same;			 /**< traces whose A/A test says unchanged */
	size_t below[3];		 /**< traces whose change rate is below 1, 2, 3 % */
	double cr_sum, cr_sq;		 /**< change rates, summed and squares summed */
	double warm_sum, forks_sum;	 /**< mean warmup iterations and forks used, summed */
};

/** A replay of a set of traces: its settings (the options) and its results. */
struct bs_replay_set {
	struct bs_stop_plan plan; /**< the dynamic configuration (plan.crit unused) */
	int crits[3];		  /**< the criteria replayed, enum bs_criterion, in order */
	size_t n_crits;
	struct bs_replay_static st; /**< the static baseline <WI, MI, F> */
	double level;		    /**< of the A/A test's CI, e.g. 0.99 */
	long resamples;		    /**< of the A/A bootstrap, e.g. 10000 */
	uint64_t seed;		    /**< of the A/A bootstrap */
	char **paths;		    /**< the traces, as given */
	int n_traces;
	/** told of each replay (a trace under a criterion) as it starts, and of
	 *  the end (util/steps.h); NULL: none */
	const struct bs_steps *steps;
	/* results of bs_replay_set_run */
	struct bs_replay_trace *tr;    /**< per trace: its recorded forks */
	struct bs_replay_row *rows;    /**< n_traces x n_crits, trace by trace */
	struct bs_replay_total tot[3]; /**< per criterion (zeroed by the caller) */
};

/**
 * bs_replay_set_run - load every trace of @s (each must hold the static
 * configuration s->st: bs_replay_check), replay it under every criterion
 * of s->crits and add its results to the criterion's totals.
 * Returns 0; or -errno with one line in @err: "out of memory" (-ENOMEM),
 * or "PATH: REASON" for a trace that cannot be read, holds no forks or too
 * few, or cannot be replayed (-ENOMEM, or another -errno: bad input);
 * -ENODATA for a truncated trace without one complete fork. A truncated
 * trace with forks is replayed (its complete forks: a fork's EVENT is
 * written at its end), with one warning line on stderr saying how many
 * forks and usable iterations it holds (before any replay). s->steps hears
 * of every replay (N of n_traces x n_crits; "TRACE, CRITERION") and, before
 * it returns, of the end. Free with bs_replay_set_free either way.
 */
int bs_replay_set_run(struct bs_replay_set *s, char *err, size_t errlen);

/** bs_replay_set_free - free the results of @s (not its settings); NULL-tolerant parts. */
void bs_replay_set_free(struct bs_replay_set *s);

#endif
