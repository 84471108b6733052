/* SPDX-License-Identifier: MIT */
/*
 * criterion_runs.h - tell criterion.rs's warm-up runs from its samples.
 *
 * criterion (0.3.6 routine.rs and lib.rs; 0.5 the same) runs each
 * benchmark as:
 *  - warm-up: Bencher::iter with iters 1, 2, 4, 8, ... (doubling) until
 *    --warm-up-time has passed (Routine::warm_up);
 *  - samples: sample_size (>= 10) runs with iters d, 2d, 3d, ..., n*d
 *    (linear sampling) or n runs of d (flat sampling), d sized from the
 *    warm-up's mean time (ActualSamplingMode::iteration_counts).
 * Google Benchmark's rule (a run followed by a bigger one is calibration)
 * would call every linear sample but the last one calibration.
 */
#ifndef BENCHSCOPE_CRITERION_RUNS_H
#define BENCHSCOPE_CRITERION_RUNS_H

#include <stdbool.h>
#include <stddef.h>

#include "benchscope/record.h"
#include "trace/calib_rule.h"

/**
 * bs_criterion_calibration - which runs of one criterion benchmark of one
 * process are not samples.
 * @runs: n iteration records of ONE benchmark of one process, in begin order;
 * @calib: n entries, written: true for warm-up runs and runs without a valid
 *   invocation count (BS_ITER_F_INVOC unset), false for samples;
 * @st: NULL, or the progress of earlier calls (a bs_calib_rule, calib_rule.h).
 *
 * Where the probes marked warm-up runs (BS_ITER_F_HARNESS_WARMUP: the BPF
 * probe on Routine::warm_up; any run of the benchmark marked), the marked
 * runs are the warm-up: exact. Otherwise (a binary whose warm_up was
 * inlined), from the counts: the chain 1, 2, 4, ... that the benchmark
 * starts with is the warm-up, the rest samples. Limit of the counts alone:
 * when the first samples continue the chain (linear d = twice the last
 * warm-up count makes d and 2d continue it; flat d = twice it, the first
 * sample), they are taken for warm-up.
 *
 * The decision for run i depends on runs[0..i] only (the marks, or the
 * chain so far), as bench_groups.h's rules must for `run --stop`.
 */
void bs_criterion_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
			      struct bs_calib_state *st);

#endif
