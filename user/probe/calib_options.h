/* SPDX-License-Identifier: MIT */
/*
 * calib_options.h - the options of a probe-cost measurement, shared by
 * `benchscope calibrate` and `benchscope doctor`: --calls N (probe hits per
 * round, 10 to 100000000) and --rounds N (1 to 101; the median is kept).
 */
#ifndef BENCHSCOPE_CALIB_OPTIONS_H
#define BENCHSCOPE_CALIB_OPTIONS_H

#include <argp.h>

struct bs_calib_options {
	long calls;  /**< probe hits per round */
	long rounds; /**< rounds; the median is reported */
};

/**
 * bs_calib_argp - an argp child parser of --calls and --rounds. Its input
 * is the struct bs_calib_options the parent hands it in
 * state->child_inputs at ARGP_KEY_INIT, with the parent's defaults already
 * set. A value out of range is an argp_error (one line, exit 2).
 */
extern const struct argp bs_calib_argp;

#endif
