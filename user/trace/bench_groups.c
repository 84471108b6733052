// SPDX-License-Identifier: MIT
/* bench_groups.c - iterations by benchmark: by the harness's names, else by gbench streaks. */
#include "trace/bench_groups.h"
#include "trace/catch2_runs.h"
#include "trace/criterion_runs.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void bs_calib_growing(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
		      struct bs_calib_state *st)
{
	/* the last run read before may have a follower now */
	for (size_t i = st && st->done ? st->done - 1 : 0; i < n; i++) {
		const struct bs_iter_rec *r = runs[i];
		bool counted = (r->flags & BS_ITER_F_INVOC) && r->invocations;

		calib[i] = !counted || (i + 1 < n && (runs[i + 1]->flags & BS_ITER_F_INVOC) &&
					runs[i + 1]->invocations > r->invocations);
	}
	if (st)
		st->done = n;
}

void bs_calib_none(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
		   struct bs_calib_state *st)
{
	(void)runs;
	for (size_t i = st ? st->done : 0; i < n; i++)
		calib[i] = false;
	if (st)
		st->done = n;
}

bool bs_kind_calibrates(const char *kind)
{
	return kind && (!strcmp(kind, "gbench") || !strcmp(kind, "catch2") || !strcmp(kind, "go") ||
			!strcmp(kind, "criterion"));
}

bs_calib_rule bs_calib_rule_for(const char *kind)
{
	if (kind && !strcmp(kind, "catch2"))
		return bs_catch2_calibration; /* estimation chains 1, 2, 4, ... (catch2_runs.h) */
	/* criterion: warm-up marks, or 1, 2, 4, ... (criterion_runs.h) */
	if (kind && !strcmp(kind, "criterion"))
		return bs_criterion_calibration;
	if (kind && !strcmp(kind, "import"))
		return bs_calib_none; /* the importer flagged the warmups */
	return bs_calib_growing;      /* the other presets size their runs by time */
}

/* Without names: Google Benchmark's grouping of the records, copied contiguous. */
static long group_unnamed(const struct bs_iter_rec *const *iters, size_t n, long *group,
			  const char **names)
{
	struct bs_iter_rec *copy = malloc((n ? n : 1) * sizeof(*copy));
	long k;

	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		copy[i] = *iters[i];
	k = bs_gbench_group_runs(copy, n, group);
	free(copy);
	for (long g = 0; names && g < k; g++)
		names[g] = NULL;
	return k;
}

struct item {
	size_t i; /* index into iters */
	uint32_t pid;
	uint32_t inst; /* process instance (a reused pid: bs_dataset_iter_instance) */
	uint64_t begin_ns;
	const char *name; /* "" when the harness named none */
};

/* by process (pid, instance), name, then begin time */
static int cmp_item(const void *x, const void *y)
{
	const struct item *a = x, *b = y;
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->inst != b->inst)
		return a->inst < b->inst ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	if (a->begin_ns != b->begin_ns)
		return a->begin_ns < b->begin_ns ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

long bs_bench_group(const struct bs_dataset *ds, const struct bs_iter_rec *const *iters, size_t n,
		    long *group, const char **names)
{
	bs_calib_rule rule = bs_calib_rule_for(ds ? ds->run_ctx.boundaries_kind : NULL);
	struct item *it = NULL;
	const struct bs_iter_rec **runs = NULL;
	const char **gname = NULL, **name_of = NULL;
	bool *calib = NULL, named = false;
	long k = 0;

	if (!iters && n)
		return -EINVAL;
	/* without names, the growing rule's harnesses are grouped by count streaks */
	if ((!ds || !ds->n_benches) && rule == bs_calib_growing)
		return group_unnamed(iters, n, group, names);
	it = malloc((n ? n : 1) * sizeof(*it));
	runs = malloc((n ? n : 1) * sizeof(*runs));
	calib = malloc((n ? n : 1) * sizeof(*calib));
	gname = malloc((n ? n : 1) * sizeof(*gname));
	name_of = malloc((n ? n : 1) * sizeof(*name_of));
	if (!it || !runs || !calib || !gname || !name_of) {
		k = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const char *nm = bs_dataset_bench_name(ds, iters[i]->pid, iters[i]->begin_ns);

		it[i].i = i;
		it[i].pid = iters[i]->pid;
		it[i].inst = bs_dataset_iter_instance(ds, iters[i]);
		it[i].begin_ns = iters[i]->begin_ns;
		it[i].name = name_of[i] = nm ? nm : "";
		named |= nm != NULL;
	}
	if (!named && rule == bs_calib_growing) {
		k = group_unnamed(iters, n, group, names);
		goto out;
	}
	qsort(it, n, sizeof(*it), cmp_item);
	/* the rule, on each (process, name) sequence in begin order */
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n && it[b].pid == it[a].pid && it[b].inst == it[a].inst &&
			    !strcmp(it[b].name, it[a].name);
		     b++)
			runs[b - a] = iters[it[b].i];
		rule(runs, b - a, calib, NULL);
		for (size_t j = a; j < b; j++)
			group[it[j].i] = calib[j - a] ? BS_GBENCH_CALIBRATION : 0;
	}
	/* benchmarks numbered by first measurement run, in the order given */
	for (size_t i = 0; i < n; i++) {
		const char *nm = name_of[i];
		long g;

		if (group[i] == BS_GBENCH_CALIBRATION)
			continue;
		for (g = 0; g < k && strcmp(gname[g], nm); g++)
			;
		if (g == k)
			gname[k++] = nm;
		group[i] = g;
	}
	for (long g = 0; names && g < k; g++)
		names[g] = gname[g][0] ? gname[g] : NULL;
out:
	free(it);
	free(runs);
	free(calib);
	free(gname);
	free(name_of);
	return k;
}

bool bs_dataset_has_benches(const struct bs_dataset *ds)
{
	return ds && (!strcmp(ds->run_ctx.boundaries_kind ?: "", "gbench") || ds->n_benches);
}
