// SPDX-License-Identifier: MIT
/*
 * import.c - `benchscope import --format duet-csv FILE -o TRACE [--aa]
 * [--name LABEL]`: existing duet data (the duet package's processed CSV,
 * `benchscope report --csv` output, or the raw Renaissance CSV) as a duet
 * trace that `benchscope report` analyses (import_duet.h).
 * Exit status: 0 ok, 1 the trace could not be written, 2 usage or bad input
 * (one line "benchscope import: ..." on stderr).
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "import/duet.h"

struct import_args {
	struct bs_import_opts o;
	const char *format, *out;
};

enum { OPT_FORMAT = 0x100, OPT_AA, OPT_NAME };

static const struct argp_option import_options[] = {
    {"format", OPT_FORMAT, "duet-csv", 0,
     "the duet package's processed CSV (benchmark, type, runid, pair, iteration, "
     "iteration_start_ns, iteration_end_ns, iteration_time_ns; also `benchscope report --csv` "
     "output), or its raw Renaissance CSV (epoch_start_ms, iteration_time_ns; iterations back "
     "to back)",
     0},
    {"output", 'o', "TRACE", 0, "the trace to write (default benchscope.trace)", 0},
    {"aa", OPT_AA, NULL, 0, "mark the data as an A/A test (A and B the same program)", 0},
    {"name", OPT_NAME, "LABEL", 0, "the benchmark label of the report", 0},
    {0},
};

static const char import_doc[] =
    "Write a duet trace from existing duet data; `benchscope report TRACE` analyses it.\v"
    "Columns may come in any order; extra columns are ignored.\n"
    "\n"
    "Examples:\n"
    "  benchscope import --format duet-csv results.csv -o duet.trace\n"
    "  benchscope report duet.trace --plot duet.svg\n"
    "\n" BS_EXIT_STATUS_HELP;

static error_t import_parse(int key, char *arg, struct argp_state *state)
{
	struct import_args *a = state->input;

	switch (key) {
	case OPT_FORMAT:
		a->format = arg;
		break;
	case 'o':
		a->out = arg;
		break;
	case OPT_AA:
		a->o.aa = true;
		break;
	case OPT_NAME:
		a->o.benchmark = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct argp argp = {import_options, import_parse, NULL, import_doc, NULL, NULL, NULL};
	struct import_args a = {.out = "benchscope.trace"};
	struct bs_import_result res;
	char err[600];
	const char *args[2];
	int ret;

	if (!bs_argp_parse(&argp, "benchscope import --format duet-csv FILE", argc, argv, &a, args,
			   &ret))
		return ret;
	if (!a.format)
		return bs_usage_error("import", "%s", "--format is required (duet-csv)");
	if (strcmp(a.format, "duet-csv"))
		return bs_usage_error("import", "unknown format '%s' (known: duet-csv)", a.format);
	if (!args[0])
		return bs_usage_error("import", "%s", "no input file given");
	if (args[1])
		return bs_usage_error("import", "unexpected argument '%s'", args[1]);
	ret = bs_import_duet_csv(args[0], a.out, &a.o, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "benchscope import: %s\n", err);
		return ret == -EINVAL || ret == -ENOENT ? 2 : 1;
	}
	printf("imported %zu iterations of %zu runs (%zu benchmark%s, %s layout) from %s into %s\n",
	       res.rows, res.runs, res.benchmarks, res.benchmarks == 1 ? "" : "s", res.layout,
	       args[0], a.out);
	return 0;
}
