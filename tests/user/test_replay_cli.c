// SPDX-License-Identifier: MIT
/*
 * test_replay_cli - `benchscope replay` on synthetic fork recordings: a
 * trace whose dynamic configuration measures nothing (warmup still unsettled
 * when the recording of --static 10:10:5 ends, wi_max 50) has no A/A
 * result: "n/a" in the table, aa_unchanged null in JSON, and it is left
 * out of the totals, which say so; a steady trace counts as usual. The
 * replays are told, one by one, to a steps hook (the progress line's).
 */
#include <json-c/json.h>
#include <math.h>

#include <benchscope/stats.h>

#include "test.h"
#include "fixture_run.h"
#include "cmd_capture.h"
#include "commands.h"
#include "trace/dataset.h"
#include "stop/replay_set.h"
#include "steps_record.h"

static const char ctx[] =
    "{\"tool\":\"benchscope\",\"version\":\"0.1\",\"kernel\":\"6.18.0-test\",\"ncpus\":2,"
    "\"clock\":\"CLOCK_MONOTONIC\",\"boundaries\":{\"kind\":\"uprobe\",\"begin\":\"b\","
    "\"end\":\"e\"}}";

static char steady[512], unsettled[512], js[512], out[512], errp[512];

/* 5 forks of 20 iterations; value(f, i) ns each */
static int write_forks(const char *path, double (*value)(int f, int i))
{
	char err[256], ev[512];
	struct bs_trace_writer *w = bs_trace_create(path, ctx, err, sizeof(err));
	uint64_t t = 1000000;
	int ret = 0;

	if (!w)
		return -1;
	for (int f = 0; f < 5; f++) {
		uint32_t pid = 100 + (uint32_t)f;
		uint64_t t0 = t;

		for (int i = 0; i < 20; i++) {
			uint64_t dur = (uint64_t)llround(value(f, i));
			struct bs_iter_rec r = fx_run_iter(pid, (uint64_t)i, t, dur, 0, 0);

			ret |= bs_trace_write_iter(w, &r);
			t += dur + 100;
		}
		snprintf(
		    ev, sizeof(ev),
		    "{\"kind\":\"fork\",\"fork\":%d,\"pid\":%u,\"start_ns\":%llu,\"end_ns\":%llu,"
		    "\"warmup_iterations\":10,\"measurement_iterations\":10,"
		    "\"warmup_stable\":false,\"short\":false,\"ended_by\":\"stop\","
		    "\"killed\":false,\"interrupted\":false,\"calibration_runs\":0,"
		    "\"after_stop_iterations\":0}",
		    f + 1, pid, (unsigned long long)t0 - 10, (unsigned long long)t);
		ret |= bs_trace_write_event(w, ev);
		t += 1000;
	}
	ret |= bs_trace_write_end(w, "{\"interrupted\":false}");
	ret |= bs_trace_close(w);
	return ret ? -1 : 0;
}

/* 0.1 % spread: warmup stable at its first checkpoint */
static double steady_value(int f, int i)
{
	return 10000 * (1 + 0.001 * ((i * 7 + f) % 3 - 1));
}

/* 1x and 2x in turn: CV warmup never stable */
static double unsettled_value(int f, int i)
{
	(void)f;
	return i % 2 ? 20000 : 10000;
}

static json_object *criterion0(json_object *root, size_t trace)
{
	json_object *t = json_object_array_get_idx(json_object_object_get(root, "traces"), trace);

	return json_object_array_get_idx(json_object_object_get(t, "criteria"), 0);
}

static void test_no_aa_result_left_out(void)
{
	json_object *root, *c, *tot;
	const char *o;

	CHECK_INT_EQ(write_forks(steady, steady_value), 0);
	CHECK_INT_EQ(write_forks(unsettled, unsettled_value), 0);
	CHECK_INT_EQ(
	    cap_run(cmd_replay, "replay",
		    (const char *const[]){"--stop", "cv", "--static", "10:10:5", "--resamples",
					  "1000", "--json", js, steady, unsettled, NULL},
		    out, errp),
	    0);
	o = cap_slurp(out);
	/* the table: the unsettled trace's row says n/a, never CHANGED */
	{
		const char *row = strstr(o, "unsettled.trace");
		const char *eol = row ? strchr(row, '\n') : NULL;
		char line[512] = "";

		CHECK(row && eol);
		if (row && eol && (size_t)(eol - row) < sizeof(line))
			memcpy(line, row, (size_t)(eol - row));
		CHECK(strstr(line, "CHANGED") == NULL);
		CHECK(strstr(line, "n/a") != NULL);
		CHECK(strstr(line, "nan") == NULL);
	}
	CHECK(strstr(o, "less those left out") != NULL);
	CHECK(strstr(o, "left out") != NULL);
	CHECK(strstr(o, "nan") == NULL);
	/* its forks too short for the dynamic configuration: a warning, on stderr */
	CHECK(strstr(o, "warning") == NULL);
	CHECK(strstr(cap_slurp(errp), "benchscope replay: warning: unsettled.trace: forks too "
				      "short in the recording") != NULL);
	root = json_tokener_parse(cap_slurp(js));
	CHECK(root != NULL);
	if (!root)
		return;
	c = criterion0(root, 0);
	CHECK(json_object_get_boolean(json_object_object_get(c, "aa_unchanged")));
	c = criterion0(root, 1);
	CHECK(c != NULL);
	if (c) {
		json_object *v;

		CHECK(json_object_object_get_ex(c, "aa_unchanged", &v) && v == NULL);
		CHECK(json_object_object_get_ex(c, "change_rate", &v) && v == NULL);
	}
	tot = json_object_array_get_idx(json_object_object_get(root, "totals"), 0);
	CHECK_INT_EQ(json_object_get_int(json_object_object_get(tot, "benchmarks")), 1);
	CHECK_INT_EQ(json_object_get_int(json_object_object_get(tot, "left_out")), 1);
	/* the steady trace alone: unchanged, its change rate a number */
	CHECK_NEAR(json_object_get_double(json_object_object_get(tot, "unchanged")), 1, 0, 0);
	CHECK(json_object_object_get(tot, "change_rate_mean") != NULL);
	json_object_put(root);
	/* stdout that cannot be written: exit 1, one line */
	if (cap_full()) {
		CHECK_INT_EQ(cap_run(cmd_replay, "replay",
				     (const char *const[]){"--stop", "cv", "--static", "10:10:5",
							   "--resamples", "1000", steady, NULL},
				     cap_full(), errp),
			     1);
		CHECK(!strcmp(cap_slurp(errp), "benchscope replay: cannot write the report to "
					       "stdout: No space left on device\n"));
	}
}

/* A truncated trace is replayed from its complete forks with one warning
 * line saying so; one cut before its first fork ended holds nothing to
 * replay: one line, status 3 (no data). */
static void test_truncated(void)
{
	char cut[512];
	long size = fx_file_size(steady), len;
	const char *e;

	fx_path(cut, sizeof(cut), "cut.trace");
	/* the END block cut off: every fork is there */
	CHECK_INT_EQ(fx_copy_prefix(steady, cut, size - 4), 0);
	CHECK_INT_EQ(cap_run(cmd_replay, "replay",
			     (const char *const[]){"--stop", "cv", "--static", "10:10:5",
						   "--resamples", "1000", cut, NULL},
			     out, errp),
		     0);
	e = cap_slurp(errp);
	CHECK_INT_EQ(cap_count_lines(e), 1);
	CHECK(strstr(e, "is truncated after") != NULL);
	CHECK(strstr(e, "replaying the 5 complete forks it holds, 100 usable iterations") != NULL);
	/* cut inside the first fork: a prefix that loads, with iterations, no fork */
	for (len = 16; len < size; len++) {
		struct bs_dataset *ds = NULL;
		char err[256];
		bool hit = false;

		CHECK_INT_EQ(fx_copy_prefix(steady, cut, len), 0);
		if (bs_dataset_load(cut, &ds, err, sizeof(err)))
			continue;
		hit = ds->n_iters > 0 && !ds->run_ev.n_forks;
		bs_dataset_free(ds);
		if (hit)
			break;
	}
	CHECK(len < size);
	CHECK_INT_EQ(
	    cap_run(cmd_replay, "replay",
		    (const char *const[]){"--stop", "cv", "--static", "10:10:5", cut, NULL}, out,
		    errp),
	    3);
	e = cap_slurp(errp);
	CHECK_INT_EQ(cap_count_lines(e), 1);
	CHECK(strstr(e, "nothing to replay") != NULL);
}

/* Each replay (trace by trace, criterion by criterion) is told to the hook
 * as it starts, then the end. */
static void test_steps(void)
{
	char *paths[] = {steady, unsettled};
	struct steps_record rec;
	struct bs_steps st = steps_record_init(&rec);
	struct bs_replay_set set = {.crits = {BS_CRIT_CV, BS_CRIT_KLD},
				    .n_crits = 2,
				    .st = {10, 10, 5},
				    .level = 0.99,
				    .resamples = 1000,
				    .seed = 1,
				    .paths = paths,
				    .n_traces = 2,
				    .steps = &st};
	char err[512];

	CHECK_INT_EQ(write_forks(steady, steady_value), 0);
	CHECK_INT_EQ(write_forks(unsettled, unsettled_value), 0);
	set.plan = bs_stop_plan_default(BS_CRIT_RCIW);
	set.plan.seed = 1;
	CHECK_INT_EQ(bs_replay_set_run(&set, err, sizeof(err)), 0);
	CHECK_INT_EQ(rec.n, 5);
	CHECK(steps_record_is(&rec, 0, 0, 4, "steady.trace, cv"));
	CHECK(steps_record_is(&rec, 1, 1, 4, "steady.trace, kld"));
	CHECK(steps_record_is(&rec, 2, 2, 4, "unsettled.trace, cv"));
	CHECK(steps_record_is(&rec, 3, 3, 4, "unsettled.trace, kld"));
	CHECK(steps_record_is(&rec, 4, 4, 4, "(null)"));
	bs_replay_set_free(&set);
}

int main(void)
{
	bs_stats_init();
	fx_path(steady, sizeof(steady), "steady.trace");
	fx_path(unsettled, sizeof(unsettled), "unsettled.trace");
	fx_path(js, sizeof(js), "replay.json");
	fx_path(out, sizeof(out), "out.txt");
	fx_path(errp, sizeof(errp), "err.txt");
	RUN_TEST(test_no_aa_result_left_out);
	RUN_TEST(test_truncated);
	RUN_TEST(test_steps);
	fx_cleanup();
	return test_summary("user-replay-cli");
}
