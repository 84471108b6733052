// SPDX-License-Identifier: MIT
/* options.c - the options of `benchscope duet` (see options.h). */
#include "duet/options.h"
#include "probe/probe_count.h"
#include "probe/session.h"

#include "probe/lines_options.h"
#include "probe/measure_options.h"

#include <limits.h>
#include <string.h>

#include "duet/render.h"
#include "util/cli.h"
#include "util/exit_status.h"

enum {
	OPT_ITER = 0x100,
	OPT_BEGIN,
	OPT_END,
	OPT_PRESET,
	OPT_PROBES,
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
	OPT_CROSSOVER,
	OPT_SWAP_EVERY,
	OPT_NOISE_CHECK,
	OPT_NOISE_EVERY,
	OPT_BAR_RELEASE,
	OPT_SHARD,
};

static const struct argp_option duet_options[] = {
    {NULL, 0, NULL, 0, "The two versions (shell-like words, no shell: quote each command):", 1},
    {"cmd-a", 'A', "CMD_A", 0, "the baseline (A)", 1},
    {"cmd-b", 'B', "CMD_B", 0, "the candidate (B); the same as A for an A/A test", 1},
    {NULL, 0, NULL, 0, "Iteration boundaries, as for `run` (one set for both sides):", 2},
    {"iter", OPT_ITER, "BIN:SYMBOL", 0, "an iteration is one call of SYMBOL", 2},
    {"begin", OPT_BEGIN, "SITE", 0, "begin site: BIN:SYMBOL or usdt:BIN:PROVIDER:NAME", 2},
    {"end", OPT_END, "SITE", 0, "end site", 2},
    {"preset", OPT_PRESET, "NAME", 0, "gbench, process, catch2, go or criterion", 2},
    {"probes", OPT_PROBES, "1|2|auto", 0,
     "probes per iteration: 1, the end probe alone reading the harness's own begin (--preset "
     "go or gbench; not with --method sync or interleaved, which stop a side at its begin probe); "
     "2; "
     "auto (default): 1 where the preset and every method allow it",
     2},
    {"probe-A", OPT_PROBE_A, "'OPTS'", 0,
     "A's own boundaries when the versions differ, e.g. --probe-A '--iter ./a:run'", 2},
    {"probe-B", OPT_PROBE_B, "'OPTS'", 0, "B's own boundaries", 2},
    {"shard", OPT_SHARD, "I/N", 0,
     "compare only shard I (0 to N-1) of the benchmarks A and B list (--preset gbench, go, "
     "criterion): sorted by name, the k-th goes to shard k mod N",
     2},
    {NULL, 0, NULL, 0, "Runs:", 3},
    {"method", OPT_METHOD, "LIST", 0,
     "auto (default): the design the noise check recommends, async with --crossover on two "
     "independent CPUs of one speed on bare metal, else (and always on a virtual machine, "
     "whose host may slow one vCPU unseen) interleaved on the steadiest CPU; or async, sync, "
     "seq, interleaved, all (= async,sync,seq), comma-separated. interleaved: both sides on "
     "one CPU, taking turns one iteration each",
     3},
    {"noise-check", OPT_NOISE_CHECK, "S", 0,
     "length of the noise check run before the runs, in seconds (default 2; 0: none, only "
     "with a --method given); its result goes into the trace and the report",
     3},
    {"noise-every", OPT_NOISE_EVERY, "N", 0,
     "check the noise again after every N rounds (a round runs each method once)", 3},
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
    {"cpus", OPT_CPUS, "A=LIST,B=LIST", 0,
     "pin each side to CPUs (default: no placement; interleaved: both on the last CPU)", 3},
    {"crossover", OPT_CROSSOVER, NULL, 0,
     "half of each method's runs start with A and B's CPUs exchanged, balanced and "
     "shuffled like the pair orders (default placement A=first CPU, B=second)",
     3},
    {"swap-every", OPT_SWAP_EVERY, "MS", 0,
     "exchange the two sides' CPUs every MS milliseconds while both run (a crossover "
     "within each run; implies the placement of --crossover)",
     3},
    {"stop-ci", OPT_STOP_CI, "WIDTH", 0,
     "stop once the interval of the headline verdict's method (interleaved, else async, "
     "else sync, else seq; the run-level model) has a "
     "relative width exp(hi) - exp(lo) of at most WIDTH (e.g. 0.02), checked after each "
     "run; no stop while the model cannot be fitted (too few runs; --cpus without "
     "--crossover)",
     3},
    {"user", OPT_USER, "NAME", 0, "run both sides as this user", 3},
    {"harness-output", OPT_HARNESS_OUT, NULL, 0,
     "show the harnesses' output (default: stdout discarded, stderr kept aside and quoted "
     "when a side fails)",
     3},
    {NULL, 0, NULL, 0, "Analysis and outputs:", 4},
    {"name", OPT_NAME, "LABEL", 0, "benchmark label (default: A's program name)", 4},
    {"min-overlap", OPT_MIN_OVERLAP, "M", 0, "async pairing threshold, 0 < M < 1 (default 0.4)", 4},
    {"output", 'o', "TRACE", 0, "trace file (default benchscope-duet.trace)", 4},
    {"json", OPT_JSON, "FILE", 0, "JSON report (- for stdout)", 4},
    {"csv", OPT_CSV, "FILE", 0, "per-iteration CSV (duet package schema + ours)", 4},
    {"md", OPT_MD, "FILE", 0, "Markdown report", 4},
    {"plot", OPT_PLOT, "FILE", 0, "overlap timeline picture (.svg or .png)", 4},
    {"resamples", OPT_RESAMPLES, "N", 0, "bootstrap resamples (default 9999)", 4},
    {"no-mds", OPT_NO_MDS, NULL, 0, "skip the MDS curve", 4},
    {"fail-on-regression", OPT_FAIL, "PCT", 0,
     "exit 5 when a benchmark's headline verdict (interleaved, else async, else sync, else "
     "seq) puts B slower than A by more than PCT % with the CI excluding it",
     4},
    {"quiet", 'q', NULL, 0, "no table on stdout, no progress line", 4},
    {NULL, 0, NULL, 0, "Measurement:", 5},
    {"ringbuf-size", OPT_RINGBUF, "MIB", 0, "ring buffer size in MiB (default 16)", 5},
    {"no-interferers", OPT_NO_INTERF, NULL, 0, "do not account which tasks took the CPU", 5},
    {"no-calibrate", OPT_NO_CALIB, NULL, 0, "do not measure the probe cost at start", 5},
    {"barrier-release", OPT_BAR_RELEASE, "auto|user", 0,
     "who continues a side stopped at the sync/interleaved barrier: auto (default) BPF "
     "itself where the kernel allows it (6.13+), else the release thread; user: always the "
     "release thread",
     5},
    {"verbose", 'v', NULL, 0, "print libbpf's messages", 5},
    {0}};

static error_t duet_parse(int key, char *arg, struct argp_state *state)
{
	struct bs_duet_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		*a = (struct bs_duet_args){.trace = "benchscope-duet.trace",
					   .seed = 1,
					   .ringbuf_mib = 16,
					   .timeout_s = 600,
					   .noise_s = 2,
					   .min_overlap = 0};
		state->child_inputs[0] = &a->lines;
		break;
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
	case OPT_PROBES:
		if (bs_probes_parse(arg, &a->probes))
			return bs_argp_error(state, BS_PROBES_USAGE, arg);
		break;
	case OPT_SHARD:
		a->shard_text = arg; /* parsed by bs_duet_setup: one line, exit 2 */
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
			return bs_argp_error(state, "--schedule takes rmit or fixed, not '%s'",
					     arg);
		a->schedule = arg;
		break;
	case OPT_SEED:
		if (bs_parse_long(arg, 0, LONG_MAX, &a->seed))
			return bs_argp_error(state, "--seed takes a whole number >= 0, not '%s'",
					     arg);
		break;
	case OPT_TIMEOUT:
		if (bs_parse_double(arg, 0.001, 1e7, &a->timeout_s))
			return bs_argp_error(state, "--timeout takes seconds > 0, not '%s'", arg);
		break;
	case OPT_CPUS:
		a->cpus = arg;
		break;
	case OPT_CROSSOVER:
		a->crossover = true;
		break;
	case OPT_NOISE_CHECK:
		if (bs_parse_double(arg, 0, 3600, &a->noise_s) ||
		    (a->noise_s > 0 && a->noise_s < 0.5))
			return bs_argp_error(
			    state, "--noise-check takes 0 or seconds in [0.5, 3600], not '%s'",
			    arg);
		break;
	case OPT_NOISE_EVERY:
		if (bs_parse_long(arg, 1, 100000, &a->noise_every))
			return bs_argp_error(
			    state, "--noise-every takes a whole number of rounds >= 1, not '%s'",
			    arg);
		break;
	case OPT_BAR_RELEASE:
		if (strcmp(arg, "auto") && strcmp(arg, "user"))
			return bs_argp_error(state,
					     "--barrier-release takes auto or user, not '%s'", arg);
		a->barrier_user = !strcmp(arg, "user");
		break;
	case OPT_SWAP_EVERY:
		if (bs_parse_double(arg, 1, 1e7, &a->swap_every_s))
			return bs_argp_error(state,
					     "--swap-every takes milliseconds >= 1, not '%s'", arg);
		a->swap_every_s /= 1000;
		break;
	case OPT_NAME:
		a->name = arg;
		break;
	case OPT_MIN_OVERLAP:
		if (bs_parse_min_overlap(arg, &a->min_overlap))
			return bs_argp_error(
			    state,
			    "--min-overlap wants a ratio between 0 and 1 (0 < M < 1), not '%s'",
			    arg);
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
		if (bs_duet_plot_format(arg) < 0)
			return bs_argp_error(state, BS_PLOT_USAGE, arg);
		a->plot = arg;
		break;
	case OPT_FAIL:
		if (bs_parse_double(arg, 0, 1e6, &a->fail_pct))
			return bs_argp_error(
			    state, "--fail-on-regression takes a percentage >= 0, not '%s'", arg);
		a->have_fail = true;
		break;
	case OPT_STOP_CI:
		if (bs_parse_double(arg, 1e-6, 100, &a->stop_ci))
			return bs_argp_error(
			    state, "--stop-ci takes a relative width > 0 (e.g. 0.02), not '%s'",
			    arg);
		break;
	case OPT_USER:
		if (!bs_session_user_known(arg))
			return bs_argp_error(state, BS_USER_USAGE, arg);
		a->user = arg;
		break;
	case OPT_HARNESS_OUT:
		a->harness_output = true;
		break;
	case OPT_NO_MDS:
		a->no_mds = true;
		break;
	case OPT_RESAMPLES:
		if (bs_parse_long(arg, BS_DUET_RESAMPLES_MIN, BS_DUET_RESAMPLES_MAX, &a->resamples))
			return bs_argp_error(
			    state, "--resamples takes a whole number from 100 to 1000000, not '%s'",
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
		if (bs_parse_ringbuf_mib(arg, &a->ringbuf_mib))
			return bs_argp_error(state, BS_RINGBUF_USAGE, arg);
		break;
	case ARGP_KEY_ARG:
		return bs_argp_error(
		    state, "unexpected argument '%s': give the commands with -A 'CMD' -B 'CMD'",
		    arg);
	case ARGP_KEY_END:
		if (!a->cmd[0] || !a->cmd[1])
			return bs_argp_error(state,
					     "both versions are needed: -A 'CMD_A' -B 'CMD_B'");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char duet_doc[] =
    "Compare two versions of an unmodified harness as a duet: both measured in the same runs "
    "(async: together; sync: iteration i of both started together by a kernel-assisted "
    "barrier), in turn (seq) or taking turns on one CPU (interleaved), with paired "
    "statistics. By default a short noise check first picks the design that suits the "
    "machine's CPUs (--method auto).\v"
    "Examples:\n"
    "  benchscope duet --preset gbench -A './bench_old' -B './bench_new'\n"
    "  benchscope duet --preset gbench --method async --crossover --noise-every 2 -A ./a -B ./b\n"
    "  benchscope duet --preset gbench --method async,seq --runs 10 --fail-on-regression 2 \\\n"
    "      -A './bench --benchmark_filter=BM_Sort' -B './bench_b --benchmark_filter=BM_Sort'\n"
    "  benchscope duet --probe-A '--iter ./a:step' --probe-B '--iter ./b:step' -A ./a -B ./b\n"
    "  benchscope duet --preset go -A \"./old.test -test.run='^$' -test.bench=.\" \\\n"
    "      -B \"./new.test -test.run='^$' -test.bench=.\"\n"
    "  benchscope duet --method async --crossover --begin-line '^\\+DT:(?<name>[^:]+):' \\\n"
    "      --end-line '^\\+R:(?<invocations>[0-9]+):' -A 'openssl speed -mr -seconds 1 md5' \\\n"
    "      -B 'openssl speed -mr -seconds 1 md5'   (A/A, output lines)\n"
    "  benchscope duet --preset gbench --stop-ci 0.02 --runs 5:40 -A ./x -B ./x   (A/A)\n"
    "  benchscope duet --preset gbench --shard $JOB_COMPLETION_INDEX/8 -A ./old -B ./new\n"
    "      (shard I of 8 of the benchmarks A and B list; README \"Many machines\")\n"
    "  benchscope duet --preset catch2 -A \"./tests_old '[!benchmark]'\" -B \"./tests_new "
    "'[!benchmark]'\"\n"
    "      (quote Catch2 tags inside -A/-B: the commands are split like a shell's, and [!...] "
    "is a glob)\n"
    "Needs root, or CAP_BPF + CAP_PERFMON, and a kernel with BTF (benchscope "
    "doctor).\n" BS_EXIT_STATUS_HELP;

/* output lines, as for run (async and seq duets only): in the boundaries group */
static const struct argp_child duet_children[] = {{&bs_lines_argp, 0, NULL, 2}, {0}};

const struct argp bs_duet_argp = {
    .options = duet_options,
    .parser = duet_parse,
    .children = duet_children,
    .args_doc = "-A 'CMD_A' -B 'CMD_B'",
    .doc = duet_doc,
};
