// SPDX-License-Identifier: MIT
/* duet_blocks.c - decode a duet trace's blocks into typed structs (duet_blocks.h). */
#include "trace/duet_blocks.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- typed members ---------------------------------------------------------- */

/* Where a member is read from: the block ("CONTEXT", "EVENT 4 (duet_run)")
 * and the path of the object that holds it ("" at the top, "duet.", ...). */
struct where {
	const char *block;
	const char *path;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4))) static int bad(const struct where *w, const char *key,
						     const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (w->err && w->errlen)
		snprintf(w->err, w->errlen, "%s: \"%s%s\" %s", w->block, w->path, key, what);
	return -EBADMSG;
}

/* The member @key of @o into *v: NULL when absent or null; a missing or
 * null required member is an error. */
static int member(const struct where *w, json_object *o, const char *key, bool required,
		  json_object **v)
{
	bool there = json_object_object_get_ex(o, key, v);

	if (!there)
		*v = NULL;
	if (!*v && required)
		return bad(w, key, "%s", there ? "is null" : "is missing");
	return 0;
}

static int wrong_type(const struct where *w, const char *key, json_object *v, const char *want)
{
	const char *t = json_type_to_name(json_object_get_type(v));

	return bad(w, key, "is %s %s, not %s", strchr("aeiou", t[0]) ? "an" : "a", t, want);
}

static int get_str(const struct where *w, json_object *o, const char *key, bool required,
		   const char **out)
{
	json_object *v;
	int ret = member(w, o, key, required, &v);

	*out = NULL;
	if (ret || !v)
		return ret;
	if (!json_object_is_type(v, json_type_string))
		return wrong_type(w, key, v, "a string");
	*out = json_object_get_string(v);
	return 0;
}

static int get_bool(const struct where *w, json_object *o, const char *key, bool required,
		    bool *has, bool *out)
{
	json_object *v;
	int ret = member(w, o, key, required, &v);

	*out = false;
	if (has)
		*has = v != NULL;
	if (ret || !v)
		return ret;
	if (!json_object_is_type(v, json_type_boolean))
		return wrong_type(w, key, v, "a boolean");
	*out = json_object_get_boolean(v);
	return 0;
}

/* an integer in [lo, hi] */
static int get_int(const struct where *w, json_object *o, const char *key, bool required,
		   int64_t lo, int64_t hi, bool *has, int64_t *out)
{
	json_object *v;
	int ret = member(w, o, key, required, &v);

	*out = 0;
	if (has)
		*has = v != NULL;
	if (ret || !v)
		return ret;
	if (!json_object_is_type(v, json_type_int))
		return wrong_type(w, key, v, "an integer");
	errno = 0;
	*out = json_object_get_int64(v);
	if (errno || *out < lo || *out > hi)
		return bad(w, key, "is %s, outside [%" PRId64 ", %" PRId64 "]",
			   json_object_to_json_string(v), lo, hi);
	return 0;
}

static int get_object(const struct where *w, json_object *o, const char *key, bool required,
		      json_object **out)
{
	int ret = member(w, o, key, required, out);

	if (ret || !*out)
		return ret;
	if (!json_object_is_type(*out, json_type_object))
		return wrong_type(w, key, *out, "an object");
	return 0;
}

/* ---- CONTEXT ------------------------------------------------------------------ */

static int decode_context(json_object *ctx, struct bs_duet_context *c, char *err, size_t errlen)
{
	struct where w = {"CONTEXT", "", err, errlen};
	json_object *duet, *v;
	int ret;

	if ((ret = get_str(&w, ctx, "kernel", false, &c->kernel)) ||
	    (ret = get_str(&w, ctx, "cpu_model", false, &c->cpu_model)) ||
	    (ret = get_int(&w, ctx, "ncpus", false, 0, INT_MAX, &c->has_ncpus, &c->ncpus)) ||
	    (ret = get_str(&w, ctx, "hypervisor", false, &c->hypervisor)) ||
	    (ret = get_object(&w, ctx, "duet", false, &duet)))
		return ret;
	if (!bs_context_degraded(ctx, c->degraded, sizeof(c->degraded)))
		c->degraded[0] = '\0';
	c->has_duet = duet != NULL;
	if (!duet)
		return 0;
	w.path = "duet.";
	if ((ret = get_str(&w, duet, "benchmark", false, &c->benchmark)) ||
	    (ret = get_str(&w, duet, "source", false, &c->source)) ||
	    (ret = get_str(&w, duet, "suite", false, &c->suite)) ||
	    (ret = get_bool(&w, duet, "aa", false, &c->has_aa, &c->aa)) ||
	    (ret = member(&w, duet, "min_overlap", false, &v)))
		return ret;
	if (v && !json_object_is_type(v, json_type_double) &&
	    !json_object_is_type(v, json_type_int))
		return wrong_type(&w, "min_overlap", v, "a number");
	c->has_min_overlap = v != NULL;
	c->min_overlap = v ? json_object_get_double(v) : 0;
	return 0;
}

/* ---- duet_run events ------------------------------------------------------------ */

static int decode_run(json_object *ev, size_t idx, struct bs_duet_run_event *r, char *err,
		      size_t errlen)
{
	char block[64];
	struct where w = {block, "", err, errlen};
	json_object *sides;
	const char *m, *o;
	int64_t v;
	int ret;

	memset(r, 0, sizeof(*r));
	r->event = idx;
	snprintf(block, sizeof(block), "EVENT %zu (duet_run)", idx);
	if ((ret = get_int(&w, ev, "run", true, 0, INT_MAX, NULL, &v)))
		return ret;
	r->run = (int)v;
	snprintf(block, sizeof(block), "EVENT %zu (duet_run, run %d)", idx, r->run);
	if ((ret = get_str(&w, ev, "method", true, &m)))
		return ret;
	if (bs_dmethod_parse(m) < 0)
		return bad(&w, "method", "is \"%s\", not async, sync, seq or interleaved", m);
	r->method = (enum bs_dmethod)bs_dmethod_parse(m);
	if ((ret = get_int(&w, ev, "index", false, INT_MIN, INT_MAX, &r->has_index, &v)))
		return ret;
	r->index = (int)v;
	if ((ret = get_str(&w, ev, "order", false, &o)))
		return ret;
	if (o && strcmp(o, "AB") && strcmp(o, "BA"))
		return bad(&w, "order", "is \"%s\", not \"AB\" or \"BA\"", o);
	if (o)
		memcpy(r->order, o, 3);
	if ((ret = get_int(&w, ev, "start_ns", false, INT64_MIN, INT64_MAX, NULL, &r->start_ns)) ||
	    (ret = get_int(&w, ev, "end_ns", false, INT64_MIN, INT64_MAX, NULL, &r->end_ns)) ||
	    (ret = get_bool(&w, ev, "ok", true, NULL, &r->ok)) ||
	    (ret = get_str(&w, ev, "reason", false, &r->reason)) ||
	    (ret = get_str(&w, ev, "benchmark", false, &r->benchmark)) ||
	    (ret = get_bool(&w, ev, "crossover", false, NULL, &r->crossover)) ||
	    (ret = get_int(&w, ev, "cpu_swaps", false, 0, INT_MAX, NULL, &v)) ||
	    (ret = get_object(&w, ev, "sides", true, &sides)))
		return ret;
	r->cpu_swaps = (int)v;
	for (int s = 0; s < 2; s++) {
		json_object *x;

		w.path = "sides.";
		if ((ret = get_object(&w, sides, s ? "B" : "A", true, &x)))
			return ret;
		w.path = s ? "sides.B." : "sides.A.";
		if ((ret = get_int(&w, x, "pid", true, 0, UINT32_MAX, NULL, &v)) ||
		    (ret = get_str(&w, x, "failed", false, &r->side[s].failed)))
			return ret;
		r->side[s].pid = (uint32_t)v;
	}
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
	if (!out->runs) {
		if (err && errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < n_events; i++) {
		json_object *e = json_object_array_get_idx(ds->events, i);
		const char *kind = bs_json_str(e, "kind", NULL);

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
	memset(b, 0, sizeof(*b));
}
