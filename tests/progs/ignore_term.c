// SPDX-License-Identifier: MIT
/*
 * ignore_term - a harness that ignores SIGTERM (only SIGKILL ends it).
 *
 *   ignore_term WORK_US
 *
 * Calls bs_iteration() forever; each burns WORK_US microseconds of the
 * thread's CPU time.
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

__attribute__((noinline)) void bs_iteration(double work_us)
{
	double end = cpu_us() + work_us;
	volatile unsigned long x = 0;

	while (cpu_us() < end)
		x++;
}

int main(int argc, char **argv)
{
	double w = argc > 1 ? atof(argv[1]) : 1000;

	signal(SIGTERM, SIG_IGN);
	for (;;)
		bs_iteration(w);
}
