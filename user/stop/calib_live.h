/* SPDX-License-Identifier: MIT */
/*
 * calib_live.h - a harness's calibration rule (trace/calib_rule.h) applied
 * to one process's runs as they arrive (`run --stop`, stop_run.h): run i is
 * decided once run i + 1 is known (or the process has ended), the same as
 * the rule decides it on runs[0..i+1], in O(1) amortised time a run.
 */
#ifndef BENCHSCOPE_CALIB_LIVE_H
#define BENCHSCOPE_CALIB_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/calib_rule.h"

struct bs_calib_live {
	bs_calib_rule rule;
	struct bs_iter_rec *runs;	/**< the sequence's runs so far (copies) */
	const struct bs_iter_rec **ptr; /**< n pointers into runs, for the rule */
	bool *calib;			/**< the rule's decisions on runs[0..n) */
	size_t n, cap;
	struct bs_calib_state st; /**< the rule's progress */
};

/** bs_calib_live_init - an empty sequence for @rule (not NULL); nothing allocated yet. */
void bs_calib_live_init(struct bs_calib_live *l, bs_calib_rule rule);

/**
 * bs_calib_live_push - append a copy of run @r to the sequence and let the
 * rule read it. Returns 0, or -ENOMEM (the sequence is unchanged).
 */
int bs_calib_live_push(struct bs_calib_live *l, const struct bs_iter_rec *r);

/**
 * bs_calib_live_calib - whether run @i (< l->n) is calibration, as the rule
 * decides it on the runs pushed so far: final for i + 2 <= l->n (one run of
 * lookahead), and for the last run once the sequence is over.
 */
bool bs_calib_live_calib(const struct bs_calib_live *l, size_t i);

/** bs_calib_live_reset - start a new sequence (a new process); keeps the memory. */
void bs_calib_live_reset(struct bs_calib_live *l);

/** bs_calib_live_free - free the memory (then init again to reuse). */
void bs_calib_live_free(struct bs_calib_live *l);

#endif
