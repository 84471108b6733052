/* SPDX-License-Identifier: MIT */
/*
 * progress.h - a live progress line on stderr while long work runs.
 *
 * The line is drawn only when the caller enables it (callers pass !quiet)
 * and stderr is a terminal: CI logs and pipes get nothing. Whether stderr
 * is a terminal is decided here alone (bs_progress_init); callers never
 * call isatty themselves.
 */
#ifndef BENCHSCOPE_PROGRESS_H
#define BENCHSCOPE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct bs_progress {
	FILE *out;	 /**< where the line goes (stderr) */
	bool on;	 /**< enabled by the caller and out is a terminal */
	bool shown;	 /**< a line is on screen */
	double start_ns; /**< CLOCK_MONOTONIC at init */
	double last_ns;	 /**< last redraw */
	const char *what;
};

/**
 * Start a line on stderr; `what` names the count ("iterations"). Nothing
 * is ever drawn unless `enabled` (callers pass !quiet) and stderr is a
 * terminal.
 */
void bs_progress_init(struct bs_progress *p, const char *what, bool enabled);

/** bs_progress_init on @out instead of stderr (tests drive it with a pty). */
void bs_progress_init_on(struct bs_progress *p, FILE *out, const char *what, bool enabled);

/**
 * Redraw at most 4 times a second: count, rate, elapsed and, when total > 0,
 * percent and ETA.
 */
void bs_progress_update(struct bs_progress *p, uint64_t done, uint64_t total);

/** Erase the line. */
void bs_progress_done(struct bs_progress *p);

#endif
