/* SPDX-License-Identifier: MIT */
/*
 * measure_options.h - the options of `benchscope run` that set up its
 * measurement session (measure.h): --user, --ringbuf-size,
 * --no-interferers, --no-calibrate, --calibrate-calls, --verbose. An argp
 * child parser: run's help shows them as its group 3, "Running".
 */
#ifndef BENCHSCOPE_MEASURE_OPTIONS_H
#define BENCHSCOPE_MEASURE_OPTIONS_H

#include <argp.h>

/**
 * bs_measure_argp - the child parser of these options. Its input is the
 * struct bs_measure_opts the parent hands it in state->child_inputs at
 * ARGP_KEY_INIT; it sets there the defaults of the fields it owns: user
 * NULL, ringbuf_bytes 16 MiB, interferers and calibrate true, calib_calls
 * 2000, verbose false. A bad value is an argp_error naming the option and
 * the value, e.g. "--ringbuf-size takes a power of two from 1 to 4096
 * (MiB), not '3'".
 */
extern const struct argp bs_measure_argp;

/** The one-line error of a bad --ringbuf-size (a printf format with one %s: the value). */
#define BS_RINGBUF_USAGE "--ringbuf-size takes a power of two from 1 to 4096 (MiB), not '%s'"

/**
 * bs_parse_ringbuf_mib - parse --ringbuf-size: a power of two from 1 to 4096
 * (MiB) into *@mib. 0, or -EINVAL (*@mib untouched).
 */
int bs_parse_ringbuf_mib(const char *s, long *mib);

#endif
