// SPDX-License-Identifier: MIT
/*
 * cmd_replay.c - `benchscope replay TRACE... [--stop CRITERION|all] [...]`
 *
 * Computes the stoppage points of dynamic reconfiguration post hoc on
 * traces recorded with a fixed long configuration (Laaber et al. 2020 §5.3) and
 * reports, per trace (one benchmark each) and criterion, and in total over
 * the traces: time saved versus the static configuration, the A/A test and
 * the change rate (Laaber et al. 2020 §5.4, Tables 2 and 3). See replay_core.h.
 */
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "trace/dataset.h"
#include "stop/replay_core.h"
#include "stop/replay_load.h"
#include "stop/stop_run.h"
#include "util/output.h"
#include "util/units.h"

struct replay_args {
	struct bs_stop_plan plan;
	int crits[3];
	size_t n_crits;
	struct bs_replay_static st;
	double level;
	long resamples;
	long seed;
	const char *json;
	bool quiet, threshold_given;
	char **traces;
	int n_traces;
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
    {"window", OPT_WINDOW, "S", 0, "warmup sliding window s_W (default 5)", 1},
    {"static", OPT_STATIC, "WI:MI:F", 0, "static baseline (default 50:50:5)", 1},
    {"level", OPT_LEVEL, "L", 0, "A/A confidence level (default 0.99)", 1},
    {"resamples", OPT_RESAMPLES, "N", 0, "A/A bootstrap resamples (default 10000)", 1},
    {"seed", OPT_SEED, "N", 0, "seed of the RCIW criterion and of the A/A bootstrap (default 1)",
     1},
    {"json", OPT_JSON, "FILE", 0, "write the results as JSON (- for stdout)", 2},
    {"quiet", 'q', NULL, 0, "no table on stdout", 2},
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
			a->n_crits = 3;
			a->crits[0] = BS_CRIT_CV;
			a->crits[1] = BS_CRIT_RCIW;
			a->crits[2] = BS_CRIT_KLD;
		} else {
			int c = bs_stop_crit_parse(arg);

			if (c <= 0)
				argp_error(state, "--stop takes cv, rciw, kld or all, not '%s'",
					   arg);
			a->n_crits = 1;
			a->crits[0] = c;
		}
		break;
	case OPT_WARMUP:
		if (bs_parse_range(arg, 2, 0, BS_STOP_MAX_ITERS, v))
			argp_error(state, "--warmup takes MIN:MAX, not '%s'", arg);
		a->plan.wi_min = (size_t)v[0];
		a->plan.wi_max = (size_t)v[1];
		break;
	case OPT_FORKS:
		if (bs_parse_range(arg, 2, 1, BS_STOP_MAX_ITERS, v))
			argp_error(state, "--forks takes MIN:MAX (>= 1), not '%s'", arg);
		a->plan.f_min = (size_t)v[0];
		a->plan.f_max = (size_t)v[1];
		break;
	case OPT_MEASURE:
		if (bs_parse_range(arg, 1, 1, BS_STOP_MAX_ITERS, v))
			argp_error(state, "--measure takes a whole number >= 1, not '%s'", arg);
		a->plan.mi = (size_t)v[0];
		break;
	case OPT_WINDOW:
		if (bs_parse_range(arg, 1, 1, BS_STOP_MAX_ITERS, v))
			argp_error(state, "--window takes a whole number >= 1, not '%s'", arg);
		a->plan.window = (size_t)v[0];
		break;
	case OPT_STATIC:
		if (bs_parse_range(arg, 3, 0, BS_STOP_MAX_ITERS, v) || !v[1] || !v[2])
			argp_error(state, "--static takes WI:MI:F (MI, F >= 1), not '%s'", arg);
		a->st.wi = (size_t)v[0];
		a->st.mi = (size_t)v[1];
		a->st.f = (size_t)v[2];
		break;
	case OPT_THRESHOLD:
		a->plan.threshold = strtod(arg, &e);
		if (e == arg || *e || !isfinite(a->plan.threshold) || a->plan.threshold <= 0 ||
		    a->plan.threshold > 1)
			argp_error(state, "--threshold takes a number in (0, 1], not '%s'", arg);
		a->threshold_given = true;
		break;
	case OPT_LEVEL:
		a->level = strtod(arg, &e);
		if (e == arg || *e || !(a->level > 0 && a->level < 1))
			argp_error(state, "--level takes a number in (0, 1), not '%s'", arg);
		break;
	case OPT_RESAMPLES:
		if (bs_parse_long(arg, 100, 10000000, &a->resamples))
			argp_error(
			    state,
			    "--resamples takes a whole number from 100 to 10000000, not '%s'", arg);
		break;
	case OPT_SEED:
		if (bs_parse_long(arg, 0, LONG_MAX, &l))
			argp_error(state, "--seed takes a whole number >= 0, not '%s'", arg);
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
		a->traces = state->argv + state->next;
		a->n_traces = state->argc - state->next;
		break;
	case ARGP_KEY_NO_ARGS:
		argp_error(state, "no trace: benchscope replay TRACE... [--stop CRITERION]");
		break;
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

struct row {
	const char *name;
	struct bs_replay_result r;
	int ok;
};

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static json_object *jd(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}

static json_object *result_json(const struct bs_replay_result *r, const struct bs_stop_plan *p)
{
	json_object *o = json_object_new_object(), *w = json_object_new_array(),
		    *m = json_object_new_array(), *ws = json_object_new_array(),
		    *ci = json_object_new_array();

	json_object_object_add(o, "criterion", json_object_new_string(bs_stop_crit_name(r->crit)));
	json_object_object_add(o, "threshold", jd(bs_stop_plan_threshold(p)));
	json_object_object_add(o, "forks_used", json_object_new_int64((int64_t)r->forks_used));
	for (size_t i = 0; i < r->forks_used; i++) {
		json_object_array_add(w, json_object_new_int64((int64_t)r->warmup[i]));
		json_object_array_add(m, json_object_new_int64((int64_t)r->measure[i]));
		json_object_array_add(ws, json_object_new_boolean(r->warmup_stable[i]));
	}
	json_object_object_add(o, "warmup_iterations", w);
	json_object_object_add(o, "measurement_iterations", m);
	json_object_object_add(o, "warmup_stable", ws);
	json_object_object_add(o, "warmup_mean", jd(r->warmup_mean));
	json_object_object_add(o, "forks_stable", json_object_new_boolean(r->forks_stable));
	json_object_object_add(o, "fork_bound_hit", json_object_new_boolean(r->fork_bound));
	json_object_object_add(o, "short_forks", json_object_new_int64((int64_t)r->n_short));
	json_object_object_add(o, "checkpoints", json_object_new_int64((int64_t)r->n_checkpoints));
	json_object_object_add(o, "compute_ns", json_object_new_int64((int64_t)r->compute_ns));
	json_object_object_add(o, "compute_share", jd((double)r->compute_ns / r->t_dyn_ns));
	json_object_object_add(o, "time_static_ns", jd(r->t_static_ns));
	json_object_object_add(o, "time_dynamic_ns", jd(r->t_dyn_ns));
	json_object_object_add(o, "time_saved", jd(r->saved));
	json_object_object_add(o, "mean_static", jd(r->mean_static));
	json_object_object_add(o, "mean_dynamic", jd(r->mean_dyn));
	json_object_object_add(o, "change_rate", jd(r->change_rate));
	json_object_array_add(ci, jd(r->aa_err ? NAN : r->aa.lo));
	json_object_array_add(ci, jd(r->aa_err ? NAN : r->aa.hi));
	json_object_object_add(o, "aa_ratio", jd(r->aa_err ? NAN : r->aa.point));
	json_object_object_add(o, "aa_ci", ci);
	json_object_object_add(o, "aa_unchanged", json_object_new_boolean(r->aa_same));
	return o;
}

/* Totals of one criterion over the traces (Tables 2 and 3). */
struct total {
	double t_static, t_dyn, compute;
	size_t n, same, below[3];
	double cr_sum, cr_sq, warm_sum, forks_sum;
};

static void total_add(struct total *t, const struct bs_replay_result *r)
{
	t->t_static += r->t_static_ns;
	t->t_dyn += r->t_dyn_ns;
	t->compute += (double)r->compute_ns;
	t->n++;
	t->same += r->aa_same;
	for (int k = 0; k < 3; k++)
		t->below[k] += r->change_rate < (k + 1) / 100.0;
	t->cr_sum += r->change_rate;
	t->cr_sq += r->change_rate * r->change_rate;
	t->warm_sum += r->warmup_mean;
	t->forks_sum += (double)r->forks_used;
}

static double total_cr_sd(const struct total *t)
{
	double m = t->cr_sum / (double)t->n;

	return t->n > 1 ? sqrt(fmax(0, (t->cr_sq - (double)t->n * m * m) / (double)(t->n - 1)))
			: NAN;
}

static void print_row(const char *name, const struct bs_replay_result *r,
		      const struct bs_stop_plan *p)
{
	char a[32], b[32], c[32], d[32], e[32], g[32], ci[64];

	if (r->aa_err)
		snprintf(ci, sizeof(ci), "n/a (%s)", bs_stats_strerror(r->aa_err));
	else
		snprintf(ci, sizeof(ci), "[%.4f, %.4f]", r->aa.lo, r->aa.hi);
	printf(
	    "  %-18.18s %-5s %5zu %7.1f %6zu/%-3zu %-4s %10s %10s %8s %10s %7s  %-18s %-9s %7s\n",
	    name, bs_stop_crit_name(r->crit), r->forks_used, r->warmup_mean, r->n_warmup_stable,
	    r->forks_used,
	    r->forks_stable ? "yes"
	    : r->fork_bound ? "NO"
			    : "no",
	    bs_fmt_ns(r->t_static_ns, a, sizeof(a)), bs_fmt_ns(r->t_dyn_ns, b, sizeof(b)),
	    bs_fmt_pct(r->saved, c, sizeof(c)), bs_fmt_ns(r->mean_dyn, d, sizeof(d)),
	    bs_fmt_pct(r->change_rate, e, sizeof(e)), ci, r->aa_same ? "unchanged" : "CHANGED",
	    bs_fmt_pct((double)r->compute_ns / r->t_dyn_ns, g, sizeof(g)));
	(void)p;
}

int cmd_replay(int argc, char **argv)
{
	struct argp argp = {replay_options, replay_parse, "TRACE...", replay_doc, NULL, NULL, NULL};
	struct replay_args a = {.level = 0.99, .resamples = 10000, .seed = 1, .st = {50, 50, 5}};
	struct bs_replay_trace *tr = NULL;
	struct row *rows = NULL;
	struct total tot[3];
	json_object *root = NULL, *jtraces, *jtotals;
	char err[1024];
	int rc = 0, nt;

	a.plan = bs_stop_plan_default(BS_CRIT_RCIW);
	a.n_crits = 3;
	a.crits[0] = BS_CRIT_CV;
	a.crits[1] = BS_CRIT_RCIW;
	a.crits[2] = BS_CRIT_KLD;
	if (argp_parse(&argp, argc, argv, 0, NULL, &a))
		return 2;
	if (a.threshold_given && a.n_crits != 1) {
		fprintf(
		    stderr,
		    "benchscope replay: --threshold needs one criterion (--stop cv|rciw|kld)\n");
		return 2;
	}
	for (size_t c = 0; c < a.n_crits; c++) {
		struct bs_stop_plan p = a.plan;

		p.crit = a.crits[c];
		if (bs_stop_plan_check(&p, err, sizeof(err))) {
			fprintf(stderr, "benchscope replay: %s\n", err);
			return 2;
		}
	}
	a.plan.seed = (uint64_t)a.seed;
	nt = a.n_traces;
	tr = calloc((size_t)nt, sizeof(*tr));
	rows = calloc((size_t)nt * a.n_crits, sizeof(*rows));
	if (!tr || !rows) {
		fprintf(stderr, "benchscope replay: out of memory\n");
		rc = 1;
		goto out;
	}
	for (int i = 0; i < nt; i++) {
		struct bs_dataset *ds = NULL;
		int e = bs_dataset_load(a.traces[i], &ds, err, sizeof(err));

		if (!e) {
			e = bs_replay_load(ds, &tr[i], err, sizeof(err));
			if (!e &&
			    bs_replay_check(tr[i].forks, tr[i].n_forks, &a.st, err, sizeof(err)))
				e = -EINVAL;
		}
		bs_dataset_free(ds);
		if (e) {
			fprintf(stderr, "benchscope replay: %s: %s\n", a.traces[i], err);
			rc = e == -ENOMEM ? 1 : 2;
			goto out;
		}
	}
	memset(tot, 0, sizeof(tot));
	for (int i = 0; i < nt; i++)
		for (size_t c = 0; c < a.n_crits; c++) {
			struct bs_stop_plan p = a.plan;
			struct row *r = &rows[(size_t)i * a.n_crits + c];
			int e;

			p.crit = a.crits[c];
			r->name = base_name(a.traces[i]);
			e = bs_replay_run(tr[i].forks, tr[i].n_forks, &p, &a.st, a.level,
					  (size_t)a.resamples, (uint64_t)a.seed, &r->r);
			if (e) {
				fprintf(stderr, "benchscope replay: %s: %s\n", a.traces[i],
					e == -ENOMEM ? "out of memory" : "cannot replay");
				rc = e == -ENOMEM ? 1 : 2;
				goto out;
			}
			r->ok = 1;
			total_add(&tot[c], &r->r);
		}
	if (!a.quiet && !bs_output_is_stdout(a.json)) {
		char x[32];

		printf(
		    "Replay of dynamic reconfiguration (Laaber et al. 2020 §5): static %zu warmup "
		    "+ %zu "
		    "measurement x %zu forks; dynamic <%zu, %zu, %zu, %zu, %zu>, window %zu; A/A "
		    "at %g, %ld resamples\n\n",
		    a.st.wi, a.st.mi, a.st.f, a.plan.wi_min, a.plan.wi_max, a.plan.mi, a.plan.f_min,
		    a.plan.f_max, a.plan.window ? a.plan.window : BS_STOP_WINDOW, a.level,
		    a.resamples);
		printf("  %-18s %-5s %5s %7s %10s %-4s %10s %10s %8s %10s %7s  %-18s %-9s %7s\n",
		       "trace", "crit", "forks", "warmup", "w.stable", "f.st", "static", "dynamic",
		       "saved", "mean", "change", "A/A ratio CI", "result", "checkp.");
		for (int i = 0; i < nt; i++)
			for (size_t c = 0; c < a.n_crits; c++)
				print_row(rows[(size_t)i * a.n_crits + c].name,
					  &rows[(size_t)i * a.n_crits + c].r, &a.plan);
		printf("\nTotal over %d benchmarks (Tables 2 and 3 of Laaber et al. 2020)\n", nt);
		printf("  %-5s %9s %11s %12s %18s %8s %8s %8s %8s %7s %10s\n", "crit", "saved",
		       "unchanged", "change mean", "change sd", "<1 %", "<2 %", "<3 %", "warmup",
		       "forks", "checkp.");
		for (size_t c = 0; c < a.n_crits; c++) {
			const struct total *t = &tot[c];
			char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32], s7[32];

			printf("  %-5s %9s %11s %12s %18s %8s %8s %8s %8.1f %7.2f %10s\n",
			       bs_stop_crit_name(a.crits[c]),
			       bs_fmt_pct(1 - t->t_dyn / t->t_static, s1, sizeof(s1)),
			       bs_fmt_pct((double)t->same / (double)t->n, s2, sizeof(s2)),
			       bs_fmt_pct(t->cr_sum / (double)t->n, s3, sizeof(s3)),
			       bs_fmt_pct(total_cr_sd(t), s4, sizeof(s4)),
			       bs_fmt_pct((double)t->below[0] / (double)t->n, x, sizeof(x)),
			       bs_fmt_pct((double)t->below[1] / (double)t->n, s5, sizeof(s5)),
			       bs_fmt_pct((double)t->below[2] / (double)t->n, s6, sizeof(s6)),
			       t->warm_sum / (double)t->n, t->forks_sum / (double)t->n,
			       bs_fmt_pct(t->compute / t->t_dyn, s7, sizeof(s7)));
		}
		printf("  (saved = 1 - sum of dynamic times / sum of static times, checkpoint "
		       "computation included; unchanged = A/A ratio CI straddles 1; change = "
		       "|mean dynamic / mean static - 1|)\n");
		for (int i = 0; i < nt; i++) {
			char fb[64] = "", sh[64] = "";

			for (size_t c = 0; c < a.n_crits; c++) {
				const struct row *r = &rows[(size_t)i * a.n_crits + c];
				const char *cn = bs_stop_crit_name(r->r.crit);

				if (r->r.fork_bound)
					snprintf(fb + strlen(fb), sizeof(fb) - strlen(fb), "%s%s",
						 fb[0] ? ", " : "", cn);
				if (r->r.n_short)
					snprintf(sh + strlen(sh), sizeof(sh) - strlen(sh), "%s%s",
						 sh[0] ? ", " : "", cn);
			}
			if (fb[0])
				printf("  warning: %s: fork stability not reached after f_max = "
				       "%zu forks "
				       "(%s): criterion unreachable at its threshold\n",
				       rows[(size_t)i * a.n_crits].name, a.plan.f_max, fb);
			if (sh[0])
				printf("  warning: %s: forks too short in the recording for the "
				       "dynamic "
				       "configuration (%s)\n",
				       rows[(size_t)i * a.n_crits].name, sh);
		}
	}
	if (a.json) {
		FILE *f = bs_output_open(a.json, err, sizeof(err));
		bool bad;

		root = json_object_new_object();
		jtraces = json_object_new_array();
		jtotals = json_object_new_array();
		{
			json_object *st = json_object_new_object();

			json_object_object_add(st, "warmup",
					       json_object_new_int64((int64_t)a.st.wi));
			json_object_object_add(st, "measure",
					       json_object_new_int64((int64_t)a.st.mi));
			json_object_object_add(st, "forks", json_object_new_int64((int64_t)a.st.f));
			json_object_object_add(root, "static", st);
			struct bs_stop_plan p = a.plan;
			json_object *dyn;

			p.crit = 0;
			dyn = bs_stop_plan_json(&p, 0);
			json_object_object_del(dyn, "criterion");
			json_object_object_del(dyn, "grace_ms");
			json_object_object_add(root, "dynamic", dyn);
			json_object_object_add(root, "level", json_object_new_double(a.level));
			json_object_object_add(root, "resamples",
					       json_object_new_int64(a.resamples));
		}
		for (int i = 0; i < nt; i++) {
			json_object *jt = json_object_new_object(), *jc = json_object_new_array();

			json_object_object_add(jt, "path", json_object_new_string(a.traces[i]));
			json_object_object_add(jt, "forks_recorded",
					       json_object_new_int64((int64_t)tr[i].n_forks));
			json_object_object_add(jt, "excluded_iterations",
					       json_object_new_int64((int64_t)tr[i].n_excluded));
			for (size_t c = 0; c < a.n_crits; c++) {
				struct bs_stop_plan p = a.plan;

				p.crit = a.crits[c];
				json_object_array_add(
				    jc, result_json(&rows[(size_t)i * a.n_crits + c].r, &p));
			}
			json_object_object_add(jt, "criteria", jc);
			json_object_array_add(jtraces, jt);
		}
		for (size_t c = 0; c < a.n_crits; c++) {
			const struct total *t = &tot[c];
			json_object *o = json_object_new_object();

			json_object_object_add(
			    o, "criterion", json_object_new_string(bs_stop_crit_name(a.crits[c])));
			json_object_object_add(o, "benchmarks",
					       json_object_new_int64((int64_t)t->n));
			json_object_object_add(o, "time_static_ns", jd(t->t_static));
			json_object_object_add(o, "time_dynamic_ns", jd(t->t_dyn));
			json_object_object_add(o, "time_saved", jd(1 - t->t_dyn / t->t_static));
			json_object_object_add(o, "unchanged", jd((double)t->same / (double)t->n));
			json_object_object_add(o, "change_rate_mean", jd(t->cr_sum / (double)t->n));
			json_object_object_add(o, "change_rate_sd", jd(total_cr_sd(t)));
			json_object_object_add(o, "change_below_1pct",
					       jd((double)t->below[0] / (double)t->n));
			json_object_object_add(o, "change_below_2pct",
					       jd((double)t->below[1] / (double)t->n));
			json_object_object_add(o, "change_below_3pct",
					       jd((double)t->below[2] / (double)t->n));
			json_object_object_add(o, "warmup_mean", jd(t->warm_sum / (double)t->n));
			json_object_object_add(o, "forks_mean", jd(t->forks_sum / (double)t->n));
			json_object_object_add(o, "compute_share", jd(t->compute / t->t_dyn));
			json_object_array_add(jtotals, o);
		}
		json_object_object_add(root, "traces", jtraces);
		json_object_object_add(root, "totals", jtotals);
		bad = !f ||
		      fprintf(f, "%s\n",
			      json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY)) < 0;
		if (f && bs_output_close(f))
			bad = true;
		if (bad) {
			fprintf(stderr, "benchscope replay: cannot write %s\n", a.json);
			rc = 1;
		}
	}
out:
	for (int i = 0; tr && i < nt; i++)
		bs_replay_trace_free(&tr[i]);
	for (size_t i = 0; rows && i < (size_t)nt * a.n_crits; i++)
		bs_replay_result_free(&rows[i].r);
	free(tr);
	free(rows);
	json_object_put(root);
	return rc;
}
