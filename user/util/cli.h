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
 * bs_parse_range - parse @n whole numbers separated by ':', each in
 * [min, max]: "MIN:MAX" for n = 2 (--warmup 5:50, --forks 2:5, --runs
 * 5:40), "WI:MI:F" for n = 3 (--static 50:50:5), one number for n = 1.
 * Each field is read as by bs_parse_long (decimal, no trailing garbage); a
 * field may not be empty, and there are exactly @n of them (1 <= n <= 8).
 * The order of the fields (MIN <= MAX) is the caller's to check.
 * Returns 0 with out[0..n-1] set, or -EINVAL (not @n fields, a field that
 * is not a number or is 64 characters or longer) / -ERANGE (a field out of
 * [min, max]); *out untouched on error.
 */
int bs_parse_range(const char *s, int n, long min, long max, long *out);

/**
 * Report a usage error of subcommand cmd on stderr, as one line:
 * "benchscope CMD: MESSAGE (see benchscope CMD --help)". Returns 2, the exit
 * status of bad usage, so that a caller can `return bs_usage_error(...)`.
 */
__attribute__((format(printf, 2, 3))) int bs_usage_error(const char *cmd, const char *fmt, ...);

#endif
