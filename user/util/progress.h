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

/**
 * Like bs_progress_update, but the line is @fmt's text (e.g. "fork 2 of at
 * most 10, 812 iterations"), then the elapsed time and, when total > 0 and
 * 0 < done <= total, the ETA from done of total.
 */
void bs_progress_text(struct bs_progress *p, uint64_t done, uint64_t total, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/**
 * Erase the line before something else is printed on stderr; the next
 * update draws it again at once.
 */
void bs_progress_clear(struct bs_progress *p);

/**
 * Print one line (@fmt, a newline added) on the line's stream (stderr),
 * whether or not the line is on: erase the line first, and let the next
 * update draw it again at once. For warnings and errors while it runs.
 */
void bs_progress_msg(struct bs_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Erase the line. */
void bs_progress_done(struct bs_progress *p);

#endif
