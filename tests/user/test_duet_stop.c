// SPDX-License-Identifier: MIT
/*
 * test_duet_stop.c - the --stop-ci rule (duet/stop_ci.h, duet/run_stop.c)
 * against widths computed by hand: synthetic sync duets in which every
 * iteration of A lasts a and every iteration of B lasts b_k in run k, so
 * that run k's observation is y_k = ln(b_k / a) exactly. Without placement
 * terms the interval is the Student t interval of the mean of the y_k; with
 * one term (crossover) it is the intercept's interval of the least-squares
 * line y = v + c x (x = +1 when B ran on CPU 1, -1 when A did). The t
 * quantiles are table values (0.975 and 0.95, df 1..12), not GSL's.
 */
#include "test.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "benchscope/stats.h"
#include "duet/report.h"
#include "duet/run.h"
#include "duet/setup.h"
#include "duet/stop_ci.h"
#include "fixture.h"
#include "trace/dataset.h"
#include "trace/trace.h"

#define MAXR  12
#define ITERS 6
#define A_NS  1000000.0

static const double t975[12] = {12.706204736174698, 4.302652729749464, 3.182446305284263,
				2.7764451051977934, 2.570581835636314, 2.4469118511449666,
				2.3646242510102993, 2.306004135033371, 2.2621571627982053,
				2.2281388519649385, 2.200985160082949, 2.1788128296634177};
static const double t950[12] = {6.313751514675041,  2.919985580355516,	2.3533634348018264,
				2.13184678133629,   2.015048372669157,	1.9431802803927816,
				1.894578605061305,  1.8595480375228421, 1.8331129326536333,
				1.8124611228107335, 1.7958848187036691, 1.782287555649159};

/* B / A of each run, before any CPU slowdown */
static const double ratio[MAXR] = {1.10,  1.02, 1.07,  1.05, 1.06,  1.04,
				   1.055, 1.05, 1.045, 1.05, 1.052, 1.048};

enum place { SAME_CPU, CONFOUNDED, CROSSOVER };

/*
 * Write a sync duet of n runs: A's iterations last A_NS (times @slow on CPU
 * 1), B's A_NS ratio[k] (times @slow on CPU 1); y[k] gets ln(B / A) of the
 * written durations, x[k] the placement value of CPU 1 (b - a). After run
 * k's duet_run event, ev[k] (a JSON object text) when ev and ev[k] are set.
 */
static int write_trace(const char *path, int n, enum place pl, double slow, double *y, double *x,
		       char *const *ev)
{
	char ctx[512], e[512], err[256];
	struct bs_trace_writer *w;
	int64_t clock = 1000000000;

	snprintf(ctx, sizeof(ctx),
		 "{\"tool\": \"benchscope\", \"mode\": \"duet\", \"duet\": {\"source\": "
		 "\"benchscope\", \"benchmark\": \"ratios\", \"aa\": false, \"methods\": "
		 "[\"sync\"], \"runs_per_method\": %d, \"min_overlap\": 0.4}}",
		 n);
	w = bs_trace_create(path, ctx, err, sizeof(err));
	if (!w)
		return -1;
	for (int k = 0; k < n; k++) {
		int cpu[2] = {pl == CROSSOVER ? k % 2 : 0, pl == SAME_CPU     ? 0
							   : pl == CONFOUNDED ? 1
									      : 1 - k % 2};
		int64_t d[2], start = clock;
		uint32_t pid[2] = {6000 + 10 * (uint32_t)k, 6001 + 10 * (uint32_t)k};

		d[0] = llround(A_NS * (cpu[0] == 1 ? slow : 1));
		d[1] = llround(A_NS * ratio[k] * (cpu[1] == 1 ? slow : 1));
		y[k] = log((double)d[1] / (double)d[0]);
		x[k] = (double)(cpu[1] == 1) - (double)(cpu[0] == 1);
		for (int j = 0; j < ITERS; j++) {
			for (int s = 0; s < 2; s++) {
				struct bs_iter_rec r;

				memset(&r, 0, sizeof(r));
				r.type = BS_REC_ITER;
				r.index = (uint64_t)j;
				r.pid = r.tid = pid[s];
				r.begin_ns = (uint64_t)clock;
				r.end_ns = (uint64_t)(clock + d[s]);
				r.cpu_begin = r.cpu_end = (uint32_t)cpu[s];
				bs_trace_write_iter(w, &r);
			}
			clock += (d[0] > d[1] ? d[0] : d[1]) + 1000;
		}
		snprintf(
		    e, sizeof(e),
		    "{\"kind\": \"duet_run\", \"run\": %d, \"method\": \"sync\", \"index\": %d, "
		    "\"order\": \"AB\", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64
		    ", \"ok\": true, \"sides\": {\"A\": {\"pid\": %u}, \"B\": {\"pid\": %u}}}",
		    k, k, start, clock, pid[0], pid[1]);
		bs_trace_write_event(w, e);
		if (ev && ev[k])
			bs_trace_write_event(w, ev[k]);
		clock += 1000000;
	}
	bs_trace_write_end(w, "{\"interrupted\": false}");
	return bs_trace_close(w);
}

/* hand width of the t interval of the mean of y[0..n) at quantile table t */
static double width_mean(const double *y, int n, const double *t)
{
	double m = 0, ss = 0, se;

	for (int k = 0; k < n; k++)
		m += y[k] / n;
	for (int k = 0; k < n; k++)
		ss += (y[k] - m) * (y[k] - m);
	se = sqrt(ss / (n - 1) / n);
	return exp(m + t[n - 2] * se) - exp(m - t[n - 2] * se);
}

/* hand width of the intercept's t interval of the line y = v + c x, runs 0..n) */
static double width_line(const double *y, const double *x, int n)
{
	double xb = 0, yb = 0, sxx = 0, sxy = 0, rss = 0, c, v, se;

	for (int k = 0; k < n; k++)
		xb += x[k] / n, yb += y[k] / n;
	for (int k = 0; k < n; k++) {
		sxx += (x[k] - xb) * (x[k] - xb);
		sxy += (x[k] - xb) * (y[k] - yb);
	}
	c = sxy / sxx;
	v = yb - c * xb;
	for (int k = 0; k < n; k++)
		rss += (y[k] - v - c * x[k]) * (y[k] - v - c * x[k]);
	se = sqrt(rss / (n - 2) * (1.0 / n + xb * xb / sxx));
	return exp(v + t975[n - 3] * se) - exp(v - t975[n - 3] * se);
}

static struct bs_dataset *load(const char *path, struct bs_duet_data **d)
{
	struct bs_dataset *ds = NULL;
	char err[256];

	if (bs_dataset_load(path, &ds, err, sizeof(err))) {
		FAILF("load %s: %s", path, err);
		return NULL;
	}
	if (bs_duet_data_build(ds, d, err, sizeof(err))) {
		FAILF("build %s: %s", path, err);
		bs_dataset_free(ds);
		return NULL;
	}
	return ds;
}

/*
 * Decide after every run with @o; the width must be the hand width (NAN
 * before the model has a residual degree of freedom), the decision
 * runs >= min_runs and width <= W. Returns the first run it stops after, -1.
 */
static int check_runs(const struct bs_duet_data *d, const double *hand, int n, size_t min_runs,
		      double W, const struct bs_danalysis_opts *o)
{
	int first = -1;

	for (int k = 0; k < n; k++) {
		struct bs_dstop s;

		CHECK_INT_EQ(bs_duet_stop_decide(d, k, BS_DM_SYNC, min_runs, W, o, &s), 0);
		CHECK_INT_EQ(s.runs_ok, (size_t)k + 1);
		CHECK_INT_EQ(s.n_bench, 1);
		if (isnan(hand[k])) {
			CHECK(isnan(s.width));
			CHECK(strstr(s.reason, "no interval yet") != NULL);
		} else {
			CHECK_NEAR(s.width, hand[k], 0, 1e-7);
		}
		CHECK(s.stop == ((size_t)k + 1 >= min_runs && hand[k] <= W));
		if (s.stop && first < 0)
			first = k;
		if (s.stop)
			CHECK(strstr(s.reason, "<=") != NULL);
		bs_dstop_free(&s);
	}
	return first;
}

/* both sides on CPU 0: a plain t interval; stops where the hand width falls under W */
static void test_stops_at_hand_width(void)
{
	char path[300];
	double y[MAXR], x[MAXR], hand[MAXR], hand90[MAXR];
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds;
	struct bs_danalysis_opts o90 = {.level = 0.90};

	fx_path(path, sizeof(path), "stop_same.trace");
	CHECK_INT_EQ(write_trace(path, MAXR, SAME_CPU, 0, y, x, NULL), 0);
	ds = load(path, &d);
	if (!ds)
		return;
	hand[0] = hand90[0] = NAN;
	for (int n = 2; n <= MAXR; n++) {
		hand[n - 1] = width_mean(y, n, t975);
		hand90[n - 1] = width_mean(y, n, t950);
	}
	/* hand widths (ratios above): 7 runs 0.0460, 6 runs 0.0572, 9 runs 0.0336 */
	CHECK(hand[5] > 0.05 && hand[6] <= 0.05);
	CHECK_INT_EQ(check_runs(d, hand, MAXR, 3, 0.05, NULL), 6);
	/* the minimum holds it back: the width is under W from 7 runs on */
	CHECK_INT_EQ(check_runs(d, hand, MAXR, 9, 0.05, NULL), 8);
	/* the confidence level of the options is the interval's: at 90 % the
	 * width is 0.0448 with 6 runs (0.0556 with 5) */
	CHECK(hand90[5] <= 0.05 && hand90[4] > 0.05);
	CHECK_INT_EQ(check_runs(d, hand90, MAXR, 3, 0.05, &o90), 5);
	/* never under W: never stops */
	CHECK_INT_EQ(check_runs(d, hand, MAXR, 3, 0.01, NULL), -1);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* A always on CPU 0, B on CPU 1: no interval, never stops, and says why */
static void test_confounded_never_stops(void)
{
	char path[300];
	double y[MAXR], x[MAXR], hand[MAXR];
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds;
	struct bs_danalysis_opts nocpu = {.no_cpu = true};

	fx_path(path, sizeof(path), "stop_conf.trace");
	CHECK_INT_EQ(write_trace(path, MAXR, CONFOUNDED, 1.0, y, x, NULL), 0);
	ds = load(path, &d);
	if (!ds)
		return;
	for (int k = 0; k < MAXR; k++) {
		struct bs_dstop s;

		/* a width of 10 would stop at once if there were an interval */
		CHECK_INT_EQ(bs_duet_stop_decide(d, k, BS_DM_SYNC, 1, 10, NULL, &s), 0);
		CHECK(!s.stop);
		CHECK(isnan(s.width));
		CHECK_INT_EQ(s.n_bench, 1);
		if (k >= 1)
			CHECK_INT_EQ(s.bench[0].model_err, BS_ECONFOUNDED);
		if (k >= 1)
			CHECK(strstr(s.reason, "never exchanged CPUs") != NULL);
		bs_dstop_free(&s);
	}
	/* without the CPU terms the same runs give the plain t interval */
	hand[0] = NAN;
	for (int n = 2; n <= MAXR; n++)
		hand[n - 1] = width_mean(y, n, t975);
	CHECK_INT_EQ(check_runs(d, hand, MAXR, 3, 0.05, &nocpu), 6);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* crossover with CPU 1 1.3x slower: the intercept's interval of the line */
static void test_crossover_line(void)
{
	char path[300];
	double y[MAXR], x[MAXR], hand[MAXR];
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds;

	fx_path(path, sizeof(path), "stop_xover.trace");
	CHECK_INT_EQ(write_trace(path, MAXR, CROSSOVER, 1.3, y, x, NULL), 0);
	ds = load(path, &d);
	if (!ds)
		return;
	hand[0] = hand[1] = NAN;
	for (int n = 3; n <= MAXR; n++)
		hand[n - 1] = width_line(y, x, n);
	/* 6 runs 0.0411, 7 runs 0.0356 */
	CHECK(hand[5] > 0.04 && hand[6] <= 0.04);
	CHECK_INT_EQ(check_runs(d, hand, MAXR, 3, 0.04, NULL), 6);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/*
 * The runner's check (bs_duet_stop_check, reading the trace back) gives the
 * same events; with them in the trace, the report re-decides every one and
 * agrees; a tampered width, an older event without the model's keys and a
 * bad decision are told apart.
 */
static void test_events_reproduced(void)
{
	char path[300], jpath[300], err[256];
	double y[MAXR], x[MAXR];
	char *ev[MAXR] = {0};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds;
	struct bs_dstop *re = NULL;
	struct bs_danalysis_opts o = {0};
	struct bs_duet_report_opts ro = {.no_table = true};
	json_object *j, *sc;
	int n_stop = 0;

	fx_path(path, sizeof(path), "stop_ev.trace");
	fx_path(jpath, sizeof(jpath), "stop_ev.json");
	CHECK_INT_EQ(write_trace(path, MAXR, SAME_CPU, 0, y, x, NULL), 0);
	for (int k = 0; k < MAXR; k++) {
		double w;
		bool stop;
		json_object *e =
		    bs_duet_stop_check(NULL, path, k, BS_DM_RUN_SYNC, 3, 0.05, &o, &w, &stop);

		CHECK(e != NULL);
		if (!e)
			return;
		CHECK(stop == (k >= 6));
		n_stop += stop;
		if (k >= 1)
			CHECK_NEAR(json_object_get_double(bs_json_get(e, "rel_ci_width")), w, 0,
				   1e-15);
		CHECK_INT_EQ(json_object_get_int(bs_json_get(e, "min_runs")), 3);
		CHECK(!strcmp(bs_json_str(e, "interval", ""), "run_model"));
		ev[k] = strdup(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
		json_object_put(e);
	}
	CHECK_INT_EQ(n_stop, MAXR - 6);
	CHECK_INT_EQ(write_trace(path, MAXR, SAME_CPU, 0, y, x, ev), 0);
	ds = load(path, &d);
	if (ds) {
		CHECK_INT_EQ(d->n_stops, MAXR);
		CHECK_INT_EQ(bs_duet_stops_redecide(d, &re), 0);
		for (size_t i = 0; re && i < d->n_stops; i++) {
			CHECK(d->stops[i].has_model);
			CHECK(bs_dstop_same(&re[i], &d->stops[i]));
		}
		bs_dstops_free(re, d->n_stops);
		ro.json_path = jpath;
		CHECK_INT_EQ(bs_duet_report_render(ds, &ro, NULL, err, sizeof(err)), 0);
		j = json_object_from_file(jpath);
		sc = j ? bs_json_get(j, "stop_ci") : NULL;
		CHECK(sc && json_object_get_boolean(bs_json_get(sc, "all_agree")));
		CHECK_INT_EQ(sc ? json_object_array_length(bs_json_get(sc, "decisions")) : 0, MAXR);
		json_object_put(j);
		bs_duet_data_free(d);
		bs_dataset_free(ds);
		d = NULL;
	}
	/* the width of the decision after run 6 (the first stop) tampered with */
	{
		json_object *e = json_tokener_parse(ev[6]);

		json_object_object_add(e, "rel_ci_width", json_object_new_double(0.0461));
		free(ev[6]);
		ev[6] = strdup(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
		json_object_put(e);
	}
	/* an older event: no "interval", the bootstrap width */
	free(ev[0]);
	ev[0] = strdup("{\"kind\": \"duet_stop_check\", \"after_run\": 0, \"method\": \"sync\", "
		       "\"runs_ok\": 1, \"min_runs\": 3, \"rel_ci_width\": null, "
		       "\"threshold\": 0.05, \"decision\": \"continue\"}");
	CHECK_INT_EQ(write_trace(path, MAXR, SAME_CPU, 0, y, x, ev), 0);
	ds = load(path, &d);
	if (ds) {
		CHECK(!d->stops[0].has_model);
		CHECK_INT_EQ(bs_duet_stops_redecide(d, &re), 0);
		CHECK(re && !bs_dstop_same(&re[6], &d->stops[6]));
		CHECK(re && bs_dstop_same(&re[7], &d->stops[7]));
		CHECK(re && strstr(re[0].reason, "older benchscope") != NULL);
		bs_dstops_free(re, d->n_stops);
		CHECK_INT_EQ(bs_duet_report_render(ds, &ro, NULL, err, sizeof(err)), 0);
		j = json_object_from_file(jpath);
		sc = j ? bs_json_get(j, "stop_ci") : NULL;
		CHECK(sc && !json_object_get_boolean(bs_json_get(sc, "all_agree")));
		json_object_put(j);
		bs_duet_data_free(d);
		bs_dataset_free(ds);
		d = NULL;
	}
	/* a decision that is neither stop nor continue: the trace is refused */
	free(ev[1]);
	ev[1] = strdup("{\"kind\": \"duet_stop_check\", \"after_run\": 1, \"method\": \"sync\", "
		       "\"runs_ok\": 2, \"min_runs\": 3, \"rel_ci_width\": 1.0, "
		       "\"threshold\": 0.05, \"decision\": \"maybe\"}");
	CHECK_INT_EQ(write_trace(path, MAXR, SAME_CPU, 0, y, x, ev), 0);
	if (!bs_dataset_load(path, &ds, err, sizeof(err))) {
		CHECK_INT_EQ(bs_duet_data_build(ds, &d, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "decision") != NULL);
		bs_duet_data_free(d);
		bs_dataset_free(ds);
	}
	for (int k = 0; k < MAXR; k++)
		free(ev[k]);
}

/* a trace that cannot be read back: no decision to stop, and the reason */
static void test_unreadable_trace(void)
{
	struct bs_danalysis_opts o = {0};
	double w = 0;
	bool stop = true;
	json_object *e = bs_duet_stop_check(NULL, "/nonexistent/x.trace", 3, BS_DM_RUN_SYNC, 1, 10,
					    &o, &w, &stop);

	CHECK(e != NULL);
	CHECK(!stop);
	CHECK(isnan(w));
	CHECK(e && !strcmp(bs_json_str(e, "decision", ""), "continue"));
	CHECK(e && strstr(bs_json_str(e, "reason", ""), "no decision") != NULL);
	json_object_put(e);
}

/*
 * A check that reached no decision (the runner's fallback, and the form
 * older runners wrote: level and min_overlap 0) does not make the trace
 * unreadable: its report renders, the check is not re-decided, and later
 * checks still decide from the trace.
 */
static void test_undecided_event(void)
{
	char path[300], jpath[300], err[256];
	double y[MAXR], x[MAXR], w;
	char *ev[MAXR] = {0};
	struct bs_duet_data *d = NULL;
	struct bs_dataset *ds;
	struct bs_dstop *re = NULL;
	struct bs_danalysis_opts o = {0};
	struct bs_duet_report_opts ro = {.no_table = true};
	json_object *e, *j, *sc;
	bool stop;

	fx_path(path, sizeof(path), "stop_undecided.trace");
	fx_path(jpath, sizeof(jpath), "stop_undecided.json");
	e = bs_duet_stop_check(NULL, "/nonexistent/x.trace", 1, BS_DM_RUN_SYNC, 3, 0.05, &o, &w,
			       &stop);
	CHECK(e != NULL);
	if (!e)
		return;
	CHECK(!json_object_get_boolean(bs_json_get(e, "decided")));
	CHECK_NEAR(json_object_get_double(bs_json_get(e, "level")), 0.95, 0, 0);
	CHECK_NEAR(json_object_get_double(bs_json_get(e, "min_overlap")), 0.4, 0, 0);
	ev[1] = strdup(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
	json_object_put(e);
	ev[2] = strdup("{\"kind\":\"duet_stop_check\",\"after_run\":2,\"method\":\"sync\","
		       "\"runs_ok\":0,\"min_runs\":3,\"threshold\":0.05,\"interval\":"
		       "\"run_model\",\"level\":0.0,\"cpu_terms\":true,\"min_overlap\":0.0,"
		       "\"drop_warmup_half\":false,\"rel_ci_width\":null,\"benchmarks\":[],"
		       "\"decision\":\"continue\",\"reason\":\"no decision: out of memory\","
		       "\"compute_ns\":123}");
	CHECK_INT_EQ(write_trace(path, 8, SAME_CPU, 0, y, x, ev), 0);
	/* a later live check reads this trace back and decides */
	e = bs_duet_stop_check(NULL, path, 7, BS_DM_RUN_SYNC, 3, 0.05, &o, &w, &stop);
	CHECK(e && json_object_get_boolean(bs_json_get(e, "decided")));
	CHECK(e && strncmp(bs_json_str(e, "reason", ""), "no decision", 11) != 0);
	json_object_put(e);
	ds = load(path, &d);
	if (ds) {
		CHECK_INT_EQ(d->n_stops, 2);
		CHECK(!d->stops[0].decided && !d->stops[1].decided);
		CHECK_INT_EQ(bs_duet_stops_redecide(d, &re), 0);
		CHECK(re && re[0].undecided && re[1].undecided && isnan(re[1].width));
		CHECK(re && strstr(re[1].reason, "not re-decided") != NULL);
		bs_dstops_free(re, d->n_stops);
		ro.json_path = jpath;
		CHECK_INT_EQ(bs_duet_report_render(ds, &ro, NULL, err, sizeof(err)), 0);
		j = json_object_from_file(jpath);
		sc = j ? bs_json_get(j, "stop_ci") : NULL;
		CHECK(sc && json_object_get_boolean(bs_json_get(sc, "all_agree")));
		e = sc ? json_object_array_get_idx(bs_json_get(sc, "decisions"), 1) : NULL;
		CHECK(e && !json_object_get_boolean(bs_json_get(e, "decided")));
		CHECK(e && bs_json_get(e, "recomputed") == NULL);
		json_object_put(j);
		bs_duet_data_free(d);
		bs_dataset_free(ds);
	}
	for (int k = 0; k < MAXR; k++)
		free(ev[k]);
}

/*
 * --stop-ci decides on the method whose verdict is the headline, whatever
 * the order of --method (seq,async stops on async's width, not seq's); the
 * CONTEXT records that method, and the analysis' headline is the same.
 */
static void test_stop_method_is_headline(void)
{
	static const struct {
		int methods[BS_DM_RUN_N];
		size_t n;
		int want;
	} cases[] = {
	    {{BS_DM_RUN_SEQ, BS_DM_RUN_ASYNC}, 2, BS_DM_RUN_ASYNC},
	    {{BS_DM_RUN_SEQ, BS_DM_RUN_SYNC}, 2, BS_DM_RUN_SYNC},
	    {{BS_DM_RUN_ASYNC, BS_DM_RUN_SEQ, BS_DM_RUN_ILV}, 3, BS_DM_RUN_ILV},
	    {{BS_DM_RUN_SYNC, BS_DM_RUN_ASYNC, BS_DM_RUN_SEQ}, 3, BS_DM_RUN_ASYNC},
	    {{BS_DM_RUN_SEQ}, 1, BS_DM_RUN_SEQ},
	};
	struct bs_duet_args a = {.cmd = {"true", "true"}, .stop_ci = 0.02};
	struct bs_duet_setup s;
	json_object *ctx, *sc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool present[BS_DM_N] = {false};

		memset(&s, 0, sizeof(s));
		memcpy(s.methods, cases[i].methods, sizeof(s.methods));
		s.n_methods = cases[i].n;
		CHECK_INT_EQ(bs_duet_stop_method(&s), cases[i].want);
		for (size_t k = 0; k < cases[i].n; k++)
			present[bs_dmethod_parse(bs_duet_method_name(cases[i].methods[k]))] = true;
		CHECK_INT_EQ(bs_duet_headline_method(present),
			     bs_dmethod_parse(bs_duet_method_name(cases[i].want)));
	}
	memset(&s, 0, sizeof(s));
	CHECK_INT_EQ(bs_duet_stop_method(&s), -1); /* --method auto, not picked yet */
	s.methods[0] = BS_DM_RUN_SEQ;
	s.methods[1] = BS_DM_RUN_ASYNC;
	s.n_methods = 2;
	if (wordexp("true", &s.we_cmd[0], WRDE_NOCMD) ||
	    wordexp("true", &s.we_cmd[1], WRDE_NOCMD)) {
		FAILF("wordexp");
		return;
	}
	s.have_cmd[0] = s.have_cmd[1] = true;
	ctx = bs_duet_context(&a, &s);
	sc = bs_json_get(bs_json_get(ctx, "duet"), "stop_ci");
	CHECK(sc && !strcmp(bs_json_str(sc, "method", ""), "async"));
	json_object_put(ctx);
	bs_duet_setup_free(&s);
}

int main(void)
{
	bs_stats_init();
	RUN_TEST(test_stops_at_hand_width);
	RUN_TEST(test_confounded_never_stops);
	RUN_TEST(test_crossover_line);
	RUN_TEST(test_events_reproduced);
	RUN_TEST(test_unreadable_trace);
	RUN_TEST(test_undecided_event);
	RUN_TEST(test_stop_method_is_headline);
	return test_summary("test_duet_stop");
}
