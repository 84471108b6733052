// SPDX-License-Identifier: MIT
/*
 * replay.c - `benchscope replay TRACE... [--stop CRITERION|all] [...]`
 *
 * Computes the stoppage points of dynamic reconfiguration post hoc on
 * traces recorded with a fixed long configuration (Laaber et al. 2020 §5.3) and
 * reports, per trace (one benchmark each) and criterion, and in total over
 * the traces: time saved versus the static configuration, the A/A test and
 * the change rate (Laaber et al. 2020 §5.4, Tables 2 and 3). See replay_core.h.
 * On a terminal, unless -q, a live line on stderr counts the replays (a
 * trace under a criterion: "replay 4 of 60: b2.trace, rciw",
 * util/progress.h), erased before anything is printed.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "stop/replay_report.h"
#include "stop/replay_set.h"
#include "util/output.h"
#include "util/progress.h"

struct replay_args {
	struct bs_replay_set set; /**< the settings, and the results once run */
	long seed;
	const char *json;
	bool quiet, threshold_given;
};

enum {
	OPT_STOP = 0x100,
	OPT_WARMUP,
	OPT_MEASURE,
	OPT_FORKS,
	OPT_THRESHOLD,
	OPT_WINDOW,
	OPT_STATIC,
	OPT_LEVEL,
	OPT_RESAMPLES,
	OPT_SEED,
	OPT_JSON,
};

static const struct argp_option replay_options[] = {
    {"stop", OPT_STOP, "CRITERION", 0, "cv, rciw, kld or all (default all)", 1},
    {"warmup", OPT_WARMUP, "MIN:MAX", 0, "dynamic warmup iterations per fork (default 5:50)", 1},
    {"measure", OPT_MEASURE, "N", 0, "dynamic measurement iterations per fork (default 10)", 1},
    {"forks", OPT_FORKS, "MIN:MAX", 0, "dynamic forks (default 2:5)", 1},
    {"threshold", OPT_THRESHOLD, "T", 0,
     "threshold of the one criterion (default 0.01 / 0.03 / 0.99)", 1},
    {"window", OPT_WINDOW, "S", 0, "warmup sliding window s_W (default 5; >= 2 with cv, rciw)", 1},
    {"static", OPT_STATIC, "WI:MI:F", 0, "static baseline (default 50:50:5)", 1},
    {"level", OPT_LEVEL, "L", 0, "A/A confidence level (default 0.99)", 1},
    {"resamples", OPT_RESAMPLES, "N", 0, "A/A bootstrap resamples (default 10000)", 1},
    {"seed", OPT_SEED, "N", 0, "seed of the RCIW criterion and of the A/A bootstrap (default 1)",
     1},
    {"json", OPT_JSON, "FILE", 0, "write the results as JSON (- for stdout)", 2},
    {"quiet", 'q', NULL, 0, "no table on stdout, no progress line", 2},
    {0}};

static error_t replay_parse(int key, char *arg, struct argp_state *state)
{
	struct replay_args *a = state->input;
	long v[3];
	long l;
	char *e;

	switch (key) {
	case OPT_STOP:
		if (!strcmp(arg, "all")) {
			a->set.n_crits = 3;
			a->set.crits[0] = BS_CRIT_CV;
			a->set.crits[1] = BS_CRIT_RCIW;
			a->set.crits[2] = BS_CRIT_KLD;
		} else {
			int c = bs_stop_crit_parse(arg);

			if (c <= 0)
				return bs_argp_error(
				    state, "--stop takes cv, rciw, kld or all, not '%s'", arg);
			a->set.n_crits = 1;
			a->set.crits[0] = c;
		}
		break;
	case OPT_WARMUP:
		if (bs_parse_range(arg, 2, 0, BS_STOP_MAX_ITERS, v))
			return bs_argp_error(state, "--warmup takes MIN:MAX, not '%s'", arg);
		a->set.plan.wi_min = (size_t)v[0];
		a->set.plan.wi_max = (size_t)v[1];
		break;
	case OPT_FORKS:
		if (bs_parse_range(arg, 2, 1, BS_STOP_MAX_ITERS, v))
			return bs_argp_error(state, "--forks takes MIN:MAX (>= 1), not '%s'", arg);
		a->set.plan.f_min = (size_t)v[0];
		a->set.plan.f_max = (size_t)v[1];
		break;
	case OPT_MEASURE:
		if (bs_parse_range(arg, 1, 1, BS_STOP_MAX_ITERS, v))
			return bs_argp_error(state, "--measure takes a whole number >= 1, not '%s'",
					     arg);
		a->set.plan.mi = (size_t)v[0];
		break;
	case OPT_WINDOW:
		if (bs_parse_range(arg, 1, 1, BS_STOP_MAX_ITERS, v))
			return bs_argp_error(state, "--window takes a whole number >= 1, not '%s'",
					     arg);
		a->set.plan.window = (size_t)v[0];
		break;
	case OPT_STATIC:
		if (bs_parse_range(arg, 3, 0, BS_STOP_MAX_ITERS, v) || !v[1] || !v[2])
			return bs_argp_error(state, "--static takes WI:MI:F (MI, F >= 1), not '%s'",
					     arg);
		a->set.st.wi = (size_t)v[0];
		a->set.st.mi = (size_t)v[1];
		a->set.st.f = (size_t)v[2];
		break;
	case OPT_THRESHOLD:
		if (bs_stop_threshold_parse(arg, &a->set.plan.threshold))
			return bs_argp_error(state,
					     "--threshold takes a number in (0, 1], not '%s'", arg);
		a->threshold_given = true;
		break;
	case OPT_LEVEL:
		a->set.level = strtod(arg, &e);
		if (e == arg || *e || !(a->set.level > 0 && a->set.level < 1))
			return bs_argp_error(state, "--level takes a number in (0, 1), not '%s'",
					     arg);
		break;
	case OPT_RESAMPLES:
		if (bs_parse_long(arg, 100, 10000000, &a->set.resamples))
			return bs_argp_error(
			    state,
			    "--resamples takes a whole number from 100 to 10000000, not '%s'", arg);
		break;
	case OPT_SEED:
		if (bs_parse_long(arg, 0, LONG_MAX, &l))
			return bs_argp_error(state, "--seed takes a whole number >= 0, not '%s'",
					     arg);
		a->seed = l;
		break;
	case OPT_JSON:
		a->json = arg;
		break;
	case 'q':
		a->quiet = true;
		break;
	case ARGP_KEY_ARG:
		return ARGP_ERR_UNKNOWN;
	case ARGP_KEY_ARGS:
		a->set.paths = state->argv + state->next;
		a->set.n_traces = state->argc - state->next;
		break;
	case ARGP_KEY_NO_ARGS:
		return bs_argp_error(state,
				     "no trace: benchscope replay TRACE... [--stop CRITERION]");
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char replay_doc[] =
    "Compute dynamic reconfiguration's stoppage points post hoc on traces recorded with a fixed "
    "long configuration (Laaber et al. 2020 §5.3), one benchmark per trace, and compare with the "
    "static "
    "configuration: time saved, A/A test (hierarchical bootstrap CI of the ratio of means "
    "straddles 1), change rate.\v"
    "Record each benchmark with, e.g.:\n"
    "  benchscope run --stop none --forks 5:5 --warmup 50:50 --measure 50 --preset gbench \\\n"
    "      -o b1.trace -- ./bench --benchmark_filter=BM_x --benchmark_repetitions=1000\n"
    "then:\n"
    "  benchscope replay b1.trace b2.trace --stop all\n" BS_EXIT_STATUS_HELP;

int cmd_replay(int argc, char **argv)
{
	int parse_status;
	struct argp argp = {replay_options, replay_parse, "TRACE...", replay_doc, NULL, NULL, NULL};
	struct replay_args a = {
	    .set = {.level = 0.99, .resamples = 10000, .st = {50, 50, 5}},
	    .seed = 1,
	};
	struct bs_replay_set *set = &a.set;
	struct bs_progress line;
	struct bs_steps steps;
	char err[PATH_MAX + 1100];
	int rc = 0, e;

	set->plan = bs_stop_plan_default(BS_CRIT_RCIW);
	set->n_crits = 3;
	set->crits[0] = BS_CRIT_CV;
	set->crits[1] = BS_CRIT_RCIW;
	set->crits[2] = BS_CRIT_KLD;
	if (!bs_argp_parse_own(&argp, "benchscope replay", 0, argc, argv, &a, &parse_status))
		return parse_status;
	if (a.threshold_given && set->n_crits != 1) {
		fprintf(
		    stderr,
		    "benchscope replay: --threshold needs one criterion (--stop cv|rciw|kld)\n");
		return 2;
	}
	for (size_t c = 0; c < set->n_crits; c++) {
		struct bs_stop_plan p = set->plan;

		p.crit = set->crits[c];
		if (bs_stop_plan_check(&p, err, sizeof(err))) {
			fprintf(stderr, "benchscope replay: %s\n", err);
			return 2;
		}
	}
	set->plan.seed = (uint64_t)a.seed;
	set->seed = (uint64_t)a.seed;
	bs_progress_init(&line, "replay", !a.quiet);
	steps = bs_progress_steps(&line);
	set->steps = &steps;
	e = bs_replay_set_run(set, err, sizeof(err));
	bs_progress_done(&line);
	if (e) {
		fprintf(stderr, "benchscope replay: %s\n", err);
		rc = e == -ENOMEM    ? BS_EXIT_RUNTIME
		     : e == -ENODATA ? BS_EXIT_NO_DATA
				     : BS_EXIT_USAGE;
	} else {
		if (!a.quiet && !bs_output_is_stdout(a.json)) {
			if (bs_replay_print(set)) {
				fprintf(stderr, "benchscope replay: out of memory\n");
				rc = 1;
			} else if (bs_output_flush_stdout(err, sizeof(err))) {
				fprintf(stderr, "benchscope replay: %s\n", err);
				rc = 1;
			}
		}
		bs_replay_warn(stderr, set); /* also with -q or --json - */
		if (!rc && a.json && bs_replay_write_json(set, a.json)) {
			fprintf(stderr, "benchscope replay: cannot write %s\n",
				bs_output_name(a.json));
			rc = 1;
		}
	}
	bs_replay_set_free(set);
	return rc;
}
