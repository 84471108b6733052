// SPDX-License-Identifier: MIT
/* gbench_runs.c - calibration vs measurement runs of Google Benchmark. */
#include "trace/gbench_runs.h"

#include <errno.h>
#include <stdlib.h>

/* Per-thread cursor: the last run seen and the group of the current streak. */
struct tstate {
	__u32 tid;
	size_t last; /* index of the thread's previous run */
	int has_last;
	long streak;	  /* group of the measurement streak the last run ended, or -2 */
	__u64 streak_inv; /* its invocation count */
};

static struct tstate *find(struct tstate *ts, size_t *n, __u32 tid)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (ts[i].tid == tid)
			return &ts[i];
	ts[*n].tid = tid;
	ts[*n].has_last = 0;
	ts[*n].streak = -2;
	return &ts[(*n)++];
}

/* Decide the previous run `p` of a thread, knowing the run that follows it
 * (nxt_inv; 0 when the thread has no further run). */
static void decide(const struct bs_iter_rec *iters, long *group, struct tstate *t, __u64 nxt_inv,
		   long *n_groups)
{
	const struct bs_iter_rec *p = &iters[t->last];

	if (!(p->flags & BS_ITER_F_INVOC) || !p->invocations || (nxt_inv > p->invocations)) {
		group[t->last] = BS_GBENCH_CALIBRATION;
		t->streak = -2;
		return;
	}
	if (t->streak < 0 || t->streak_inv != p->invocations) {
		t->streak = (*n_groups)++;
		t->streak_inv = p->invocations;
	}
	group[t->last] = t->streak;
}

long bs_gbench_group_runs(const struct bs_iter_rec *iters, size_t n, long *group)
{
	struct tstate *ts;
	size_t nts = 0, i;
	long n_groups = 0;

	if (!iters && n)
		return -EINVAL;
	ts = calloc(n ? n : 1, sizeof(*ts));
	if (!ts)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct tstate *t = find(ts, &nts, iters[i].tid);
		__u64 inv = (iters[i].flags & BS_ITER_F_INVOC) ? iters[i].invocations : 0;

		if (t->has_last)
			decide(iters, group, t, inv, &n_groups);
		/* a run without a count ends any streak and never calibrates the next */
		t->last = i;
		t->has_last = 1;
	}
	for (i = 0; i < nts; i++)
		if (ts[i].has_last)
			decide(iters, group, &ts[i], 0, &n_groups);
	free(ts);
	return n_groups;
}
