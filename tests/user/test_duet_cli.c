// SPDX-License-Identifier: MIT
/* test_duet_cli.c - `benchscope report` on duet traces and `benchscope
 * import --format duet-csv`: the CSV schema, JSON, the picture, the import
 * round trip, the Renaissance data against SciPy (tests/fixtures/stats/
 * duet.txt), and bad input (one line on stderr, exit 2). Each command runs
 * in a child with stdout and stderr sent to files. */
#include <json-c/json.h>
#include <wordexp.h>

#include "test.h"
#include "benchscope/stats.h"
#include "commands.h"
#include "trace/dataset.h"
#include "duet/analysis.h"
#include "duet/data.h"
#include "duet/run.h"
#include "duet/setup.h"
#include "fixture.h"
#include "cmd_capture.h"
#include "duet_fixture.h"

/* the duet package's real Renaissance data (tests/fixtures/duet/README.md) */
#define RENAISSANCE_CSV "tests/fixtures/duet/renaissance-chi-square.csv"
#include "stats/fixtures.h"

static char out_path[300], err_path[300];
static struct df_truth truth;

/* Run cmd (cmd_report or cmd_import) with the NULL-terminated args. */
static int run_cmd(int (*cmd)(int, char **), const char *name, const char *const *args)
{
	return cap_run(cmd, name, args, out_path, err_path);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return strdup("");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf)
		buf[fread(buf, 1, (size_t)n, f)] = 0;
	fclose(f);
	return buf;
}

/* stderr is exactly one line containing @what */
static void check_one_line_err(const char *what)
{
	char *e = slurp(err_path);

	CHECK_INT_EQ(cap_count_lines(e), 1);
	if (!strstr(e, what))
		FAILF("stderr '%s' lacks '%s'", e, what);
	free(e);
}

static const char *synth_trace(void)
{
	static char path[300];
	struct df_spec sp = {.runs_per_method = 5,
			     .methods = {true, true, true},
			     .iters = 10,
			     .slow_b = 0.1,
			     .noise = 0.01,
			     .failed_run = true,
			     .asym_run = true,
			     .seed = 21};

	if (!path[0]) {
		fx_path(path, sizeof(path), "cli.trace");
		if (df_write(path, &sp, &truth))
			path[0] = 0;
	}
	return path;
}

/* CSV: the duet package's columns first, then ours; one row per analysed
 * iteration; types seqn/syncduet/duet */
static void test_report_csv_json(void)
{
	const char *tr = synth_trace();
	char csv[300], json[300];
	char *s;

	fx_path(csv, sizeof(csv), "cli.csv");
	fx_path(json, sizeof(json), "cli.json");
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){tr, "--csv", csv, "--json", json, "--no-mds", NULL}),
		     0);
	s = slurp(out_path);
	CHECK(strstr(s, "verdict (async): B is ") != NULL);
	CHECK(strstr(s, "failed      run ") && strstr(s, "B crashed (signal 11)"));
	CHECK(strstr(s, "asymmetric runs") != NULL);
	/* the charges split among themselves, A's own thread apart: other 5 ms, own
	 * 1 ms, third 3 ms of 9 ms; over every iteration with a record */
	CHECK(strstr(s, "by own side") != NULL);
	CHECK(strstr(s, "9.000 ms  5.000 ms (55.56 %)  1.000 ms (11.11 %)  3.000 ms (33.33 %)") !=
	      NULL);
	CHECK(strstr(s, "interferer charges, in every iteration with a record") != NULL);
	/* the context's boundaries and probes, as the run report says them */
	CHECK(strstr(s, "\n  boundaries  pair, 2 probes per iteration (auto)\n") != NULL);
	free(s);
	s = slurp(csv);
	static const char hdr[] = "suite,benchmark,type,runid,pair,iteration,iteration_start_ns,"
				  "iteration_end_ns,iteration_time_ns,run,method,order,pid,tid,"
				  "invocations,score_ns,paired_with,preempted_ns,runq_wait_ns,";

	CHECK(!strncmp(s, hdr, sizeof(hdr) - 1));
	CHECK_INT_EQ(cap_count_lines(s), 1 + 15 * 2 * 10);
	CHECK(strstr(s, ",seqn,") && strstr(s, ",syncduet,") && strstr(s, ",duet,"));
	free(s);
	json_object *j = json_object_from_file(json), *b, *m;

	CHECK(j != NULL);
	if (!j)
		return;
	CHECK(!strcmp(json_object_get_string(bs_json_get(j, "kind")), "duet_report"));
	CHECK_INT_EQ(json_object_get_int(bs_json_get(bs_json_get(j, "runs"), "failed")), 1);
	b = json_object_array_get_idx(bs_json_get(j, "benchmarks"), 0);
	CHECK(!strcmp(json_object_get_string(bs_json_get(b, "primary_method")), "async"));
	m = json_object_array_get_idx(bs_json_get(b, "methods"), 2);
	CHECK(!strcmp(json_object_get_string(bs_json_get(m, "method")), "async"));
	CHECK(!strcmp(json_object_get_string(bs_json_get(bs_json_get(m, "verdict"), "kind")),
		      "slower"));
	CHECK(bs_json_get(bs_json_get(bs_json_get(j, "noise"), "methods"), "async") != NULL);
	CHECK_INT_EQ(json_object_get_int(bs_json_get(j, "schema_version")), 2);
	CHECK(!strcmp(json_object_get_string(bs_json_get(bs_json_get(j, "noise"), "charges_scope")),
		      "iterations"));
	m = bs_json_get(bs_json_get(bs_json_get(j, "noise"), "methods"), "async");
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(m, "A"), "by_own_side_ns")),
		     1000000);
	json_object_put(j);
	/* Markdown to stdout */
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){tr, "--md", "-", "--no-mds", NULL}), 0);
	s = slurp(out_path);
	CHECK(!strncmp(s, "# Duet report: synth", 20));
	CHECK(strstr(s, "| method | runs |") != NULL);
	free(s);
}

/* write the trace of @sp at @tr and report it (--json @json): its stdout
 * (free it), or NULL with a failure counted */
static char *report_of(const struct df_spec *sp, const char *tr, const char *json)
{
	if (df_write(tr, sp, &truth)) {
		FAILF("cannot write %s", tr);
		return NULL;
	}
	if (run_cmd(cmd_report, "report", (const char *[]){tr, "--json", json, "--no-mds", NULL})) {
		FAILF("report %s failed", tr);
		return NULL;
	}
	return slurp(out_path);
}

/* what the interferer charges leave out (the END's unrecorded charges) is
 * named under them, in the text, the Markdown and the JSON; absent from a
 * trace without it */
static void test_report_unrecorded(void)
{
	struct df_spec sp = {.runs_per_method = 3,
			     .methods = {false, false, true},
			     .iters = 10,
			     .noise = 0.01,
			     .asym_run = true,
			     .unrecorded_ns = 2500000,
			     .seed = 9};
	static const char left[] = "left out: 2.500 ms charged while threads waited in 2 "
				   "iterations without a record (still open when the run ended, "
				   "restarted by a nested begin, or lost)";
	char tr[300], json[300];
	json_object *j, *n;
	char *s;

	fx_path(tr, sizeof(tr), "unrec.trace");
	fx_path(json, sizeof(json), "unrec.json");
	s = report_of(&sp, tr, json);
	CHECK(s && strstr(s, "9.000 ms") && strstr(s, left));
	free(s);
	j = json_object_from_file(json);
	n = bs_json_get(j, "noise");
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(n, "unrecorded_ns")), 2500000);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(n, "unrecorded_iterations")), 2);
	json_object_put(j);
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){tr, "--md", "-", "--no-mds", NULL}), 0);
	s = slurp(out_path);
	CHECK(strstr(s, left) != NULL);
	free(s);
	/* a trace without the figure says nothing of it */
	sp.unrecorded_ns = 0;
	s = report_of(&sp, tr, json);
	CHECK(s && strstr(s, "9.000 ms") && !strstr(s, "left out:"));
	free(s);
	j = json_object_from_file(json);
	CHECK(j && !bs_json_get(bs_json_get(j, "noise"), "unrecorded_ns"));
	json_object_put(j);
}

/* the END's lost-record counters and warnings show in the text, the
 * Markdown and the JSON, as the run report shows them; a trace whose
 * counters are all 0 gets no lost line */
static void test_report_lost(void)
{
	struct df_spec sp = {
	    .runs_per_method = 3,
	    .methods = {false, true, false},
	    .iters = 10,
	    .noise = 0.01,
	    .seed = 5,
	    .end_extra = "\"lost\": {\"iter_lost\": 2, \"iter_spilled\": 0, \"barrier_lost\": 3}, "
			 "\"warnings\": [\"2 iteration records were lost (ring buffer and spill "
			 "map full): use --ringbuf-size\"]"};
	static const char lost[] = "5 records (iter_lost 2, iter_spilled 0, barrier_lost 3)";
	static const char warned[] = "2 iteration records were lost (ring buffer and spill map "
				     "full): use --ringbuf-size";
	char tr[300], json[300];
	json_object *j, *w;
	char *s;

	fx_path(tr, sizeof(tr), "lost.trace");
	fx_path(json, sizeof(json), "lost.json");
	s = report_of(&sp, tr, json);
	CHECK(s && strstr(s, "  lost        ") && strstr(s, lost));
	CHECK(s && strstr(s, "  warning     ") && strstr(s, warned));
	free(s);
	j = json_object_from_file(json);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(j, "lost_total")), 5);
	w = bs_json_get(j, "warnings");
	CHECK(json_object_is_type(w, json_type_array) && json_object_array_length(w) == 1 &&
	      !strcmp(json_object_get_string(json_object_array_get_idx(w, 0)), warned));
	json_object_put(j);
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){tr, "--md", "-", "--no-mds", NULL}), 0);
	s = slurp(out_path);
	CHECK(strstr(s, "- lost: ") && strstr(s, lost));
	CHECK(strstr(s, "- warning: ") && strstr(s, warned));
	free(s);
	/* nothing lost (spills and stray end probes are no loss), no warning:
	 * nothing said, lost_total 0 */
	sp.end_extra = "\"lost\": {\"iter_lost\": 0, \"iter_spilled\": 12, \"end_without_begin\": "
		       "3}, \"warnings\": []";
	s = report_of(&sp, tr, json);
	CHECK(s && !strstr(s, "  lost        ") && !strstr(s, "  warning     "));
	free(s);
	j = json_object_from_file(json);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(j, "lost_total")), 0);
	w = bs_json_get(j, "warnings");
	CHECK(json_object_is_type(w, json_type_array) && json_object_array_length(w) == 0);
	json_object_put(j);
	/* no lost object: lost_total null */
	sp.end_extra = NULL;
	s = report_of(&sp, tr, json);
	free(s);
	j = json_object_from_file(json);
	CHECK(j && json_object_object_get_ex(j, "lost_total", &w) && !w);
	json_object_put(j);
}

/*
 * Iterations of 0 ns have no score: the report counts them where the
 * verdict's model leaves them out, and with every A iteration at 0 ns (no
 * verdict, A's mean 0) B vs A is n/a, never nan.
 */
static void test_report_zero_time(void)
{
	struct df_spec sp = {.runs_per_method = 3,
			     .methods = {false, true, false},
			     .iters = 10,
			     .noise = 0.01,
			     .zero_a_iters = 2,
			     .seed = 6};
	char tr[300], json[300];
	json_object *j;
	char *s;

	fx_path(tr, sizeof(tr), "zero.trace");
	fx_path(json, sizeof(json), "zero.json");
	s = report_of(&sp, tr, json);
	CHECK(s && strstr(s, "  left out    6 iterations of 0 ns: no score, the verdict leaves "
			     "their pairs out"));
	free(s);
	j = json_object_from_file(json);
	CHECK_INT_EQ(
	    json_object_get_int64(bs_json_get(bs_json_get(j, "runs"), "iterations_of_0_ns")), 6);
	json_object_put(j);
	sp.zero_a_iters = sp.iters;
	s = report_of(&sp, tr, json);
	CHECK(s && strstr(s, "left out    30 iterations of 0 ns"));
	CHECK(s && strstr(s, "no verdict"));
	CHECK(s && !strstr(s, "nan") && !strstr(s, "inf "));
	free(s);
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){tr, "--md", "-", "--no-mds", NULL}), 0);
	s = slurp(out_path);
	CHECK(!strstr(s, "nan") && !strstr(s, "inf "));
	free(s);
}

/* the picture: SVG from gnuplot; a wrong suffix is a usage error */
static void test_report_plot(void)
{
	const char *tr = synth_trace();
	char svg[300], bad[300];
	char *s;
	int rc;

	fx_path(svg, sizeof(svg), "cli.svg");
	fx_path(bad, sizeof(bad), "cli.gif");
	rc = run_cmd(cmd_report, "report",
		     (const char *[]){tr, "--plot", svg, "-q", "--no-mds", NULL});
	if (rc == 1) {
		s = slurp(err_path);
		if (strstr(s, "gnuplot not found")) {
			free(s);
			SKIP("gnuplot not installed");
		}
		free(s);
	}
	CHECK_INT_EQ(rc, 0);
	s = slurp(svg);
	CHECK(strstr(s, "<svg") != NULL);
	CHECK(strstr(s, "run 0 async A") != NULL);
	free(s);
	CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){tr, "--plot", bad, "-q", NULL}),
		     2);
	check_one_line_err(".svg or .png");
}

/* a --plot name that is neither .svg nor .png is refused when the options
 * are read: one line, status 2, and no report printed first */
static void test_report_plot_name(void)
{
	const char *tr = synth_trace();
	char *s;

	CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){tr, "--plot", "x.txt", NULL}),
		     2);
	check_one_line_err("--plot wants a file name ending in .svg or .png, not 'x.txt'");
	s = slurp(out_path);
	CHECK_INT_EQ(strlen(s), 0);
	free(s);
}

/* import of the report's CSV, report again, import again: the same CSV
 * (byte for byte) and the same verdicts */
static void test_import_round_trip(void)
{
	const char *tr = synth_trace();
	char csv1[300], t1[300], csv2[300], t2[300], csv3[300], j2[300], j3[300];
	char *a, *b;

	fx_path(csv1, sizeof(csv1), "rt1.csv");
	fx_path(t1, sizeof(t1), "rt1.trace");
	fx_path(csv2, sizeof(csv2), "rt2.csv");
	fx_path(t2, sizeof(t2), "rt2.trace");
	fx_path(csv3, sizeof(csv3), "rt3.csv");
	fx_path(j2, sizeof(j2), "rt2.json");
	fx_path(j3, sizeof(j3), "rt3.json");
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){tr, "--csv", csv1, "-q", "--no-mds", NULL}),
		     0);
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "duet-csv", csv1, "-o", t1, NULL}),
		     0);
	a = slurp(out_path);
	CHECK(strstr(a, "imported 300 iterations of 15 runs (1 benchmark, processed layout)") !=
	      NULL);
	free(a);
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){t1, "--csv", csv2, "--json", j2, "-q", NULL}),
		     0);
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "duet-csv", csv2, "-o", t2, NULL}),
		     0);
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){t2, "--csv", csv3, "--json", j3, "-q", NULL}),
		     0);
	a = slurp(csv2);
	b = slurp(csv3);
	CHECK(strlen(a) > 1000 && !strcmp(a, b));
	free(a);
	free(b);
	/* the analysis of both imports is identical */
	json_object *x = json_object_from_file(j2), *y = json_object_from_file(j3);

	CHECK(x && y);
	if (x && y) {
		const char *bx = json_object_to_json_string_ext(bs_json_get(x, "benchmarks"),
								JSON_C_TO_STRING_PLAIN);
		const char *by = json_object_to_json_string_ext(bs_json_get(y, "benchmarks"),
								JSON_C_TO_STRING_PLAIN);

		CHECK(!strcmp(bx, by));
		CHECK(strstr(bx, "\"kind\":\"slower\"") != NULL);
	}
	json_object_put(x);
	json_object_put(y);
	/* and the imported analysis equals the original's (interference
	 * columns carried, failed run gone) */
	a = slurp(csv1);
	b = slurp(csv2);
	/* same rows except the pid/tid (synthetic) and run numbers */
	CHECK_INT_EQ(cap_count_lines(a), cap_count_lines(b));
	free(a);
	free(b);
}

/* the Renaissance raw layout: rebuilt from the SciPy fixture's numbers (the
 * real file when present must give the same), analysed like SciPy did:
 * async, m = 0.4, runs merged (2 runs < 5), all iterations */
static void test_import_renaissance_vs_scipy(void)
{
	struct fixture f;
	char csv[300], tr[300], err[256];
	FILE *fp;
	size_t n;

	if (fix_load(&f, "duet.txt")) {
		FAILF("fixture duet.txt missing or malformed");
		return;
	}
	fx_path(csv, sizeof(csv), "ren.csv");
	fx_path(tr, sizeof(tr), "ren.trace");
	fp = fopen(csv, "w");
	if (!fp) {
		fix_free(&f);
		FAILF("cannot write %s", csv);
		return;
	}
	/* columns in another order than the original, plus an extra one */
	fprintf(fp, "pair,runid,iteration,benchmark,iteration_time_ns,epoch_start_ms,jdk\n");
	for (int r = 0; r < 2; r++)
		for (int p = 0; p < 2; p++) {
			char k[32];
			const double *v;

			snprintf(k, sizeof(k), "run%d.%c", r, p ? 'B' : 'A');
			v = fix_get(&f, k, &n);
			CHECK(v && n == 20);
			if (!v || n != 20)
				continue;
			for (int j = 0; j < 10; j++)
				fprintf(fp, "%c,%d,%d,chi-square,%.0f,%.0f,\"OpenJDK, 11\"\n",
					p ? 'B' : 'A', r, j, v[2 * j + 1] - v[2 * j], v[0] / 1e6);
		}
	fclose(fp);
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "duet-csv", csv, "-o", tr, "--aa", NULL}),
		     0);
	struct bs_dataset *ds = NULL;
	struct bs_duet_data *d = NULL;
	struct bs_duet_analysis *a = NULL;
	struct bs_danalysis_opts ao = {.seed = 4, .no_mds = true};

	CHECK_INT_EQ(bs_dataset_load(tr, &ds, err, sizeof(err)), 0);
	if (!ds)
		goto out;
	CHECK_INT_EQ(bs_duet_data_build(ds, &d, err, sizeof(err)), 0);
	if (!d)
		goto out;
	CHECK(d->aa);
	CHECK(!strcmp(d->source, "import:renaissance-csv"));
	CHECK_INT_EQ(bs_duet_analysis_run(d, &ao, &a), 0);
	if (!a)
		goto out;
	const struct bs_dmres *r = &a->b[0].m[BS_DM_ASYNC];
	const double *merged = fix_get(&f, "async.merged", &n);
	const double *bca = fix_get(&f, "async.merged.bca", NULL);
	const double *u = fix_get(&f, "mwu", NULL);
	const double *gm = fix_get(&f, "async.grand_mean", NULL);

	CHECK(merged && bca && u && gm);
	if (!merged || !bca || !u || !gm)
		goto out;
	CHECK(r->runs_merged);
	CHECK_INT_EQ(r->err, BS_OK);
	CHECK_INT_EQ(r->res.n_obs, n);
	CHECK_NEAR(r->res.mean_diff, bs_mean(merged, n), 0, 1e-12);
	CHECK_NEAR(r->res.grand_mean, gm[0], 0, 1e-12);
	/* Monte-Carlo tolerance as in tests/stats/test_duet.c: 5 sd of SciPy's
	 * bound over 20 seeds */
	if (fabs(r->res.ci.lo - bca[0]) > 5 * bca[1] * sqrt(1.05) ||
	    fabs(r->res.ci.hi - bca[2]) > 5 * bca[3] * sqrt(1.05))
		FAILF("CI [%g, %g] vs SciPy [%g, %g]", r->res.ci.lo, r->res.ci.hi, bca[0], bca[2]);
	CHECK(r->res.u.u1 == u[0]);
	CHECK_NEAR(r->res.u.p, u[1], 0, 1e-9);
	/* the real file imports to the same analysis (tests run from the
	 * repository's root: tests/run-tests, vmtest) */
	{
		char tr2[300];
		struct bs_dataset *ds2 = NULL;
		struct bs_duet_data *d2 = NULL;
		struct bs_duet_analysis *a2 = NULL;

		fx_path(tr2, sizeof(tr2), "ren-real.trace");
		CHECK_INT_EQ(run_cmd(cmd_import, "import",
				     (const char *[]){"--format", "duet-csv", RENAISSANCE_CSV, "-o",
						      tr2, NULL}),
			     0);
		if (!bs_dataset_load(tr2, &ds2, err, sizeof(err)) &&
		    !bs_duet_data_build(ds2, &d2, err, sizeof(err)) &&
		    !bs_duet_analysis_run(d2, &ao, &a2)) {
			const struct bs_dmres *r2 = &a2->b[0].m[BS_DM_ASYNC];

			CHECK(r2->res.ci.lo == r->res.ci.lo && r2->res.ci.hi == r->res.ci.hi);
			CHECK(r2->res.u.p == r->res.u.p);
		} else {
			FAILF("real Renaissance file: %s", err);
		}
		bs_duet_analysis_free(a2);
		bs_duet_data_free(d2);
		bs_dataset_free(ds2);
	}
out:
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
	fix_free(&f);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * `benchscope import --format duet-csv CSV -o TR` of a CSV file holding text
 * fails as bad input: exit 2 and one line on stderr that contains what.
 */
static void import_rejects(const char *csv, const char *tr, const char *text, const char *what)
{
	write_file(csv, text);
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "duet-csv", csv, "-o", tr, NULL}),
		     2);
	check_one_line_err(what);
}

/* bad input: one line on stderr, exit 2 */
static void test_bad_input(void)
{
	char csv[300], tr[300], plain[300], err[256];
	struct bs_trace_writer *w;

	fx_path(csv, sizeof(csv), "bad.csv");
	fx_path(tr, sizeof(tr), "bad.trace");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,iteration,start_ns,end_ns\n"
		       "x,duet,0,A,0,100,200\n"
		       "x,duet,0,C,1,200,300\n",
		       "bad.csv:3: pair is 'C', not A or B");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,iteration,start_ns,end_ns\n"
		       "x,duet,0,A,0,100,2x0\n",
		       "bad.csv:2: ");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,start_ns,end_ns\n"
		       "x,duet,0,A,100,200\n"
		       "\"x,duet,0,B,100,200\n",
		       "line 3: a quoted field is not closed");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,start_ns,end_ns\n"
		       "x,duet,0,A,100,200,7\n",
		       "bad.csv:2: 7 fields, the header has 6");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,start_ns,end_ns\n"
		       "x,duet,0,A,100,200\n"
		       "x,duet,0,A,150,250\n",
		       "starts before iteration");
	/* an iteration of 0 ns has no score */
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,iteration,iteration_start_ns,iteration_time_ns\n"
		       "x,duet,0,A,0,100,0\n",
		       "bad.csv:2: the iteration lasts 0 ns");
	/* timestamps the trace cannot hold: negative, or an end past INT64_MAX */
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,iteration,start_ns,end_ns\n"
		       "x,duet,0,B,0,0,100\n"
		       "x,duet,0,A,0,-100,50\n",
		       "bad.csv:3: negative iteration start -100");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,iteration,start_ns,end_ns\n"
		       "x,duet,0,A,0,100,-200\n",
		       "bad.csv:2: negative iteration end -200");
	import_rejects(csv, tr,
		       "benchmark,type,runid,pair,iteration,iteration_start_ns,iteration_time_ns\n"
		       "x,duet,0,A,0,100,9223372036854775807\n",
		       "bad.csv:2: iteration times overflow");
	import_rejects(csv, tr, "name,value\na,1\n", "not duet data");
	import_rejects(csv, tr, "benchmark,type,runid,pair,start_ns,end_ns\nx,bogus,0,A,1,2\n",
		       "unknown type 'bogus'");
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "duet-csv", "/nonexistent.csv", NULL}),
		     2);
	check_one_line_err("cannot read /nonexistent.csv");
	CHECK_INT_EQ(run_cmd(cmd_import, "import", (const char *[]){"--format", "xml", csv, NULL}),
		     2);
	check_one_line_err("unknown format 'xml'");
	/* duet-csv is the default format: the same file, the same complaint */
	CHECK_INT_EQ(run_cmd(cmd_import, "import", (const char *[]){csv, NULL}), 2);
	check_one_line_err("unknown type 'bogus'");
	/* report: duet options on a run trace; a non-duet trace keeps its report */
	fx_path(plain, sizeof(plain), "plain-cli.trace");
	w = bs_trace_create(plain, "{\"tool\": \"benchscope\"}", err, sizeof(err));
	CHECK(w != NULL);
	if (w) {
		bs_trace_close(w);
		CHECK_INT_EQ(
		    run_cmd(cmd_report, "report", (const char *[]){plain, "--plot", "x.svg", NULL}),
		    2);
		check_one_line_err("--plot applies to duet traces only");
		CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){plain, NULL}), 0);
		char *s = slurp(out_path);

		CHECK(strstr(s, "Duet") == NULL);
		free(s);
	}
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){synth_trace(), "--min-overlap", "1.5", NULL}),
		     2);
	check_one_line_err("--min-overlap wants a ratio");
	/* --top ranks a run's interferers: a duet report has no such list */
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){synth_trace(), "--top", "3", NULL}), 2);
	check_one_line_err("--top applies to run traces only");
}

/*
 * import -o naming a FIFO or a directory: refused, exit 2, one line, the
 * node left as it was (the trace is written aside and renamed: the rename
 * would have put a regular file in its place)
 */
static void test_import_not_over_special(void)
{
	char csv[300], go[300], fifo[300], adir[300];
	struct stat st;

	write_file(fx_path(csv, sizeof(csv), "sp.csv"),
		   "benchmark,type,runid,pair,iteration,start_ns,end_ns\n"
		   "x,duet,0,A,0,100,200\nx,duet,0,B,0,100,210\n");
	write_file(fx_path(go, sizeof(go), "sp.txt"), "BenchmarkX-2 \t 100 \t 5 ns/op\n");
	CHECK_INT_EQ(mkfifo(fx_path(fifo, sizeof(fifo), "sp.fifo"), 0600), 0);
	CHECK_INT_EQ(mkdir(fx_path(adir, sizeof(adir), "sp.dir"), 0700), 0);
	CHECK_INT_EQ(run_cmd(cmd_import, "import", (const char *[]){csv, "-o", fifo, NULL}), 2);
	check_one_line_err("sp.fifo: a FIFO, not a regular file (it is not replaced)");
	CHECK(!stat(fifo, &st) && S_ISFIFO(st.st_mode));
	CHECK_INT_EQ(
	    run_cmd(cmd_import, "import", (const char *[]){"--format", "go", go, "-o", fifo, NULL}),
	    2);
	check_one_line_err("sp.fifo: a FIFO, not a regular file");
	CHECK(!stat(fifo, &st) && S_ISFIFO(st.st_mode));
	CHECK_INT_EQ(run_cmd(cmd_import, "import", (const char *[]){csv, "-o", adir, NULL}), 2);
	check_one_line_err("sp.dir: a directory, not a regular file");
	CHECK_INT_EQ(
	    run_cmd(cmd_import, "import", (const char *[]){"--format", "go", go, "-o", adir, NULL}),
	    2);
	check_one_line_err("sp.dir: a directory, not a regular file");
	CHECK(!stat(adir, &st) && S_ISDIR(st.st_mode));
	unlink(fifo);
	rmdir(adir);
}

/*
 * an input or -o path that cannot be read or created is bad input (exit 2),
 * whatever the format: a directory as input, a name past NAME_MAX
 */
static void test_import_path_errors(void)
{
	char go[300], adir[300], lng[300], path[600], tr[300];

	write_file(fx_path(go, sizeof(go), "pe.txt"), "BenchmarkX-2 \t 100 \t 5 ns/op\n");
	CHECK_INT_EQ(mkdir(fx_path(adir, sizeof(adir), "pe.dir"), 0700), 0);
	fx_path(tr, sizeof(tr), "pe.trace");
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "gbench", adir, "-o", tr, NULL}),
		     2);
	check_one_line_err("pe.dir: Is a directory");
	CHECK_INT_EQ(run_cmd(cmd_import, "import",
			     (const char *[]){"--format", "pyperf", adir, "-o", tr, NULL}),
		     2);
	check_one_line_err("pe.dir: Is a directory");
	memset(lng, 'a', 280);
	lng[280] = 0;
	snprintf(path, sizeof(path), "%s/%s", adir, lng);
	CHECK_INT_EQ(
	    run_cmd(cmd_import, "import", (const char *[]){"--format", "go", go, "-o", path, NULL}),
	    2);
	check_one_line_err("File name too long");
	CHECK_INT_EQ(
	    run_cmd(cmd_import, "import", (const char *[]){"--format", "go", path, "-o", tr, NULL}),
	    2);
	check_one_line_err("File name too long");
	CHECK_INT_EQ(run_cmd(cmd_import, "import", (const char *[]){path, "-o", tr, NULL}), 2);
	check_one_line_err("File name too long");
	CHECK(access(tr, F_OK) != 0);
	/* a directory as the text input: its reason, not an unset message */
	CHECK_INT_EQ(run_cmd(cmd_import, "import", (const char *[]){adir, "-o", tr, NULL}), 2);
	check_one_line_err("benchscope import: cannot read ");
	check_one_line_err("pe.dir: Is a directory\n");
	CHECK_INT_EQ(
	    run_cmd(cmd_import, "import", (const char *[]){"--format", "go", adir, "-o", tr, NULL}),
	    2);
	check_one_line_err("pe.dir: Is a directory\n");
	rmdir(adir);
}

/* a duet report to a stdout that cannot be written: exit 1, one line */
static void test_report_stdout_full(void)
{
	if (!cap_full())
		SKIP("no /dev/full");
	CHECK_INT_EQ(cap_run(cmd_report, "report", (const char *[]){synth_trace(), NULL},
			     cap_full(), err_path),
		     1);
	check_one_line_err("benchscope report: cannot write the report to stdout: No space left "
			   "on device\n");
}

/*
 * The analysis options the duet recorded in its CONTEXT are report's
 * defaults: a trace of `duet --no-mds` reports no MDS, as the duet's own
 * table did; the bootstrap uses the duet's --seed and --resamples unless
 * report's are given. The CONTEXT of
 * bs_duet_context records them.
 */
static void test_report_context_defaults(void)
{
	struct df_spec sp = {.runs_per_method = 3,
			     .methods = {false, false, true},
			     .iters = 10,
			     .slow_b = 0.1,
			     .noise = 0.01,
			     .seed = 5,
			     .duet_extra = "\"no_mds\": true, \"seed\": 7, \"resamples\": 200"};
	struct bs_duet_args a = {
	    .cmd = {"true", "true"}, .no_mds = true, .seed = 7, .resamples = 200};
	struct bs_duet_setup su;
	char tr[300], json[300];
	json_object *j, *ctx, *du;

	fx_path(tr, sizeof(tr), "ctxdef.trace");
	fx_path(json, sizeof(json), "ctxdef.json");
	if (df_write(tr, &sp, &truth)) {
		FAILF("cannot write %s", tr);
		return;
	}
	CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){tr, "--json", json, NULL}), 0);
	j = json_object_from_file(json);
	CHECK(j && !json_object_get_boolean(bs_json_get(bs_json_get(j, "analysis"), "mds")));
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(j, "analysis"), "seed")), 7);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(j, "analysis"), "n_resamples")),
		     200);
	json_object_put(j);
	/* an option given wins */
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){tr, "--json", json, "--seed", "3", "--resamples",
					      "300", NULL}),
		     0);
	j = json_object_from_file(json);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(j, "analysis"), "seed")), 3);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(j, "analysis"), "n_resamples")),
		     300);
	json_object_put(j);
	/* out of duet's range: one line, status 2 */
	CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){tr, "--resamples", "99", NULL}),
		     2);
	check_one_line_err("--resamples wants a whole number from 100 to 1000000");
	/* a trace without the keys: the MDS is computed, seed 1 */
	sp.duet_extra = NULL;
	CHECK_INT_EQ(df_write(tr, &sp, &truth), 0);
	CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){tr, "--json", json, NULL}), 0);
	j = json_object_from_file(json);
	CHECK(j && json_object_get_boolean(bs_json_get(bs_json_get(j, "analysis"), "mds")));
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(j, "analysis"), "seed")), 1);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(bs_json_get(j, "analysis"), "n_resamples")),
		     9999);
	json_object_put(j);
	/* what the duet writes */
	memset(&su, 0, sizeof(su));
	su.methods[0] = BS_DM_RUN_ASYNC;
	su.n_methods = 1;
	if (wordexp("true", &su.we_cmd[0], WRDE_NOCMD) ||
	    wordexp("true", &su.we_cmd[1], WRDE_NOCMD)) {
		FAILF("wordexp");
		return;
	}
	su.have_cmd[0] = su.have_cmd[1] = true;
	ctx = bs_duet_context(&a, &su);
	du = bs_json_get(ctx, "duet");
	CHECK(json_object_get_boolean(bs_json_get(du, "no_mds")));
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(du, "seed")), 7);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(du, "resamples")), 200);
	json_object_put(ctx);
	bs_duet_setup_free(&su);
}

/*
 * The duet's --fail-on-regression (CONTEXT duet.fail_on_regression_pct) is
 * re-checked from the trace: report prints the gate's result and exits 0;
 * report --fail-on-regression exits 5 as the duet did.
 */
static void test_report_gate(void)
{
	struct df_spec sp = {.runs_per_method = 3,
			     .methods = {false, false, true},
			     .iters = 10,
			     .slow_b = 0.1,
			     .noise = 0.01,
			     .seed = 5,
			     .duet_extra = "\"fail_on_regression_pct\": 2"};
	struct bs_duet_args a = {.cmd = {"true", "true"}, .have_fail = true, .fail_pct = 2};
	struct bs_duet_setup su;
	char tr[300], json[300];
	json_object *j, *g, *ctx;
	char *s;

	fx_path(tr, sizeof(tr), "gate.trace");
	fx_path(json, sizeof(json), "gate.json");
	if (df_write(tr, &sp, &truth)) {
		FAILF("cannot write %s", tr);
		return;
	}
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){tr, "--json", json, "--no-mds", NULL}),
	    0);
	j = json_object_from_file(json);
	g = bs_json_get(bs_json_get(j, "outcome"), "regression");
	CHECK(g && json_object_get_boolean(bs_json_get(g, "regressed")));
	CHECK_NEAR(json_object_get_double(bs_json_get(g, "fail_pct")), 2, 0, 0);
	CHECK(g && strstr(bs_json_str(g, "text", ""), "B is slower than A by more than 2 %"));
	json_object_put(j);
	CHECK_INT_EQ(run_cmd(cmd_report, "report", (const char *[]){tr, "--no-mds", NULL}), 0);
	s = slurp(out_path);
	CHECK(s && strstr(s, "\n  regression  gate 2 %: REGRESSION: B is slower than A by more "
			     "than 2 % in synth (async verdict"));
	free(s);
	/* asked: exit 5, one line */
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){tr, "--no-mds", "--fail-on-regression", "2", NULL}),
		     5);
	check_one_line_err("benchscope report: regression: B is slower than A by more than 2 %");
	/* another gate given replaces the recorded one */
	CHECK_INT_EQ(run_cmd(cmd_report, "report",
			     (const char *[]){tr, "--no-mds", "--fail-on-regression", "50", NULL}),
		     0);
	s = slurp(out_path);
	CHECK(s && strstr(s, "\n  regression  gate 50 %: passed"));
	free(s);
	/* no gate: no line, JSON null */
	sp.duet_extra = NULL;
	CHECK_INT_EQ(df_write(tr, &sp, &truth), 0);
	CHECK_INT_EQ(
	    run_cmd(cmd_report, "report", (const char *[]){tr, "--json", json, "--no-mds", NULL}),
	    0);
	s = slurp(out_path);
	CHECK(s && !strstr(s, "regression  gate"));
	free(s);
	j = json_object_from_file(json);
	CHECK(j && json_object_object_get_ex(bs_json_get(j, "outcome"), "regression", &g) && !g);
	json_object_put(j);
	/* what the duet writes */
	memset(&su, 0, sizeof(su));
	su.methods[0] = BS_DM_RUN_ASYNC;
	su.n_methods = 1;
	if (wordexp("true", &su.we_cmd[0], WRDE_NOCMD) ||
	    wordexp("true", &su.we_cmd[1], WRDE_NOCMD)) {
		FAILF("wordexp");
		return;
	}
	su.have_cmd[0] = su.have_cmd[1] = true;
	ctx = bs_duet_context(&a, &su);
	CHECK_NEAR(
	    json_object_get_double(bs_json_get(bs_json_get(ctx, "duet"), "fail_on_regression_pct")),
	    2, 0, 0);
	json_object_put(ctx);
	bs_duet_setup_free(&su);
}

int main(void)
{
	bs_stats_init();
	fx_path(out_path, sizeof(out_path), "stdout.txt");
	fx_path(err_path, sizeof(err_path), "stderr.txt");
	RUN_TEST(test_report_csv_json);
	RUN_TEST(test_report_unrecorded);
	RUN_TEST(test_report_lost);
	RUN_TEST(test_report_zero_time);
	RUN_TEST(test_report_plot);
	RUN_TEST(test_report_plot_name);
	RUN_TEST(test_import_round_trip);
	RUN_TEST(test_import_renaissance_vs_scipy);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_import_not_over_special);
	RUN_TEST(test_import_path_errors);
	RUN_TEST(test_report_stdout_full);
	RUN_TEST(test_report_context_defaults);
	RUN_TEST(test_report_gate);
	return test_summary("test_duet_cli");
}
