// SPDX-License-Identifier: MIT
/* replay_report.c - the table and the JSON of `benchscope replay` (see replay_report.h). */
#include "stop/replay_report.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats.h"
#include "stop/stop_run.h"
#include "util/output.h"
#include "util/table.h"
#include "util/units.h"
#include "util/json.h"

static json_object *result_json(const struct bs_replay_result *r, const struct bs_stop_plan *p)
{
	json_object *o = json_object_new_object(), *w = json_object_new_array(),
		    *m = json_object_new_array(), *ws = json_object_new_array(),
		    *ci = json_object_new_array();

	json_object_object_add(o, "criterion", json_object_new_string(bs_stop_crit_name(r->crit)));
	json_object_object_add(o, "threshold", bs_json_double(bs_stop_plan_threshold(p)));
	json_object_object_add(o, "forks_used", json_object_new_int64((int64_t)r->forks_used));
	for (size_t i = 0; i < r->forks_used; i++) {
		json_object_array_add(w, json_object_new_int64((int64_t)r->warmup[i]));
		json_object_array_add(m, json_object_new_int64((int64_t)r->measure[i]));
		json_object_array_add(ws, json_object_new_boolean(r->warmup_stable[i]));
	}
	json_object_object_add(o, "warmup_iterations", w);
	json_object_object_add(o, "measurement_iterations", m);
	json_object_object_add(o, "warmup_stable", ws);
	json_object_object_add(o, "warmup_mean", bs_json_double(r->warmup_mean));
	json_object_object_add(o, "forks_stable", json_object_new_boolean(r->forks_stable));
	json_object_object_add(o, "fork_bound_hit", json_object_new_boolean(r->fork_bound));
	json_object_object_add(o, "short_forks", json_object_new_int64((int64_t)r->n_short));
	json_object_object_add(o, "checkpoints", json_object_new_int64((int64_t)r->n_checkpoints));
	json_object_object_add(o, "compute_ns", json_object_new_int64((int64_t)r->compute_ns));
	json_object_object_add(o, "compute_share",
			       bs_json_double((double)r->compute_ns / r->t_dyn_ns));
	json_object_object_add(o, "time_static_ns", bs_json_double(r->t_static_ns));
	json_object_object_add(o, "time_dynamic_ns", bs_json_double(r->t_dyn_ns));
	json_object_object_add(o, "time_saved", bs_json_double(r->saved));
	json_object_object_add(o, "mean_static", bs_json_double(r->mean_static));
	json_object_object_add(o, "mean_dynamic", bs_json_double(r->mean_dyn));
	json_object_object_add(o, "change_rate", bs_json_double(r->change_rate));
	json_object_array_add(ci, bs_json_double(r->aa_err ? NAN : r->aa.lo));
	json_object_array_add(ci, bs_json_double(r->aa_err ? NAN : r->aa.hi));
	json_object_object_add(o, "aa_ratio", bs_json_double(r->aa_err ? NAN : r->aa.point));
	json_object_object_add(o, "aa_ci", ci);
	json_object_object_add(o, "aa_unchanged",
			       r->aa_err ? NULL : json_object_new_boolean(r->aa_same));
	return o;
}

static double total_cr_sd(const struct bs_replay_total *t)
{
	double m = t->cr_sum / (double)t->n;

	return t->n > 1 ? sqrt(fmax(0, (t->cr_sq - (double)t->n * m * m) / (double)(t->n - 1)))
			: NAN;
}

/* benchmarks left out of any criterion's totals */
static size_t left_out(const struct bs_replay_set *s)
{
	size_t n = 0;

	for (size_t c = 0; c < s->n_crits; c++)
		n += s->tot[c].left_out;
	return n;
}

#define ROW_COLS 14
#define TOT_COLS 12

/* one row of the per-trace table into cells c[0..ROW_COLS) of width 64 */
static void row_cells(const char *name, const struct bs_replay_result *r, char (*c)[64])
{
	snprintf(c[0], 64, "%.18s", name);
	snprintf(c[1], 64, "%s", bs_stop_crit_name(r->crit));
	snprintf(c[2], 64, "%zu", r->forks_used);
	snprintf(c[3], 64, "%.1f", r->warmup_mean);
	snprintf(c[4], 64, "%zu/%zu", r->n_warmup_stable, r->forks_used);
	snprintf(c[5], 64, "%s", r->forks_stable ? "yes" : r->fork_bound ? "NO" : "no");
	bs_fmt_ns(r->t_static_ns, c[6], 64);
	bs_fmt_ns(r->t_dyn_ns, c[7], 64);
	bs_fmt_pct(r->saved, c[8], 64);
	bs_fmt_ns(r->mean_dyn, c[9], 64);
	bs_fmt_pct(r->change_rate, c[10], 64);
	if (r->aa_err)
		snprintf(c[11], 64, "n/a (%s)", bs_stats_strerror(r->aa_err));
	else
		snprintf(c[11], 64, "[%.4f, %.4f]", r->aa.lo, r->aa.hi);
	snprintf(c[12], 64, "%s", r->aa_err ? "n/a" : r->aa_same ? "unchanged" : "CHANGED");
	bs_fmt_pct((double)r->compute_ns / r->t_dyn_ns, c[13], 64);
}

/* print n rows of ncols cells (width 64) under head through the table renderer */
static void print_cells(const char *const *head, char (*cells)[64], size_t n, size_t ncols,
			const int *right)
{
	const char **p = calloc(n * ncols + 1, sizeof(*p));
	struct bs_table_style st = {.indent = "  "};

	if (!p)
		return;
	for (size_t i = 0; i < n * ncols; i++)
		p[i] = cells[i];
	bs_table_print(stdout, head, p, n, ncols, right, &st);
	free(p);
}

int bs_replay_print(const struct bs_replay_set *s)
{
	static const char *const head[ROW_COLS] = {
	    "trace",   "crit",	"forks", "warmup", "w.stable",	   "f.st",   "static",
	    "dynamic", "saved", "mean",	 "change", "A/A ratio CI", "result", "checkp."};
	static const int right[ROW_COLS] = {0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1};
	static const char *const thead[TOT_COLS] = {
	    "crit", "saved", "unchanged", "change mean", "change sd", "<1 %",
	    "<2 %", "<3 %",  "warmup",	  "forks",	 "checkp.",   "left out"};
	static const int tright[TOT_COLS] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	size_t nrows = (size_t)s->n_traces * s->n_crits;
	char(*cells)[64] = calloc(nrows * ROW_COLS + s->n_crits * TOT_COLS + 1, sizeof(*cells));

	printf("Replay of dynamic reconfiguration (Laaber et al. 2020 §5): static %zu warmup "
	       "+ %zu "
	       "measurement x %zu forks; dynamic <%zu, %zu, %zu, %zu, %zu>, window %zu; A/A "
	       "at %g, %ld resamples\n\n",
	       s->st.wi, s->st.mi, s->st.f, s->plan.wi_min, s->plan.wi_max, s->plan.mi,
	       s->plan.f_min, s->plan.f_max, s->plan.window ? s->plan.window : BS_STOP_WINDOW,
	       s->level, s->resamples);
	if (!cells)
		return -ENOMEM;
	for (size_t i = 0; i < nrows; i++)
		row_cells(s->rows[i].name, &s->rows[i].r, &cells[i * ROW_COLS]);
	print_cells(head, cells, nrows, ROW_COLS, right);
	printf("\nTotal over %d benchmarks%s (Tables 2 and 3 of Laaber et al. 2020)\n", s->n_traces,
	       left_out(s) ? ", less those left out" : "");
	for (size_t c = 0; c < s->n_crits; c++) {
		const struct bs_replay_total *t = &s->tot[c];
		char(*x)[64] = &cells[c * TOT_COLS];

		snprintf(x[0], 64, "%s", bs_stop_crit_name(s->crits[c]));
		bs_fmt_pct(1 - t->t_dyn / t->t_static, x[1], 64);
		bs_fmt_pct((double)t->same / (double)t->n, x[2], 64);
		bs_fmt_pct(t->cr_sum / (double)t->n, x[3], 64);
		bs_fmt_pct(total_cr_sd(t), x[4], 64);
		for (int k = 0; k < 3; k++)
			bs_fmt_pct((double)t->below[k] / (double)t->n, x[5 + k], 64);
		if (t->n) {
			snprintf(x[8], 64, "%.1f", t->warm_sum / (double)t->n);
			snprintf(x[9], 64, "%.2f", t->forks_sum / (double)t->n);
		} else {
			snprintf(x[8], 64, "n/a");
			snprintf(x[9], 64, "n/a");
		}
		snprintf(x[11], 64, "%zu", t->left_out);
		bs_fmt_pct(t->compute / t->t_dyn, x[10], 64);
	}
	print_cells(thead, cells, s->n_crits, TOT_COLS, tright);
	free(cells);
	printf("  (saved = 1 - sum of dynamic times / sum of static times, checkpoint "
	       "computation included; unchanged = A/A ratio CI straddles 1; change = "
	       "|mean dynamic / mean static - 1|; left out: benchmarks without an A/A result "
	       "(result n/a), in no total)\n");
	return 0;
}

int bs_replay_write_json(const struct bs_replay_set *s, const char *path)
{
	json_object *root, *jtraces, *jtotals;
	char err[PATH_MAX + 128];
	FILE *f = bs_output_open(path, err, sizeof(err));
	bool bad;

	root = json_object_new_object();
	jtraces = json_object_new_array();
	jtotals = json_object_new_array();
	{
		json_object *st = json_object_new_object();

		json_object_object_add(st, "warmup", json_object_new_int64((int64_t)s->st.wi));
		json_object_object_add(st, "measure", json_object_new_int64((int64_t)s->st.mi));
		json_object_object_add(st, "forks", json_object_new_int64((int64_t)s->st.f));
		json_object_object_add(root, "static", st);
		struct bs_stop_plan p = s->plan;
		json_object *dyn;

		p.crit = 0;
		dyn = bs_stop_plan_json(&p, 0);
		json_object_object_del(dyn, "criterion");
		json_object_object_del(dyn, "grace_ms");
		json_object_object_add(root, "dynamic", dyn);
		json_object_object_add(root, "level", json_object_new_double(s->level));
		json_object_object_add(root, "resamples", json_object_new_int64(s->resamples));
	}
	for (int i = 0; i < s->n_traces; i++) {
		json_object *jt = json_object_new_object(), *jc = json_object_new_array();

		json_object_object_add(jt, "path", json_object_new_string(s->paths[i]));
		json_object_object_add(jt, "forks_recorded",
				       json_object_new_int64((int64_t)s->tr[i].n_forks));
		json_object_object_add(jt, "excluded_iterations",
				       json_object_new_int64((int64_t)s->tr[i].n_excluded));
		for (size_t c = 0; c < s->n_crits; c++) {
			struct bs_stop_plan p = s->plan;

			p.crit = s->crits[c];
			json_object_array_add(
			    jc, result_json(&s->rows[(size_t)i * s->n_crits + c].r, &p));
		}
		json_object_object_add(jt, "criteria", jc);
		json_object_array_add(jtraces, jt);
	}
	for (size_t c = 0; c < s->n_crits; c++) {
		const struct bs_replay_total *t = &s->tot[c];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "criterion",
				       json_object_new_string(bs_stop_crit_name(s->crits[c])));
		json_object_object_add(o, "benchmarks", json_object_new_int64((int64_t)t->n));
		json_object_object_add(o, "left_out", json_object_new_int64((int64_t)t->left_out));
		json_object_object_add(o, "time_static_ns", bs_json_double(t->t_static));
		json_object_object_add(o, "time_dynamic_ns", bs_json_double(t->t_dyn));
		json_object_object_add(o, "time_saved", bs_json_double(1 - t->t_dyn / t->t_static));
		json_object_object_add(o, "unchanged",
				       bs_json_double((double)t->same / (double)t->n));
		json_object_object_add(o, "change_rate_mean",
				       bs_json_double(t->cr_sum / (double)t->n));
		json_object_object_add(o, "change_rate_sd", bs_json_double(total_cr_sd(t)));
		json_object_object_add(o, "change_below_1pct",
				       bs_json_double((double)t->below[0] / (double)t->n));
		json_object_object_add(o, "change_below_2pct",
				       bs_json_double((double)t->below[1] / (double)t->n));
		json_object_object_add(o, "change_below_3pct",
				       bs_json_double((double)t->below[2] / (double)t->n));
		json_object_object_add(o, "warmup_mean",
				       bs_json_double(t->warm_sum / (double)t->n));
		json_object_object_add(o, "forks_mean",
				       bs_json_double(t->forks_sum / (double)t->n));
		json_object_object_add(o, "compute_share", bs_json_double(t->compute / t->t_dyn));
		json_object_array_add(jtotals, o);
	}
	json_object_object_add(root, "traces", jtraces);
	json_object_object_add(root, "totals", jtotals);
	bad = !f ||
	      fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY)) < 0;
	if (f && bs_output_close(f))
		bad = true;
	json_object_put(root);
	return bad ? -EIO : 0;
}

void bs_replay_warn(FILE *f, const struct bs_replay_set *s)
{
	for (int i = 0; i < s->n_traces; i++) {
		char fb[64] = "", sh[64] = "";

		for (size_t c = 0; c < s->n_crits; c++) {
			const struct bs_replay_row *r = &s->rows[(size_t)i * s->n_crits + c];
			const char *cn = bs_stop_crit_name(r->r.crit);

			if (r->r.fork_bound)
				snprintf(fb + strlen(fb), sizeof(fb) - strlen(fb), "%s%s",
					 fb[0] ? ", " : "", cn);
			if (r->r.n_short)
				snprintf(sh + strlen(sh), sizeof(sh) - strlen(sh), "%s%s",
					 sh[0] ? ", " : "", cn);
		}
		if (fb[0])
			fprintf(f,
				"benchscope replay: warning: %s: fork stability not reached after "
				"f_max = %zu forks (%s): criterion unreachable at its threshold\n",
				s->rows[(size_t)i * s->n_crits].name, s->plan.f_max, fb);
		if (sh[0])
			fprintf(f,
				"benchscope replay: warning: %s: forks too short in the recording "
				"for the dynamic configuration (%s)\n",
				s->rows[(size_t)i * s->n_crits].name, sh);
	}
}
