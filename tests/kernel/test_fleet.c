// SPDX-License-Identifier: MIT
/*
 * test_fleet - `benchscope merge` and `report` on recorded traces: three
 * `benchscope run` traces of the ground-truth harness iter_loop (30
 * iterations of 1 ms CPU) stand for three machines; the fleet keeps every
 * member's records, and the report gives one benchmark over three
 * machines, each member's row, and the noise table.
 */
#include "ktest.h"

#define BENCHSCOPE kpath("benchscope")
#define ITER_LOOP  kpath("progs/iter_loop")

static char sym_iter[4200];

static void test_merge_and_report_recorded(void)
{
	char traces[3][256], fleet[256], json[256];
	size_t iters[3] = {0};
	struct kresult r;

	NEED_BPF();
	/* ktmp's names rotate: keep copies */
	snprintf(fleet, sizeof(fleet), "%s", ktmp("fleet.trace"));
	snprintf(json, sizeof(json), "%s", ktmp("fleet.json"));
	for (int m = 0; m < 3; m++) {
		char name[32];
		struct bs_dataset *ds;

		snprintf(name, sizeof(name), "m%d.trace", m);
		snprintf(traces[m], sizeof(traces[m]), "%s", ktmp(name));
		char *argv[] = {(char *)BENCHSCOPE, "run", "-q",      "--iter",
				sym_iter,	    "-o",  traces[m], "--",
				(char *)ITER_LOOP,  "30",  "1000",    NULL};

		ds = krun_ok(&r, argv, traces[m]);
		if (!ds)
			return;
		iters[m] = ds->n_iters;
		CHECK_INT_EQ(ds->n_iters, 30);
		bs_dataset_free(ds);
	}
	char *margv[] = {(char *)BENCHSCOPE, "merge", traces[0], traces[1],
			 traces[2],	     "-o",    fleet,	 NULL};

	krun(&r, margv);
	CHECK_INT_EQ(r.exit_code, 0);
	CHECK(strstr(r.out, "merged 3 run traces") != NULL);

	char *rargv[] = {(char *)BENCHSCOPE, "report", fleet, "--json", json, NULL};
	json_object *o = krun_json(&r, rargv, json);

	if (!o)
		goto out;
	CHECK_INT_EQ(bs_json_int(o, "members", 0), 3);
	json_object *bs = bs_json_get(o, "benchmarks"), *b0 = json_object_array_get_idx(bs, 0);
	json_object *pm = bs_json_get(b0, "per_member"), *comb = bs_json_get(b0, "combined");

	CHECK_INT_EQ((long)json_object_array_length(bs), 1);
	CHECK_INT_EQ(bs_json_int(b0, "machines", 0), 3);
	CHECK_INT_EQ((long)json_object_array_length(pm), 3);
	CHECK(comb != NULL);
	double lo = 1e300, hi = 0;

	for (size_t m = 0; m < 3 && m < json_object_array_length(pm); m++) {
		json_object *c = json_object_array_get_idx(pm, m);
		double pt = json_object_get_double(bs_json_get(bs_json_get(c, "ci"), "point"));

		CHECK_INT_EQ(bs_json_int(c, "iterations", 0), (long)iters[m]);
		CHECK_INT_EQ(bs_json_int(c, "runs", 0), 1);
		/* 1 ms of CPU per iteration: never less */
		CHECK(pt >= 1e6);
		lo = pt < lo ? pt : lo;
		hi = pt > hi ? pt : hi;
	}
	double cp = json_object_get_double(bs_json_get(comb, "point"));

	CHECK(cp >= lo && cp <= hi);
	CHECK_INT_EQ((long)json_object_array_length(bs_json_get(o, "machines")), 3);
	json_object_put(o);
out:
	for (int m = 0; m < 3; m++)
		unlink(traces[m]);
	unlink(fleet);
}

int main(void)
{
	snprintf(sym_iter, sizeof(sym_iter), "%s:bs_iteration", ITER_LOOP);
	RUN_TEST(test_merge_and_report_recorded);
	return test_summary("kernel-fleet");
}
