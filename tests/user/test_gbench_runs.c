// SPDX-License-Identifier: MIT
/* test_gbench_runs - calibration/measurement classification on hand-built run sequences
 * shaped like Google Benchmark 1.7's (counts from the demo trace). */
#include "trace/gbench_runs.h"
#include <errno.h>
#include "test.h"

static void fill(struct bs_iter_rec *r, size_t n, const unsigned long long *inv, __u32 tid)
{
	for (size_t i = 0; i < n; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].type = BS_REC_ITER;
		r[i].tid = tid;
		r[i].invocations = inv[i];
		r[i].flags = inv[i] ? BS_ITER_F_INVOC : 0;
	}
}

static void test_three_benchmarks_with_repetitions(void)
{
	static const unsigned long long inv[] = {1,	  10,	   100,	    1000,    10000, 100000,
						 1000000, 2856000, 2856000, 2856000, 1,	    10,
						 100,	  1000,	   10000,   86929,   86929, 1,
						 10,	  100,	   1000,    10208,   10208, 10208};
	enum { N = sizeof(inv) / sizeof(inv[0]) };
	static const long want[N] = {-1, -1, -1, -1, -1, -1, -1, 0,  0,	 0, -1, -1,
				     -1, -1, -1, 1,  1,	 -1, -1, -1, -1, 2, 2,	2};
	struct bs_iter_rec r[N];
	long g[N];

	fill(r, N, inv, 7);
	CHECK_INT_EQ(bs_gbench_group_runs(r, N, g), 3);
	for (size_t i = 0; i < N; i++)
		CHECK_INT_EQ(g[i], want[i]);
}

/* repetitions=1, the last calibration run long enough to be the result */
static void test_single_run_per_benchmark(void)
{
	static const unsigned long long inv[] = {1, 10, 100, 1000, 1, 10, 500};
	static const long want[] = {-1, -1, -1, 0, -1, -1, 1};
	struct bs_iter_rec r[7];
	long g[7];

	fill(r, 7, inv, 1);
	CHECK_INT_EQ(bs_gbench_group_runs(r, 7, g), 2);
	for (size_t i = 0; i < 7; i++)
		CHECK_INT_EQ(g[i], want[i]);
}

/* two threads interleaved: each thread's sequence is read on its own */
static void test_threads_interleaved(void)
{
	static const unsigned long long a[] = {1, 1, 50, 50, 50, 50};
	struct bs_iter_rec r[6];
	long g[6];

	fill(r, 6, a, 1);
	r[1].tid = r[3].tid = r[5].tid = 2;
	CHECK_INT_EQ(bs_gbench_group_runs(r, 6, g), 2);
	CHECK_INT_EQ(g[0], -1);
	CHECK_INT_EQ(g[1], -1);
	CHECK(g[2] >= 0 && g[2] == g[4]);
	CHECK(g[3] >= 0 && g[3] == g[5] && g[3] != g[2]);
}

static void test_no_counts_and_empty(void)
{
	static const unsigned long long inv[] = {0, 0, 0};
	struct bs_iter_rec r[3];
	long g[3];

	fill(r, 3, inv, 1);
	CHECK_INT_EQ(bs_gbench_group_runs(r, 3, g), 0);
	for (size_t i = 0; i < 3; i++)
		CHECK_INT_EQ(g[i], -1);
	CHECK_INT_EQ(bs_gbench_group_runs(NULL, 0, NULL), 0);
	CHECK_INT_EQ(bs_gbench_group_runs(NULL, 3, g), -EINVAL);
}

int main(void)
{
	RUN_TEST(test_three_benchmarks_with_repetitions);
	RUN_TEST(test_single_run_per_benchmark);
	RUN_TEST(test_threads_interleaved);
	RUN_TEST(test_no_counts_and_empty);
	return test_summary("test_gbench_runs");
}
