// SPDX-License-Identifier: MIT
/* class.c - pair classification, watchpoint reservoir, aggregation. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "waste/class.h"

static const char *const kind_names[BS_WK_N] = {"dead-store", "silent-store", "silent-load"};

const char *bs_waste_kind_name(enum bs_waste_kind k)
{
	return (unsigned)k < BS_WK_N ? kind_names[k] : "unknown";
}

unsigned bs_waste_kinds_parse(const char *s)
{
	int k;

	if (!s)
		return 0;
	if (!strcmp(s, "all"))
		return BS_WK_ALL;
	for (k = 0; k < BS_WK_N; k++)
		if (!strcmp(s, kind_names[k]))
			return 1u << k;
	return 0;
}

enum bs_waste_watch bs_waste_watch_for(unsigned kinds, bool load, bool store)
{
	if (store) {
		if (kinds & (1u << BS_WK_DEAD_STORE))
			return BS_WATCH_RW;
		if (kinds & (1u << BS_WK_SILENT_STORE))
			return BS_WATCH_W;
		return BS_WATCH_NONE;
	}
	if (load && (kinds & (1u << BS_WK_SILENT_LOAD)))
		return BS_WATCH_RW;
	return BS_WATCH_NONE;
}

static bool fp_equal(double a, double b, double tol)
{
	if (isnan(a) || isnan(b))
		return false;
	if (a == b)
		return true;
	return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

bool bs_waste_values_equal(uint64_t a, uint64_t b, uint32_t len, uint8_t fp, double tol)
{
	uint64_t mask = len >= 8 ? ~0ull : (1ull << (len * 8)) - 1;

	a &= mask;
	b &= mask;
	if (a == b)
		return true;
	if (fp == 8 && len == 8) {
		double x, y;

		memcpy(&x, &a, 8);
		memcpy(&y, &b, 8);
		return fp_equal(x, y, tol);
	}
	if (fp == 4 && (len == 4 || len == 8)) {
		uint32_t i;

		for (i = 0; i < len; i += 4) {
			uint32_t ua = (uint32_t)(a >> (i * 8)), ub = (uint32_t)(b >> (i * 8));
			float x, y;

			memcpy(&x, &ua, 4);
			memcpy(&y, &ub, 4);
			if (ua != ub && !fp_equal(x, y, tol))
				return false;
		}
		return true;
	}
	return false;
}

int bs_waste_classify(unsigned kinds, enum bs_waste_watch watch, const struct bs_waste_acc *first,
		      const struct bs_waste_acc *next, uint64_t old, uint64_t val, uint32_t len,
		      double tol, struct bs_waste_outcome out[BS_WK_N])
{
	bool same = bs_waste_values_equal(old, val, len, first->fp, tol);
	bool nstore, nload;
	int n = 0;

	if (next->known) {
		nstore = next->store;
		nload = next->load;
	} else if (watch == BS_WATCH_W || !bs_waste_values_equal(old, val, len, 0, 0)) {
		nstore =
		    true; /* a W watchpoint traps on writes only; a changed value was written */
		nload = false;
	} else {
		return 0; /* unchanged value, unknown access: a load or a silent store */
	}
	if (watch == BS_WATCH_W) {
		nstore = true;
		nload = false;
	}
	if (first->store) {
		if ((kinds & (1u << BS_WK_DEAD_STORE)) && watch == BS_WATCH_RW)
			out[n++] = (struct bs_waste_outcome){BS_WK_DEAD_STORE, nstore && !nload};
		if ((kinds & (1u << BS_WK_SILENT_STORE)) && nstore)
			out[n++] = (struct bs_waste_outcome){BS_WK_SILENT_STORE, same};
	} else if (first->load) {
		if ((kinds & (1u << BS_WK_SILENT_LOAD)) && nload && !nstore)
			out[n++] = (struct bs_waste_outcome){BS_WK_SILENT_LOAD, same};
	}
	return n;
}

/* ---- reservoir ------------------------------------------------------------- */

uint64_t bs_waste_xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

void bs_waste_reservoir_init(struct bs_waste_reservoir *r, uint32_t nregs, uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	r->nregs = nregs < 1 ? 1 : nregs > BS_WASTE_NREGS ? BS_WASTE_NREGS : nregs;
	r->rng = seed ? seed : 0x9E3779B97F4A7C15ull;
}

int bs_waste_reservoir_pick(struct bs_waste_reservoir *r)
{
	uint32_t i, j;
	double u;

	for (i = 0; i < r->nregs; i++)
		if (!r->armed[i]) {
			r->armed[i] = true;
			r->k[i] = 1;
			if (r->n < r->nregs)
				r->n++;
			return (int)i;
		}
	r->n++;
	for (i = 0; i < r->nregs; i++)
		r->k[i]++;
	/* replace with probability nregs / n, a register chosen uniformly:
	 * each register is replaced with probability 1 / n */
	u = (double)(bs_waste_xorshift(&r->rng) >> 11) * 0x1.0p-53;
	if (u * (double)r->n >= (double)r->nregs)
		return -1;
	j = (uint32_t)(bs_waste_xorshift(&r->rng) % r->nregs);
	r->k[j] = 1;
	return (int)j;
}

void bs_waste_reservoir_release(struct bs_waste_reservoir *r, int i)
{
	if (i >= 0 && i < BS_WASTE_NREGS) {
		uint32_t j, armed = 0;

		r->armed[i] = false;
		r->k[i] = 0;
		for (j = 0; j < r->nregs; j++)
			armed += r->armed[j];
		r->n = armed; /* the stream restarts when a register frees */
	}
}

/* ---- aggregation ----------------------------------------------------------- */

int bs_waste_agg_add(struct bs_waste_agg *a, const struct bs_waste_outcome *o, uint32_t bytes,
		     uint32_t ctx1, uint32_t ctx2)
{
	struct bs_waste_total *t;
	size_t i;

	if ((unsigned)o->kind >= BS_WK_N)
		return -EINVAL;
	t = &a->total[o->kind];
	t->resolved++;
	t->resolved_bytes += bytes;
	if (!o->waste)
		return 0;
	t->waste++;
	t->waste_bytes += bytes;
	for (i = 0; i < a->n; i++) {
		struct bs_waste_pair *p = &a->pairs[i];

		if (p->kind == o->kind && p->ctx1 == ctx1 && p->ctx2 == ctx2) {
			p->count++;
			p->bytes += bytes;
			return 0;
		}
	}
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		struct bs_waste_pair *np = realloc(a->pairs, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		a->pairs = np;
		a->cap = cap;
	}
	a->pairs[a->n++] = (struct bs_waste_pair){o->kind, ctx1, ctx2, 1, bytes};
	return 0;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct bs_waste_pair *a = x, *b = y;

	if (a->bytes != b->bytes)
		return a->bytes < b->bytes ? 1 : -1;
	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->ctx1 != b->ctx1)
		return a->ctx1 < b->ctx1 ? -1 : 1;
	return a->ctx2 < b->ctx2 ? -1 : a->ctx2 > b->ctx2;
}

void bs_waste_agg_sort(struct bs_waste_agg *a)
{
	if (a->n > 1)
		qsort(a->pairs, a->n, sizeof(*a->pairs), cmp_pair);
}

double bs_waste_agg_fraction(const struct bs_waste_agg *a, enum bs_waste_kind k)
{
	const struct bs_waste_total *t = &a->total[k];

	return t->resolved_bytes ? (double)t->waste_bytes / (double)t->resolved_bytes : NAN;
}

void bs_waste_agg_free(struct bs_waste_agg *a)
{
	free(a->pairs);
	a->pairs = NULL;
	a->n = a->cap = 0;
}
