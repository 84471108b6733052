// SPDX-License-Identifier: MIT
/* criterion_runs.c - criterion.rs's warm-up runs vs its samples. */
#include "trace/criterion_runs.h"

#include <stdint.h>
#include <stdlib.h>

static bool counted(const struct bs_iter_rec *r)
{
	return (r->flags & BS_ITER_F_INVOC) && r->invocations;
}

/* v[0..k) are samples: linear (v[i] = (i + 1) v[0]) or flat (v[i] = v[0]). */
static bool samples_fit(const uint64_t *v, size_t k)
{
	bool linear = true, flat = true;

	for (size_t i = 1; i < k; i++) {
		linear &= v[i] == (uint64_t)(i + 1) * v[0];
		flat &= v[i] == v[0];
	}
	return linear || flat;
}

/* Runs v[0..w) are warm-up: see the header. */
static size_t split(const uint64_t *v, size_t m)
{
	size_t w = 0, lo;

	if (m && v[0] == 1)
		for (w = 1; w < m && v[w] == 2 * v[w - 1]; w++)
			;
	lo = w > 2 ? w - 2 : 0;
	for (size_t s = w + 1; s-- > lo;)
		if (m - s >= 3 && samples_fit(v + s, m - s))
			return s;
	for (size_t s = lo; s <= w; s++)
		if (samples_fit(v + s, m - s))
			return s;
	return w;
}

void bs_criterion_calibration(const struct bs_iter_rec *const *runs, size_t n, bool *calib)
{
	uint64_t *v;
	size_t m = 0, w, i, k;
	bool marked = false;

	for (i = 0; i < n; i++)
		marked |= !!(runs[i]->flags & BS_ITER_F_HARNESS_WARMUP);
	v = marked ? NULL : malloc((n ? n : 1) * sizeof(*v));
	if (!v) {
		/* marked by the probes (or no memory: then by the marks alone) */
		for (i = 0; i < n; i++)
			calib[i] = !counted(runs[i]) || (runs[i]->flags & BS_ITER_F_HARNESS_WARMUP);
		return;
	}
	for (i = 0; i < n; i++)
		if (counted(runs[i]))
			v[m++] = runs[i]->invocations;
	w = split(v, m);
	for (i = k = 0; i < n; i++) {
		if (!counted(runs[i])) {
			calib[i] = true;
			continue;
		}
		calib[i] = k++ < w;
	}
	free(v);
}
