// SPDX-License-Identifier: MIT
/* test_progress.c - the live progress line (util/progress.h): drawn only
 * when enabled and on a terminal (a pseudo-terminal here), at most 4 times
 * a second, erased when done. */
#include <time.h>
#include <unistd.h>

#include "test.h"
#include "probe/calibrate.h"
#include "util/progress.h"
#include "pty_term.h"

/* past the redraw interval (250 ms) */
static void wait_interval(void)
{
	struct timespec ts = {0, 260000000};

	nanosleep(&ts, NULL);
}

/* Enabled on a terminal: drawn, then erased. */
static void test_drawn_on_terminal(void)
{
	struct bs_progress p;
	struct pty t;
	const char *s;

	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	bs_progress_init_on(&p, t.slave, "iterations", true);
	wait_interval();
	bs_progress_update(&p, 42, 0);
	s = pty_read(&t);
	CHECK(strstr(s, "42 iterations") != NULL);
	CHECK(strstr(s, "s elapsed") != NULL);
	bs_progress_done(&p);
	s = pty_read(&t);
	CHECK(strstr(s, "\033[K") != NULL);
	pty_close(&t);
}

/* Not enabled (-q): nothing on the terminal, not even the erase. */
static void test_quiet_on_terminal(void)
{
	struct bs_progress p;
	struct pty t;

	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	bs_progress_init_on(&p, t.slave, "runs", false);
	wait_interval();
	bs_progress_update(&p, 1, 3);
	bs_progress_done(&p);
	CHECK_INT_EQ(strlen(pty_read(&t)), 0);
	pty_close(&t);
}

/* Not a terminal (a log file): nothing, even when enabled. */
static void test_quiet_off_terminal(void)
{
	struct bs_progress p;
	FILE *f = tmpfile();

	CHECK(f != NULL);
	if (!f)
		return;
	bs_progress_init_on(&p, f, "iterations", true);
	wait_interval();
	bs_progress_update(&p, 7, 10);
	bs_progress_done(&p);
	fflush(f);
	CHECK_INT_EQ(ftell(f), 0);
	fclose(f);
}

/* Counts the line's draws in what reached the terminal. */
static int draws(const char *s)
{
	int n = 0;

	for (; (s = strstr(s, "\r\033[K  ")); s++)
		n++;
	return n;
}

/* At most 4 redraws a second (progress.h): updates closer than 250 ms apart
 * draw once. */
static void test_rate(void)
{
	struct bs_progress p;
	struct pty t;

	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	bs_progress_init_on(&p, t.slave, "iterations", true);
	bs_progress_update(&p, 1, 0); /* too soon after the start */
	CHECK_INT_EQ(draws(pty_read(&t)), 0);
	wait_interval();
	for (int i = 0; i < 20; i++)
		bs_progress_update(&p, (uint64_t)i + 2, 0);
	CHECK_INT_EQ(draws(pty_read(&t)), 1);
	wait_interval();
	bs_progress_update(&p, 30, 0);
	CHECK_INT_EQ(draws(pty_read(&t)), 1);
	bs_progress_done(&p);
	pty_close(&t);
}

/* A message while the line is on: the line is erased first, the message
 * ends with a newline, and the next update draws the line again at once
 * (not 250 ms later). */
static void test_msg_clears(void)
{
	struct bs_progress p;
	struct pty t;
	const char *s, *k, *m;

	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	bs_progress_init_on(&p, t.slave, "runs", true);
	wait_interval();
	bs_progress_update(&p, 1, 4);
	CHECK_INT_EQ(draws(pty_read(&t)), 1);
	bs_progress_msg(&p, "benchscope duet: run %d failed", 1);
	s = pty_read(&t);
	k = strstr(s, "\r\033[K");
	m = strstr(s, "benchscope duet: run 1 failed");
	CHECK(k != NULL && m != NULL && k < m);
	CHECK(strstr(s, "failed\r\n") != NULL || strstr(s, "failed\n") != NULL);
	bs_progress_update(&p, 2, 4);
	s = pty_read(&t);
	CHECK_INT_EQ(draws(s), 1);
	CHECK(strstr(s, "2/4 runs") != NULL);
	/* clear alone: erased, nothing else */
	bs_progress_clear(&p);
	CHECK(strcmp(pty_read(&t), "\r\033[K") == 0);
	bs_progress_done(&p);
	CHECK_INT_EQ(strlen(pty_read(&t)), 0); /* nothing left to erase */
	pty_close(&t);
}

/* A message off the terminal (a log) still goes out, alone. */
static void test_msg_off_terminal(void)
{
	struct bs_progress p;
	char buf[128] = "";
	FILE *f = tmpfile();

	CHECK(f != NULL);
	if (!f)
		return;
	bs_progress_init_on(&p, f, "iterations", true);
	wait_interval();
	bs_progress_update(&p, 3, 0);
	bs_progress_msg(&p, "benchscope run: reading the ring buffer: %s", "No such device");
	bs_progress_done(&p);
	rewind(f);
	CHECK(fgets(buf, sizeof(buf), f) != NULL);
	CHECK(strcmp(buf, "benchscope run: reading the ring buffer: No such device\n") == 0);
	fclose(f);
}

/* A text line: the caller's words, elapsed, and the ETA from done/total. */
static void test_text(void)
{
	struct bs_progress p;
	struct pty t;
	const char *s;

	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	bs_progress_init_on(&p, t.slave, "forks", true);
	wait_interval();
	bs_progress_text(&p, 1, 4, "fork %d of at most %d, %d iterations", 2, 4, 812);
	s = pty_read(&t);
	CHECK(strstr(s, "fork 2 of at most 4, 812 iterations  ") != NULL);
	CHECK(strstr(s, "s elapsed, ETA ") != NULL);
	bs_progress_clear(&p);
	pty_read(&t);
	bs_progress_text(&p, 0, 4, "fork 1");
	s = pty_read(&t);
	CHECK(strstr(s, "fork 1  ") != NULL && strstr(s, "ETA") == NULL);
	bs_progress_done(&p);
	pty_close(&t);
}

/* Beside a harness: the line only when stderr is a terminal the harness's
 * output does not reach ("...2.7 s elapsedBM_foo 123 ns" otherwise). */
static void test_beside_harness(void)
{
	CHECK(bs_progress_beside_harness(true, false));	  /* run CMD > file, on a terminal */
	CHECK(!bs_progress_beside_harness(true, true));	  /* run CMD on a terminal */
	CHECK(!bs_progress_beside_harness(false, false)); /* a log */
	CHECK(!bs_progress_beside_harness(false, true));
}

/* The same with this process's stdout and stderr: a terminal (pty) or a
 * file put on fds 1 and 2 for the test. */
static void test_beside_harness_here(void)
{
	int out = dup(STDOUT_FILENO), err = dup(STDERR_FILENO);
	FILE *f = tmpfile();
	struct pty t;

	if (pty_open(&t) || !f || out < 0 || err < 0)
		SKIP("no pseudo-terminal or file here");
	fflush(stdout);
	fflush(stderr);
	/* both on the terminal: run, and duet --harness-output, draw no line;
	 * duet with the harness output discarded does */
	dup2(fileno(t.slave), STDOUT_FILENO);
	dup2(fileno(t.slave), STDERR_FILENO);
	bool run_tty = bs_progress_beside_harness_here(true, false);
	bool duet_out = bs_progress_beside_harness_here(true, true);
	bool duet_dis = bs_progress_beside_harness_here(false, false);
	/* stdout redirected: run draws it, duet --harness-output still not */
	dup2(fileno(f), STDOUT_FILENO);
	bool run_redir = bs_progress_beside_harness_here(true, false);
	bool duet_redir = bs_progress_beside_harness_here(true, true);
	/* stderr a log: never */
	dup2(fileno(f), STDERR_FILENO);
	bool log = bs_progress_beside_harness_here(false, false);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	CHECK(!run_tty);
	CHECK(!duet_out);
	CHECK(duet_dis);
	CHECK(run_redir);
	CHECK(!duet_redir);
	CHECK(!log);
	fclose(f);
	pty_close(&t);
}

/* A note (run --forks's line per fork): on a terminal even when the line is
 * off (beside a harness), erasing the line first; nothing in a log. */
static void test_note(void)
{
	struct bs_progress p;
	struct pty t;
	FILE *f = tmpfile();
	const char *s;

	if (pty_open(&t) || !f)
		SKIP("no pseudo-terminal or file here");
	bs_progress_init_on(&p, t.slave, "forks", false);
	bs_progress_note(&p, "benchscope run: fork %d (pid %d)", 1, 42);
	s = pty_read(&t);
	CHECK(strstr(s, "benchscope run: fork 1 (pid 42)") != NULL);
	bs_progress_init_on(&p, t.slave, "forks", true);
	wait_interval();
	bs_progress_text(&p, 0, 3, "fork 1 of at most 3, 10 iterations");
	bs_progress_note(&p, "benchscope run: fork 1 (pid 42)");
	s = pty_read(&t);
	CHECK(strstr(s, "iterations") < strstr(s, "\r\033[Kbenchscope run: fork 1"));
	bs_progress_done(&p);
	pty_read(&t);
	pty_close(&t);
	bs_progress_init_on(&p, f, "forks", true);
	bs_progress_note(&p, "benchscope run: fork 1 (pid 42)");
	fflush(f);
	CHECK_INT_EQ(ftell(f), 0);
	fclose(f);
}

/* calibrate, doctor: the line counts the timed rounds of every kind. */
static void test_calib_steps(void)
{
	struct bs_calib_steps st = {0};
	struct bs_progress p;
	struct pty t;
	const char *s;

	bs_calib_step(NULL); /* no line: nothing to count */
	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	bs_progress_init_on(&p, t.slave, "timed rounds", true);
	st.line = &p;
	st.total = 3 * 2 * 5;
	wait_interval();
	for (int i = 0; i < 12; i++)
		bs_calib_step(&st);
	CHECK_INT_EQ(st.done, 12);
	s = pty_read(&t);
	CHECK(strstr(s, "1/30 timed rounds") != NULL); /* the first, then 250 ms apart */
	wait_interval();
	bs_calib_step(&st);
	s = pty_read(&t);
	CHECK(strstr(s, "13/30 timed rounds (43%)") != NULL);
	CHECK(strstr(s, "ETA") != NULL);
	bs_progress_done(&p);
	pty_close(&t);
}

/* report, compare, replay: the steps an analysis tells (util/steps.h) as a
 * line "WHAT N of TOTAL: NAME" with the ETA, its elapsed time from the
 * count's first step, a long name cut, erased at the end; nothing off a
 * terminal. */
static void test_steps(void)
{
	static const char longname[] =
	    "BM_a_benchmark_with_a_very_long_name_\xc3\xa9\xc3\xa9_and_more";
	struct bs_progress p;
	struct bs_steps st;
	struct pty t;
	FILE *f = tmpfile();
	const char *s;

	if (pty_open(&t) || !f)
		SKIP("no pseudo-terminal or file here");
	bs_progress_init_on(&p, t.slave, "analysing benchmark", true);
	st = bs_progress_steps(&p);
	/* reading the traces, 1.1 s: not part of the count's elapsed time */
	nanosleep(&(struct timespec){1, 100000000}, NULL);
	bs_steps_step(&st, 0, 4, "BM_x");
	CHECK_INT_EQ(strlen(pty_read(&t)), 0); /* the count's first 250 ms */
	wait_interval();
	bs_steps_step(&st, 1, 4, "BM_y");
	s = pty_read(&t);
	CHECK(strstr(s, "\r\033[K  analysing benchmark 2 of 4: BM_y  0.") != NULL); /* not 1.3 s */
	CHECK(strstr(s, "s elapsed, ETA ") != NULL);
	wait_interval();
	bs_steps_step(&st, 2, 4, longname);
	s = pty_read(&t);
	/* 40 bytes would end inside the second "é": cut before it */
	CHECK(strstr(s, "3 of 4: BM_a_benchmark_with_a_very_long_name_\xc3\xa9...  ") != NULL);
	bs_steps_step(&st, 4, 4, NULL);
	CHECK(strcmp(pty_read(&t), "\r\033[K") == 0);
	bs_progress_done(&p);
	CHECK_INT_EQ(strlen(pty_read(&t)), 0);
	pty_close(&t);
	/* a log: nothing */
	bs_progress_init_on(&p, f, "analysing benchmark", true);
	st = bs_progress_steps(&p);
	bs_steps_step(&st, 0, 2, "BM_x");
	wait_interval();
	bs_steps_step(&st, 1, 2, "BM_y");
	bs_steps_step(&st, 2, 2, NULL);
	bs_progress_done(&p);
	fflush(f);
	CHECK_INT_EQ(ftell(f), 0);
	fclose(f);
	bs_steps_step(NULL, 0, 1, "nobody listens"); /* no hook: nothing */
}

int main(void)
{
	RUN_TEST(test_drawn_on_terminal);
	RUN_TEST(test_quiet_on_terminal);
	RUN_TEST(test_quiet_off_terminal);
	RUN_TEST(test_rate);
	RUN_TEST(test_msg_clears);
	RUN_TEST(test_msg_off_terminal);
	RUN_TEST(test_text);
	RUN_TEST(test_beside_harness);
	RUN_TEST(test_beside_harness_here);
	RUN_TEST(test_note);
	RUN_TEST(test_calib_steps);
	RUN_TEST(test_steps);
	return test_summary("test_progress");
}
