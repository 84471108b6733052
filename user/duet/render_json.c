// SPDX-License-Identifier: MIT
/* render_json.c - the duet report as JSON (docs/json-schema.md "Duet reports"). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "duet/render.h"
#include "report/summary.h"
#include "util/units.h"

/* a number, or null when not finite */
static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void put(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static json_object *side_obj(const struct bs_dnoise_side *s)
{
	json_object *o = json_object_new_object();

	put(o, "iterations", json_object_new_int64((int64_t)s->n_iters));
	put(o, "busy_ns", json_object_new_int64((int64_t)s->busy_ns));
	put(o, "lost_ns", json_object_new_int64((int64_t)s->lost_ns));
	put(o, "lost_share", num(s->busy_ns ? (double)s->lost_ns / (double)s->busy_ns : 0));
	put(o, "preempted_ns", json_object_new_int64((int64_t)s->preempted_ns));
	put(o, "runq_wait_ns", json_object_new_int64((int64_t)s->runq_wait_ns));
	put(o, "blocked_ns", json_object_new_int64((int64_t)s->blocked_ns));
	put(o, "irq_ns", json_object_new_int64((int64_t)s->irq_ns));
	put(o, "softirq_ns", json_object_new_int64((int64_t)s->softirq_ns));
	put(o, "steal_ns", json_object_new_int64((int64_t)s->steal_ns));
	put(o, "nivcsw", json_object_new_int64((int64_t)s->nivcsw));
	put(o, "migrations", json_object_new_int64((int64_t)s->migrations));
	put(o, "by_other_side_ns", json_object_new_int64((int64_t)s->by_other_ns));
	put(o, "by_own_side_ns", json_object_new_int64((int64_t)s->by_own_ns));
	put(o, "by_third_parties_ns", json_object_new_int64((int64_t)s->by_third_ns));
	return o;
}

/* the run-level model: the verdict's statistics */
static json_object *model_obj(const struct bs_dmres *r)
{
	const struct bs_dmodel_result *md = &r->model;
	json_object *o = json_object_new_object(), *terms = json_object_new_array();
	char why[300];

	bs_duet_model_err_text(r, why, sizeof(why));
	put(o, "status", json_object_new_string(r->model_err == BS_OK ? "ok" : why));
	put(o, "runs", json_object_new_int64((int64_t)md->n_runs));
	put(o, "pairs", json_object_new_int64((int64_t)md->n_pairs));
	put(o, "pairs_cpu_unknown", json_object_new_int64((int64_t)r->n_moved));
	for (size_t j = 0; j < md->n_terms; j++) {
		json_object *t = json_object_new_object();

		put(t, "cpu", json_object_new_int(md->term_cpu[j]));
		put(t, "ratio", num(exp(md->term_effect[j])));
		json_object_array_add(terms, t);
	}
	put(o, "reference_cpu", md->ref_cpu >= 0 ? json_object_new_int(md->ref_cpu) : NULL);
	put(o, "cpu_terms", terms);
	if (r->model_err == BS_OK) {
		put(o, "df", json_object_new_int64((int64_t)md->df));
		put(o, "log_ratio", num(md->v));
		put(o, "se", num(md->se));
		put(o, "ratio", num(exp(md->v)));
		put(o, "ratio_lo", num(exp(md->lo)));
		put(o, "ratio_hi", num(exp(md->hi)));
		put(o, "rel_ci_width", num(exp(md->hi) - exp(md->lo)));
		put(o, "p", num(md->p));
		put(o, "resid_sd", num(md->resid_sd));
	}
	put(o, "confounded_cpu",
	    r->model_err == BS_ECONFOUNDED ? json_object_new_int(md->confounded_cpu) : NULL);
	return o;
}

static json_object *cpu_obj(const struct bs_dcpudiag *c)
{
	json_object *o;

	if (!c->checked)
		return NULL;
	o = json_object_new_object();
	put(o, "slow_cpu", json_object_new_int(c->slow_cpu));
	put(o, "fast_cpu", json_object_new_int(c->fast_cpu));
	put(o, "ratio", num(c->ratio));
	put(o, "ratio_lo", num(c->ratio_lo));
	put(o, "ratio_hi", num(c->ratio_hi));
	put(o, "contention", json_object_new_string(bs_dcontention_name(c->contention)));
	put(o, "runs_apart", json_object_new_int64((int64_t)c->n_apart));
	put(o, "runs_slowed", json_object_new_int64((int64_t)c->n_slowed));
	put(o, "runs_departing", json_object_new_int64((int64_t)c->n_departed));
	put(o, "runs_unpaired", json_object_new_int64((int64_t)c->n_unpaired));
	put(o, "slowed_ratio_min", num(BS_DUET_CPU_SLOW_RATIO));
	put(o, "max_run_ratio", num(c->max_run_ratio));
	put(o, "median_ratio", num(c->median_ratio));
	return o;
}

static json_object *method_obj(const struct bs_dbench *b, const struct bs_dmres *r, int m)
{
	json_object *o = json_object_new_object(), *runs = json_object_new_array();

	put(o, "method", json_object_new_string(bs_dmethod_name(m)));
	put(o, "runs", json_object_new_int64((int64_t)r->n_runs));
	put(o, "sampling", json_object_new_string(r->runs_merged ? "runs_merged" : "run_means"));
	put(o, "status", json_object_new_string(bs_duet_err_text(r->err)));
	put(o, "pairs", json_object_new_int64((int64_t)r->res.n_pairs));
	put(o, "observations", json_object_new_int64((int64_t)r->res.n_obs));
	put(o, "mean_a", num(r->res.mean_a));
	put(o, "mean_b", num(r->res.mean_b));
	put(o, "grand_mean", num(r->res.grand_mean));
	if (r->err == BS_OK) {
		json_object *ci = json_object_new_object(), *u = json_object_new_object();

		put(o, "mean_diff", num(r->res.mean_diff));
		put(ci, "level", num(r->res.ci.level));
		put(ci, "point", num(r->res.ci.point));
		put(ci, "lo", num(r->res.ci.lo));
		put(ci, "hi", num(r->res.ci.hi));
		put(o, "diff_ci", ci);
		put(o, "rel_ci_width", num(r->res.rel_ci_width));
		put(o, "ci_differs", json_object_new_boolean(r->res.ci_differs));
		put(u, "u1", num(r->res.u.u1));
		put(u, "u2", num(r->res.u.u2));
		put(u, "p", num(r->res.u.p));
		put(u, "differs", json_object_new_boolean(r->res.u_differs));
		put(o, "u_test", u);
	}
	put(o, "rel_overlap_time", m == BS_DM_ASYNC ? num(r->res.rel_overlap_time) : NULL);
	put(o, "model", model_obj(r));
	put(o, "mds", r->has_mds ? num(r->model.mds) : NULL);
	put(o, "lag1_autocorr", num(r->lag1));
	put(o, "cpu_diagnosis", cpu_obj(&r->cpu));
	if (r->has_spread) {
		json_object *s = json_object_new_object(), *rf = json_object_new_object();

		put(s, "resid_sd", num(r->model.resid_sd));
		put(s, "within_sd", num(r->spread.within_sd));
		put(s, "run_sd", num(r->spread.run_sd));
		put(rf, "0.01",
		    r->runs_for[0] ? json_object_new_int64((int64_t)r->runs_for[0]) : NULL);
		put(rf, "0.02",
		    r->runs_for[1] ? json_object_new_int64((int64_t)r->runs_for[1]) : NULL);
		put(s, "runs_for_mds", rf);
		put(o, "spread", s);
	} else {
		put(o, "spread", NULL);
	}
	if (r->has_verdict) {
		json_object *v = json_object_new_object();
		static const char *const kinds[] = {"no_difference", "slower", "faster"};

		put(v, "kind", json_object_new_string(kinds[r->v.kind]));
		put(v, "pct", num(r->v.pct));
		put(v, "lo_pct", num(r->v.lo_pct));
		put(v, "hi_pct", num(r->v.hi_pct));
		put(v, "level", num(r->v.level));
		put(v, "mds_pct", num(r->v.mds_pct));
		put(v, "text", json_object_new_string(r->verdict));
		put(o, "verdict", v);
	} else {
		put(o, "verdict", NULL);
	}
	put(o, "speedup_vs_seq", num(r->speedup));
	for (size_t k = 0; k < r->n_runs; k++) {
		const struct bs_drun *dr = &b->runs[m][k];
		json_object *x = json_object_new_object();

		put(x, "run", json_object_new_int(dr->run));
		put(x, "index", json_object_new_int(dr->index));
		put(x, "order", dr->order[0] ? json_object_new_string(dr->order) : NULL);
		put(x, "iterations_a", json_object_new_int64((int64_t)dr->side[0].n));
		put(x, "iterations_b", json_object_new_int64((int64_t)dr->side[1].n));
		put(x, "pairs", json_object_new_int64((int64_t)r->n_pairs[k]));
		json_object_array_add(runs, x);
	}
	put(o, "runs_detail", runs);
	return o;
}

/* the --stop-ci decisions, recorded and re-decided from the trace; NULL without */
static json_object *stop_obj(const struct bs_duet_ctx *c)
{
	const struct bs_duet_data *d = c->d;
	json_object *o, *arr;
	bool all = true;

	if (!d->n_stops || !c->stops)
		return NULL;
	o = json_object_new_object();
	arr = json_object_new_array();
	for (size_t i = 0; i < d->n_stops; i++) {
		const struct bs_duet_stop_event *e = &d->stops[i];
		const struct bs_dstop *r = &c->stops[i];
		json_object *x = json_object_new_object(), *re = NULL;

		put(x, "after_run", json_object_new_int(e->after_run));
		put(x, "method", json_object_new_string(bs_dmethod_name(e->method)));
		put(x, "runs_ok", json_object_new_int64((int64_t)e->runs_ok));
		put(x, "min_runs", json_object_new_int64((int64_t)e->min_runs));
		put(x, "threshold", num(e->threshold));
		put(x, "interval", e->has_model ? json_object_new_string("run_model") : NULL);
		put(x, "rel_ci_width", num(e->width));
		put(x, "decision", json_object_new_string(e->stop ? "stop" : "continue"));
		put(x, "reason", e->reason ? json_object_new_string(e->reason) : NULL);
		put(x, "decided", json_object_new_boolean(e->decided));
		if (e->has_model && e->decided) {
			bool same = bs_dstop_same(r, e);

			re = json_object_new_object();
			put(re, "runs_ok", json_object_new_int64((int64_t)r->runs_ok));
			put(re, "rel_ci_width", num(r->width));
			put(re, "decision", json_object_new_string(r->stop ? "stop" : "continue"));
			put(re, "reason", json_object_new_string(r->reason));
			put(x, "agrees", json_object_new_boolean(same));
			all &= same;
		} else {
			put(x, "agrees", NULL);
		}
		put(x, "recomputed", re);
		json_object_array_add(arr, x);
	}
	put(o, "decisions", arr);
	put(o, "all_agree", json_object_new_boolean(all));
	return o;
}

json_object *bs_duet_render_json_object(const struct bs_duet_ctx *c)
{
	const struct bs_duet_data *d = c->d;
	const struct bs_duet_analysis *a = c->a;
	const struct bs_duet_noise *n = c->n;
	json_object *o = json_object_new_object(), *benches = json_object_new_array();
	json_object *runs = json_object_new_object(), *failed = json_object_new_array();
	json_object *an = json_object_new_object(), *noise = json_object_new_object();
	json_object *nruns = json_object_new_array(), *nmeth = json_object_new_object();
	json_object *third = json_object_new_array(), *outc = json_object_new_object();

	if (!o)
		return NULL;
	put(o, "schema_version", json_object_new_int(BS_DUET_JSON_SCHEMA_VERSION));
	put(o, "kind", json_object_new_string("duet_report"));
	put(o, "context", json_object_get(c->ds->context));
	put(o, "end", c->ds->end ? json_object_get(c->ds->end) : NULL);
	put(o, "lost_total",
	    c->ds->run_end.has_lost
		? json_object_new_int64((int64_t)bs_run_end_lost_total(&c->ds->run_end))
		: NULL);
	{
		json_object *w = json_object_new_array();

		for (size_t i = 0; i < c->ds->run_end.n_warnings; i++)
			json_object_array_add(w,
					      json_object_new_string(c->ds->run_end.warnings[i]));
		for (size_t i = 0; i < c->ds->run_ev.n_warnings; i++)
			json_object_array_add(w, json_object_new_string(c->ds->run_ev.warnings[i]));
		put(o, "warnings", w);
	}
	put(o, "benchmark", json_object_new_string(d->benchmark));
	put(o, "source", json_object_new_string(d->source));
	put(o, "aa", json_object_new_boolean(d->aa));
	put(runs, "total", json_object_new_int64((int64_t)d->runs_total));
	put(runs, "used", json_object_new_int64((int64_t)d->runs_ok));
	put(runs, "failed", json_object_new_int64((int64_t)d->n_failed));
	for (size_t i = 0; i < d->n_failed; i++) {
		json_object *x = json_object_new_object();

		put(x, "run", json_object_new_int(d->failed[i].run));
		put(x, "method", json_object_new_string(bs_dmethod_name(d->failed[i].method)));
		put(x, "reason", json_object_new_string(d->failed[i].reason));
		json_object_array_add(failed, x);
	}
	put(runs, "failed_runs", failed);
	put(runs, "calibration_iterations_excluded",
	    json_object_new_int64((int64_t)d->n_calibration));
	put(runs, "iterations_left_out", json_object_new_int64((int64_t)d->n_unmatched));
	put(runs, "iterations_of_0_ns", json_object_new_int64((int64_t)d->n_no_time));
	put(o, "runs", runs);
	if (d->n_rechecks) {
		json_object *rc = json_object_new_array();

		/* the checks between rounds (the first one is in the context) */
		for (size_t i = 0; i < d->n_rechecks; i++) {
			const struct bs_duet_noise_event *e = &d->rechecks[i];
			json_object *x = json_object_new_object();

			put(x, "before_run", json_object_new_int(e->before_run));
			put(x, "design", json_object_new_string(e->rec.design));
			put(x, "why", json_object_new_string(e->rec.why));
			json_object_array_add(rc, x);
		}
		put(o, "noise_rechecks", rc);
	}
	put(an, "min_overlap", num(a->opts.min_overlap));
	put(an, "n_resamples", json_object_new_int64((int64_t)a->opts.n_resamples));
	put(an, "seed", json_object_new_int64((int64_t)a->opts.seed));
	put(an, "run_means_min_runs", json_object_new_int(BS_DUET_RUN_MEANS_MIN));
	put(an, "drop_warmup_half", json_object_new_boolean(a->opts.drop_warmup_half));
	put(an, "mds", json_object_new_boolean(!a->opts.no_mds));
	put(o, "analysis", an);
	for (size_t i = 0; i < a->n; i++) {
		const struct bs_dbres *br = &a->b[i];
		json_object *x = json_object_new_object(), *ms = json_object_new_array();

		put(x, "name", json_object_new_string(br->bench->name));
		put(x, "score",
		    json_object_new_string(br->bench->per_invocation ? "ns_per_invocation"
								     : "iteration_ns"));
		put(x, "primary_method",
		    br->primary >= 0 ? json_object_new_string(bs_dmethod_name(br->primary)) : NULL);
		put(x, "verdict",
		    br->primary >= 0 && br->m[br->primary].has_verdict
			? json_object_new_string(br->m[br->primary].verdict)
			: NULL);
		for (int m = 0; m < BS_DM_N; m++)
			if (br->m[m].present)
				json_object_array_add(ms, method_obj(br->bench, &br->m[m], m));
		put(x, "methods", ms);
		json_object_array_add(benches, x);
	}
	put(o, "benchmarks", benches);
	put(o, "stop_ci", stop_obj(c));
	put(noise, "has_interference", json_object_new_boolean(n->has_interference));
	put(noise, "asym_min_pp", num(BS_DUET_ASYM_MIN_PP));
	put(noise, "asym_min_imbalance", num(BS_DUET_ASYM_MIN_IMBALANCE));
	for (int m = 0; m < BS_DM_N; m++) {
		json_object *x;

		if (!n->method[m][0].n_iters && !n->method[m][1].n_iters)
			continue;
		x = json_object_new_object();
		put(x, "A", side_obj(&n->method[m][0]));
		put(x, "B", side_obj(&n->method[m][1]));
		put(x, "asymmetric_runs", json_object_new_int64((int64_t)n->n_asymmetric[m]));
		put(nmeth, bs_dmethod_name(m), x);
	}
	put(noise, "methods", nmeth);
	for (size_t i = 0; i < n->n_runs; i++) {
		const struct bs_dnoise_run *r = &n->runs[i];
		json_object *x = json_object_new_object();

		put(x, "run", json_object_new_int(r->run));
		put(x, "method", json_object_new_string(bs_dmethod_name(r->method)));
		put(x, "A", side_obj(&r->side[0]));
		put(x, "B", side_obj(&r->side[1]));
		put(x, "asym_pp", num(r->asym_pp));
		put(x, "imbalance", num(r->imbalance));
		put(x, "asymmetric", json_object_new_boolean(r->asymmetric));
		json_object_array_add(nruns, x);
	}
	put(noise, "runs", nruns);
	for (size_t i = 0; i < n->n_third; i++) {
		json_object *x = json_object_new_object();
		char comm[BS_COMM_LEN + 1];

		put(x, "comm",
		    json_object_new_string(bs_comm_text(n->third[i].comm, BS_COMM_LEN, comm)));
		put(x, "pid", json_object_new_int64(n->third[i].pid));
		put(x, "from_a_ns", json_object_new_int64((int64_t)n->third[i].ns[0]));
		put(x, "from_b_ns", json_object_new_int64((int64_t)n->third[i].ns[1]));
		json_object_array_add(third, x);
	}
	put(noise, "third_parties", third);
	put(noise, "benchscope_from_a_ns", json_object_new_int64((int64_t)n->self_ns[0]));
	put(noise, "benchscope_from_b_ns", json_object_new_int64((int64_t)n->self_ns[1]));
	put(noise, "charged_ns", json_object_new_int64((int64_t)n->charged_ns));
	put(noise, "charges_scope", json_object_new_string(bs_charge_scope_name(n->scope)));
	if (c->ds->run_end.has_unrecorded) {
		put(noise, "unrecorded_ns",
		    json_object_new_int64((int64_t)c->ds->run_end.unrecorded_ns));
		put(noise, "unrecorded_iterations",
		    json_object_new_int64((int64_t)c->ds->run_end.unrecorded_iterations));
	}
	put(noise, "benchscope_share", n->charged_ns ? num(bs_duet_noise_self_share(n)) : NULL);
	put(o, "noise", noise);
	put(outc, "runs_total", json_object_new_int64((int64_t)d->runs_total));
	put(outc, "runs_used", json_object_new_int64((int64_t)d->runs_ok));
	put(outc, "runs_failed", json_object_new_int64((int64_t)d->n_failed));
	put(outc, "verdicts", json_object_new_int64((int64_t)a->n_verdicts));
	put(outc, "worst_slowdown_lo_pct", num(a->worst_slowdown_lo_pct));
	put(outc, "any_difference", json_object_new_boolean(a->any_difference));
	{
		const struct bs_dbres *w = a->worst_headline;

		put(outc, "headline_slowdown_lo_pct", w ? num(w->m[w->primary].v.lo_pct) : NULL);
		put(outc, "headline_slowdown_benchmark",
		    w ? json_object_new_string(w->bench->name) : NULL);
		put(outc, "headline_slowdown_method",
		    w ? json_object_new_string(bs_dmethod_name(w->primary)) : NULL);
	}
	if (c->oc && c->oc->gate) {
		json_object *g = json_object_new_object();

		put(g, "fail_pct", num(c->oc->gate_pct));
		put(g, "regressed", json_object_new_boolean(c->oc->regressed));
		put(g, "text", c->oc->regressed ? json_object_new_string(c->oc->regression) : NULL);
		put(outc, "regression", g);
	} else {
		put(outc, "regression", NULL);
	}
	put(o, "outcome", outc);
	return o;
}

int bs_duet_render_json(FILE *f, const struct bs_duet_ctx *c)
{
	json_object *o = bs_duet_render_json_object(c);
	int ret = 0;

	if (!o)
		return -ENOMEM;
	if (fprintf(f, "%s\n",
		    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		ret = -EIO;
	json_object_put(o);
	return ret;
}
