// SPDX-License-Identifier: MIT
/*
 * test_waste_overhead_report - the overhead part of the waste report: the
 * controller's estimate next to the budget and the period over the run,
 * from a trace with known period changes (written here, then read back by
 * bs_waste_load_trace and by `benchscope waste --from-trace`): every figure
 * comes from the trace; the bars (util/sparkline.h) and the time slices
 * they are drawn from checked against values computed by hand.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "cmd_capture.h"
#include "commands.h"
#include "test.h"
#include "trace/trace.h"
#include "trace/waste_blocks.h"
#include "util/sparkline.h"
#include "waste/overhead.h"
#include "waste/report.h"
#include "waste_fixture.h"

static void test_sparkline_levels(void)
{
	double v[8] = {0, 1, 2, 3, 4, 5, 6, 7}, flat[3] = {2, 2, 2}, gap[3] = {1, NAN, 3};
	char buf[64];

	CHECK_INT_EQ(bs_sparkline(v, 8, false, buf, sizeof(buf)), 8);
	CHECK(!strcmp(buf, "_.-:=+*#"));
	CHECK_INT_EQ(bs_sparkline(v, 8, true, buf, sizeof(buf)), 8);
	CHECK(!strcmp(buf, "▁▂▃▄▅▆▇█"));
	bs_sparkline(flat, 3, false, buf, sizeof(buf));
	CHECK(!strcmp(buf, "___"));
	bs_sparkline(gap, 3, false, buf, sizeof(buf));
	CHECK(!strcmp(buf, "_ #"));
	/* a short buffer: whole glyphs only */
	CHECK_INT_EQ(bs_sparkline(v, 8, true, buf, 7), 2);
	CHECK(!strcmp(buf, "▁▂"));
	/* a memory stream is not a terminal: ASCII */
	{
		char *m = NULL;
		size_t ml = 0;
		FILE *f = open_memstream(&m, &ml);

		CHECK(!bs_sparkline_utf8(f));
		fclose(f);
		free(m);
	}
}

static void test_period_slices(void)
{
	struct bs_waste_period_step st[] = {
	    {0, 4000000, NAN}, {1000000000, 8000000, 6.0}, {1250000000, 16000000, 9.5}};
	double v[4];

	/* 2 s in 4 slices of 0.5 s: 4 ms, 4 ms, half 8 and half 16 ms, 16 ms */
	bs_waste_period_slices(st, 3, 2e9, v, 4);
	CHECK_NEAR(v[0], log(4e6), 1e-12, 0);
	CHECK_NEAR(v[1], log(4e6), 1e-12, 0);
	CHECK_NEAR(v[2], (log(8e6) + log(16e6)) / 2, 1e-12, 0);
	CHECK_NEAR(v[3], log(16e6), 1e-12, 0);
	/* no steps, or no run time: nothing to draw */
	bs_waste_period_slices(st, 0, 2e9, v, 4);
	CHECK(isnan(v[0]) && isnan(v[3]));
	bs_waste_period_slices(st, 3, 0, v, 4);
	CHECK(isnan(v[1]));
}

/* the fixture's summary (run 2.5 s, budget 5 %, estimated 1.25 %) with period changes */
static json_object *summary_with_periods(void)
{
	json_object *s = wfx_summary(), *ov = json_object_object_get(s, "overhead");
	json_object *a = json_object_new_array();
	static const struct {
		uint64_t t, p;
		double pct;
	} steps[] = {{0, 4000000, NAN},
		     {625000000, 8000000, 6.5},
		     {1250000000, 16000000, 7.25},
		     {1875000000, 10666666, 1.5}};

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "t_ns", json_object_new_uint64(steps[i].t));
		json_object_object_add(o, "period", json_object_new_uint64(steps[i].p));
		json_object_object_add(o, "window_pct",
				       isnan(steps[i].pct) ? NULL
							   : json_object_new_double(steps[i].pct));
		json_object_array_add(a, o);
	}
	json_object_object_add(ov, "periods", a);
	json_object_object_add(ov, "periods_dropped", json_object_new_uint64(0));
	return s;
}

static int write_trace(const char *path)
{
	char err[256];
	struct bs_trace_writer *w = bs_trace_create(path, "{\"tool\":\"waste\"}", err, sizeof(err));
	json_object *s = summary_with_periods();

	if (!w)
		return -1;
	bs_waste_trace_ctx(w, 0, "f (x.c:1);main (x.c:9)");
	bs_trace_write_event(w, "{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
				"\"bytes\":8,\"ctx1\":0,\"ctx2\":0,\"tid\":1,\"ns\":1}");
	bs_waste_trace_summary(w, s);
	json_object_put(s);
	return bs_trace_close(w);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b = calloc(1, 1 << 16);

	if (f && b)
		b[fread(b, 1, (1 << 16) - 1, f)] = 0;
	if (f)
		fclose(f);
	return b;
}

static void test_trace_round_trip(void)
{
	struct bs_waste_result r;
	char path[64], err[512], *buf = NULL;

	snprintf(path, sizeof(path), "/tmp/bs-test-waste-ovr-%d.trace", (int)getpid());
	CHECK_INT_EQ(write_trace(path), 0);
	CHECK_INT_EQ(bs_waste_load_trace(path, &r, err, sizeof(err)), 0);
	CHECK_INT_EQ(r.sum.overhead.nperiods, 4);
	if (r.sum.overhead.nperiods == 4) {
		CHECK_INT_EQ(r.sum.overhead.periods[0].t_ns, 0);
		CHECK_INT_EQ(r.sum.overhead.periods[0].period, 4000000);
		CHECK(isnan(r.sum.overhead.periods[0].window_pct));
		CHECK_INT_EQ(r.sum.overhead.periods[2].t_ns, 1250000000);
		CHECK_INT_EQ(r.sum.overhead.periods[2].period, 16000000);
		CHECK_NEAR(r.sum.overhead.periods[2].window_pct, 7.25, 0, 0);
		CHECK_INT_EQ(r.sum.overhead.periods[3].period, 10666666);
	}
	buf = wfx_printed(&r);
	CHECK(buf && strstr(buf, "  controller  overhead 1.25 % of a 5.0 % budget"));
	/* lost records and unprofiled tasks, as the fixture numbers them */
	CHECK(buf && strstr(buf, "in 17 processes; 23 records lost\n"));
	CHECK(buf && strstr(buf, "  unfollowed  24 new threads (no slot or breakpoint for them) "
				 "and 25 forked processes (the process map was full): not "
				 "profiled\n"));
	CHECK(buf && strstr(buf, "  late stops  26 frozen samples dropped: their thread was not "
				 "seen stopped in time (it ran on past the sampled access)\n"));
	/*
	 * 2.5 s in 32 slices: 4 ms (ln 15.20) in slices 0-7, 8 ms in 8-15, 16 ms
	 * in 16-23, 10.67 ms in 24-31; levels over [ln 4e6, ln 16e6] in 8 steps:
	 * 0, 4, 7 and floor(8 * ln(10.67/4) / ln 4) = 5
	 */
	CHECK(buf &&
	      strstr(buf, "  period      4.000 ms at start, 10.667 ms at the end, 3 changes: "
			  "|________========########++++++++| (log scale, over the run)\n"));
	CHECK(buf &&
	      strstr(buf, "              at 625.000 ms: 8.000 ms (window overhead 6.50 %)\n"));
	CHECK(buf && strstr(buf, "              at 1.875 s: 10.667 ms (window overhead 1.50 %)\n"));
	if (buf && !strstr(buf, "|________========########++++++++|"))
		fprintf(stderr, "%s", buf);
	free(buf);
	bs_waste_result_free(&r);
	/* the command: report and JSON from the trace alone */
	{
		char out[96], errp[96], json[96];
		const char *args[] = {"--from-trace", path, "--json", json, NULL};
		char *o, *j;

		snprintf(out, sizeof(out), "%s.out", path);
		snprintf(errp, sizeof(errp), "%s.err", path);
		snprintf(json, sizeof(json), "%s.json", path);
		CHECK_INT_EQ(cap_run(cmd_waste, "waste", args, out, errp), 0);
		o = slurp(out);
		j = slurp(json);
		CHECK(o && strstr(o, "overhead 1.25 % of a 5.0 % budget"));
		CHECK(o && strstr(o, "|________========########++++++++|"));
		{
			json_object *d = json_tokener_parse(j ? j : ""), *p = NULL, *ov = NULL;

			CHECK(d &&
			      json_object_object_get_ex(json_object_object_get(d, "summary"),
							"overhead", &ov) &&
			      json_object_object_get_ex(ov, "periods", &p));
			CHECK_INT_EQ(json_object_array_length(p), 4);
			CHECK_INT_EQ(json_object_get_int64(json_object_object_get(
					 json_object_array_get_idx(p, 1), "t_ns")),
				     625000000);
			json_object_put(d);
		}
		free(o);
		free(j);
		/* the report to a stdout that cannot be written: exit 1, one line */
		if (cap_full()) {
			const char *fargs[] = {"--from-trace", path, NULL};

			CHECK_INT_EQ(cap_run(cmd_waste, "waste", fargs, cap_full(), errp), 1);
			o = slurp(errp);
			CHECK(o &&
			      !strcmp(o, "benchscope waste: cannot write the report to stdout: "
					 "No space left on device\n"));
			free(o);
		}
		/* a directory as the trace: bad input, exit 2, one line */
		const char *dargs[] = {"--from-trace", "/tmp", NULL};

		CHECK_INT_EQ(cap_run(cmd_waste, "waste", dargs, out, errp), 2);
		o = slurp(errp);
		CHECK(o && strstr(o, "/tmp: Is a directory\n") && cap_count_lines(o) == 1);
		free(o);
		unlink(out);
		unlink(errp);
		unlink(json);
	}
	unlink(path);
}

/*
 * --from-trace shows as many pairs and frames as the run did (the summary's
 * "top" and "depth"); --top and --depth given win.
 */
static void test_top_depth_of_run(void)
{
	char path[64], out[96], errp[96], err[256];
	struct bs_trace_writer *w;
	json_object *s = wfx_summary();
	char *o;

	snprintf(path, sizeof(path), "/tmp/bs-test-waste-top-%d.trace", (int)getpid());
	snprintf(out, sizeof(out), "%s.out", path);
	snprintf(errp, sizeof(errp), "%s.err", path);
	json_object_object_add(s, "top", json_object_new_int(1));
	json_object_object_add(s, "depth", json_object_new_int(1));
	w = bs_trace_create(path, "{\"tool\":\"waste\"}", err, sizeof(err));
	CHECK(w != NULL);
	if (!w) {
		json_object_put(s);
		return;
	}
	bs_waste_trace_ctx(w, 0, "f (x.c:1);main (x.c:9)");
	bs_waste_trace_ctx(w, 1, "g (x.c:2);main (x.c:9)");
	bs_trace_write_event(w, "{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
				"\"bytes\":8,\"ctx1\":0,\"ctx2\":0,\"tid\":1,\"ns\":1}");
	bs_trace_write_event(w, "{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
				"\"bytes\":4,\"ctx1\":1,\"ctx2\":1,\"tid\":1,\"ns\":2}");
	bs_waste_trace_summary(w, s);
	json_object_put(s);
	CHECK_INT_EQ(bs_trace_close(w), 0);
	{
		const char *args[] = {"--from-trace", path, NULL};

		CHECK_INT_EQ(cap_run(cmd_waste, "waste", args, out, errp), 0);
		o = slurp(out);
		CHECK(o && strstr(o, "  #1 dead-store") && !strstr(o, "  #2 dead-store"));
		CHECK(o && strstr(o, "      first   f (x.c:1)\n              ...\n"));
		free(o);
	}
	{
		const char *args[] = {"--from-trace", path, "--top", "2", "--depth", "2", NULL};

		CHECK_INT_EQ(cap_run(cmd_waste, "waste", args, out, errp), 0);
		o = slurp(out);
		CHECK(o && strstr(o, "  #2 dead-store"));
		CHECK(o && strstr(o, "      first   f (x.c:1)\n              main (x.c:9)\n"));
		free(o);
	}
	unlink(out);
	unlink(errp);
	unlink(path);
}

/*
 * The table line on SIGTRAPs the kernel generated for the program names the
 * first one from the summary (first_sigtrap), not a warning on stderr that a
 * report from the trace never prints; an older trace says it lacks it.
 */
static void test_first_sigtrap(void)
{
	static const char why[] = "an int3 instruction (SI_KERNEL), si_code 128, thread 7, ip "
				  "0x401000, CPU 1, ptrace DR6 0x0";
	struct bs_waste_result r;
	char path[64], err[256], line[512], *buf = NULL;

	snprintf(path, sizeof(path), "/tmp/bs-test-waste-trap-%d.trace", (int)getpid());
	for (int with = 1; with >= 0; with--) {
		struct bs_trace_writer *w =
		    bs_trace_create(path, "{\"tool\":\"waste\"}", err, sizeof(err));
		json_object *s = wfx_summary();

		if (!w) {
			FAILF("cannot write %s", path);
			json_object_put(s);
			return;
		}
		json_object_object_add(s, "sigtraps_program", json_object_new_uint64(2));
		if (with)
			json_object_object_add(s, "first_sigtrap", json_object_new_string(why));
		bs_waste_trace_summary(w, s);
		json_object_put(s);
		CHECK_INT_EQ(bs_trace_close(w), 0);
		CHECK_INT_EQ(bs_waste_load_trace(path, &r, err, sizeof(err)), 0);
		buf = wfx_printed(&r);
		snprintf(line, sizeof(line),
			 "  SIGTRAPs    2 generated for the program by the kernel (a trap no "
			 "breakpoint claimed); the first: %s\n",
			 with ? why : "not recorded (an older trace)");
		CHECK(buf && strstr(buf, line));
		free(buf);
		buf = NULL;
		bs_waste_result_free(&r);
	}
	unlink(path);
}

static void test_periods_refused(void)
{
	json_object *s = summary_with_periods(), *ov = json_object_object_get(s, "overhead");
	json_object *p = json_object_object_get(ov, "periods");
	struct bs_waste_summary sum;
	char err[256];

	/* out of time order */
	json_object_object_add(json_object_array_get_idx(p, 1), "t_ns",
			       json_object_new_uint64(2000000000));
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"overhead.periods\" is not in time order"));
	/* a step without its period */
	json_object_object_add(json_object_array_get_idx(p, 1), "t_ns",
			       json_object_new_uint64(625000000));
	json_object_object_del(json_object_array_get_idx(p, 2), "period");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"overhead.periods[].period\" is missing"));
	/* none at all (a trace of an earlier build): decodes, no period line */
	json_object_object_del(ov, "periods");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), 0);
	CHECK(sum.overhead.nperiods == 0 && sum.overhead.periods == NULL);
	bs_waste_summary_free(&sum);
	json_object_put(s);
}

/*
 * The measured cost: traps against the program's CPU time less themselves
 * (an idle window's at least 1 ms), stops against the wall time; and the
 * report's line from a summary that has the parts.
 */
static void test_measured_cost(void)
{
	struct bs_waste_result r;
	json_object *s = wfx_summary(), *ov = json_object_object_get(s, "overhead");
	char err[256], *buf = NULL;
	double pct = (12.5e6 / (2e9 - 12.5e6) + 18.75e6 / 2.5e9) * 100;

	CHECK_NEAR(bs_waste_cost_frac(12.5e6, 18.75e6, 2e9, 2.5e9) * 100, pct, 1e-12, 0);
	CHECK_NEAR(bs_waste_cost_frac(2e5, 0, 1e5, 1e9), 0.2, 1e-15, 0);
	CHECK_NEAR(bs_waste_cost_frac(1e6, 5e6, 11e6, 0), 0.1, 1e-15, 0);
	json_object_object_add(ov, "estimated_pct", json_object_new_double(pct));
	json_object_object_add(ov, "trap_cost_ns", json_object_new_double(12.5e6));
	json_object_object_add(ov, "stop_cost_ns", json_object_new_double(18.75e6));
	json_object_object_add(ov, "program_cpu_ns", json_object_new_double(2e9));
	memset(&r, 0, sizeof(r));
	CHECK_INT_EQ(bs_waste_summary_decode(s, &r.sum, err, sizeof(err)), 0);
	json_object_put(s);
	CHECK_NEAR(r.sum.overhead.program_cpu_ns, 2e9, 0, 0);
	buf = wfx_printed(&r);
	CHECK(buf && strstr(buf, "  controller  overhead 1.38 % of a 5.0 % budget (measured: traps "
				 "12.500 ms, each CPU's at its own cost, against the program's "
				 "2.000 s of CPU time; stopped 18.750 ms of 2.500 s)\n"));
	if (buf && !strstr(buf, "(measured: traps"))
		fprintf(stderr, "%s", buf);
	free(buf);
	bs_waste_summary_free(&r.sum);
}

int main(void)
{
	RUN_TEST(test_sparkline_levels);
	RUN_TEST(test_period_slices);
	RUN_TEST(test_trace_round_trip);
	RUN_TEST(test_periods_refused);
	RUN_TEST(test_top_depth_of_run);
	RUN_TEST(test_first_sigtrap);
	RUN_TEST(test_measured_cost);
	return test_summary("test_waste_overhead_report");
}
