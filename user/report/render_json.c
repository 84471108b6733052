// SPDX-License-Identifier: MIT
/* render_json.c - the JSON export (layout: docs/json-schema.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/iter_cols.h"
#include "report/lines_check.h"
#include "report/render.h"
#include "util/units.h"
#include "util/json.h"

/* A double, or JSON null when it is not finite (JSON has no NaN). */
static json_object *ju(uint64_t u)
{
	return json_object_new_int64(u > INT64_MAX ? INT64_MAX : (int64_t)u);
}

static json_object *jcomm(const char *comm)
{
	char buf[BS_COMM_LEN + 1];

	return json_object_new_string(bs_comm_text(comm, BS_COMM_LEN, buf));
}

static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add(o, key, v);
}

static json_object *stats_json(const struct bs_summary *m)
{
	json_object *o = json_object_new_object();

	add(o, "n", ju(m->n));
	add(o, "mean", bs_json_double(m->mean));
	add(o, "median", bs_json_double(m->median));
	add(o, "sd", bs_json_double(m->sd));
	add(o, "cv", bs_json_double(m->cv));
	add(o, "min", bs_json_double(m->min));
	add(o, "max", bs_json_double(m->max));
	add(o, "q1", bs_json_double(m->q1));
	add(o, "q3", bs_json_double(m->q3));
	add(o, "mean_trimmed", bs_json_double(m->mean_trimmed));
	add(o, "geomean", bs_json_double(m->geomean));
	return o;
}

static json_object *interference_json(const struct bs_interference *t)
{
	json_object *o = json_object_new_object(), *share = json_object_new_object();
	const struct {
		const char *name;
		uint64_t ns;
	} times[] = {
	    {"preempted", t->preempted_ns},	{"blocked", t->blocked_ns},
	    {"runq_wait", t->runq_wait_ns},	{"irq", t->irq_ns},
	    {"softirq", t->softirq_ns},		{"steal", t->steal_ns},
	    {"sched_delay", t->sched_delay_ns},
	};
	char key[32];

	add(o, "wall_ns", ju(t->wall_ns));
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		snprintf(key, sizeof(key), "%s_ns", times[i].name);
		add(o, key, ju(times[i].ns));
		add(share, times[i].name,
		    t->wall_ns ? bs_json_double((double)times[i].ns / (double)t->wall_ns) : NULL);
	}
	add(o, "nvcsw", ju(t->nvcsw));
	add(o, "nivcsw", ju(t->nivcsw));
	add(o, "migrations", ju(t->migrations));
	add(o, "share", share);
	return o;
}

static json_object *group_json(const struct bs_group_summary *g, int with_pid)
{
	json_object *o = json_object_new_object();

	if (with_pid) {
		add(o, "pid", ju(g->pid));
		if (g->inst) /* a later process that reused the pid */
			add(o, "instance", ju(g->inst));
		add(o, "comm", json_object_new_string(g->comm));
	}
	add(o, "iterations", ju(g->n_iters));
	add(o, "duration_ns", g->has_duration ? stats_json(&g->duration) : NULL);
	add(o, "ns_per_op", g->has_per_op ? stats_json(&g->per_op) : NULL);
	add(o, "invocations", g->has_per_op ? ju(g->invocations) : NULL);
	add(o, "first_begin_ns", g->n_iters ? ju(g->first_begin_ns) : NULL);
	add(o, "last_end_ns", g->n_iters ? ju(g->last_end_ns) : NULL);
	/* null: nothing measured it (imported samples) */
	add(o, "interference",
	    g->n_iters && !g->intf.n_measured ? NULL : interference_json(&g->intf));
	return o;
}

/* The "stoppage" object (docs/json-schema.md, Stoppage); null for a single run. */
static json_object *stoppage_json(const struct bs_dataset *ds, const struct bs_run_summary *s)
{
	const struct bs_stop_summary *t = &s->stop;
	json_object *o, *forks, *cps;

	if (!t->present)
		return NULL;
	o = json_object_new_object();
	forks = json_object_new_array();
	cps = json_object_new_array();
	/* the CONTEXT member and the stop_decision events are emitted as written
	 * (verbatim: a double re-created from its value would print differently) */
	add(o, "config", json_object_get(ds->run_ctx.stop.json));
	add(o, "forks_used", ju(t->n_forks));
	add(o, "forks_stable", json_object_new_boolean(t->forks_stable));
	add(o, "fork_bound_hit", json_object_new_boolean(t->fork_bound));
	add(o, "warmup_bound_hits", ju(t->n_warmup_bound));
	add(o, "short_forks", ju(t->n_short));
	add(o, "warmup_mean", bs_json_double(t->warmup_mean));
	add(o, "checkpoints", ju(t->n_checkpoints));
	add(o, "compute_ns", ju(t->compute_ns));
	add(o, "wall_ns", ju(t->wall_ns));
	add(o, "compute_share", bs_json_double(t->compute_share));
	for (size_t i = 0; i < t->n_forks; i++) {
		const struct bs_fork_event *f = &t->forks[i];
		json_object *fo = json_object_new_object();

		add(fo, "fork", ju(f->fork));
		add(fo, "pid", ju(f->pid));
		add(fo, "start_ns", ju(f->start_ns));
		add(fo, "end_ns", ju(f->end_ns));
		add(fo, "warmup_iterations", ju(f->warmup_iterations));
		add(fo, "measurement_iterations", ju(f->measurement_iterations));
		add(fo, "warmup_stable", json_object_new_boolean(f->warmup_stable));
		add(fo, "short", json_object_new_boolean(f->is_short));
		add(fo, "ended_by", json_object_new_string(f->ended_by));
		add(fo, "killed", json_object_new_boolean(f->killed));
		add(fo, "exit_code",
		    f->exit_code >= 0 ? json_object_new_int64(f->exit_code) : NULL);
		add(fo, "signal", f->signal > 0 ? json_object_new_int64(f->signal) : NULL);
		add(fo, "calibration_runs", ju(f->calibration_runs));
		add(fo, "after_stop_iterations", ju(f->after_stop_iterations));
		json_object_array_add(forks, fo);
	}
	add(o, "forks", forks);
	for (size_t i = 0; i < ds->run_ev.n_decisions; i++)
		json_object_array_add(cps, json_object_get(ds->run_ev.decisions[i].json));
	add(o, "decisions", cps);
	return o;
}

static json_object *summary_json(const struct bs_run_summary *s)
{
	json_object *o = json_object_new_object(), *procs = json_object_new_array(),
		    *removed = json_object_new_object();

	add(o, "iterations_total", ju(s->n_iters_total));
	add(removed, "warmup", ju(s->n_warmup));
	add(removed, "end_before_begin", ju(s->n_invalid));
	add(removed, "calibration", ju(s->n_calibration));
	add(removed, "after_stop", ju(s->n_after_stop));
	add(o, "removed", removed);
	add(o, "overall", group_json(&s->overall, 0));
	for (size_t i = 0; i < s->n_procs; i++)
		json_object_array_add(procs, group_json(&s->procs[i], 1));
	add(o, "processes", procs);
	if (s->benches) {
		json_object *b = json_object_new_array();

		for (size_t i = 0; i < s->n_benches; i++) {
			json_object *g = group_json(&s->benches[i], 0);

			add(g, "name",
			    s->benches[i].name ? json_object_new_string(s->benches[i].name) : NULL);
			json_object_array_add(b, g);
		}
		add(o, "benchmarks", b);
	} else {
		add(o, "benchmarks", NULL);
	}
	add(o, "probe_cost_per_iteration_ns", bs_json_double(s->probe_cost_ns));
	add(o, "perturbation", bs_json_double(s->perturbation));
	add(o, "lost_total", s->has_lost ? ju(s->lost_total) : NULL);
	return o;
}

static json_object *interferers_json(const struct bs_dataset *ds, const struct bs_run_summary *s)
{
	json_object *o = json_object_new_object(), *top = json_object_new_array(),
		    *recs = json_object_new_array();

	add(o, "threads", ju(s->n_interferers));
	add(o, "total_ns", ju(s->interferer_ns));
	add(o, "scope",
	    json_object_new_string(
		bs_charge_scope_name(bs_run_context_charge_scope(&ds->run_ctx))));
	for (size_t i = 0; i < s->n_top; i++) {
		json_object *x = json_object_new_object();

		add(x, "comm", json_object_new_string(s->top[i].comm));
		add(x, "pid", ju(s->top[i].pid));
		add(x, "tid", ju(s->top[i].tid));
		add(x, "ns", ju(s->top[i].ns));
		add(x, "of_total", bs_json_double(s->top[i].of_total));
		json_object_array_add(top, x);
	}
	add(o, "top", top);
	if (ds->run_end.has_unrecorded) {
		add(o, "unrecorded_ns", ju(ds->run_end.unrecorded_ns));
		add(o, "unrecorded_iterations", ju(ds->run_end.unrecorded_iterations));
	}
	for (size_t i = 0; i < ds->n_interferers; i++) {
		const struct bs_interferer_rec *r = &ds->interferers[i];
		json_object *x = json_object_new_object();

		add(x, "victim_pid", ju(r->victim_pid));
		if (ds->run_ctx.charges_by_iteration && r->victim_iter != BS_CHARGE_NO_ITER)
			add(x, "victim_iteration", ju(r->victim_iter));
		add(x, "comm", jcomm(r->comm));
		add(x, "pid", ju(r->interferer_pid));
		add(x, "tid", ju(r->interferer_tid));
		add(x, "ns", ju(r->ns));
		json_object_array_add(recs, x);
	}
	add(o, "records", recs);
	return o;
}

static json_object *iterations_json(const struct bs_dataset *ds)
{
	json_object *arr = json_object_new_array_ext((int)ds->n_iters);
	size_t ncols;
	const struct bs_iter_col *cols = bs_iter_cols(&ncols);
	struct bs_col_val v;

	for (size_t i = 0; i < ds->n_iters; i++) {
		json_object *it = json_object_new_object();

		for (size_t c = 0; c < ncols; c++) {
			bs_iter_col_value(c, &ds->iters[i], &v);
			add(it, cols[c].name,
			    !v.present		     ? NULL
			    : v.kind == BS_COL_UINT  ? ju(v.u)
			    : v.kind == BS_COL_FLOAT ? bs_json_double(v.d)
						     : json_object_new_string(v.text));
		}
		json_object_array_add(arr, it);
	}
	return arr;
}

static json_object *procs_json(const struct bs_dataset *ds)
{
	static const char *kinds[] = {"unknown", "fork", "exec", "exit"};
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < ds->n_procs; i++) {
		const struct bs_proc_rec *p = &ds->procs[i];
		json_object *o = json_object_new_object();

		add(o, "kind", json_object_new_string(kinds[p->kind <= 3 ? p->kind : 0]));
		add(o, "pid", ju(p->pid));
		add(o, "ppid", ju(p->ppid));
		add(o, "ts_ns", ju(p->ts_ns));
		add(o, "exit_code",
		    p->kind == BS_PROC_EXIT ? json_object_new_int(p->exit_code) : NULL);
		add(o, "comm", jcomm(p->comm));
		json_object_array_add(arr, o);
	}
	return arr;
}

json_object *bs_render_json_object(const struct bs_dataset *ds, const struct bs_run_summary *s)
{
	json_object *root = json_object_new_object(), *trace = json_object_new_object(),
		    *warn = json_object_new_array();

	if (!root || !trace || !warn) {
		json_object_put(root);
		json_object_put(trace);
		json_object_put(warn);
		return NULL;
	}
	add(root, "schema", json_object_new_string("benchscope-report"));
	add(root, "schema_version", json_object_new_int(BS_JSON_SCHEMA_VERSION));
	add(trace, "path", ds->path ? json_object_new_string(ds->path) : NULL);
	add(trace, "truncated", json_object_new_boolean(ds->truncated));
	add(trace, "blocks", ju(ds->n_blocks));
	{
		char v[32];

		snprintf(v, sizeof(v), "%u.%u", ds->version >> 16, ds->version & 0xffff);
		add(trace, "format", json_object_new_string(v));
	}
	add(root, "trace", trace);
	/* context, events and end: the trace's blocks copied unchanged (docs/json-schema.md) */
	add(root, "context", json_object_get(ds->context));
	add(root, "summary", summary_json(s));
	add(root, "stoppage", stoppage_json(ds, s));
	add(root, "interferers", interferers_json(ds, s));
	for (size_t i = 0; i < s->n_warnings; i++)
		json_object_array_add(warn, json_object_new_string(s->warnings[i]));
	for (size_t i = 0; i < ds->run_end.n_warnings; i++)
		json_object_array_add(warn, json_object_new_string(ds->run_end.warnings[i]));
	add(root, "warnings", warn);
	{
		json_object *lc = bs_lines_check_json(ds); /* output-line boundaries */

		if (lc)
			add(root, "lines_check", lc);
	}
	add(root, "iterations", iterations_json(ds));
	add(root, "processes", procs_json(ds));
	add(root, "events", json_object_get(ds->events));
	add(root, "end", json_object_get(ds->end));
	return root;
}

int bs_render_json(FILE *f, const struct bs_dataset *ds, const struct bs_run_summary *s)
{
	json_object *root = bs_render_json_object(ds, s);
	const char *text;
	int ret = 0;

	if (!root)
		return -ENOMEM;
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, f) < 0 || fputc('\n', f) == EOF)
		ret = text ? -EIO : -ENOMEM;
	json_object_put(root);
	return ret;
}
