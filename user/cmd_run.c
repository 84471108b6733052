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
#include <linux/capability.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchscope/stats.h"
#include "boundary.h"
#include "calibrate.h"
#include "cli.h"
#include "commands.h"
#include "collector.h"
#include "context.h"
#include "dataset.h"
#include "libpath.h"
#include "probes.h"
#include "progress.h"
#include "render.h"
#include "session.h"
#include "trace.h"

struct run_args {
	const char *iter, *begin, *end, *preset, *user;
	const char *trace, *json, *csv, *md;
	long top;
	long ringbuf_mib;
	long calib_calls;
	bool no_interferers, no_calibrate, verbose, quiet;
	char **cmd;
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
};

static const struct argp_option run_options[] = {
	{ NULL, 0, NULL, 0, "Iteration boundaries (exactly one):", 1 },
	{ "iter", OPT_ITER, "BIN:SYMBOL", 0, "an iteration is one call of SYMBOL (entry to return)", 1 },
	{ "begin", OPT_BEGIN, "SITE", 0, "begin site: BIN:SYMBOL or usdt:BIN:PROVIDER:NAME", 1 },
	{ "end", OPT_END, "SITE", 0, "end site (same forms as --begin)", 1 },
	{ "preset", OPT_PRESET, "NAME", 0,
	  "gbench: Google Benchmark runs (libbenchmark's StartKeepRunning/FinishKeepRunning, with "
	  "invocation counts); process: every child process of CMD, exec to exit", 1 },
	{ NULL, 0, NULL, 0, "Outputs:", 2 },
	{ "output", 'o', "TRACE", 0, "trace file (default benchscope.trace)", 2 },
	{ "json", OPT_JSON, "FILE", 0, "write the JSON report (- for stdout)", 2 },
	{ "csv", OPT_CSV, "FILE", 0, "write one CSV row per iteration (- for stdout)", 2 },
	{ "md", OPT_MD, "FILE", 0, "write the Markdown report (- for stdout)", 2 },
	{ "top", OPT_TOP, "N", 0, "interferers to list (default 5)", 2 },
	{ "quiet", 'q', NULL, 0, "no table on stdout (files are still written)", 2 },
	{ NULL, 0, NULL, 0, "Running:", 3 },
	{ "user", OPT_USER, "NAME", 0, "run CMD as this user (benchscope keeps its privileges)", 3 },
	{ "ringbuf-size", OPT_RINGBUF, "MIB", 0, "ring buffer size in MiB, a power of two (default 16)", 3 },
	{ "no-interferers", OPT_NO_INTERF, NULL, 0, "do not account which tasks took the CPU", 3 },
	{ "no-calibrate", OPT_NO_CALIB, NULL, 0, "do not measure the probe cost at start", 3 },
	{ "calibrate-calls", OPT_CALIB_CALLS, "N", 0, "probe hits per calibration round (default 2000)", 3 },
	{ "verbose", 'v', NULL, 0, "print libbpf's messages (verifier log)", 3 },
	{ 0 }
};

static error_t run_parse(int key, char *arg, struct argp_state *state)
{
	struct run_args *a = state->input;

	switch (key) {
	case OPT_ITER: a->iter = arg; break;
	case OPT_BEGIN: a->begin = arg; break;
	case OPT_END: a->end = arg; break;
	case OPT_PRESET: a->preset = arg; break;
	case OPT_USER: a->user = arg; break;
	case 'o': a->trace = arg; break;
	case OPT_JSON: a->json = arg; break;
	case OPT_CSV: a->csv = arg; break;
	case OPT_MD: a->md = arg; break;
	case 'q': a->quiet = true; break;
	case 'v': a->verbose = true; break;
	case OPT_NO_INTERF: a->no_interferers = true; break;
	case OPT_NO_CALIB: a->no_calibrate = true; break;
	case OPT_TOP:
		if (bs_parse_long(arg, 0, 1000, &a->top))
			argp_error(state, "--top takes a whole number from 0 to 1000, not '%s'", arg);
		break;
	case OPT_RINGBUF:
		if (bs_parse_long(arg, 1, 4096, &a->ringbuf_mib) || (a->ringbuf_mib & (a->ringbuf_mib - 1)))
			argp_error(state, "--ringbuf-size takes a power of two from 1 to 4096 (MiB), not '%s'", arg);
		break;
	case OPT_CALIB_CALLS:
		if (bs_parse_long(arg, 10, 10000000, &a->calib_calls))
			argp_error(state, "--calibrate-calls takes a whole number from 10 to 10000000, not '%s'", arg);
		break;
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
	"Needs root, or CAP_BPF + CAP_PERFMON, and a kernel with BTF.\n"
	"Exit status: 0 ok; 1 runtime error; 2 bad usage or input; 3 no iteration recorded;\n"
	"4 the harness failed (exit status or signal); 130 interrupted.";

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Root, or CAP_BPF and CAP_PERFMON in the effective set. */
static int check_privileges(char *err, size_t errlen)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	bool bpf, perfmon;

	if (geteuid() == 0)
		return 0;
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d)) {
		snprintf(err, errlen, "cannot read capabilities: %s", strerror(errno));
		return -EPERM;
	}
	bpf = d[CAP_BPF / 32].effective & (1u << (CAP_BPF % 32));
	perfmon = d[CAP_PERFMON / 32].effective & (1u << (CAP_PERFMON % 32));
	if (bpf && perfmon)
		return 0;
	snprintf(err, errlen, "needs root or CAP_BPF+CAP_PERFMON (missing: %s%s%s)",
		 bpf ? "" : "CAP_BPF", !bpf && !perfmon ? ", " : "", perfmon ? "" : "CAP_PERFMON");
	return -EPERM;
}

static double mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int store_interferer(void *ctx, const struct bs_interferer_rec *r)
{
	return bs_trace_write_interferer(ctx, r) ? -EIO : 0;
}

static void add_counter(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

/* The END block: exit status, loss counters, BPF run time, warnings. */
static char *end_json(const struct bs_session *s, bool was_interrupted, double wall_ns,
		      const struct bs_counters *k, const struct bs_collector *c,
		      const struct bs_probes *p, json_object *warnings)
{
	json_object *o = json_object_new_object(), *st = json_object_new_object();
	json_object *lost = json_object_new_object(), *att = json_object_new_array(), *bs;
	char *stats = bs_probes_stats_json(p), *out;
	size_t i;

	json_object_object_add(st, "pid", json_object_new_int(s->pid));
	json_object_object_add(st, "exited", json_object_new_boolean(s->exited && WIFEXITED(s->wait_status)));
	if (s->exited && WIFEXITED(s->wait_status))
		json_object_object_add(st, "exit_code", json_object_new_int(WEXITSTATUS(s->wait_status)));
	json_object_object_add(st, "signaled", json_object_new_boolean(s->exited && WIFSIGNALED(s->wait_status)));
	if (s->exited && WIFSIGNALED(s->wait_status))
		json_object_object_add(st, "signal", json_object_new_int(WTERMSIG(s->wait_status)));
	json_object_object_add(o, "status", st);
	json_object_object_add(o, "interrupted", json_object_new_boolean(was_interrupted));
	json_object_object_add(o, "wall_ns", json_object_new_int64((int64_t)wall_ns));
	add_counter(lost, "iter_lost", k->iter_lost);
	add_counter(lost, "iter_spilled", k->iter_spilled);
	add_counter(lost, "proc_lost", k->proc_lost);
	add_counter(lost, "thread_map_full", k->thread_map_full);
	add_counter(lost, "end_without_begin", k->end_without_begin);
	add_counter(lost, "interferer_full", k->interferer_full);
	add_counter(lost, "ringbuf_lost_user", c->write_errors + c->unknown);
	json_object_object_add(o, "lost", lost);
	add_counter(o, "iterations_received", c->iters);
	add_counter(o, "iterations_emitted", k->iter_emitted + k->iter_spilled);
	bs = stats ? json_tokener_parse(stats) : NULL;
	free(stats);
	json_object_object_add(o, "bpf_stats", bs ? bs : json_object_new_array());
	for (i = 0; i < p->n_attached; i++)
		json_object_array_add(att, json_object_new_string(p->attached[i]));
	json_object_object_add(o, "attached", att);
	json_object_object_add(o, "warnings", json_object_get(warnings));
	out = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return out;
}

static void warnf(json_object *warnings, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warnf(json_object *warnings, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(warnings, json_object_new_string(buf));
}

int cmd_run(int argc, char **argv)
{
	struct argp argp = { run_options, run_parse, "[OPTIONS] -- CMD [ARGS...]", run_doc, NULL, NULL, NULL };
	struct run_args a = { .trace = "benchscope.trace", .top = 5, .ringbuf_mib = 16, .calib_calls = 2000 };
	struct bs_probes_opts popts = { 0 };
	struct bs_probes probes = { 0 };
	struct bs_boundaries b;
	struct bs_probe_cost cost, *costp = NULL;
	struct bs_session sess = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct bs_collector col = { 0 };
	struct bs_trace_writer *tw = NULL;
	struct bs_counters k;
	struct bs_progress prog;
	struct sigaction sa;
	json_object *warnings = json_object_new_array();
	char err[2048] = "", exe[PATH_MAX], *ctx = NULL, *endj = NULL;
	double t_start, t_end;
	int rc = 1, prc, i;
	bool was_interrupted = false;

	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &a))
		return 2;
	/* from here on Ctrl-C stops the harness and keeps what was collected */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (bs_boundaries_parse(&b, a.iter, a.begin, a.end, a.preset, err, sizeof(err)) == 0) {
		int w = bs_which(a.cmd[0], exe, sizeof(exe));

		if (w)
			snprintf(err, sizeof(err), "%s: %s", w == -ENOENT ? "command not found" : strerror(-w),
				 a.cmd[0]);
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
	if (check_privileges(err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	popts.ringbuf_bytes = (size_t)a.ringbuf_mib << 20;
	popts.interferers = !a.no_interferers;
	popts.verbose = a.verbose;
	if (bs_probes_load(&probes, &b, &popts, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		goto out;
	}
	if (!a.no_calibrate) {
		if (bs_calibrate(&probes, &b, (int)a.calib_calls, 5, &cost))
			fprintf(stderr, "benchscope run: warning: could not measure the probe cost\n");
		costp = &cost;
	}
	if (bs_probes_attach_boundaries(&probes, &b, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		goto out;
	}
	ctx = bs_context_json(a.cmd, &b, costp, a.user);
	tw = ctx ? bs_trace_create(a.trace, ctx, err, sizeof(err)) : NULL;
	if (!tw) {
		fprintf(stderr, "benchscope run: %s\n", ctx ? err : "out of memory");
		rc = 2;
		goto out;
	}
	if (bs_session_spawn(&sess, a.cmd, a.user, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		rc = 2;
		goto out;
	}
	if (bs_probes_track(&probes, sess.pid) ||
	    bs_collector_init(&col, bs_probes_ringbuf_fd(&probes), tw, sess.pid)) {
		fprintf(stderr, "benchscope run: cannot follow the harness: %s\n", strerror(errno));
		goto out;
	}
	t_start = mono_ns();
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
		prc = bs_collector_poll(&col, 50);
		if (prc < 0) {
			fprintf(stderr, "benchscope run: reading the ring buffer: %s\n", strerror(-prc));
			break;
		}
		if (interrupted) {
			was_interrupted = true;
			bs_session_stop(&sess, 2000);
			break;
		}
		if (bs_session_poll(&sess) == 1)
			break;
		bs_progress_update(&prog, col.iters, 0);
		/* keep the spill map from filling up while the harness runs */
		if (bs_probes_counters(&probes, &k) == 0 && k.iter_spilled)
			bs_collector_drain(&col, &probes);
	}
	bs_progress_done(&prog);
finish:
	t_end = mono_ns();
	bs_collector_drain(&col, &probes);
	bs_probes_counters(&probes, &k);
	bs_probes_interferers(&probes, store_interferer, tw);
	if (k.iter_lost)
		warnf(warnings, "%llu iteration records were lost (ring buffer and spill map full): use --ringbuf-size",
		      (unsigned long long)k.iter_lost);
	if (k.end_without_begin)
		warnf(warnings, "%llu end probes hit without an open iteration: are --begin and --end the right way round?",
		      (unsigned long long)k.end_without_begin);
	endj = end_json(&sess, was_interrupted, t_end - t_start, &k, &col, &probes, warnings);
	if (endj)
		bs_trace_write_end(tw, endj);
	if (bs_trace_close(tw))
		fprintf(stderr, "benchscope run: warning: closing the trace %s failed\n", a.trace);
	tw = NULL;
	if (col.iters == 0) {
		fprintf(stderr, "benchscope run: no iteration was recorded: the probes never fired%s (attached:",
			sess.exited ? " before the harness exited" : "");
		for (i = 0; i < (int)probes.n_attached; i++)
			fprintf(stderr, "%s %s", i ? ";" : "", probes.attached[i]);
		fprintf(stderr, ")\n");
	}
	bs_probes_destroy(&probes);
	{
		struct bs_report_opts ro = { .json_path = a.json, .csv_path = a.csv, .md_path = a.md,
					     .top_n = (size_t)a.top, .no_table = a.quiet };
		struct bs_dataset *ds = NULL;

		if (bs_dataset_load(a.trace, &ds, err, sizeof(err))) {
			fprintf(stderr, "benchscope run: cannot read back the trace: %s\n", err);
			rc = 1;
			goto out;
		}
		if (col.iters > 0 && bs_report_render(ds, &ro))
			rc = 1;
		else
			rc = 0;
		bs_dataset_free(ds);
	}
	if (was_interrupted)
		rc = 130;
	else if (col.iters == 0)
		rc = 3;
	else if (sess.exited && (!WIFEXITED(sess.wait_status) || WEXITSTATUS(sess.wait_status))) {
		if (WIFSIGNALED(sess.wait_status))
			fprintf(stderr, "benchscope run: the harness was killed by signal %d (%s); %llu iterations kept in %s\n",
				WTERMSIG(sess.wait_status), strsignal(WTERMSIG(sess.wait_status)),
				(unsigned long long)col.iters, a.trace);
		else
			fprintf(stderr, "benchscope run: the harness exited with status %d; %llu iterations kept in %s\n",
				WEXITSTATUS(sess.wait_status), (unsigned long long)col.iters, a.trace);
		rc = 4;
	}
out:
	if (sess.pid > 0 && !sess.exited)
		bs_session_stop(&sess, 2000);
	bs_session_close(&sess);
	bs_collector_free(&col);
	bs_trace_close(tw);
	bs_probes_destroy(&probes);
	json_object_put(warnings);
	free(ctx);
	free(endj);
	return rc;
}
