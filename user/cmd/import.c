// SPDX-License-Identifier: MIT
/*
 * import.c - `benchscope import [--format duet-csv] FILE -o TRACE [--aa]
 * [--name LABEL]`: existing duet data (the duet package's processed CSV,
 * `benchscope report --csv` output, or the raw Renaissance CSV) as a duet
 * trace that `benchscope report` analyses (import/duet.h);
 * `benchscope import --format gbench|hyperfine|criterion|go|pyperf|jmh
 * FILE... -o TRACE`: other tools' results as a run trace (import/formats.h,
 * docs/import.md), what could not be represented printed as one warning.
 * Exit status: 0 ok, 1 the trace could not be written (an I/O error, a
 * full disk), 2 usage, bad input, or a path that cannot be read or created
 * (bs_exit_of_errno; one line "benchscope import: ..." on stderr).
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "import/duet.h"
#include "import/formats.h"

struct import_args {
	struct bs_import_opts o;
	const char *format, *out;
};

enum { OPT_FORMAT = 0x100, OPT_AA, OPT_NAME };

static const struct argp_option import_options[] = {
    {"format", OPT_FORMAT, "FORMAT", 0,
     "duet-csv (default): the duet package's processed CSV (benchmark, type, runid, pair, "
     "iteration, iteration_start_ns, iteration_end_ns, iteration_time_ns; also `benchscope "
     "report --csv` output), or its raw Renaissance CSV (epoch_start_ms, iteration_time_ns; "
     "iterations back to back); gbench: Google Benchmark JSON (--benchmark_out_format=json); "
     "hyperfine: hyperfine --export-json; criterion: a target/criterion directory or "
     "<bench>/new/sample.json files; go: `go test -bench` output; pyperf: pyperf JSON "
     "(.json or .json.gz); jmh: JMH -rf json",
     0},
    {"output", 'o', "TRACE", 0, "the trace to write (default benchscope.trace)", 0},
    {"aa", OPT_AA, NULL, 0, "duet-csv: mark the data as an A/A test (A and B the same program)", 0},
    {"name", OPT_NAME, "LABEL", 0, "duet-csv: the benchmark label of the report", 0},
    {0},
};

static const char import_doc[] =
    "Write a trace from other tools' results: duet data as a duet trace, benchmark results "
    "(gbench, hyperfine, criterion, go, pyperf, jmh) as a run trace. `benchscope report`, "
    "`replay` and `compare` analyse it.\v"
    "duet-csv: columns may come in any order; extra columns are ignored. The other formats: "
    "one sample per repetition, run, fork iteration or criterion sample, with its invocation "
    "count; timestamps are synthetic (samples laid end to end, flag synth_time) and there "
    "is no interference (flag no_interference). What the trace cannot represent (aggregates, "
    "CPU times, other metrics) is listed in the trace's CONTEXT (import.dropped) and in one "
    "warning line on stderr. docs/import.md has the details.\n"
    "\n"
    "Examples:\n"
    "  benchscope import --format duet-csv results.csv -o duet.trace\n"
    "  benchscope report duet.trace --plot duet.svg\n"
    "  ./bench --benchmark_repetitions=10 --benchmark_out=gb.json --benchmark_out_format=json\n"
    "  benchscope import --format gbench gb.json -o gb.trace && benchscope report gb.trace\n"
    "  hyperfine --export-json hf.json 'sort big.txt' && benchscope import --format hyperfine "
    "hf.json -o hf.trace\n"
    "  benchscope import --format criterion target/criterion -o crit.trace\n"
    "  go test -bench . -count 10 >old.txt && benchscope import --format go old.txt -o "
    "old.trace\n"
    "  benchscope import --format pyperf bench.json.gz -o py.trace\n"
    "  benchscope import --format jmh jmh-result.json -o jmh.trace\n"
    "  benchscope compare old.trace new.trace\n"
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

/* other tools' results (formats.h) into a run trace */
static int import_run(const struct bs_import_format *f, const char **files, size_t n,
		      const char *out)
{
	struct bs_imp imp;
	char err[600], dropped[4096];
	const char *d;
	int ret = 0;

	bs_imp_init(&imp, f->name, f->tool, err, sizeof(err));
	for (size_t i = 0; i < n && !ret; i++)
		if (!(ret = bs_imp_source(&imp, files[i])))
			ret = f->read(&imp, files[i]);
	if (!ret)
		ret = bs_imp_write(&imp, out);
	if (ret == -ENOMEM)
		snprintf(err, sizeof(err), "out of memory");
	if (ret) {
		fprintf(stderr, "benchscope import: %s\n", err);
		bs_imp_free(&imp);
		return bs_exit_of_errno(ret);
	}
	if ((d = bs_imp_dropped_line(&imp, dropped, sizeof(dropped))))
		fprintf(stderr, "benchscope import: warning: not represented in the trace: %s\n",
			d);
	printf("imported %zu samples of %zu benchmark%s (%u process%s) from %s%s into %s\n", imp.n,
	       imp.n_benches, imp.n_benches == 1 ? "" : "s", imp.n_procs,
	       imp.n_procs == 1 ? "" : "es", files[0], n > 1 ? " and more" : "", out);
	bs_imp_free(&imp);
	return 0;
}

/* the files of a parsed command line */
static int import_files(const struct import_args *a, const char **files, size_t nfiles)
{
	const struct bs_import_format *f = NULL;
	struct bs_import_result res;
	char err[600];
	int ret;

	if (strcmp(a->format, "duet-csv") && !(f = bs_import_format_find(a->format)))
		return bs_usage_error("import", "unknown format '%s' (known: duet-csv, %s)",
				      a->format, bs_import_format_names());
	if (!nfiles)
		return bs_usage_error("import", "%s", "no input file given");
	if (f && (a->o.aa || a->o.benchmark))
		return bs_usage_error("import", "--aa and --name are for duet-csv, not %s",
				      a->format);
	if (f)
		return import_run(f, files, nfiles, a->out);
	if (nfiles > 1)
		return bs_usage_error("import", "unexpected argument '%s'", files[1]);
	ret = bs_import_duet_csv(files[0], a->out, &a->o, &res, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "benchscope import: %s\n", err);
		return bs_exit_of_errno(ret);
	}
	printf("imported %zu iterations of %zu runs (%zu benchmark%s, %s layout) from %s into %s\n",
	       res.rows, res.runs, res.benchmarks, res.benchmarks == 1 ? "" : "s", res.layout,
	       files[0], a->out);
	return 0;
}

int cmd_import(int argc, char **argv)
{
	struct argp argp = {import_options, import_parse, NULL, import_doc, NULL, NULL, NULL};
	struct import_args a = {.out = "benchscope.trace", .format = "duet-csv"};
	const char **files = calloc((size_t)argc + 1, sizeof(*files));
	size_t nfiles;
	int ret;

	if (!files)
		return bs_usage_error("import", "%s", "out of memory");
	if (bs_argp_parse_args(&argp, "benchscope import [--format FORMAT] FILE...", argc, argv, &a,
			       files, (size_t)argc, &nfiles, &ret))
		ret = import_files(&a, files, nfiles);
	free(files);
	return ret;
}
