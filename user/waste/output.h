/* SPDX-License-Identifier: MIT */
/*
 * waste/output.h - the end of a `benchscope waste` run, and --from-trace:
 * the run's summary (settings, counters, overhead) into the result and the
 * trace, the trace's END, then the outputs: the report on stdout (unless
 * --json - or --folded - take stdout), --folded, --json (waste/report.h
 * renders them).
 */
#ifndef BENCHSCOPE_WASTE_OUTPUT_H
#define BENCHSCOPE_WASTE_OUTPUT_H

#include <signal.h>

#include "waste/profiler.h"

/**
 * bs_waste_report - after bs_waste_finish(): the summary of run @w
 * (*@interrupted and *@stray_traps, SIGTRAPs benchscope itself received,
 * included) into w->res and the trace, the trace's END written and the
 * trace closed; then the outputs. 0, or 1 when an output file cannot be
 * written (the reason on stderr).
 */
int bs_waste_report(struct bs_waste_run *w, const volatile sig_atomic_t *interrupted,
		    const volatile sig_atomic_t *stray_traps);

/**
 * bs_waste_from_trace - --from-trace: the outputs of @a for the trace
 * a->from_trace, as the run that wrote it printed them. 0; 2 when the
 * trace is missing, unreadable, corrupt or holds no waste records; 1
 * otherwise (out of memory, an output cannot be written); the reason on
 * stderr.
 */
int bs_waste_from_trace(struct bs_waste_args *a);

#endif
