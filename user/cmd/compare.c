// SPDX-License-Identifier: MIT
/*
 * compare.c - `benchscope compare [OPTIONS] A.trace B.trace`: the
 * benchmarks of two run traces compared (compare/analysis.h), as a table,
 * JSON or CSV, with an exit status a CI job can gate on.
 * Exit status: 0 ok; 1 an output could not be written; 2 usage error or bad
 * input (one line "benchscope compare: ..." on stderr); 3 no benchmark
 * could be tested (each lacks statistics or a possible test); 5 a
 * regression beyond --fail-on-regression.
 * On a terminal, unless -q, a live line on stderr counts the benchmarks
 * analysed ("analysing benchmark 3 of 40: NAME", util/progress.h), erased
 * before anything is printed.
 */
#include "commands.h"

#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchscope/stats.h"
#include "compare/analysis.h"
#include "compare/render.h"
#include "compare/side.h"
#include "trace/dataset.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "util/output.h"
#include "util/progress.h"

struct compare_args {
	struct bs_cmp_opts opts;
	const char *json_path, *csv_path;
	bool quiet;
};

enum {
	OPT_JSON = 0x100,
	OPT_CSV,
	OPT_FAIL,
	OPT_SEED,
	OPT_RESAMPLES,
	OPT_LEVEL,
	OPT_ALPHA,
};

static const struct argp_option compare_options[] = {
    {"json", OPT_JSON, "FILE", 0, "write the comparison as JSON; '-' for stdout", 1},
    {"csv", OPT_CSV, "FILE", 0, "write one CSV row per benchmark; '-' for stdout", 1},
    {"quiet", 'q', NULL, 0, "do not print the table, nor the progress line", 1},
    {"fail-on-regression", OPT_FAIL, "PCT", 0,
     "exit 5 when a benchmark is slower (CI and U test) with its CI above PCT %", 1},
    {"seed", OPT_SEED, "N", 0, "bootstrap seed (default 1)", 2},
    {"resamples", OPT_RESAMPLES, "N", 0, "bootstrap resamples (default 10000)", 2},
    {"level", OPT_LEVEL, "L", 0, "confidence level of the intervals (default 0.95)", 2},
    {"alpha", OPT_ALPHA, "A", 0, "significance level of the U test (default 0.05)", 2},
    {0},
};

static const char compare_doc[] =
    "Compare the benchmarks of two run traces (benchscope run, run --stop, import): "
    "per benchmark the ratio B/A of mean time with its bootstrap CI, a Mann-Whitney U "
    "test, the minimal detectable slowdown and noise flags; a geometric mean over "
    "them.\v"
    "Benchmarks are matched by name (unnamed ones, e.g. Google Benchmark 1.7's, by "
    "order: #1, #2, ...). A benchmark is called slower or faster only when its CI "
    "excludes 1 and the U test has p < alpha. A duet trace compares A and B itself: "
    "use benchscope report on it.\n"
    "\n"
    "Examples:\n"
    "  benchscope compare main.trace branch.trace\n"
    "  benchscope compare --fail-on-regression 5 main.trace branch.trace\n"
    "  benchscope compare a.trace b.trace --json - | jq '.benchmarks[].delta_pct'\n"
    "\n" BS_EXIT_STATUS_HELP;

static error_t compare_parse(int key, char *arg, struct argp_state *state)
{
	struct compare_args *a = state->input;
	long n;

	switch (key) {
	case OPT_JSON:
		a->json_path = arg;
		break;
	case OPT_CSV:
		a->csv_path = arg;
		break;
	case 'q':
		a->quiet = true;
		break;
	case OPT_FAIL:
		if (bs_parse_double(arg, 0, 1e6, &a->opts.fail_pct))
			return bs_argp_error(
			    state, "--fail-on-regression takes a percentage >= 0, not '%s'", arg);
		break;
	case OPT_SEED:
		if (bs_parse_long(arg, 0, LONG_MAX, &n))
			return bs_argp_error(state, "--seed wants a non-negative integer, not '%s'",
					     arg);
		a->opts.seed = (uint64_t)n;
		break;
	case OPT_RESAMPLES:
		if (bs_parse_long(arg, 100, 10000000, &n))
			return bs_argp_error(state, "--resamples wants 100 to 10000000, not '%s'",
					     arg);
		a->opts.n_resamples = (size_t)n;
		break;
	case OPT_LEVEL:
		if (bs_parse_double(arg, 0.5, 0.9999, &a->opts.level))
			return bs_argp_error(state, "--level wants 0.5 to 0.9999, not '%s'", arg);
		break;
	case OPT_ALPHA:
		if (bs_parse_double(arg, 1e-6, 0.5, &a->opts.alpha))
			return bs_argp_error(state, "--alpha wants 0.000001 to 0.5, not '%s'", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* write one export; 0 or 1 (the error line printed) */
static int export(const char *path, const struct bs_cmp_input *in, const struct bs_cmp_result *r,
		  bool json)
{
	char err[512];
	FILE *f;
	int ret;

	if (!path)
		return 0;
	f = bs_output_open(path, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "benchscope compare: %s\n", err);
		return 1;
	}
	ret = json ? bs_cmp_render_json(f, in, r) : bs_cmp_render_csv(f, r);
	if (bs_output_close(f) || ret) {
		fprintf(stderr, "benchscope compare: cannot write %s\n", bs_output_name(path));
		return 1;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct argp argp = {compare_options, compare_parse, NULL, compare_doc, NULL, NULL, NULL};
	struct compare_args a = {.opts = {.fail_pct = NAN, .seed = 1}};
	struct bs_dataset *ds[2] = {NULL, NULL};
	struct bs_cmp_side side[2] = {{0}};
	struct bs_cmp_result res = {0};
	struct bs_cmp_input in;
	struct bs_progress line;
	struct bs_steps steps;
	const char *args[2];
	char err[768];
	int ret, st = BS_EXIT_USAGE;

	if (!bs_argp_parse(&argp, "benchscope compare A.trace B.trace", argc, argv, &a, args, 2,
			   &ret))
		return ret;
	if (!args[0] || !args[1])
		return bs_usage_error("compare", "%s", "two traces wanted: A.trace B.trace");
	if (bs_output_is_stdout(a.json_path) && bs_output_is_stdout(a.csv_path))
		return bs_usage_error("compare", "%s", "only one export can go to stdout ('-')");
	bs_stats_init();
	for (int s = 0; s < 2; s++) {
		ret = bs_dataset_load(args[s], &ds[s], err, sizeof(err));
		if (!ret)
			ret = bs_cmp_side_load(ds[s], args[s], &side[s], err, sizeof(err));
		if (ret) {
			fprintf(stderr, "benchscope compare: %s\n", err);
			st = ret == -ENOMEM ? BS_EXIT_RUNTIME : BS_EXIT_USAGE;
			goto out;
		}
	}
	bs_progress_init(&line, "analysing benchmark", !a.quiet);
	steps = bs_progress_steps(&line);
	a.opts.steps = &steps;
	ret = bs_cmp_analyze(&side[0], &side[1], &a.opts, &res, err, sizeof(err));
	bs_progress_done(&line);
	if (ret) {
		fprintf(stderr, "benchscope compare: %s\n", err);
		st = ret == -ENOMEM ? BS_EXIT_RUNTIME : BS_EXIT_USAGE;
		goto out;
	}
	in = (struct bs_cmp_input){{args[0], args[1]}, {&side[0], &side[1]}};
	st = BS_EXIT_OK;
	if (!a.quiet && !bs_output_is_stdout(a.json_path) && !bs_output_is_stdout(a.csv_path)) {
		/* its -EIO is stdout's error flag, which bs_output_flush_stdout reads */
		bs_cmp_render_table(stdout, &in, &res);
		if (bs_output_flush_stdout(err, sizeof(err))) {
			fprintf(stderr, "benchscope compare: %s\n", err);
			st = BS_EXIT_RUNTIME;
		}
	}
	if (export(a.json_path, &in, &res, true) | export(a.csv_path, &in, &res, false))
		st = BS_EXIT_RUNTIME;
	if (st == BS_EXIT_OK && res.n_regressions) {
		for (size_t i = 0; i < res.n_rows; i++)
			if (res.rows[i].regression)
				fprintf(stderr,
					"benchscope compare: %s is %.2f %% slower (CI [%.2f, %.2f] "
					"%%), "
					"beyond --fail-on-regression %g %%\n",
					res.rows[i].name, (res.rows[i].ratio.point - 1) * 100,
					(res.rows[i].ratio.lo - 1) * 100,
					(res.rows[i].ratio.hi - 1) * 100, a.opts.fail_pct);
		st = BS_EXIT_REGRESSION;
	}
	if (st == BS_EXIT_OK && res.n_rows && res.n_untested == res.n_rows) {
		fprintf(stderr,
			"benchscope compare: no benchmark could be tested (%zu of %zu without "
			"statistics or without a possible test: see their verdicts)\n",
			res.n_untested, res.n_rows);
		st = BS_EXIT_NO_DATA;
	} else if (st == BS_EXIT_OK && res.n_untested && isfinite(a.opts.fail_pct)) {
		fprintf(stderr,
			"benchscope compare: %zu of %zu benchmarks not tested: the gate covers the "
			"other %zu\n",
			res.n_untested, res.n_rows, res.n_rows - res.n_untested);
	}
out:
	bs_cmp_result_free(&res);
	for (int s = 0; s < 2; s++) {
		bs_cmp_side_free(&side[s]);
		bs_dataset_free(ds[s]);
	}
	return st;
}
