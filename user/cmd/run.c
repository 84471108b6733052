// SPDX-License-Identifier: MIT
/*
 * cmd_run.c - `benchscope run [options] -- CMD [ARGS...]`
 *
 * Load the BPF programs, measure the probe cost, start CMD held before exec,
 * attach the iteration boundaries, release it, and stream every record into
 * the trace until it exits; then print the report rendered from the trace.
 */
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchscope/stats.h"
#include "probe/boundary.h"
#include "probe/caps.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "trace/dataset.h"
#include "binary/libpath.h"
#include "probe/measure.h"
#include "util/progress.h"
#include "report/render.h"
#include "probe/session.h"
#include "stop/stop_run.h"
#include "util/monotime.h"

struct run_args {
	const char *iter, *begin, *end, *preset, *user;
	const char *trace, *json, *csv, *md;
	long top;
	long ringbuf_mib;
	long calib_calls;
	bool no_interferers, no_calibrate, verbose, quiet;
	char **cmd;
	/* dynamic reconfiguration (stop_run.h) */
	struct bs_stop_plan plan;
	bool forked; /**< any of --stop (not none), --warmup, --measure, --forks given */
	long grace_ms;
};

enum {
	OPT_ITER = 0x100,
	OPT_BEGIN,
	OPT_END,
	OPT_PRESET,
	OPT_USER,
	OPT_JSON,
	OPT_CSV,
	OPT_MD,
	OPT_TOP,
	OPT_RINGBUF,
	OPT_NO_INTERF,
	OPT_NO_CALIB,
	OPT_CALIB_CALLS,
	OPT_STOP,
	OPT_WARMUP,
	OPT_MEASURE,
	OPT_FORKS,
	OPT_THRESHOLD,
	OPT_WINDOW,
	OPT_GRACE,
	OPT_SEED,
};

static const struct argp_option run_options[] = {
    {NULL, 0, NULL, 0, "Iteration boundaries (exactly one):", 1},
    {"iter", OPT_ITER, "BIN:SYMBOL", 0, "an iteration is one call of SYMBOL (entry to return)", 1},
    {"begin", OPT_BEGIN, "SITE", 0, "begin site: BIN:SYMBOL or usdt:BIN:PROVIDER:NAME", 1},
    {"end", OPT_END, "SITE", 0, "end site (same forms as --begin)", 1},
    {"preset", OPT_PRESET, "NAME", 0,
     "gbench: Google Benchmark runs (libbenchmark's StartKeepRunning/FinishKeepRunning, with "
     "invocation counts); process: every child process of CMD, exec to exit",
     1},
    {NULL, 0, NULL, 0, "Outputs:", 2},
    {"output", 'o', "TRACE", 0, "trace file (default benchscope.trace)", 2},
    {"json", OPT_JSON, "FILE", 0, "write the JSON report (- for stdout)", 2},
    {"csv", OPT_CSV, "FILE", 0, "write one CSV row per iteration (- for stdout)", 2},
    {"md", OPT_MD, "FILE", 0, "write the Markdown report (- for stdout)", 2},
    {"top", OPT_TOP, "N", 0, "interferers to list (default 5)", 2},
    {"quiet", 'q', NULL, 0, "no table on stdout (files are still written)", 2},
    {NULL, 0, NULL, 0, "Running:", 3},
    {"user", OPT_USER, "NAME", 0, "run CMD as this user (benchscope keeps its privileges)", 3},
    {"ringbuf-size", OPT_RINGBUF, "MIB", 0, "ring buffer size in MiB, a power of two (default 16)",
     3},
    {"no-interferers", OPT_NO_INTERF, NULL, 0, "do not account which tasks took the CPU", 3},
    {"no-calibrate", OPT_NO_CALIB, NULL, 0, "do not measure the probe cost at start", 3},
    {"calibrate-calls", OPT_CALIB_CALLS, "N", 0, "probe hits per calibration round (default 2000)",
     3},
    {"verbose", 'v', NULL, 0, "print libbpf's messages (verifier log)", 3},
    {NULL, 0, NULL, 0, "Forks and dynamic reconfiguration (Laaber et al. 2020):", 4},
    {"stop", OPT_STOP, "CRITERION", 0,
     "cv, rciw, kld: fork the harness and stop warmup and forks once stable; none (default): "
     "one run, or with --forks a fixed configuration",
     4},
    {"warmup", OPT_WARMUP, "MIN:MAX", 0, "warmup iterations per fork (default 5:50)", 4},
    {"measure", OPT_MEASURE, "N", 0, "measurement iterations per fork (default 10)", 4},
    {"forks", OPT_FORKS, "MIN:MAX", 0, "forks (default 2:5)", 4},
    {"threshold", OPT_THRESHOLD, "T", 0,
     "stability threshold (default 0.01 cv, 0.03 rciw, 0.99 kld)", 4},
    {"window", OPT_WINDOW, "S", 0, "warmup sliding window s_W (default 5)", 4},
    {"grace", OPT_GRACE, "MS", 0, "SIGTERM to SIGKILL delay when ending a fork (default 2000)", 4},
    {"seed", OPT_SEED, "N", 0, "RCIW resampling seed (default 1)", 4},
    {0}};

static error_t run_parse(int key, char *arg, struct argp_state *state)
{
	struct run_args *a = state->input;
	long range[2];

	switch (key) {
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
	case OPT_USER:
		a->user = arg;
		break;
	case 'o':
		a->trace = arg;
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
	case 'v':
		a->verbose = true;
		break;
	case OPT_NO_INTERF:
		a->no_interferers = true;
		break;
	case OPT_NO_CALIB:
		a->no_calibrate = true;
		break;
	case OPT_TOP:
		if (bs_parse_long(arg, 0, 1000, &a->top))
			argp_error(state, "--top takes a whole number from 0 to 1000, not '%s'",
				   arg);
		break;
	case OPT_RINGBUF:
		if (bs_parse_long(arg, 1, 4096, &a->ringbuf_mib) ||
		    (a->ringbuf_mib & (a->ringbuf_mib - 1)))
			argp_error(
			    state,
			    "--ringbuf-size takes a power of two from 1 to 4096 (MiB), not '%s'",
			    arg);
		break;
	case OPT_CALIB_CALLS:
		if (bs_parse_long(arg, 10, 10000000, &a->calib_calls))
			argp_error(
			    state,
			    "--calibrate-calls takes a whole number from 10 to 10000000, not '%s'",
			    arg);
		break;
	case OPT_STOP: {
		int c = bs_stop_crit_parse(arg);

		if (c < 0)
			argp_error(state, "--stop takes cv, rciw, kld or none, not '%s'", arg);
		a->plan.crit = c;
		a->forked |= c != 0;
		break;
	}
	/* "MIN:MAX", lo <= MIN, MAX <= BS_STOP_MAX_ITERS (MIN > MAX is reported by
	 * the plan check, with both numbers) */
	case OPT_WARMUP:
		if (bs_parse_range(arg, 2, 0, BS_STOP_MAX_ITERS, range))
			argp_error(state,
				   "--warmup takes MIN:MAX (whole numbers, MIN <= MAX), not '%s'",
				   arg);
		a->plan.wi_min = (size_t)range[0];
		a->plan.wi_max = (size_t)range[1];
		a->forked = true;
		break;
	case OPT_FORKS:
		if (bs_parse_range(arg, 2, 1, BS_STOP_MAX_ITERS, range))
			argp_error(
			    state,
			    "--forks takes MIN:MAX (whole numbers >= 1, MIN <= MAX), not '%s'",
			    arg);
		a->plan.f_min = (size_t)range[0];
		a->plan.f_max = (size_t)range[1];
		a->forked = true;
		break;
	case OPT_MEASURE: {
		long v;

		if (bs_parse_long(arg, 1, BS_STOP_MAX_ITERS, &v))
			argp_error(state, "--measure takes a whole number from 1 to %d, not '%s'",
				   BS_STOP_MAX_ITERS, arg);
		a->plan.mi = (size_t)v;
		a->forked = true;
		break;
	}
	case OPT_WINDOW: {
		long v;

		if (bs_parse_long(arg, 1, 1000, &v))
			argp_error(state, "--window takes a whole number from 1 to 1000, not '%s'",
				   arg);
		a->plan.window = (size_t)v;
		break;
	}
	case OPT_THRESHOLD: {
		char *e;
		double t = strtod(arg, &e);

		if (e == arg || *e || !isfinite(t) || t <= 0 || t > 1)
			argp_error(state, "--threshold takes a number in (0, 1], not '%s'", arg);
		a->plan.threshold = t;
		break;
	}
	case OPT_GRACE:
		if (bs_parse_long(arg, 0, 600000, &a->grace_ms))
			argp_error(state, "--grace takes milliseconds from 0 to 600000, not '%s'",
				   arg);
		break;
	case OPT_SEED: {
		long v;

		if (bs_parse_long(arg, 0, LONG_MAX, &v))
			argp_error(state, "--seed takes a whole number >= 0, not '%s'", arg);
		a->plan.seed = (uint64_t)v;
		break;
	}
	case ARGP_KEY_ARGS:
		a->cmd = state->argv + state->next;
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no command to run: benchscope run [OPTIONS] -- CMD [ARGS...]");
		break;
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
    "Needs root, or CAP_BPF + CAP_PERFMON, and a kernel with BTF (benchscope "
    "doctor).\n" BS_EXIT_STATUS_HELP;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* The harness's exit status, for the END block. */
static json_object *status_json(const struct bs_session *s)
{
	json_object *st = json_object_new_object();
	bool ex = s->exited && WIFEXITED(s->wait_status),
	     sig = s->exited && WIFSIGNALED(s->wait_status);

	json_object_object_add(st, "pid", json_object_new_int(s->pid));
	json_object_object_add(st, "exited", json_object_new_boolean(ex));
	if (ex)
		json_object_object_add(st, "exit_code",
				       json_object_new_int(WEXITSTATUS(s->wait_status)));
	json_object_object_add(st, "signaled", json_object_new_boolean(sig));
	if (sig)
		json_object_object_add(st, "signal", json_object_new_int(WTERMSIG(s->wait_status)));
	return st;
}

int cmd_run(int argc, char **argv)
{
	struct argp argp = {run_options, run_parse, "[OPTIONS] -- CMD [ARGS...]", run_doc, NULL,
			    NULL,	 NULL};
	struct run_args a = {
	    .trace = "benchscope.trace", .top = 5, .ringbuf_mib = 16, .calib_calls = 2000};
	struct bs_measure_opts mo = {0};
	struct bs_measure m = {0};
	struct bs_boundaries b;
	struct bs_session sess = {.pid = -1, .go_fd = -1, .err_fd = -1};
	struct bs_progress prog;
	struct sigaction sa;
	json_object *end;
	char err[2048] = "", exe[PATH_MAX];
	double t_start, t_end;
	uint64_t iters;
	int rc = 1, prc, i;
	bool was_interrupted = false, opened = false;
	struct bs_stop_run_result sres = {0};
	json_object *ctx_extra = NULL;

	a.plan = bs_stop_plan_default(0);
	a.grace_ms = 2000;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &a))
		return 2;
	if (a.forked && bs_stop_plan_check(&a.plan, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		return 2;
	}
	/* from here on Ctrl-C stops the harness and keeps what was collected */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (bs_boundaries_parse(&b, a.iter, a.begin, a.end, a.preset, err, sizeof(err)) == 0) {
		int w = bs_which(a.cmd[0], exe, sizeof(exe));

		if (w)
			snprintf(err, sizeof(err), "%s: %s",
				 w == -ENOENT ? "command not found" : strerror(-w), a.cmd[0]);
		else
			w = bs_boundaries_resolve(&b, exe, err, sizeof(err));
		if (!w)
			err[0] = 0;
	}
	if (err[0]) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	rc = bs_caps_require("run", bs_caps_bpf_tracing, 4);
	if (rc)
		goto out;
	rc = BS_EXIT_RUNTIME;
	mo.b = &b;
	mo.ringbuf_bytes = (size_t)a.ringbuf_mib << 20;
	mo.interferers = !a.no_interferers;
	mo.verbose = a.verbose;
	mo.calibrate = !a.no_calibrate;
	mo.calib_calls = (int)a.calib_calls;
	mo.trace_path = a.trace;
	mo.cmd = a.cmd;
	mo.user = a.user;
	if (a.forked) {
		ctx_extra = json_object_new_object();
		json_object_object_add(ctx_extra, "stop",
				       bs_stop_plan_json(&a.plan, (int)a.grace_ms));
		mo.context_extra = ctx_extra;
	}
	opened = true;
	if (bs_measure_open(&m, &mo, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = m.usage_error ? 2 : 1;
		goto out;
	}
	if (a.forked) {
		struct bs_stop_run_opts so = {.plan = a.plan,
					      .cmd = a.cmd,
					      .user = a.user,
					      .grace_ms = (int)a.grace_ms,
					      .quiet = a.quiet,
					      .interrupted = &interrupted};

		so.gbench = b.mode == BS_BOUND_GBENCH;
		if (bs_stop_run(&m, &so, &sres, err, sizeof(err))) {
			fprintf(stderr, "benchscope run: %s\n", err);
			if (sres.exec_failed) {
				rc = 2;
				goto out;
			}
		}
		was_interrupted = sres.interrupted;
		end = json_object_new_object();
		json_object_object_add(end, "stop", bs_stop_run_end_json(&sres));
		json_object_object_add(end, "interrupted",
				       json_object_new_boolean(was_interrupted));
		json_object_object_add(end, "wall_ns", json_object_new_int64(sres.wall_ns));
		goto close_trace;
	}
	if (bs_session_spawn(&sess, a.cmd, a.user, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	if (bs_measure_follow(&m, sess.pid)) {
		fprintf(stderr, "benchscope run: cannot follow the harness: %s\n", strerror(errno));
		goto out;
	}
	t_start = (double)bs_mono_ns();
	if (interrupted) {
		fprintf(stderr, "benchscope run: interrupted before the harness started\n");
		rc = 130;
		goto out;
	}
	if (bs_session_release(&sess, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto finish;
	}
	bs_progress_init(&prog, "iterations");
	for (;;) {
		prc = bs_measure_poll(&m, 50);
		if (prc < 0) {
			fprintf(stderr, "benchscope run: reading the ring buffer: %s\n",
				strerror(-prc));
			break;
		}
		if (interrupted) {
			was_interrupted = true;
			bs_session_stop(&sess, 2000);
			break;
		}
		if (bs_session_poll(&sess) == 1)
			break;
		bs_progress_update(&prog, bs_measure_iters(&m), 0);
	}
	bs_progress_done(&prog);
finish:
	t_end = (double)bs_mono_ns();
	end = json_object_new_object();
	json_object_object_add(end, "status", status_json(&sess));
	json_object_object_add(end, "interrupted", json_object_new_boolean(was_interrupted));
	json_object_object_add(end, "wall_ns", json_object_new_int64((int64_t)(t_end - t_start)));
close_trace:
	if (bs_measure_finish(&m, end))
		fprintf(stderr, "benchscope run: warning: closing the trace %s failed\n", a.trace);
	iters = bs_measure_iters(&m);
	if (iters == 0) {
		fprintf(stderr,
			"benchscope run: no iteration was recorded: the probes never fired%s "
			"(attached:",
			sess.exited ? " before the harness exited" : "");
		for (i = 0; i < (int)m.probes.n_attached; i++)
			fprintf(stderr, "%s %s", i ? ";" : "", m.probes.attached[i]);
		fprintf(stderr, ")\n");
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

		if (bs_dataset_load(a.trace, &ds, err, sizeof(err))) {
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
	if (was_interrupted)
		rc = 130;
	else if (iters == 0)
		rc = 3;
	else if (a.forked && sres.harness_failed) {
		fprintf(stderr, "benchscope run: %s; %llu iterations kept in %s\n", sres.failure,
			(unsigned long long)iters, a.trace);
		rc = 4;
	} else if (!a.forked && sess.exited &&
		   (!WIFEXITED(sess.wait_status) || WEXITSTATUS(sess.wait_status))) {
		if (WIFSIGNALED(sess.wait_status))
			fprintf(stderr,
				"benchscope run: the harness was killed by signal %d (%s); %llu "
				"iterations kept in %s\n",
				WTERMSIG(sess.wait_status), strsignal(WTERMSIG(sess.wait_status)),
				(unsigned long long)iters, a.trace);
		else
			fprintf(stderr,
				"benchscope run: the harness exited with status %d; %llu "
				"iterations kept in %s\n",
				WEXITSTATUS(sess.wait_status), (unsigned long long)iters, a.trace);
		rc = 4;
	}
out:
	if (sess.pid > 0 && !sess.exited)
		bs_session_stop(&sess, 2000);
	bs_session_close(&sess);
	if (opened)
		bs_measure_destroy(&m);
	json_object_put(ctx_extra);
	return rc;
}
