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

int main(void)
{
	RUN_TEST(test_parse);
	RUN_TEST(test_choose);
	return test_summary("probe_count");
}
