/* SPDX-License-Identifier: MIT */
/* monotime.h - the monotonic clock in nanoseconds, the time base of traces. */
#ifndef BENCHSCOPE_MONOTIME_H
#define BENCHSCOPE_MONOTIME_H

#include <stdint.h>
#include <time.h>

/** Now on CLOCK_MONOTONIC, in nanoseconds. */
static inline uint64_t bs_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#endif
