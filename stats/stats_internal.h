/* SPDX-License-Identifier: MIT */
/* stats_internal.h - helpers shared by the stats sources; not installed. */
#ifndef BENCHSCOPE_STATS_INTERNAL_H
#define BENCHSCOPE_STATS_INTERNAL_H

#include <stddef.h>

int bs_cmp_double(const void *a, const void *b);
/* malloc'ed sorted copy of x, NULL on allocation failure */
double *bs_sorted_copy(const double *x, size_t n);

#endif
