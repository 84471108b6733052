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

#include "burn.h"

__attribute__((noinline)) void bs_iteration(double work_us)
{
	burn_us(work_us);
}

int main(int argc, char **argv)
{
	double w = argc > 1 ? atof(argv[1]) : 1000;

	signal(SIGTERM, SIG_IGN);
	for (;;)
		bs_iteration(w);
}
