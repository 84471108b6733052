// SPDX-License-Identifier: MIT
/*
 * waste_planted - ground truth for `benchscope waste`: wasteful memory
 * operations planted at known lines (each marked with a PLANT comment that
 * the tests look up), and clean twins without them.
 *
 *   waste_planted MODE [REPS]
 *   dead          a[i] = r (dead: the next access stores again); a[i] = r + i; use a[i]
 *                 -> about half of the sampled store bytes are dead stores
 *   dead-clean    the same stores, each followed by a load: no dead store
 *   silent        b[i] = i & 1 ? i : r: odd elements always get the same value
 *                 -> about half of the sampled store bytes are silent stores
 *   silent-clean  b[i] = r + i: every store changes the value
 *   sload         loads of c[i], never written -> every resolved load pair is silent
 *   sload-clean   the same loads, c[] refilled by the kernel (read of /dev/urandom)
 *                 before each pass: the next load sees a new value, no store between
 *   threads       `dead` in two threads at once (per-thread watchpoints)
 *   int3          `dead`, then an int3 instruction: the kernel kills it with SIGTRAP
 *                 (SI_KERNEL), as it kills a program after a trap no breakpoint claims
 *
 * The planted operations go through volatile arrays in noinline functions
 * compiled with frame pointers, so -O2 keeps them and stacks unwind.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#define N  4096
#define FN __attribute__((noinline, optimize("no-omit-frame-pointer")))

static volatile long a[N], b[N], c[N];
static volatile long sink;

FN static void dead(long r)
{
	long s = 0;

	for (int i = 0; i < N; i++) {
		a[i] = r;     /* PLANT:dead-first */
		a[i] = r + i; /* PLANT:dead-next */
		s += a[i];    /* PLANT:dead-use */
	}
	sink = s;
}

FN static void dead_clean(long r)
{
	long s = 0;

	for (int i = 0; i < N; i++) {
		a[i] = r; /* PLANT:clean-store1 */
		s += a[i];
		a[i] = r + i; /* PLANT:clean-store2 */
		s += a[i];
	}
	sink = s;
}

FN static void silent(long r)
{
	for (int i = 0; i < N; i++)
		b[i] = i & 1 ? i : r; /* PLANT:silent */
}

FN static void silent_clean(long r)
{
	for (int i = 0; i < N; i++)
		b[i] = r + i; /* PLANT:silent-clean */
}

FN static void sload(void)
{
	long s = 0;

	for (int i = 0; i < N; i++)
		s += c[i]; /* PLANT:sload */
	sink = s;
}

static void *worker(void *arg)
{
	long reps = *(long *)arg;

	for (long r = 0; r < reps; r++)
		dead(r);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "dead";
	long reps = argc > 2 ? strtol(argv[2], NULL, 10) : 20000;
	pthread_t t;
	int th = 0, fd = -1;

	for (int i = 0; i < N; i++)
		c[i] = i;
	if (!strcmp(mode, "sload-clean")) {
		fd = open("/dev/urandom", O_RDONLY);
		if (fd < 0)
			return 1;
	}
	if (!strcmp(mode, "int3"))
		mode = "dead";
	if (!strcmp(mode, "threads")) {
		if (pthread_create(&t, NULL, worker, &reps))
			return 1;
		th = 1;
		mode = "dead";
	}
	for (long r = 0; r < reps; r++) {
		if (fd >= 0 && read(fd, (void *)c, sizeof(c)) != (ssize_t)sizeof(c))
			return 1;
		if (!strcmp(mode, "dead"))
			dead(r);
		else if (!strcmp(mode, "dead-clean"))
			dead_clean(r);
		else if (!strcmp(mode, "silent"))
			silent(r);
		else if (!strcmp(mode, "silent-clean"))
			silent_clean(r);
		else if (!strcmp(mode, "sload") || !strcmp(mode, "sload-clean"))
			sload();
		else {
			fprintf(stderr, "waste_planted: unknown mode %s\n", mode);
			return 2;
		}
	}
	if (th)
		pthread_join(t, NULL);
	if (!strcmp(argv[1 < argc ? 1 : 0], "int3"))
		__asm__ volatile("int3");
	return 0;
}
