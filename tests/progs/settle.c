// SPDX-License-Identifier: MIT
/*
 * settle - a ground-truth harness whose steady state is known by construction.
 *
 *   settle N K SLOW_US STEADY_US [NOISE_PCT]
 *
 * Runs N iterations (N = 0: until killed); each is one call of
 * bs_iteration(). The first K iterations each burn SLOW_US * (K - i) / K +
 * STEADY_US microseconds (i from 0: a decaying warmup, the slowest first);
 * from iteration K + 1 on each burns STEADY_US plus a deterministic
 * pseudo-random jitter of at most NOISE_PCT percent (default 0.2). Time is
 * the thread's own CPU time (CLOCK_THREAD_CPUTIME_ID), so the work, not the
 * wall time, is fixed: preemption lengthens an iteration without changing
 * its work.
 *
 * So a stoppage criterion must not end warmup before iteration K + 1 and,
 * on a quiet machine, ends it within the window after K.
 */
#include <stdio.h>
#include <stdlib.h>

#include "burn.h"

/* One iteration: the probed function. */
__attribute__((noinline)) void bs_iteration(double work_us)
{
	burn_us(work_us);
}

int main(int argc, char **argv)
{
	long n, k, i;
	double slow, steady, noise = 0.2;
	unsigned long long lcg = 12345;

	if (argc < 5) {
		fprintf(stderr, "usage: settle N K SLOW_US STEADY_US [NOISE_PCT]\n");
		return 2;
	}
	n = atol(argv[1]);
	k = atol(argv[2]);
	slow = atof(argv[3]);
	steady = atof(argv[4]);
	if (argc > 5)
		noise = atof(argv[5]);
	for (i = 0; n == 0 || i < n; i++) {
		double w = steady;

		lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
		if (i < k)
			w += slow * (double)(k - i) / (double)k;
		else
			w *= 1 + noise / 100 * ((double)(lcg >> 11) / (double)(1ull << 53) * 2 - 1);
		bs_iteration(w);
	}
	return 0;
}
