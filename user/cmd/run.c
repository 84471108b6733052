// SPDX-License-Identifier: MIT
/*
 * run.c - `benchscope run [options] -- CMD [ARGS...]`
 *
 * Load the BPF programs, measure the probe cost, start CMD held before exec,
 * attach the iteration boundaries, release it, and stream every record into
 * the trace until it exits; then print the report rendered from the trace.
 */
#include <argp.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe/boundary.h"
#include "probe/caps.h"
#include "probe/lines.h"
#include "probe/lines_options.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "util/interrupt.h"
#include "commands.h"
#include "trace/dataset.h"
#include "probe/measure.h"
#include "probe/measure_options.h"
#include "probe/probe_count.h"
#include "report/render.h"
#include "probe/run_once.h"
#include "probe/shard.h"
#include "util/progress.h"
#include "stop/stop_options.h"
#include "stop/stop_run.h"

struct run_args {
	const char *iter, *begin, *end, *preset;
	int probes;		    /**< --probes: 0 auto, 1, 2 (probe/probe_count.h) */
	struct bs_lines_spec lines; /**< --line, --begin-line/--end-line, ... */
	const char *json, *csv, *md;
	long top;
	bool quiet;
	char **cmd;
	struct bs_measure_opts mo;   /**< the session; --user and the "Running" options */
	struct bs_stop_options stop; /**< dynamic reconfiguration (stop_run.h) */
	const char *shard_text;	     /**< --shard as given */
	struct bs_shard shard;	     /**< --shard I/N (probe/shard.h) */
};

enum {
	OPT_ITER = 0x100,
	OPT_BEGIN,
	OPT_END,
	OPT_PRESET,
	OPT_PROBES,
	OPT_JSON,
	OPT_CSV,
	OPT_MD,
	OPT_TOP,
	OPT_SHARD,
};

static const struct argp_option run_options[] = {
    {NULL, 0, NULL, 0, "Iteration boundaries (exactly one):", 1},
    {"iter", OPT_ITER, "BIN:SYMBOL", 0, "an iteration is one call of SYMBOL (entry to return)", 1},
    {"begin", OPT_BEGIN, "SITE", 0, "begin site: BIN:SYMBOL or usdt:BIN:PROVIDER:NAME", 1},
    {"end", OPT_END, "SITE", 0, "end site (same forms as --begin)", 1},
    {"preset", OPT_PRESET, "NAME", 0,
     "gbench: Google Benchmark runs (libbenchmark's StartKeepRunning/FinishKeepRunning, with "
     "invocation counts); process: every child process of CMD, exec to exit; catch2: Catch2 "
     "benchmark samples (ChronometerModel start/finish, with repeats and benchmark names); go: "
     "Go testing.B runs of a `go test -c` binary (b.N invocations, named by b.name); criterion: "
     "Rust criterion.rs samples (every Bencher::iter/iter_custom/iter_batched call, with iters "
     "and the benchmark id; needs symbols and debug info)",
     1},
    {"probes", OPT_PROBES, "1|2|auto", 0,
     "probes per iteration: 2, a begin and an end probe; 1, the end probe alone, reading the "
     "harness's own begin timestamp (--preset go: testing.B.start; gbench: the State's timer), "
     "half the traps; auto "
     "(default): 1 where supported",
     1},
    {"shard", OPT_SHARD, "I/N", 0,
     "measure only shard I (0 to N-1) of the benchmarks the harness lists (--preset gbench, go, "
     "criterion): sorted by name, the k-th goes to shard k mod N",
     1},
    {NULL, 0, NULL, 0, "Outputs:", 2},
    {"output", 'o', "TRACE", 0, "trace file (default benchscope.trace)", 2},
    {"json", OPT_JSON, "FILE", 0, "write the JSON report (- for stdout)", 2},
    {"csv", OPT_CSV, "FILE", 0, "write one CSV row per iteration (- for stdout)", 2},
    {"md", OPT_MD, "FILE", 0, "write the Markdown report (- for stdout)", 2},
    {"top", OPT_TOP, "N", 0, "interferers to list (default 5)", 2},
    {"quiet", 'q', NULL, 0,
     "no table on stdout (files are still written), no progress line nor line per fork", 2},
    {0}};

static const struct argp_child run_children[] = {
    {&bs_lines_argp, 0, NULL, 1}, {&bs_measure_argp, 0, NULL, 0}, {&bs_stop_argp, 0, NULL, 0}, {0}};

static error_t run_parse(int key, char *arg, struct argp_state *state)
{
	struct run_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->lines;
		state->child_inputs[1] = &a->mo;
		state->child_inputs[2] = &a->stop;
		break;
	case OPT_ITER:
		a->iter = arg;
		break;
	case OPT_BEGIN:
		a->begin = arg;
		break;
	case OPT_END:
		a->end = arg;
		break;
	case OPT_PRESET:
		a->preset = arg;
		break;
	case OPT_PROBES:
		if (bs_probes_parse(arg, &a->probes))
			return bs_argp_error(state, BS_PROBES_USAGE, arg);
		break;
	case OPT_SHARD:
		a->shard_text = arg; /* parsed after the options: one line, exit 2 */
		break;
	case 'o':
		a->mo.trace_path = arg;
		break;
	case OPT_JSON:
		a->json = arg;
		break;
	case OPT_CSV:
		a->csv = arg;
		break;
	case OPT_MD:
		a->md = arg;
		break;
	case 'q':
		a->quiet = true;
		break;
	case OPT_TOP:
		if (bs_parse_long(arg, 0, 1000, &a->top))
			return bs_argp_error(
			    state, "--top takes a whole number from 0 to 1000, not '%s'", arg);
		break;
	case ARGP_KEY_ARGS:
		a->cmd = state->argv + state->next;
		break;
	case ARGP_KEY_NO_ARGS:
		return bs_argp_error(
		    state, "no command to run: benchscope run [OPTIONS] -- CMD [ARGS...]");
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char run_doc[] =
    "Measure every iteration of an unmodified harness from the kernel side.\v"
    "Examples:\n"
    "  benchscope run --preset gbench -- ./bench --benchmark_repetitions=10\n"
    "  benchscope run --iter ./harness:run_iteration -- ./harness\n"
    "  benchscope run --begin usdt:./h:prov:iter_begin --end usdt:./h:prov:iter_end -- ./h\n"
    "  benchscope run --preset process -- hyperfine -N --runs 20 'gzip -k -f big.txt'\n"
    "  benchscope run --preset go -- ./pkg.test -test.run='^$' -test.bench=. -test.count=5\n"
    "  benchscope run --preset catch2 -- ./tests '[!benchmark]' --benchmark-samples 50\n"
    "  benchscope run --preset criterion -- ./target/release/deps/mybench-0123abcd --bench\n"
    "  benchscope run --preset gbench --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT "
    "-o shard-$SLURM_ARRAY_TASK_ID.trace -- ./bench\n"
    "Output lines (JIT runtimes; the harness's own output is left untouched):\n"
    "  PYTHONUNBUFFERED=1 benchscope run --score-unit s \\\n"
    "      --line '^(?<invocations>[0-9]+) loops? -> (?<score>[0-9.e+-]+) secs' \\\n"
    "      -- python3 -m timeit -v -v -v 'sorted(range(999))'\n"
    "  benchscope run --begin-line '^\\+DT:(?<name>[^:]+):' --score-unit s \\\n"
    "      --end-line '^\\+R:(?<invocations>[0-9]+):[^:]+:(?<score>[0-9.]+)' \\\n"
    "      -- openssl speed -elapsed -mr -seconds 1 sha256 md5\n"
    "  benchscope run --name-line '^# Benchmark: (?<name>.*)' \\\n"
    "      --begin-line 'Iteration +[0-9]+: ' \\\n"
    "      --end-line 'Iteration +[0-9]+: (?<score>[0-9.]+) (?<unit>[a-z]+/op)' \\\n"
    "      -- java -jar target/benchmarks.jar\n"
    "Needs root, or CAP_BPF + CAP_PERFMON, and a kernel with BTF (benchscope "
    "doctor).\n" BS_EXIT_STATUS_HELP;

int cmd_run(int argc, char **argv)
{
	int parse_status;
	struct argp argp = {.options = run_options,
			    .parser = run_parse,
			    .args_doc = "-- CMD [ARGS...]",
			    .doc = run_doc,
			    .children = run_children};
	struct run_args a = {.mo = {.trace_path = "benchscope.trace"}, .top = 5};
	struct bs_measure m = {0};
	struct bs_boundaries b;
	struct bs_lines_cfg lines_cfg = {0};
	struct bs_run_once one;
	volatile sig_atomic_t *interrupted;
	json_object *end;
	char err[2048] = "";
	uint64_t iters;
	int rc = 1, i;
	const char *hint;
	bool was_interrupted = false, opened = false, trace_incomplete = false;
	struct bs_stop_run_result sres = {0};
	json_object *ctx_extra = NULL;
	char **shard_cmd = NULL, *shard_filter = NULL;

	bs_run_once_init(&one);
	if (!bs_argp_parse_own(&argp, "benchscope run", ARGP_IN_ORDER, argc, argv, &a,
			       &parse_status))
		return parse_status;
	if (a.shard_text && bs_shard_parse(a.shard_text, &a.shard, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		return 2;
	}
	if (a.stop.forked && bs_stop_plan_check(&a.stop.plan, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		return 2;
	}
	/* from here on Ctrl-C stops the harness and keeps what was collected */
	interrupted = bs_interrupt_catch();
	if (bs_lines_spec_given(&a.lines)) {
		if (a.iter || a.begin || a.end || a.preset)
			snprintf(
			    err, sizeof(err),
			    "give either output-line boundaries (--line, --begin-line/--end-line) "
			    "or --iter, --begin/--end, --preset");
		else if (!bs_lines_cfg_init(&lines_cfg, &a.lines, err, sizeof(err)))
			bs_boundaries_setup_lines(&b, &lines_cfg, a.cmd[0], err, sizeof(err));
		if (err[0]) {
			fprintf(stderr, "benchscope run: %s\n", err);
			rc = 2;
			goto out;
		}
	} else if (bs_boundaries_setup(&b, a.iter, a.begin, a.end, a.preset, a.cmd[0], err,
				       sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	if (bs_probes_choose(&b, a.probes, false, NULL, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	if (a.shard.set && !bs_shard_can_list(&b, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	rc = bs_caps_require("run", bs_caps_bpf_tracing, 4);
	if (!rc && bs_boundaries_use_uprobes(&b))
		rc = bs_caps_require("run", (const enum bs_cap_id[]){BS_CAP_PRIV_UPROBE}, 1);
	if (rc)
		goto out;
	rc = BS_EXIT_RUNTIME;
	a.mo.b = &b;
	a.mo.cmd = a.cmd;
	ctx_extra = json_object_new_object();
	a.mo.context_extra = ctx_extra;
	/* report's default, so that it lists what this run's table lists */
	json_object_object_add(ctx_extra, "top", json_object_new_int64(a.top));
	if (a.stop.forked)
		json_object_object_add(ctx_extra, "stop",
				       bs_stop_plan_json(&a.stop.plan, (int)a.stop.grace_ms));
	if (a.shard.set) {
		const struct bs_boundaries *bb[] = {&b};
		char *const *cc[] = {a.cmd};

		if (bs_shard_begin("run", &a.shard, bb, cc, 1, &a.mo, &shard_filter, &rc))
			goto out;
		shard_cmd = bs_shard_command(a.cmd, shard_filter);
		if (!shard_cmd) {
			rc = BS_EXIT_RUNTIME;
			goto out;
		}
		a.cmd = shard_cmd;
		a.mo.cmd = shard_cmd;
	}
	opened = true;
	if (bs_measure_open(&m, &a.mo, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = m.usage_error ? 2 : 1;
		goto out;
	}
	if (a.stop.forked) {
		struct bs_stop_run_opts so = {
		    .plan = a.stop.plan,
		    .cmd = a.cmd,
		    .user = a.mo.user,
		    .grace_ms = (int)a.stop.grace_ms,
		    .quiet = a.quiet,
		    .verbose = a.mo.verbose,
		    .progress = !a.quiet && bs_progress_beside_harness_here(true, false),
		    .interrupted = interrupted};

		/* the presets whose harnesses calibrate: their calibration runs are
		 * not measurements (the rule of the kind the trace records) */
		so.calib =
		    bs_boundaries_calibrates(&b) ? bs_calib_rule_for(bs_boundaries_kind(&b)) : NULL;
		rc = bs_stop_run_forks(&m, &so, &sres, &end);
		if (rc)
			goto out;
		was_interrupted = sres.interrupted;
	} else {
		/* the harness prints on benchscope's stdout: no line there */
		rc = bs_run_once(&one, &m, a.cmd, a.mo.user,
				 !a.quiet && bs_progress_beside_harness_here(true, false),
				 interrupted, &end);
		if (rc)
			goto out;
		was_interrupted = one.interrupted;
	}
	/* a preset's usual reason for no or no real measurement, in the trace's
	 * warnings (the report shows them) */
	if ((hint = bs_boundaries_idle_hint(&b, a.cmd)))
		bs_measure_warn(&m, "%s", hint);
	trace_incomplete =
	    bs_measure_trace_incomplete(&m, "run", a.mo.trace_path, bs_measure_finish(&m, end));
	/* on stderr, before what they explain (no iteration, an odd result) */
	bs_measure_say_warnings(&m, "run");
	iters = bs_measure_iters(&m);
	if (iters == 0 && (m.k.iter_lost || m.k.thread_map_full)) {
		fprintf(stderr,
			"benchscope run: no iteration was recorded: %llu records were lost, the "
			"thread map was full %llu times (see the warnings)\n",
			(unsigned long long)m.k.iter_lost, (unsigned long long)m.k.thread_map_full);
	} else if (iters == 0 && b.mode == BS_BOUND_LINES) {
		fprintf(stderr,
			"benchscope run: no iteration was recorded from the harness's output lines "
			"(the warnings above say why)\n");
	} else if (iters == 0) {
		fprintf(stderr,
			"benchscope run: no iteration was recorded: the probes never fired%s "
			"(attached:",
			one.sess.exited ? " before the harness exited" : "");
		for (i = 0; i < (int)m.probes.n_attached; i++)
			fprintf(stderr, "%s %s", i ? ";" : "", m.probes.attached[i]);
		fprintf(stderr, ")%s\n", hint ? " (the warning above says why)" : "");
	}
	bs_measure_destroy(&m);
	opened = false;
	{
		struct bs_report_opts ro = {.json_path = a.json,
					    .csv_path = a.csv,
					    .md_path = a.md,
					    .top_n = (size_t)a.top,
					    .no_table = a.quiet};
		struct bs_dataset *ds = NULL;

		if (bs_dataset_load(a.mo.trace_path, &ds, err, sizeof(err))) {
			fprintf(stderr, "benchscope run: cannot read back the trace: %s\n", err);
			rc = 1;
			goto out;
		}
		if (iters > 0 && bs_report_render(ds, &ro))
			rc = 1;
		else
			rc = 0;
		bs_dataset_free(ds);
	}
	/* said whatever the status below (a full disk, an interrupt) */
	if (a.stop.forked && sres.harness_failed && iters > 0)
		fprintf(stderr, "benchscope run: %s; %llu iterations kept in %s\n", sres.failure,
			(unsigned long long)iters, a.mo.trace_path);
	if (trace_incomplete) /* said above; the report is of what the file holds */
		rc = BS_EXIT_RUNTIME;
	else if (was_interrupted)
		rc = 130;
	else if (iters == 0)
		rc = 3;
	else if (a.stop.forked && sres.harness_failed) {
		rc = 4;
	} else if (!a.stop.forked && bs_run_once_failed(&one, iters, a.mo.trace_path)) {
		rc = 4;
	}
out:
	bs_run_once_close(&one);
	if (opened)
		bs_measure_destroy(&m);
	json_object_put(ctx_extra);
	bs_lines_cfg_free(&lines_cfg);
	bs_shard_free(&a.shard);
	free(shard_cmd);
	free(shard_filter);
	return rc;
}
