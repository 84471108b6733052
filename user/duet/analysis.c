// SPDX-License-Identifier: MIT
/* analysis.c - statistics of a duet, per benchmark and method (duet/analysis.h). */
#include "duet/analysis.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats_desc.h"

const char *bs_duet_err_text(int err)
{
	switch (err) {
	case BS_OK:
		return "ok";
	case BS_EEMPTY:
		return "no run with iterations on both sides";
	case BS_ETOOFEW:
		return "too few runs or pairs for the CI test";
	case BS_EZEROVAR:
		return "every paired difference is equal (no spread to bootstrap)";
	case BS_ETIED:
		return "all scores tied (U test undefined)";
	default:
		return bs_stats_strerror(err);
	}
}

void bs_duet_verdict_text(const struct bs_verdict *v, bool has_mds, char *buf, size_t len)
{
	double lv = v->level * 100;

	if (v->kind == BS_VERDICT_SLOWER)
		snprintf(buf, len, "B is %.1f %% slower, %g %% CI [%.1f, %.1f] %%", v->pct, lv,
			 v->lo_pct, v->hi_pct);
	else if (v->kind == BS_VERDICT_FASTER)
		snprintf(buf, len, "B is %.1f %% faster, %g %% CI [%.1f, %.1f] %%", -v->pct, lv,
			 -v->hi_pct, -v->lo_pct);
	else if (!has_mds || isnan(v->mds_pct))
		snprintf(buf, len,
			 "no difference detected (MDS not computed; %g %% CI [%.1f, %.1f] %%)", lv,
			 v->lo_pct, v->hi_pct);
	else
		snprintf(buf, len,
			 "no difference detected (MDS here: %.1f %%; %g %% CI [%.1f, %.1f] %%)",
			 v->mds_pct, lv, v->lo_pct, v->hi_pct);
}

int bs_duet_verdict_from_model(const struct bs_dmodel_result *r, struct bs_verdict *v)
{
	if (!r || !v || !isfinite(r->v) || !isfinite(r->lo) || !isfinite(r->hi))
		return BS_EINVAL;
	memset(v, 0, sizeof(*v));
	v->level = r->level;
	v->pct = expm1(r->v) * 100;
	v->lo_pct = expm1(r->lo) * 100;
	v->hi_pct = expm1(r->hi) * 100;
	v->mds_pct = r->mds * 100;
	v->mds_max_pct = NAN;
	v->kind = r->lo > 0   ? BS_VERDICT_SLOWER
		  : r->hi < 0 ? BS_VERDICT_FASTER
			      : BS_VERDICT_NO_DIFFERENCE;
	return BS_OK;
}

void bs_duet_model_err_text(const struct bs_dmres *r, char *buf, size_t len)
{
	const struct bs_dmodel_result *m = &r->model;

	switch (r->model_err) {
	case BS_ECONFOUNDED:
		snprintf(buf, len,
			 "A and B never exchanged CPUs, so CPU %d's speed cannot be told from "
			 "the version (run with --crossover, or with both sides on one CPU)",
			 m->confounded_cpu);
		break;
	case BS_ETOOFEW:
		snprintf(buf, len,
			 "%zu run%s with pairs: the run-level interval needs at least %zu",
			 m->n_runs, m->n_runs == 1 ? "" : "s", m->n_terms + 2);
		break;
	case BS_EEMPTY:
		snprintf(buf, len, "no run with pairs");
		break;
	case BS_EZEROVAR:
		snprintf(buf, len,
			 "every run gave the same ratio (no spread to build an interval)");
		break;
	default:
		snprintf(buf, len, "%s", bs_stats_strerror(r->model_err));
	}
}

/* the pairs of each run of method m: r->pairs, r->n_pairs; returns the runs with pairs or -ENOMEM
 */
static long pair_method(const struct bs_dbench *b, enum bs_dmethod m,
			const struct bs_danalysis_opts *o, struct bs_dmres *r)
{
	size_t n = b->n_runs[m];
	long with_pairs = 0;

	r->present = n > 0;
	r->n_runs = n;
	r->speedup = NAN;
	r->pairs = calloc(n + 1, sizeof(*r->pairs));
	r->n_pairs = calloc(n + 1, sizeof(*r->n_pairs));
	if (!r->pairs || !r->n_pairs)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		struct bs_duet_run run = bs_drun_stats(&b->runs[m][k]);
		size_t ha = 0, hb = 0;

		if (o->drop_warmup_half) {
			ha = run.na / 2;
			hb = run.nb / 2;
			run.a += ha, run.na -= ha, run.b += hb, run.nb -= hb;
			run.score_a = run.score_a ? run.score_a + ha : NULL;
			run.score_b = run.score_b ? run.score_b + hb : NULL;
		}
		r->pairs[k] = malloc((run.na + run.nb + 1) * sizeof(**r->pairs));
		if (!r->pairs[k])
			return -ENOMEM;
		if (bs_duet_pairs(&run, bs_dmethod_type(m), o->min_overlap, r->pairs[k],
				  &r->n_pairs[k], NULL))
			r->n_pairs[k] = 0;
		for (size_t p = 0; p < r->n_pairs[k]; p++) {
			r->pairs[k][p].a += ha;
			r->pairs[k][p].b += hb;
		}
		with_pairs += r->n_pairs[k] > 0;
	}
	return with_pairs;
}

/* Drozdík 2023 §4.3's CI test and U test of the method, for comparison */
static int analyse_method(const struct bs_dbench *b, enum bs_dmethod m,
			  const struct bs_danalysis_opts *o, size_t with_pairs, struct bs_dmres *r)
{
	size_t n = b->n_runs[m];
	struct bs_duet_run *runs = calloc(n + 1, sizeof(*runs));
	struct bs_duet_opts so = {.type = bs_dmethod_type(m),
				  .min_overlap = o->min_overlap,
				  .n_resamples = o->n_resamples,
				  .drop_warmup_half = o->drop_warmup_half,
				  .seed = o->seed};

	if (!runs)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		runs[k] = bs_drun_stats(&b->runs[m][k]);
	if (o->sampling == BS_DS_MERGED ||
	    (o->sampling == BS_DS_AUTO && with_pairs < BS_DUET_RUN_MEANS_MIN))
		r->runs_merged = true;
	so.runs_merged = r->runs_merged;
	r->err = bs_duet_analyze(runs, n, &so, &r->res);
	free(runs);
	return r->err == BS_ENOMEM ? -ENOMEM : 0;
}

/* the run-level model of the method, its verdict, the CPU diagnosis */
static int model_method(const struct bs_dbench *b, enum bs_dmethod m,
			const struct bs_danalysis_opts *o, struct bs_dmres *r)
{
	struct bs_dmodel_opts mo = {.level = o->level, .no_cpu = o->no_cpu};
	struct bs_dmodel_in in;

	r->lag1 = bs_duet_lag1(b, m, o->drop_warmup_half);
	if (bs_duet_model_in_build(b, m, r->pairs, r->n_pairs, &in))
		return -ENOMEM;
	r->n_moved = in.n_moved;
	r->model_err = bs_dmodel_fit(in.runs, in.n_runs, &mo, &r->model);
	if (r->model_err == BS_ENOMEM) {
		bs_duet_model_in_free(&in);
		return -ENOMEM;
	}
	if (r->model_err == BS_OK) {
		bs_duet_cpu_diag(&in, &r->model, &r->cpu);
		r->has_spread = !bs_dmodel_spread(&r->model, in.runs, in.n_runs, &r->spread);
		for (int k = 0; k < 2 && r->has_spread; k++)
			bs_dmodel_runs_for_mds(&r->model, k ? 0.02 : 0.01, BS_DUET_RUNS_FOR_MAX,
					       &r->runs_for[k]);
		r->has_mds = !o->no_mds;
		if (!bs_duet_verdict_from_model(&r->model, &r->v)) {
			r->has_verdict = true;
			bs_duet_verdict_text(&r->v, r->has_mds, r->verdict, sizeof(r->verdict));
		}
	}
	bs_duet_model_in_free(&in);
	return 0;
}

int bs_duet_method_model(const struct bs_dbench *b, enum bs_dmethod m, size_t n_runs,
			 const struct bs_danalysis_opts *o, struct bs_dmres *r)
{
	struct bs_dbench view = *b;
	long wp;

	memset(r, 0, sizeof(*r));
	if (m >= BS_DM_N)
		return -EINVAL;
	if (n_runs < view.n_runs[m])
		view.n_runs[m] = n_runs;
	wp = pair_method(&view, m, o, r);
	if (wp < 0)
		return (int)wp;
	return model_method(&view, m, o, r);
}

void bs_dmres_free(struct bs_dmres *r)
{
	for (size_t k = 0; r->pairs && k < r->n_runs; k++)
		free(r->pairs[k]);
	free(r->pairs);
	free(r->n_pairs);
	r->pairs = NULL;
	r->n_pairs = NULL;
}

static double speedup_vs_seq(const struct bs_dbench *b, enum bs_dmethod m)
{
	size_t ns = b->n_runs[BS_DM_SEQ], nd = b->n_runs[m];
	struct bs_duet_run *seq = calloc(ns + 1, sizeof(*seq)),
			   *duet = calloc(nd + 1, sizeof(*duet));
	double sp = NAN;

	if (seq && duet && ns && nd) {
		for (size_t k = 0; k < ns; k++)
			seq[k] = bs_drun_stats(&b->runs[BS_DM_SEQ][k]);
		for (size_t k = 0; k < nd; k++)
			duet[k] = bs_drun_stats(&b->runs[m][k]);
		if (bs_runtime_speedup(seq, ns, duet, nd, &sp))
			sp = NAN;
	}
	free(seq);
	free(duet);
	return sp;
}

int bs_danalysis_opts_fill(struct bs_danalysis_opts *o, const struct bs_duet_data *d)
{
	if (!o->min_overlap)
		o->min_overlap =
		    d && d->min_overlap > 0 && d->min_overlap < 1 ? d->min_overlap : 0.4;
	if (!o->n_resamples)
		o->n_resamples = BS_DUET_RESAMPLES_DEFAULT;
	if (!o->level)
		o->level = 0.95;
	return o->min_overlap > 0 && o->min_overlap < 1 && o->level > 0 && o->level < 1 ? 0
											: -EINVAL;
}

int bs_duet_headline_method(const bool present[BS_DM_N])
{
	static const enum bs_dmethod order[] = {BS_DM_ILV, BS_DM_ASYNC, BS_DM_SYNC, BS_DM_SEQ};

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (present[order[i]])
			return order[i];
	return -1;
}

int bs_duet_analysis_run(const struct bs_duet_data *d, const struct bs_danalysis_opts *o,
			 struct bs_duet_analysis **out)
{
	struct bs_duet_analysis *a;
	int ret = 0;

	*out = NULL;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	if (o)
		a->opts = *o;
	if (bs_danalysis_opts_fill(&a->opts, d)) {
		free(a);
		return -EINVAL;
	}
	a->data = d;
	a->worst_slowdown_lo_pct = NAN;
	a->b = calloc(d->n_benches + 1, sizeof(*a->b));
	if (!a->b) {
		free(a);
		return -ENOMEM;
	}
	a->n = d->n_benches;
	for (size_t i = 0; i < d->n_benches && !ret; i++) {
		const struct bs_dbench *b = &d->benches[i];
		struct bs_dbres *br = &a->b[i];

		bs_steps_step(a->opts.steps, i, d->n_benches, b->name);
		br->bench = b;
		br->primary = -1;
		for (int m = 0; m < BS_DM_N && !ret; m++) {
			if (!b->n_runs[m])
				continue;
			long wp = pair_method(b, (enum bs_dmethod)m, &a->opts, &br->m[m]);

			ret = wp < 0 ? (int)wp
				     : analyse_method(b, (enum bs_dmethod)m, &a->opts, (size_t)wp,
						      &br->m[m]);
			if (!ret)
				ret = model_method(b, (enum bs_dmethod)m, &a->opts, &br->m[m]);
			if (m != BS_DM_SEQ && b->n_runs[BS_DM_SEQ])
				br->m[m].speedup = speedup_vs_seq(b, (enum bs_dmethod)m);
			if (br->m[m].has_verdict) {
				const struct bs_verdict *v = &br->m[m].v;

				a->n_verdicts++;
				if (isnan(a->worst_slowdown_lo_pct) ||
				    v->lo_pct > a->worst_slowdown_lo_pct)
					a->worst_slowdown_lo_pct = v->lo_pct;
				a->any_difference |= v->kind != BS_VERDICT_NO_DIFFERENCE;
			}
		}
		{
			bool present[BS_DM_N];

			for (int m = 0; m < BS_DM_N; m++)
				present[m] = br->m[m].present;
			br->primary = bs_duet_headline_method(present);
		}
		if (br->primary >= 0 && br->m[br->primary].has_verdict &&
		    (!a->worst_headline ||
		     br->m[br->primary].v.lo_pct >
			 a->worst_headline->m[a->worst_headline->primary].v.lo_pct))
			a->worst_headline = br;
	}
	bs_steps_step(a->opts.steps, d->n_benches, d->n_benches, NULL);
	a->opts.steps = NULL;
	if (ret) {
		bs_duet_analysis_free(a);
		return ret;
	}
	*out = a;
	return 0;
}

void bs_duet_analysis_free(struct bs_duet_analysis *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		for (int m = 0; m < BS_DM_N; m++)
			bs_dmres_free(&a->b[i].m[m]);
	free(a->b);
	free(a);
}
