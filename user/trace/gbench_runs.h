/* SPDX-License-Identifier: MIT */
/*
 * gbench_runs.h - tell Google Benchmark's calibration runs from its
 * measurement runs, and measurement runs of one benchmark from the next,
 * from the trace alone.
 *
 * Google Benchmark (1.7, benchmark_runner.cc) sizes each benchmark by time:
 * it runs it with a growing invocation count (1, 10, 100, ... as predicted
 * from the previous run) until a run lasts --benchmark_min_time, then runs
 * the repetitions with that count. So, per thread: a run followed by a run
 * with MORE invocations is a calibration run; every other run is a
 * measurement run, and consecutive measurement runs with the same count are
 * repetitions of one benchmark. Limits: two consecutive benchmarks with the
 * same fixed ->Iterations(n) merge into one group.
 */
#ifndef BENCHSCOPE_GBENCH_RUNS_H
#define BENCHSCOPE_GBENCH_RUNS_H

#include <stddef.h>

#include "benchscope/record.h"

#define BS_GBENCH_CALIBRATION (-1L)

/**
 * Classify n runs (records in trace order, any threads mixed).
 * group[i] (n entries, written) = BS_GBENCH_CALIBRATION for a calibration
 * run or a run without a valid invocation count, else the index of its
 * benchmark, from 0, in order of first measurement run.
 * Returns the number of benchmarks, or -EINVAL / -ENOMEM.
 */
long bs_gbench_group_runs(const struct bs_iter_rec *iters, size_t n, long *group);

#endif
