/* SPDX-License-Identifier: MIT */
/*
 * progress.h - a live progress line on stderr while long work runs.
 *
 * The line is drawn only when the caller enables it (callers pass !quiet)
 * and stderr is a terminal: CI logs and pipes get nothing. Whether stderr
 * is a terminal is decided here alone (bs_progress_init); callers never
 * call isatty themselves.
 *
 * Beside a harness (run, duet, waste CMD) the line has no newline, so
 * whatever the harness prints to the same terminal would land at its end.
 * There the line is drawn only when the harness's output does not reach
 * the terminal (bs_progress_beside_harness): `run` and `waste CMD` draw it
 * when benchscope's stdout, which the harness inherits, is not a terminal
 * (redirected); `duet` when the harness's output is discarded (its default,
 * not --harness-output).
 */
#ifndef BENCHSCOPE_PROGRESS_H
#define BENCHSCOPE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/steps.h"

struct bs_progress {
	FILE *out;	 /**< where the line goes (stderr) */
	bool tty;	 /**< out is a terminal */
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

/**
 * Like bs_progress_msg, but only when the line's stream is a terminal,
 * whether or not the caller enabled the line (the caller checks -q): for
 * status lines that a log need not hold (the trace has them).
 */
void bs_progress_note(struct bs_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Erase the line. */
void bs_progress_done(struct bs_progress *p);

/** The longest name (bytes) bs_progress_steps's line shows; longer ones are cut, "...". */
#define BS_PROGRESS_NAME_MAX 40

/**
 * bs_progress_steps - a steps hook (util/steps.h) drawing on @p, for a count
 * of units an analysis reports: "WHAT N of TOTAL: NAME", WHAT the line's
 * `what` ("analysing benchmark"), N the unit under way (done + 1), NAME cut
 * to BS_PROGRESS_NAME_MAX bytes, then the elapsed time and the ETA
 * (bs_progress_text). Elapsed time and ETA run from the count's first step
 * (done 0), so work before it (reading a trace) does not skew the ETA. The
 * step with done == total erases the line. Nothing is drawn unless @p is
 * on (bs_progress_init: enabled and on a terminal).
 */
struct bs_steps bs_progress_steps(struct bs_progress *p);

/**
 * bs_progress_beside_harness - whether a live line may be drawn while a
 * harness runs: stderr (the line's stream) is a terminal and the harness's
 * output does not go to a terminal. Pure: @err_tty, @harness_out_tty are
 * the isatty results.
 */
bool bs_progress_beside_harness(bool err_tty, bool harness_out_tty);

/**
 * bs_progress_beside_harness_here - bs_progress_beside_harness for this
 * process: the harness's output is on a terminal when it inherits
 * benchscope's stdout (@inherits_stdout) or stderr (@inherits_stderr) and
 * that is one. `run` passes (true, false): its harness also inherits stderr,
 * but most harnesses print their results on stdout, and a check of stderr
 * would leave no line at all.
 */
bool bs_progress_beside_harness_here(bool inherits_stdout, bool inherits_stderr);

#endif
