/* SPDX-License-Identifier: MIT */
/* burn.h - busy-work helpers shared by the ground-truth harnesses. */
#ifndef BENCHSCOPE_TESTS_PROGS_BURN_H
#define BENCHSCOPE_TESTS_PROGS_BURN_H

#include <time.h>

/* The calling thread's CPU time, in microseconds. */
static inline double burn_cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/*
 * Spin until the calling thread has used work_us more microseconds of CPU
 * time: the work, not the wall time, is fixed, so preemption lengthens the
 * call without changing its work.
 */
static inline void burn_us(double work_us)
{
	double end = burn_cpu_us() + work_us;
	volatile unsigned long x = 0;

	while (burn_cpu_us() < end)
		x++;
}

#endif
