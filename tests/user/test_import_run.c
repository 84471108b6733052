// SPDX-License-Identifier: MIT
/*
 * test_import_run.c - the run-trace importers (import/formats.h,
 * import/run_trace.h) on small files written here in each tool's format:
 * samples (ns, invocations, warmup, process, benchmark), machine facts,
 * dropped items, the trace written and read back (flags, BENCH names, fork
 * events, CONTEXT), and bad input (one line, -EINVAL, no trace).
 */
#include "test.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/formats.h"
#include "report/summary.h"
#include "trace/dataset.h"

static char dir[64];

static const char *write_file(const char *name, const char *text)
{
	static char path[2][160];
	static int k;
	char *p = path[k++ % 2];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

/* import @text (written as @name) with @fmt into imp, begun already;
 * returns the importer's code */
static int import_more(struct bs_imp *imp, const char *fmt, const char *name, const char *text)
{
	const struct bs_import_format *f = bs_import_format_find(fmt);
	const char *p = write_file(name, text);

	if (!f)
		return -ENOENT;
	bs_imp_source(imp, p);
	return f->read(imp, p);
}

/* import @text (written as @name) with @fmt into a new imp; returns the importer's code */
static int import_text(struct bs_imp *imp, char *err, size_t errlen, const char *fmt,
		       const char *name, const char *text)
{
	const struct bs_import_format *f = bs_import_format_find(fmt);

	bs_imp_init(imp, fmt, f ? f->tool : "?", err, errlen);
	err[0] = 0;
	return import_more(imp, fmt, name, text);
}

static bool dropped(const struct bs_imp *imp, const char *what)
{
	for (size_t i = 0; i < imp->n_drops; i++)
		if (strstr(imp->drops[i].text, what))
			return true;
	return false;
}

static void check_sample(const struct bs_imp *imp, size_t i, uint32_t proc, uint32_t bench,
			 uint64_t ns, uint64_t inv, bool warm)
{
	if (i >= imp->n) {
		FAILF("sample %zu of %zu", i, imp->n);
		return;
	}
	CHECK_INT_EQ(imp->s[i].proc, proc);
	CHECK_INT_EQ(imp->s[i].bench, bench);
	CHECK_INT_EQ(imp->s[i].ns, ns);
	CHECK_INT_EQ(imp->s[i].invocations, inv);
	CHECK_INT_EQ(imp->s[i].warmup, warm);
}

static void test_gbench(void)
{
	struct bs_imp imp;
	char err[600];
	const char *gb =
	    "{\"context\": {\"host_name\": \"h1\", \"num_cpus\": 4, \"library_build_type\": "
	    "\"release\"},"
	    " \"benchmarks\": ["
	    "{\"name\": \"BM_A\", \"run_name\": \"BM_A\", \"run_type\": \"iteration\", "
	    "\"repetitions\": 2,"
	    " \"repetition_index\": 0, \"threads\": 1, \"iterations\": 1000, \"real_time\": 2.5,"
	    " \"cpu_time\": 2.4, \"time_unit\": \"us\"},"
	    "{\"name\": \"BM_A\", \"run_name\": \"BM_A\", \"run_type\": \"iteration\", "
	    "\"repetitions\": 2,"
	    " \"repetition_index\": 1, \"threads\": 1, \"iterations\": 1000, \"real_time\": 2.75,"
	    " \"cpu_time\": 2.7, \"time_unit\": \"us\", \"bytes_per_second\": 1e9},"
	    "{\"name\": \"BM_A_mean\", \"run_name\": \"BM_A\", \"run_type\": \"aggregate\","
	    " \"aggregate_name\": \"mean\", \"iterations\": 2, \"real_time\": 2.625, "
	    "\"time_unit\": \"us\"},"
	    "{\"name\": \"BM_B/8\", \"run_type\": \"iteration\", \"iterations\": 3, \"real_time\": "
	    "10.4,"
	    " \"time_unit\": \"ns\"}]}";

	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "gbench", "gb.json", gb), 0);
	CHECK_INT_EQ(imp.n, 3);
	CHECK_INT_EQ(imp.n_benches, 2);
	CHECK_INT_EQ(imp.n_procs, 2);
	check_sample(&imp, 0, 0, 0, 2500000, 1000, false);
	check_sample(&imp, 1, 0, 0, 2750000, 1000, false);
	check_sample(&imp, 2, 1, 1, 31, 3, false); /* 31.2 ns rounded */
	CHECK_INT_EQ(imp.n_rounded, 1);
	CHECK(dropped(&imp, "aggregate rows 'mean'"));
	CHECK(dropped(&imp, "cpu_time"));
	CHECK(dropped(&imp, "user counter 'bytes_per_second'"));
	CHECK(!strcmp(json_object_get_string(bs_imp_get(imp.machine, "hostname", json_type_string)),
		      "h1"));
	bs_imp_free(&imp);
}

/*
 * Two Google Benchmark files are two processes of the harness: a benchmark's
 * repetitions in each are a synthetic process of their own (a run for
 * compare's bootstrap), and the repetitions within one file stay one.
 */
#define GB_REP                                                                                     \
	"{\"name\": \"BM_A\", \"run_name\": \"BM_A\", \"run_type\": "                              \
	"\"iteration\", \"iterations\": 10, \"real_time\": %d, \"time_unit\": "                    \
	"\"ns\"}"
static void test_gbench_files_are_processes(void)
{
	struct bs_imp imp;
	char err[600];
	char one[200], text[1000];

	snprintf(one, sizeof(one), GB_REP, 5);
	snprintf(text, sizeof(text), "{\"context\": {}, \"benchmarks\": [%s, %s]}", one, one);
	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "gbench", "f1.json", text), 0);
	snprintf(one, sizeof(one), GB_REP, 7);
	snprintf(text, sizeof(text), "{\"context\": {}, \"benchmarks\": [%s, %s]}", one, one);
	CHECK_INT_EQ(import_more(&imp, "gbench", "f2.json", text), 0);
	CHECK_INT_EQ(imp.n, 4);
	CHECK_INT_EQ(imp.n_benches, 1);
	CHECK_INT_EQ(imp.n_procs, 2);
	check_sample(&imp, 0, 0, 0, 50, 10, false);
	check_sample(&imp, 1, 0, 0, 50, 10, false);
	check_sample(&imp, 2, 1, 0, 70, 10, false);
	check_sample(&imp, 3, 1, 0, 70, 10, false);
	bs_imp_free(&imp);
}

static void test_hyperfine(void)
{
	struct bs_imp imp;
	char err[600];

	CHECK_INT_EQ(
	    import_text(&imp, err, sizeof(err), "hyperfine", "hf.json",
			"{\"results\": [{\"command\": \"sleep 0.1\", \"mean\": 0.1, \"user\": "
			"0.001, \"system\": 0.002, \"times\": [0.100000123, 0.1, 0.099999], "
			"\"exit_codes\": [0, 1, 0]}]}"),
	    0);
	CHECK_INT_EQ(imp.n, 3);
	CHECK_INT_EQ(imp.n_procs, 3); /* a process per run */
	check_sample(&imp, 0, 0, 0, 100000123, 1, false);
	check_sample(&imp, 2, 2, 0, 99999000, 1, false);
	CHECK(dropped(&imp, "user and system"));
	CHECK(dropped(&imp, "1 runs exited non-zero"));
	bs_imp_free(&imp);
}

static void test_go(void)
{
	struct bs_imp imp;
	char err[600];

	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "go", "go.txt",
				 "goos: linux\ngoarch: amd64\npkg: x/y\ncpu: Some CPU @ 2GHz   \n"
				 "BenchmarkFoo-4   \t 1000\t 1234 ns/op\t 16 B/op\t 1 allocs/op\n"
				 "BenchmarkFoo-4   \t 2000\t 1200.5 ns/op\n"
				 "BenchmarkSub/case_1-4 \t 5 \t 10.25 ns/op \t 3.5 MB/s\n"
				 "--- BENCH: BenchmarkSkip-4\n"
				 "BenchmarkSkip-4 \t 0 \t NaN ns/op\n"
				 "    x_test.go:12: a log line\nPASS\nok  \tx/y\t1.2s\n"
				 "BenchmarkFoo-4 \tprinted by the benchmark\n"
				 "BenchmarkExp-4 \t 2 \t 1.5e+03 ns/op\n"),
		     0);
	CHECK_INT_EQ(imp.n, 4);
	CHECK_INT_EQ(imp.n_benches, 3);
	check_sample(&imp, 0, 0, 0, 1234000, 1000, false);
	check_sample(&imp, 1, 0, 0, 2401000, 2000, false);
	check_sample(&imp, 2, 1, 1, 51, 5, false);	/* 51.25 ns rounded */
	CHECK(!strcmp(imp.benches[0], "BenchmarkFoo")); /* one GOMAXPROCS: suffix cut */
	CHECK(!strcmp(imp.benches[1], "BenchmarkSub/case_1"));
	check_sample(&imp, 3, 2, 2, 3000, 2, false); /* 1.5e+03 ns/op: decimal with an exponent */
	CHECK(dropped(&imp, "metric B/op"));
	CHECK(dropped(&imp, "metric MB/s"));
	CHECK(dropped(&imp, "BenchmarkSkip-4: a result with 0 iterations"));
	CHECK(
	    !strcmp(json_object_get_string(bs_imp_get(imp.machine, "cpu_model", json_type_string)),
		    "Some CPU @ 2GHz"));
	bs_imp_free(&imp);
	/* two GOMAXPROCS settings: the names keep their suffix */
	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "go", "go2.txt",
				 "BenchmarkFoo-1 10 5 ns/op\nBenchmarkFoo-2 10 6 ns/op\n"),
		     0);
	CHECK_INT_EQ(imp.n_benches, 2);
	CHECK(imp.n_benches == 2 && !strcmp(imp.benches[1], "BenchmarkFoo-2"));
	bs_imp_free(&imp);
}

static void test_pyperf(void)
{
	struct bs_imp imp;
	char err[600];

	CHECK_INT_EQ(
	    import_text(&imp, err, sizeof(err), "pyperf", "py.json",
			"{\"version\": \"1.0\", \"metadata\": {\"hostname\": \"h\", "
			"\"inner_loops\": 2, \"unit\": \"second\", \"cpu_count\": 8}, "
			"\"benchmarks\": [{\"metadata\": {\"name\": \"b1\", \"loops\": 4}, "
			"\"runs\": [{\"metadata\": {\"calibrate_loops\": 4}, \"warmups\": "
			"[[1, 1e-6], [2, 1.5e-6]]}, {\"metadata\": {\"date\": \"x\"}, "
			"\"warmups\": [[4, 2e-6]], \"values\": [1e-6, 1.25e-6]}]}, "
			"{\"metadata\": {\"name\": \"mem\", \"unit\": \"byte\"}, \"runs\": "
			"[{\"values\": [1000]}]}]}"),
	    0);
	CHECK_INT_EQ(imp.n, 5);
	CHECK_INT_EQ(imp.n_procs, 2);
	check_sample(&imp, 0, 0, 0, 2000, 2, true);  /* 1 loop x 2 inner x 1 us */
	check_sample(&imp, 1, 0, 0, 6000, 4, true);  /* 2 x 2 x 1.5 us */
	check_sample(&imp, 2, 1, 0, 16000, 8, true); /* warmup of the second run */
	check_sample(&imp, 3, 1, 0, 8000, 8, false); /* 4 loops x 2 inner x 1 us */
	check_sample(&imp, 4, 1, 0, 10000, 8, false);
	CHECK(dropped(&imp, "mem: values in byte"));
	CHECK(dropped(&imp, "per-run metadata"));
	bs_imp_free(&imp);
}

static void test_jmh(void)
{
	struct bs_imp imp;
	char err[600];

	CHECK_INT_EQ(
	    import_text(
		&imp, err, sizeof(err), "jmh", "jmh.json",
		"[{\"jmhVersion\": \"1.37\", \"benchmark\": \"a.B.m\", \"mode\": \"avgt\", "
		"\"jvm\": \"/usr/bin/java\", \"vmName\": \"VM\", \"warmupIterations\": 2, "
		"\"params\": {\"n\": \"10\"}, \"primaryMetric\": {\"score\": 2.0, "
		"\"scoreUnit\": \"us/op\", \"rawData\": [[1.5, 2.5], [2.0]]}, "
		"\"secondaryMetrics\": {\"gc.alloc.rate\": {}}},"
		"{\"benchmark\": \"a.B.t\", \"mode\": \"thrpt\", \"primaryMetric\": "
		"{\"scoreUnit\": \"ops/s\", \"rawData\": [[5.0]]}},"
		"{\"benchmark\": \"a.B.s\", \"mode\": \"sample\", \"primaryMetric\": "
		"{\"scoreUnit\": \"ns/op\", \"rawDataHistogram\": [[[[100.0, 3], [250.0, 1]]]]}}]"),
	    0);
	CHECK_INT_EQ(imp.n, 5);
	CHECK_INT_EQ(imp.n_procs, 3); /* two forks of m, one of s */
	check_sample(&imp, 0, 0, 0, 1500, 1, false);
	check_sample(&imp, 1, 0, 0, 2500, 1, false);
	check_sample(&imp, 2, 1, 0, 2000, 1, false);
	check_sample(&imp, 3, 2, 1, 300, 3, false);
	check_sample(&imp, 4, 2, 1, 250, 1, false);
	CHECK(imp.n_benches == 2 && !strcmp(imp.benches[0], "a.B.m(n=10)"));
	CHECK(dropped(&imp, "thrpt-mode scores in ops/s"));
	CHECK(dropped(&imp, "secondary metrics"));
	CHECK(!strcmp(json_object_get_string(imp.tool_version), "1.37"));
	CHECK(bs_imp_get(imp.machine, "jvm", json_type_string) != NULL);
	bs_imp_free(&imp);
}

static void test_criterion(void)
{
	struct bs_imp imp;
	char err[600], p[200];

	snprintf(p, sizeof(p), "%s/crit/grp/case/new", dir);
	CHECK(!system(strcat(strcpy((char[256]){0}, "mkdir -p "), p)));
	write_file("crit/grp/case/new/sample.json",
		   "{\"sampling_mode\": \"Linear\", \"iters\": [1.0, 2.0, 3.0], "
		   "\"times\": [1000.0, 2100.0, 2950.0]}");
	write_file("crit/grp/case/new/benchmark.json", "{\"full_id\": \"grp/case\"}");
	write_file("crit/grp/case/new/estimates.json", "{\"mean\": {}}");
	snprintf(p, sizeof(p), "%s/crit", dir);
	bs_imp_init(&imp, "criterion", "criterion.rs", err, sizeof(err));
	CHECK_INT_EQ(bs_import_criterion(&imp, p), 0);
	CHECK_INT_EQ(imp.n, 3);
	check_sample(&imp, 0, 0, 0, 1000, 1, false);
	check_sample(&imp, 2, 0, 0, 2950, 3, false);
	CHECK(imp.n_benches == 1 && !strcmp(imp.benches[0], "grp/case"));
	CHECK(dropped(&imp, "estimates.json"));
	bs_imp_free(&imp);
}

/* the trace written from a gbench import, read back as `report` reads it */
static void test_write_read(void)
{
	struct bs_imp imp;
	struct bs_dataset *ds = NULL;
	struct bs_run_summary s;
	char err[600], trace[200];
	json_object *im;

	CHECK_INT_EQ(
	    import_text(&imp, err, sizeof(err), "pyperf", "w.json",
			"{\"version\": \"1.0\", \"benchmarks\": [{\"metadata\": {\"name\": "
			"\"b\", \"loops\": 1}, \"runs\": [{\"warmups\": [[1, 2e-6]], "
			"\"values\": [1e-6, 3e-6]}, {\"values\": [2e-6]}]}]}"),
	    0);
	snprintf(trace, sizeof(trace), "%s/w.trace", dir);
	CHECK_INT_EQ(bs_imp_write(&imp, trace), 0);
	bs_imp_free(&imp);
	if (bs_dataset_load(trace, &ds, err, sizeof(err))) {
		FAILF("load: %s", err);
		return;
	}
	CHECK_INT_EQ(ds->n_iters, 4);
	CHECK_INT_EQ(ds->n_benches, 2); /* one BENCH record per process */
	CHECK_INT_EQ(ds->run_ev.n_forks, 2);
	CHECK(!strcmp(ds->run_ctx.boundaries_kind, "import"));
	CHECK_INT_EQ(ds->iters[0].flags & BS_ITER_F_WARMUP, BS_ITER_F_WARMUP);
	CHECK_INT_EQ(ds->iters[1].end_ns - ds->iters[1].begin_ns, 1000);
	CHECK_INT_EQ(ds->iters[1].begin_ns, ds->iters[0].end_ns); /* laid end to end */
	CHECK_INT_EQ(ds->iters[3].flags & (BS_ITER_F_SYNTH_TIME | BS_ITER_F_NO_INTF),
		     BS_ITER_F_SYNTH_TIME | BS_ITER_F_NO_INTF);
	CHECK(!strcmp(bs_dataset_bench_name(ds, ds->iters[3].pid, ds->iters[3].begin_ns), "b"));
	CHECK(
	    json_object_object_get_ex(ds->context, "import", &im) &&
	    !strcmp(json_object_get_string(bs_imp_get(im, "format", json_type_string)), "pyperf"));
	CHECK_INT_EQ(bs_run_summarize(ds, 0, &s), 0);
	CHECK_INT_EQ(s.overall.n_iters, 3); /* the warmup left out, nothing as calibration */
	CHECK_INT_EQ(s.n_calibration, 0);
	CHECK_INT_EQ(s.overall.intf.n_measured, 0);
	CHECK(s.n_benches == 1 && s.benches[0].n_iters == 3);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
	CHECK(access(strcat(trace, ".part"), F_OK) != 0);
}

static void bad_case(const char *fmt, const char *text, const char *want)
{
	struct bs_imp imp;
	char err[600], trace[200];
	int ret = import_text(&imp, err, sizeof(err), fmt, "bad.in", text);

	if (!ret) {
		snprintf(trace, sizeof(trace), "%s/bad.trace", dir);
		ret = bs_imp_write(&imp, trace);
		CHECK(access(trace, F_OK) != 0);
	}
	if (ret != -EINVAL || !strstr(err, want) || strchr(err, '\n'))
		FAILF("%s on %.40s: %d '%s', wanted -EINVAL with '%s'", fmt, text, ret, err, want);
	bs_imp_free(&imp);
}

static void test_bad_input(void)
{
	bad_case("gbench", "", "empty file");
	bad_case("gbench", "{\"benchmarks\": [{\"name\": \"x\", \"iterations\": 1", "truncated");
	bad_case("gbench", "{\"x\": 1}", "no \"benchmarks\" array");
	bad_case("gbench", "{\"benchmarks\": [{\"name\": \"x\", \"iterations\": 5}]}",
		 "no number \"real_time\"");
	bad_case("gbench",
		 "{\"benchmarks\": [{\"name\": \"x\", \"iterations\": 5, \"real_time\": -1}]}",
		 "negative time");
	bad_case("gbench",
		 "{\"benchmarks\": [{\"name\": \"x\", \"iterations\": 0, \"real_time\": 1}]}",
		 "not a count");
	bad_case("gbench",
		 "{\"benchmarks\": [{\"name\": \"x\", \"iterations\": 1, \"real_time\": 1, "
		 "\"time_unit\": \"fortnight\"}]}",
		 "unknown time_unit");
	bad_case("hyperfine", "{\"results\": [{\"command\": \"c\", \"times\": [NaN]}]}",
		 "time is NaN");
	bad_case("hyperfine", "{\"results\": []}", "no sample");
	bad_case("go", "hello\n", "no Benchmark result line");
	bad_case("go", "BenchmarkX 10 5\n", "a value without its unit");
	/* a count or ns/op Go never prints: refused with its line, not skipped or misread */
	bad_case("go", "BenchmarkA-2 10 5 ns/op\nBenchmarkA-2 99999999999999999999999 5 ns/op\n",
		 "bad.in: line 2: bad iteration count '99999999999999999999999'");
	bad_case("go", "BenchmarkA-2 -7 5 ns/op\n", "line 1: bad iteration count '-7'");
	bad_case("go", "BenchmarkA-2 1e3 5 ns/op\n", "line 1: bad iteration count '1e3'");
	bad_case("go", "BenchmarkA-2 1000 0x10 ns/op\n", "line 1: bad ns/op value '0x10'");
	bad_case("go", "BenchmarkA-2 1000 1e-30 ns/op\n", "time 1e-27 ns rounds to 0 ns");
	bad_case("go", "BenchmarkA-2 1000 0 ns/op\n", "time 0 ns rounds to 0 ns");
	bad_case("go", "BenchmarkA-2 1000 5 ns/op 0x10 B/op\n", "line 1: '0x10' is not a number");
	{
		/* 32 metrics after the count: the 64-field line Go never writes is
		 * refused, not read up to its 64th field */
		char many[1024] = "BenchmarkA-2 1000";

		for (int i = 0; i < 32; i++)
			snprintf(many + strlen(many), sizeof(many) - strlen(many), " %d m%d/op", i,
				 i);
		strcat(many, "\n");
		bad_case("go", many, "line 1: more than 64 fields (31 metrics)");
	}
	bad_case("pyperf", "{\"version\": \"2.0\", \"benchmarks\": []}", "format version 2.0");
	bad_case("pyperf",
		 "{\"version\": \"1.0\", \"benchmarks\": [{\"metadata\": {\"name\": \"b\"}, "
		 "\"runs\": [{\"values\": [1e-6]}]}]}",
		 "no \"loops\"");
	bad_case("jmh", "{}", "not an array");
	bad_case("jmh",
		 "[{\"benchmark\": \"b\", \"primaryMetric\": {\"scoreUnit\": \"ns/op\", "
		 "\"rawData\": [[\"x\"]]}}]",
		 "is not a number");
}

/* inputs fuzz_import_formats found (fuzz/corpus/import_formats/regress-*) */
static void test_fuzz_regressions(void)
{
	struct bs_imp imp;
	char err[600], text[400], want[320];
	json_object *full;

	/* criterion: the length message read times after its document was freed */
	bad_case("criterion", "{\"iters\": [1, 2], \"times\": [5]}", "2 iters but 1 times");
	/* pyperf, jmh: json-c asserted an array where the file had a number */
	bad_case("pyperf",
		 "{\"version\": \"1.0\", \"benchmarks\": [{\"metadata\": {\"name\": \"b\", "
		 "\"loops\": 1}, \"runs\": [{\"warmups\": [3], \"values\": [1e-6]}]}]}",
		 "warmup 0 is not [loops, value]");
	bad_case("jmh",
		 "[{\"benchmark\": \"b\", \"primaryMetric\": {\"scoreUnit\": \"ns/op\", "
		 "\"rawDataHistogram\": [[[5]]]}}]",
		 "bin 0 is not [time, count]");
	/* go: a name past 255 bytes lost its "-P" to a buffer, then strrchr gave NULL */
	snprintf(want, sizeof(want), "Benchmark%0300d", 7);
	snprintf(text, sizeof(text), "%s-4 \t 10 \t 5 ns/op\n", want);
	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "go", "long.txt", text), 0);
	CHECK_INT_EQ(imp.n, 1);
	CHECK_INT_EQ(imp.n_benches, 1);
	CHECK(imp.long_names && imp.n_benches == 1 &&
	      json_object_object_get_ex(imp.long_names, imp.benches[0], &full) &&
	      !strcmp(json_object_get_string(full), want));
	bs_imp_free(&imp);
}

/* names past a BENCH record's 103 bytes: one benchmark per full name, shown names unique */
static void test_long_names(void)
{
	struct bs_imp imp;
	char err[600], text[1200], lng[130], clash[110];

	/* gbench repetitions of one long-named benchmark: one benchmark, one process */
	snprintf(lng, sizeof(lng), "BM_%0120d", 1);
	snprintf(text, sizeof(text),
		 "{\"benchmarks\": [{\"name\": \"%s\", \"iterations\": 10, \"real_time\": 5}, "
		 "{\"name\": \"%s\", \"iterations\": 10, \"real_time\": 6}]}",
		 lng, lng);
	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "gbench", "long.json", text), 0);
	CHECK_INT_EQ(imp.n, 2);
	CHECK_INT_EQ(imp.n_benches, 1);
	CHECK_INT_EQ(imp.n_procs, 1);
	bs_imp_free(&imp);
	/* a short name equal to the long one's shortened name: two benchmarks, two names */
	snprintf(clash, sizeof(clash), "%.*s~0", BS_BENCH_NAME_LEN - 12, lng);
	snprintf(text, sizeof(text),
		 "{\"results\": [{\"command\": \"%s\", \"times\": [0.1]}, "
		 "{\"command\": \"%s\", \"times\": [0.2]}]}",
		 lng, clash);
	CHECK_INT_EQ(import_text(&imp, err, sizeof(err), "hyperfine", "clash.json", text), 0);
	CHECK_INT_EQ(imp.n_benches, 2);
	CHECK(imp.n_benches == 2 && strcmp(imp.benches[0], imp.benches[1]));
	CHECK(dropped(&imp, "equal to another's shortened name"));
	bs_imp_free(&imp);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/bs-test-import-run-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN_TEST(test_gbench);
	RUN_TEST(test_gbench_files_are_processes);
	RUN_TEST(test_hyperfine);
	RUN_TEST(test_go);
	RUN_TEST(test_pyperf);
	RUN_TEST(test_jmh);
	RUN_TEST(test_criterion);
	RUN_TEST(test_write_read);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_fuzz_regressions);
	RUN_TEST(test_long_names);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "note: could not remove %s\n", dir);
	}
	return test_summary("test_import_run");
}
