// SPDX-License-Identifier: MIT
/* proc_inst.c - process instances of a pid (see proc_inst.h). */
#include "trace/proc_inst.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/partition.h"

/* A cut of a pid's timeline: a FORK (at ts_ns) or an EXIT (just after it). */
struct cut {
	uint32_t pid;
	bool fork;
	uint64_t ts_ns;
	size_t order; /* trace order, for equal times */
};

/* The cuts of one pid: cut[first .. first + n); pieces 0..n, slot + piece in dense[]. */
struct pid_cuts {
	uint32_t pid;
	size_t first, n, slot;
};

struct bs_proc_inst {
	struct cut *cut;
	struct pid_cuts *pids;
	size_t n_pids;
	uint32_t *dense; /* per piece: 1 if a record falls in it (build), then its instance */
};

/* by pid, time, FORK before EXIT at one time (the count below stays a prefix), trace order */
static int cmp_cut(const void *x, const void *y)
{
	const struct cut *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->ts_ns != b->ts_ns)
		return a->ts_ns < b->ts_ns ? -1 : 1;
	if (a->fork != b->fork)
		return a->fork ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* what the searches below look for */
struct inst_key {
	const struct bs_proc_inst *t;
	const struct pid_cuts *p;
	uint32_t pid;
	uint64_t ts_ns;
};

static bool pid_before(const void *ctx, size_t i)
{
	const struct inst_key *k = ctx;

	return k->t->pids[i].pid < k->pid;
}

static const struct pid_cuts *pid_of(const struct bs_proc_inst *t, uint32_t pid)
{
	struct inst_key k = {.t = t, .pid = pid};
	size_t i = bs_partition_point(t->n_pids, pid_before, &k);

	return i < t->n_pids && t->pids[i].pid == pid ? &t->pids[i] : NULL;
}

/* cut i of k->p comes before k->ts_ns: a FORK at or before it, an EXIT before it */
static bool cut_before(const void *ctx, size_t i)
{
	const struct inst_key *k = ctx;
	const struct cut *c = &k->t->cut[k->p->first + i];

	return c->fork ? c->ts_ns <= k->ts_ns : c->ts_ns < k->ts_ns;
}

/* The piece of @p's timeline holding @ts_ns: FORKs at or before it plus EXITs before it. */
static size_t piece_of(const struct bs_proc_inst *t, const struct pid_cuts *p, uint64_t ts_ns)
{
	struct inst_key k = {.t = t, .p = p, .ts_ns = ts_ns};

	return bs_partition_point(p->n, cut_before, &k);
}

static void mark(struct bs_proc_inst *t, uint32_t pid, uint64_t ts_ns)
{
	const struct pid_cuts *p = ts_ns ? pid_of(t, pid) : NULL;

	if (p)
		t->dense[p->slot + piece_of(t, p, ts_ns)] = 1;
}

int bs_proc_inst_build(const struct bs_proc_rec *procs, size_t n_procs,
		       const struct bs_iter_rec *iters, size_t n_iters,
		       const struct bs_bench_rec *benches, size_t n_benches,
		       struct bs_proc_inst **out)
{
	struct bs_proc_inst *t;
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; i < n_procs; i++)
		n += procs[i].ts_ns && procs[i].kind != BS_PROC_EXEC;
	if (!n)
		return 0;
	t = calloc(1, sizeof(*t));
	if (!t || !(t->cut = malloc(n * sizeof(*t->cut))) ||
	    !(t->pids = malloc(n * sizeof(*t->pids))) ||
	    !(t->dense = calloc(2 * n, sizeof(*t->dense)))) {
		bs_proc_inst_free(t);
		return -ENOMEM;
	}
	n = 0;
	for (size_t i = 0; i < n_procs; i++)
		if (procs[i].ts_ns && procs[i].kind != BS_PROC_EXEC)
			t->cut[n++] = (struct cut){procs[i].pid, procs[i].kind == BS_PROC_FORK,
						   procs[i].ts_ns, i};
	qsort(t->cut, n, sizeof(*t->cut), cmp_cut);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || t->cut[i].pid != t->cut[i - 1].pid) {
			t->pids[t->n_pids] = (struct pid_cuts){t->cut[i].pid, i, 0, i + t->n_pids};
			t->n_pids++;
		}
		t->pids[t->n_pids - 1].n++;
	}
	for (size_t i = 0; i < n_procs; i++)
		mark(t, procs[i].pid, procs[i].ts_ns);
	for (size_t i = 0; i < n_iters; i++)
		mark(t, iters[i].pid, iters[i].begin_ns);
	for (size_t i = 0; i < n_benches; i++)
		mark(t, benches[i].pid, benches[i].ts_ns);
	/* dense numbers: a piece's instance is the count of used pieces before it */
	for (size_t p = 0; p < t->n_pids; p++) {
		uint32_t k = 0, *d = t->dense + t->pids[p].slot;

		for (size_t j = 0; j <= t->pids[p].n; j++) {
			uint32_t used = d[j];

			d[j] = k;
			k += used;
		}
	}
	*out = t;
	return 0;
}

uint32_t bs_proc_inst_of(const struct bs_proc_inst *t, uint32_t pid, uint64_t ts_ns)
{
	const struct pid_cuts *p = t && ts_ns ? pid_of(t, pid) : NULL;

	return p ? t->dense[p->slot + piece_of(t, p, ts_ns)] : 0;
}

void bs_proc_inst_free(struct bs_proc_inst *t)
{
	if (!t)
		return;
	free(t->cut);
	free(t->pids);
	free(t->dense);
	free(t);
}
