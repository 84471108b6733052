/* SPDX-License-Identifier: MIT */
/*
 * calib_rule.h - the shape of a preset's calibration rule (bench_groups.h),
 * so that it can be applied to a whole sequence of runs at once (trace
 * analysis) or as the runs arrive (`run --stop`, stop/calib_live.h) in
 * linear time.
 */
#ifndef BENCHSCOPE_CALIB_RULE_H
#define BENCHSCOPE_CALIB_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"

/**
 * A rule's progress through one sequence of runs; zero it before the
 * sequence's first run. done: runs[0..done) have been read; the other
 * members belong to the rule (each rule documents none of them to callers).
 */
struct bs_calib_state {
	size_t done;
	size_t prev;				 /**< rule's own */
	uint64_t expect;			 /**< rule's own */
	uint64_t k;				 /**< rule's own */
	bool has_prev, sampling, marked, broken; /**< rule's own */
};

/**
 * A preset's calibration rule: runs[0..n) are the iterations of ONE
 * benchmark of one process, in begin order; it sets calib[i] to true for
 * those that are not measurements, false for the others.
 *
 * @st: NULL: runs[0..n) are the whole sequence, calib[0..n) is written.
 *   Else the progress of earlier calls on the same sequence (same runs and
 *   calib arrays, growing n): the rule reads runs[st->done..n) (and what it
 *   kept in *st), writes calib so that calib[0..n) is what one call with
 *   NULL on runs[0..n) would write (it may rewrite earlier entries), and
 *   sets st->done = n. Over a sequence of N runs fed one at a time, the
 *   calls read O(N) runs in all.
 *
 * The decision for run i may depend on runs[0..i+1] only (one run of
 * lookahead), so that `run --stop` can apply the rule live, as the runs
 * arrive.
 */
typedef void (*bs_calib_rule)(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
			      struct bs_calib_state *st);

#endif
