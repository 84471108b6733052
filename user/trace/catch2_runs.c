// SPDX-License-Identifier: MIT
/* catch2_runs.c - Catch2's estimation runs vs its samples (see catch2_runs.h). */
#include "trace/catch2_runs.h"

static bool valid(const struct bs_iter_rec *r)
{
	return (r->flags & BS_ITER_F_INVOC) && r->invocations > 0;
}

void bs_catch2_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib,
			   struct bs_calib_state *st)
{
	/* sampling: in samples of `k`, else in a chain 1, 2, 4, ... whose next
	 * count is `expect`; prev: the last run with a valid count */
	struct bs_calib_state whole = {0};

	if (!st)
		st = &whole;
	if (!st->done) {
		st->sampling = st->has_prev = false;
		st->expect = 1;
		st->k = 0;
	}
	for (size_t i = st->done; i < n; i++) {
		__u64 inv = runs[i]->invocations;

		calib[i] = true;
		if (!valid(runs[i]))
			continue;
		if (!st->sampling && inv == st->expect) {
			st->expect *= 2;
		} else if (!st->sampling || inv != st->k) {
			if (st->sampling && inv == 1) { /* the benchmark again */
				st->sampling = false;
				st->expect = 2;
			} else if (st->sampling && st->k == 1 && inv == 2 && st->has_prev &&
				   runs[st->prev]->invocations == 1) {
				/* samples of 1, then 1, 2: the 1 began a new chain */
				calib[st->prev] = true;
				st->sampling = false;
				st->expect = 4;
			} else {
				st->sampling = true;
				st->k = inv;
				calib[i] = false;
			}
		} else {
			calib[i] = false; /* one more sample of k */
		}
		st->prev = i;
		st->has_prev = true;
	}
	st->done = n;
}
