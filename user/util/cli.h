/* SPDX-License-Identifier: MIT */
/* cli.h - small helpers shared by the subcommands' option parsing. */
#ifndef BENCHSCOPE_CLI_H
#define BENCHSCOPE_CLI_H

/**
 * Parse a whole decimal number in [min, max] (no trailing garbage, unlike atoi).
 * Returns 0, or -EINVAL (not a number) / -ERANGE (out of range); *out untouched on error.
 */
int bs_parse_long(const char *s, long min, long max, long *out);

/** Parse a finite floating-point number in [min, max]. 0, -EINVAL or -ERANGE. */
int bs_parse_double(const char *s, double min, double max, double *out);

/**
 * Report a usage error of subcommand cmd on stderr, as one line:
 * "benchscope CMD: MESSAGE (see benchscope CMD --help)". Returns 2, the exit
 * status of bad usage, so that a caller can `return bs_usage_error(...)`.
 */
__attribute__((format(printf, 2, 3))) int bs_usage_error(const char *cmd, const char *fmt, ...);

#endif
