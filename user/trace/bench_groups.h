/* SPDX-License-Identifier: MIT */
/*
 * bench_groups.h - which benchmark each iteration of a trace belongs to, and
 * which iterations are the harness's calibration or warmup iterations rather
 * than measurements.
 *
 * Where the harness names its benchmarks (BENCH records: Go's testing.B
 * name, criterion's id, Catch2's name), iterations are grouped by name, and
 * the preset's rule decides, per benchmark and process (pid and instance: a
 * pid reused in the trace is two processes, proc_inst.h), which of them are
 * calibration. Without names (Google Benchmark 1.7 keeps none in State),
 * Google Benchmark's own grouping applies (gbench_runs.h: streaks of one
 * invocation count per thread).
 */
#ifndef BENCHSCOPE_BENCH_GROUPS_H
#define BENCHSCOPE_BENCH_GROUPS_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/calib_rule.h" /* bs_calib_rule */
#include "trace/dataset.h"
#include "trace/gbench_runs.h" /* BS_GBENCH_CALIBRATION */

/**
 * bs_calib_growing - the rule of harnesses that size their runs by time
 * (Google Benchmark 1.7 benchmark_runner.cc, Go 1.19 testing.B.launch): a
 * run without a valid invocation count, or followed by a run with MORE
 * invocations, is calibration; every other run is a measurement. A
 * bs_calib_rule (calib_rule.h: @st NULL, or the progress so far).
 */
void bs_calib_growing(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
		      struct bs_calib_state *st);

/**
 * bs_calib_none - the rule of imported results (boundaries.kind "import",
 * user/import/): every sample is a measurement; the importer already flagged
 * the harness's warmup samples. A bs_calib_rule.
 */
void bs_calib_none(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
		   struct bs_calib_state *st);

/**
 * bs_kind_calibrates - whether the harnesses of a boundaries kind (CONTEXT
 * boundaries.kind) run calibration or estimation runs before they measure
 * ("gbench", "catch2", ...), which bs_calib_rule_for's rule tells apart.
 */
bool bs_kind_calibrates(const char *kind);

/**
 * bs_calib_rule_for - the rule for a trace's boundaries kind (CONTEXT
 * boundaries.kind: "gbench", "go", ...); bs_calib_growing unless the preset
 * has its own ("import": bs_calib_none). NULL kind: bs_calib_growing.
 */
bs_calib_rule bs_calib_rule_for(const char *kind);

/**
 * bs_dataset_has_benches - whether the report groups @ds's iterations by
 * benchmark: the boundaries are "gbench" (benchmarks told apart by their
 * runs) or the harness named its benchmarks (BENCH records).
 */
bool bs_dataset_has_benches(const struct bs_dataset *ds);

/**
 * bs_bench_group - group iterations by benchmark.
 * @ds: the trace (its BENCH names and boundaries kind; NULL: no names);
 * @iters: n pointers to iteration records of @ds (any subset, trace order);
 * @group: n entries, written: BS_GBENCH_CALIBRATION for a calibration run
 *   (or, without names, a run without a valid count), else the benchmark's
 *   index from 0, in order of first measurement run;
 * @names: NULL, or n entries, written: names[g] for each benchmark g
 *   returned, the harness's name (pointing into @ds), or NULL where the
 *   harness names none (then benchmarks are numbered, as in gbench_runs.h).
 * Returns the number of benchmarks, or -EINVAL / -ENOMEM.
 */
long bs_bench_group(const struct bs_dataset *ds, const struct bs_iter_rec *const *iters, size_t n,
		    long *group, const char **names);

#endif
