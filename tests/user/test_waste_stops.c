// SPDX-License-Identifier: MIT
/*
 * test_waste_stops - the time `benchscope waste` counts its program as
 * stopped by frozen samples: a stop runs from its sample to the first
 * SIGCONT after it (a SIGCONT continues the whole thread group, also a stop
 * that a queued sample made after the one being continued), overlapping
 * stops count once, and each separate stop is one wake-up. Worked by hand.
 * And the wait for a frozen sample's stop, on real child processes.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"
#include "util/monotime.h"
#include "waste/freeze.h"

static void test_separate_stops(void)
{
	struct bs_waste_stops st;
	uint64_t ns = 0, wakes = 0;

	memset(&st, 0, sizeof(st));
	bs_waste_stop_account(&st, 100, 150, &ns, &wakes);
	bs_waste_stop_account(&st, 200, 260, &ns, &wakes);
	CHECK_INT_EQ((long)ns, 50 + 60);
	CHECK_INT_EQ((long)wakes, 2);
}

static void test_queued_stops(void)
{
	struct bs_waste_stops st;
	uint64_t ns = 0, wakes = 0;

	memset(&st, 0, sizeof(st));
	/* A at 100, continued at 150 */
	bs_waste_stop_account(&st, 100, 150, &ns, &wakes);
	/* B at 140 (queued; its stop ended with A's continue at 150): nothing more */
	bs_waste_stop_account(&st, 140, 300, &ns, &wakes);
	CHECK_INT_EQ((long)ns, 50);
	CHECK_INT_EQ((long)wakes, 1);
	/* C at 170, after every continue so far (150, 300 is later): ended at 300 */
	bs_waste_stop_account(&st, 170, 400, &ns, &wakes);
	CHECK_INT_EQ((long)ns, 50 + 130);
	CHECK_INT_EQ((long)wakes, 2);
	/* D at 350: ended by the continue at 400, already counted up to 300 */
	bs_waste_stop_account(&st, 350, 500, &ns, &wakes);
	CHECK_INT_EQ((long)ns, 50 + 130 + 50);
	CHECK_INT_EQ((long)wakes, 3);
}

static void test_ring_wraps(void)
{
	struct bs_waste_stops st;
	uint64_t ns = 0, wakes = 0, t;

	memset(&st, 0, sizeof(st));
	for (t = 0; t < 3 * BS_WASTE_CONT_RING; t++)
		bs_waste_stop_account(&st, 1000 * t + 10, 1000 * t + 20, &ns, &wakes);
	CHECK_INT_EQ((long)ns, 3 * BS_WASTE_CONT_RING * 10);
	CHECK_INT_EQ((long)wakes, 3 * BS_WASTE_CONT_RING);
	/* a sample older than the ring: its stop ends at the oldest continue kept */
	bs_waste_stop_account(&st, 5, 1000000, &ns, &wakes);
	CHECK_INT_EQ((long)ns, 3 * BS_WASTE_CONT_RING * 10);
}

/* a running thread is waited for up to the bound, a stopped or reaped one not */
static void test_wait_stopped(void)
{
	pid_t c = fork();
	uint64_t t0, dt;
	int st;

	if (c == 0)
		for (;;)
			; /* running, never stopped */
	CHECK(c > 0);
	if (c <= 0)
		return;
	t0 = bs_mono_ns();
	CHECK(!bs_waste_wait_stopped(c, c, 20000000));
	dt = bs_mono_ns() - t0;
	CHECK(dt >= 20000000 && dt < 5000000000ull);
	kill(c, SIGSTOP);
	CHECK(bs_waste_wait_stopped(c, c, 5000000000ull));
	CHECK_INT_EQ(waitpid(c, &st, WUNTRACED), c);
	kill(c, SIGCONT);
	kill(c, SIGKILL);
	CHECK_INT_EQ(waitpid(c, &st, 0), c);
	t0 = bs_mono_ns();
	CHECK(bs_waste_wait_stopped(c, c, 5000000000ull)); /* gone */
	CHECK(bs_mono_ns() - t0 < 5000000000ull);
}

int main(void)
{
	RUN_TEST(test_separate_stops);
	RUN_TEST(test_queued_stops);
	RUN_TEST(test_ring_wraps);
	RUN_TEST(test_wait_stopped);
	return test_summary("test_waste_stops");
}
