/* SPDX-License-Identifier: MIT */
/*
 * duet.h - existing duet data to a duet trace (docs/duet-trace.md).
 *
 * Two CSV layouts, told apart by their header (columns in any order, extra
 * columns ignored, names case-sensitive):
 *  - processed: the duet package's processed results (TomasDrozdik/
 *    asynchronous-duet, duet/constants.py) and `benchscope report --csv`:
 *    benchmark, type (seqn | syncduet | duet; also seq | sync | async),
 *    runid (or run), pair (A | B), iteration (optional; else file order),
 *    iteration_start_ns (or start_ns), iteration_end_ns (or end_ns) and/or
 *    iteration_time_ns (or time_ns, iteration_duration_ns); optional: suite,
 *    order (or duet_order), invocations, and benchscope's interference
 *    columns (preempted_ns, runq_wait_ns, blocked_ns, irq_ns, softirq_ns,
 *    steal_ns, sched_delay_ns, nvcsw, nivcsw, migrations).
 *  - Renaissance raw (the duet package's results.renaissance.*.csv):
 *    benchmark, runid, pair, iteration, epoch_start_ms, iteration_time_ns;
 *    the iterations of a side run back to back from its epoch start; type
 *    "duet" (asynchronous) unless a type column says otherwise.
 * A run is one (benchmark, type, runid); runs are numbered in the order of
 * their earliest iteration; runid becomes the run's index within its method.
 * Every (run, side) gets a synthetic pid, BS_IMPORT_PID_BASE + 2 run + side.
 */
#ifndef BENCHSCOPE_IMPORT_DUET_H
#define BENCHSCOPE_IMPORT_DUET_H

#include <stdbool.h>
#include <stddef.h>

#define BS_IMPORT_PID_BASE 1000000u

struct bs_import_opts {
	bool aa;	       /**< mark the trace as an A/A test */
	const char *benchmark; /**< CONTEXT benchmark label (NULL: the data's, if one) */
};

struct bs_import_result {
	const char *layout; /**< "processed" or "renaissance" */
	size_t rows, runs, benchmarks;
};

/**
 * bs_import_duet_csv - read @csv_path and write the duet trace @trace_path
 * (aside, then renamed over it; a @trace_path that exists and is not a
 * regular file is refused before anything is read).
 * Returns 0; -EINVAL with "FILE:LINE: ..." (or "FILE: ...") in @err for bad
 * input (missing column, bad number, unknown pair or type, duplicate or
 * overlapping iterations, no data row) or a @trace_path that is a device,
 * directory, FIFO or socket; -errno (cannot read or write) with
 * a one-line message; -ENOMEM.
 */
int bs_import_duet_csv(const char *csv_path, const char *trace_path, const struct bs_import_opts *o,
		       struct bs_import_result *res, char *err, size_t errlen);

#endif
