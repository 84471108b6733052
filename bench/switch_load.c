// SPDX-License-Identifier: MIT
/*
 * switch_load -- US: a scheduler load for make bench's section 4. Sleeps US
 * microseconds (default 300) in a loop until it is killed, so that each
 * wake-up is two context switches and one wake-up on its CPU (pin it with
 * taskset). It also ends when its parent does (PR_SET_PDEATHSIG), so that
 * an interrupted bench leaves no load behind. Exit status: 2 on a bad
 * argument, 1 when it cannot follow its parent; otherwise it runs until a
 * signal ends it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *end = NULL;
	long us = argc > 1 ? strtol(argv[1], &end, 10) : 300;

	if (argc > 2 || (end && *end) || us < 1 || us > 1000000) {
		fprintf(stderr, "usage: switch_load [US], 1 <= US <= 1000000 (default 300)\n");
		return 2;
	}
	struct timespec t = {us / 1000000, (us % 1000000) * 1000};

	/* the parent may have gone before prctl took effect */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		return 1;
	for (;;)
		nanosleep(&t, NULL);
}
