// SPDX-License-Identifier: MIT
/* pidsets.c - the process sets of a duet's runs and look-ups by pid (duet/pidsets.h). */
#include "duet/pidsets.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/partition.h"

/* pid's place in one set: bit s set when the pid is in pids[s] of set k */
struct pid_ref {
	size_t k;
	unsigned sides;
};

/* one pid: its sets, by ascending k (n == 0: an empty slot) */
struct pid_slot {
	uint32_t pid;
	size_t n, cap;
	struct pid_ref *ref;
};

struct bs_dpid_index {
	struct pid_slot *slot; /* open addressing, cap a power of two */
	size_t cap, used;
	/* run numbers distinct, every span known, starts and ends
	 * non-decreasing in set order: a pid's sets that can hold a time are
	 * found by binary search over the span ends */
	bool ordered;
	size_t steps; /* runs examined by look-ups (bs_dpids_steps) */
};

static size_t hash_pid(uint32_t pid, size_t cap)
{
	uint32_t h = pid * 2654435761u;

	return (h ^ h >> 16) & (cap - 1);
}

static struct pid_slot *slot_find(const struct bs_dpid_index *x, uint32_t pid)
{
	if (!x || !x->cap)
		return NULL;
	for (size_t j = hash_pid(pid, x->cap);; j = (j + 1) & (x->cap - 1)) {
		if (!x->slot[j].n)
			return NULL;
		if (x->slot[j].pid == pid)
			return &x->slot[j];
	}
}

static int rehash(struct bs_dpid_index *x, size_t cap)
{
	struct pid_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < x->cap; i++) {
		size_t j;

		if (!x->slot[i].n)
			continue;
		for (j = hash_pid(x->slot[i].pid, cap); s[j].n; j = (j + 1) & (cap - 1))
			;
		s[j] = x->slot[i];
	}
	free(x->slot);
	x->slot = s;
	x->cap = cap;
	return 0;
}

/* @pid's slot, made (with no set yet) if new; NULL when out of memory */
static struct pid_slot *slot_get(struct bs_dpid_index *x, uint32_t pid)
{
	struct pid_slot *s = slot_find(x, pid);
	size_t j;

	if (s)
		return s;
	if ((x->used + 1) * 2 > x->cap && rehash(x, x->cap ? 2 * x->cap : 256))
		return NULL;
	for (j = hash_pid(pid, x->cap); x->slot[j].n; j = (j + 1) & (x->cap - 1))
		;
	x->slot[j].pid = pid;
	return &x->slot[j];
}

/* what the searches below look for */
struct set_key {
	const struct bs_duet_data *d;
	const struct pid_slot *s;
	size_t k;
	int run;
	int64_t t_ns;
};

static bool ref_before(const void *ctx, size_t i)
{
	const struct set_key *q = ctx;

	return q->s->ref[i].k < q->k;
}

/* the first of @s's sets at or after set @k */
static size_t ref_lower(const struct pid_slot *s, size_t k)
{
	struct set_key q = {.s = s, .k = k};

	return bs_partition_point(s->n, ref_before, &q);
}

static int ref_side(const struct pid_ref *r)
{
	return r->sides & 1u ? 0 : 1;
}

static bool run_before(const void *ctx, size_t i)
{
	const struct set_key *q = ctx;

	return q->d->pidsets[i].run < q->run;
}

/* the sets [*b0, *b1) of run number @run (d->pidsets is sorted by run) */
static void run_sets(const struct bs_duet_data *d, int run, size_t *b0, size_t *b1)
{
	struct set_key q = {.d = d, .run = run};

	*b0 = *b1 = bs_partition_point(d->n_pidsets, run_before, &q);
	while (*b1 < d->n_pidsets && d->pidsets[*b1].run == run)
		(*b1)++;
}

/* the pid's i-th set ends before q->t_ns */
static bool ended_before(const void *ctx, size_t i)
{
	const struct set_key *q = ctx;

	return q->d->pidsets[q->s->ref[i].k].end_ns < q->t_ns;
}

static bool span_holds(const struct bs_dpids *p, int64_t t)
{
	return !(p->start_ns || p->end_ns) || (t >= p->start_ns && t <= p->end_ns);
}

int bs_dpids_index_init(struct bs_duet_data *d)
{
	struct bs_dpid_index *x = calloc(1, sizeof(*x));

	if (!x)
		return -ENOMEM;
	x->ordered = true;
	for (size_t k = 0; k < d->n_pidsets; k++) {
		const struct bs_dpids *p = &d->pidsets[k], *q = k ? p - 1 : NULL;

		if (!p->start_ns && !p->end_ns)
			x->ordered = false;
		if (q && (p->run == q->run || p->start_ns < q->start_ns || p->end_ns < q->end_ns))
			x->ordered = false;
	}
	d->pid_index = x;
	return 0;
}

int bs_dpids_add(struct bs_duet_data *d, size_t k, int side, uint32_t pid)
{
	struct bs_dpid_index *x = d->pid_index;
	struct bs_dpids *p = &d->pidsets[k];
	struct pid_slot *s = slot_get(x, pid);
	uint32_t *a;
	size_t i;

	if (!s)
		return -ENOMEM;
	i = ref_lower(s, k);
	if (i < s->n && s->ref[i].k == k && (s->ref[i].sides & 1u << side))
		return 0;
	a = realloc(p->pids[side], (p->n[side] + 1) * sizeof(*a));
	if (!a)
		return -ENOMEM;
	p->pids[side] = a;
	a[p->n[side]++] = pid;
	if (i < s->n && s->ref[i].k == k) {
		s->ref[i].sides |= 1u << side;
		return 0;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 2;
		struct pid_ref *r = realloc(s->ref, cap * sizeof(*r));

		if (!r) {
			p->n[side]--;
			return -ENOMEM;
		}
		s->ref = r;
		s->cap = cap;
	}
	memmove(&s->ref[i + 1], &s->ref[i], (s->n - i) * sizeof(*s->ref));
	s->ref[i] = (struct pid_ref){.k = k, .sides = 1u << side};
	if (!s->n)
		x->used++;
	s->n++;
	return 0;
}

long bs_dpids_place(const struct bs_duet_data *d, uint32_t pid, int64_t t_ns, int *side)
{
	struct bs_dpid_index *x = d->pid_index;
	const struct pid_slot *s = slot_find(x, pid);
	size_t done = 0;

	if (!s)
		return -1;
	if (x->ordered) {
		/* one set per run, spans in set order: the sets before the
		 * first whose span ends at or after t_ns end before it, and
		 * if that one starts after t_ns, so do the later ones */
		struct set_key q = {.d = d, .s = s, .t_ns = t_ns};
		size_t lo = bs_partition_point(s->n, ended_before, &q);

		x->steps++;
		if (lo == s->n || d->pidsets[s->ref[lo].k].start_ns > t_ns)
			return -1;
		*side = ref_side(&s->ref[lo]);
		return (long)s->ref[lo].k;
	}
	/* every set of a run number that has the pid is a candidate, with the
	 * pid's side in the first of them that has it */
	for (size_t i = 0; i < s->n; i++) {
		size_t b0, b1;

		if (s->ref[i].k < done)
			continue;
		run_sets(d, d->pidsets[s->ref[i].k].run, &b0, &b1);
		for (size_t k = b0; k < b1; k++) {
			x->steps++;
			if (span_holds(&d->pidsets[k], t_ns)) {
				*side = ref_side(&s->ref[i]);
				return (long)k;
			}
		}
		done = b1;
	}
	return -1;
}

int bs_dpids_add_forks(struct bs_duet_data *d, const struct bs_dataset *ds)
{
	for (size_t i = 0; i < ds->n_procs; i++) {
		const struct bs_proc_rec *p = &ds->procs[i];
		int side, ret;
		long k;

		if (p->kind != BS_PROC_FORK)
			continue;
		k = bs_dpids_place(d, p->ppid, (int64_t)p->ts_ns, &side);
		if (k >= 0 && (ret = bs_dpids_add(d, (size_t)k, side, p->pid)))
			return ret;
	}
	return 0;
}

int bs_duet_data_side_of(const struct bs_duet_data *d, int run, uint32_t pid)
{
	const struct pid_slot *s = slot_find(d->pid_index, pid);
	size_t b0, b1, i;

	if (!s)
		return -1;
	run_sets(d, run, &b0, &b1);
	if (b0 == b1)
		return -1;
	d->pid_index->steps++;
	i = ref_lower(s, b0);
	return i < s->n && s->ref[i].k < b1 ? ref_side(&s->ref[i]) : -1;
}

int bs_duet_data_run_of_pid(const struct bs_duet_data *d, uint32_t pid, int *side)
{
	const struct pid_slot *s = slot_find(d->pid_index, pid);

	if (!s)
		return -1;
	d->pid_index->steps++;
	if (side)
		*side = ref_side(&s->ref[0]);
	return d->pidsets[s->ref[0].k].run;
}

size_t bs_dpids_steps(const struct bs_duet_data *d)
{
	return d->pid_index ? d->pid_index->steps : 0;
}

void bs_dpids_free(struct bs_duet_data *d)
{
	struct bs_dpid_index *x = d->pid_index;

	for (size_t k = 0; k < d->n_pidsets; k++) {
		free(d->pidsets[k].pids[0]);
		free(d->pidsets[k].pids[1]);
	}
	free(d->pidsets);
	d->pidsets = NULL;
	d->n_pidsets = 0;
	if (x) {
		for (size_t i = 0; i < x->cap; i++)
			free(x->slot[i].ref);
		free(x->slot);
		free(x);
	}
	d->pid_index = NULL;
}
