// SPDX-License-Identifier: MIT
/* test_render.c - summary figures and every renderer, on the run of
 * fixture_run.h whose figures are computed by hand there. */
#include <errno.h>
#include <math.h>

#include <json-c/json.h>

#include "test.h"
#include "fixture_run.h"
#include "benchscope/stats.h"
#include "trace/dataset.h"
#include "report/iter_cols.h"
#include "report/render.h"
#include "report/report_doc.h"
#include "report/summary.h"
#include "util/units.h"

/* The run of fixture_run.h written and loaded back; NULL (the current test
 * failed, with the reason) when either fails: the test wrote the trace
 * itself, so that is a fault, not a reason to skip. */
static struct bs_dataset *load_run(void)
{
	char path[300], err[256] = "";
	struct bs_dataset *ds = NULL;

	fx_path(path, sizeof(path), "run.trace");
	if (fx_write_run(path)) {
		FAILF("cannot write the run trace %s", path);
		return NULL;
	}
	if (bs_dataset_load(path, &ds, err, sizeof(err))) {
		FAILF("cannot load the run trace %s: %s", path, err);
		return NULL;
	}
	return ds;
}

/* Render into a string with @fn. */
static char *capture(int (*fn)(FILE *, const void *, const void *), const void *a, const void *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (fn(f, a, b))
		fprintf(stderr, "renderer failed\n");
	fclose(f);
	return buf;
}

static int table_fn(FILE *f, const void *doc, const void *unused)
{
	return bs_render_table(f, doc);
}

static int md_fn(FILE *f, const void *doc, const void *unused)
{
	return bs_render_md(f, doc);
}

static int csv_fn(FILE *f, const void *ds, const void *unused)
{
	return bs_render_csv(f, ds);
}

static int json_fn(FILE *f, const void *ds, const void *s)
{
	return bs_render_json(f, ds, s);
}

static void test_units(void)
{
	char b[32];

	CHECK(strcmp(bs_fmt_ns(812, b, sizeof(b)), "812.0 ns") == 0);
	CHECK(strcmp(bs_fmt_ns(0, b, sizeof(b)), "0 ns") == 0);
	CHECK(strcmp(bs_fmt_ns(1.5, b, sizeof(b)), "1.500 ns") == 0);
	CHECK(strcmp(bs_fmt_ns(1234567, b, sizeof(b)), "1.235 ms") == 0);
	CHECK(strcmp(bs_fmt_ns(12345678901.0, b, sizeof(b)), "12.35 s") == 0);
	CHECK(strcmp(bs_fmt_ns(999999.9, b, sizeof(b)), "1.000 ms") == 0);
	CHECK(strcmp(bs_fmt_ns(NAN, b, sizeof(b)), "n/a") == 0);
	CHECK(strcmp(bs_fmt_pct(0.012345, b, sizeof(b)), "1.23 %") == 0);
	CHECK_INT_EQ(bs_text_width("µs x"), 4);
	{
		char raw[BS_COMM_LEN] = {'a', '\x1b', '[', '2', 'J', (char)0xc3, 'z'}, out[32];

		CHECK(strcmp(bs_comm_text(raw, BS_COMM_LEN, out), "a?[2J?z") == 0);
		memset(raw, 'x', sizeof(raw)); /* no NUL: stops at n */
		CHECK_INT_EQ(strlen(bs_comm_text(raw, BS_COMM_LEN, out)), BS_COMM_LEN);
	}
}

/* Every summary figure against the values computed by hand in fixture_run.h. */
static void test_summary_values(void)
{
	struct bs_dataset *ds = load_run();
	struct bs_run_summary s;

	if (!ds)
		return; /* load_run failed the test */
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK_INT_EQ(s.n_iters_total, 9);
	CHECK_INT_EQ(s.n_warmup, 1);
	CHECK_INT_EQ(s.overall.n_iters, 8);
	CHECK_NEAR(s.overall.duration.mean, 4375, 1e-9, 0);
	CHECK_NEAR(s.overall.duration.median, 4500, 1e-9, 0);
	CHECK_NEAR(s.overall.duration.min, 1000, 0, 0);
	CHECK_NEAR(s.overall.duration.max, 10000, 0, 0);
	CHECK_NEAR(s.overall.duration.mean_trimmed, 4000, 1e-9, 0);
	CHECK(s.overall.has_per_op);
	CHECK_INT_EQ(s.overall.invocations, 5 * 10 + 3 * 50);
	/* per op: 100 200 300 400 1000 100 100 100 -> mean 287.5 */
	CHECK_NEAR(s.overall.per_op.mean, 287.5, 1e-9, 0);
	CHECK_INT_EQ(s.n_procs, 2);
	CHECK_INT_EQ(s.procs[0].pid, 100);
	CHECK(strcmp(s.procs[0].comm, "bench") == 0);
	CHECK_INT_EQ(s.procs[0].n_iters, 5);
	CHECK_NEAR(s.procs[0].duration.mean, 4000, 1e-9, 0);
	CHECK_NEAR(s.procs[0].duration.median, 3000, 1e-9, 0);
	/* sd: squares of deviations 9e6 4e6 1e6 0 36e6 = 50e6 over 4 -> sqrt(12.5e6) */
	CHECK_NEAR(s.procs[0].duration.sd, sqrt(12.5e6), 1e-9, 1e-12);
	CHECK_NEAR(s.procs[0].duration.cv, sqrt(12.5e6) / 4000, 1e-12, 1e-12);
	CHECK_NEAR(s.procs[0].duration.mean_trimmed, 3000, 1e-9, 0);
	CHECK_NEAR(s.procs[0].per_op.mean, 400, 1e-9, 0);
	CHECK_INT_EQ(s.procs[1].pid, 200);
	CHECK_NEAR(s.procs[1].duration.sd, 0, 1e-12, 0);
	CHECK_INT_EQ(s.overall.intf.wall_ns, 35000);
	CHECK_INT_EQ(s.overall.intf.preempted_ns, 500);
	CHECK_INT_EQ(s.overall.intf.runq_wait_ns, 1000);
	CHECK_INT_EQ(s.overall.intf.nivcsw, 5);
	CHECK_INT_EQ(s.n_interferers, 2);
	CHECK_INT_EQ(s.n_top, 2);
	CHECK_INT_EQ(s.top[0].tid, 555);
	CHECK_INT_EQ(s.top[0].ns, 4000);
	/* its part of the 4.5 us charged, not of the iterations' wall time: the
	 * charges cover more than the iterations analysed */
	CHECK_NEAR(s.top[0].of_total, 4000.0 / 4500.0, 1e-15, 0);
	CHECK(strcmp(s.top[1].comm, "kworker/0:1") == 0);
	CHECK_INT_EQ(s.interferer_ns, 4500);
	CHECK_NEAR(s.perturbation, 100.0 / 4500.0, 1e-15, 0);
	CHECK(s.has_lost);
	CHECK_INT_EQ(s.lost_total, 1);
	CHECK(s.n_warnings >= 2);
	CHECK(strstr(s.warnings[0], "2.22 % of the median iteration (4.500 µs)") != NULL);
	bs_run_summary_free(&s);

	/* top_n cuts the list; summary of an empty dataset is not an error */
	CHECK_INT_EQ(bs_run_summarize(ds, 1, &s), 0);
	CHECK_INT_EQ(s.n_top, 1);
	bs_run_summary_free(&s);
	ds->n_iters = 0;
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK_INT_EQ(s.overall.has_duration, 0);
	CHECK(isnan(s.perturbation));
	CHECK(strstr(s.warnings[0], "no iteration was recorded") != NULL);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/*
 * Charges kept per iteration (boundaries.charges "iteration"): the summary
 * sums those of the iterations it analyses. The fixture's interferers
 * become: 555 -> 100's warmup iteration 0 (3000, left out), 556 -> 100's
 * iteration 1 (500), 555 -> 200's iteration 0 (1000); so 1500 in all, 555
 * first with 1000. Without the key (traces before it) the bytes are not
 * read: 4500 as before.
 */
static void test_charges_per_iteration(void)
{
	struct bs_dataset *ds = load_run();
	struct bs_run_summary s;
	struct bs_doc *doc;
	char *t;

	if (!ds)
		return; /* load_run failed the test */
	CHECK_INT_EQ(ds->n_interferers, 3);
	ds->interferers[0].victim_iter = 0;
	ds->interferers[1].victim_iter = 1;
	ds->interferers[2].victim_iter = 0;
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK_INT_EQ(s.interferer_ns, 4500);
	bs_run_summary_free(&s);

	ds->run_ctx.charges_by_iteration = true;
	CHECK_INT_EQ(bs_run_context_charge_scope(&ds->run_ctx), BS_CHARGES_ANALYSED);
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK_INT_EQ(s.interferer_ns, 1500);
	CHECK_INT_EQ(s.n_interferers, 2);
	CHECK_INT_EQ(s.top[0].tid, 555);
	CHECK_INT_EQ(s.top[0].ns, 1000);
	CHECK_NEAR(s.top[0].of_total, 1000.0 / 1500.0, 1e-15, 0);
	doc = bs_report_doc_build(ds, &s);
	t = doc ? capture(table_fn, doc, NULL) : NULL;
	CHECK(t && strstr(t, "Top interferers (2 of 2 threads, 1.500 µs in all)") &&
	      strstr(t, "in the analysed iterations, kept per iteration"));
	free(t);
	bs_doc_free(doc);
	t = capture(json_fn, ds, &s);
	CHECK(t && strstr(t, "\"scope\":\"analysed\"") && strstr(t, "\"total_ns\":1500") &&
	      strstr(t, "\"victim_iteration\":1"));
	free(t);
	bs_run_summary_free(&s);

	/* a record not cut to an iteration counts whatever is analysed */
	ds->interferers[0].victim_iter = BS_CHARGE_NO_ITER;
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK_INT_EQ(s.interferer_ns, 4500);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/* ns/op needs every iteration to carry its invocation count. */
static void test_partial_invocations(void)
{
	struct bs_dataset *ds = load_run();
	struct bs_run_summary s;

	if (!ds)
		return; /* load_run failed the test */
	ds->iters[3].flags &= ~(uint32_t)BS_ITER_F_INVOC;
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK_INT_EQ(s.overall.has_per_op, 0);
	int found = 0;
	for (size_t i = 0; i < s.n_warnings; i++)
		found |= strstr(s.warnings[i], "only 7 of 8 iterations") != NULL;
	CHECK(found);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/* CSV: the header names every field with its unit; a row checked field by field. */
static void test_csv(void)
{
	struct bs_dataset *ds = load_run();
	char *out, *line, *save = NULL;
	const char *want_hdr =
	    "index,pid,tid,cpu_begin,cpu_end,begin_ns,end_ns,duration_ns,invocations,"
	    "ns_per_op,preempted_ns,blocked_ns,runq_wait_ns,irq_ns,softirq_ns,steal_ns,"
	    "sched_delay_ns,nvcsw,nivcsw,migrations,probe,flags";
	int rows = 0;

	if (!ds)
		return; /* load_run failed the test */
	out = capture(csv_fn, ds, NULL);
	CHECK(out != NULL);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save), rows++) {
		if (rows == 0) {
			CHECK(strcmp(line, want_hdr) == 0);
		} else if (rows == 3) { /* first iteration of pid 200 */
			const char *want[] = {"0",	"200",	"200", "1",	  "2", "210000",
					      "215000", "5000", "50",  "100.000", "0", "0",
					      "0",	"0",	"0",   "0",	  "0", "0",
					      "0",	"0",	"0",   "invoc"};
			char *f, *fs = NULL;
			size_t k = 0;

			for (f = strtok_r(line, ",", &fs); f; f = strtok_r(NULL, ",", &fs), k++)
				if (k < 22 && strcmp(f, want[k]))
					FAILF("column %zu: '%s' != '%s'", k, f, want[k]);
			CHECK_INT_EQ(k, 22);
		} else if (rows == 1) {
			CHECK(strcmp(line,
				     "0,100,100,1,2,1000,100999,99999,10,9999.900,100,0,200,0,"
				     "0,0,0,0,1,0,0,invoc|warmup") == 0);
		}
	}
	CHECK_INT_EQ(rows, 10);
	free(out);

	/* no invocation count: empty ns_per_op */
	ds->iters[0].flags = 0;
	out = capture(csv_fn, ds, NULL);
	CHECK(out && strstr(out, "\n0,100,100,1,2,1000,100999,99999,10,,100,") != NULL);
	free(out);
	bs_dataset_free(ds);
}

/* JSON parses back with json-c and carries context, summary, iterations, end. */
static void test_json(void)
{
	struct bs_dataset *ds = load_run();
	struct bs_run_summary s;
	json_object *root, *o;
	char *out;

	if (!ds)
		return; /* load_run failed the test */
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	out = capture(json_fn, ds, &s);
	root = out ? json_tokener_parse(out) : NULL;
	CHECK(root != NULL);
	if (!root)
		goto out;
	CHECK(strcmp(json_object_get_string(bs_json_get(root, "schema")), "benchscope-report") ==
	      0);
	CHECK_INT_EQ(json_object_get_int(bs_json_get(root, "schema_version")), 2);
	o = bs_json_get(root, "context");
	CHECK(strcmp(json_object_get_string(bs_json_get(o, "kernel")), "6.18.0-test") == 0);
	CHECK(strcmp(json_object_get_string(bs_json_get(o, "clock")), "CLOCK_MONOTONIC") == 0);
	CHECK_INT_EQ(
	    json_object_get_int(bs_json_get(bs_json_get(o, "probe_cost_ns"), "per_iteration")),
	    100);
	o = bs_json_get(bs_json_get(root, "summary"), "overall");
	CHECK_INT_EQ(json_object_get_int(bs_json_get(o, "iterations")), 8);
	CHECK_NEAR(json_object_get_double(bs_json_get(bs_json_get(o, "duration_ns"), "mean")), 4375,
		   1e-9, 0);
	CHECK_NEAR(json_object_get_double(bs_json_get(bs_json_get(o, "duration_ns"), "median")),
		   4500, 1e-9, 0);
	CHECK_NEAR(json_object_get_double(bs_json_get(bs_json_get(o, "ns_per_op"), "mean")), 287.5,
		   1e-9, 0);
	CHECK_NEAR(json_object_get_double(bs_json_get(
		       bs_json_get(bs_json_get(o, "interference"), "share"), "runq_wait")),
		   1000.0 / 35000.0, 1e-12, 0);
	o = bs_json_get(bs_json_get(root, "summary"), "removed");
	CHECK_INT_EQ(json_object_get_int(bs_json_get(o, "warmup")), 1);
	o = bs_json_get(root, "iterations");
	CHECK_INT_EQ(json_object_array_length(o), 9);
	o = json_object_array_get_idx(o, 2);
	CHECK_INT_EQ(json_object_get_int(bs_json_get(o, "pid")), 200);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(o, "duration_ns")), 5000);
	CHECK_NEAR(json_object_get_double(bs_json_get(o, "ns_per_op")), 100, 1e-12, 0);
	CHECK(strcmp(json_object_get_string(bs_json_get(o, "flags")), "invoc") == 0);
	o = bs_json_get(bs_json_get(root, "interferers"), "top");
	CHECK(strcmp(json_object_get_string(bs_json_get(json_object_array_get_idx(o, 0), "comm")),
		     "stress") == 0);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(json_object_array_get_idx(o, 0), "ns")),
		     4000);
	CHECK_NEAR(json_object_get_double(bs_json_get(json_object_array_get_idx(o, 0), "of_total")),
		   4000.0 / 4500.0, 1e-12, 0);
	CHECK(bs_json_get(json_object_array_get_idx(o, 0), "share") == NULL);
	CHECK(strcmp(json_object_get_string(bs_json_get(bs_json_get(root, "interferers"), "scope")),
		     "iterations") == 0);
	o = bs_json_get(root, "end");
	CHECK_INT_EQ(json_object_get_int(bs_json_get(bs_json_get(o, "lost"), "proc_lost")), 1);
	CHECK_INT_EQ(json_object_array_length(bs_json_get(root, "processes")), 2);
	CHECK_INT_EQ(json_object_array_length(bs_json_get(root, "events")), 1);
	CHECK(json_object_array_length(bs_json_get(root, "warnings")) >= 3);
	CHECK(json_object_get_boolean(bs_json_get(bs_json_get(root, "trace"), "truncated")) == 0);
	CHECK(strcmp(json_object_get_string(bs_json_get(bs_json_get(root, "trace"), "format")),
		     "1.2") == 0); /* BS_TRACE_VERSION: this build writes 1.2 */
	json_object_put(root);
out:
	free(out);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/* The table and Markdown show the figures, the lost counts, status, warnings. */
static void test_table_and_md(void)
{
	struct bs_dataset *ds = load_run();
	struct bs_run_summary s;
	struct bs_doc *doc;
	char *t, *md;

	if (!ds)
		return; /* load_run failed the test */
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	doc = bs_report_doc_build(ds, &s);
	CHECK(doc != NULL);
	if (!doc)
		return;
	t = capture(table_fn, doc, NULL);
	md = capture(md_fn, doc, NULL);
	CHECK(t && md);
	if (t && md) {
		CHECK(strncmp(t, "benchscope: ./bench --fast\n", 27) == 0);
		CHECK(strstr(t, "  duration  8  4.375 µs  2.722 µs   62.22 %  4.500 µs  1.000 µs  "
				"10.00 µs   4.000 µs\n") != NULL);
		CHECK(strstr(t, "  time/op   8  287.5 ns") != NULL);
		CHECK(strstr(t, "  run-queue wait        1.000 µs  2.86 %       125.0 ns\n") !=
		      NULL);
		CHECK(strstr(t, "  stress       555  555  4.000 µs  88.89 %\n") != NULL);
		CHECK(strstr(t, "of all = its part of the time in all") != NULL);
		CHECK(strstr(t, "in every iteration with a record") != NULL);
		CHECK(strstr(t, "lost: 1 (iter_lost 0, iter_spilled 2, proc_lost 1)") != NULL);
		CHECK(strstr(t, "on_switch  1000  150.0 µs  150.0 ns") != NULL);
		CHECK(strstr(t, "pid 100 exited with status 0") != NULL);
		CHECK(strstr(t, "1 warmup iterations excluded") != NULL);
		CHECK(strstr(t, "a warning from run") != NULL);
		CHECK(strstr(t, "an event warning") != NULL);
		CHECK(strstr(t, "kernel 6.18.0-test, Test CPU @ 3GHz, 4 CPUs") != NULL);
		CHECK(strncmp(md, "# benchscope: ./bench --fast\n", 29) == 0);
		CHECK(strstr(md, "| duration | 8 | 4.375 µs |") != NULL);
		CHECK(strstr(md, "|---|---:|") != NULL);
		CHECK(strstr(md, "CLOCK\\_MONOTONIC") != NULL);
	}
	free(t);
	free(md);
	bs_doc_free(doc);
	bs_run_summary_free(&s);

	/* charges left out with Go runs that ended without a record: one line
	 * under the interferers, and in the JSON report's interferers */
	json_object_object_add(ds->end, "interferers_unrecorded_ns",
			       json_object_new_int64(2500000));
	json_object_object_add(ds->end, "interferers_unrecorded_iterations",
			       json_object_new_int64(2));
	bs_run_end_free(&ds->run_end);
	CHECK_INT_EQ(bs_run_end_decode(ds->end, &ds->run_end, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	doc = bs_report_doc_build(ds, &s);
	t = doc ? capture(table_fn, doc, NULL) : NULL;
	CHECK(
	    t && strstr(t, "of all = its part of the time in all") &&
	    strstr(t,
		   "; left out: 2.500 ms charged while threads waited in 2 iterations "
		   "without a record (still open when the run ended, restarted by a nested begin, "
		   "or lost)"));
	free(t);
	bs_doc_free(doc);
	ds->run_ctx.boundaries_kind = "go"; /* Go names its reasons */
	doc = bs_report_doc_build(ds, &s);
	t = doc ? capture(table_fn, doc, NULL) : NULL;
	CHECK(t && strstr(t, "; left out: 2.500 ms charged while threads waited in 2 Go runs "
			     "without a record (a B with sub-benchmarks"));
	free(t);
	t = capture(json_fn, ds, &s);
	CHECK(t && strstr(t, "\"unrecorded_ns\":2500000") &&
	      strstr(t, "\"unrecorded_iterations\":2"));
	free(t);
	bs_doc_free(doc);
	bs_run_summary_free(&s);

	/* no END block, nothing in the context: every figure says n/a, no crash */
	json_object_put(ds->end);
	ds->end = NULL;
	json_object_put(ds->context);
	ds->context = json_object_new_object();
	bs_run_end_free(&ds->run_end);
	bs_run_context_free(&ds->run_ctx);
	CHECK_INT_EQ(bs_run_end_decode(ds->end, &ds->run_end, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_context_decode(ds->context, &ds->run_ctx, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	doc = bs_report_doc_build(ds, &s);
	t = doc ? capture(table_fn, doc, NULL) : NULL;
	CHECK(t && strstr(t, "lost: n/a (no END block)") && strstr(t, "status: n/a") &&
	      strstr(t, "probe cost  n/a") && strstr(t, "the trace has no END block"));
	free(t);
	bs_doc_free(doc);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/* Benchmarks named by the harness (BENCH records, as Go's testing.B name):
 * grouped by name, whatever their counts; the calibration rule runs per
 * name, so a name measured twice (-test.count=2) is one benchmark of two
 * runs. Runs (invocations, duration ns): "BenchmarkSort" 1/100 calibrate,
 * 1000 (2000 ns) measures, 1/100 calibrate, 1000 (4000 ns) measures;
 * "BenchmarkHash" 1 calibrates, 50 (500 ns) measures; then "BenchmarkSort"
 * runs once more in another process, 2000 invocations (2000 ns). */
static void test_named_groups(void)
{
	static const uint64_t inv[] = {1, 100, 1000, 1, 100, 1000, 1, 50, 2000};
	static const uint64_t dur[] = {5, 50, 2000, 5, 50, 4000, 5, 500, 2000};
	struct bs_bench_rec names[3];
	struct bs_dataset ds = {0};
	struct bs_iter_rec it[9];
	struct bs_run_summary s;
	struct bs_doc *doc;
	char *t;

	for (unsigned i = 0; i < 9; i++)
		it[i] = fx_run_iter(i < 8 ? 300 : 301, i, 1000000 + i * 100000, dur[i], inv[i], 0);
	memset(names, 0, sizeof(names));
	names[0].pid = 300, names[0].ts_ns = 1000000, strcpy(names[0].name, "BenchmarkSort");
	names[1].pid = 300, names[1].ts_ns = 1600000, strcpy(names[1].name, "BenchmarkHash");
	names[2].pid = 301, names[2].ts_ns = 1000, strcpy(names[2].name, "BenchmarkSort");
	ds.iters = it;
	ds.n_iters = 9;
	ds.benches = names;
	ds.n_benches = 3;
	/* sorted by process and time, as bs_dataset_load leaves them */
	ds.context = json_tokener_parse("{\"boundaries\":{\"kind\":\"go\"}}");
	ds.events = json_object_new_array();
	CHECK_INT_EQ(bs_run_context_decode(ds.context, &ds.run_ctx, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_summarize(&ds, 5, &s), 0);
	CHECK_INT_EQ(s.n_calibration, 5);
	CHECK_INT_EQ(s.n_benches, 2);
	if (s.n_benches == 2) {
		CHECK(s.benches[0].name && !strcmp(s.benches[0].name, "BenchmarkSort"));
		CHECK_INT_EQ(s.benches[0].n_iters, 3);
		CHECK_NEAR(s.benches[0].per_op.mean, 7.0 / 3, 1e-12, 0); /* 2, 4, 1 ns/op */
		CHECK(s.benches[1].name && !strcmp(s.benches[1].name, "BenchmarkHash"));
		CHECK_INT_EQ(s.benches[1].n_iters, 1);
		CHECK_NEAR(s.benches[1].per_op.mean, 10.0, 1e-12, 0);
	}
	doc = bs_report_doc_build(&ds, &s);
	t = doc ? capture(table_fn, doc, NULL) : NULL;
	CHECK(t && strstr(t, "Per benchmark (the harness's measurement runs, in run order)"));
	CHECK(t && strstr(t, "  BenchmarkHash     1               50  10.00 ns"));
	free(t);
	bs_doc_free(doc);
	bs_run_summary_free(&s);
	bs_run_context_free(&ds.run_ctx);
	json_object_put(ds.context);
	json_object_put(ds.events);
}

/* The loss total counts records lost, not spills, stray end probes or the
 * map-full counters (failed inserts: a retry counts again, and a record that
 * was due counts in iter_lost too). */
static void test_lost_total(void)
{
	struct bs_end_counter lost[] = {
	    {"iter_lost", 1},	     {"iter_spilled", 20},	   {"thread_map_full", 300},
	    {"proc_map_full", 4000}, {"end_without_begin", 50000}, {"ringbuf_lost_user", 600000}};
	struct bs_iter_rec it = fx_run_iter(300, 0, 1000000, 1000, 1, 0);
	struct bs_dataset ds = {0};
	struct bs_run_summary s;

	ds.iters = &it;
	ds.n_iters = 1;
	ds.run_end.has_lost = 1;
	ds.run_end.lost = lost;
	ds.run_end.n_lost = sizeof(lost) / sizeof(lost[0]);
	ds.context = json_tokener_parse("{}");
	ds.events = json_object_new_array();
	CHECK_INT_EQ(bs_run_context_decode(ds.context, &ds.run_ctx, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_summarize(&ds, 5, &s), 0);
	CHECK_INT_EQ(s.lost_total, 600001);
	bs_run_summary_free(&s);
	bs_run_context_free(&ds.run_ctx);
	json_object_put(ds.context);
	json_object_put(ds.events);
}

/* Google Benchmark: calibration runs are excluded and repetitions grouped
 * per benchmark. Runs (invocations, duration ns): 1/10/100 calibrate,
 * 1000 x3 (1000, 2000, 3000 ns) measure benchmark 1; 1/10 calibrate,
 * 500 x2 (5000 ns each) measure benchmark 2. */
static void test_gbench_groups(void)
{
	static const uint64_t inv[] = {1, 10, 100, 1000, 1000, 1000, 1, 10, 500, 500};
	static const uint64_t dur[] = {5, 50, 500, 1000, 2000, 3000, 5, 50, 5000, 5000};
	struct bs_dataset ds = {0};
	struct bs_iter_rec it[10];
	struct bs_run_summary s;
	struct bs_doc *doc;
	char *t;

	for (unsigned i = 0; i < 10; i++)
		it[i] = fx_run_iter(300, i, 1000000 + i * 100000, dur[i], inv[i], 0);
	ds.iters = it;
	ds.n_iters = 10;
	ds.context = json_tokener_parse("{\"boundaries\":{\"kind\":\"gbench\"}}");
	ds.events = json_object_new_array();
	CHECK_INT_EQ(bs_run_context_decode(ds.context, &ds.run_ctx, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_summarize(&ds, 5, &s), 0);
	CHECK_INT_EQ(s.n_calibration, 5);
	CHECK_INT_EQ(s.overall.n_iters, 5);
	CHECK_INT_EQ(s.n_benches, 2);
	if (s.n_benches == 2) {
		CHECK_INT_EQ(s.benches[0].n_iters, 3);
		CHECK_NEAR(s.benches[0].per_op.mean, 2.0, 1e-12, 0); /* 1, 2, 3 ns/op */
		CHECK_INT_EQ(s.benches[1].n_iters, 2);
		CHECK_NEAR(s.benches[1].per_op.mean, 10.0, 1e-12, 0);
	}
	doc = bs_report_doc_build(&ds, &s);
	t = doc ? capture(table_fn, doc, NULL) : NULL;
	CHECK(t && strstr(t, "5 calibration runs of the harness excluded"));
	CHECK(t && strstr(t, "  #1            3             1000  2.000 ns"));
	free(t);
	bs_doc_free(doc);
	bs_run_summary_free(&s);

	/* not gbench: nothing is excluded */
	json_object_put(ds.context);
	ds.context = json_object_new_object();
	bs_run_context_free(&ds.run_ctx);
	CHECK_INT_EQ(bs_run_context_decode(ds.context, &ds.run_ctx, NULL, 0), 0);
	CHECK_INT_EQ(bs_run_summarize(&ds, 5, &s), 0);
	CHECK_INT_EQ(s.n_calibration, 0);
	CHECK_INT_EQ(s.overall.n_iters, 10);
	CHECK(s.benches == NULL);
	bs_run_summary_free(&s);
	bs_run_context_free(&ds.run_ctx);
	json_object_put(ds.context);
	json_object_put(ds.events);
}

/* The column table and the flag names. */
static void test_iter_cols(void)
{
	size_t n;
	const struct bs_iter_col *cols = bs_iter_cols(&n);
	char b[96];

	CHECK_INT_EQ(n, 22);
	CHECK(strcmp(cols[7].name, "duration_ns") == 0 && strcmp(cols[7].unit, "ns") == 0);
	CHECK(strcmp(bs_iter_flag_names(0, b, sizeof(b)), "") == 0);
	CHECK(strcmp(bs_iter_flag_names(BS_ITER_F_SPILLED | BS_ITER_F_EXIT, b, sizeof(b)),
		     "spilled|exit") == 0);
	CHECK(strcmp(bs_iter_flag_names(1u << 31, b, sizeof(b)), "0x80000000") == 0);
	/* the flags column's text names every flag the records can carry */
	CHECK(strcmp(cols[n - 1].name, "flags") == 0);
	for (uint32_t f = 1; f <= BS_ITER_F_UNSEEN_SWITCH; f <<= 1) {
		bs_iter_flag_names(f, b, sizeof(b));
		if (!strstr(cols[n - 1].doc, b))
			fprintf(stderr, "flag %s is not in the flags column's text\n", b);
		CHECK(strstr(cols[n - 1].doc, b) != NULL);
	}
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_units);
	RUN_TEST(test_summary_values);
	RUN_TEST(test_partial_invocations);
	RUN_TEST(test_charges_per_iteration);
	RUN_TEST(test_csv);
	RUN_TEST(test_json);
	RUN_TEST(test_table_and_md);
	RUN_TEST(test_gbench_groups);
	RUN_TEST(test_named_groups);
	RUN_TEST(test_lost_total);
	RUN_TEST(test_iter_cols);
	fx_cleanup();
	return test_summary("test_render");
}
