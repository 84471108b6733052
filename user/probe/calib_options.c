// SPDX-License-Identifier: MIT
/* calib_options.c - --calls and --rounds of calibrate and doctor (see calib_options.h). */
#include "probe/calib_options.h"
#include "util/cli.h"

static const struct argp_option calib_options[] = {
    {"calls", 'n', "N", 0, "probe hits per round (10 to 100000000)", 0},
    {"rounds", 'r', "N", 0, "rounds; the median is reported (1 to 101)", 0},
    {0}};

static error_t calib_parse(int key, char *arg, struct argp_state *state)
{
	struct bs_calib_options *o = state->input;

	switch (key) {
	case 'n':
		if (bs_parse_long(arg, 10, 100000000, &o->calls))
			return bs_argp_error(
			    state, "--calls takes a whole number from 10 to 100000000, not '%s'",
			    arg);
		break;
	case 'r':
		if (bs_parse_long(arg, 1, 101, &o->rounds))
			return bs_argp_error(
			    state, "--rounds takes a whole number from 1 to 101, not '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bs_calib_argp = {.options = calib_options, .parser = calib_parse};
