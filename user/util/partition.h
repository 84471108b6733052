/* SPDX-License-Identifier: MIT */
/*
 * util/partition.h - the binary search the trace and duet indexes share:
 * where a sorted sequence stops being "before" a key.
 */
#ifndef BENCHSCOPE_UTIL_PARTITION_H
#define BENCHSCOPE_UTIL_PARTITION_H

#include <stdbool.h>
#include <stddef.h>

/**
 * bs_partition_point - the first index i in [0, @n) for which
 * @before(@ctx, i) is false, or @n when there is none. @before must be true
 * on a prefix of the indexes and false on the rest (the sequence is sorted
 * by what it tests). O(log n) calls of @before.
 */
static inline size_t bs_partition_point(size_t n, bool (*before)(const void *ctx, size_t i),
					const void *ctx)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(ctx, mid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
