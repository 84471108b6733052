/* SPDX-License-Identifier: MIT */
/*
 * stop_options.h - the options of `benchscope run` that fork the harness
 * under dynamic reconfiguration (stop_run.h; Laaber et al. 2020): --stop,
 * --warmup, --measure, --forks, --threshold, --window, --grace, --seed.
 * An argp child parser: run's help shows them as its group 4, "Forks and
 * dynamic reconfiguration".
 */
#ifndef BENCHSCOPE_STOP_OPTIONS_H
#define BENCHSCOPE_STOP_OPTIONS_H

#include <argp.h>
#include <stdbool.h>

#include "stop/stop_fsm.h"

/** What the options asked for. */
struct bs_stop_options {
	struct bs_stop_plan plan; /**< default: bs_stop_plan_default(0), no criterion */
	bool forked;   /**< any of --stop (not none), --warmup, --measure, --forks given */
	long grace_ms; /**< SIGTERM -> SIGKILL delay when ending a fork, ms; default 2000 */
};

/**
 * bs_stop_argp - the child parser of these options. Its input is the
 * struct bs_stop_options the parent hands it in state->child_inputs at
 * ARGP_KEY_INIT; it sets the defaults there. A bad value is an argp_error
 * naming the option and the value, e.g. "--forks takes MIN:MAX (whole
 * numbers >= 1, MIN <= MAX), not '0:3'"; MIN > MAX is left to
 * bs_stop_plan_check.
 */
extern const struct argp bs_stop_argp;

#endif
