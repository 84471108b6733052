/* SPDX-License-Identifier: MIT */
/*
 * run_all.h - the runs of `benchscope duet`, one after the other, in an
 * open measurement session: each run's records routed to its result as
 * they arrive, its "duet_run" EVENT written, a failed run reported, the
 * --stop-ci check after each run, a live count of the runs on stderr; and
 * the END block. One run is run.h (bs_duet_run_one).
 */
#ifndef BENCHSCOPE_DUET_RUN_ALL_H
#define BENCHSCOPE_DUET_RUN_ALL_H

#include <json-c/json.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "duet/design.h"
#include "duet/options.h"
#include "duet/setup.h"
#include "probe/measure.h"

/** How the runs went. */
struct bs_duet_tally {
	size_t n_done;	     /**< runs done, ok or failed */
	size_t n_ok;	     /**< runs usable for the analysis */
	bool stopped_early;  /**< --stop-ci stopped before the last planned run */
	bool measure_failed; /**< a run's measurement failed (runtime error) */
	char self_cpus[128]; /**< the CPUs benchscope kept to, off the sides' ("" none) */
};

/**
 * bs_duet_run_all - run s->plan in order in the open session @m, until the
 * plan ends, --stop-ci (a->stop_ci) says the CI is narrow enough, a run's
 * measurement fails, or *interrupted is set. Each run's EVENT goes to the
 * trace; a failed run is reported in one line on stderr. With
 * a->noise_every, the noise check @d ran first is repeated after every
 * noise_every rounds (s->n_methods runs each) and goes to the trace as an
 * EVENT; a check that fails is a warning on stderr.
 * Returns 0 with *t filled and *end a new END block ("status_runs",
 * "interrupted", "wall_ns") for bs_measure_finish; or 1 (BS_EXIT_RUNTIME),
 * without END block, after one line "benchscope duet: ..." when the sync
 * runs' release thread cannot start or memory runs out. The hooks of @m
 * are cleared on return.
 */
int bs_duet_run_all(struct bs_measure *m, const struct bs_duet_args *a,
		    const struct bs_duet_setup *s, const struct bs_duet_design *d,
		    volatile sig_atomic_t *interrupted, struct bs_duet_tally *t, json_object **end);

#endif
