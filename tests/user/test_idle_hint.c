/* SPDX-License-Identifier: MIT */
/*
 * test_idle_hint.c - bs_boundaries_idle_hint (probe/boundary.h): a preset's
 * usual reason for no measured iteration is given when the command lacks
 * what asks the harness for benchmarks, and only then.
 */
#include "probe/boundary.h"
#include "test.h"

#include <string.h>

static const char *hint(enum bs_bound_mode mode, char *const cmd[])
{
	static struct bs_boundaries b;

	memset(&b, 0, sizeof(b));
	b.mode = mode;
	return bs_boundaries_idle_hint(&b, cmd);
}

static void test_go(void)
{
	char *none[] = {"./x.test", "-test.run=^TestA$", NULL};
	char *bench[] = {"./x.test", "-test.run=^$", "-test.bench=.", NULL};
	char *dashdash[] = {"./x.test", "--test.bench", ".", NULL};
	const char *h = hint(BS_BOUND_GO, none);

	CHECK(h && strstr(h, "no -test.bench") && strstr(h, "-test.bench=."));
	CHECK(hint(BS_BOUND_GO, bench) == NULL);
	CHECK(hint(BS_BOUND_GO, dashdash) == NULL);
	/* the program's own name is not an argument */
	CHECK(hint(BS_BOUND_GO, (char *[]){"-test.bench", NULL}) != NULL);
}

static void test_criterion_and_catch2(void)
{
	char *crit[] = {"./benches", NULL}, *crit_bench[] = {"./benches", "--bench", NULL};
	char *c2[] = {"./tests", "--benchmark-samples", "20", NULL};
	char *c2_tag[] = {"./tests", "[!benchmark]", NULL};

	CHECK(hint(BS_BOUND_CRITERION, crit) && strstr(hint(BS_BOUND_CRITERION, crit), "--bench"));
	CHECK(hint(BS_BOUND_CRITERION, crit_bench) == NULL);
	CHECK(hint(BS_BOUND_CATCH2, c2) && strstr(hint(BS_BOUND_CATCH2, c2), "[!benchmark]"));
	CHECK(hint(BS_BOUND_CATCH2, c2_tag) == NULL);
}

/* presets without a usual reason, and no command at all */
static void test_none(void)
{
	char *cmd[] = {"./bench", NULL};

	CHECK(hint(BS_BOUND_GBENCH, cmd) == NULL);
	CHECK(hint(BS_BOUND_PAIR, cmd) == NULL);
	CHECK(hint(BS_BOUND_PROCESS, cmd) == NULL);
	CHECK(hint(BS_BOUND_GO, NULL) != NULL);
}

int main(void)
{
	RUN_TEST(test_go);
	RUN_TEST(test_criterion_and_catch2);
	RUN_TEST(test_none);
	return test_summary("idle_hint");
}
