// SPDX-License-Identifier: MIT
/*
 * test_stop_report - a forked run's trace (synthetic, shaped like `run --stop`
 * with Google Benchmark: calibration runs, warmup and after_stop flags, fork
 * and stop_decision events) through the summary, the report document, the
 * JSON export and replay's loader.
 */
#include <errno.h>

#include "trace/dataset.h"
#include "fixture.h"
#include "report/render.h"
#include "stop/replay_load.h"
#include "report/report_doc.h"
#include "report/summary.h"
#include "test.h"
#include "trace/trace.h"

static const char ctx[] =
    "{\"tool\":\"benchscope\",\"command\":[\"./bench\"],"
    "\"boundaries\":{\"kind\":\"gbench\",\"begin\":\"b\",\"end\":\"e\"},"
    "\"stop\":{\"criterion\":\"cv\",\"threshold\":0.01,\"window\":5,\"warmup\":[5,50],"
    "\"measure\":3,\"forks\":[2,2],\"seed\":1,\"grace_ms\":2000}}";

static struct bs_iter_rec run(uint32_t pid, uint64_t idx, uint64_t begin, uint64_t inv,
			      uint32_t flags)
{
	struct bs_iter_rec r;

	memset(&r, 0, sizeof(r));
	r.type = BS_REC_ITER;
	r.pid = r.tid = pid;
	r.index = idx;
	r.begin_ns = begin;
	r.end_ns = begin + inv * 10; /* 10 ns per invocation */
	r.invocations = inv;
	r.flags = flags | BS_ITER_F_INVOC;
	return r;
}

/* Fork pid: runs of 1, 100 invocations (calibration), then 4 warmup + 3 measurement
 * runs of 1000, then one after_stop run. Returns the end of its last run. */
static uint64_t write_fork(struct bs_trace_writer *w, uint32_t pid, uint64_t t)
{
	static const uint64_t inv[] = {1, 100, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
	uint64_t idx = 0;

	for (size_t i = 0; i < sizeof(inv) / sizeof(inv[0]); i++) {
		uint32_t fl = i < 6 ? BS_ITER_F_WARMUP : i == 9 ? BS_ITER_F_AFTER_STOP : 0;
		struct bs_iter_rec r = run(pid, idx++, t, inv[i], fl);

		bs_trace_write_iter(w, &r);
		t = r.end_ns + 100;
	}
	return t;
}

/* @with_forks 0: no fork events; 1: both forks stopped by benchscope; 2: fork
 * 2 exited with status 2 by itself (END stop.harness_failed) */
static const char *write_trace(int with_forks)
{
	static char path[512];
	char err[256], ev[512];
	struct bs_trace_writer *w;
	uint64_t t = 1000000, t1;

	fx_path(path, sizeof(path),
		with_forks == 2 ? "failed.trace"
		: with_forks	? "forks.trace"
				: "single.trace");
	w = bs_trace_create(path, ctx, err, sizeof(err));
	if (!w)
		return NULL;
	for (uint32_t f = 1; f <= 2; f++) {
		uint64_t t0 = t;

		bs_trace_write_event(w,
				     "{\"kind\":\"stop_decision\",\"checkpoint\":\"warmup\","
				     "\"fork\":1,\"iteration\":4,\"criterion\":\"cv\","
				     "\"values\":[0.1,0.1],\"threshold\":0.01,"
				     "\"decision\":\"stop\",\"bound\":false,\"compute_ns\":500}");
		t1 = write_fork(w, 100 * f, t);
		t = t1 + 1000;
		if (!with_forks)
			continue;
		snprintf(
		    ev, sizeof(ev),
		    "{\"kind\":\"fork\",\"fork\":%u,\"pid\":%u,\"start_ns\":%llu,\"end_ns\":%llu,"
		    "\"warmup_iterations\":4,\"measurement_iterations\":3,\"warmup_stable\":%s,"
		    "\"short\":false,\"ended_by\":%s,"
		    "\"interrupted\":false,\"calibration_runs\":2,\"after_stop_iterations\":1}",
		    f, 100 * f, (unsigned long long)t0 - 10, (unsigned long long)t1,
		    f == 1 ? "true" : "false",
		    f == 2 && with_forks == 2 ? "\"exit\",\"exit_code\":2"
		    : f == 2		      ? "\"stop\",\"killed\":true"
					      : "\"stop\",\"killed\":false");
		bs_trace_write_event(w, ev);
	}
	bs_trace_write_event(w, "{\"kind\":\"stop_decision\",\"checkpoint\":\"fork\",\"fork\":2,"
				"\"iteration\":7,\"criterion\":\"cv\",\"values\":[0.1,0.5],"
				"\"threshold\":0.01,\"decision\":\"continue\",\"bound\":true,"
				"\"compute_ns\":700}");
	snprintf(ev, sizeof(ev),
		 "{\"stop\":{\"forks\":2,\"forks_stable\":false,\"checkpoints\":3,"
		 "\"compute_ns\":2000,\"wall_ns\":200000,\"harness_failed\":%s,"
		 "\"interrupted\":false},\"wall_ns\":200000}",
		 with_forks == 2 ? "true" : "false");
	bs_trace_write_end(w, ev);
	bs_trace_close(w);
	return path;
}

static int has_line(const struct bs_doc *d, const char *what)
{
	for (size_t i = 0; i < d->n_sections; i++) {
		const struct bs_doc_section *s = &d->sections[i];

		if (s->title && strstr(s->title, what))
			return 1;
		for (size_t j = 0; j < s->n_lines; j++)
			if (strstr(s->lines[j], what))
				return 1;
	}
	return 0;
}

static void test_summary_and_report(void)
{
	const char *path = write_trace(1);
	struct bs_dataset *ds = NULL;
	struct bs_run_summary s;
	struct bs_doc *doc;
	json_object *j, *st;
	char err[256];
	int warned_bound = 0, warned_kill = 0;

	CHECK(path != NULL);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	CHECK(s.stop.present);
	CHECK(!strcmp(s.stop.criterion, "cv"));
	CHECK_INT_EQ(s.stop.n_forks, 2);
	CHECK_INT_EQ(s.stop.mi, 3);
	CHECK_INT_EQ(s.stop.n_checkpoints, 3);
	CHECK_INT_EQ(s.stop.compute_ns, 2000);
	CHECK_NEAR(s.stop.compute_share, 0.01, 0, 1e-12);
	CHECK(!s.stop.forks_stable);
	CHECK(s.stop.fork_bound);
	CHECK(s.stop.forks[0].warmup_stable && !s.stop.forks[1].warmup_stable);
	CHECK(s.stop.forks[1].killed);
	/* counted: only the 3 measurement runs per fork; after_stop and warmup excluded */
	CHECK_INT_EQ(s.overall.n_iters, 6);
	CHECK_INT_EQ(s.n_after_stop, 2);
	CHECK_INT_EQ(s.n_warmup, 12);
	CHECK_NEAR(s.overall.per_op.mean, 10, 0, 1e-12);
	for (size_t i = 0; i < s.n_warnings; i++) {
		warned_bound += strstr(s.warnings[i], "fork stability not reached") != NULL;
		warned_kill += strstr(s.warnings[i], "ignored SIGTERM") != NULL;
	}
	CHECK_INT_EQ(warned_bound, 1);
	CHECK_INT_EQ(warned_kill, 1);
	doc = bs_report_doc_build(ds, &s);
	CHECK(doc != NULL);
	if (doc) {
		CHECK(has_line(doc, "Stoppage (dynamic reconfiguration"));
		CHECK(has_line(doc, "fork stability NOT reached"));
		CHECK(has_line(doc, "checkpoints: 3"));
		CHECK(has_line(doc, "arrived after their fork was ended"));
		bs_doc_free(doc);
	}
	j = bs_render_json_object(ds, &s);
	st = bs_json_get(j, "stoppage");
	CHECK(st != NULL);
	CHECK_INT_EQ(json_object_array_length(bs_json_get(st, "forks")), 2);
	CHECK_INT_EQ(json_object_array_length(bs_json_get(st, "decisions")), 3);
	CHECK_INT_EQ(json_object_get_int(bs_json_get(
			 bs_json_get(bs_json_get(j, "summary"), "removed"), "after_stop")),
		     2);
	json_object_put(j);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

/* a table cell of @doc equal to @what */
static int has_cell(const struct bs_doc *d, const char *what)
{
	for (size_t i = 0; i < d->n_sections; i++)
		for (size_t j = 0; j < d->sections[i].n_rows * d->sections[i].ncols; j++)
			if (!strcmp(d->sections[i].cells[j], what))
				return 1;
	return 0;
}

/*
 * A fork that exited with status 2 by itself: its 'ended by' cell says so,
 * the report warns as for a single run's harness, and the JSON has the status.
 */
static void test_failed_fork(void)
{
	const char *path = write_trace(2);
	struct bs_dataset *ds = NULL;
	struct bs_run_summary s;
	struct bs_doc *doc;
	json_object *j, *f;
	char err[256];
	int warned = 0;

	CHECK(path != NULL);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK(ds->run_end.stop.harness_failed);
	CHECK_INT_EQ(bs_run_summarize(ds, 5, &s), 0);
	for (size_t i = 0; i < s.n_warnings; i++)
		warned += strstr(s.warnings[i],
				 "fork 2 (pid 200): the harness exited with status 2") != NULL;
	CHECK_INT_EQ(warned, 1);
	doc = bs_report_doc_build(ds, &s);
	CHECK(doc && has_cell(doc, "exit 2") && has_cell(doc, "stop"));
	bs_doc_free(doc);
	j = bs_render_json_object(ds, &s);
	f = json_object_array_get_idx(bs_json_get(bs_json_get(j, "stoppage"), "forks"), 1);
	CHECK_INT_EQ(json_object_get_int(bs_json_get(f, "exit_code")), 2);
	json_object_put(j);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
}

static void test_replay_load(void)
{
	const char *path = write_trace(1);
	struct bs_dataset *ds = NULL;
	struct bs_replay_trace t;
	char err[256];

	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_replay_load(ds, &t, err, sizeof(err)), 0);
	CHECK_INT_EQ(t.n_forks, 2);
	CHECK(t.calibrates);
	/* 7 usable runs per fork (calibration and after_stop excluded); warmup flags ignored */
	CHECK_INT_EQ(t.forks[0].n, 7);
	CHECK_INT_EQ(t.forks[1].n, 7);
	CHECK_INT_EQ(t.n_excluded, 6);
	for (size_t i = 0; i < 7; i++)
		CHECK_NEAR(t.forks[0].v[i], 10, 0, 1e-12);
	/* cost: up to the end of the next run (decided when it arrives); from the fork's start */
	{
		uint64_t start = 1000000 - 10, run_ns = 10000 + 100;
		uint64_t end_run1 = 1000000 + 10 + 100 + 1000 + 100; /* two calibration runs */

		CHECK_INT_EQ(t.forks[0].cost_ns[0], end_run1 + run_ns + 10000 - start);
		CHECK(t.forks[0].cost_ns[6] > t.forks[0].cost_ns[5]);
	}
	bs_replay_trace_free(&t);
	bs_dataset_free(ds);
	/* a trace without fork events: one-line error */
	path = write_trace(0);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK_INT_EQ(bs_replay_load(ds, &t, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "holds no forks") != NULL);
	CHECK(!strchr(err, '\n'));
	bs_dataset_free(ds);
}

int main(void)
{
	RUN_TEST(test_summary_and_report);
	RUN_TEST(test_replay_load);
	RUN_TEST(test_failed_fork);
	return test_summary("stop-report");
}
