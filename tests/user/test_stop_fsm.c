// SPDX-License-Identifier: MIT
/*
 * test_stop_fsm - Algorithm 1 state machine (stop_fsm.h): plan validation
 * (bad input), the fixed configuration, phases and bounds, short forks, and
 * a settling series stopping warmup after its slow part, not before.
 */
#include <errno.h>

#include "stop/stop_fsm.h"
#include "test.h"

static void test_plan_checks(void)
{
	struct bs_stop_plan p = bs_stop_plan_default(BS_CRIT_CV);
	char err[256];

	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), 0);
	p.wi_min = 60;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "60:50") != NULL);
	p = bs_stop_plan_default(BS_CRIT_CV);
	p.f_min = 6;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "--forks") != NULL);
	p = bs_stop_plan_default(BS_CRIT_KLD);
	p.threshold = 1;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "out of range") != NULL);
	p = bs_stop_plan_default(BS_CRIT_RCIW);
	p.threshold = 1.5;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), -EINVAL);
	p.threshold = -0.1;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), -EINVAL);
	p = bs_stop_plan_default(0);
	p.mi = 0;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), -EINVAL);
	/* CV and RCIW compare >= 2 criterion values: a window of 1 cannot; one
	 * fork may run (its vector of one value is never stable: fork 2 follows) */
	for (int c = BS_CRIT_CV; c <= BS_CRIT_KLD; c++) {
		p = bs_stop_plan_default(c);
		p.f_min = 1;
		CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), 0);
		p = bs_stop_plan_default(c);
		p.window = 1;
		CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)),
			     c == BS_CRIT_KLD ? 0 : -EINVAL);
		if (c != BS_CRIT_KLD)
			CHECK(strstr(err, "--window >= 2 (got 1)") != NULL);
	}
	p = bs_stop_plan_default(0);
	p.f_min = p.f_max = 1;
	p.window = 1;
	CHECK_INT_EQ(bs_stop_plan_check(&p, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_stop_crit_parse("rciw"), BS_CRIT_RCIW);
	CHECK_INT_EQ(bs_stop_crit_parse("none"), 0);
	CHECK_INT_EQ(bs_stop_crit_parse("foo"), -1);
}

static void test_fixed_configuration(void)
{
	struct bs_stop_plan p = bs_stop_plan_default(0);
	struct bs_stop_fsm f;
	size_t n_warm = 0, n_meas = 0, forks = 0;

	p.wi_min = p.wi_max = 3;
	p.mi = 4;
	p.f_min = p.f_max = 2;
	CHECK_INT_EQ(bs_stop_fsm_init(&f, &p), 0);
	while (!f.done) {
		CHECK_INT_EQ(bs_stop_fsm_fork_begin(&f), 0);
		forks++;
		while (f.phase != BS_PHASE_AFTER) {
			int ph = bs_stop_fsm_iter(&f, 100, NULL);

			n_warm += ph == BS_PHASE_WARMUP;
			n_meas += ph == BS_PHASE_MEASURE;
		}
		CHECK_INT_EQ(bs_stop_fsm_iter(&f, 100, NULL), BS_PHASE_AFTER);
		CHECK(!bs_stop_fsm_short(&f));
		CHECK_INT_EQ(bs_stop_fsm_fork_end(&f, NULL), 0);
	}
	CHECK_INT_EQ(forks, 2);
	CHECK_INT_EQ(n_warm, 6);
	CHECK_INT_EQ(n_meas, 8);
	CHECK_INT_EQ(f.n_checkpoints, 0);
	CHECK_INT_EQ(bs_stop_fsm_fork_begin(&f), -EINVAL);
	bs_stop_fsm_free(&f);
}

/* k slow iterations then steady with 0.1 % noise: warmup ends in [k + 1, k + window + 1]. */
static void test_settle_stops_after_k(void)
{
	static const int crits[] = {BS_CRIT_CV, BS_CRIT_RCIW};

	for (size_t c = 0; c < 2; c++)
		for (size_t k = 3; k <= 20; k += 17) {
			struct bs_stop_plan p = bs_stop_plan_default(crits[c]);
			struct bs_stop_fsm f;
			struct bs_stop_decision d;
			size_t i = 0, stopped_at = 0;

			CHECK_INT_EQ(bs_stop_fsm_init(&f, &p), 0);
			bs_stop_fsm_fork_begin(&f);
			while (f.phase == BS_PHASE_WARMUP) {
				double v = i < k ? 3000.0 + 100.0 * (double)(k - i)
						 : 1000.0 * (1 + 0.001 * ((i * 7) % 3 - 1.0));

				i++;
				bs_stop_fsm_iter(&f, v, &d);
				if (d.made && d.stable)
					stopped_at = i;
				if (i >= p.wi_min && i <= p.window)
					CHECK(d.made && d.n_values == 0 && !d.stable);
			}
			CHECK(f.warmup_stable);
			CHECK_INT_EQ(stopped_at, f.wi);
			if (stopped_at <= k || stopped_at > k + p.window + 1)
				FAILF("%s k=%zu: warmup stopped after %zu",
				      bs_stop_crit_name(crits[c]), k, stopped_at);
			bs_stop_fsm_free(&f);
		}
}

static void test_short_fork_and_bounds(void)
{
	struct bs_stop_plan p = bs_stop_plan_default(BS_CRIT_CV);
	struct bs_stop_fsm f;
	struct bs_stop_decision d;

	p.wi_max = 10;
	p.f_max = 2;
	CHECK_INT_EQ(bs_stop_fsm_init(&f, &p), 0);
	/* fork 1: never stable (alternating 1x / 2x): warmup bound, then 3 of 10 measurements */
	bs_stop_fsm_fork_begin(&f);
	for (int i = 0; i < 10; i++) {
		bs_stop_fsm_iter(&f, i % 2 ? 2000 : 1000, &d);
		if (i == 9)
			CHECK(d.made && d.bound && !d.stable);
	}
	CHECK_INT_EQ(f.phase, BS_PHASE_MEASURE);
	CHECK(!f.warmup_stable);
	for (int i = 0; i < 3; i++)
		bs_stop_fsm_iter(&f, 1000, NULL);
	CHECK(bs_stop_fsm_short(&f));
	CHECK_INT_EQ(bs_stop_fsm_fork_end(&f, &d), 0);
	CHECK(!d.made); /* before f_min */
	CHECK(!f.done);
	/* fork 2: ends in warmup: no measurement; f_max reached */
	CHECK_INT_EQ(bs_stop_fsm_fork_begin(&f), 0);
	bs_stop_fsm_iter(&f, 1000, NULL);
	CHECK(bs_stop_fsm_short(&f));
	CHECK_INT_EQ(bs_stop_fsm_fork_end(&f, &d), 0);
	CHECK(!d.made);
	CHECK(f.done);
	bs_stop_fsm_free(&f);
}

/*
 * --stop cv --measure 1, default forks 2:5: fork 1's one value has no CV,
 * so after fork 2 the fork vector holds one CV, which is no stability
 * (it was: a range of 0); after fork 3 two CVs within t stop the forks.
 */
static void test_measure_one(void)
{
	struct bs_stop_plan p = bs_stop_plan_default(BS_CRIT_CV);
	struct bs_stop_fsm f;
	struct bs_stop_decision d;
	static const double v[] = {1000, 1000.1, 1000.05};

	p.wi_min = p.wi_max = 0;
	p.mi = 1;
	CHECK_INT_EQ(bs_stop_fsm_init(&f, &p), 0);
	for (int k = 0; k < 3 && !f.done; k++) {
		CHECK_INT_EQ(bs_stop_fsm_fork_begin(&f), 0);
		bs_stop_fsm_iter(&f, v[k], NULL);
		CHECK_INT_EQ(bs_stop_fsm_fork_end(&f, &d), 0);
		if (k == 1) {
			CHECK(d.made && d.n_values == 1);
			if (d.stable)
				FAILF("fork 2: one CV (%g) called stable", d.values[0]);
		}
	}
	CHECK_INT_EQ(f.fork, 3);
	CHECK(f.done && f.forks_stable);
	bs_stop_fsm_free(&f);
}

int main(void)
{
	RUN_TEST(test_plan_checks);
	RUN_TEST(test_fixed_configuration);
	RUN_TEST(test_settle_stops_after_k);
	RUN_TEST(test_short_fork_and_bounds);
	RUN_TEST(test_measure_one);
	return test_summary("stop-fsm");
}
