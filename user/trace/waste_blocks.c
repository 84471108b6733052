// SPDX-License-Identifier: MIT
/* waste_blocks.c - decode the waste EVENT blocks of a trace (see waste_blocks.h). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/waste_record.h"
#include "trace/block_field.h"
#include "trace/waste_blocks.h"

#define CTX_ID_MAX (1 << 26) /* context ids above this are refused (bounded id table) */

/* a member of a block and the offset of its value in the decoded struct */
struct key_at {
	const char *key;
	size_t off;
};

/* "overhead"."periods": optional; every step an object, in time order */
static int decode_periods(json_object *o, struct bs_waste_overhead *ov, char *err, size_t errlen)
{
	struct bs_block_field f = {"waste summary", "overhead.", err, errlen};
	struct bs_block_field e = {"waste summary", "overhead.periods[].", err, errlen};
	json_object *a;
	size_t i, n;
	int ret;

	if ((ret = bs_field_arr(&f, o, "periods", BS_FIELD_OPTIONAL, &a)) <= 0)
		return ret;
	n = json_object_array_length(a);
	ov->periods = n ? calloc(n, sizeof(*ov->periods)) : NULL;
	if (n && !ov->periods)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		json_object *s = json_object_array_get_idx(a, i);
		struct bs_waste_period_step *p = &ov->periods[i];

		if (!json_object_is_type(s, json_type_object))
			return bs_field_error(&f, "periods",
					      "holds an element that is not an object");
		p->window_pct = NAN;
		if ((ret = bs_field_count(&e, s, "t_ns", BS_FIELD_REQUIRED, &p->t_ns)) < 0 ||
		    (ret = bs_field_count(&e, s, "period", BS_FIELD_REQUIRED, &p->period)) < 0 ||
		    (ret = bs_field_num(&e, s, "window_pct", BS_FIELD_NULLABLE, &p->window_pct)) <
			0)
			return ret;
		if (i && p->t_ns < ov->periods[i - 1].t_ns)
			return bs_field_error(&f, "periods", "is not in time order");
		ov->nperiods = i + 1;
	}
	return 0;
}

static int decode_overhead(json_object *o, struct bs_waste_overhead *ov, char *err, size_t errlen)
{
	struct bs_block_field f = {"waste summary", "overhead.", err, errlen};
	static const struct {
		const char *key;
		enum bs_field_need need;
		size_t off;
	} nums[] = {
#define N(name, need) {#name, need, offsetof(struct bs_waste_overhead, name)}
	    N(run_ns, BS_FIELD_REQUIRED),
	    N(baseline_ns, BS_FIELD_NULLABLE),
	    N(ratio, BS_FIELD_NULLABLE),
	    N(trap_ns, BS_FIELD_REQUIRED),
	    N(sample_ns, BS_FIELD_REQUIRED),
	    N(handling_ns, BS_FIELD_REQUIRED),
	    N(budget_pct, BS_FIELD_REQUIRED),
	    N(estimated_pct, BS_FIELD_REQUIRED),
	    /* traces of earlier builds lack these */
	    N(trap_cost_ns, BS_FIELD_OPTIONAL),
	    N(stop_cost_ns, BS_FIELD_OPTIONAL),
	    N(program_cpu_ns, BS_FIELD_OPTIONAL),
#undef N
	};
	size_t i;
	int ret;

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		double *d = (double *)((char *)ov + nums[i].off);

		*d = NAN; /* what a nullable member's null reads */
		if ((ret = bs_field_num(&f, o, nums[i].key, nums[i].need, d)) < 0)
			return ret;
	}
	if ((ret = decode_periods(o, ov, err, errlen)) < 0 ||
	    (ret = bs_field_int(&f, o, "maxrss_kib", BS_FIELD_REQUIRED, &ov->maxrss_kib)) < 0 ||
	    (ret = bs_field_int(&f, o, "baseline_maxrss_kib", BS_FIELD_REQUIRED,
				&ov->baseline_maxrss_kib)) < 0 ||
	    (ret = bs_field_int(&f, o, "tool_maxrss_kib", BS_FIELD_REQUIRED,
				&ov->tool_maxrss_kib)) < 0)
		return ret;
	return 0;
}

int bs_waste_summary_decode(json_object *o, struct bs_waste_summary *s, char *err, size_t errlen)
{
	struct bs_block_field f = {"waste summary", "", err, errlen};
	static const struct key_at counts[] = {
#define C(name) {#name, offsetof(struct bs_waste_summary, name)}
	    C(period),	   C(samples),	 C(samples_access), C(armed),  C(reservoir_drops),
	    C(unreadable), C(hits),	 C(unresolved),	    C(noself), C(stale_hits),
	    C(threads),	   C(processes), C(lost),
#undef C
	};
	json_object *ov = NULL;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!json_object_is_type(o, json_type_object)) {
		f.block = "waste summary block";
		ret = bs_field_error(&f, "summary", "is not an object");
		goto fail;
	}
	s->period_ns = s->final_period_ns = NAN; /* what null reads (a PMU source) */
	s->top = s->depth = -1;
	if ((ret = bs_field_str(&f, o, "command", BS_FIELD_REQUIRED, &s->command)) < 0 ||
	    (ret = bs_field_str(&f, o, "source", BS_FIELD_REQUIRED, &s->source)) < 0 ||
	    (ret = bs_field_str(&f, o, "kinds", BS_FIELD_REQUIRED, &s->kinds)) < 0 ||
	    (ret = bs_field_num(&f, o, "period_ns", BS_FIELD_NULLABLE, &s->period_ns)) < 0 ||
	    (ret = bs_field_num(&f, o, "final_period_ns", BS_FIELD_NULLABLE, &s->final_period_ns)) <
		0 ||
	    (ret = bs_field_int(&f, o, "debug_registers", BS_FIELD_REQUIRED, &s->debug_registers)) <
		0 ||
	    (ret = bs_field_bool(&f, o, "freeze", BS_FIELD_REQUIRED, &s->freeze)) < 0)
		goto fail;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		ret = bs_field_count(&f, o, counts[i].key, BS_FIELD_REQUIRED,
				     (uint64_t *)((char *)s + counts[i].off));
		if (ret < 0)
			goto fail;
	}
	/* traces of earlier builds have no "sigtraps_program", "*_unfollowed"
	 * nor "stops_late" */
	if ((ret = bs_field_count(&f, o, "sigtraps_program", BS_FIELD_OPTIONAL,
				  &s->sigtraps_program)) < 0 ||
	    (ret = bs_field_count(&f, o, "stops_late", BS_FIELD_OPTIONAL, &s->stops_late)) < 0 ||
	    (ret = bs_field_count(&f, o, "threads_unfollowed", BS_FIELD_OPTIONAL,
				  &s->threads_unfollowed)) < 0 ||
	    (ret = bs_field_count(&f, o, "processes_unfollowed", BS_FIELD_OPTIONAL,
				  &s->processes_unfollowed)) < 0 ||
	    (ret = bs_field_str(&f, o, "first_sigtrap", BS_FIELD_OPTIONAL, &s->first_sigtrap)) <
		0 ||
	    (ret = bs_field_int_range(&f, o, "top", BS_FIELD_OPTIONAL, 0, 100000, &s->top)) < 0 ||
	    (ret = bs_field_int_range(&f, o, "depth", BS_FIELD_OPTIONAL, 1, BS_WASTE_STACK,
				      &s->depth)) < 0)
		goto fail;
	/* "overhead" may be missing, but not null */
	if (json_object_object_get_ex(o, "overhead", NULL)) {
		if ((ret = bs_field_obj(&f, o, "overhead", BS_FIELD_REQUIRED, &ov)) < 0 ||
		    (ret = decode_overhead(ov, &s->overhead, err, errlen)) < 0)
			goto fail;
		s->has_overhead = true;
	}
	s->present = true;
	s->json = json_object_get(o);
	return 0;
fail:
	free(s->overhead.periods);
	memset(s, 0, sizeof(*s));
	return ret;
}

void bs_waste_summary_free(struct bs_waste_summary *s)
{
	json_object_put(s->json);
	free(s->overhead.periods);
	memset(s, 0, sizeof(*s));
}

static int decode_ctx(json_object *o, struct bs_waste_ctx_block *c, char *err, size_t errlen)
{
	struct bs_block_field f = {"waste ctx block", "", err, errlen};
	int64_t id;
	int ret;

	if ((ret = bs_field_str(&f, o, "frames", BS_FIELD_REQUIRED, &c->frames)) < 0 ||
	    (ret = bs_field_int_range(&f, o, "id", BS_FIELD_REQUIRED, 0, CTX_ID_MAX, &id)) < 0)
		return ret;
	c->id = (uint32_t)id;
	return 0;
}

static int decode_pair(json_object *o, struct bs_waste_pair_block *p, char *err, size_t errlen)
{
	struct bs_block_field f = {"waste pair block", "", err, errlen};
	static const struct key_at u32s[] = {
#define U(name) {#name, offsetof(struct bs_waste_pair_block, name)}
	    U(bytes),
	    U(ctx1),
	    U(ctx2),
	    U(tid),
#undef U
	};
	int64_t v;
	size_t i;
	int ret;

	if ((ret = bs_field_str(&f, o, "kind", BS_FIELD_REQUIRED, &p->kind)) < 0 ||
	    (ret = bs_field_bool(&f, o, "wasteful", BS_FIELD_REQUIRED, &p->wasteful)) < 0)
		return ret;
	for (i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++) {
		if ((ret = bs_field_int_range(&f, o, u32s[i].key, BS_FIELD_REQUIRED, 0, UINT32_MAX,
					      &v)) < 0)
			return ret;
		*(uint32_t *)((char *)p + u32s[i].off) = (uint32_t)v;
	}
	ret = bs_field_count(&f, o, "ns", BS_FIELD_REQUIRED, &p->ns);
	return ret < 0 ? ret : 0;
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
	struct bs_block_field f;
	const char *what = NULL;
	int ret;

	memset(b, 0, sizeof(*b));
	if (!o || !json_object_object_get_ex(o, "waste", &v)) {
		json_object_put(o);
		return 0;
	}
	f = (struct bs_block_field){"waste block", "", err, errlen};
	if ((ret = bs_field_str(&f, o, "waste", BS_FIELD_REQUIRED, &what)) < 0) {
		json_object_put(o);
		return ret;
	}
	if (!strcmp(what, "ctx")) {
		b->type = BS_WBLK_CTX;
		ret = decode_ctx(o, &b->u.ctx, err, errlen);
	} else if (!strcmp(what, "pair")) {
		b->type = BS_WBLK_PAIR;
		ret = decode_pair(o, &b->u.pair, err, errlen);
	} else if (!strcmp(what, "summary")) {
		b->type = BS_WBLK_SUMMARY;
		f.block = "waste summary block";
		ret = bs_field_obj(&f, o, "summary", BS_FIELD_REQUIRED, &v);
		if (ret > 0)
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
