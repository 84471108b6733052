// SPDX-License-Identifier: MIT
/* side.c - one side of `benchscope compare` as samples per benchmark (see side.h). */
#include "compare/side.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/summary.h" /* bs_iter_counted, bs_iter_ns_per_op */
#include "trace/bench_groups.h"
#include "trace/duet_blocks.h" /* bs_dataset_is_duet */
#include "util/json.h"

void bs_cmp_side_free(struct bs_cmp_side *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->b[i].name);
		free(s->b[i].x);
		free(s->b[i].runs);
		free(s->b[i].n_iters);
	}
	free(s->b);
	memset(s, 0, sizeof(*s));
}

/* Fill @b from the iterations ds->iters[idx[0..n-1]] (trace order). */
static int fill_bench(const struct bs_dataset *ds, const size_t *idx, size_t n,
		      struct bs_cmp_bench *b)
{
	size_t k = 0;

	b->per_op = true;
	for (size_t i = 0; i < n; i++)
		b->per_op &= !isnan(bs_iter_ns_per_op(&ds->iters[idx[i]]));
	b->x = malloc(n * sizeof(*b->x));
	b->runs = calloc(n, sizeof(*b->runs));
	b->n_iters = calloc(n, sizeof(*b->n_iters));
	if (!b->x || !b->runs || !b->n_iters)
		return -ENOMEM;
	/* runs (processes: pid and instance) in order of first iteration; values run-major */
	for (size_t i = 0; i < n; i++) {
		uint32_t pid = ds->iters[idx[i]].pid;
		uint32_t inst = bs_dataset_iter_instance(ds, &ds->iters[idx[i]]);
		size_t r = 0;

		while (r < b->n_runs && (b->runs[r].pid != pid || b->runs[r].inst != inst))
			r++;
		if (r < b->n_runs)
			continue;
		b->runs[b->n_runs].pid = pid;
		b->runs[b->n_runs++].inst = inst;
		for (size_t j = i; j < n; j++) {
			const struct bs_iter_rec *it = &ds->iters[idx[j]];
			struct bs_cmp_run *run = &b->runs[r];
			double v;

			if (it->pid != pid || bs_dataset_iter_instance(ds, it) != inst)
				continue;
			v = b->per_op ? bs_iter_ns_per_op(it) : (double)(it->end_ns - it->begin_ns);
			b->x[k++] = v;
			run->mean += v;
			run->n++;
			run->busy_ns += it->end_ns - it->begin_ns;
			run->preempted_ns += it->preempted_ns;
			run->steal_ns += it->steal_ns;
			run->migrations += it->migrations;
		}
	}
	for (size_t r = 0; r < b->n_runs; r++) {
		b->runs[r].mean /= (double)b->runs[r].n;
		b->n_iters[r] = b->runs[r].n;
	}
	b->n = k;
	return 0;
}

int bs_cmp_side_load(const struct bs_dataset *ds, const char *label, struct bs_cmp_side *out,
		     char *err, size_t errlen)
{
	size_t n = ds->n_iters, nk = 0, *idx = NULL, *bidx = NULL;
	const struct bs_iter_rec **all = NULL;
	const char **names = NULL;
	long *grp = NULL, k = 1;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (bs_dataset_is_duet(ds)) {
		snprintf(err, errlen,
			 "%s is a duet trace, which compares its A and B itself: use "
			 "benchscope report %s (the duet report)",
			 label, label);
		return -EINVAL;
	}
	if (ds->truncated) {
		snprintf(err, errlen,
			 "%s is truncated (its writer did not finish): compare needs complete "
			 "traces",
			 label);
		return -EINVAL;
	}
	out->n_iters = n;
	out->has_intf = ds->run_ctx.kernel && !bs_json_get(ds->context, "imported_from");
	out->has_steal = out->has_intf && ds->run_ctx.steal_accounting != 0;
	idx = malloc((n ? n : 1) * sizeof(*idx));
	bidx = malloc((n ? n : 1) * sizeof(*bidx));
	grp = calloc(n ? n : 1, sizeof(*grp));
	all = malloc((n ? n : 1) * sizeof(*all));
	names = calloc(n ? n : 1, sizeof(*names));
	if (!idx || !bidx || !grp || !all || !names)
		goto out;
	for (size_t i = 0; i < n; i++)
		all[i] = &ds->iters[i];
	if (bs_dataset_has_benches(ds)) {
		k = bs_bench_group(ds, all, n, grp, names);
		if (k < 0) {
			ret = (int)k;
			goto out;
		}
		if (k == 0) { /* none recognised: one group, as the report's overall */
			memset(grp, 0, n * sizeof(*grp));
			k = 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (bs_iter_counted(&ds->iters[i]) && grp[i] != BS_GBENCH_CALIBRATION)
			idx[nk++] = i;
	out->n_excluded = n - nk;
	if (!nk) {
		snprintf(err, errlen,
			 "%s has no measurement iteration (%zu iterations, %zu of them warmup, "
			 "calibration, after the stop or invalid)",
			 label, n, out->n_excluded);
		ret = -EINVAL;
		goto out;
	}
	out->b = calloc((size_t)k, sizeof(*out->b));
	if (!out->b)
		goto out;
	for (long g = 0; g < k; g++) {
		struct bs_cmp_bench *b = &out->b[out->n];
		size_t m = 0;

		for (size_t i = 0; i < nk; i++)
			if (grp[idx[i]] == g)
				bidx[m++] = idx[i];
		if (!m)
			continue;
		out->n++;
		if (names[g])
			b->name = strdup(names[g]);
		else if (asprintf(&b->name, "#%ld", g + 1) < 0)
			b->name = NULL;
		if (!b->name || fill_bench(ds, bidx, m, b))
			goto out;
	}
	ret = 0;
out:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory reading %s", label);
	if (ret)
		bs_cmp_side_free(out);
	free(idx);
	free(bidx);
	free(grp);
	free(all);
	free(names);
	return ret;
}
