// SPDX-License-Identifier: MIT
/* test_lines - output-line boundaries without BPF: the regexes with named
 * groups, the options' checks, and the matcher fed hand-built write and
 * segment records shaped as the kernel emits them (a thread's segment
 * ending at a write arrives before that write's record). */
#include "probe/lines.h"
#include <errno.h>
#include <string.h>
#include "test.h"

/* ---- what the matcher produced ---- */
static struct bs_iter_rec got_iter[16];
static int n_iter;
static struct bs_bench_rec got_bench[8];
static int n_bench;
static json_object *got_ev[32];
static int n_ev;

static int on_iter(void *ctx, struct bs_iter_rec *r)
{
	(void)ctx;
	if (n_iter < 16)
		got_iter[n_iter++] = *r;
	return 0;
}

static int on_bench(void *ctx, const struct bs_bench_rec *r)
{
	(void)ctx;
	if (n_bench < 8)
		got_bench[n_bench++] = *r;
	return 0;
}

static int on_event(void *ctx, json_object *ev)
{
	(void)ctx;
	if (n_ev < 32)
		got_ev[n_ev++] = json_object_get(ev);
	return 0;
}

static void reset(void)
{
	for (int i = 0; i < n_ev; i++)
		json_object_put(got_ev[i]);
	n_iter = n_bench = n_ev = 0;
}

static const struct bs_lines_out out = {NULL, on_iter, on_bench, on_event};

static void write_rec(struct bs_lines *l, uint32_t tid, uint64_t ts, const char *text)
{
	struct bs_line_rec w;
	size_t n = strlen(text);

	memset(&w, 0, sizeof(w));
	w.type = BS_REC_LINE;
	w.pid = 100;
	w.tid = tid;
	w.fd = 1;
	w.ts_ns = ts;
	w.len = n;
	w.data_len = n < BS_LINE_DATA_LEN ? (uint32_t)n : BS_LINE_DATA_LEN;
	memcpy(w.data, text, w.data_len);
	bs_lines_write(l, &w);
}

static void seg(struct bs_lines *l, uint32_t tid, uint64_t b, uint64_t e, uint64_t preempted,
		uint32_t nivcsw)
{
	struct bs_iter_rec r;

	memset(&r, 0, sizeof(r));
	r.type = BS_REC_ITER;
	r.pid = 100;
	r.tid = tid;
	r.begin_ns = b;
	r.end_ns = e;
	r.preempted_ns = preempted;
	r.runq_wait_ns = preempted;
	r.nivcsw = nivcsw;
	bs_lines_segment(l, &r);
}

static const char *ev_str(json_object *ev, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(ev, k, &v) ? json_object_get_string(v) : NULL;
}

static double ev_num(json_object *ev, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(ev, k, &v) ? json_object_get_double(v) : -1;
}

static void test_named_groups(void)
{
	struct bs_line_regex r;
	char err[256];

	CHECK_INT_EQ(
	    bs_line_regex_compile(&r, "^([a-z]+) (?<invocations>[0-9]+) [(](?<score>[0-9.]+)\\)",
				  "--line", err, sizeof(err)),
	    0);
	CHECK_INT_EQ(r.group[BS_LGROUP_INVOCATIONS], 2);
	CHECK_INT_EQ(r.group[BS_LGROUP_SCORE], 3);
	CHECK_INT_EQ(r.group[BS_LGROUP_NAME], 0);
	bs_line_regex_free(&r);
	/* brackets holding ( and ], a character class, an escaped paren */
	CHECK_INT_EQ(
	    bs_line_regex_compile(&r, "[](][[:digit:]]+\\((?<name>x)", "--line", err, sizeof(err)),
	    0);
	CHECK_INT_EQ(r.group[BS_LGROUP_NAME], 1);
	bs_line_regex_free(&r);
}

static void test_bad_regexes(void)
{
	struct bs_line_regex r;
	char err[256];

	CHECK_INT_EQ(bs_line_regex_compile(&r, "(ab", "--end-line", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "--end-line: bad regex '(ab'") != NULL);
	CHECK(!strchr(err, '\n'));
	CHECK_INT_EQ(bs_line_regex_compile(&r, "(?:ab)", "--line", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "named groups") != NULL);
	CHECK_INT_EQ(bs_line_regex_compile(&r, "(?<speed>1)", "--line", err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "unknown group name 'speed'") != NULL);
	CHECK_INT_EQ(
	    bs_line_regex_compile(&r, "(?<score>1)(?<score>2)", "--line", err, sizeof(err)),
	    -EINVAL);
	CHECK(strstr(err, "twice") != NULL);
	CHECK_INT_EQ(bs_line_regex_compile(&r, "", "--line", err, sizeof(err)), -EINVAL);
}

static void test_units_and_options(void)
{
	struct bs_lines_cfg cfg;
	char err[256];
	double ns;
	bool per_op;

	CHECK_INT_EQ(bs_line_unit_parse("secs", 4, &ns, &per_op), 0);
	CHECK(ns == 1e9 && !per_op);
	CHECK_INT_EQ(bs_line_unit_parse("us/op", 5, &ns, &per_op), 0);
	CHECK(ns == 1e3 && per_op);
	CHECK_INT_EQ(bs_line_unit_parse("ops/s", 5, &ns, &per_op), -EINVAL);

	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &(struct bs_lines_spec){.line = "a", .end_line = "b"},
				       err, sizeof(err)),
		     -EINVAL);
	CHECK_INT_EQ(
	    bs_lines_cfg_init(&cfg, &(struct bs_lines_spec){.begin_line = "a"}, err, sizeof(err)),
	    -EINVAL);
	CHECK(strstr(err, "go together") != NULL);
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &(struct bs_lines_spec){.line = "a", .name_line = "b"},
				       err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "(?<name>") != NULL);
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg,
				       &(struct bs_lines_spec){.line = "a", .score_unit = "x"}, err,
				       sizeof(err)),
		     -EINVAL);
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg,
				       &(struct bs_lines_spec){.line = "a", .score_unit = "ms"},
				       err, sizeof(err)),
		     0);
	CHECK(cfg.unit_ns == 1e6);
	bs_lines_cfg_free(&cfg);
}

/* JMH's shape: the begin prompt without its newline, the score after */
static void test_begin_end_partial_line(void)
{
	struct bs_lines_spec sp = {.begin_line = "Iteration +[0-9]+: $",
				   .end_line =
				       "Iteration +[0-9]+: (?<score>[0-9.]+) (?<unit>[a-z]+/op)",
				   .name_line = "^# Benchmark: (?<name>.*)"};
	struct bs_lines_cfg cfg;
	struct bs_lines *l;
	struct bs_lines_stats st;
	char err[256];

	reset();
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &sp, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	write_rec(l, 5, 50, "# Benchmark: org.sample.Hello\n");
	seg(l, 5, 50, 100, 0, 0);
	/* `$` does not match before the newline (REG_NOTEOL): not a begin yet */
	write_rec(l, 5, 100, "Iteration   1: ");
	CHECK_INT_EQ(n_iter, 0);
	seg(l, 5, 100, 200, 7, 1);
	write_rec(l, 5, 200, "12.5 ns/op\n");
	CHECK_INT_EQ(n_iter, 0); /* no begin: "...: $" never matched */
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);

	reset();
	sp.begin_line = "Iteration +[0-9]+: ";
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &sp, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	write_rec(l, 5, 50, "# Benchmark: org.sample.Hello\n");
	seg(l, 5, 50, 100, 0, 0);
	write_rec(l, 5, 100, "Iteration   1: ");
	seg(l, 5, 100, 200, 7, 1);
	write_rec(l, 5, 200, "(progress)");
	seg(l, 5, 200, 300, 3, 2);
	write_rec(l, 5, 300, " 12.5 ns/op\n");
	CHECK_INT_EQ(n_iter, 0); /* "(progress) 12.5" is not the score's shape */
	seg(l, 5, 300, 400, 0, 0);
	write_rec(l, 5, 400, "Iteration   2: ");
	seg(l, 5, 400, 450, 11, 1);
	write_rec(l, 5, 450, "8.25 us/op\n");
	CHECK_INT_EQ(n_iter, 1);
	if (n_iter == 1) {
		CHECK(got_iter[0].begin_ns == 400 && got_iter[0].end_ns == 450);
		CHECK(got_iter[0].preempted_ns == 11 && got_iter[0].nivcsw == 1);
		CHECK(got_iter[0].index == 0 && !(got_iter[0].flags & BS_ITER_F_INVOC));
	}
	CHECK_INT_EQ(n_bench, 1);
	if (n_bench == 1)
		CHECK(!strcmp(got_bench[0].name, "org.sample.Hello") && got_bench[0].ts_ns == 50);
	/* the end event carries the score converted to ns, per invocation */
	CHECK(n_ev >= 1 && !strcmp(ev_str(got_ev[n_ev - 1], "role"), "end"));
	if (n_ev >= 1) {
		CHECK_NEAR(ev_num(got_ev[n_ev - 1], "score_ns"), 8250, 1e-9, 0);
		CHECK(!strcmp(ev_str(got_ev[n_ev - 1], "per_op"), "true"));
	}
	bs_lines_finish(l, NULL, &st);
	CHECK_INT_EQ(st.restarted, 1); /* iteration 1's begin was restarted by iteration 2's */
	CHECK_INT_EQ(st.partial, 0);
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);
}

/*
 * A process exits inside an iteration and with half a line written; a later
 * process given the same pid writes an end line and the rest of a line: no
 * iteration spans the two, the halves are not joined, the open one counts
 * as unfinished, and the later process's own iteration is counted.
 */
static void test_pid_reused(void)
{
	struct bs_lines_spec sp = {.begin_line = "^begin$", .end_line = "^end$"};
	struct bs_lines_cfg cfg;
	struct bs_lines *l;
	struct bs_lines_stats st;
	char err[256];

	reset();
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &sp, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	write_rec(l, 100, 10, "begin\n");
	write_rec(l, 100, 20, "be");
	bs_lines_proc_exit(l, 100);
	write_rec(l, 100, 30, "end\n");	       /* the new process: no begin of its own */
	write_rec(l, 100, 40, "gin\n");	       /* not "begin" */
	write_rec(l, 100, 50, "begin\nend\n"); /* one write: zero length, dropped */
	write_rec(l, 100, 60, "begin\n");
	write_rec(l, 100, 70, "end\n");
	CHECK_INT_EQ(n_iter, 1);
	if (n_iter == 1)
		CHECK(got_iter[0].begin_ns == 60 && got_iter[0].end_ns == 70 &&
		      got_iter[0].index == 0);
	bs_lines_finish(l, NULL, &st);
	CHECK_INT_EQ(st.end_without_begin, 1);
	CHECK_INT_EQ(st.matches[BS_LROLE_BEGIN], 3);
	CHECK_INT_EQ(st.unfinished, 1);
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);
}

/* timeit's shape: one line per finished trial; the first only begins */
static void test_line_mode(void)
{
	struct bs_lines_spec sp = {
	    .line = "^(?<invocations>[0-9]+) loops? -> (?<score>[0-9.e+-]+) secs",
	    .score_unit = "s"};
	struct bs_lines_cfg cfg;
	struct bs_lines *l;
	struct bs_lines_stats st;
	json_object *warn = json_object_new_array();
	char err[256];

	reset();
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &sp, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	write_rec(l, 9, 1000, "1 loop -> 2.6e-06 secs");
	write_rec(l, 9, 1010, "\n");
	seg(l, 9, 1000, 1010, 0, 0);
	seg(l, 9, 1010, 5000, 100, 2);
	write_rec(l, 9, 5000, "2 loops -> 3.9e-06 secs");
	seg(l, 9, 5000, 5010, 0, 0);
	write_rec(l, 9, 5010, "\n");
	seg(l, 9, 5010, 9000, 0, 0);
	write_rec(l, 9, 9000, "5 loops -> 3.99e-06 secs\n");
	CHECK_INT_EQ(n_iter, 2);
	if (n_iter == 2) {
		CHECK(got_iter[0].begin_ns == 1000 && got_iter[0].end_ns == 5000);
		CHECK(got_iter[0].invocations == 2 && (got_iter[0].flags & BS_ITER_F_INVOC));
		CHECK(got_iter[0].preempted_ns == 100 && got_iter[0].nivcsw == 2);
		CHECK(got_iter[1].begin_ns == 5000 && got_iter[1].end_ns == 9000);
		CHECK(got_iter[1].invocations == 5 && got_iter[1].index == 1);
	}
	CHECK_NEAR(ev_num(got_ev[n_ev - 1], "score_ns"), 3990, 1e-9, 0);
	CHECK_INT_EQ(bs_lines_finish(l, warn, &st), 0);
	CHECK_INT_EQ(st.matches[BS_LROLE_LINE], 3);
	CHECK_INT_EQ(st.partial, 0);
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);
	json_object_put(warn);
}

/* block-buffered output: every line in one write */
static void test_buffered_and_never(void)
{
	struct bs_lines_spec sp = {.line = "loops? ->"};
	struct bs_lines_spec never = {.begin_line = "^BEGIN", .end_line = "^END"};
	struct bs_lines_cfg cfg;
	struct bs_lines *l;
	struct bs_lines_stats st;
	json_object *warn = json_object_new_array();
	char err[256], big[600];

	reset();
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &sp, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	write_rec(l, 9, 1000, "1 loop -> 1\n2 loops -> 2\n5 loops -> 3\n");
	CHECK_INT_EQ(n_iter, 0);
	CHECK_INT_EQ(bs_lines_finish(l, warn, &st), 1);
	CHECK_INT_EQ(st.zero_length, 2);
	CHECK(strstr(json_object_get_string(json_object_array_get_idx(warn, 0)), "buffers") !=
	      NULL);
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);

	reset();
	json_object_put(warn);
	warn = json_object_new_array();
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &never, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	write_rec(l, 9, 1000, "hello\n");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	write_rec(l, 9, 2000, big); /* 599 bytes: only 256 kept */
	CHECK_INT_EQ(bs_lines_finish(l, warn, &st), 3);
	CHECK_INT_EQ(st.truncated, 1);
	CHECK(strstr(json_object_get_string(json_object_array_get_idx(warn, 0)),
		     "--begin-line '^BEGIN' matched none of the 2 lines") != NULL);
	CHECK(strstr(json_object_get_string(json_object_array_get_idx(warn, 0)), "'hello'") !=
	      NULL);
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);
	json_object_put(warn);
	reset();
}

/* A line of 5000 bytes, in writes of 250, whose --line match lies past the
 * 4096 bytes kept: not matched, and counted and warned about as cut. */
static void test_long_line(void)
{
	struct bs_lines_spec sp = {.line = "DONE"};
	struct bs_lines_cfg cfg;
	struct bs_lines *l;
	struct bs_lines_stats st;
	json_object *warn = json_object_new_array();
	char err[256], chunk[251];
	int i;

	reset();
	CHECK_INT_EQ(bs_lines_cfg_init(&cfg, &sp, err, sizeof(err)), 0);
	l = bs_lines_new(&cfg, &out);
	memset(chunk, 'x', 250);
	chunk[250] = 0;
	for (i = 0; i < 19; i++) /* 4750 bytes */
		write_rec(l, 9, 1000 + (uint64_t)i, chunk);
	write_rec(l, 9, 2000, "DONE\n");
	write_rec(l, 9, 3000, "short DONE\n");
	bs_lines_finish(l, warn, &st);
	CHECK_INT_EQ(st.long_lines, 1);
	CHECK_INT_EQ(st.lines, 2);
	CHECK_INT_EQ(st.matches[BS_LROLE_LINE], 1);
	{
		bool said = false;

		for (size_t k = 0; k < json_object_array_length(warn); k++)
			said |= strstr(json_object_get_string(json_object_array_get_idx(warn, k)),
				       "1 lines were longer than 4096 bytes") != NULL;
		CHECK(said);
	}
	bs_lines_free(l);
	bs_lines_cfg_free(&cfg);
	json_object_put(warn);
	reset();
}

int main(void)
{
	RUN_TEST(test_long_line);
	RUN_TEST(test_named_groups);
	RUN_TEST(test_bad_regexes);
	RUN_TEST(test_units_and_options);
	RUN_TEST(test_begin_end_partial_line);
	RUN_TEST(test_line_mode);
	RUN_TEST(test_pid_reused);
	RUN_TEST(test_buffered_and_never);
	return test_summary("test_lines");
}
