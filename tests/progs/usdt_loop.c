/* SPDX-License-Identifier: MIT */
/*
 * usdt_loop.c - ground-truth workload with USDT iteration boundaries.
 *
 *   usdt_loop N WORK_US
 *
 * Runs N iterations (N >= 0); iteration i is delimited by the probes
 * benchscope_test:iter_begin(i) and benchscope_test:iter_end(i) (i from 0,
 * a long) and busy-spins WORK_US microseconds of CLOCK_MONOTONIC between
 * them (WORK_US >= 0, an integer; 0 = empty iterations). Prints nothing
 * unless the environment sets USDT_LOOP_VERBOSE (then the measured total).
 * Exit status: 0, or 2 on bad arguments.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int parse_count(const char *s, long long *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		return -1;
	*out = v;
	return 0;
}

/* Spin until WORK_NS of CLOCK_MONOTONIC have passed since START. */
static void spin_until(uint64_t start, uint64_t work_ns)
{
	while (now_ns() - start < work_ns)
		;
}

int main(int argc, char **argv)
{
	long long n, work_us;
	if (argc != 3 || parse_count(argv[1], &n) || parse_count(argv[2], &work_us)) {
		fprintf(stderr, "usage: usdt_loop N WORK_US   (non-negative integers)\n");
		return 2;
	}
	uint64_t work_ns = (uint64_t)work_us * 1000u;
	uint64_t t0 = now_ns();
	for (long i = 0; i < n; i++) {
		DTRACE_PROBE1(benchscope_test, iter_begin, i);
		spin_until(now_ns(), work_ns);
		DTRACE_PROBE1(benchscope_test, iter_end, i);
	}
	if (getenv("USDT_LOOP_VERBOSE"))
		fprintf(stderr, "usdt_loop: %lld iterations of %lld us in %.3f ms\n", n, work_us,
			(double)(now_ns() - t0) / 1e6);
	return 0;
}
