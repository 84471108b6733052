// SPDX-License-Identifier: MIT
/*
 * test_caps.c - the capability table and what needs no privileges: every
 * capability has a unique JSON key, a label and, where something depends on
 * it, the words of its refusal; the context's "degraded" line from the
 * keys a trace stores. (The probes themselves are checked against
 * independent checks by tests/kernel/test_doctor.c.)
 */
#include <json-c/json.h>

#include "test.h"
#include "probe/caps.h"
#include "trace/context.h"
#include "util/exit_status.h"

static void test_table(void)
{
	for (int i = 0; i < BS_CAP_N; i++) {
		const struct bs_cap_info *a = bs_cap_info((enum bs_cap_id)i);

		CHECK(a->key && a->key[0] && a->label && a->label[0]);
		CHECK(a->used_by && a->lacking);
		if (a->essential || a->used_by[0])
			if (!a->lacking[0])
				FAILF("capability %s has dependents but no refusal words", a->key);
		for (int j = 0; j < i; j++)
			if (!strcmp(a->key, bs_cap_info((enum bs_cap_id)j)->key))
				FAILF("capability key %s twice", a->key);
	}
	/* the run/duet needs are essential ones */
	for (int i = 0; i < 4; i++)
		CHECK(bs_cap_info(bs_caps_bpf_tracing[i])->essential);
	CHECK_INT_EQ(bs_caps_require("test", NULL, 0), 0);
}

/* Probes that need nothing: information only, never a refusal. */
static void test_info_probes(void)
{
	struct bs_cap c;
	char hv[160];

	CHECK_INT_EQ(bs_cap_probe(BS_CAP_KERNEL, &c), BS_CAP_INFO);
	CHECK(c.figure[0]);
	CHECK_INT_EQ(bs_cap_probe(BS_CAP_CPU, &c), BS_CAP_INFO);
	CHECK(c.value >= 1);
	char hv2[200];

	CHECK(bs_hypervisor_name(hv, sizeof(hv), false)[0]);
	/* the detailed form starts with the short one */
	bs_hypervisor_name(hv2, sizeof(hv2), true);
	CHECK(!strncmp(hv2, hv, strlen(hv)));
}

static void test_degraded_line(void)
{
	json_object *c = json_tokener_parse("{\"steal_accounting\":false,\"sched_info\":true}");
	json_object *ok = json_tokener_parse("{\"steal_accounting\":true,\"sched_info\":true}");
	json_object *old = json_tokener_parse("{\"kernel\":\"6.1\"}");
	json_object *both = json_tokener_parse("{\"steal_accounting\":false,\"sched_info\":false}");
	char buf[160];

	CHECK(bs_context_degraded(c, buf, sizeof(buf)) != NULL);
	CHECK(strstr(buf, "steal_ns reads 0") != NULL);
	CHECK(strstr(buf, "sched_delay_ns") == NULL);
	CHECK(bs_context_degraded(ok, buf, sizeof(buf)) == NULL);
	CHECK(bs_context_degraded(old, buf, sizeof(buf)) == NULL); /* older traces: nothing said */
	CHECK(bs_context_degraded(both, buf, sizeof(buf)) != NULL);
	CHECK(strstr(buf, "steal_ns reads 0") && strstr(buf, "sched_delay_ns reads 0"));
	json_object_put(c);
	json_object_put(ok);
	json_object_put(old);
	json_object_put(both);
}

int main(void)
{
	RUN_TEST(test_table);
	RUN_TEST(test_info_probes);
	RUN_TEST(test_degraded_line);
	return test_summary("test_caps");
}
