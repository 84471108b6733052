// SPDX-License-Identifier: MIT
/*
 * report.c - `benchscope report TRACE [--json FILE|-] [--csv FILE|-]
 * [--md FILE|-] [--top N] [--quiet]`: every output from a trace alone.
 * A duet trace (CONTEXT "mode": "duet") gets the duet report
 * (duet/report.h), with --plot, --min-overlap, --seed, --resamples, --no-mds
 * and --drop-warmup-half.
 * A fleet trace (benchscope merge) gets the fleet report (fleet/analysis.h):
 * --json, --csv, --seed, and --drop-warmup-half for duet fleets; the other
 * options are refused for fleets (usage error), --top for duet traces too.
 * Exit status: 0 ok, 1 an output could not be written, 2 usage error or
 * unreadable trace, 3 a trace cut before its CONTEXT block, 5 a regression
 * beyond --fail-on-regression PCT (duet traces) (one line
 * "benchscope report: ..." on stderr).
 * On a terminal, unless -q, a live line on stderr counts the benchmarks of
 * a duet trace analysed ("analysing benchmark 3 of 40: NAME",
 * util/progress.h), erased before anything is printed; a run trace's
 * report has no long count (its time is reading the trace and writing
 * the exports).
 */
#include "commands.h"

#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "trace/dataset.h"
#include "duet/analysis.h"
#include "duet/render.h"
#include "duet/report.h"
#include "fleet/analysis.h"
#include "report/render.h"
#include "util/output.h"
#include "util/progress.h"

struct report_args {
	struct bs_report_opts opts;
	struct bs_duet_report_opts dopts;
	const char *duet_only; /**< the last duet-only option given, or NULL */
	const char *no_fleet;  /**< the last option a fleet does not take, or NULL */
	const char *top;       /**< "--top" when given (run traces only), or NULL */
};

enum {
	OPT_JSON = 0x100,
	OPT_CSV,
	OPT_MD,
	OPT_TOP,
	OPT_PLOT,
	OPT_MIN_OVERLAP,
	OPT_SEED,
	OPT_RESAMPLES,
	OPT_FAIL,
	OPT_NO_MDS,
	OPT_DROP_WARMUP_HALF,
};

static const struct argp_option report_options[] = {
    {"json", OPT_JSON, "FILE", 0, "write the JSON export (docs/json-schema.md); '-' for stdout", 1},
    {"csv", OPT_CSV, "FILE", 0, "write one CSV row per iteration; '-' for stdout", 1},
    {"md", OPT_MD, "FILE", 0, "write the summary as Markdown; '-' for stdout", 1},
    {"top", OPT_TOP, "N", 0, "list the N largest interferers (default: the run's --top, else 5)",
     1},
    {"quiet", 'q', NULL, 0, "do not print the summary table, nor a duet's progress line", 1},
    {NULL, 0, NULL, 0,
     "Duet traces (benchscope duet, benchscope import) get the duet report; also:", 2},
    {"plot", OPT_PLOT, "FILE", 0, "overlap timeline picture, FILE.svg or FILE.png (gnuplot)", 2},
    {"min-overlap", OPT_MIN_OVERLAP, "M", 0,
     "async pairing threshold, 0 < M < 1 (default: the trace's, else 0.4)", 2},
    {"seed", OPT_SEED, "N", 0, "bootstrap seed (default: the duet's --seed, else 1)", 2},
    {"resamples", OPT_RESAMPLES, "N", 0,
     "bootstrap resamples, 100 to 1000000 (default: the duet's --resamples, else 9999)", 2},
    {"fail-on-regression", OPT_FAIL, "PCT", 0,
     "exit 5 when a benchmark's headline verdict has B slower by more than PCT % (default "
     "gate, not exiting 5: the duet's own)",
     2},
    {"no-mds", OPT_NO_MDS, NULL, 0, "skip the minimal detectable slowdown search", 2},
    {"drop-warmup-half", OPT_DROP_WARMUP_HALF, NULL, 0,
     "drop the first half of each run's iterations (Java suites)", 2},
    {0},
};

static const char report_doc[] =
    "Render the summary of a benchscope trace, and any export, from the trace alone.\v"
    "The table goes to stdout unless an export does. At most one export may use '-'.\n"
    "\n"
    "Examples:\n"
    "  benchscope report benchscope.trace\n"
    "  benchscope report run.trace --json run.json --csv run.csv\n"
    "  benchscope report run.trace --md - > run.md\n"
    "\n" BS_EXIT_STATUS_HELP;

static error_t report_parse(int key, char *arg, struct argp_state *state)
{
	struct report_args *a = state->input;

	switch (key) {
	case OPT_JSON:
		a->opts.json_path = arg;
		break;
	case OPT_CSV:
		a->opts.csv_path = arg;
		break;
	case OPT_MD:
		a->opts.md_path = arg;
		a->no_fleet = "--md";
		break;
	case 'q':
		a->opts.no_table = 1;
		break;
	case OPT_TOP: {
		uint64_t n;

		if (bs_parse_u64(arg, 0, 100000, &n))
			return bs_argp_error(state,
					     "--top wants a count from 0 to 100000, not '%s'", arg);
		a->opts.top_n = n;
		a->top = a->no_fleet = "--top";
		break;
	}
	case OPT_PLOT:
		if (bs_duet_plot_format(arg) < 0)
			return bs_argp_error(state, BS_PLOT_USAGE, arg);
		a->dopts.plot_path = arg;
		a->duet_only = a->no_fleet = "--plot";
		break;
	case OPT_MIN_OVERLAP:
		if (bs_parse_min_overlap(arg, &a->dopts.min_overlap))
			return bs_argp_error(
			    state,
			    "--min-overlap wants a ratio between 0 and 1 (0 < M < 1), not '%s'",
			    arg);
		a->duet_only = a->no_fleet = "--min-overlap";
		break;
	case OPT_SEED:
		if (bs_parse_u64(arg, 0, UINT64_MAX, &a->dopts.seed))
			return bs_argp_error(state, "--seed wants a non-negative integer, not '%s'",
					     arg);
		a->dopts.has_seed = true;
		a->duet_only = "--seed";
		break;
	case OPT_RESAMPLES: {
		uint64_t n;

		if (bs_parse_u64(arg, BS_DUET_RESAMPLES_MIN, BS_DUET_RESAMPLES_MAX, &n))
			return bs_argp_error(
			    state, "--resamples wants a whole number from 100 to 1000000, not '%s'",
			    arg);
		a->dopts.n_resamples = (size_t)n;
		a->duet_only = a->no_fleet = "--resamples";
		break;
	}
	case OPT_FAIL:
		if (bs_parse_double(arg, 0, 1e6, &a->dopts.fail_pct))
			return bs_argp_error(
			    state, "--fail-on-regression takes a percentage >= 0, not '%s'", arg);
		a->dopts.has_fail = true;
		a->duet_only = a->no_fleet = "--fail-on-regression";
		break;
	case OPT_NO_MDS:
		a->dopts.no_mds = true;
		a->duet_only = a->no_fleet = "--no-mds";
		break;
	case OPT_DROP_WARMUP_HALF:
		a->dopts.drop_warmup_half = true;
		a->duet_only = "--drop-warmup-half";
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* bs_fleet_each's callback: one member into the analysis. */
static int fleet_member(void *ctx, const struct bs_fleet *f, struct bs_fleet_member *m, char *err,
			size_t errlen)
{
	struct bs_fleet_analysis *an = ctx;
	char e[512];
	int ret;

	an->duet = !strcmp(f->kind, "duet");
	if (an->drop_warmup_half && !an->duet) {
		snprintf(err, errlen,
			 "--drop-warmup-half applies to duet traces only (this fleet's members are "
			 "%s traces)",
			 f->kind);
		return -EINVAL;
	}
	ret = bs_fleet_analysis_add(an, m->ds, e, sizeof(e));
	if (ret)
		snprintf(err, errlen, "%s", e);
	return ret;
}

/* A fleet trace (benchscope merge): machines as units (fleet/analysis.h),
 * one member in memory at a time. */
static int report_fleet(const char *path, const struct report_args *a)
{
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *an = NULL;
	struct bs_fleet_render_opts o = {a->opts.json_path, a->opts.csv_path, a->opts.no_table};
	char err[640];
	int ret;

	if (a->no_fleet)
		return bs_usage_error("report", "%s does not apply to fleet traces", a->no_fleet);
	ret = bs_fleet_analysis_new(a->dopts.seed, false, &an);
	if (!ret)
		an->drop_warmup_half = a->dopts.drop_warmup_half;
	if (!ret)
		ret = bs_fleet_each(path, fleet_member, an, &f, err, sizeof(err));
	if (!ret)
		ret = bs_fleet_analysis_finish(an, f, err, sizeof(err));
	if (ret) {
		bs_fleet_analysis_free(an);
		fprintf(stderr, "benchscope report: %s\n", err);
		bs_fleet_free(f);
		return ret == -ENOMEM ? BS_EXIT_RUNTIME : BS_EXIT_USAGE;
	}
	ret = bs_fleet_render(an, &o, err, sizeof(err));
	if (ret)
		fprintf(stderr, "benchscope report: %s\n", err);
	bs_fleet_analysis_free(an);
	bs_fleet_free(f);
	return ret ? BS_EXIT_RUNTIME : 0;
}

int cmd_report(int argc, char **argv)
{
	struct argp argp = {report_options, report_parse, NULL, report_doc, NULL, NULL, NULL};
	struct report_args a = {.opts = {.top_n = BS_REPORT_TOP_DEFAULT}, .dopts = {.seed = 1}};
	struct bs_dataset *ds = NULL;
	char err[512];
	const char *args[2];
	int ret, to_stdout = 0;

	if (!bs_argp_parse(&argp, "benchscope report TRACE", argc, argv, &a, args, 1, &ret))
		return ret;
	if (!args[0])
		return bs_usage_error("report", "%s", "no trace given");
	to_stdout = bs_output_is_stdout(a.opts.json_path) + bs_output_is_stdout(a.opts.csv_path) +
		    bs_output_is_stdout(a.opts.md_path);
	if (to_stdout > 1)
		return bs_usage_error("report", "%s", "only one export can go to stdout ('-')");

	bs_stats_init();
	if (bs_trace_is_fleet(args[0]))
		return report_fleet(args[0], &a);
	ret = bs_dataset_load(args[0], &ds, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "benchscope report: %s\n", err);
		return 2;
	}
	if (ds->truncated && !ds->has_context) {
		char t[128];

		fprintf(stderr,
			"benchscope report: %s holds no header (CONTEXT block): the trace was %s, "
			"before its writer recorded what ran; nothing to report\n",
			args[0], bs_dataset_truncation_text(ds, t, sizeof(t)));
		bs_dataset_free(ds);
		return BS_EXIT_NO_DATA;
	}
	if (bs_dataset_is_duet(ds) && a.top) {
		bs_dataset_free(ds);
		return bs_usage_error("report",
				      "%s applies to run traces only (a duet report "
				      "lists no interferers by rank)",
				      a.top);
	}
	if (bs_dataset_is_duet(ds)) {
		a.dopts.json_path = a.opts.json_path;
		a.dopts.csv_path = a.opts.csv_path;
		a.dopts.md_path = a.opts.md_path;
		a.dopts.no_table = a.opts.no_table;
		struct bs_duet_outcome oc;
		struct bs_progress line;
		struct bs_steps steps;

		bs_progress_init(&line, "analysing benchmark", !a.opts.no_table);
		steps = bs_progress_steps(&line);
		a.dopts.steps = &steps;
		ret = bs_duet_report_render(ds, &a.dopts, &oc, err, sizeof(err));
		bs_progress_done(&line);
		bs_dataset_free(ds);
		if (ret)
			fprintf(stderr, "benchscope report: %s\n", err);
		if (!ret && a.dopts.has_fail && oc.regressed) {
			fprintf(stderr, "benchscope report: regression: %s\n", oc.regression);
			return BS_EXIT_REGRESSION;
		}
		return !ret ? 0 : ret == -EINVAL ? 2 : 1;
	}
	if (a.duet_only) {
		bs_dataset_free(ds);
		return bs_usage_error("report", "%s applies to duet traces only", a.duet_only);
	}
	if (!a.top && ds->run_ctx.top >= 0) /* the run's --top */
		a.opts.top_n = (size_t)ds->run_ctx.top;
	ret = bs_report_render(ds, &a.opts);
	bs_dataset_free(ds);
	return ret ? 1 : 0;
}
