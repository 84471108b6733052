// SPDX-License-Identifier: MIT
/* replay_load.c - recorded forks of a trace (see replay_load.h). */
#include "stop/replay_load.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/bench_groups.h"
#include "report/summary.h"

void bs_replay_trace_free(struct bs_replay_trace *t)
{
	if (!t)
		return;
	free(t->forks);
	free(t->vbuf);
	free(t->cbuf);
	memset(t, 0, sizeof(*t));
}

int bs_replay_load(const struct bs_dataset *ds, struct bs_replay_trace *t, char *err, size_t errlen)
{
	size_t nf = ds->run_ev.n_forks, k = 0;
	const char *kind = ds->run_ctx.boundaries_kind;
	long *grp = NULL;

	memset(t, 0, sizeof(*t));
	if (!nf) {
		snprintf(err, errlen,
			 "%s holds no forks: record it with benchscope run --stop none --forks N:N "
			 "--warmup W:W --measure M (or --stop CRITERION)",
			 ds->path ? ds->path : "the trace");
		return -EINVAL;
	}
	t->calibrates = bs_kind_calibrates(kind);
	t->forks = calloc(nf, sizeof(*t->forks));
	t->vbuf = malloc((ds->n_iters ? ds->n_iters : 1) * sizeof(double));
	t->cbuf = malloc((ds->n_iters ? ds->n_iters : 1) * sizeof(uint64_t));
	grp = malloc((ds->n_iters ? ds->n_iters : 1) * sizeof(long));
	if (!t->forks || !t->vbuf || !t->cbuf || !grp)
		goto oom;
	if (t->calibrates) {
		const struct bs_iter_rec **all = malloc((ds->n_iters + 1) * sizeof(*all));
		long nb = -ENOMEM;

		for (size_t i = 0; all && i < ds->n_iters; i++)
			all[i] = &ds->iters[i];
		if (all)
			nb = bs_bench_group(ds, all, ds->n_iters, grp, NULL);
		free(all);
		if (nb < 0)
			goto oom;
	}
	for (size_t e = 0; e < nf; e++) {
		struct bs_replay_fork *f = &t->forks[t->n_forks];
		uint64_t t0 = ds->run_ev.forks[e].start_ns, t1 = ds->run_ev.forks[e].end_ns;
		ptrdiff_t last = -1; /* index in vbuf/cbuf of the last usable iteration */

		f->v = t->vbuf + k;
		f->cost_ns = t->cbuf + k;
		for (size_t i = 0; i < ds->n_iters; i++) {
			const struct bs_iter_rec *r = &ds->iters[i];
			double v;

			if (r->begin_ns < t0 || r->end_ns > t1)
				continue;
			/* Google Benchmark: the previous usable run is decided at this run's end */
			if (t->calibrates && last >= 0 && t->cbuf[last] == 0)
				t->cbuf[last] = r->end_ns - t0;
			if ((r->flags & BS_ITER_F_AFTER_STOP) || r->end_ns < r->begin_ns ||
			    (t->calibrates && grp[i] == BS_GBENCH_CALIBRATION)) {
				t->n_excluded++;
				continue;
			}
			v = bs_iter_ns_per_op(r);
			if (isnan(v))
				v = (double)(r->end_ns - r->begin_ns);
			t->vbuf[k] = v;
			t->cbuf[k] = t->calibrates ? 0 : r->end_ns - t0;
			last = (ptrdiff_t)k;
			k++;
			f->n++;
			if (t->calibrates && i + 1 == ds->n_iters)
				t->cbuf[last] = r->end_ns - t0;
		}
		/* the fork's last run: nothing followed it */
		if (t->calibrates && last >= 0 && t->cbuf[last] == 0) {
			for (size_t i = ds->n_iters; i-- > 0;)
				if (ds->iters[i].begin_ns >= t0 && ds->iters[i].end_ns <= t1) {
					t->cbuf[last] = ds->iters[i].end_ns - t0;
					break;
				}
		}
		t->n_forks++;
	}
	free(grp);
	return 0;
oom:
	free(grp);
	bs_replay_trace_free(t);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}
