// SPDX-License-Identifier: MIT
/* waste_blocks.c - decode the waste EVENT blocks of a trace (see waste_blocks.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "trace/waste_blocks.h"

#define CTX_ID_MAX (1 << 26) /* context ids above this are refused (bounded id table) */

/*
 * The strict getters: the member @key of object @o with the type asked for,
 * or -EBADMSG with "WHAT lacks "KEY"" / "WHAT: "KEY" is not TYPE" in @err.
 */
static int bad(char *err, size_t errlen, const char *what, const char *key, const char *problem)
{
	if (problem)
		snprintf(err, errlen, "%s: \"%s\" is not %s", what, key, problem);
	else
		snprintf(err, errlen, "%s lacks \"%s\"", what, key);
	return -EBADMSG;
}

static int member(json_object *o, const char *what, const char *key, json_object **v, char *err,
		  size_t errlen)
{
	if (!json_object_object_get_ex(o, key, v))
		return bad(err, errlen, what, key, NULL);
	return 0;
}

static int get_str(json_object *o, const char *what, const char *key, const char **out, char *err,
		   size_t errlen)
{
	json_object *v;
	int ret = member(o, what, key, &v, err, errlen);

	if (ret)
		return ret;
	if (!json_object_is_type(v, json_type_string))
		return bad(err, errlen, what, key, "a string");
	*out = json_object_get_string(v);
	return 0;
}

static int get_bool(json_object *o, const char *what, const char *key, bool *out, char *err,
		    size_t errlen)
{
	json_object *v;
	int ret = member(o, what, key, &v, err, errlen);

	if (ret)
		return ret;
	if (!json_object_is_type(v, json_type_boolean))
		return bad(err, errlen, what, key, "a boolean");
	*out = json_object_get_boolean(v);
	return 0;
}

static int get_i64(json_object *o, const char *what, const char *key, int64_t *out, char *err,
		   size_t errlen)
{
	json_object *v;
	int ret = member(o, what, key, &v, err, errlen);

	if (ret)
		return ret;
	if (!json_object_is_type(v, json_type_int))
		return bad(err, errlen, what, key, "an integer");
	*out = json_object_get_int64(v);
	return 0;
}

/* a non-negative integer no greater than @max */
static int get_u64(json_object *o, const char *what, const char *key, uint64_t max, uint64_t *out,
		   char *err, size_t errlen)
{
	json_object *v;
	int ret = member(o, what, key, &v, err, errlen);

	if (ret)
		return ret;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0 ||
	    json_object_get_uint64(v) > max)
		return bad(err, errlen, what, key, "a non-negative integer in range");
	*out = json_object_get_uint64(v);
	return 0;
}

static int get_u32(json_object *o, const char *what, const char *key, uint32_t max, uint32_t *out,
		   char *err, size_t errlen)
{
	uint64_t u;
	int ret = get_u64(o, what, key, max, &u, err, errlen);

	if (!ret)
		*out = (uint32_t)u;
	return ret;
}

/* a number (integer or double, NaN included); with @nullable, null reads NaN */
static int get_num(json_object *o, const char *what, const char *key, bool nullable, double *out,
		   char *err, size_t errlen)
{
	json_object *v;
	int ret = member(o, what, key, &v, err, errlen);

	if (ret)
		return ret;
	if (!v && nullable) {
		*out = NAN;
		return 0;
	}
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return bad(err, errlen, what, key, nullable ? "a number or null" : "a number");
	*out = json_object_get_double(v);
	return 0;
}

static int decode_overhead(json_object *o, struct bs_waste_overhead *ov, char *err, size_t errlen)
{
	static const char W[] = "the waste summary's overhead";
	int ret;

	if (!json_object_is_type(o, json_type_object))
		return bad(err, errlen, "the waste summary", "overhead", "an object");
	if ((ret = get_num(o, W, "run_ns", false, &ov->run_ns, err, errlen)) ||
	    (ret = get_num(o, W, "baseline_ns", true, &ov->baseline_ns, err, errlen)) ||
	    (ret = get_num(o, W, "ratio", true, &ov->ratio, err, errlen)) ||
	    (ret = get_num(o, W, "trap_ns", false, &ov->trap_ns, err, errlen)) ||
	    (ret = get_num(o, W, "sample_ns", false, &ov->sample_ns, err, errlen)) ||
	    (ret = get_num(o, W, "handling_ns", false, &ov->handling_ns, err, errlen)) ||
	    (ret = get_num(o, W, "budget_pct", false, &ov->budget_pct, err, errlen)) ||
	    (ret = get_num(o, W, "estimated_pct", false, &ov->estimated_pct, err, errlen)) ||
	    (ret = get_i64(o, W, "maxrss_kib", &ov->maxrss_kib, err, errlen)) ||
	    (ret = get_i64(o, W, "baseline_maxrss_kib", &ov->baseline_maxrss_kib, err, errlen)))
		return ret;
	return get_i64(o, W, "tool_maxrss_kib", &ov->tool_maxrss_kib, err, errlen);
}

int bs_waste_summary_decode(json_object *o, struct bs_waste_summary *s, char *err, size_t errlen)
{
	static const char W[] = "the waste summary";
	static const struct {
		const char *key;
		size_t off;
	} counts[] = {
#define C(name) {#name, offsetof(struct bs_waste_summary, name)}
	    C(period),	   C(samples),	 C(samples_access), C(armed),  C(reservoir_drops),
	    C(unreadable), C(hits),	 C(unresolved),	    C(noself), C(stale_hits),
	    C(threads),	   C(processes), C(lost),
#undef C
	};
	json_object *ov;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!json_object_is_type(o, json_type_object))
		return bad(err, errlen, "the waste summary block", "summary", "an object");
	if ((ret = get_str(o, W, "command", &s->command, err, errlen)) ||
	    (ret = get_str(o, W, "source", &s->source, err, errlen)) ||
	    (ret = get_str(o, W, "kinds", &s->kinds, err, errlen)) ||
	    (ret = get_num(o, W, "period_ns", false, &s->period_ns, err, errlen)) ||
	    (ret = get_num(o, W, "final_period_ns", false, &s->final_period_ns, err, errlen)) ||
	    (ret = get_i64(o, W, "debug_registers", &s->debug_registers, err, errlen)) ||
	    (ret = get_bool(o, W, "freeze", &s->freeze, err, errlen)))
		goto fail;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		ret = get_u64(o, W, counts[i].key, UINT64_MAX,
			      (uint64_t *)((char *)s + counts[i].off), err, errlen);
		if (ret)
			goto fail;
	}
	if (json_object_object_get_ex(o, "overhead", &ov)) {
		ret = decode_overhead(ov, &s->overhead, err, errlen);
		if (ret)
			goto fail;
		s->has_overhead = true;
	}
	s->present = true;
	s->json = json_object_get(o);
	return 0;
fail:
	memset(s, 0, sizeof(*s));
	return ret;
}

void bs_waste_summary_free(struct bs_waste_summary *s)
{
	json_object_put(s->json);
	memset(s, 0, sizeof(*s));
}

static int decode_ctx(json_object *o, struct bs_waste_ctx_block *c, char *err, size_t errlen)
{
	static const char W[] = "a waste ctx block";
	int ret = get_str(o, W, "frames", &c->frames, err, errlen);

	return ret ? ret : get_u32(o, W, "id", CTX_ID_MAX, &c->id, err, errlen);
}

static int decode_pair(json_object *o, struct bs_waste_pair_block *p, char *err, size_t errlen)
{
	static const char W[] = "a waste pair block";
	int ret;

	if ((ret = get_str(o, W, "kind", &p->kind, err, errlen)) ||
	    (ret = get_bool(o, W, "wasteful", &p->wasteful, err, errlen)) ||
	    (ret = get_u32(o, W, "bytes", UINT32_MAX, &p->bytes, err, errlen)) ||
	    (ret = get_u32(o, W, "ctx1", UINT32_MAX, &p->ctx1, err, errlen)) ||
	    (ret = get_u32(o, W, "ctx2", UINT32_MAX, &p->ctx2, err, errlen)) ||
	    (ret = get_u32(o, W, "tid", UINT32_MAX, &p->tid, err, errlen)))
		return ret;
	return get_u64(o, W, "ns", UINT64_MAX, &p->ns, err, errlen);
}

static json_object *parse(const void *payload, uint32_t len)
{
	json_tokener *tok = json_tokener_new();
	json_object *o = tok ? json_tokener_parse_ex(tok, payload, (int)len) : NULL;

	json_tokener_free(tok);
	return o;
}

int bs_waste_context_is_waste(const void *payload, uint32_t len)
{
	json_object *o = parse(payload, len), *t;
	int is = json_object_object_get_ex(o, "tool", &t) &&
		 json_object_is_type(t, json_type_string) &&
		 !strcmp(json_object_get_string(t), "waste");

	json_object_put(o);
	return is;
}

int bs_waste_block_decode(const void *payload, uint32_t len, struct bs_waste_block *b, char *err,
			  size_t errlen)
{
	json_object *o = parse(payload, len), *v;
	const char *what;
	int ret;

	memset(b, 0, sizeof(*b));
	if (!o || !json_object_object_get_ex(o, "waste", &v)) {
		json_object_put(o);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string)) {
		json_object_put(o);
		return bad(err, errlen, "a waste block", "waste", "a string");
	}
	what = json_object_get_string(v);
	if (!strcmp(what, "ctx")) {
		b->type = BS_WBLK_CTX;
		ret = decode_ctx(o, &b->u.ctx, err, errlen);
	} else if (!strcmp(what, "pair")) {
		b->type = BS_WBLK_PAIR;
		ret = decode_pair(o, &b->u.pair, err, errlen);
	} else if (!strcmp(what, "summary")) {
		b->type = BS_WBLK_SUMMARY;
		if (!json_object_object_get_ex(o, "summary", &v))
			ret = bad(err, errlen, "a waste summary block", "summary", NULL);
		else
			ret = bs_waste_summary_decode(v, &b->u.summary, err, errlen);
	} else {
		json_object_put(o); /* a block type of a later version */
		return 0;
	}
	if (ret) {
		json_object_put(o);
		memset(b, 0, sizeof(*b));
		return ret;
	}
	b->json = o;
	return 1;
}

void bs_waste_block_free(struct bs_waste_block *b)
{
	if (b->type == BS_WBLK_SUMMARY)
		bs_waste_summary_free(&b->u.summary);
	json_object_put(b->json);
	memset(b, 0, sizeof(*b));
}
