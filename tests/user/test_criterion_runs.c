// SPDX-License-Identifier: MIT
/* test_criterion_runs - criterion.rs's warm-up runs vs samples (bs_criterion_calibration) on
 * run sequences shaped as criterion 0.3.6 makes them (the first from a real trace of
 * tests/progs/criterion_bench), with and without the probes' warm-up marks. */
#include "trace/criterion_runs.h"
#include "test.h"

#define MAXN 64

struct seq {
	struct bs_iter_rec r[MAXN];
	const struct bs_iter_rec *p[MAXN];
	bool calib[MAXN];
	size_t n;
};

/* runs with the given counts (0: no valid count); the first n_marked marked as warm-up */
static void build(struct seq *s, const unsigned long long *inv, size_t n, size_t n_marked)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		s->r[i].type = BS_REC_ITER;
		s->r[i].invocations = inv[i];
		s->r[i].flags = inv[i] ? BS_ITER_F_INVOC : BS_ITER_F_INVOC_BAD;
		if (i < n_marked)
			s->r[i].flags |= BS_ITER_F_HARNESS_WARMUP;
		s->p[i] = &s->r[i];
		s->calib[i] = i & 1; /* garbage: every entry must be written */
	}
	bs_criterion_calibration(s->p, n, s->calib, NULL);
}

/* Run i is decided the same with runs[0..i] known (and with runs[0..i+1]) as
 * with all of them: the contract of bench_groups.h's rules (`run --stop`). */
static void expect_causal(const struct seq *s)
{
	bool part[MAXN];

	for (size_t k = 1; k <= s->n; k++) {
		bs_criterion_calibration(s->p, k, part, NULL);
		for (size_t i = 0; i < k; i++)
			if (part[i] != s->calib[i])
				FAILF("run %zu decided %d with %zu runs known, %d with all %zu", i,
				      part[i], k, s->calib[i], s->n);
	}
}

/* the first `warm` runs are warm-up, the others samples */
static void expect_split(const struct seq *s, size_t warm)
{
	expect_causal(s);
	for (size_t i = 0; i < s->n; i++)
		if (s->calib[i] != (i < warm))
			FAILF("run %zu (%llu invocations): calib %d, want %d", i,
			      (unsigned long long)s->r[i].invocations, s->calib[i], i < warm);
}

/* spin_1k of tests/progs/criterion_bench: warm-up 1 .. 65536, linear samples of d = 6399 */
static const unsigned long long real_1k[] = {
    1,	   2,	  4,	 8,    16,    32,    64,    128,   256,	  512,	 1024,	2048,  4096, 8192,
    16384, 32768, 65536, 6399, 12798, 19197, 25596, 31995, 38394, 44793, 51192, 57591, 63990};

static void test_real_sequence_by_counts(void)
{
	struct seq s;

	build(&s, real_1k, sizeof(real_1k) / sizeof(real_1k[0]), 0);
	expect_split(&s, 17);
}

static void test_real_sequence_marked(void)
{
	struct seq s;

	build(&s, real_1k, sizeof(real_1k) / sizeof(real_1k[0]), 17);
	expect_split(&s, 17);
}

/* the probes' marks win over the counts: here they disagree with the pattern */
static void test_marks_decide(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 8, 100, 200, 300};
	struct seq s;

	build(&s, inv, 7, 2);
	expect_split(&s, 2);
}

/* d twice the last warm-up count: d and 2d continue the doubling and are
 * taken for warm-up by the counts (the documented limit); the marks tell */
static void test_samples_continue_the_doubling(void)
{
	static const unsigned long long inv[] = {1,  2,	 4,  8,	  16,  32,  48,
						 64, 80, 96, 112, 128, 144, 160};
	struct seq s;

	build(&s, inv, sizeof(inv) / sizeof(inv[0]), 0);
	expect_split(&s, 6);
	build(&s, inv, sizeof(inv) / sizeof(inv[0]), 4);
	expect_split(&s, 4);
}

/* d = 2 x the last warm-up count + 8: only d continues the doubling: lost */
static void test_first_sample_continues_the_doubling(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80};
	struct seq s;

	build(&s, inv, sizeof(inv) / sizeof(inv[0]), 0);
	expect_split(&s, 5); /* d = 8: 8 and 16 taken for warm-up */
	build(&s, inv, sizeof(inv) / sizeof(inv[0]), 3);
	expect_split(&s, 3);
}

/* flat sampling, with d unrelated to and equal to the last warm-up count */
static void test_flat_samples(void)
{
	static const unsigned long long a[] = {1, 2, 4, 8, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50};
	static const unsigned long long b[] = {1, 2, 4, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8};
	static const unsigned long long c[] = {1, 2, 4, 8, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16};
	struct seq s;

	build(&s, a, sizeof(a) / sizeof(a[0]), 0);
	expect_split(&s, 4);
	build(&s, b, sizeof(b) / sizeof(b[0]), 0);
	expect_split(&s, 4);
	/* flat d = twice the last warm-up count (8): by counts the first
	 * sample is taken for warm-up (the documented limit), the marks tell */
	build(&s, c, sizeof(c) / sizeof(c[0]), 0);
	expect_split(&s, 5);
	build(&s, c, sizeof(c) / sizeof(c[0]), 4);
	expect_split(&s, 4);
}

/* a slow benchmark: one or two warm-up calls, then d = 1 */
static void test_slow_benchmark(void)
{
	static const unsigned long long a[] = {1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	static const unsigned long long b[] = {1, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	struct seq s;

	build(&s, a, sizeof(a) / sizeof(a[0]), 0);
	expect_split(&s, 1);
	build(&s, b, sizeof(b) / sizeof(b[0]), 0);
	expect_split(&s, 2);
}

/* cut short during the warm-up: all warm-up */
static void test_truncated(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 8, 16, 32};
	struct seq s;

	build(&s, inv, 6, 0);
	expect_split(&s, 6);
	build(&s, inv, 6, 6);
	expect_split(&s, 6);
}

/* a run without a count is never a sample, and does not break the pattern */
static void test_uncounted_run(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 0, 8, 16, 24, 32, 40, 48, 56, 64, 72, 80};
	struct seq s;

	build(&s, inv, sizeof(inv) / sizeof(inv[0]), 0);
	for (size_t i = 0; i < s.n; i++)
		CHECK_INT_EQ(s.calib[i], i <= 5); /* 8, 16, 24, ...: d = 8, 8 and 16 lost */
	expect_causal(&s);
}

/* no criterion pattern: the doubling chain from 1 is the warm-up */
static void test_no_pattern(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 7, 3, 9, 11, 22};
	struct seq s;

	build(&s, inv, 8, 0);
	expect_split(&s, 3);  /* 11, 22 after the chain broke: samples */
	build(&s, inv, 0, 0); /* nothing: nothing written, no crash */
}

int main(void)
{
	RUN_TEST(test_real_sequence_by_counts);
	RUN_TEST(test_real_sequence_marked);
	RUN_TEST(test_marks_decide);
	RUN_TEST(test_samples_continue_the_doubling);
	RUN_TEST(test_first_sample_continues_the_doubling);
	RUN_TEST(test_flat_samples);
	RUN_TEST(test_slow_benchmark);
	RUN_TEST(test_truncated);
	RUN_TEST(test_uncounted_run);
	RUN_TEST(test_no_pattern);
	return test_summary("criterion-runs");
}
