// SPDX-License-Identifier: MIT
/*
 * test_waste_procs - the processes `benchscope waste` continues are the ones
 * it followed: a stopped process under a remembered pid but with another
 * start time (a later process given the same pid) gets no SIGCONT and is
 * forgotten; the process itself is continued; a gone one is forgotten.
 * /proc/PID/stat lines are parsed with spaces and parentheses in the name.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "waste/procs.h"

static void test_stat_parse(void)
{
	const char *line = "4242 (a (b) c) T 1 4242 4242 0 -1 4194560 100 0 0 0 5 6 0 0 20 0 1 0 "
			   "987654 1000 100 18446744073709551615\n";
	uint64_t start = 0;
	char st = 0;

	CHECK_INT_EQ(bs_waste_stat_parse(line, &st, &start), 0);
	CHECK_INT_EQ(st, 'T');
	CHECK_INT_EQ((long)start, 987654);
	CHECK_INT_EQ(bs_waste_stat_parse("4242 (x) R 1 2 3\n", &st, &start), -1);
	CHECK_INT_EQ(bs_waste_stat_parse("4242 (x) R 1 2 3\n", &st, NULL), 0);
	CHECK_INT_EQ(bs_waste_stat_parse("garbage", &st, NULL), -1);
}

/* a child that waits to be killed, stopped; its pid */
static pid_t stopped_child(void)
{
	pid_t c = fork();
	int status;

	if (c == 0) {
		for (;;)
			pause();
	}
	if (c < 0)
		return -1;
	kill(c, SIGSTOP);
	if (waitpid(c, &status, WUNTRACED) != c || !WIFSTOPPED(status)) {
		kill(c, SIGKILL);
		return -1;
	}
	return c;
}

/* the state letter of @pid, after a SIGCONT had time to land */
static char state_of(pid_t pid)
{
	struct timespec ts = {0, 20 * 1000 * 1000};
	uint64_t start;
	char st = 0;

	nanosleep(&ts, NULL);
	return bs_waste_proc_stat(pid, &st, &start) ? 0 : st;
}

static void test_reused_pid_not_continued(void)
{
	struct bs_waste_procs ps = {0};
	pid_t c = stopped_child();

	if (c < 0) {
		FAILF("cannot start a stopped child");
		return;
	}
	CHECK_INT_EQ(bs_waste_procs_add(&ps, c), 1);
	CHECK_INT_EQ(bs_waste_procs_add(&ps, c), 0);
	CHECK_INT_EQ((int)ps.n, 1);
	/* the pid now names "another" process: one that started later */
	ps.p[0].start += 1;
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, true), 0);
	CHECK_INT_EQ(state_of(c), 'T');
	CHECK_INT_EQ((int)ps.n, 0);
	/* re-added as it is: continued */
	CHECK_INT_EQ(bs_waste_procs_add(&ps, c), 1);
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, true), 1);
	CHECK(state_of(c) != 'T');
	/* running: not continued again unless asked for all */
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, true), 0);
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, false), 1);
	/* gone: forgotten */
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, false), 0);
	CHECK_INT_EQ((int)ps.n, 0);
	CHECK_INT_EQ(bs_waste_procs_add(&ps, c), -ESRCH);
	bs_waste_procs_free(&ps);
}

/* with no file descriptor left, /proc cannot be read: the process is kept,
 * and continued when all are */
static void test_unreadable_kept(void)
{
	struct bs_waste_procs ps = {0};
	pid_t c = stopped_child();
	struct rlimit old, low;
	int fds[256], n = 0, fd;

	if (c < 0) {
		FAILF("cannot start a stopped child");
		return;
	}
	CHECK_INT_EQ(bs_waste_procs_add(&ps, c), 1);
	getrlimit(RLIMIT_NOFILE, &old);
	low = old;
	low.rlim_cur = 64;
	setrlimit(RLIMIT_NOFILE, &low);
	while (n < 256 && (fd = open("/dev/null", O_RDONLY)) >= 0)
		fds[n++] = fd;
	CHECK(n < 256 && errno == EMFILE);
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, true), 0);
	CHECK_INT_EQ((int)ps.n, 1);
	CHECK_INT_EQ((int)bs_waste_procs_cont(&ps, false), 1);
	while (n > 0)
		close(fds[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	CHECK(state_of(c) != 'T');
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	bs_waste_procs_free(&ps);
}

int main(void)
{
	RUN_TEST(test_stat_parse);
	RUN_TEST(test_reused_pid_not_continued);
	RUN_TEST(test_unreadable_kept);
	return test_summary("test_waste_procs");
}
