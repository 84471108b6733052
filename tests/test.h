/* SPDX-License-Identifier: MIT */
/*
 * test.h - the minimal test framework of benchscope's C tests.
 *
 * Each test binary defines test functions, lists them in main() with
 * RUN_TEST(fn), and returns test_summary(). A test fails through CHECK*()
 * and skips through SKIP(reason). Output: one line per failed check (file,
 * line, what differed), one line per skip with its reason, and a closing
 * line "NAME: N passed, N failed, N skipped" that tests/run-tests sums.
 */
#ifndef BENCHSCOPE_TEST_H
#define BENCHSCOPE_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed_, test_failed_, test_skipped_;
static int test_cur_failed_, test_cur_skipped_;
static const char *test_cur_name_;

/** Fail the current test with a message (does not return from it). */
#define FAILF(...)                                                                                 \
	do {                                                                                       \
		fprintf(stderr, "FAIL %s (%s:%d): ", test_cur_name_, __FILE__, __LINE__);          \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		test_cur_failed_ = 1;                                                              \
	} while (0)

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond))                                                                       \
			FAILF("%s", "check failed: " #cond);                                       \
	} while (0)

#define CHECK_INT_EQ(a, b)                                                                         \
	do {                                                                                       \
		long long a_ = (long long)(a), b_ = (long long)(b);                                \
		if (a_ != b_)                                                                      \
			FAILF("%s == %s: %lld != %lld", #a, #b, a_, b_);                           \
	} while (0)

/** |a - b| <= abs_tol + rel_tol * |b|; NaN never passes unless both NaN. */
#define CHECK_NEAR(a, b, abs_tol, rel_tol)                                                         \
	do {                                                                                       \
		double a_ = (double)(a), b_ = (double)(b);                                         \
		int ok_ =                                                                          \
		    (isnan(a_) && isnan(b_)) || fabs(a_ - b_) <= (abs_tol) + (rel_tol)*fabs(b_);   \
		if (!ok_)                                                                          \
			FAILF("%s ~ %s: %.17g vs %.17g (abs %g, rel %g)", #a, #b, a_, b_,          \
			      (double)(abs_tol), (double)(rel_tol));                               \
	} while (0)

/** Skip the current test with a reason and return from it. */
#define SKIP(...)                                                                                  \
	do {                                                                                       \
		fprintf(stderr, "SKIP %s: ", test_cur_name_);                                      \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		test_cur_skipped_ = 1;                                                             \
		return;                                                                            \
	} while (0)

/*
 * Count the current test as skipped (unless it fails), with the reason, and
 * go on: for a test whose setup ran and was checked, but whose main
 * judgement cannot be made on this run (the reason says why). The caller
 * cleans up and returns.
 */
#define SKIP_JUDGEMENT(...)                                                                        \
	do {                                                                                       \
		fprintf(stderr, "SKIP %s: ", test_cur_name_);                                      \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		test_cur_skipped_ = 1;                                                             \
	} while (0)

/* Start and close one test: reset its state, then count its outcome. */
static inline void test_begin_(const char *name)
{
	test_cur_name_ = name;
	test_cur_failed_ = test_cur_skipped_ = 0;
}

static inline void test_end_(void)
{
	if (test_cur_failed_)
		test_failed_++;
	else if (test_cur_skipped_)
		test_skipped_++;
	else
		test_passed_++;
}

#define RUN_TEST(fn)                                                                               \
	do {                                                                                       \
		test_begin_(#fn);                                                                  \
		fn();                                                                              \
		test_end_();                                                                       \
	} while (0)

static inline int test_summary(const char *suite)
{
	printf("%s: %d passed, %d failed, %d skipped\n", suite, test_passed_, test_failed_,
	       test_skipped_);
	return test_failed_ ? 1 : 0;
}

#endif
