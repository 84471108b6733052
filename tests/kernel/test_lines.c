// SPDX-License-Identifier: MIT
/*
 * test_lines - output-line boundaries (--line, --begin-line/--end-line) on
 * real, unmodified programs that print a line per iteration with their own
 * timing, checked against the figures they print (parsed here from their
 * own output, which benchscope lets through unchanged):
 *
 *  - Debian's `python3 -m timeit -v -v -v`: one line per autorange trial,
 *    "N loops -> T secs" (T with 5 significant digits), printed right after
 *    the trial; --line, so iteration k runs from trial k's line to trial
 *    k+1's. Python's perf_counter window lies inside ours (it starts after
 *    the previous line's write and stops before this line's), so ours >= T
 *    (less T's rounding, 5e-5 relative); ours - T is what the interpreter
 *    does between its timer reads and the writes (10-130 us measured on the
 *    development VM) plus any time it spent off CPU there, so it must stay
 *    within 1 ms plus the off-CPU time we accounted in the iteration.
 *  - Debian's `openssl speed -elapsed -mr`: "+DT:alg:..." before each run,
 *    "+R:count:alg:seconds" after it; --begin-line/--end-line, with the run's
 *    name, its count (invocations) and its time (the score). openssl times
 *    with times(2), in ticks of 1/CLK_TCK s (10 ms), so ours and its figure
 *    may differ by less than one tick, plus the write and timer calls
 *    between (2 ms allowed) and any off-CPU time.
 *  - bad regexes and a regex that never matches: one-line errors, exit 2;
 *    exit 3 with a warning naming the regex and the first line.
 *  - an A/A duet (async and seq runs) of openssl speed: named, counted
 *    iterations on both sides; sync, interleaved and auto refused with the
 *    reason.
 */
#include <regex.h>

#include "ktest.h"

/* The line events (kind "line") of role @role, in trace order. */
static size_t line_events(const struct bs_dataset *ds, const char *role, json_object **out,
			  size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < json_object_array_length(ds->events) && n < max; i++) {
		json_object *ev = json_object_array_get_idx(ds->events, i), *k, *r;

		if (json_object_object_get_ex(ev, "kind", &k) &&
		    !strcmp(json_object_get_string(k), "line") &&
		    json_object_object_get_ex(ev, "role", &r) &&
		    !strcmp(json_object_get_string(r), role))
			out[n++] = ev;
	}
	return n;
}

static double ev_double(json_object *ev, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(ev, key, &v) ? json_object_get_double(v) : NAN;
}

/* Every match of @re in @text (line by line): group 1 and 2 as numbers. */
static size_t parse_lines(const char *text, const char *re, double *g1, double *g2, char **g3,
			  size_t max)
{
	regex_t rx;
	regmatch_t m[4];
	const char *p = text;
	size_t n = 0;

	if (regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE))
		return 0;
	while (n < max && !regexec(&rx, p, 4, m, 0)) {
		g1[n] = strtod(p + m[1].rm_so, NULL);
		g2[n] = strtod(p + m[2].rm_so, NULL);
		if (g3 && m[3].rm_so >= 0)
			g3[n] = strndup(p + m[3].rm_so, (size_t)(m[3].rm_eo - m[3].rm_so));
		n++;
		p += m[0].rm_eo;
	}
	regfree(&rx);
	return n;
}

static void test_timeit_line_per_trial(void)
{
	const char *trace = ktmp("ti.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"-o",
			(char *)trace,
			"--line",
			"^(?<invocations>[0-9]+) loops? -> (?<score>[0-9.e+-]+) secs",
			"--score-unit",
			"s",
			"--",
			"/usr/bin/env",
			"PYTHONUNBUFFERED=1",
			"/usr/bin/python3",
			"-m",
			"timeit",
			"-v",
			"-v",
			"-v",
			"-s",
			"x = list(range(300))",
			"sorted(x)",
			NULL};
	static struct kresult r;
	struct bs_dataset *ds;
	double loops[64], secs[64];
	json_object *ev[64];
	size_t n, i, nev, long_ones = 0;

	NEED_BPF();
	if (access("/usr/bin/python3", X_OK) || access("/usr/lib/python3.11/timeit.py", R_OK))
		SKIP("Debian's python3 (3.11, with timeit) is not installed here (vmtest guests "
		     "carry no Python)");
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	/* the harness's own lines reached its stdout unchanged */
	n = parse_lines(r.out, "^([0-9]+) loops? -> ([0-9.e+-]+) secs$", loops, secs, NULL, 64);
	CHECK(n >= 8);
	CHECK_INT_EQ(ds->n_iters, n - 1);
	nev = line_events(ds, "line", ev, 64);
	CHECK_INT_EQ(nev, n);
	for (i = 0; i + 1 < n && i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];
		double ours = dur_ns(it), theirs = secs[i + 1] * 1e9;
		double off = (double)(it->runq_wait_ns + it->blocked_ns);

		CHECK_INT_EQ(it->index, i);
		CHECK(it->flags & BS_ITER_F_INVOC);
		CHECK_INT_EQ(it->invocations, (uint64_t)loops[i + 1]);
		/* the score group captured the printed time */
		CHECK_NEAR(ev_double(ev[i + 1], "score_ns"), theirs, 1e-6, 1e-9);
		if (ours < theirs * (1 - 5e-5) - 1000 || ours - theirs > 1e6 + off) {
			FAILF(
			    "trial of %.0f loops: ours %.0f ns, timeit's %.0f ns (off CPU %.0f ns)",
			    loops[i + 1], ours, theirs, off);
		}
		if (theirs >= 5e6)
			long_ones++;
	}
	CHECK(long_ones >= 2);
	bs_dataset_free(ds);
	unlink(trace);
}

static void test_openssl_begin_end(void)
{
	const char *trace = ktmp("os.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"-o",
			(char *)trace,
			"--begin-line",
			"^\\+DT:(?<name>[^:]+):",
			"--end-line",
			"^\\+R:(?<invocations>[0-9]+):[^:]+:(?<score>[0-9.]+)",
			"--score-unit",
			"s",
			"--",
			"/usr/bin/openssl",
			"speed",
			"-elapsed",
			"-mr",
			"-seconds",
			"1",
			"-bytes",
			"1024",
			"md5",
			"sha256",
			NULL};
	static struct kresult r;
	struct bs_dataset *ds;
	double count[8], secs[8], tick = 1e9 / (double)sysconf(_SC_CLK_TCK);
	char *alg[8] = {0};
	json_object *ev[8];
	size_t n, i;

	NEED_BPF();
	if (access("/usr/bin/openssl", X_OK))
		SKIP("Debian's openssl is not installed here");
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	n = parse_lines(r.err, "^\\+R:([0-9]+):[^:]+:([0-9.]+)()$", count, secs, NULL, 8);
	CHECK_INT_EQ(n, 2);
	CHECK_INT_EQ(ds->n_iters, n);
	CHECK_INT_EQ(line_events(ds, "end", ev, 8), n);
	{
		double dummy[8];

		CHECK_INT_EQ(parse_lines(r.err, "^\\+DT:()()([^:]+):", dummy, dummy, alg, 8), 2);
	}
	for (i = 0; i < n && i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];
		double ours = dur_ns(it), theirs = secs[i] * 1e9;
		double off = (double)(it->runq_wait_ns + it->blocked_ns);
		double slack =
		    ktest_relaxed("openssl's runs within a tick + 2 ms: + 20 ms") ? 2e7 : 0;
		const char *name = bs_dataset_bench_name(ds, it->pid, it->begin_ns);

		CHECK_INT_EQ(it->invocations, (uint64_t)count[i]);
		CHECK(name && alg[i] && !strcmp(name, alg[i]));
		CHECK_NEAR(ev_double(ev[i], "score_ns"), theirs, 1e-3, 1e-9);
		if (ours <= theirs - tick || ours - theirs > tick + 2e6 + off + slack)
			FAILF("%s: ours %.0f ns, openssl's %.0f ns (tick %.0f ns, off CPU %.0f ns)",
			      alg[i] ? alg[i] : "?", ours, theirs, tick, off);
	}
	for (i = 0; i < 8; i++)
		free(alg[i]);
	bs_dataset_free(ds);
	unlink(trace);
}

static void test_bad_regexes(void)
{
	char *bs = (char *)kpath("benchscope");

	kexpect_usage((char *[]){bs, "run", "--begin-line", "x", "--end-line", "(", "--",
				 "/usr/bin/true", NULL},
		      "--end-line: bad regex '('");
	kexpect_usage(
	    (char *[]){bs, "run", "--line", "(?<speed>[0-9]+)", "--", "/usr/bin/true", NULL},
	    "unknown group name 'speed'");
	kexpect_usage((char *[]){bs, "run", "--begin-line", "x", "--", "/usr/bin/true", NULL},
		      "--begin-line and --end-line go together");
	kexpect_usage((char *[]){bs, "run", "--line", "x", "--score-unit", "furlongs", "--",
				 "/usr/bin/true", NULL},
		      "--score-unit: unknown unit 'furlongs'");
	kexpect_usage(
	    (char *[]){bs, "run", "--line", "x", "--preset", "gbench", "--", "/usr/bin/true", NULL},
	    "give either output-line boundaries");
	kexpect_usage((char *[]){bs, "duet", "--begin-line", "a", "--end-line", "b", "-A",
				 "/usr/bin/true", "-B", "/usr/bin/true", NULL},
		      "output-line boundaries need --method async or seq");
	kexpect_usage((char *[]){bs, "duet", "--method", "async,sync", "--line", "a", "-A",
				 "/usr/bin/true", "-B", "/usr/bin/true", NULL},
		      "--method sync cannot use output-line boundaries");
}

static void test_never_matches(void)
{
	const char *trace = ktmp("nm.trace");
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"-o",
			(char *)trace,
			"--line",
			"^NEVER [0-9]+ ms$",
			"--",
			"/usr/bin/openssl",
			"version",
			NULL};
	static struct kresult r;

	NEED_BPF();
	if (access("/usr/bin/openssl", X_OK))
		SKIP("Debian's openssl is not installed here");
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 3);
	if (!strstr(r.err, "--line '^NEVER [0-9]+ ms$' matched none of the 1 lines") ||
	    !strstr(r.err, "(the first: 'OpenSSL "))
		FAILF("no clear warning: %s", r.err);
	CHECK(strstr(r.out, "OpenSSL ") == r.out); /* the harness's line reached stdout */
	unlink(trace);
}

/* An A/A duet of openssl speed (async and seq runs): every side's runs are
 * iterations named by the harness, paired per benchmark. */
static void test_duet_aa(void)
{
	const char *trace = ktmp("duet.trace");
	const char *cmd = "/usr/bin/openssl speed -elapsed -mr -seconds 1 -bytes 256 md5 sha1";
	char *argv[] = {(char *)kpath("benchscope"),
			"duet",
			"--method",
			"async,seq",
			"--runs",
			"2",
			"--noise-check",
			"0",
			"-o",
			(char *)trace,
			"--begin-line",
			"^\\+DT:(?<name>[^:]+):",
			"--end-line",
			"^\\+R:(?<invocations>[0-9]+):",
			"-A",
			(char *)cmd,
			"-B",
			(char *)cmd,
			NULL};
	static struct kresult r;
	struct bs_dataset *ds;
	size_t i, md5 = 0, sha1 = 0;

	NEED_BPF();
	if (access("/usr/bin/openssl", X_OK))
		SKIP("Debian's openssl is not installed here");
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	if (!strstr(r.out, "4 of 4 used") || !strstr(r.out, "Benchmark md5") ||
	    !strstr(r.out, "Benchmark sha1"))
		FAILF("duet report lacks the runs or the benchmarks:\n%s", r.out);
	/* 4 runs x 2 sides x 2 benchmarks, each named and with its count */
	CHECK_INT_EQ(ds->n_iters, 16);
	for (i = 0; i < ds->n_iters; i++) {
		const char *name =
		    bs_dataset_bench_name(ds, ds->iters[i].pid, ds->iters[i].begin_ns);

		CHECK(ds->iters[i].invocations > 0 && (ds->iters[i].flags & BS_ITER_F_INVOC));
		md5 += name && !strcmp(name, "md5");
		sha1 += name && !strcmp(name, "sha1");
	}
	CHECK_INT_EQ(md5, 8);
	CHECK_INT_EQ(sha1, 8);
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	RUN_TEST(test_timeit_line_per_trial);
	RUN_TEST(test_openssl_begin_end);
	RUN_TEST(test_bad_regexes);
	RUN_TEST(test_never_matches);
	RUN_TEST(test_duet_aa);
	return test_summary("kernel-lines");
}
