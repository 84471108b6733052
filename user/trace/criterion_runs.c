// SPDX-License-Identifier: MIT
/* criterion_runs.c - criterion.rs's warm-up runs vs its samples. */
#include "trace/criterion_runs.h"

#include <stdint.h>

static bool counted(const struct bs_iter_rec *r)
{
	return (r->flags & BS_ITER_F_INVOC) && r->invocations;
}

void bs_criterion_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
			      struct bs_calib_state *st)
{
	/* marked: a run so far has the warm-up mark; else broken: the chain
	 * 1, 2, 4, ... has ended, and expect is the count that continues it */
	struct bs_calib_state whole = {0};
	size_t i, from;
	bool was_marked;

	if (!st)
		st = &whole;
	if (!st->done) {
		st->marked = st->broken = false;
		st->expect = 1;
	}
	from = st->done;
	was_marked = st->marked;
	for (i = from; i < n; i++)
		st->marked |= !!(runs[i]->flags & BS_ITER_F_HARNESS_WARMUP);
	if (st->marked && !was_marked)
		from = 0; /* the marks decide the runs read before too (once a sequence) */
	for (i = from; i < n; i++) {
		const struct bs_iter_rec *r = runs[i];

		if (!counted(r)) {
			calib[i] = true;
			continue;
		}
		if (st->marked) {
			calib[i] = !!(r->flags & BS_ITER_F_HARNESS_WARMUP);
			continue;
		}
		st->broken = st->broken || r->invocations != st->expect;
		calib[i] = !st->broken;
		st->expect = 2 * r->invocations;
	}
	st->done = n;
}
