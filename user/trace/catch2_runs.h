/* SPDX-License-Identifier: MIT */
/*
 * catch2_runs.h - tell Catch2's estimation runs from its samples, from the
 * trace alone.
 *
 * Catch2 (2.x catch.hpp and 3.x, Benchmark::prepare and
 * run_for_at_least) times each benchmark in two phases, both through
 * Chronometer::measure, so both reach the trace as iterations:
 *   1. estimation: runs of 1, 2, 4, 8, ... invocations (seed 1, doubled)
 *      until one lasts the warmup time (--benchmark-warmup-time, 100 ms by
 *      default, at least 1000 clock ticks);
 *   2. samples: --benchmark-samples runs (100 by default) of
 *      iterations_per_sample invocations each, the same count for all,
 *      never more than the last estimation run's (ceil(min_time x
 *      iterations / elapsed) with elapsed >= min_time).
 * (Its warmup, Detail::repeat(now<Clock>), and the clock's resolution and
 * cost estimates call no Chronometer: they are not in the trace.)
 *
 * Google Benchmark's rule (a run followed by a run with MORE invocations
 * is calibration) does not fit: the last estimation run is followed by
 * the samples, which have fewer invocations, and would count as a
 * measurement although it lasts the whole warmup time.
 */
#ifndef BENCHSCOPE_CATCH2_RUNS_H
#define BENCHSCOPE_CATCH2_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "benchscope/record.h"
#include "trace/calib_rule.h"

/**
 * bs_catch2_calibration - which iterations of one Catch2 benchmark are not
 * measurements.
 * @runs:  runs[0..n): the iterations of ONE benchmark of one process, in
 *         begin order (the same benchmark may have been run several times,
 *         e.g. from a SECTION or a GENERATE: each time starts again at 1)
 * @n:     their count
 * @calib: calib[0..n), written: true for an estimation run and for an
 *         iteration without a valid invocation count (BS_ITER_F_INVOC unset)
 * @st:    NULL, or the progress of earlier calls (a bs_calib_rule, calib_rule.h)
 *
 * The runs are read as the phases above: a chain 1, 2, 4, ... is
 * estimation; the first count that breaks it starts the samples, and the
 * samples go on while the count stays the same. In the samples, a count of
 * 1 starts a new estimation chain (when the samples themselves have 1
 * invocation, a 1 followed by a 2 does); any other new count starts new
 * samples. Limit: with one invocation per sample, a re-run of the benchmark
 * whose estimation is that single run of 1 is one more sample.
 */
void bs_catch2_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
			   struct bs_calib_state *st);

#endif
