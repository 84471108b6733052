// SPDX-License-Identifier: MIT
/* catch2_runs.c - Catch2's estimation runs vs its samples (see catch2_runs.h). */
#include "trace/catch2_runs.h"

static bool valid(const struct bs_iter_rec *r)
{
	return (r->flags & BS_ITER_F_INVOC) && r->invocations > 0;
}

void bs_catch2_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib)
{
	bool estimating = true; /* in a chain 1, 2, 4, ...; else in samples of `k` */
	__u64 expect = 1, k = 0;
	size_t prev = n; /* the previous iteration with a valid count */

	for (size_t i = 0; i < n; i++) {
		__u64 inv = runs[i]->invocations;

		calib[i] = true;
		if (!valid(runs[i]))
			continue;
		if (estimating && inv == expect) {
			expect *= 2;
		} else if (estimating || inv != k) {
			if (!estimating && inv == 1) { /* the benchmark again */
				estimating = true;
				expect = 2;
			} else if (!estimating && k == 1 && inv == 2 && prev < n &&
				   runs[prev]->invocations == 1) {
				/* samples of 1, then 1, 2: the 1 began a new chain */
				calib[prev] = true;
				estimating = true;
				expect = 4;
			} else {
				estimating = false;
				k = inv;
				calib[i] = false;
			}
		} else {
			calib[i] = false; /* one more sample of k */
		}
		prev = i;
	}
}
