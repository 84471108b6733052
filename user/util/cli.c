// SPDX-License-Identifier: MIT
/* cli.c - number parsing and usage errors for command-line options. */
#include "util/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bs_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int bs_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int bs_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || !isfinite(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int bs_parse_min_overlap(const char *s, double *out)
{
	double v;
	int ret = bs_parse_double(s, 0, 1, &v);

	if (ret)
		return ret;
	if (!(v > 0 && v < 1))
		return -ERANGE;
	*out = v;
	return 0;
}

int bs_parse_range(const char *s, int n, long min, long max, long *out)
{
	long v[8];
	int i, rc;

	if (!s || n < 1 || n > 8)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const char *end = i + 1 < n ? strchr(s, ':') : s + strlen(s);
		char field[64];

		if (!end || (size_t)(end - s) >= sizeof(field))
			return -EINVAL;
		memcpy(field, s, (size_t)(end - s));
		field[end - s] = 0;
		rc = bs_parse_long(field, min, max, &v[i]);
		if (rc)
			return rc;
		s = end + 1;
	}
	memcpy(out, v, (size_t)n * sizeof(*v));
	return 0;
}

static void usage_error_v(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "benchscope %s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see benchscope %s --help)\n", cmd);
}

int bs_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_error_v(cmd, fmt, ap);
	va_end(ap);
	return 2;
}

error_t bs_argp_error(const struct argp_state *state, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	usage_error_v(state->name, fmt, ap);
	va_end(ap);
	return ECANCELED; /* told: bs_argp_parse adds nothing */
}

/* What the root parser of bs_argp_parse keeps while the command's parser runs. */
struct argp_root {
	const char *synopsis;
	const char *cmd;   /**< the subcommand (argv[0]), at an error */
	void *input;	   /**< the command's, handed to its parser */
	const char **args; /**< the arguments, up to cap of them */
	size_t cap, n;	   /**< capacity of args, arguments seen (n > cap: too many) */
	const char *extra; /**< the first argument past cap */
	const char *word;  /**< argv word at an error */
	bool help;	   /**< -h/--help printed the help */
	bool pass_args;	   /**< the arguments go to the command's parser */
};

static const struct argp_option root_options[] = {
    {"help", 'h', NULL, 0, "show this help", -1},
    {0},
};

static error_t root_parse(int key, char *arg, struct argp_state *state)
{
	struct argp_root *r = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = r->input;
		return 0;
	case 'h':
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP, (char *)r->synopsis);
		r->help = true;
		return ECANCELED; /* ends the parse */
	case ARGP_KEY_ARG:
		if (r->pass_args)
			return ARGP_ERR_UNKNOWN;
		if (r->n < r->cap)
			r->args[r->n] = arg;
		else if (!r->extra)
			r->extra = arg;
		r->n++;
		return 0;
	case ARGP_KEY_ERROR:
		/* getopt's index is past the word it failed on, as getopt_long's optind */
		r->word = state->next > 0 ? state->argv[state->next - 1] : "";
		r->cmd = state->name;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* argp_parse under the root parser of @r: true to go on, else *status */
static bool parse_rooted(const struct argp *argp, unsigned flags, int argc, char **argv,
			 struct argp_root *r, int *status)
{
	const struct argp_child children[] = {{argp, 0, NULL, 0}, {0}};
	const struct argp root = {root_options, root_parse, NULL, NULL, children, NULL, NULL};
	error_t err = argp_parse(&root, argc, argv, flags | ARGP_NO_ERRS | ARGP_NO_HELP, NULL, r);

	*status = 0;
	if (!err)
		return true;
	if (r->help)
		return false;
	/* any other error is getopt's (argp_parse returns EINVAL for it) */
	if (err != ECANCELED)
		bs_usage_error(r->cmd ? r->cmd : argv[0], "unknown option or missing value: '%s'",
			       r->word);
	*status = 2;
	return false;
}

/* bs_argp_parse_args; *extra the first argument past @cap (NULL: none) */
static bool parse_args(const struct argp *argp, const char *synopsis, int argc, char **argv,
		       void *input, const char **args, size_t cap, size_t *n, const char **extra,
		       int *status)
{
	struct argp_root r = {
	    .synopsis = synopsis, .input = input, .args = args, .cap = cap, .word = ""};
	bool go_on;

	for (size_t i = 0; i < cap; i++)
		args[i] = NULL;
	go_on = parse_rooted(argp, 0, argc, argv, &r, status);
	*n = r.n < cap ? r.n : cap;
	*extra = r.extra;
	return go_on;
}

bool bs_argp_parse_args(const struct argp *argp, const char *synopsis, int argc, char **argv,
			void *input, const char **args, size_t cap, size_t *n, int *status)
{
	const char *extra;

	return parse_args(argp, synopsis, argc, argv, input, args, cap, n, &extra, status);
}

bool bs_argp_parse_own(const struct argp *argp, const char *synopsis, unsigned flags, int argc,
		       char **argv, void *input, int *status)
{
	struct argp_root r = {.synopsis = synopsis, .input = input, .word = "", .pass_args = true};

	return parse_rooted(argp, flags, argc, argv, &r, status);
}

bool bs_argp_parse(const struct argp *argp, const char *synopsis, int argc, char **argv,
		   void *input, const char *args[2], int max_args, int *status)
{
	const char *extra;
	size_t n;

	args[1] = NULL;
	if (!parse_args(argp, synopsis, argc, argv, input, args, max_args < 2 ? 1 : 2, &n, &extra,
			status))
		return false;
	if (extra) {
		*status = bs_usage_error(argv[0], "unexpected argument '%s'", extra);
		return false;
	}
	return true;
}

int bs_cpu_range_add(const char *tok, cpu_set_t *set)
{
	char *end;
	long a, b;

	a = strtol(tok, &end, 10);
	if (end == tok || a < 0)
		return -EINVAL;
	b = a;
	if (*end == '-') {
		const char *t2 = end + 1;

		b = strtol(t2, &end, 10);
		if (end == t2 || b < a)
			return -EINVAL;
	}
	if (*end || b >= CPU_SETSIZE)
		return -EINVAL;
	for (; a <= b; a++)
		CPU_SET((int)a, set);
	return 0;
}

int bs_parse_cpu_list(const char *s, cpu_set_t *set)
{
	char *copy = strdup(s ? s : ""), *save = NULL, *tok;
	int rc = 0, n = 0;

	CPU_ZERO(set);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save), n++)
		rc = bs_cpu_range_add(tok, set);
	free(copy);
	return rc ? rc : n ? 0 : -EINVAL;
}
