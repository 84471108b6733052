// SPDX-License-Identifier: MIT
/* test_duet_blocks.c - the typed decode of a duet trace's blocks
 * (trace/duet_blocks.h): typed values of synthetic traces (duet_fixture.h)
 * and of hand-written blocks, and refusal (-EBADMSG, one line naming the
 * key) of a duet_run event or CONTEXT key that is missing or mistyped. */
#include "test.h"

#include <errno.h>

#include "trace/dataset.h"
#include "trace/duet_blocks.h"
#include "trace/trace.h"
#include "duet/data.h"
#include "fixture.h"
#include "duet_fixture.h"

/* a trace of @ctx and the events @ev[0..n), loaded; NULL on failure */
static struct bs_dataset *write_load(const char *name, const char *ctx, const char *const *ev,
				     size_t n)
{
	char path[300], err[256];
	struct bs_trace_writer *w;
	struct bs_dataset *ds = NULL;

	fx_path(path, sizeof(path), name);
	w = bs_trace_create(path, ctx, err, sizeof(err));
	if (!w) {
		FAILF("create %s: %s", path, err);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		bs_trace_write_event(w, ev[i]);
	if (bs_trace_close(w) || bs_dataset_load(path, &ds, err, sizeof(err))) {
		FAILF("write/load %s: %s", path, err);
		return NULL;
	}
	return ds;
}

/* the fixture's trace: every run's typed values equal what was written */
static void test_synthetic(void)
{
	struct df_spec sp = {.runs_per_method = 3,
			     .methods = {true, true, true},
			     .iters = 8,
			     .slow_b = 0.1,
			     .noise = 0.01,
			     .failed_run = true,
			     .aa = true};
	struct df_truth t;
	char path[300], err[256];
	struct bs_dataset *ds = NULL;
	struct bs_duet_blocks b;

	fx_path(path, sizeof(path), "synth.trace");
	CHECK_INT_EQ(df_write(path, &sp, &t), 0);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK(bs_dataset_is_duet(ds));
	CHECK_INT_EQ(bs_duet_blocks_decode(ds, &b, err, sizeof(err)), 0);
	CHECK(b.ctx.has_duet);
	CHECK(b.ctx.benchmark && !strcmp(b.ctx.benchmark, "synth"));
	CHECK(b.ctx.source && !strcmp(b.ctx.source, "benchscope"));
	CHECK(b.ctx.has_aa && b.ctx.aa);
	CHECK(b.ctx.has_min_overlap && b.ctx.min_overlap == 0.4);
	CHECK(!b.ctx.suite && !b.ctx.kernel && !b.ctx.has_ncpus && !b.ctx.degraded[0]);
	CHECK_INT_EQ((int)b.n_runs, t.n_runs);
	for (size_t i = 0; i < b.n_runs && (int)i < t.n_runs; i++) {
		const struct bs_duet_run_event *r = &b.runs[i];

		CHECK_INT_EQ(r->run, (int)i);
		CHECK_INT_EQ(r->method, t.method[i]);
		CHECK(r->has_index && r->index >= 0 && r->index <= sp.runs_per_method);
		CHECK(!strcmp(r->order, r->index % 2 ? "BA" : "AB"));
		CHECK(r->start_ns > 0 && r->end_ns > r->start_ns);
		CHECK_INT_EQ(r->side[0].pid, t.pid[i][0]);
		CHECK_INT_EQ(r->side[1].pid, t.pid[i][1]);
		CHECK(!r->side[0].failed && !r->side[1].failed && !r->benchmark);
		CHECK_INT_EQ(r->ok, (int)i != t.failed_run);
		if ((int)i == t.failed_run)
			CHECK(r->reason && !strcmp(r->reason, "B crashed (signal 11)"));
		else
			CHECK(!r->reason);
	}
	bs_duet_blocks_free(&b);
	CHECK(!b.runs && !b.n_runs);
	bs_dataset_free(ds);
}

/* machine keys, suite, per-run benchmark, a side's failure; optional keys
 * absent or null; events of other kinds skipped */
static void test_typed_values(void)
{
	const char *ctx =
	    "{\"mode\": \"duet\", \"kernel\": \"6.1.0\", \"cpu_model\": \"Some CPU\", "
	    "\"ncpus\": 4, \"hypervisor\": \"KVM\", \"steal_accounting\": false, "
	    "\"duet\": {\"source\": \"import:duet-csv\", \"suite\": \"renaissance\", "
	    "\"benchmark\": null, \"aa\": false, \"min_overlap\": 1, \"cpus\": null}}";
	const char *ev[] = {
	    "{\"kind\": \"note\", \"text\": \"not a run\"}",
	    "{\"kind\": \"duet_run\", \"run\": 7, \"method\": \"duet\", \"index\": 2, "
	    "\"order\": null, \"start_ns\": 10, \"end_ns\": 20, \"ok\": true, \"reason\": null, "
	    "\"benchmark\": \"chi-square\", \"sides\": {\"A\": {\"pid\": 4000000000}, "
	    "\"B\": {\"pid\": 0, \"failed\": null}}}",
	    "{\"kind\": \"duet_run\", \"run\": 8, \"method\": \"seqn\", \"ok\": false, "
	    "\"sides\": {\"A\": {\"pid\": 1}, \"B\": {\"pid\": 2, \"failed\": \"exit 3\"}}}",
	};
	struct bs_dataset *ds = write_load("typed.trace", ctx, ev, 3);
	struct bs_duet_blocks b;
	struct bs_duet_data *d = NULL;
	char err[256];

	if (!ds)
		return;
	CHECK_INT_EQ(bs_duet_blocks_decode(ds, &b, err, sizeof(err)), 0);
	CHECK(b.ctx.kernel && !strcmp(b.ctx.kernel, "6.1.0"));
	CHECK(b.ctx.cpu_model && !strcmp(b.ctx.cpu_model, "Some CPU"));
	CHECK(b.ctx.has_ncpus && b.ctx.ncpus == 4);
	CHECK(b.ctx.hypervisor && !strcmp(b.ctx.hypervisor, "KVM"));
	CHECK(strstr(b.ctx.degraded, "steal_ns reads 0") != NULL);
	CHECK(b.ctx.suite && !strcmp(b.ctx.suite, "renaissance"));
	CHECK(!b.ctx.benchmark && b.ctx.has_aa && !b.ctx.aa);
	CHECK(b.ctx.has_min_overlap && b.ctx.min_overlap == 1.0);
	CHECK_INT_EQ((int)b.n_runs, 2);
	if (b.n_runs == 2) {
		const struct bs_duet_run_event *r = &b.runs[0], *f = &b.runs[1];

		CHECK_INT_EQ((int)r->event, 1);
		CHECK_INT_EQ(r->run, 7);
		CHECK_INT_EQ(r->method, BS_DM_ASYNC);
		CHECK(r->has_index && r->index == 2 && !r->order[0]);
		CHECK(r->start_ns == 10 && r->end_ns == 20 && r->ok && !r->reason);
		CHECK(r->benchmark && !strcmp(r->benchmark, "chi-square"));
		CHECK(r->side[0].pid == 4000000000u && r->side[1].pid == 0);
		CHECK_INT_EQ((int)f->event, 2);
		CHECK_INT_EQ(f->method, BS_DM_SEQ);
		CHECK(!f->has_index && !f->index && !f->start_ns && !f->end_ns && !f->ok);
		CHECK(!f->reason && f->side[1].failed && !strcmp(f->side[1].failed, "exit 3"));
	}
	bs_duet_blocks_free(&b);
	/* the model takes its context and failure reasons from the decode */
	CHECK_INT_EQ(bs_duet_data_build(ds, &d, err, sizeof(err)), 0);
	if (d) {
		CHECK(!strcmp(d->benchmark, "") && !strcmp(d->source, "import:duet-csv"));
		CHECK(d->ctx.suite && !strcmp(d->ctx.suite, "renaissance"));
		CHECK(d->runs_total == 2 && d->n_failed == 1);
		CHECK(d->n_failed == 1 && !strcmp(d->failed[0].reason, "exit 3"));
	}
	bs_duet_data_free(d);
	bs_dataset_free(ds);
}

/* a machine key of the wrong type in a duet CONTEXT is refused when the
 * trace is loaded (the CONTEXT keys every trace shares are decoded there),
 * in one line naming the key */
static void test_refused_at_load(void)
{
	char path[300], err[256] = "";
	struct bs_trace_writer *w;
	struct bs_dataset *ds = NULL;
	const char *ev = "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", "
			 "\"ok\": true, \"sides\": {\"A\": {\"pid\": 1}, \"B\": {\"pid\": 2}}}";

	fx_path(path, sizeof(path), "badload.trace");
	w = bs_trace_create(path, "{\"mode\": \"duet\", \"kernel\": \"6.1\", \"ncpus\": \"4\"}",
			    err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	bs_trace_write_event(w, ev);
	CHECK_INT_EQ(bs_trace_close(w), 0);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"ncpus\"") && !strchr(err, '\n'));
	bs_dataset_free(ds);
}

/* a required key missing or null, or any key of the wrong type: -EBADMSG
 * from the decode, -EINVAL (exit status 2) from the model, one line naming
 * the key */
static void test_refused(void)
{
	static const char ok_sides[] = ", \"sides\": {\"A\": {\"pid\": 1}, \"B\": {\"pid\": 2}}";
	static const struct {
		const char *ctx; /* NULL: a valid duet context */
		const char *ev;	 /* the one duet_run event, without its closing brace */
		const char *key; /* expected in the message, quoted */
		bool own_sides;	 /* false: add valid sides */
	} bad[] = {
	    {NULL, "{\"kind\": \"duet_run\", \"method\": \"async\", \"ok\": true", "\"run\"",
	     false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": null, \"method\": \"async\", \"ok\": true",
	     "\"run\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": \"3\", \"method\": \"async\", \"ok\": true",
	     "\"run\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": -1, \"method\": \"async\", \"ok\": true",
	     "\"run\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": 0, \"ok\": true", "\"method\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"fast\", \"ok\": true",
	     "\"method\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\"", "\"ok\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": 1",
	     "\"ok\"", false},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true, "
	     "\"index\": 1.5",
	     "\"index\"", false},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true, "
	     "\"order\": \"XY\"",
	     "\"order\"", false},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true, "
	     "\"start_ns\": \"0\"",
	     "\"start_ns\"", false},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": false, "
	     "\"reason\": 5",
	     "\"reason\"", false},
	    {NULL, "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true",
	     "\"sides\"", true},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true, "
	     "\"sides\": {\"A\": {\"pid\": 1}}",
	     "\"sides.B\"", true},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true, "
	     "\"sides\": {\"A\": {\"pid\": 1}, \"B\": {\"pid\": \"2\"}}",
	     "\"sides.B.pid\"", true},
	    {NULL,
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true, "
	     "\"sides\": {\"A\": {}, \"B\": {\"pid\": 2}}",
	     "\"sides.A.pid\"", true},
	    {"{\"mode\": \"duet\", \"duet\": {\"aa\": \"yes\"}}",
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true",
	     "\"duet.aa\"", false},
	    {"{\"mode\": \"duet\", \"duet\": [1]}",
	     "{\"kind\": \"duet_run\", \"run\": 0, \"method\": \"async\", \"ok\": true", "\"duet\"",
	     false},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char ev[512], err[256] = "", name[64];
		const char *evp = ev;
		struct bs_dataset *ds;
		struct bs_duet_blocks b;
		struct bs_duet_data *d = NULL;
		int ret;

		snprintf(ev, sizeof(ev), "%s%s}", bad[i].ev, bad[i].own_sides ? "" : ok_sides);
		snprintf(name, sizeof(name), "bad%zu.trace", i);
		ds = write_load(name, bad[i].ctx ? bad[i].ctx : "{\"mode\": \"duet\"}", &evp, 1);
		if (!ds)
			continue;
		ret = bs_duet_blocks_decode(ds, &b, err, sizeof(err));
		if (ret != -EBADMSG || !strstr(err, bad[i].key) || strchr(err, '\n'))
			FAILF("case %zu (%s): decode %d \"%s\"", i, bad[i].key, ret, err);
		CHECK(strstr(err, bad[i].ctx ? "corrupted CONTEXT: "
					     : "corrupted EVENT 0 (duet_run") == err);
		bs_duet_blocks_free(&b);
		err[0] = '\0';
		ret = bs_duet_data_build(ds, &d, err, sizeof(err));
		if (ret != -EINVAL || !strstr(err, bad[i].key) || d)
			FAILF("case %zu (%s): build %d \"%s\"", i, bad[i].key, ret, err);
		bs_duet_data_free(d);
		bs_dataset_free(ds);
	}
}

int main(void)
{
	RUN_TEST(test_synthetic);
	RUN_TEST(test_typed_values);
	RUN_TEST(test_refused);
	RUN_TEST(test_refused_at_load);
	return test_summary("test_duet_blocks");
}
