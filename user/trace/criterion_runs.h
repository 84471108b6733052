/* SPDX-License-Identifier: MIT */
/*
 * criterion_runs.h - tell criterion.rs's warm-up runs from its samples.
 *
 * criterion (0.3.6 routine.rs; 0.5 the same) runs each benchmark as:
 *  - warm-up: Bencher::iter with iters 1, 2, 4, 8, ... (doubling) until
 *    --warm-up-time has passed;
 *  - samples: sample_size (>= 10) runs with iters d, 2d, 3d, ..., n*d
 *    (linear sampling) or n runs of d (flat sampling), d sized from the
 *    warm-up's mean time (lib.rs ActualSamplingMode::iteration_counts).
 * Google Benchmark's rule (a run followed by a bigger one is calibration)
 * would call every sample but the last one calibration here.
 */
#ifndef BENCHSCOPE_CRITERION_RUNS_H
#define BENCHSCOPE_CRITERION_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "benchscope/record.h"

/**
 * bs_criterion_calibration - which runs of one criterion benchmark of one
 * process are not samples.
 * @runs: n iteration records of ONE benchmark of one process, in begin order;
 * @calib: n entries, written: true for warm-up runs and runs without a valid
 *   invocation count, false for samples.
 *
 * When the probes marked warm-up runs (BS_ITER_F_HARNESS_WARMUP, set by the
 * BPF probe on Routine::warm_up), those are the warm-up. Otherwise, from the
 * invocation counts alone: the warm-up is a prefix 1, 2, 4, ..., and the
 * samples that follow are linear (d, 2d, 3d, ...) or flat (d, d, ...). The
 * doubling prefix may swallow the first two samples (d = twice the last
 * warm-up count makes d, 2d continue the doubling), so the split is taken
 * at most two runs before the prefix ends: the latest one after which three
 * or more runs remain and are linear or flat (with three or more, only the
 * true split is linear; flat samples equal to the last warm-up count stay
 * samples); failing that (a run cut short after fewer than three samples),
 * the earliest one after which the rest fits. When nothing fits, the
 * doubling prefix is the warm-up. Ambiguous by counts alone, and so decided
 * by the marks only: flat samples of d = twice the last warm-up count (the
 * first one is taken for warm-up).
 */
void bs_criterion_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib);

#endif
