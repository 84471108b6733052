// SPDX-License-Identifier: MIT
/*
 * iter_loop - a ground-truth harness whose iterations are known by construction.
 *
 *   iter_loop N WORK_US [SLEEP_US [THREADS]]
 *
 * Runs N iterations per thread; each is one call of bs_iteration(), which
 * burns WORK_US microseconds of the thread's own CPU time
 * (CLOCK_THREAD_CPUTIME_ID, so time stolen by other tasks makes the
 * iteration longer, not the work smaller) and then sleeps SLEEP_US.
 * So, per iteration: on-CPU time = WORK_US, blocked time >= SLEEP_US, and
 * duration - WORK_US - SLEEP_US is what interference added.
 *
 * With BS_EXIT_AFTER_US=T, the main thread runs no iteration: it starts
 * the other THREADS - 1, waits until each is about to begin its first
 * iteration, then T microseconds more, and ends the process (exit_group)
 * while they are inside iterations.
 *
 * With BS_SCHEDSTAT=FILE, the main thread writes the kernel's own accounting
 * of it, from /proc/thread-self/schedstat, taken just before the first and
 * just after the last iteration: "sum_exec_ns run_delay_ns timeslices" twice.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long work_us, sleep_us, n_iter;
static int n_started; /* threads about to begin their first iteration */

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* One iteration: the probed function. */
__attribute__((noinline)) void bs_iteration(long w_us, long s_us)
{
	double end = cpu_us() + (double)w_us;
	volatile unsigned long x = 0;

	while (cpu_us() < end)
		x++;
	if (s_us > 0) {
		struct timespec ts = {s_us / 1000000, (s_us % 1000000) * 1000};
		nanosleep(&ts, NULL);
	}
}

static void *thread_main(void *arg)
{
	long i;

	(void)arg;
	__atomic_add_fetch(&n_started, 1, __ATOMIC_RELEASE);
	for (i = 0; i < n_iter; i++)
		bs_iteration(work_us, sleep_us);
	return NULL;
}

static void schedstat(FILE *out)
{
	char buf[256] = "";
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	fputs(buf[0] ? buf : "0 0 0\n", out);
}

int main(int argc, char **argv)
{
	const char *ss = getenv("BS_SCHEDSTAT"), *exit_after = getenv("BS_EXIT_AFTER_US");
	long threads = 1, t;
	pthread_t tids[64];
	FILE *out = NULL;

	if (argc < 3) {
		fprintf(stderr, "usage: iter_loop N WORK_US [SLEEP_US [THREADS]]\n");
		return 2;
	}
	n_iter = atol(argv[1]);
	work_us = atol(argv[2]);
	sleep_us = argc > 3 ? atol(argv[3]) : 0;
	threads = argc > 4 ? atol(argv[4]) : 1;
	if (n_iter < 0 || work_us < 0 || sleep_us < 0 || threads < 1 || threads > 64) {
		fprintf(stderr, "iter_loop: bad arguments\n");
		return 2;
	}
	if (ss && !(out = fopen(ss, "w"))) {
		perror(ss);
		return 2;
	}
	if (out)
		schedstat(out);
	for (t = 1; t < threads; t++)
		pthread_create(&tids[t], NULL, thread_main, NULL);
	if (exit_after) {
		/* thread creation can take longer than T under emulation */
		while (__atomic_load_n(&n_started, __ATOMIC_ACQUIRE) < threads - 1)
			usleep(100);
		usleep((useconds_t)atol(exit_after));
		_exit(0);
	}
	thread_main(NULL);
	for (t = 1; t < threads; t++)
		pthread_join(tids[t], NULL);
	if (out) {
		schedstat(out);
		fclose(out);
	}
	return argc > 5 ? atoi(argv[5]) : 0; /* an exit status, for the failure tests */
}
