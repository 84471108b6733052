// SPDX-License-Identifier: MIT
/* test_noise_verdict.c - the noise check's judgement (noise/verdict.h) on
 * synthetic loop times whose truth is known: steady independent CPUs at
 * one speed, a CPU the host runs 1.6x slower, coupled CPUs, one CPU. */
#include "test.h"

#include <errno.h>
#include <string.h>

#include "noise/verdict.h"

#define NS 200

static double buf[4][2][NS];

/* CPU k: NS loop times around base ns (alone) and base * busy_factor
 * (all busy), with a deterministic +-1 % ripple and every 50th sample
 * `spike` times longer */
static void fill(struct bs_noise_cpu *c, int k, double base, double busy_factor, double spike)
{
	memset(c, 0, sizeof(*c));
	c->cpu = k;
	for (int ph = 0; ph < 2; ph++) {
		double b = ph ? base * busy_factor : base;

		for (int i = 0; i < NS; i++)
			buf[k][ph][i] =
			    b * (1 + 0.01 * ((i * 7) % 5 - 2) / 2.0) * (i % 50 == 49 ? spike : 1);
	}
	c->alone = (struct bs_noise_phase){.ns = buf[k][0], .n = NS};
	c->busy = (struct bs_noise_phase){.ns = buf[k][1], .n = NS};
}

static void test_designs(void)
{
	struct bs_noise_cpu c[3];
	struct bs_noise_verdict v;

	/* steady, independent, one speed: a parallel duet on them */
	fill(&c[0], 0, 2e6, 1.0, 1.0);
	fill(&c[1], 1, 2e6, 1.01, 1.0);
	CHECK_INT_EQ(bs_noise_judge(c, 2, NULL, &v), 0);
	CHECK_INT_EQ(v.design, BS_NOISE_PARALLEL);
	CHECK(v.cpu_a == 0 && v.cpu_b == 1);
	CHECK_INT_EQ((int)v.n_pairs, 1);
	CHECK(v.pairs[0].independent && v.pairs[0].same_speed);
	CHECK_NEAR(c[1].coupling, 1.01, 1e-9, 0);
	CHECK(!c[0].coupled && !c[0].unsteady);
	bs_noise_verdict_free(&v);

	/* the host runs CPU 1 1.6x slower when both are busy: coupled, one CPU */
	fill(&c[1], 1, 2e6, 1.6, 1.0);
	CHECK_INT_EQ(bs_noise_judge(c, 2, NULL, &v), 0);
	CHECK_INT_EQ(v.design, BS_NOISE_ONE_CPU);
	CHECK(c[1].coupled && !c[0].coupled);
	CHECK_NEAR(v.pairs[0].speed_ratio, 1.6, 0, 0.01);
	CHECK(!v.pairs[0].independent && !v.pairs[0].same_speed);
	CHECK(v.cpu_a == v.cpu_b);
	CHECK(strstr(v.why, "1.60x") != NULL);
	bs_noise_verdict_free(&v);

	/* three CPUs: 0 spiky (every 50th loop 3x: p95 unaffected), 1 and 2
	 * steady; the pair 1-2 is as good as 0-1: the first best is kept */
	fill(&c[0], 0, 2e6, 1.0, 3.0);
	fill(&c[1], 1, 2e6, 1.0, 1.0);
	fill(&c[2], 2, 2e6, 1.2, 1.0);
	CHECK_INT_EQ(bs_noise_judge(c, 3, NULL, &v), 0);
	CHECK_INT_EQ((int)v.n_pairs, 3);
	CHECK_INT_EQ(v.design, BS_NOISE_PARALLEL);
	CHECK(v.cpu_a == 0 && v.cpu_b == 1);
	CHECK(c[2].coupled);
	bs_noise_verdict_free(&v);

	/* one CPU: the sides can only take turns */
	CHECK_INT_EQ(bs_noise_judge(c + 1, 1, NULL, &v), 0);
	CHECK_INT_EQ(v.design, BS_NOISE_SEQUENTIAL);
	CHECK(v.cpu_a == 1 && v.cpu_b == 1);
	bs_noise_verdict_free(&v);
	CHECK(!strcmp(bs_noise_design_name(BS_NOISE_ONE_CPU), "one-cpu"));
}

/* unsteady CPUs (p95 20 % above the median) are not recommended in
 * parallel; the steadier one hosts both sides */
static void test_unsteady(void)
{
	struct bs_noise_cpu c[2];
	struct bs_noise_verdict v;

	fill(&c[0], 0, 2e6, 1.0, 1.0);
	fill(&c[1], 1, 2e6, 1.0, 1.0);
	for (int i = 0; i < NS; i += 10)
		buf[0][0][i] *= 1.2; /* 10 % of CPU 0's lone loops 20 % slower */
	CHECK_INT_EQ(bs_noise_judge(c, 2, NULL, &v), 0);
	CHECK(c[0].unsteady && !c[1].unsteady);
	CHECK_INT_EQ(v.design, BS_NOISE_ONE_CPU);
	CHECK_INT_EQ(v.cpu_a, 1);
	bs_noise_verdict_free(&v);
}

/* On a virtual machine a steady, independent pair is held back: the host
 * may slow one vCPU later, unseen; both sides go to the steadiest CPU, the
 * pair is named. A pair that fails the tests is judged as on bare metal. */
static void test_virtual(void)
{
	struct bs_noise_cpu c[2];
	struct bs_noise_verdict v;

	fill(&c[0], 0, 2e6, 1.0, 1.0);
	fill(&c[1], 1, 2e6, 1.01, 1.0);
	for (int i = 0; i < NS; i += 10)
		buf[0][1][i] *= 1.05; /* CPU 0 a little less steady: CPU 1 is the host */
	CHECK_INT_EQ(bs_noise_judge(c, 2, "PVM", &v), 0);
	CHECK_INT_EQ(v.design, BS_NOISE_ONE_CPU);
	CHECK(v.held_back);
	CHECK(v.held_a == 0 && v.held_b == 1);
	CHECK(v.cpu_a == 1 && v.cpu_b == 1);
	CHECK(strstr(v.why, "under PVM") != NULL);
	CHECK(strstr(v.why, "CPUs 0 and 1 ran at one speed (1.01x)") != NULL);
	bs_noise_verdict_free(&v);

	fill(&c[1], 1, 2e6, 1.6, 1.0);
	CHECK_INT_EQ(bs_noise_judge(c, 2, "PVM", &v), 0);
	CHECK_INT_EQ(v.design, BS_NOISE_ONE_CPU);
	CHECK(!v.held_back);
	CHECK(strstr(v.why, "1.60x") != NULL);
	bs_noise_verdict_free(&v);
}

static void test_bad_input(void)
{
	struct bs_noise_cpu c[1];
	struct bs_noise_verdict v;

	fill(&c[0], 0, 2e6, 1.0, 1.0);
	c[0].busy.n = 1;
	CHECK_INT_EQ(bs_noise_judge(c, 1, NULL, &v), -EINVAL);
	fill(&c[0], 0, 2e6, 1.0, 1.0);
	buf[0][1][3] = 0;
	CHECK_INT_EQ(bs_noise_judge(c, 1, NULL, &v), -EINVAL);
	CHECK_INT_EQ(bs_noise_judge(NULL, 1, NULL, &v), -EINVAL);
	CHECK_INT_EQ(bs_noise_judge(c, 0, NULL, &v), -EINVAL);
}

int main(void)
{
	RUN_TEST(test_designs);
	RUN_TEST(test_unsteady);
	RUN_TEST(test_virtual);
	RUN_TEST(test_bad_input);
	return test_summary("noise-verdict");
}
