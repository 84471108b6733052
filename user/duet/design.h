/* SPDX-License-Identifier: MIT */
/*
 * design.h - the duet's noise check and the design it picks.
 *
 * Before its runs, `duet` checks the machine's CPUs for a few seconds
 * (user/noise/check.h: a calibrated loop on each CPU alone, then on all at
 * once) and stores the result in the trace's CONTEXT. With --method auto
 * (the default) the check's recommendation becomes the design:
 *   parallel (two CPUs independent and of one speed): async, A and B
 *     pinned apart and exchanged in half the runs (--crossover), so the
 *     run-level model can cancel what CPU speed remains;
 *   one-cpu (no such pair: coupled vCPUs, hidden host contention) or a
 *     single CPU: interleaved on the steadiest CPU, the sides taking turns
 *     one iteration each, so neither carries the other CPU's speed.
 * With --noise-every N the check runs again after every N rounds, and
 * each result is an EVENT of the trace (docs/duet-trace.md).
 */
#ifndef BENCHSCOPE_DUET_DESIGN_H
#define BENCHSCOPE_DUET_DESIGN_H

#include <json-c/json.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "duet/options.h"
#include "duet/setup.h"
#include "noise/check.h"
#include "noise/verdict.h"

/** The noise checks of a duet and how its design was chosen. */
struct bs_duet_design {
	bool checked;			 /**< the check before the runs ran */
	struct bs_noise_opts opts;	 /**< its options (the CPUs checked), kept for
					  *   --noise-every */
	struct bs_noise_result noise;	 /**< its samples */
	struct bs_noise_verdict verdict; /**< its verdict */
	bool picked;			 /**< --method auto chose the methods from it */
	char why[512];			 /**< the design and why, one sentence */
};

/**
 * bs_duet_design_check - run the noise check before the runs (unless
 * --noise-check 0) on the CPUs the sides may use (--cpus A and B's union,
 * else every CPU benchscope may use), for a->noise_s seconds, with a live
 * line on a terminal unless a->quiet. With --method auto, set s->methods,
 * the placement and s->crossover from its verdict and plan the runs
 * (bs_duet_setup_plan). Fills @d (free with bs_duet_design_free).
 * Returns 0, or -errno with one line in @err: the check failed (no CPU,
 * threads, affinity) or the plan could not be made.
 */
int bs_duet_design_check(const struct bs_duet_args *a, struct bs_duet_setup *s,
			 struct bs_duet_design *d, char *err, size_t errlen);

/**
 * bs_duet_design_json - the CONTEXT members `duet.design` ({"picked_by":
 * "auto" | "option", "methods", "why"}) and `duet.noise_check` (the
 * check's JSON, docs/json-schema.md "Noise check"; absent when no check
 * ran), added to @duet.
 */
void bs_duet_design_json(const struct bs_duet_design *d, const struct bs_duet_setup *s,
			 json_object *duet);

/**
 * bs_duet_design_recheck - run the check again with the first one's
 * options (between rounds, --noise-every), with its progress line as the
 * first one's (none with -q; the caller clears its own). Returns a new EVENT
 * object {"kind": "noise_check", "before_run": @before_run, "check":
 * {...}} for the trace, or NULL with one line in @err when the check
 * failed (the duet goes on without it).
 */
json_object *bs_duet_design_recheck(const struct bs_duet_design *d, size_t before_run, char *err,
				    size_t errlen);

/** Free what d holds (its noise samples and verdict, left zeroed), not d
 * itself; d must not be NULL (not NULL-safe). A zeroed or already freed
 * design is fine. */
void bs_duet_design_free(struct bs_duet_design *d);

#endif
