// SPDX-License-Identifier: MIT
/* criterion_runs.c - criterion.rs's warm-up runs vs its samples. */
#include "trace/criterion_runs.h"

#include <stdint.h>

static bool counted(const struct bs_iter_rec *r)
{
	return (r->flags & BS_ITER_F_INVOC) && r->invocations;
}

void bs_criterion_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib)
{
	bool marked = false, chain = true;
	uint64_t next = 1; /* the count that continues the warm-up chain */
	size_t i;

	for (i = 0; i < n; i++)
		marked |= !!(runs[i]->flags & BS_ITER_F_HARNESS_WARMUP);
	for (i = 0; i < n; i++) {
		const struct bs_iter_rec *r = runs[i];

		if (!counted(r)) {
			calib[i] = true;
			continue;
		}
		if (marked) {
			calib[i] = !!(r->flags & BS_ITER_F_HARNESS_WARMUP);
			continue;
		}
		chain = chain && r->invocations == next;
		calib[i] = chain;
		next = 2 * r->invocations;
	}
}
