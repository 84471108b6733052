/* SPDX-License-Identifier: MIT */
/*
 * test_probe_count.c - --probes 1|2|auto (probe/probe_count.h): parsing,
 * and what auto and 1 give for each kind of boundaries, against the
 * documented rules (one probe for go and a verified gbench, never where a
 * duet method needs the begin probe).
 */
#include "probe/boundary.h"
#include "probe/probe_count.h"
#include "test.h"

#include <errno.h>
#include <string.h>

static void test_parse(void)
{
	int req = 7;

	CHECK_INT_EQ(bs_probes_parse("1", &req), 0);
	CHECK_INT_EQ(req, 1);
	CHECK_INT_EQ(bs_probes_parse("2", &req), 0);
	CHECK_INT_EQ(req, 2);
	CHECK_INT_EQ(bs_probes_parse("auto", &req), 0);
	CHECK_INT_EQ(req, 0);
	CHECK_INT_EQ(bs_probes_parse("3", &req), -EINVAL);
	CHECK_INT_EQ(bs_probes_parse("", &req), -EINVAL);
	CHECK_INT_EQ(bs_probes_parse("12", &req), -EINVAL);
	CHECK_INT_EQ(req, 0); /* untouched */
}

static void test_choose(void)
{
	static struct bs_boundaries b;
	char err[512] = "";

	memset(&b, 0, sizeof(b));
	b.mode = BS_BOUND_GO;
	CHECK_INT_EQ(bs_probes_choose(&b, 0, false, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 1);
	CHECK(!strcmp(b.probes_why, "auto"));
	CHECK_INT_EQ(bs_probes_choose(&b, 2, false, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 2);
	CHECK_INT_EQ(bs_probes_choose(&b, 1, false, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 1);
	/* a duet method that stops a side at its begin */
	CHECK_INT_EQ(bs_probes_choose(&b, 0, true, "--method sync", err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 2);
	CHECK(strstr(b.probes_why, "auto: --method sync stops a side at its begin probe"));
	CHECK_INT_EQ(bs_probes_choose(&b, 1, true, "--method sync", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "--probes 1: --method sync"));
	/* a Go binary whose layout lacks b.start */
	snprintf(b.go_layout.one_probe_why, sizeof(b.go_layout.one_probe_why), "no start");
	CHECK_INT_EQ(bs_probes_choose(&b, 0, false, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 2);
	CHECK(!strcmp(b.probes_why, "auto: --preset go: no start"));
	/* gbench: only with a verified timer layout */
	memset(&b, 0, sizeof(b));
	b.mode = BS_BOUND_GBENCH;
	b.layout.version = "1.6.0";
	CHECK_INT_EQ(bs_probes_choose(&b, 1, false, NULL, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "libbenchmark 1.6.0 is not verified"));
	b.layout.off_timer = 120;
	CHECK_INT_EQ(bs_probes_choose(&b, 0, false, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 1);
	/* the others: two */
	memset(&b, 0, sizeof(b));
	b.mode = BS_BOUND_PAIR;
	CHECK_INT_EQ(bs_probes_choose(&b, 0, false, NULL, err, sizeof(err)), 0);
	CHECK_INT_EQ(b.probes, 2);
	CHECK(strstr(b.probes_why, "auto: only --preset go and gbench"));
	CHECK_INT_EQ(bs_probes_choose(&b, 1, false, NULL, err, sizeof(err)), -EINVAL);
	CHECK(!strncmp(err, "--probes 1: only --preset go and gbench", 39));
}

/* charges kept per iteration: two probes and a harness's runs for
 * iterations; in a duet only when both sides' boundaries say so (one BPF
 * object charges for both, one context names the scope) */
static void test_charges_by_iteration(void)
{
	static struct bs_boundaries gb, gb1, pair, c2;

	gb.mode = gb1.mode = BS_BOUND_GBENCH;
	gb.probes = 2;
	gb1.probes = 1;
	pair.mode = BS_BOUND_PAIR;
	pair.probes = 2;
	c2.mode = BS_BOUND_CATCH2;
	c2.probes = 2;
	CHECK(bs_boundaries_charges_by_iteration(&gb));
	CHECK(!bs_boundaries_charges_by_iteration(&gb1));
	CHECK(!bs_boundaries_charges_by_iteration(&pair));
	CHECK(bs_boundaries_charges_by_iteration(&c2));
	CHECK(bs_boundaries_pair_charges_by_iteration(&gb, NULL));
	CHECK(!bs_boundaries_pair_charges_by_iteration(&pair, NULL));
	CHECK(bs_boundaries_pair_charges_by_iteration(&gb, &c2));
	CHECK(!bs_boundaries_pair_charges_by_iteration(&gb, &pair));
	CHECK(!bs_boundaries_pair_charges_by_iteration(&pair, &gb));
	CHECK(!bs_boundaries_pair_charges_by_iteration(&gb, &gb1));
}

int main(void)
{
	RUN_TEST(test_parse);
	RUN_TEST(test_choose);
	RUN_TEST(test_charges_by_iteration);
	return test_summary("probe_count");
}
