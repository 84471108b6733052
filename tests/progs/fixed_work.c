// SPDX-License-Identifier: MIT
/*
 * fixed_work - a harness whose iterations do a fixed amount of work
 * (UNITS steps of a linear congruential generator), so that anything added
 * to an iteration, a probe's trap included, makes it longer.
 *
 *   fixed_work N UNITS
 *
 * Each iteration is one call of bs_fixed_iteration(), also delimited by the
 * USDT probes benchscope_bench:iter_begin / iter_end. At exit it prints
 * "elapsed_ns E" (first iteration's start to last iteration's end, by its
 * own clock) on stdout, so harness time can be compared with and without
 * benchscope, free of the tool's start-up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) void bs_fixed_iteration(long units)
{
	unsigned long x = sink;

	for (long i = 0; i < units; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = x;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n, units, i;
	long long t0;

	if (argc != 3 || (n = atol(argv[1])) < 0 || (units = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: fixed_work N UNITS\n");
		return 2;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		DTRACE_PROBE1(benchscope_bench, iter_begin, i);
		bs_fixed_iteration(units);
		DTRACE_PROBE1(benchscope_bench, iter_end, i);
	}
	printf("elapsed_ns %lld\n", now_ns() - t0);
	return 0;
}
