// SPDX-License-Identifier: MIT
/*
 * cmd_report.c - `benchscope report TRACE [--json FILE|-] [--csv FILE|-]
 * [--md FILE|-] [--top N] [--quiet]`: every output from a trace alone.
 * A duet trace (CONTEXT "mode": "duet") gets the duet report
 * (duet_report.h), with --plot, --min-overlap, --seed, --no-mds and
 * --drop-warmup-half.
 * Exit status: 0 ok, 1 an output could not be written, 2 usage error or
 * unreadable trace (one line "benchscope report: ..." on stderr).
 */
#include "commands.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "trace/dataset.h"
#include "duet/report.h"
#include "report/render.h"
#include "util/output.h"

static const char usage_text[] =
    "Usage: benchscope report TRACE [--json FILE|-] [--csv FILE|-] [--md FILE|-]\n"
    "                         [--top N] [--quiet]\n"
    "Render the summary of a benchscope trace, and any export, from the trace alone.\n"
    "\n"
    "  --json FILE   write the JSON export (docs/json-schema.md); '-' for stdout\n"
    "  --csv FILE    write one CSV row per iteration; '-' for stdout\n"
    "  --md FILE     write the summary as Markdown; '-' for stdout\n"
    "  --top N       list the N largest interferers (default 5)\n"
    "  -q, --quiet   do not print the summary table\n"
    "  -h, --help    show this help\n"
    "\n"
    "Duet traces (benchscope duet, benchscope import) get the duet report; also:\n"
    "  --plot FILE         overlap timeline picture, FILE.svg or FILE.png (gnuplot)\n"
    "  --min-overlap M     async pairing threshold, 0 < M < 1 (default: the trace's, else 0.4)\n"
    "  --seed N            bootstrap seed (default 1)\n"
    "  --no-mds            skip the minimal detectable slowdown search\n"
    "  --drop-warmup-half  drop the first half of each run's iterations (Java suites)\n"
    "\n"
    "The table goes to stdout unless an export does. At most one export may use '-'.\n"
    "\n"
    "Examples:\n"
    "  benchscope report benchscope.trace\n"
    "  benchscope report run.trace --json run.json --csv run.csv\n"
    "  benchscope report run.trace --md - > run.md\n"
    "\n" BS_EXIT_STATUS_HELP "\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", required_argument, NULL, 'j'},
	    {"csv", required_argument, NULL, 'c'},
	    {"md", required_argument, NULL, 'm'},
	    {"top", required_argument, NULL, 't'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {"plot", required_argument, NULL, 'P'},
	    {"min-overlap", required_argument, NULL, 'M'},
	    {"seed", required_argument, NULL, 'S'},
	    {"no-mds", no_argument, NULL, 'N'},
	    {"drop-warmup-half", no_argument, NULL, 'W'},
	    {NULL, 0, NULL, 0},
	};
	struct bs_report_opts opts = {.top_n = BS_REPORT_TOP_DEFAULT};
	struct bs_duet_report_opts dopts = {.seed = 1};
	const char *duet_only = NULL;
	struct bs_dataset *ds = NULL;
	char err[512];
	int opt, ret, to_stdout = 0;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			opts.json_path = optarg;
			break;
		case 'c':
			opts.csv_path = optarg;
			break;
		case 'm':
			opts.md_path = optarg;
			break;
		case 'q':
			opts.no_table = 1;
			break;
		case 't': {
			char *end;
			unsigned long n;

			errno = 0;
			n = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-' || n > 100000)
				return bs_usage_error(
				    "report", "--top wants a count from 0 to 100000, not '%s'",
				    optarg);
			opts.top_n = n;
			break;
		}
		case 'P':
			dopts.plot_path = optarg;
			duet_only = "--plot";
			break;
		case 'M': {
			char *end;

			errno = 0;
			dopts.min_overlap = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(dopts.min_overlap > 0) ||
			    !(dopts.min_overlap < 1))
				return bs_usage_error(
				    "report",
				    "--min-overlap wants a ratio between 0 and 1, not '%s'",
				    optarg);
			duet_only = "--min-overlap";
			break;
		}
		case 'S': {
			char *end;

			errno = 0;
			dopts.seed = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || optarg[0] == '-')
				return bs_usage_error(
				    "report", "--seed wants a non-negative integer, not '%s'",
				    optarg);
			duet_only = "--seed";
			break;
		}
		case 'N':
			dopts.no_mds = true;
			duet_only = "--no-mds";
			break;
		case 'W':
			dopts.drop_warmup_half = true;
			duet_only = "--drop-warmup-half";
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return bs_usage_error("report", "unknown option or missing value: '%s'",
					      argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return bs_usage_error("report", "%s", "no trace given");
	if (optind + 1 < argc)
		return bs_usage_error("report", "unexpected argument '%s'", argv[optind + 1]);
	to_stdout = bs_output_is_stdout(opts.json_path) + bs_output_is_stdout(opts.csv_path) +
		    bs_output_is_stdout(opts.md_path);
	if (to_stdout > 1)
		return bs_usage_error("report", "%s", "only one export can go to stdout ('-')");

	bs_stats_init();
	ret = bs_dataset_load(argv[optind], &ds, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "benchscope report: %s\n", err);
		return 2;
	}
	if (bs_dataset_is_duet(ds)) {
		dopts.json_path = opts.json_path;
		dopts.csv_path = opts.csv_path;
		dopts.md_path = opts.md_path;
		dopts.no_table = opts.no_table;
		ret = bs_duet_report_render(ds, &dopts, NULL, err, sizeof(err));
		bs_dataset_free(ds);
		if (ret)
			fprintf(stderr, "benchscope report: %s\n", err);
		return !ret ? 0 : ret == -EINVAL ? 2 : 1;
	}
	if (duet_only) {
		bs_dataset_free(ds);
		return bs_usage_error("report", "%s applies to duet traces only", duet_only);
	}
	ret = bs_report_render(ds, &opts);
	bs_dataset_free(ds);
	return ret ? 1 : 0;
}
