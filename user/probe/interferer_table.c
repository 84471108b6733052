// SPDX-License-Identifier: MIT
/* interferer_table.c - interferer charges summed per pair (interferer_table.h). */
#include "probe/interferer_table.h"

#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

/* The names' order: (victim_pid, interferer_tid). */
static int name_cmp(const void *a, const void *b)
{
	const struct bs_interferer_rec *x = a, *y = b;

	if (x->victim_pid != y->victim_pid)
		return x->victim_pid < y->victim_pid ? -1 : 1;
	return x->interferer_tid < y->interferer_tid ? -1 : x->interferer_tid > y->interferer_tid;
}

/* The entries' order: (victim_pid, victim_iter, interferer_tid). */
static int pair_cmp(const void *a, const void *b)
{
	const struct bs_interferer_rec *x = a, *y = b;

	if (x->victim_pid != y->victim_pid)
		return x->victim_pid < y->victim_pid ? -1 : 1;
	if (x->victim_iter != y->victim_iter)
		return x->victim_iter < y->victim_iter ? -1 : 1;
	return x->interferer_tid < y->interferer_tid ? -1 : x->interferer_tid > y->interferer_tid;
}

/* The charges of one iteration with no record yet, one per interferer. */
struct held_iter {
	uint32_t pid, iter;
	size_t n;
	struct bs_interferer_rec *v; /* n pairs (victim_pid, interferer_tid) */
};

/* Per victim process: bit k set when its iteration k has had a record. */
struct rec_bits {
	uint32_t pid;
	size_t n_words;
	uint64_t *w;
};

static int held_cmp(const void *a, const void *b)
{
	const struct held_iter *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

static int bits_cmp(const void *a, const void *b)
{
	const struct rec_bits *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Add r's ns to entry e, named as r if it has no name yet; 0. */
static int pair_add_into(struct bs_interferer_rec *e, const struct bs_interferer_rec *r)
{
	e->ns += r->ns;
	if (r->interferer_pid && !e->interferer_pid) {
		e->interferer_pid = r->interferer_pid;
		memcpy(e->comm, r->comm, sizeof(e->comm));
		e->comm[sizeof(e->comm) - 1] = '\0';
	}
	return 0;
}

/* Add r to its entry of tree *root, ordered by cmp. */
static int pair_add(void **root, const struct bs_interferer_rec *r,
		    int (*cmp)(const void *, const void *))
{
	struct bs_interferer_rec key = {.victim_pid = r->victim_pid,
					.interferer_tid = r->interferer_tid,
					.victim_iter = r->victim_iter},
				 *e, **slot = tfind(&key, root, cmp);

	if (!slot) {
		e = malloc(sizeof(*e));
		if (e)
			*e = key;
		slot = e ? tsearch(e, root, cmp) : NULL;
		if (!slot) {
			free(e);
			return -ENOMEM;
		}
	}
	return pair_add_into(*slot, r);
}

/* Hold charge r of iteration `iter` until that iteration has a record. */
static int hold(struct bs_interferer_table *t, const struct bs_interferer_rec *r, uint32_t iter)
{
	struct held_iter key = {.pid = r->victim_pid, .iter = iter}, *h, **slot;
	struct bs_interferer_rec *v;
	size_t i;

	slot = tfind(&key, &t->held, held_cmp);
	if (!slot) {
		h = calloc(1, sizeof(*h));
		if (h)
			*h = key;
		slot = h ? tsearch(h, &t->held, held_cmp) : NULL;
		if (!slot) {
			free(h);
			return -ENOMEM;
		}
	}
	h = *slot;
	for (i = 0; i < h->n; i++)
		if (h->v[i].interferer_tid == r->interferer_tid)
			break;
	if (i == h->n) {
		v = realloc(h->v, (h->n + 1) * sizeof(*v));
		if (!v) {
			if (!h->n) { /* not an iteration with a charge held */
				tdelete(&key, &t->held, held_cmp);
				free(h);
			}
			return -ENOMEM;
		}
		h->v = v;
		memset(&v[h->n++], 0, sizeof(*v));
		v[i].victim_pid = r->victim_pid;
		v[i].interferer_tid = r->interferer_tid;
		v[i].victim_iter = iter;
	}
	return pair_add_into(&h->v[i], r);
}

int bs_interferer_table_add(struct bs_interferer_table *t, const struct bs_interferer_charge *ch)
{
	struct bs_interferer_rec r = {.victim_pid = ch->victim_pid,
				      .interferer_tid = ch->interferer_tid,
				      .interferer_pid = ch->interferer_pid,
				      .victim_iter =
					  t->by_iteration ? ch->victim_iter : BS_CHARGE_NO_ITER,
				      .ns = ch->ns};
	int rc;

	memcpy(r.comm, ch->comm, sizeof(r.comm));
	/* the handler names a pair once per CPU, maybe in an iteration that
	 * never has a record: the name is kept apart for the later ones */
	if (t->by_iteration && r.interferer_pid) {
		struct bs_interferer_rec name = r;

		name.ns = 0;
		if (pair_add(&t->names, &name, name_cmp))
			t->dropped++;
	}
	if (bs_interferer_table_counts(t, ch->victim_pid, ch->victim_iter))
		rc = pair_add(&t->root, &r, pair_cmp);
	else
		rc = hold(t, &r, ch->victim_iter);
	if (rc)
		t->dropped++;
	return rc;
}

static struct rec_bits *bits_of(const struct bs_interferer_table *t, uint32_t pid)
{
	struct rec_bits key = {.pid = pid}, **slot = tfind(&key, &t->recorded, bits_cmp);

	return slot ? *slot : NULL;
}

bool bs_interferer_table_counts(const struct bs_interferer_table *t, uint32_t pid, uint32_t iter)
{
	const struct rec_bits *b;

	if (!t->by_iteration || iter == BS_CHARGE_NO_ITER)
		return true;
	b = bits_of(t, pid);
	return b && iter / 64 < b->n_words && (b->w[iter / 64] >> (iter % 64) & 1);
}

int bs_interferer_table_recorded(struct bs_interferer_table *t, uint32_t pid, uint64_t index)
{
	uint32_t iter = (uint32_t)index;
	struct rec_bits *b = bits_of(t, pid), **slot;
	struct held_iter key = {.pid = pid, .iter = iter}, *h, **hs;
	int rc = 0;

	if (!t->by_iteration || iter == BS_CHARGE_NO_ITER)
		return 0;
	if (!b) {
		b = calloc(1, sizeof(*b));
		if (b)
			b->pid = pid;
		slot = b ? tsearch(b, &t->recorded, bits_cmp) : NULL;
		if (!slot) {
			free(b);
			t->dropped++;
			return -ENOMEM;
		}
	}
	if (iter / 64 >= b->n_words) {
		size_t n = b->n_words ? b->n_words : 16;
		uint64_t *w;

		while (n <= iter / 64)
			n *= 2;
		w = realloc(b->w, n * sizeof(*w));
		if (!w) {
			t->dropped++;
			return -ENOMEM;
		}
		memset(w + b->n_words, 0, (n - b->n_words) * sizeof(*w));
		b->w = w;
		b->n_words = n;
	}
	b->w[iter / 64] |= 1ull << (iter % 64);
	hs = tfind(&key, &t->held, held_cmp);
	if (!hs)
		return 0;
	h = *hs;
	tdelete(&key, &t->held, held_cmp);
	for (size_t i = 0; i < h->n; i++)
		if (pair_add(&t->root, &h->v[i], pair_cmp)) {
			t->dropped++;
			rc = -ENOMEM;
		}
	free(h->v);
	free(h);
	return rc;
}

struct unrecorded {
	uint64_t ns, n;
};

static void sum_held(const void *node, VISIT which, void *closure)
{
	const struct held_iter *h = *(const struct held_iter *const *)node;
	struct unrecorded *u = closure;

	if (which != postorder && which != leaf)
		return;
	u->n++;
	for (size_t i = 0; i < h->n; i++)
		u->ns += h->v[i].ns;
}

uint64_t bs_interferer_table_unrecorded(const struct bs_interferer_table *t, uint64_t *n_iters)
{
	struct unrecorded u = {0, 0};

	twalk_r(t->held, sum_held, &u);
	if (n_iters)
		*n_iters = u.n;
	return u.ns;
}

bool bs_interferer_table_take(struct bs_interferer_table *t, const void *data, size_t size)
{
	struct bs_interferer_charge ch;

	if (size < sizeof(ch))
		return false;
	memcpy(&ch, data, sizeof(ch));
	if (ch.type != BS_REC_INTERF)
		return false;
	bs_interferer_table_add(t, &ch);
	return true;
}

struct walk {
	const struct bs_interferer_table *t;
	int (*fn)(void *ctx, const struct bs_interferer_rec *r);
	void *ctx;
	long n;
	int rc;
};

static void visit(const void *node, VISIT which, void *closure)
{
	struct walk *w = closure;
	struct bs_interferer_rec r;
	struct bs_interferer_rec **name;

	/* each node once: an inner node at its in-order visit, a leaf */
	if ((which != postorder && which != leaf) || w->rc)
		return;
	r = **(const struct bs_interferer_rec *const *)node;
	if (!r.interferer_pid && (name = tfind(&r, &w->t->names, name_cmp)))
		pair_add_into(&r, *name);
	w->rc = w->fn(w->ctx, &r);
	if (!w->rc)
		w->n++;
}

long bs_interferer_table_walk(const struct bs_interferer_table *t,
			      int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx)
{
	struct walk w = {.t = t, .fn = fn, .ctx = ctx};

	twalk_r(t->root, visit, &w);
	return w.rc ? w.rc : w.n;
}

static void free_held(void *p)
{
	struct held_iter *h = p;

	free(h->v);
	free(h);
}

static void free_bits(void *p)
{
	struct rec_bits *b = p;

	free(b->w);
	free(b);
}

void bs_interferer_table_free(struct bs_interferer_table *t)
{
	tdestroy(t->root, free);
	tdestroy(t->held, free_held);
	tdestroy(t->recorded, free_bits);
	tdestroy(t->names, free);
	t->root = t->held = t->recorded = t->names = NULL;
}
