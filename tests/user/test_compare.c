// SPDX-License-Identifier: MIT
/*
 * test_compare.c - `benchscope compare` on synthetic run traces of known
 * truth: B's "slow" benchmark is exactly 10 % slower (every value times
 * 1.1), "same" is A's data again with other noise, "gone" is only in A,
 * "new" only in B; bad input (duet, truncated, empty, no benchmark in
 * common) gives one line and exit 2; the gate exits 5.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>

#include <benchscope/stats.h>

#include "test.h"
#include "fixture_run.h"
#include "cmd_capture.h"
#include "commands.h"
#include "compare/analysis.h"
#include "pty_term.h"
#include "steps_record.h"
#include "util/monotime.h"

static const char ctx[] =
    "{\"tool\":\"benchscope\",\"version\":\"0.1\",\"kernel\":\"6.18.0-test\",\"ncpus\":2,"
    "\"clock\":\"CLOCK_MONOTONIC\",\"boundaries\":{\"kind\":\"uprobe\",\"begin\":\"b\","
    "\"end\":\"e\"}}";

/* deterministic noise in [-1, 1] */
static double noise(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return ((*s >> 8) & 0xffff) / 32767.5 - 1;
}

struct side_spec {
	unsigned runs, iters, seed;
	double slow;	   /* factor on "slow" */
	double preempted;  /* share of each iteration preempted */
	bool gone, newb;   /* write "gone" / "new" */
	bool end;	   /* write END */
	const char *names; /* NULL: "same", "slow" (+ gone/new) */
};

/* the CONTEXT write_side writes (test_steal_unknown changes it) */
static const char *side_ctx = ctx;

/* no noise: every value exactly its base (test_constant_sides) */
static bool flat;

/* one benchmark's iterations in process pid: base ns/op times factor, 100 invocations */
static int bench_iters(struct bs_trace_writer *w, const struct side_spec *sp, uint32_t pid,
		       uint64_t *t, const char *name, double base, unsigned *s)
{
	struct bs_bench_rec b = fx_bench(pid, *t, name);
	int ret = bs_trace_write_bench(w, &b);

	*t += 10;
	for (unsigned i = 0; i < sp->iters; i++) {
		double per_op = base * (1 + (flat ? 0 : 0.01 * noise(s)));
		uint64_t dur = (uint64_t)llround(per_op * 100);
		struct bs_iter_rec r = fx_run_iter(pid, i, *t, dur, 100, 0);

		r.preempted_ns = (uint64_t)(sp->preempted * (double)dur);
		r.runq_wait_ns = r.preempted_ns;
		ret |= bs_trace_write_iter(w, &r);
		*t += dur + 100;
	}
	return ret;
}

static int write_side(const char *path, const struct side_spec *sp)
{
	char err[256];
	struct bs_trace_writer *w = bs_trace_create(path, side_ctx, err, sizeof(err));
	unsigned s = sp->seed;
	uint64_t t = 1000000;
	int ret = 0;

	if (!w)
		return -1;
	for (unsigned r = 0; r < sp->runs; r++) {
		uint32_t pid = 1000 + r;

		/* a process-level offset of 0.5 %: runs differ more than iterations */
		double run_f = flat ? 1 : 1 + 0.005 * noise(&s);

		ret |= bench_iters(w, sp, pid, &t, "same", 1000 * run_f, &s);
		ret |= bench_iters(w, sp, pid, &t, "slow", 2000 * run_f * sp->slow, &s);
		if (sp->gone)
			ret |= bench_iters(w, sp, pid, &t, "gone", 500, &s);
		if (sp->newb)
			ret |= bench_iters(w, sp, pid, &t, "new", 500, &s);
	}
	if (sp->end)
		ret |= bs_trace_write_end(w, "{\"interrupted\":false}");
	ret |= bs_trace_close(w);
	return ret ? -1 : 0;
}

static char pa[512], pb[512], out[512], errp[512];

static int run(const char *const *args)
{
	return cap_run(cmd_compare, "compare", args, out, errp);
}

static json_object *row(json_object *root, const char *name)
{
	json_object *rows = json_object_object_get(root, "benchmarks");

	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *r = json_object_array_get_idx(rows, i);

		if (!strcmp(json_object_get_string(json_object_object_get(r, "name")), name))
			return r;
	}
	return NULL;
}

static double jnum(json_object *o, const char *k)
{
	json_object *v = json_object_object_get(o, k);

	return v ? json_object_get_double(v) : NAN;
}

/* 5 runs of 10 iterations a side: runs are the unit of the U test */
static void test_known_truth(void)
{
	struct side_spec a = {5, 10, 1, 1.0, 0, true, false, true, NULL};
	struct side_spec b = {5, 10, 2, 1.1, 0.05, false, true, true, NULL};
	json_object *root, *r, *ci, *u;

	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	CHECK_INT_EQ(run((const char *const[]){"--json", "-", pa, pb, NULL}), 0);
	root = json_tokener_parse(cap_slurp(out));
	CHECK(root != NULL);
	if (!root)
		return;
	r = row(root, "slow");
	CHECK(r != NULL);
	if (r) {
		ci = json_object_object_get(r, "ratio_ci");
		/* every B value is 1.1 x an A-like value with other noise */
		CHECK_NEAR(jnum(r, "ratio"), 1.1, 0.01, 0);
		CHECK(json_object_get_double(json_object_array_get_idx(ci, 0)) > 1.05);
		CHECK(json_object_get_double(json_object_array_get_idx(ci, 1)) < 1.15);
		CHECK(!strcmp(json_object_get_string(json_object_object_get(r, "verdict")),
			      "slower"));
		u = json_object_object_get(r, "u_test");
		CHECK(!strcmp(json_object_get_string(json_object_object_get(u, "unit")), "runs"));
		CHECK_INT_EQ(json_object_get_int(json_object_object_get(u, "n_a")), 5);
		/* 5 + 5 runs completely apart: exact p = 2 / C(10, 5) */
		CHECK_NEAR(jnum(u, "p"), 2.0 / 252, 1e-12, 0);
		/* B's runs are flagged: preempted 5 % of their time */
		json_object *nb = json_object_object_get(json_object_object_get(r, "noise"), "b");
		CHECK_INT_EQ(json_object_get_int(json_object_object_get(nb, "runs_flagged")), 5);
		CHECK_NEAR(jnum(nb, "max_preempted_pct"), 5, 0.01, 0);
		json_object *na = json_object_object_get(json_object_object_get(r, "noise"), "a");
		CHECK_INT_EQ(json_object_get_int(json_object_object_get(na, "runs_flagged")), 0);
	}
	r = row(root, "same");
	CHECK(r != NULL);
	if (r) {
		ci = json_object_object_get(r, "ratio_ci");
		CHECK(json_object_get_double(json_object_array_get_idx(ci, 0)) < 1);
		CHECK(json_object_get_double(json_object_array_get_idx(ci, 1)) > 1);
		CHECK(!strcmp(json_object_get_string(json_object_object_get(r, "verdict")),
			      "no_difference"));
		/* MDS: never 0, and below the 10 % this data detects */
		CHECK(jnum(r, "mds_pct") > 0 && jnum(r, "mds_pct") < 10);
	}
	CHECK(row(root, "gone") == NULL);
	CHECK(!strcmp(json_object_get_string(
			  json_object_array_get_idx(json_object_object_get(root, "only_a"), 0)),
		      "gone"));
	CHECK(!strcmp(json_object_get_string(
			  json_object_array_get_idx(json_object_object_get(root, "only_b"), 0)),
		      "new"));
	/* geomean of ~1.0 and 1.1 */
	CHECK_NEAR(jnum(json_object_object_get(root, "geomean"), "ratio"), sqrt(1.1), 0.01, 0);
	json_object_put(root);

	/* the gate: 10 % is beyond 5 %, not beyond 20 % */
	CHECK_INT_EQ(run((const char *const[]){"-q", "--fail-on-regression", "5", pa, pb, NULL}),
		     5);
	CHECK(strstr(cap_slurp(errp), "compare: slow is ") &&
	      strstr(cap_slurp(errp), "% slower (CI ["));
	CHECK_INT_EQ(run((const char *const[]){"-q", "--fail-on-regression", "20", pa, pb, NULL}),
		     0);
	/* B against A: faster, no gate */
	CHECK_INT_EQ(run((const char *const[]){"--fail-on-regression", "1", pb, pa, NULL}), 0);
	CHECK(strstr(cap_slurp(out), "B faster") != NULL);
	/* the table and CSV */
	CHECK_INT_EQ(run((const char *const[]){pa, pb, NULL}), 0);
	CHECK(strstr(cap_slurp(out), "only in A (1, not compared): gone") != NULL);
	CHECK(strstr(cap_slurp(out), "geomean (2)") != NULL);
	CHECK_INT_EQ(run((const char *const[]){"--csv", "-", pa, pb, NULL}), 0);
	CHECK_INT_EQ(cap_count_lines(cap_slurp(out)), 3);
	CHECK(strncmp(cap_slurp(out), "benchmark,unit,", 15) == 0);
}

/* one process a side: the iterations are the samples, and the output says so */
static void test_one_run(void)
{
	struct side_spec a = {1, 20, 3, 1.0, 0, false, false, true, NULL};
	struct side_spec b = {1, 20, 4, 1.1, 0, false, false, true, NULL};

	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	CHECK_INT_EQ(run((const char *const[]){pa, pb, NULL}), 0);
	CHECK(strstr(cap_slurp(out), "20+20 iters") != NULL);
	CHECK(strstr(cap_slurp(out), "variation between processes is not covered") != NULL);
	CHECK(strstr(cap_slurp(out), "B slower") != NULL);
}

/* 2 runs a side: the U test can never reach 0.05, and says how many it needs */
static void test_two_runs(void)
{
	struct side_spec a = {2, 10, 5, 1.0, 0, false, false, true, NULL};
	struct side_spec b = {2, 10, 6, 1.1, 0, false, false, true, NULL};

	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	/* no benchmark could be tested: not "0 regressions" and exit 0, but status 3 */
	CHECK_INT_EQ(run((const char *const[]){"--fail-on-regression", "1", pa, pb, NULL}), 3);
	CHECK(strstr(cap_slurp(out), "the U test needs >= 4 runs a side") != NULL);
	CHECK(strstr(cap_slurp(out), "not tested: 2 of 2 benchmarks") != NULL);
	CHECK(strstr(cap_slurp(out), "0 regressions in 0 tested benchmarks") != NULL);
	CHECK_INT_EQ(cap_count_lines(cap_slurp(errp)), 1);
	CHECK(strstr(cap_slurp(errp), "no benchmark could be tested (2 of 2") != NULL);
	/* JSON and CSV say the same: no test, not "no difference" */
	CHECK_INT_EQ(run((const char *const[]){"--json", "-", pa, pb, NULL}), 3);
	{
		json_object *root = json_tokener_parse(cap_slurp(out));
		json_object *r = root ? row(root, "slow") : NULL;

		CHECK(r != NULL);
		if (r)
			CHECK(!strcmp(json_object_get_string(json_object_object_get(r, "verdict")),
				      "no_test"));
		CHECK_INT_EQ(json_object_get_int(json_object_object_get(root, "not_tested")), 2);
		json_object_put(root);
	}
	CHECK_INT_EQ(run((const char *const[]){"--csv", "-", pa, pb, NULL}), 3);
	CHECK(strstr(cap_slurp(out), ",no_test,0,") != NULL);
	CHECK(strstr(cap_slurp(out), "no_difference") == NULL);
}

/* the problem of row name in compare --json of pa and pb, or NULL */
static const char *json_problem(const char *name)
{
	static char buf[128];
	json_object *root, *r, *p;

	buf[0] = 0;
	int rc = run((const char *const[]){"--json", "-", pa, pb, NULL});

	if (rc != 0 && rc != 3) /* 3: no row could be tested */
		return NULL;
	root = json_tokener_parse(cap_slurp(out));
	r = root ? row(root, name) : NULL;
	p = r ? json_object_object_get(r, "problem") : NULL;
	if (p)
		snprintf(buf, sizeof(buf), "%s", json_object_get_string(p));
	json_object_put(root);
	return p ? buf : NULL;
}

/* a side whose mean is 0 is named: B's as B's, not as A's */
static void test_mean_zero(void)
{
	struct side_spec a = {5, 5, 9, 1.0, 0, false, false, true, NULL};
	struct side_spec z = {5, 5, 10, 0.0, 0, false, false, true, NULL};
	const char *p;

	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &z), 0);
	p = json_problem("slow");
	if (!p || strcmp(p, "mean of B is 0"))
		FAILF("B's mean 0: problem '%s'", p ? p : "(none)");
	/* one of two tested: exit 0 with the gate, and the untested one said */
	CHECK_INT_EQ(run((const char *const[]){"--fail-on-regression", "1", pa, pb, NULL}), 0);
	CHECK(strstr(cap_slurp(out), "not tested: 1 of 2 benchmarks") != NULL);
	CHECK(strstr(cap_slurp(out), "0 regressions in 1 tested benchmark\n") != NULL);
	CHECK_INT_EQ(cap_count_lines(cap_slurp(errp)), 1);
	CHECK(strstr(cap_slurp(errp),
		     "1 of 2 benchmarks not tested: the gate covers the other 1") != NULL);
	CHECK_INT_EQ(write_side(pa, &z), 0);
	CHECK_INT_EQ(write_side(pb, &a), 0);
	p = json_problem("slow");
	if (!p || strcmp(p, "mean of A is 0"))
		FAILF("A's mean 0: problem '%s'", p ? p : "(none)");
}

/*
 * One iteration in A against 40 in B, 10 % slower: one value has no spread
 * (its CI is a point) and the U test of 1 + 40 values reaches p = 2/41 <
 * 0.05, so it said "B slower" and the gate exited 5. No verdict, with the
 * reason in the table, JSON and CSV.
 */
static void test_one_value_a_side(void)
{
	struct side_spec a = {1, 1, 11, 1.0, 0, false, false, true, NULL};
	struct side_spec b = {1, 40, 12, 1.1, 0, false, false, true, NULL};
	const char *p, *why = "A has one value: a test needs >= 2 a side";

	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	CHECK_INT_EQ(run((const char *const[]){"--fail-on-regression", "1", pa, pb, NULL}), 3);
	CHECK(strstr(cap_slurp(out), why) != NULL);
	CHECK(strstr(cap_slurp(out), "0 regressions in 0 tested benchmarks") != NULL);
	p = json_problem("slow");
	if (!p || strcmp(p, why))
		FAILF("1 + 40 values: problem '%s'", p ? p : "(none)");
	CHECK_INT_EQ(run((const char *const[]){"--csv", "-", pa, pb, NULL}), 3);
	CHECK(strstr(cap_slurp(out), ",problem\n") != NULL);
	CHECK(strstr(cap_slurp(out), ",n/a,0,0,0,A has one value: a test needs >= 2 a side\n") !=
	      NULL);
	/* B's side, and both */
	CHECK_INT_EQ(write_side(pa, &b), 0);
	CHECK_INT_EQ(write_side(pb, &a), 0);
	p = json_problem("slow");
	CHECK(p && !strcmp(p, "B has one value: a test needs >= 2 a side"));
	CHECK_INT_EQ(write_side(pa, &a), 0);
	p = json_problem("slow");
	CHECK(p && !strcmp(p, "one value a side: a test needs >= 2 a side"));
}

/*
 * Constant values on both sides: A = B printed "no difference detected" with
 * an MDS of 0.1 % (the search's first step: the CI of B/A is a point), B =
 * 1.1 A "B slower +10.00 % [+10.00, +10.00]". No test, said so. One constant
 * side against a varying one is still tested.
 */
static void test_constant_sides(void)
{
	struct side_spec a = {1, 20, 13, 1.0, 0, false, false, true, NULL};
	struct side_spec b = {1, 20, 14, 1.1, 0, false, false, true, NULL};
	const char *why = "no variation on either side (constant values): no test possible";
	const char *p;
	json_object *root, *r;

	flat = true;
	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "slow" : "same";

		p = json_problem(name);
		if (!p || strcmp(p, why))
			FAILF("%s, both sides constant: problem '%s'", name, p ? p : "(none)");
	}
	CHECK_INT_EQ(run((const char *const[]){"--fail-on-regression", "1", pa, pb, NULL}), 3);
	CHECK(strstr(cap_slurp(out), "0.1 %") == NULL);
	CHECK(strstr(cap_slurp(out), "no difference detected") == NULL);
	/* runs as the unit: 3 constant runs a side */
	a.runs = b.runs = 3;
	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	p = json_problem("same");
	CHECK(p && !strcmp(p, why));
	/* B varies: tested, and 10 % slower */
	a.runs = b.runs = 1;
	CHECK_INT_EQ(write_side(pa, &a), 0);
	flat = false;
	CHECK_INT_EQ(write_side(pb, &b), 0);
	CHECK_INT_EQ(run((const char *const[]){"--json", "-", pa, pb, NULL}), 0);
	root = json_tokener_parse(cap_slurp(out));
	r = root ? row(root, "slow") : NULL;
	CHECK(r != NULL);
	if (r)
		CHECK(!strcmp(json_object_get_string(json_object_object_get(r, "verdict")),
			      "slower"));
	json_object_put(root);
}

/* a side whose kernel had no steal accounting (CONTEXT steal_accounting
 * false) has no steal figure: null, not 0 %; the other side's is a number */
static void test_steal_unknown(void)
{
	static const char no_steal[] =
	    "{\"tool\":\"benchscope\",\"version\":\"0.1\",\"kernel\":\"6.1.0-test\",\"ncpus\":2,"
	    "\"clock\":\"CLOCK_MONOTONIC\",\"steal_accounting\":false,\"boundaries\":{\"kind\":"
	    "\"uprobe\",\"begin\":\"b\",\"end\":\"e\"}}";
	struct side_spec a = {5, 10, 31, 1.0, 0, false, false, true, NULL};
	struct side_spec b = {5, 10, 32, 1.0, 0, false, false, true, NULL};
	json_object *root, *r, *na, *nb, *v;

	side_ctx = no_steal;
	CHECK_INT_EQ(write_side(pa, &a), 0);
	side_ctx = ctx;
	CHECK_INT_EQ(write_side(pb, &b), 0);
	CHECK_INT_EQ(run((const char *const[]){"--json", "-", pa, pb, NULL}), 0);
	root = json_tokener_parse(cap_slurp(out));
	r = root ? row(root, "same") : NULL;
	CHECK(r != NULL);
	if (r) {
		na = json_object_object_get(json_object_object_get(r, "noise"), "a");
		nb = json_object_object_get(json_object_object_get(r, "noise"), "b");
		CHECK(na && nb);
		CHECK(json_object_object_get_ex(na, "max_steal_pct", &v) && v == NULL);
		CHECK(json_object_object_get_ex(nb, "max_steal_pct", &v) && v != NULL);
		CHECK(json_object_object_get_ex(na, "max_preempted_pct", &v) && v != NULL);
	}
	json_object_put(root);
}

static void test_bad_input(void)
{
	struct side_spec a = {2, 5, 7, 1.0, 0, false, false, true, NULL};
	struct side_spec none = {0, 0, 7, 1.0, 0, false, false, true, NULL};
	char dq[512];
	const char *e;

	CHECK_INT_EQ(write_side(pa, &a), 0);
	/* empty: no iteration */
	CHECK_INT_EQ(write_side(pb, &none), 0);
	CHECK_INT_EQ(run((const char *const[]){pa, pb, NULL}), 2);
	e = cap_slurp(errp);
	CHECK(strstr(e, "no measurement iteration") && cap_count_lines(e) == 1);
	/* truncated: a prefix of a trace */
	CHECK_INT_EQ(write_side(pb, &a), 0);
	fx_path(dq, sizeof(dq), "trunc.trace");
	CHECK_INT_EQ(fx_copy_prefix(pb, dq, fx_file_size(pb) * 2 / 3), 0);
	CHECK_INT_EQ(run((const char *const[]){pa, dq, NULL}), 2);
	e = cap_slurp(errp);
	CHECK(cap_count_lines(e) == 1 && strstr(e, "benchscope compare: "));
	/* not a trace at all */
	CHECK_INT_EQ(run((const char *const[]){pa, "/etc/hostname", NULL}), 2);
	CHECK_INT_EQ(cap_count_lines(cap_slurp(errp)), 1);
	/* a duet trace */
	fx_path(dq, sizeof(dq), "duet.trace");
	{
		char err[256];
		struct bs_trace_writer *w = bs_trace_create(
		    dq, "{\"tool\":\"benchscope\",\"mode\":\"duet\"}", err, sizeof(err));

		CHECK(w != NULL);
		if (w)
			bs_trace_close(w);
	}
	CHECK_INT_EQ(run((const char *const[]){pa, dq, NULL}), 2);
	e = cap_slurp(errp);
	CHECK(strstr(e, "is a duet trace") && strstr(e, "benchscope report") &&
	      cap_count_lines(e) == 1);
	/* no benchmark in common: both sets named */
	{
		struct side_spec b = {1, 3, 8, 1.0, 0, false, false, true, NULL};
		char err[256];
		struct bs_trace_writer *w = bs_trace_create(pb, ctx, err, sizeof(err));
		uint64_t t = 1000;
		unsigned s = 1;

		CHECK(w != NULL);
		if (w) {
			bench_iters(w, &b, 1, &t, "other", 100, &s);
			bs_trace_close(w);
		}
	}
	CHECK_INT_EQ(run((const char *const[]){pa, pb, NULL}), 2);
	e = cap_slurp(errp);
	CHECK(strstr(e, "no benchmark in common: A has same, slow; B has other") != NULL);
	/* usage */
	CHECK_INT_EQ(run((const char *const[]){pa, NULL}), 2);
	CHECK_INT_EQ(run((const char *const[]){"--fail-on-regression", "x", pa, pa, NULL}), 2);
	CHECK_INT_EQ(run((const char *const[]){"--json", "-", "--csv", "-", pa, pa, NULL}), 2);
	/* stdout that cannot be written: exit 1, one line */
	if (cap_full()) {
		CHECK_INT_EQ(cap_run(cmd_compare, "compare", (const char *const[]){pa, pa, NULL},
				     cap_full(), errp),
			     1);
		e = cap_slurp(errp);
		CHECK(!strcmp(e, "benchscope compare: cannot write the report to stdout: No "
				 "space left on device\n"));
	}
	/* a third trace is not silently ignored */
	CHECK_INT_EQ(run((const char *const[]){pa, pa, "c.trace", NULL}), 2);
	e = cap_slurp(errp);
	CHECK(strstr(e, "benchscope compare: unexpected argument 'c.trace'") &&
	      cap_count_lines(e) == 1);
}

/* The analysis tells its hook of each benchmark, in order, then of the end. */
static void test_steps(void)
{
	struct side_spec a = {3, 5, 1, 1.0, 0, false, false, true, NULL};
	struct side_spec b = {3, 5, 2, 1.1, 0, false, false, true, NULL};
	struct bs_dataset *ds[2] = {NULL, NULL};
	struct bs_cmp_side side[2] = {{0}};
	struct bs_cmp_result res;
	struct steps_record rec;
	struct bs_steps st = steps_record_init(&rec);
	struct bs_cmp_opts o = {.fail_pct = NAN, .n_resamples = 200, .steps = &st};
	char err[512];

	CHECK_INT_EQ(write_side(pa, &a), 0);
	CHECK_INT_EQ(write_side(pb, &b), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_INT_EQ(bs_dataset_load(i ? pb : pa, &ds[i], err, sizeof(err)), 0);
		CHECK_INT_EQ(bs_cmp_side_load(ds[i], i ? pb : pa, &side[i], err, sizeof(err)), 0);
	}
	CHECK_INT_EQ(bs_cmp_analyze(&side[0], &side[1], &o, &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(rec.n, 3);
	CHECK(steps_record_is(&rec, 0, 0, 2, "same"));
	CHECK(steps_record_is(&rec, 1, 1, 2, "slow"));
	CHECK(steps_record_is(&rec, 2, 2, 2, "(null)"));
	CHECK(res.opts.steps == NULL); /* not kept past the call */
	bs_cmp_result_free(&res);
	for (int i = 0; i < 2; i++) {
		bs_cmp_side_free(&side[i]);
		bs_dataset_free(ds[i]);
	}
}

/* 8 benchmarks "b0".."b7" of 5 runs x 10 iterations, B 2 % slower */
static int write_eight(const char *path, unsigned seed, double f)
{
	struct side_spec sp = {5, 10, seed, 1.0, 0, false, false, true, NULL};
	char err[256], name[8];
	struct bs_trace_writer *w = bs_trace_create(path, side_ctx, err, sizeof(err));
	uint64_t t = 1000000;
	int ret = 0;

	if (!w)
		return -1;
	for (unsigned r = 0; r < sp.runs; r++)
		for (int k = 0; k < 8; k++) {
			snprintf(name, sizeof(name), "b%d", k);
			ret |=
			    bench_iters(w, &sp, 1000 + r, &t, name, (1000 + 100 * k) * f, &sp.seed);
		}
	ret |= bs_trace_write_end(w, "{\"interrupted\":false}");
	ret |= bs_trace_close(w);
	return ret ? -1 : 0;
}

/*
 * The line on a terminal: compare with stderr a pseudo-terminal shows
 * "analysing benchmark N of 8: bK" with an ETA while it works, erases it
 * before it ends, and prints the same table as with stderr a file, where
 * stderr gets nothing. The work is made long enough for the line (first
 * drawn 250 ms into the count): more resamples until a run takes 0.8 s.
 */
static void test_progress_line(void)
{
	const char *args[] = {"--resamples", NULL, pa, pb, NULL};
	static char table[1 << 16];
	char n_res[32];
	long n = 2000;
	struct pty t;
	const char *s;
	size_t len;

	if (pty_open(&t))
		SKIP("no pseudo-terminal here");
	CHECK_INT_EQ(write_eight(pa, 11, 1.0), 0);
	CHECK_INT_EQ(write_eight(pb, 12, 1.02), 0);
	for (;;) {
		uint64_t t0 = bs_mono_ns();
		double took, f;

		snprintf(n_res, sizeof(n_res), "%ld", n);
		args[1] = n_res;
		CHECK_INT_EQ(run(args), 0);
		took = (double)(bs_mono_ns() - t0) / 1e9;
		if (took >= 0.8 || n >= 10000000)
			break;
		f = took > 0 ? 1.0 / took : 16; /* about 1 s next, at most 16 x */
		n = (long)((double)n * (f > 16 ? 16 : f < 2 ? 2 : f));
		n = n > 10000000 ? 10000000 : n;
	}
	/* stderr a file: the table on stdout, nothing on stderr */
	CHECK_INT_EQ(strlen(cap_slurp(errp)), 0);
	snprintf(table, sizeof(table), "%s", cap_slurp(out));
	CHECK(strstr(table, "geomean (8)") != NULL);
	/* stderr a terminal */
	CHECK_INT_EQ(cap_run(cmd_compare, "compare", args, out, t.name), 0);
	s = pty_read(&t);
	len = strlen(s);
	CHECK(strstr(s, "\r\033[K  analysing benchmark ") != NULL);
	CHECK(strstr(s, " of 8: b") != NULL && strstr(s, "s elapsed, ETA ") != NULL);
	/* erased at the end, and nothing but the line (no newline) */
	CHECK(len >= 4 && !strcmp(s + len - 4, "\r\033[K"));
	CHECK(strchr(s, '\n') == NULL);
	CHECK(!strcmp(cap_slurp(out), table));
	/* -q: no line on the terminal either */
	CHECK_INT_EQ(cap_run(cmd_compare, "compare",
			     (const char *const[]){"-q", "--resamples", n_res, pa, pb, NULL}, out,
			     t.name),
		     0);
	CHECK_INT_EQ(strlen(pty_read(&t)), 0);
	pty_close(&t);
}

int main(void)
{
	bs_stats_init();
	fx_path(pa, sizeof(pa), "a.trace");
	fx_path(pb, sizeof(pb), "b.trace");
	fx_path(out, sizeof(out), "out.txt");
	fx_path(errp, sizeof(errp), "err.txt");
	RUN_TEST(test_known_truth);
	RUN_TEST(test_one_run);
	RUN_TEST(test_two_runs);
	RUN_TEST(test_mean_zero);
	RUN_TEST(test_one_value_a_side);
	RUN_TEST(test_constant_sides);
	RUN_TEST(test_steal_unknown);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_steps);
	RUN_TEST(test_progress_line);
	fx_cleanup();
	return test_summary("user-compare");
}
