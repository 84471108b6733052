/* SPDX-License-Identifier: MIT */
/*
 * progress.h - a live progress line on stderr while long work runs.
 * Quiet when stderr is not a terminal (CI logs, pipes).
 */
#ifndef BENCHSCOPE_PROGRESS_H
#define BENCHSCOPE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct bs_progress {
	bool tty;	 /**< stderr is a terminal */
	bool shown;	 /**< a line is on screen */
	double start_ns; /**< CLOCK_MONOTONIC at init */
	double last_ns;	 /**< last redraw */
	const char *what;
};

/** Start; `what` names the count ("iterations"). */
void bs_progress_init(struct bs_progress *p, const char *what);

/**
 * Redraw at most 5 times a second: count, rate, elapsed and, when total > 0,
 * percent and ETA.
 */
void bs_progress_update(struct bs_progress *p, uint64_t done, uint64_t total);

/** Erase the line. */
void bs_progress_done(struct bs_progress *p);

#endif
