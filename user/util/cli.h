/* SPDX-License-Identifier: MIT */
/* cli.h - small helpers shared by the subcommands' option parsing. */
#ifndef BENCHSCOPE_CLI_H
#define BENCHSCOPE_CLI_H

#include <argp.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

/**
 * Parse a whole decimal number in [min, max] (no trailing garbage, unlike atoi).
 * Returns 0, or -EINVAL (not a number) / -ERANGE (out of range); *out untouched on error.
 */
int bs_parse_long(const char *s, long min, long max, long *out);

/**
 * bs_parse_u64 - parse a whole decimal number in [min, max] of the full
 * unsigned 64-bit range (a seed, a count): as bs_parse_long, but a leading
 * '-' is refused (strtoull would wrap it). Returns 0, -EINVAL or -ERANGE;
 * *out untouched on error.
 */
int bs_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/** Parse a finite floating-point number in [min, max]. 0, -EINVAL or -ERANGE. */
int bs_parse_double(const char *s, double min, double max, double *out);

/**
 * bs_parse_min_overlap - parse the async pairing threshold of --min-overlap
 * (duet, report): a finite ratio M with 0 < M < 1 (0 is refused: the
 * analysis reads 0 as "not given" and would use the default 0.4). Returns
 * 0, -EINVAL (not a number) or -ERANGE; *out untouched on error.
 */
int bs_parse_min_overlap(const char *s, double *out);

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
 * bs_cpu_range_add - add the CPUs of one token, "N" or "N-M" (N <= M <
 * CPU_SETSIZE), to @set. Returns 0 or -EINVAL (@set may then hold part).
 */
int bs_cpu_range_add(const char *tok, cpu_set_t *set);

/**
 * bs_parse_cpu_list - a CPU list as the kernel writes them ("0", "0,2",
 * "1-3,6") into @set (cleared first). Returns 0 or -EINVAL (empty, a bad
 * token); -ENOMEM.
 */
int bs_parse_cpu_list(const char *s, cpu_set_t *set);

/**
 * Report a usage error of subcommand cmd on stderr, as one line:
 * "benchscope CMD: MESSAGE (see benchscope CMD --help)". Returns 2, the exit
 * status of bad usage, so that a caller can `return bs_usage_error(...)`.
 */
__attribute__((format(printf, 2, 3))) int bs_usage_error(const char *cmd, const char *fmt, ...);

/**
 * bs_argp_parse - parse a subcommand's options with argp, each usage error
 * reported as one line (bs_usage_error) and returned, not exit(3)ed:
 * argp's own messages, exits, --usage and -? are off (ARGP_NO_ERRS,
 * ARGP_NO_HELP). @argp's parser reports a bad value or argument with
 * bs_argp_error(); an unknown option or an option without its value is
 * reported here ("unknown option or missing value: 'WORD'"). -h and --help
 * print argp's help of @argp on stdout, its usage line
 * "Usage: SYNOPSIS [OPTION...]" (@synopsis, e.g. "benchscope report TRACE";
 * @argp's args_doc should be NULL). argv[0] names the subcommand in errors.
 * The arguments (not options) are collected here, not given to @argp's
 * parser: args[0] the first, args[1] the second (when @max_args is 2),
 * NULL when absent (the options come first, so a command checks for
 * missing arguments after them); one past @max_args (1 or 2) is a usage
 * error, "unexpected argument 'WORD'".
 * Returns true when the command is to go on; false when it is to return
 * *status: 0 after the help, 2 (BS_EXIT_USAGE) after a usage error.
 */
bool bs_argp_parse(const struct argp *argp, const char *synopsis, int argc, char **argv,
		   void *input, const char *args[2], int max_args, int *status);

/**
 * bs_argp_parse_args - bs_argp_parse() for commands that take a list of
 * arguments: args[0..*n) receive the first @cap of them (the others are
 * not kept; pass @cap = argc to keep every one), the rest as there.
 */
bool bs_argp_parse_args(const struct argp *argp, const char *synopsis, int argc, char **argv,
			void *input, const char **args, size_t cap, size_t *n, int *status);

/**
 * bs_argp_parse_own - bs_argp_parse() for commands whose parser takes its
 * arguments itself (ARGP_KEY_ARG, ARGP_KEY_ARGS, ARGP_KEY_NO_ARGS: a
 * command to run after "--"); @flags are argp_parse's (ARGP_IN_ORDER),
 * with ARGP_NO_ERRS and ARGP_NO_HELP added. The parser and its children
 * report bad values with `return bs_argp_error(...)`, never argp_error
 * (which is silent under ARGP_NO_ERRS). Returns as bs_argp_parse.
 */
bool bs_argp_parse_own(const struct argp *argp, const char *synopsis, unsigned flags, int argc,
		       char **argv, void *input, int *status);

/**
 * bs_argp_error - in a parser run by bs_argp_parse: report a usage error of
 * the subcommand (state->name, from argv[0]) as one line (bs_usage_error)
 * and return the error that ends the parse (ECANCELED), as in
 * `return bs_argp_error(state, "--top wants a count, not '%s'", arg);`.
 */
__attribute__((format(printf, 2, 3))) error_t bs_argp_error(const struct argp_state *state,
							    const char *fmt, ...);

#endif
