// SPDX-License-Identifier: MIT
/* interferer_table.c - interferer charges summed per pair (interferer_table.h). */
#include "probe/interferer_table.h"

#include <errno.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

static int pair_cmp(const void *a, const void *b)
{
	const struct bs_interferer_rec *x = a, *y = b;

	if (x->victim_pid != y->victim_pid)
		return x->victim_pid < y->victim_pid ? -1 : 1;
	return x->interferer_tid < y->interferer_tid ? -1 : x->interferer_tid > y->interferer_tid;
}

int bs_interferer_table_add(struct bs_interferer_table *t, const struct bs_interferer_charge *ch)
{
	struct bs_interferer_rec key = {.victim_pid = ch->victim_pid,
					.interferer_tid = ch->interferer_tid},
				 *e, **slot = tfind(&key, &t->root, pair_cmp);

	if (!slot) {
		e = malloc(sizeof(*e));
		if (e)
			*e = key;
		slot = e ? tsearch(e, &t->root, pair_cmp) : NULL;
		if (!slot) {
			free(e);
			t->dropped++;
			return -ENOMEM;
		}
	}
	e = *slot;
	e->ns += ch->ns;
	if (ch->interferer_pid && !e->interferer_pid) {
		e->interferer_pid = ch->interferer_pid;
		memcpy(e->comm, ch->comm, sizeof(e->comm));
		e->comm[sizeof(e->comm) - 1] = '\0';
	}
	return 0;
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
	int (*fn)(void *ctx, const struct bs_interferer_rec *r);
	void *ctx;
	long n;
	int rc;
};

static void visit(const void *node, VISIT which, void *closure)
{
	struct walk *w = closure;

	/* each node once: an inner node at its in-order visit, a leaf */
	if ((which != postorder && which != leaf) || w->rc)
		return;
	w->rc = w->fn(w->ctx, *(const struct bs_interferer_rec *const *)node);
	if (!w->rc)
		w->n++;
}

long bs_interferer_table_walk(const struct bs_interferer_table *t,
			      int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx)
{
	struct walk w = {.fn = fn, .ctx = ctx};

	twalk_r(t->root, visit, &w);
	return w.rc ? w.rc : w.n;
}

void bs_interferer_table_free(struct bs_interferer_table *t)
{
	tdestroy(t->root, free);
	t->root = NULL;
}
