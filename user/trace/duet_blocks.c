// SPDX-License-Identifier: MIT
/* duet_blocks.c - decode a duet trace's blocks into typed structs (duet_blocks.h). */
#include "trace/duet_blocks.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/block_field.h"
#include "trace/context.h"
#include "util/json.h"

static const char *const method_names[BS_DM_N] = {"seq", "sync", "async", "interleaved"};

const char *bs_dmethod_name(enum bs_dmethod m)
{
	return m < BS_DM_N ? method_names[m] : "?";
}

int bs_dmethod_parse(const char *s)
{
	static const struct {
		const char *name;
		enum bs_dmethod m;
	} tab[] = {
	    {"seq", BS_DM_SEQ},		{"seqn", BS_DM_SEQ},	  {"sequential", BS_DM_SEQ},
	    {"sync", BS_DM_SYNC},	{"syncduet", BS_DM_SYNC}, {"sduet", BS_DM_SYNC},
	    {"async", BS_DM_ASYNC},	{"duet", BS_DM_ASYNC},	  {"aduet", BS_DM_ASYNC},
	    {"interleaved", BS_DM_ILV},
	};

	for (size_t i = 0; s && i < sizeof(tab) / sizeof(tab[0]); i++)
		if (!strcmp(s, tab[i].name))
			return (int)tab[i].m;
	return -1;
}

bool bs_dataset_is_duet(const struct bs_dataset *ds)
{
	json_object *m = ds ? bs_json_get(ds->context, "mode") : NULL;

	return m && json_object_is_type(m, json_type_string) &&
	       !strcmp(json_object_get_string(m), "duet");
}

/* ---- noise checks ------------------------------------------------------------- */

/* a noise check object (its recommendation and duration) at f's prefix */
static int decode_noise(struct bs_block_field *f, json_object *o, struct bs_duet_noise_rec *r)
{
	char prefix[64];
	const char *outer = f->prefix;
	json_object *rec = NULL;
	int ret;

	if ((ret = bs_field_num(f, o, "duration_s", BS_FIELD_OPTIONAL, &r->duration_s)) < 0 ||
	    (ret = bs_field_obj(f, o, "recommendation", BS_FIELD_REQUIRED, &rec)) < 0)
		return ret;
	snprintf(prefix, sizeof(prefix), "%srecommendation.", f->prefix);
	f->prefix = prefix;
	if ((ret = bs_field_str(f, rec, "design", BS_FIELD_REQUIRED, &r->design)) < 0 ||
	    (ret = bs_field_str(f, rec, "why", BS_FIELD_REQUIRED, &r->why)) < 0 ||
	    (ret = bs_field_int(f, rec, "cpu_a", BS_FIELD_REQUIRED, &r->cpu_a)) < 0 ||
	    (ret = bs_field_int(f, rec, "cpu_b", BS_FIELD_REQUIRED, &r->cpu_b)) < 0) {
		f->prefix = outer;
		return ret;
	}
	f->prefix = outer;
	r->present = true;
	return 0;
}

/* ---- CONTEXT ------------------------------------------------------------------ */

static int decode_context(json_object *ctx, struct bs_duet_context *c, char *err, size_t errlen)
{
	struct bs_block_field f = {"CONTEXT", "", err, errlen};
	json_object *duet = NULL;
	int64_t ncpus = 0;
	int ret;

	if ((ret = bs_field_str(&f, ctx, "kernel", BS_FIELD_OPTIONAL, &c->kernel)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "cpu_model", BS_FIELD_OPTIONAL, &c->cpu_model)) < 0 ||
	    (ret = bs_field_int_range(&f, ctx, "ncpus", BS_FIELD_OPTIONAL, 0, INT_MAX, &ncpus)) < 0)
		return ret;
	c->has_ncpus = ret > 0;
	c->ncpus = ncpus;
	if ((ret = bs_field_str(&f, ctx, "hypervisor", BS_FIELD_OPTIONAL, &c->hypervisor)) < 0 ||
	    (ret = bs_field_obj(&f, ctx, "duet", BS_FIELD_OPTIONAL, &duet)) < 0)
		return ret;
	if (!bs_context_degraded(ctx, c->degraded, sizeof(c->degraded)))
		c->degraded[0] = '\0';
	c->has_duet = duet != NULL;
	if (!duet)
		return 0;
	f.prefix = "duet.";
	if ((ret = bs_field_str(&f, duet, "benchmark", BS_FIELD_OPTIONAL, &c->benchmark)) < 0 ||
	    (ret = bs_field_str(&f, duet, "source", BS_FIELD_OPTIONAL, &c->source)) < 0 ||
	    (ret = bs_field_str(&f, duet, "suite", BS_FIELD_OPTIONAL, &c->suite)) < 0 ||
	    (ret = bs_field_bool(&f, duet, "aa", BS_FIELD_OPTIONAL, &c->aa)) < 0)
		return ret;
	c->has_aa = ret > 0;
	if ((ret = bs_field_num(&f, duet, "min_overlap", BS_FIELD_OPTIONAL, &c->min_overlap)) < 0)
		return ret;
	c->has_min_overlap = ret > 0;
	if ((ret = bs_field_bool(&f, duet, "no_mds", BS_FIELD_OPTIONAL, &c->no_mds)) < 0 ||
	    (ret = bs_field_count(&f, duet, "seed", BS_FIELD_OPTIONAL, &c->seed)) < 0)
		return ret;
	c->has_seed = ret > 0;
	if ((ret = bs_field_num(&f, duet, "fail_on_regression_pct", BS_FIELD_OPTIONAL,
				&c->fail_pct)) < 0)
		return ret;
	c->has_fail_pct = ret > 0;
	if (c->has_fail_pct && !(c->fail_pct >= 0))
		return bs_field_error(&f, "fail_on_regression_pct", "is negative");
	{
		int64_t r = 0;

		if ((ret = bs_field_int_range(&f, duet, "resamples", BS_FIELD_OPTIONAL, 1,
					      INT32_MAX, &r)) < 0)
			return ret;
		c->resamples = (uint64_t)r;
	}
	{
		json_object *design = NULL, *noise = NULL;

		if ((ret = bs_field_obj(&f, duet, "design", BS_FIELD_OPTIONAL, &design)) < 0 ||
		    (ret = bs_field_obj(&f, duet, "noise_check", BS_FIELD_OPTIONAL, &noise)) < 0)
			return ret;
		f.prefix = "duet.design.";
		if (design && ((ret = bs_field_str(&f, design, "picked_by", BS_FIELD_REQUIRED,
						   &c->picked_by)) < 0 ||
			       (ret = bs_field_str(&f, design, "methods", BS_FIELD_OPTIONAL,
						   &c->design_methods)) < 0 ||
			       (ret = bs_field_str(&f, design, "why", BS_FIELD_OPTIONAL,
						   &c->design_why)) < 0))
			return ret;
		f.prefix = "duet.noise_check.";
		if (noise && (ret = decode_noise(&f, noise, &c->noise)) < 0)
			return ret;
	}
	return 0;
}

static int decode_recheck(json_object *ev, size_t idx, struct bs_duet_noise_event *r, char *err,
			  size_t errlen)
{
	char block[64];
	struct bs_block_field f = {block, "", err, errlen};
	json_object *check = NULL;
	int64_t v = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->event = idx;
	snprintf(block, sizeof(block), "EVENT %zu (noise_check)", idx);
	if ((ret = bs_field_int_range(&f, ev, "before_run", BS_FIELD_REQUIRED, 0, INT_MAX, &v)) <
		0 ||
	    (ret = bs_field_obj(&f, ev, "check", BS_FIELD_REQUIRED, &check)) < 0)
		return ret;
	r->before_run = (int)v;
	f.prefix = "check.";
	return decode_noise(&f, check, &r->rec);
}

/* ---- duet_run events ------------------------------------------------------------ */

static int decode_run(json_object *ev, size_t idx, struct bs_duet_run_event *r, char *err,
		      size_t errlen)
{
	char block[64], why[96];
	struct bs_block_field f = {block, "", err, errlen};
	json_object *sides = NULL;
	const char *m = NULL, *o = NULL;
	int64_t v = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->event = idx;
	snprintf(block, sizeof(block), "EVENT %zu (duet_run)", idx);
	if ((ret = bs_field_int_range(&f, ev, "run", BS_FIELD_REQUIRED, 0, INT_MAX, &v)) < 0)
		return ret;
	r->run = (int)v;
	snprintf(block, sizeof(block), "EVENT %zu (duet_run, run %d)", idx, r->run);
	if ((ret = bs_field_str(&f, ev, "method", BS_FIELD_REQUIRED, &m)) < 0)
		return ret;
	if (bs_dmethod_parse(m) < 0) {
		snprintf(why, sizeof(why), "is \"%.40s\", expected async, sync, seq or interleaved",
			 m);
		return bs_field_error(&f, "method", why);
	}
	r->method = (enum bs_dmethod)bs_dmethod_parse(m);
	v = 0;
	if ((ret = bs_field_int_range(&f, ev, "index", BS_FIELD_OPTIONAL, INT_MIN, INT_MAX, &v)) <
	    0)
		return ret;
	r->has_index = ret > 0;
	r->index = (int)v;
	if ((ret = bs_field_str(&f, ev, "order", BS_FIELD_OPTIONAL, &o)) < 0)
		return ret;
	if (o && strcmp(o, "AB") && strcmp(o, "BA")) {
		snprintf(why, sizeof(why), "is \"%.40s\", expected \"AB\" or \"BA\"", o);
		return bs_field_error(&f, "order", why);
	}
	if (o)
		memcpy(r->order, o, 3);
	v = 0;
	if ((ret = bs_field_int(&f, ev, "start_ns", BS_FIELD_OPTIONAL, &r->start_ns)) < 0 ||
	    (ret = bs_field_int(&f, ev, "end_ns", BS_FIELD_OPTIONAL, &r->end_ns)) < 0 ||
	    (ret = bs_field_bool(&f, ev, "ok", BS_FIELD_REQUIRED, &r->ok)) < 0 ||
	    (ret = bs_field_str(&f, ev, "reason", BS_FIELD_OPTIONAL, &r->reason)) < 0 ||
	    (ret = bs_field_str(&f, ev, "benchmark", BS_FIELD_OPTIONAL, &r->benchmark)) < 0 ||
	    (ret = bs_field_bool(&f, ev, "crossover", BS_FIELD_OPTIONAL, &r->crossover)) < 0 ||
	    (ret = bs_field_int_range(&f, ev, "cpu_swaps", BS_FIELD_OPTIONAL, 0, INT_MAX, &v)) <
		0 ||
	    (ret = bs_field_obj(&f, ev, "sides", BS_FIELD_REQUIRED, &sides)) < 0)
		return ret;
	r->cpu_swaps = (int)v;
	for (int s = 0; s < 2; s++) {
		json_object *x = NULL;

		f.prefix = "sides.";
		if ((ret = bs_field_obj(&f, sides, s ? "B" : "A", BS_FIELD_REQUIRED, &x)) < 0)
			return ret;
		f.prefix = s ? "sides.B." : "sides.A.";
		if ((ret = bs_field_int_range(&f, x, "pid", BS_FIELD_REQUIRED, 0, UINT32_MAX, &v)) <
			0 ||
		    (ret = bs_field_str(&f, x, "failed", BS_FIELD_OPTIONAL, &r->side[s].failed)) <
			0)
			return ret;
		r->side[s].pid = (uint32_t)v;
	}
	return 0;
}

/* ---- duet_stop_check events ------------------------------------------------------ */

static int decode_stop(json_object *ev, size_t idx, struct bs_duet_stop_event *d, char *err,
		       size_t errlen)
{
	char block[64];
	struct bs_block_field f = {block, "", err, errlen};
	const char *m = NULL, *dec = NULL, *iv = NULL;
	bool decided = true;
	int64_t v = 0;
	int ret;

	memset(d, 0, sizeof(*d));
	d->event = idx;
	d->width = NAN;
	snprintf(block, sizeof(block), "EVENT %zu (duet_stop_check)", idx);
	if ((ret = bs_field_int_range(&f, ev, "after_run", BS_FIELD_REQUIRED, 0, INT_MAX, &v)) <
		0 ||
	    (ret = bs_field_str(&f, ev, "method", BS_FIELD_REQUIRED, &m)) < 0)
		return ret;
	d->after_run = (int)v;
	if (bs_dmethod_parse(m) < 0)
		return bs_field_error(&f, "method", "is not async, sync, seq or interleaved");
	d->method = (enum bs_dmethod)bs_dmethod_parse(m);
	if ((ret = bs_field_count(&f, ev, "runs_ok", BS_FIELD_REQUIRED, &d->runs_ok)) < 0 ||
	    (ret = bs_field_count(&f, ev, "min_runs", BS_FIELD_REQUIRED, &d->min_runs)) < 0 ||
	    (ret = bs_field_num(&f, ev, "threshold", BS_FIELD_REQUIRED, &d->threshold)) < 0 ||
	    (ret = bs_field_num(&f, ev, "rel_ci_width", BS_FIELD_NULLABLE, &d->width)) < 0 ||
	    (ret = bs_field_str(&f, ev, "decision", BS_FIELD_REQUIRED, &dec)) < 0 ||
	    (ret = bs_field_str(&f, ev, "reason", BS_FIELD_OPTIONAL, &d->reason)) < 0 ||
	    (ret = bs_field_str(&f, ev, "interval", BS_FIELD_OPTIONAL, &iv)) < 0 ||
	    (ret = bs_field_bool(&f, ev, "decided", BS_FIELD_OPTIONAL, &decided)) < 0)
		return ret;
	if (strcmp(dec, "stop") && strcmp(dec, "continue"))
		return bs_field_error(&f, "decision", "is not \"stop\" or \"continue\"");
	d->stop = !strcmp(dec, "stop");
	/* older runners wrote no "decided" key, but this reason (stop_ci.h) */
	d->decided = decided && !(d->reason && !strncmp(d->reason, "no decision:", 12));
	if (!d->decided && d->stop)
		return bs_field_error(&f, "decision", "is \"stop\" without a decision");
	if (!iv)
		return 0;
	if (strcmp(iv, "run_model"))
		return bs_field_error(&f, "interval", "is not \"run_model\"");
	d->has_model = true;
	if ((ret = bs_field_num(&f, ev, "level", BS_FIELD_REQUIRED, &d->level)) < 0 ||
	    (ret = bs_field_bool(&f, ev, "cpu_terms", BS_FIELD_REQUIRED, &d->cpu_terms)) < 0 ||
	    (ret = bs_field_num(&f, ev, "min_overlap", BS_FIELD_REQUIRED, &d->min_overlap)) < 0 ||
	    (ret = bs_field_bool(&f, ev, "drop_warmup_half", BS_FIELD_REQUIRED,
				 &d->drop_warmup_half)) < 0)
		return ret;
	if (!d->decided)
		return 0;
	if (!(d->level > 0 && d->level < 1))
		return bs_field_error(&f, "level", "is not in (0, 1)");
	if (!(d->min_overlap > 0 && d->min_overlap < 1))
		return bs_field_error(&f, "min_overlap", "is not in (0, 1)");
	return 0;
}

int bs_duet_blocks_decode(const struct bs_dataset *ds, struct bs_duet_blocks *out, char *err,
			  size_t errlen)
{
	size_t n_events = ds->events ? json_object_array_length(ds->events) : 0;
	int ret;

	memset(out, 0, sizeof(*out));
	if ((ret = decode_context(ds->context, &out->ctx, err, errlen)))
		return ret;
	out->runs = calloc(n_events + 1, sizeof(*out->runs));
	out->rechecks = calloc(n_events + 1, sizeof(*out->rechecks));
	out->stops = calloc(n_events + 1, sizeof(*out->stops));
	if (!out->runs || !out->rechecks || !out->stops) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n_events; i++) {
		json_object *e = json_object_array_get_idx(ds->events, i);
		const char *kind = bs_json_str(e, "kind", NULL);

		if (kind && !strcmp(kind, "noise_check")) {
			if ((ret = decode_recheck(e, i, &out->rechecks[out->n_rechecks], err,
						  errlen)))
				return ret;
			out->n_rechecks++;
			continue;
		}
		if (kind && !strcmp(kind, "duet_stop_check")) {
			if ((ret = decode_stop(e, i, &out->stops[out->n_stops], err, errlen)))
				return ret;
			out->n_stops++;
			continue;
		}
		if (!kind || strcmp(kind, "duet_run"))
			continue;
		if ((ret = decode_run(e, i, &out->runs[out->n_runs], err, errlen)))
			return ret;
		out->n_runs++;
	}
	return 0;
}

void bs_duet_blocks_free(struct bs_duet_blocks *b)
{
	if (!b)
		return;
	free(b->runs);
	free(b->rechecks);
	free(b->stops);
	memset(b, 0, sizeof(*b));
}
