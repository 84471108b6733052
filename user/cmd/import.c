// SPDX-License-Identifier: MIT
/*
 * cmd_import.c - `benchscope import --format duet-csv FILE -o TRACE [--aa]
 * [--name LABEL]`: existing duet data (the duet package's processed CSV,
 * `benchscope report --csv` output, or the raw Renaissance CSV) as a duet
 * trace that `benchscope report` analyses (import_duet.h).
 * Exit status: 0 ok, 1 the trace could not be written, 2 usage or bad input
 * (one line "benchscope import: ..." on stderr).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "import/duet.h"

static const char usage_text[] =
    "Usage: benchscope import --format duet-csv FILE -o TRACE [--aa] [--name LABEL]\n"
    "Write a duet trace from existing duet data; `benchscope report TRACE` analyses it.\n"
    "\n"
    "  --format duet-csv  the duet package's processed CSV (benchmark, type, runid, pair,\n"
    "                     iteration, iteration_start_ns, iteration_end_ns, iteration_time_ns;\n"
    "                     also `benchscope report --csv` output), or its raw Renaissance CSV\n"
    "                     (epoch_start_ms, iteration_time_ns; iterations back to back)\n"
    "  -o, --output TRACE the trace to write (default benchscope.trace)\n"
    "  --aa               mark the data as an A/A test (A and B the same program)\n"
    "  --name LABEL       the benchmark label of the report\n"
    "  -h, --help         show this help\n"
    "\n"
    "Columns may come in any order; extra columns are ignored.\n"
    "\n"
    "Examples:\n"
    "  benchscope import --format duet-csv results.csv -o duet.trace\n"
    "  benchscope report duet.trace --plot duet.svg\n"
    "\n" BS_EXIT_STATUS_HELP "\n";

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"format", required_argument, NULL, 'f'}, {"output", required_argument, NULL, 'o'},
	    {"aa", no_argument, NULL, 'a'},	      {"name", required_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},	      {NULL, 0, NULL, 0},
	};
	struct bs_import_opts o = {0};
	struct bs_import_result res;
	const char *format = NULL, *out = "benchscope.trace";
	char err[600];
	int opt, ret;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			format = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'a':
			o.aa = true;
			break;
		case 'n':
			o.benchmark = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return bs_usage_error("import", "unknown option or missing value: '%s'",
					      argv[optind - 1]);
		}
	}
	if (!format)
		return bs_usage_error("import", "%s", "--format is required (duet-csv)");
	if (strcmp(format, "duet-csv"))
		return bs_usage_error("import", "unknown format '%s' (known: duet-csv)", format);
	if (optind >= argc)
		return bs_usage_error("import", "%s", "no input file given");
	if (optind + 1 < argc)
		return bs_usage_error("import", "unexpected argument '%s'", argv[optind + 1]);
	ret = bs_import_duet_csv(argv[optind], out, &o, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "benchscope import: %s\n", err);
		return ret == -EINVAL || ret == -ENOENT ? 2 : 1;
	}
	printf("imported %zu iterations of %zu runs (%zu benchmark%s, %s layout) from %s into %s\n",
	       res.rows, res.runs, res.benchmarks, res.benchmarks == 1 ? "" : "s", res.layout,
	       argv[optind], out);
	return 0;
}
