// SPDX-License-Identifier: MIT
/* stop_options.c - run's options of forks and dynamic reconfiguration (see stop_options.h). */
#include "stop/stop_options.h"

#include <limits.h>
#include <stdint.h>

#include "util/cli.h"

enum {
	OPT_STOP = 0x200,
	OPT_WARMUP,
	OPT_MEASURE,
	OPT_FORKS,
	OPT_THRESHOLD,
	OPT_WINDOW,
	OPT_GRACE,
	OPT_SEED,
};

static const struct argp_option stop_options[] = {
    {NULL, 0, NULL, 0, "Forks and dynamic reconfiguration (Laaber et al. 2020):", 4},
    {"stop", OPT_STOP, "CRITERION", 0,
     "cv, rciw, kld: fork the harness and stop warmup and forks once stable; none (default): "
     "one run, or with --forks a fixed configuration",
     4},
    {"warmup", OPT_WARMUP, "MIN:MAX", 0, "warmup iterations per fork (default 5:50)", 4},
    {"measure", OPT_MEASURE, "N", 0, "measurement iterations per fork (default 10)", 4},
    {"forks", OPT_FORKS, "MIN:MAX", 0, "forks (default 2:5)", 4},
    {"threshold", OPT_THRESHOLD, "T", 0,
     "stability threshold (default 0.01 cv, 0.03 rciw, 0.99 kld)", 4},
    {"window", OPT_WINDOW, "S", 0, "warmup sliding window s_W (default 5; >= 2 with cv, rciw)", 4},
    {"grace", OPT_GRACE, "MS", 0, "SIGTERM to SIGKILL delay when ending a fork (default 2000)", 4},
    {"seed", OPT_SEED, "N", 0, "RCIW resampling seed (default 1)", 4},
    {0}};

static error_t stop_parse(int key, char *arg, struct argp_state *state)
{
	struct bs_stop_options *a = state->input;
	long range[2];

	switch (key) {
	case ARGP_KEY_INIT:
		a->plan = bs_stop_plan_default(0);
		a->forked = false;
		a->grace_ms = 2000;
		break;
	case OPT_STOP: {
		int c = bs_stop_crit_parse(arg);

		if (c < 0)
			return bs_argp_error(state, "--stop takes cv, rciw, kld or none, not '%s'",
					     arg);
		a->plan.crit = c;
		a->forked |= c != 0;
		break;
	}
	/* "MIN:MAX", lo <= MIN, MAX <= BS_STOP_MAX_ITERS (MIN > MAX is reported by
	 * the plan check, with both numbers) */
	case OPT_WARMUP:
		if (bs_parse_range(arg, 2, 0, BS_STOP_MAX_ITERS, range))
			return bs_argp_error(
			    state, "--warmup takes MIN:MAX (whole numbers, MIN <= MAX), not '%s'",
			    arg);
		a->plan.wi_min = (size_t)range[0];
		a->plan.wi_max = (size_t)range[1];
		a->forked = true;
		break;
	case OPT_FORKS:
		if (bs_parse_range(arg, 2, 1, BS_STOP_MAX_ITERS, range))
			return bs_argp_error(
			    state,
			    "--forks takes MIN:MAX (whole numbers >= 1, MIN <= MAX), not '%s'",
			    arg);
		a->plan.f_min = (size_t)range[0];
		a->plan.f_max = (size_t)range[1];
		a->forked = true;
		break;
	case OPT_MEASURE: {
		long v;

		if (bs_parse_long(arg, 1, BS_STOP_MAX_ITERS, &v))
			return bs_argp_error(
			    state, "--measure takes a whole number from 1 to %d, not '%s'",
			    BS_STOP_MAX_ITERS, arg);
		a->plan.mi = (size_t)v;
		a->forked = true;
		break;
	}
	case OPT_WINDOW: {
		long v;

		if (bs_parse_long(arg, 1, 1000, &v))
			return bs_argp_error(
			    state, "--window takes a whole number from 1 to 1000, not '%s'", arg);
		a->plan.window = (size_t)v;
		break;
	}
	case OPT_THRESHOLD:
		if (bs_stop_threshold_parse(arg, &a->plan.threshold))
			return bs_argp_error(state,
					     "--threshold takes a number in (0, 1], not '%s'", arg);
		break;
	case OPT_GRACE:
		if (bs_parse_long(arg, 0, 600000, &a->grace_ms))
			return bs_argp_error(
			    state, "--grace takes milliseconds from 0 to 600000, not '%s'", arg);
		break;
	case OPT_SEED: {
		long v;

		if (bs_parse_long(arg, 0, LONG_MAX, &v))
			return bs_argp_error(state, "--seed takes a whole number >= 0, not '%s'",
					     arg);
		a->plan.seed = (uint64_t)v;
		break;
	}
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bs_stop_argp = {.options = stop_options, .parser = stop_parse};
