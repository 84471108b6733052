// SPDX-License-Identifier: MIT
/* measure_options.c - run's options of the measurement session (see measure_options.h). */
#include <errno.h>

#include "probe/measure_options.h"

#include "probe/measure.h"
#include "probe/session.h"
#include "util/cli.h"

enum {
	OPT_USER = 0x300,
	OPT_RINGBUF,
	OPT_NO_INTERF,
	OPT_NO_CALIB,
	OPT_CALIB_CALLS,
};

static const struct argp_option measure_options[] = {
    {NULL, 0, NULL, 0, "Running:", 3},
    {"user", OPT_USER, "NAME", 0, "run CMD as this user (benchscope keeps its privileges)", 3},
    {"ringbuf-size", OPT_RINGBUF, "MIB", 0, "ring buffer size in MiB, a power of two (default 16)",
     3},
    {"no-interferers", OPT_NO_INTERF, NULL, 0, "do not account which tasks took the CPU", 3},
    {"no-calibrate", OPT_NO_CALIB, NULL, 0, "do not measure the probe cost at start", 3},
    {"calibrate-calls", OPT_CALIB_CALLS, "N", 0, "probe hits per calibration round (default 2000)",
     3},
    {"verbose", 'v', NULL, 0,
     "print libbpf's messages (verifier log); run --forks: the line per fork off a terminal too",
     3},
    {0}};

int bs_parse_ringbuf_mib(const char *s, long *mib)
{
	long v;

	if (bs_parse_long(s, 1, 4096, &v) || (v & (v - 1)))
		return -EINVAL;
	*mib = v;
	return 0;
}

static error_t measure_parse(int key, char *arg, struct argp_state *state)
{
	struct bs_measure_opts *o = state->input;
	long v;

	switch (key) {
	case ARGP_KEY_INIT:
		o->user = NULL;
		o->ringbuf_bytes = (size_t)16 << 20;
		o->interferers = true;
		o->calibrate = true;
		o->calib_calls = 2000;
		o->verbose = false;
		break;
	case OPT_USER:
		if (!bs_session_user_known(arg))
			return bs_argp_error(state, BS_USER_USAGE, arg);
		o->user = arg;
		break;
	case OPT_RINGBUF:
		if (bs_parse_ringbuf_mib(arg, &v))
			return bs_argp_error(state, BS_RINGBUF_USAGE, arg);
		o->ringbuf_bytes = (size_t)v << 20;
		break;
	case OPT_NO_INTERF:
		o->interferers = false;
		break;
	case OPT_NO_CALIB:
		o->calibrate = false;
		break;
	case OPT_CALIB_CALLS:
		if (bs_parse_long(arg, 10, 10000000, &v))
			return bs_argp_error(
			    state,
			    "--calibrate-calls takes a whole number from 10 to 10000000, not '%s'",
			    arg);
		o->calib_calls = (int)v;
		break;
	case 'v':
		o->verbose = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bs_measure_argp = {.options = measure_options, .parser = measure_parse};
