/* SPDX-License-Identifier: MIT */
/*
 * waste_fixture.h - a complete summary of a `benchscope waste` run, with
 * the members waste/output.c writes (values chosen so that each can be told
 * apart), for the waste tests, and the text report of a result.
 */
#ifndef BENCHSCOPE_TESTS_WASTE_FIXTURE_H
#define BENCHSCOPE_TESTS_WASTE_FIXTURE_H

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

#include "waste/report.h"

/** The summary of a soft-source run without a baseline; the caller puts it. */
static inline json_object *wfx_summary(void)
{
	static const char *const counts[] = {"samples",
					     "samples_access",
					     "armed",
					     "reservoir_drops",
					     "unreadable",
					     "arm_errors",
					     "hits",
					     "resolved_hits",
					     "unresolved",
					     "noself",
					     "stale_hits",
					     "undecoded",
					     "threads",
					     "processes",
					     "unstuck",
					     "gone_early",
					     "kernel_samples",
					     "busy_skips",
					     "extra_traps",
					     "lost",
					     "threads_unfollowed",
					     "processes_unfollowed",
					     "stops_late"};
	json_object *s = json_object_new_object(), *ov = json_object_new_object();
	unsigned i;

	json_object_object_add(s, "command", json_object_new_string("./prog 1"));
	json_object_object_add(s, "source", json_object_new_string("soft"));
	json_object_object_add(s, "period_ns", json_object_new_double(4e6));
	json_object_object_add(s, "final_period_ns", json_object_new_double(5e6));
	json_object_object_add(s, "period", json_object_new_uint64(4000000));
	json_object_object_add(s, "final_period", json_object_new_uint64(5000000));
	json_object_object_add(s, "kinds", json_object_new_string("dead-store,silent-load"));
	json_object_object_add(s, "debug_registers", json_object_new_int(3));
	json_object_object_add(s, "freeze", json_object_new_boolean(1));
	json_object_object_add(s, "fp_tolerance", json_object_new_double(0.01));
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) /* samples 4, then 5, 6... */
		json_object_object_add(s, counts[i], json_object_new_uint64(4 + i));
	json_object_object_add(s, "exit_code", json_object_new_int(0));
	json_object_object_add(s, "stray_traps", json_object_new_int(0));
	json_object_object_add(ov, "run_ns", json_object_new_double(2.5e9));
	json_object_object_add(ov, "baseline_ns", NULL);
	json_object_object_add(ov, "ratio", NULL);
	json_object_object_add(ov, "trap_ns", json_object_new_double(1500));
	json_object_object_add(ov, "sample_ns", json_object_new_double(40000));
	json_object_object_add(ov, "handling_ns", json_object_new_double(2000));
	json_object_object_add(ov, "traps", json_object_new_double(100));
	json_object_object_add(ov, "budget_pct", json_object_new_double(5));
	json_object_object_add(ov, "estimated_pct", json_object_new_double(1.25));
	json_object_object_add(ov, "maxrss_kib", json_object_new_int64(2048));
	json_object_object_add(ov, "baseline_maxrss_kib", json_object_new_int64(0));
	json_object_object_add(ov, "tool_maxrss_kib", json_object_new_int64(9000));
	json_object_object_add(s, "overhead", ov);
	return s;
}

/** bs_waste_print(@r, top 10, depth 6) as a string to free, or NULL. */
static inline char *wfx_printed(const struct bs_waste_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	bs_waste_print(f, r, 10, 6);
	fclose(f);
	return buf;
}

#endif
