// SPDX-License-Identifier: MIT
/*
 * cmd_duet.c - `benchscope duet [options] -A 'CMD_A' -B 'CMD_B'`
 *
 * Runs two versions of a harness as a duet (Drozdík 2023):
 * async (both at once, unsynchronised), sync (iteration i of A and of B
 * start together: a kernel-assisted barrier, no change to either harness)
 * and seq (A then B), all runs in one measurement session and one trace
 * (docs/duet-trace.md), scheduled RMIT or fixed; then prints the analysis
 * read back from the trace (user/duet_report.h).
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>

#include "probe/boundary.h"
#include "probe/caps.h"
#include "util/cli.h"
#include "commands.h"
#include "trace/dataset.h"
#include "duet/report.h"
#include "duet/run.h"
#include "util/exit_status.h"
#include "binary/libpath.h"
#include "probe/measure.h"
#include "util/monotime.h"
#include "util/progress.h"

struct probe_opts {
	const char *iter, *begin, *end, *preset;
};

struct duet_args {
	struct probe_opts common, side[2];
	const char *probe_text[2];
	const char *cmd[2];
	const char *methods, *runs, *schedule, *cpus, *name, *user;
	const char *trace, *json, *csv, *md, *plot;
	long seed, ringbuf_mib, resamples;
	double timeout_s, min_overlap, fail_pct, stop_ci;
	bool have_fail, quiet, verbose, no_interferers, no_calibrate, harness_output, no_mds;
};

enum {
	OPT_ITER = 0x100,
	OPT_BEGIN,
	OPT_END,
	OPT_PRESET,
	OPT_PROBE_A,
	OPT_PROBE_B,
	OPT_METHOD,
	OPT_RUNS,
	OPT_SCHEDULE,
	OPT_SEED,
	OPT_TIMEOUT,
	OPT_CPUS,
	OPT_NAME,
	OPT_MIN_OVERLAP,
	OPT_JSON,
	OPT_CSV,
	OPT_MD,
	OPT_PLOT,
	OPT_FAIL,
	OPT_STOP_CI,
	OPT_USER,
	OPT_RINGBUF,
	OPT_NO_INTERF,
	OPT_NO_CALIB,
	OPT_HARNESS_OUT,
	OPT_NO_MDS,
	OPT_RESAMPLES,
};

static const struct argp_option duet_options[] = {
    {NULL, 0, NULL, 0, "The two versions (shell-like words, no shell: quote each command):", 1},
    {"cmd-a", 'A', "CMD_A", 0, "the baseline (A)", 1},
    {"cmd-b", 'B', "CMD_B", 0, "the candidate (B); the same as A for an A/A test", 1},
    {NULL, 0, NULL, 0, "Iteration boundaries, as for `run` (one set for both sides):", 2},
    {"iter", OPT_ITER, "BIN:SYMBOL", 0, "an iteration is one call of SYMBOL", 2},
    {"begin", OPT_BEGIN, "SITE", 0, "begin site: BIN:SYMBOL or usdt:BIN:PROVIDER:NAME", 2},
    {"end", OPT_END, "SITE", 0, "end site", 2},
    {"preset", OPT_PRESET, "NAME", 0, "gbench or process", 2},
    {"probe-A", OPT_PROBE_A, "'OPTS'", 0,
     "A's own boundaries when the versions differ, e.g. --probe-A '--iter ./a:run'", 2},
    {"probe-B", OPT_PROBE_B, "'OPTS'", 0, "B's own boundaries", 2},
    {NULL, 0, NULL, 0, "Runs:", 3},
    {"method", OPT_METHOD, "LIST", 0,
     "async, sync, seq or all, comma-separated (default all); the first is the primary "
     "method of --stop-ci",
     3},
    {"runs", OPT_RUNS, "N|MIN:MAX", 0,
     "runs per method (default 10); with --stop-ci at least MIN, at most MAX", 3},
    {"schedule", OPT_SCHEDULE, "rmit|fixed", 0,
     "rmit (default): each round runs every method once, in a shuffled order, with "
     "balanced shuffled pair orders; fixed: methods in the given order, A first",
     3},
    {"seed", OPT_SEED, "N", 0, "seed of the schedule and the bootstrap (default 1)", 3},
    {"timeout", OPT_TIMEOUT, "S", 0,
     "a side that runs longer than S seconds (or never reaches its probe) fails its run "
     "(default 600)",
     3},
    {"cpus", OPT_CPUS, "A=LIST,B=LIST", 0, "pin each side to CPUs (default: no placement)", 3},
    {"stop-ci", OPT_STOP_CI, "WIDTH", 0,
     "stop once the relative CI width of the primary method's paired difference is at "
     "most WIDTH (e.g. 0.02), checked after each run",
     3},
    {"user", OPT_USER, "NAME", 0, "run both sides as this user", 3},
    {"harness-output", OPT_HARNESS_OUT, NULL, 0,
     "show the harnesses' output (default: stdout discarded, stderr kept aside and quoted "
     "when a side fails)",
     3},
    {NULL, 0, NULL, 0, "Analysis and outputs:", 4},
    {"name", OPT_NAME, "LABEL", 0, "benchmark label (default: A's program name)", 4},
    {"min-overlap", OPT_MIN_OVERLAP, "M", 0, "async pairing threshold (default 0.4)", 4},
    {"output", 'o', "TRACE", 0, "trace file (default benchscope-duet.trace)", 4},
    {"json", OPT_JSON, "FILE", 0, "JSON report (- for stdout)", 4},
    {"csv", OPT_CSV, "FILE", 0, "per-iteration CSV (duet package schema + ours)", 4},
    {"md", OPT_MD, "FILE", 0, "Markdown report", 4},
    {"plot", OPT_PLOT, "FILE", 0, "overlap timeline picture (.svg or .png)", 4},
    {"resamples", OPT_RESAMPLES, "N", 0, "bootstrap resamples (default 9999)", 4},
    {"no-mds", OPT_NO_MDS, NULL, 0, "skip the MDS curve", 4},
    {"fail-on-regression", OPT_FAIL, "PCT", 0,
     "exit 1 when B is slower than A by more than PCT % with the CI excluding it", 4},
    {"quiet", 'q', NULL, 0, "no table on stdout", 4},
    {NULL, 0, NULL, 0, "Measurement:", 5},
    {"ringbuf-size", OPT_RINGBUF, "MIB", 0, "ring buffer size in MiB (default 16)", 5},
    {"no-interferers", OPT_NO_INTERF, NULL, 0, "do not account which tasks took the CPU", 5},
    {"no-calibrate", OPT_NO_CALIB, NULL, 0, "do not measure the probe cost at start", 5},
    {"verbose", 'v', NULL, 0, "print libbpf's messages", 5},
    {0}};

static error_t duet_parse(int key, char *arg, struct argp_state *state)
{
	struct duet_args *a = state->input;

	switch (key) {
	case 'A':
		a->cmd[0] = arg;
		break;
	case 'B':
		a->cmd[1] = arg;
		break;
	case OPT_ITER:
		a->common.iter = arg;
		break;
	case OPT_BEGIN:
		a->common.begin = arg;
		break;
	case OPT_END:
		a->common.end = arg;
		break;
	case OPT_PRESET:
		a->common.preset = arg;
		break;
	case OPT_PROBE_A:
		a->probe_text[0] = arg;
		break;
	case OPT_PROBE_B:
		a->probe_text[1] = arg;
		break;
	case OPT_METHOD:
		a->methods = arg;
		break;
	case OPT_RUNS:
		a->runs = arg;
		break;
	case OPT_SCHEDULE:
		if (strcmp(arg, "rmit") && strcmp(arg, "fixed"))
			argp_error(state, "--schedule takes rmit or fixed, not '%s'", arg);
		a->schedule = arg;
		break;
	case OPT_SEED:
		if (bs_parse_long(arg, 0, LONG_MAX, &a->seed))
			argp_error(state, "--seed takes a whole number >= 0, not '%s'", arg);
		break;
	case OPT_TIMEOUT:
		if (bs_parse_double(arg, 0.001, 1e7, &a->timeout_s))
			argp_error(state, "--timeout takes seconds > 0, not '%s'", arg);
		break;
	case OPT_CPUS:
		a->cpus = arg;
		break;
	case OPT_NAME:
		a->name = arg;
		break;
	case OPT_MIN_OVERLAP:
		if (bs_parse_double(arg, 0, 0.999, &a->min_overlap))
			argp_error(state, "--min-overlap takes a number in [0, 1), not '%s'", arg);
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
	case OPT_PLOT:
		a->plot = arg;
		break;
	case OPT_FAIL:
		if (bs_parse_double(arg, 0, 1e6, &a->fail_pct))
			argp_error(state, "--fail-on-regression takes a percentage >= 0, not '%s'",
				   arg);
		a->have_fail = true;
		break;
	case OPT_STOP_CI:
		if (bs_parse_double(arg, 1e-6, 100, &a->stop_ci))
			argp_error(state,
				   "--stop-ci takes a relative width > 0 (e.g. 0.02), not '%s'",
				   arg);
		break;
	case OPT_USER:
		a->user = arg;
		break;
	case OPT_HARNESS_OUT:
		a->harness_output = true;
		break;
	case OPT_NO_MDS:
		a->no_mds = true;
		break;
	case OPT_RESAMPLES:
		if (bs_parse_long(arg, 100, 1000000, &a->resamples))
			argp_error(state,
				   "--resamples takes a whole number from 100 to 1000000, not '%s'",
				   arg);
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
	case OPT_RINGBUF:
		if (bs_parse_long(arg, 1, 4096, &a->ringbuf_mib) ||
		    (a->ringbuf_mib & (a->ringbuf_mib - 1)))
			argp_error(
			    state,
			    "--ringbuf-size takes a power of two from 1 to 4096 (MiB), not '%s'",
			    arg);
		break;
	case ARGP_KEY_ARG:
		argp_error(state,
			   "unexpected argument '%s': give the commands with -A 'CMD' -B 'CMD'",
			   arg);
		break;
	case ARGP_KEY_END:
		if (!a->cmd[0] || !a->cmd[1])
			argp_error(state, "both versions are needed: -A 'CMD_A' -B 'CMD_B'");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char duet_doc[] =
    "Compare two versions of an unmodified harness as a duet: both measured in the same runs "
    "(async: together; sync: iteration i of both started together by a kernel-assisted "
    "barrier) or in turn (seq), with paired statistics.\v"
    "Examples:\n"
    "  benchscope duet --preset gbench -A './bench_old' -B './bench_new'\n"
    "  benchscope duet --preset gbench --method async,seq --runs 10 --fail-on-regression 2 \\\n"
    "      -A './bench --benchmark_filter=BM_Sort' -B './bench_b --benchmark_filter=BM_Sort'\n"
    "  benchscope duet --probe-A '--iter ./a:step' --probe-B '--iter ./b:step' -A ./a -B ./b\n"
    "  benchscope duet --preset gbench --stop-ci 0.02 --runs 5:40 -A ./x -B ./x   (A/A)\n"
    "Needs root, or CAP_BPF + CAP_PERFMON, and a kernel with BTF (benchscope "
    "doctor).\n" BS_EXIT_STATUS_HELP;

static volatile int interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Split a command with wordexp(3), no command substitution. 0 or -EINVAL. */
static int split_words(const char *what, const char *text, wordexp_t *we, char *err, size_t errlen)
{
	int rc = wordexp(text, we, WRDE_NOCMD);
	const char *why = NULL;

	switch (rc) {
	case 0:
		if (we->we_wordc == 0) {
			wordfree(we);
			why = "it is empty";
		}
		break;
	case WRDE_BADCHAR:
		why =
		    "it has an unquoted | & ; < > ( ) { } or newline (no shell here: quote it, or "
		    "use sh -c '...')";
		break;
	case WRDE_CMDSUB:
		why = "command substitution is not allowed";
		break;
	case WRDE_SYNTAX:
		why = "unbalanced quotes";
		break;
	case WRDE_NOSPACE:
		why = "out of memory";
		break;
	default:
		why = "it cannot be split into words";
		break;
	}
	if (why) {
		snprintf(err, errlen, "%s '%s': %s", what, text, why);
		return -EINVAL;
	}
	return 0;
}

/* --probe-A/--probe-B 'OPTS': the probe options of `run`, as words. */
static int parse_probe_text(const char *text, int side, struct probe_opts *po, wordexp_t *we,
			    char *err, size_t errlen)
{
	char what[32];
	size_t i;

	snprintf(what, sizeof(what), "--probe-%c", "AB"[side]);
	if (split_words(what, text, we, err, errlen))
		return -EINVAL;
	memset(po, 0, sizeof(*po));
	for (i = 0; i < we->we_wordc; i++) {
		static const char *const names[] = {"--iter", "--begin", "--end", "--preset"};
		const char **dst[] = {&po->iter, &po->begin, &po->end, &po->preset};
		const char *w = we->we_wordv[i];
		size_t k, len;

		for (k = 0; k < 4; k++) {
			len = strlen(names[k]);
			if (!strncmp(w, names[k], len) && (w[len] == '=' || !w[len]))
				break;
		}
		if (k == 4) {
			snprintf(err, errlen,
				 "%s: unknown option '%s' (--iter, --begin, --end, --preset)", what,
				 w);
			wordfree(we);
			return -EINVAL;
		}
		if (w[len] == '=') {
			*dst[k] = w + len + 1;
		} else if (i + 1 < we->we_wordc) {
			*dst[k] = we->we_wordv[++i];
		} else {
			snprintf(err, errlen, "%s: %s needs a value", what, names[k]);
			wordfree(we);
			return -EINVAL;
		}
	}
	return 0;
}

static int parse_methods(const char *s, int *methods, size_t *n, char *err, size_t errlen)
{
	char *copy = strdup(s ? s : "all"), *save = NULL, *tok;
	bool seen[BS_DM_RUN_N] = {false};
	int m, rc = 0;

	*n = 0;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			for (m = 0; m < BS_DM_RUN_N; m++)
				if (!seen[m])
					seen[m] = true, methods[(*n)++] = m;
			continue;
		}
		for (m = 0; m < BS_DM_RUN_N; m++)
			if (!strcmp(tok, bs_duet_method_name(m)))
				break;
		if (m == BS_DM_RUN_N) {
			snprintf(
			    err, errlen,
			    "--method takes async, sync, seq or all (comma-separated), not '%s'",
			    tok);
			rc = -EINVAL;
		} else if (!seen[m]) {
			seen[m] = true;
			methods[(*n)++] = m;
		}
	}
	free(copy);
	if (!rc && !*n) {
		snprintf(err, errlen, "--method names no method");
		rc = -EINVAL;
	}
	return rc;
}

static int parse_runs(const char *s, bool stop_ci, long *rmin, long *rmax, char *err, size_t errlen)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	long v[2];

	if (!s) {
		*rmin = stop_ci ? 3 : 10;
		*rmax = stop_ci ? 50 : 10;
		return 0;
	}
	if (!colon) {
		if (bs_parse_long(s, 1, 100000, rmax))
			goto bad;
		*rmin = stop_ci ? (*rmax < 3 ? *rmax : 3) : *rmax;
		return 0;
	}
	if (bs_parse_range(s, 2, 1, 100000, v) || v[0] > v[1])
		goto bad;
	*rmin = v[0];
	*rmax = v[1];
	if (!stop_ci) {
		snprintf(err, errlen, "--runs MIN:MAX needs --stop-ci (without it, give --runs N)");
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--runs takes N or MIN:MAX (whole numbers, 1 <= MIN <= MAX), not '%s'", s);
	return -EINVAL;
}

/* Resolve one side's boundaries against its program. 0 or -errno (err set). */
static int resolve_side(const struct probe_opts *po, const char *prog, struct bs_boundaries *b,
			char *err, size_t errlen)
{
	char exe[PATH_MAX];
	int w;

	if (bs_boundaries_parse(b, po->iter, po->begin, po->end, po->preset, err, errlen))
		return -EINVAL;
	w = bs_which(prog, exe, sizeof(exe));
	if (w) {
		snprintf(err, errlen, "%s: %s", w == -ENOENT ? "command not found" : strerror(-w),
			 prog);
		return w;
	}
	return bs_boundaries_resolve(b, exe, err, errlen);
}

static json_object *argv_json(char **argv)
{
	json_object *arr = json_object_new_array();

	for (; *argv; argv++)
		json_object_array_add(arr, json_object_new_string(*argv));
	return arr;
}

/* Hooks: records of the run in progress go to its result. */
struct duet_live {
	struct bs_duet_runres *cur;
	struct bs_progress prog;
	size_t done, total;
};

static int live_iter(void *ctx, struct bs_iter_rec *r)
{
	struct duet_live *l = ctx;

	return l->cur ? bs_duet_runres_on_iter(l->cur, r) : 0;
}

static void live_proc(void *ctx, const struct bs_proc_rec *r)
{
	struct duet_live *l = ctx;

	if (l->cur)
		bs_duet_runres_on_proc(l->cur, r);
}

static void live_tick(void *ctx)
{
	struct duet_live *l = ctx;

	bs_progress_update(&l->prog, l->done, l->total);
}

int cmd_duet(int argc, char **argv)
{
	struct argp argp = {duet_options, duet_parse, "-A 'CMD_A' -B 'CMD_B'", duet_doc, NULL,
			    NULL,	  NULL};
	struct duet_args a = {.trace = "benchscope-duet.trace",
			      .seed = 1,
			      .ringbuf_mib = 16,
			      .timeout_s = 600,
			      .min_overlap = 0};
	wordexp_t we_cmd[2], we_probe[2];
	bool have_cmd[2] = {false, false}, have_probe[2] = {false, false};
	struct bs_boundaries b[2];
	struct bs_duet_cpus cpus = {0};
	struct bs_measure_opts mo = {0};
	struct bs_measure m;
	struct bs_duet_plan *plan = NULL;
	struct bs_duet_runres *res = NULL;
	struct bs_duet_env env = {0};
	struct duet_live live = {0};
	struct bs_barrier_rt rt = {0};
	struct sigaction sa;
	json_object *extra = NULL, *duet, *meth, *end;
	char err[2048] = "";
	int methods[BS_DM_RUN_N], rc = BS_EXIT_USAGE, s, null_fd = -1;
	size_t n_methods = 0, n_plan = 0, n_done = 0, n_ok = 0, i;
	long rmin = 0, rmax = 0;
	uint64_t t_start;
	bool opened = false, aa, stopped_early = false, measure_failed = false;

	memset(&m, 0, sizeof(m));
	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return BS_EXIT_USAGE;
	for (s = 0; s < 2 && !err[0]; s++) {
		char what[8] = "-A";

		what[1] = "AB"[s];
		if (split_words(what, a.cmd[s], &we_cmd[s], err, sizeof(err)) == 0)
			have_cmd[s] = true;
	}
	if (!err[0] && (a.probe_text[0] || a.probe_text[1])) {
		if (!a.probe_text[0] || !a.probe_text[1])
			snprintf(err, sizeof(err),
				 "--probe-A and --probe-B go together (or give one set "
				 "of boundaries for both)");
		else if (a.common.iter || a.common.begin || a.common.end || a.common.preset)
			snprintf(err, sizeof(err),
				 "give either --probe-A/--probe-B or one set of "
				 "boundaries, not both");
		for (s = 0; s < 2 && !err[0]; s++)
			have_probe[s] = parse_probe_text(a.probe_text[s], s, &a.side[s],
							 &we_probe[s], err, sizeof(err)) == 0;
	} else {
		a.side[0] = a.side[1] = a.common;
	}
	if (!err[0])
		parse_methods(a.methods, methods, &n_methods, err, sizeof(err));
	if (!err[0])
		parse_runs(a.runs, a.stop_ci > 0, &rmin, &rmax, err, sizeof(err));
	if (!err[0] && a.cpus)
		bs_duet_cpus_parse(a.cpus, &cpus, err, sizeof(err));
	for (s = 0; s < 2 && !err[0]; s++)
		if (resolve_side(&a.side[s], we_cmd[s].we_wordv[0], &b[s], err, sizeof(err)) == 0)
			err[0] = 0;
	if (!err[0] && bs_duet_schedule(methods, n_methods, (size_t)rmax,
					strcmp(a.schedule ? a.schedule : "rmit", "fixed") != 0,
					(uint64_t)a.seed, &plan, &n_plan))
		snprintf(err, sizeof(err), "cannot plan the runs");
	if (err[0]) {
		fprintf(stderr, "benchscope duet: %s\n", err);
		rc = BS_EXIT_USAGE;
		goto out;
	}
	rc = bs_caps_require("duet", bs_caps_bpf_tracing, 4);
	if (rc)
		goto out;
	aa = !strcmp(a.cmd[0], a.cmd[1]) &&
	     (!a.probe_text[0] || !strcmp(a.probe_text[0], a.probe_text[1]));

	/* CONTEXT: the common members plus the duet block (docs/duet-trace.md) */
	extra = json_object_new_object();
	duet = json_object_new_object();
	meth = json_object_new_array();
	json_object_object_add(extra, "mode", json_object_new_string("duet"));
	json_object_object_add(duet, "source", json_object_new_string("benchscope"));
	{
		const char *prog = we_cmd[0].we_wordv[0], *slash = strrchr(prog, '/');

		json_object_object_add(duet, "benchmark",
				       json_object_new_string(a.name  ? a.name
							      : slash ? slash + 1
								      : prog));
	}
	{
		json_object *cmds = json_object_new_object();

		json_object_object_add(cmds, "A", argv_json(we_cmd[0].we_wordv));
		json_object_object_add(cmds, "B", argv_json(we_cmd[1].we_wordv));
		json_object_object_add(duet, "commands", cmds);
	}
	json_object_object_add(duet, "aa", json_object_new_boolean(aa));
	for (i = 0; i < n_methods; i++)
		json_object_array_add(meth,
				      json_object_new_string(bs_duet_method_name(methods[i])));
	json_object_object_add(duet, "methods", meth);
	json_object_object_add(duet, "runs_per_method", json_object_new_int64(rmax));
	json_object_object_add(duet, "schedule",
			       json_object_new_string(a.schedule ? a.schedule : "rmit"));
	json_object_object_add(duet, "seed", json_object_new_int64(a.seed));
	if (cpus.set) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "A", json_object_new_string(cpus.text[0]));
		json_object_object_add(c, "B", json_object_new_string(cpus.text[1]));
		json_object_object_add(duet, "cpus", c);
	} else {
		json_object_object_add(duet, "cpus", NULL);
	}
	json_object_object_add(duet, "smt_siblings", bs_duet_smt_siblings());
	json_object_object_add(duet, "min_overlap",
			       json_object_new_double(a.min_overlap > 0 ? a.min_overlap : 0.4));
	json_object_object_add(duet, "timeout_s", json_object_new_double(a.timeout_s));
	if (a.stop_ci > 0) {
		json_object *sc = json_object_new_object();

		json_object_object_add(sc, "width", json_object_new_double(a.stop_ci));
		json_object_object_add(sc, "method",
				       json_object_new_string(bs_duet_method_name(methods[0])));
		json_object_object_add(sc, "min_runs", json_object_new_int64(rmin));
		json_object_object_add(sc, "max_runs", json_object_new_int64(rmax));
		json_object_object_add(duet, "stop_ci", sc);
	}
	if (a.probe_text[0]) {
		char *bj = bs_boundaries_json(&b[1]);
		json_object *bo = bj ? json_tokener_parse(bj) : NULL;

		free(bj);
		json_object_object_add(duet, "boundaries_B", bo);
	}
	json_object_object_add(extra, "duet", duet);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	mo.b = &b[0];
	mo.b2 = &b[1];
	mo.ringbuf_bytes = (size_t)a.ringbuf_mib << 20;
	mo.interferers = !a.no_interferers;
	mo.verbose = a.verbose;
	mo.calibrate = !a.no_calibrate;
	mo.calib_calls = 2000;
	mo.trace_path = a.trace;
	mo.cmd = we_cmd[0].we_wordv;
	mo.user = a.user;
	mo.context_extra = extra;
	opened = true;
	if (bs_measure_open(&m, &mo, err, sizeof(err))) {
		fprintf(stderr, "benchscope duet: %s\n", err);
		rc = m.usage_error ? BS_EXIT_USAGE : BS_EXIT_RUNTIME;
		goto out;
	}
	bs_measure_set_hooks(&m, live_iter, live_proc, &live);
	for (i = 0; i < n_methods; i++)
		if (methods[i] == BS_DM_RUN_SYNC && !rt.running &&
		    bs_barrier_rt_start(&rt, &m.probes, err, sizeof(err))) {
			fprintf(stderr, "benchscope duet: %s\n", err);
			rc = BS_EXIT_RUNTIME;
			goto out;
		}
	if (!a.harness_output)
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	res = calloc(n_plan, sizeof(*res));
	if (!res) {
		fprintf(stderr, "benchscope duet: out of memory\n");
		rc = BS_EXIT_RUNTIME;
		goto out;
	}
	env.m = &m;
	env.argv[0] = we_cmd[0].we_wordv;
	env.argv[1] = we_cmd[1].we_wordv;
	env.cpus = &cpus;
	env.timeout_s = a.timeout_s;
	env.stdout_fd = null_fd;
	env.capture_stderr = !a.harness_output;
	env.user = a.user;
	env.interrupted = &interrupted;
	env.rt = &rt;
	env.tick = live_tick;
	env.tick_ctx = &live;
	live.total = n_plan;
	bs_progress_init(&live.prog, "runs");
	t_start = bs_mono_ns();
	for (i = 0; i < n_plan && !interrupted; i++) {
		json_object *ev;
		int rr;

		live.cur = &res[i];
		rr = bs_duet_run_one(&env, &plan[i], (int)i, &res[i]);
		live.cur = NULL;
		n_done = i + 1;
		live.done = n_done;
		if (res[i].ok)
			n_ok++;
		ev = bs_duet_runres_event(&res[i], &cpus);
		if (bs_measure_event(&m, ev))
			fprintf(stderr, "benchscope duet: warning: cannot write the run's event\n");
		json_object_put(ev);
		if (!res[i].ok && !res[i].interrupted) {
			bs_progress_done(&live.prog);
			fprintf(stderr, "benchscope duet: run %zu (%s) failed: %s\n", i,
				bs_duet_method_name(plan[i].method), res[i].reason);
		}
		if (rr) {
			measure_failed = true;
			break;
		}
		bs_progress_update(&live.prog, n_done, n_plan);
		if (a.stop_ci > 0 && !res[i].interrupted) {
			double w;
			bool stop;

			ev = bs_duet_stop_check(res, n_done, methods[0], (size_t)rmin, a.stop_ci,
						a.min_overlap, (uint64_t)a.seed, &w, &stop);
			bs_measure_event(&m, ev);
			json_object_put(ev);
			if (stop) {
				stopped_early = n_done < n_plan;
				break;
			}
		}
	}
	bs_progress_done(&live.prog);
	bs_barrier_rt_stop(&rt);
	end = json_object_new_object();
	{
		json_object *st = json_object_new_object();

		json_object_object_add(st, "total", json_object_new_int64((int64_t)n_done));
		json_object_object_add(st, "ok", json_object_new_int64((int64_t)n_ok));
		json_object_object_add(st, "failed",
				       json_object_new_int64((int64_t)(n_done - n_ok)));
		json_object_object_add(st, "planned", json_object_new_int64((int64_t)n_plan));
		json_object_object_add(st, "stopped_by_ci", json_object_new_boolean(stopped_early));
		json_object_object_add(end, "status_runs", st);
	}
	json_object_object_add(end, "interrupted", json_object_new_boolean(interrupted));
	json_object_object_add(end, "wall_ns",
			       json_object_new_int64((int64_t)(bs_mono_ns() - t_start)));
	if (bs_measure_finish(&m, end))
		fprintf(stderr, "benchscope duet: warning: closing the trace %s failed\n", a.trace);
	bs_measure_destroy(&m);
	opened = false;
	if (stopped_early)
		fprintf(stderr,
			"benchscope duet: stopped after %zu of %zu runs: the CI is narrow enough "
			"(--stop-ci %g)\n",
			n_done, n_plan, a.stop_ci);
	rc = BS_EXIT_OK;
	if (n_ok == 0) {
		fprintf(stderr, "benchscope duet: no usable run (%zu failed); the trace is %s\n",
			n_done, a.trace);
		rc = BS_EXIT_NO_DATA;
	} else {
		struct bs_duet_report_opts ro = {.json_path = a.json,
						 .csv_path = a.csv,
						 .md_path = a.md,
						 .plot_path = a.plot,
						 .min_overlap = a.min_overlap,
						 .n_resamples = (size_t)a.resamples,
						 .seed = (uint64_t)a.seed,
						 .no_mds = a.no_mds,
						 .no_table = a.quiet};
		struct bs_duet_outcome oc;
		struct bs_dataset *ds = NULL;
		int r;

		memset(&oc, 0, sizeof(oc));
		oc.worst_slowdown_lo_pct = NAN;
		if (bs_dataset_load(a.trace, &ds, err, sizeof(err))) {
			fprintf(stderr, "benchscope duet: cannot read back the trace: %s\n", err);
			rc = BS_EXIT_RUNTIME;
		} else if ((r = bs_duet_report_render(ds, &ro, &oc, err, sizeof(err)))) {
			fprintf(stderr, "benchscope duet: %s\n", err);
			rc = r == -EINVAL ? BS_EXIT_NO_DATA : BS_EXIT_RUNTIME;
		} else if (a.have_fail && isfinite(oc.worst_slowdown_lo_pct) &&
			   oc.worst_slowdown_lo_pct > a.fail_pct) {
			fprintf(stderr,
				"benchscope duet: regression: B is slower than A by more than %g "
				"%% (CI lower bound %.2f %%)\n",
				a.fail_pct, oc.worst_slowdown_lo_pct);
			rc = BS_EXIT_REGRESSION;
		}
		bs_dataset_free(ds);
	}
	if (measure_failed && rc == BS_EXIT_OK)
		rc = BS_EXIT_RUNTIME;
	if (interrupted)
		rc = BS_EXIT_INTERRUPTED;
out:
	bs_barrier_rt_stop(&rt);
	if (opened)
		bs_measure_destroy(&m);
	for (i = 0; res && i < n_plan; i++)
		bs_duet_runres_free(&res[i]);
	free(res);
	free(plan);
	json_object_put(extra);
	if (null_fd >= 0)
		close(null_fd);
	for (s = 0; s < 2; s++) {
		if (have_cmd[s])
			wordfree(&we_cmd[s]);
		if (have_probe[s])
			wordfree(&we_probe[s]);
	}
	return rc;
}
