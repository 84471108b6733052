// SPDX-License-Identifier: MIT
/*
 * test_run_blocks - the typed decode of a run's JSON blocks at load
 * (trace/context.h, end.h, events.h): every field of a full trace comes back
 * typed; absent optional keys give their documented defaults; a key of the
 * wrong type, or a required EVENT key missing, is refused with -EBADMSG and a
 * one-line message naming the block and the key.
 */
#include <errno.h>

#include "test.h"
#include "fixture.h"
#include "trace/dataset.h"
#include "trace/trace.h"

static const char full_ctx[] =
    "{\"tool\":\"benchscope\",\"version\":\"0.9\",\"kernel\":\"6.18.0-t\","
    "\"cpu_model\":\"Test CPU\",\"ncpus\":12,\"hostname\":\"h\",\"clock\":\"CLOCK_MONOTONIC\","
    "\"hypervisor\":\"KVM\",\"steal_accounting\":false,\"sched_info\":true,"
    "\"started_at\":\"2026-01-01T00:00:00Z\",\"command\":[\"./b\",\"--x\",\"y z\"],"
    "\"boundaries\":{\"kind\":\"gbench\",\"begin\":\"B\",\"end\":\"E\",\"invocations\":\"x\"},"
    "\"probe_cost_ns\":{\"begin\":40.5,\"end\":null,\"per_iteration\":100,\"method\":\"loop\"},"
    "\"stop\":{\"criterion\":\"rciw\",\"threshold\":0.03,\"window\":5,\"warmup\":[5,50],"
    "\"measure\":10,\"forks\":[2,5],\"seed\":1,\"grace_ms\":2000}}";

static const char full_end[] =
    "{\"status\":{\"pid\":4242,\"exited\":false,\"exit_code\":0,\"signaled\":true,"
    "\"signal\":9},\"interrupted\":true,\"wall_ns\":2000000,"
    "\"lost\":{\"iter_lost\":3,\"iter_spilled\":2,\"proc_lost\":1},"
    "\"bpf_stats\":[{\"prog\":\"on_switch\",\"run_cnt\":1000,\"run_time_ns\":150000},"
    "{\"prog\":\"on_irq\",\"run_cnt\":0}],\"warnings\":[\"w1\",\"w2\"],"
    "\"stop\":{\"forks\":3,\"forks_stable\":true,\"checkpoints\":4,\"compute_ns\":777,"
    "\"harness_failed\":false,\"interrupted\":false}}";

static const char fork_ev[] =
    "{\"kind\":\"fork\",\"fork\":2,\"pid\":300,\"start_ns\":1000,\"end_ns\":9000,"
    "\"warmup_iterations\":7,\"measurement_iterations\":10,\"warmup_stable\":true,"
    "\"short\":false,\"ended_by\":\"signal\",\"signal\":15,\"interrupted\":true,"
    "\"calibration_runs\":4,\"after_stop_iterations\":1}";

static const char decision_ev[] =
    "{\"kind\":\"stop_decision\",\"checkpoint\":\"fork\",\"fork\":2,\"iteration\":17,"
    "\"criterion\":\"rciw\",\"values\":[0.5,null,1],\"threshold\":0.03,"
    "\"decision\":\"stop\",\"bound\":true,\"error\":\"too few\",\"compute_ns\":321}";

/*
 * Write a trace with context @ctx (NULL: none), the events @ev (NULL-ended)
 * and END @end (NULL: none) to @name; load it. Returns bs_dataset_load()'s
 * return; *ds is NULL on error.
 */
static int load(const char *name, const char *ctx, const char *const *ev, const char *end,
		struct bs_dataset **ds, char *err, size_t errlen)
{
	char path[300];
	struct bs_trace_writer *w =
	    bs_trace_create(fx_path(path, sizeof(path), name), ctx, err, errlen);
	struct bs_iter_rec it = fx_iter(1);

	*ds = NULL;
	if (!w) {
		FAILF("cannot write %s: %s", name, err);
		return -EIO;
	}
	bs_trace_write_iter(w, &it);
	for (; ev && *ev; ev++)
		CHECK_INT_EQ(bs_trace_write_event(w, *ev), 0);
	if (end)
		bs_trace_write_end(w, end);
	bs_trace_close(w);
	return bs_dataset_load(path, ds, err, errlen);
}

static void test_full_trace(void)
{
	const char *evs[] = {"{\"kind\":\"warning\",\"text\":\"careful\"}",
			     fork_ev,
			     "{\"kind\":\"duet_run\",\"run\":\"not ours\"}",
			     "{\"waste\":\"ctx\",\"id\":1}",
			     decision_ev,
			     "{\"kind\":\"note\",\"text\":\"fyi\"}",
			     NULL};
	struct bs_dataset *ds;
	char err[256];
	const struct bs_run_context *c;
	const struct bs_run_end *e;
	const struct bs_run_events *v;

	CHECK_INT_EQ(load("full.trace", full_ctx, evs, full_end, &ds, err, sizeof(err)), 0);
	if (!ds) {
		FAILF("%s", err);
		return;
	}
	c = &ds->run_ctx;
	CHECK(c->tool && !strcmp(c->tool, "benchscope"));
	CHECK(c->version && !strcmp(c->version, "0.9"));
	CHECK(c->kernel && !strcmp(c->kernel, "6.18.0-t"));
	CHECK(c->cpu_model && !strcmp(c->cpu_model, "Test CPU"));
	CHECK(c->hostname && !strcmp(c->hostname, "h"));
	CHECK(c->clock && !strcmp(c->clock, "CLOCK_MONOTONIC"));
	CHECK(c->hypervisor && !strcmp(c->hypervisor, "KVM"));
	CHECK(c->started_at && !strcmp(c->started_at, "2026-01-01T00:00:00Z"));
	CHECK_INT_EQ(c->ncpus, 12);
	CHECK_INT_EQ(c->steal_accounting, 0);
	CHECK_INT_EQ(c->sched_info, 1);
	CHECK_INT_EQ(c->n_command, 3);
	if (c->n_command == 3)
		CHECK(!strcmp(c->command[0], "./b") && !strcmp(c->command[2], "y z"));
	CHECK(c->boundaries_kind && !strcmp(c->boundaries_kind, "gbench"));
	CHECK(c->boundaries_begin && !strcmp(c->boundaries_begin, "B"));
	CHECK(c->boundaries_end && !strcmp(c->boundaries_end, "E"));
	CHECK(c->has_probe_cost);
	CHECK_NEAR(c->probe_cost_begin_ns, 40.5, 0, 0);
	CHECK(isnan(c->probe_cost_end_ns)); /* null: not measured */
	CHECK_NEAR(c->probe_cost_per_iter_ns, 100, 0, 0);
	CHECK(c->probe_cost_method && !strcmp(c->probe_cost_method, "loop"));
	CHECK(c->stop.present && c->stop.json != NULL);
	CHECK(c->stop.criterion && !strcmp(c->stop.criterion, "rciw"));
	CHECK_NEAR(c->stop.threshold, 0.03, 0, 0);
	CHECK_INT_EQ(c->stop.window, 5);
	CHECK_INT_EQ(c->stop.wi_min, 5);
	CHECK_INT_EQ(c->stop.wi_max, 50);
	CHECK_INT_EQ(c->stop.mi, 10);
	CHECK_INT_EQ(c->stop.f_min, 2);
	CHECK_INT_EQ(c->stop.f_max, 5);
	{
		char buf[160];

		CHECK(bs_run_context_degraded(c, buf, sizeof(buf)) &&
		      !strcmp(buf, "steal_ns reads 0 (kernel without steal accounting)"));
	}

	e = &ds->run_end;
	CHECK(e->present && e->status.present && e->status.has_pid);
	CHECK_INT_EQ(e->status.pid, 4242);
	CHECK(!e->status.exited && e->status.signaled);
	CHECK_INT_EQ(e->status.signal, 9);
	CHECK(e->interrupted);
	CHECK_NEAR(e->wall_ns, 2000000, 0, 0);
	CHECK(e->has_lost);
	CHECK_INT_EQ(e->n_lost, 3);
	if (e->n_lost == 3) {
		CHECK(!strcmp(e->lost[0].name, "iter_lost") && e->lost[0].value == 3);
		CHECK(!strcmp(e->lost[2].name, "proc_lost") && e->lost[2].value == 1);
	}
	CHECK_INT_EQ(e->n_bpf_stats, 2);
	if (e->n_bpf_stats == 2) {
		CHECK(!strcmp(e->bpf_stats[0].prog, "on_switch"));
		CHECK_INT_EQ(e->bpf_stats[0].run_cnt, 1000);
		CHECK_NEAR(e->bpf_stats[0].run_time_ns, 150000, 0, 0);
		CHECK(isnan(e->bpf_stats[1].run_time_ns));
	}
	CHECK_INT_EQ(e->n_warnings, 2);
	if (e->n_warnings == 2)
		CHECK(!strcmp(e->warnings[1], "w2"));
	CHECK(e->stop.present);
	CHECK_INT_EQ(e->stop.forks, 3);
	CHECK(e->stop.has_compute_ns && e->stop.compute_ns == 777);
	CHECK(!e->stop.has_wall_ns);

	v = &ds->run_ev;
	CHECK_INT_EQ(v->n_events, 6);
	CHECK_INT_EQ(v->n_forks, 1);
	if (v->n_forks == 1) {
		const struct bs_fork_event *f = &v->forks[0];

		CHECK_INT_EQ(f->fork, 2);
		CHECK_INT_EQ(f->pid, 300);
		CHECK_INT_EQ(f->start_ns, 1000);
		CHECK_INT_EQ(f->end_ns, 9000);
		CHECK_INT_EQ(f->warmup_iterations, 7);
		CHECK_INT_EQ(f->measurement_iterations, 10);
		CHECK(f->warmup_stable && !f->is_short && !f->killed && f->interrupted);
		CHECK(!strcmp(f->ended_by, "signal"));
		CHECK_INT_EQ(f->calibration_runs, 4);
		CHECK_INT_EQ(f->after_stop_iterations, 1);
	}
	CHECK_INT_EQ(v->n_decisions, 1);
	if (v->n_decisions == 1) {
		const struct bs_stop_decision_event *d = &v->decisions[0];

		CHECK(d->fork_checkpoint && d->stop && d->bound);
		CHECK_INT_EQ(d->fork, 2);
		CHECK_INT_EQ(d->iteration, 17);
		CHECK(!strcmp(d->criterion, "rciw"));
		CHECK_INT_EQ(d->n_values, 3);
		CHECK_NEAR(d->threshold, 0.03, 0, 0);
		CHECK(d->error && !strcmp(d->error, "too few"));
		CHECK_INT_EQ(d->compute_ns, 321);
		CHECK(d->json == json_object_array_get_idx(ds->events, 4));
	}
	CHECK_INT_EQ(v->n_warnings, 1);
	if (v->n_warnings == 1)
		CHECK(!strcmp(v->warnings[0], "careful"));
	CHECK_INT_EQ(v->n_notes, 1);
	if (v->n_notes == 1)
		CHECK(!strcmp(v->notes[0], "fyi"));
	bs_dataset_free(ds);
}

/* Context and END may lack any key (older traces, imports): defaults, no error. */
static void test_optional_keys(void)
{
	struct bs_dataset *ds;
	char err[256];

	CHECK_INT_EQ(load("bare.trace", "{}", NULL, NULL, &ds, err, sizeof(err)), 0);
	if (!ds) {
		FAILF("%s", err);
		return;
	}
	CHECK(!ds->run_ctx.kernel && !ds->run_ctx.hypervisor && !ds->run_ctx.command);
	CHECK_INT_EQ(ds->run_ctx.ncpus, -1);
	CHECK_INT_EQ(ds->run_ctx.steal_accounting, -1);
	CHECK_INT_EQ(ds->run_ctx.sched_info, -1);
	CHECK(!ds->run_ctx.has_probe_cost && isnan(ds->run_ctx.probe_cost_per_iter_ns));
	CHECK(!ds->run_ctx.stop.present && isnan(ds->run_ctx.stop.threshold));
	CHECK(!ds->run_end.present && isnan(ds->run_end.wall_ns));
	{
		char buf[160];

		CHECK(bs_run_context_degraded(&ds->run_ctx, buf, sizeof(buf)) == NULL);
	}
	bs_dataset_free(ds);

	/* an END with none of the run's keys (a waste run's) and a fork without its options */
	{
		const char *evs[] = {"{\"kind\":\"fork\",\"fork\":1,\"pid\":3,\"start_ns\":0,"
				     "\"end_ns\":5,\"warmup_iterations\":0,"
				     "\"measurement_iterations\":0,\"warmup_stable\":false,"
				     "\"short\":true,\"ended_by\":\"exit\"}",
				     NULL};

		CHECK_INT_EQ(load("bare2.trace", "{\"stop\":{}}", evs,
				  "{\"exit_code\":0,\"interrupted\":false}", &ds, err, sizeof(err)),
			     0);
		if (!ds) {
			FAILF("%s", err);
			return;
		}
		CHECK(ds->run_end.present && !ds->run_end.status.present && !ds->run_end.has_lost);
		CHECK(ds->run_ctx.stop.present && !ds->run_ctx.stop.criterion);
		CHECK_INT_EQ(ds->run_ev.n_forks, 1);
		if (ds->run_ev.n_forks == 1)
			CHECK(ds->run_ev.forks[0].is_short && !ds->run_ev.forks[0].killed);
		bs_dataset_free(ds);
	}
}

/* Load a trace that must be refused; the message must hold every string of @want. */
static void refused(const char *what, const char *ctx, const char *ev, const char *end,
		    const char *const *want)
{
	const char *evs[] = {ev, NULL};
	struct bs_dataset *ds;
	char err[256] = "";
	int ret = load("bad.trace", ctx ? ctx : "{}", evs, end, &ds, err, sizeof(err));

	if (ret != -EBADMSG)
		FAILF("%s: loads with %d (%s), expected -EBADMSG", what, ret, err);
	for (; *want; want++)
		if (!strstr(err, *want))
			FAILF("%s: message \"%s\" does not name '%s'", what, err, *want);
	if (strchr(err, '\n'))
		FAILF("%s: message of more than one line", what);
	bs_dataset_free(ds);
}

static void test_refused(void)
{
	char ev[600];

	/* a fork without its fork index (written as the 2nd block: SCHEMA, CONTEXT, ITER, EVENT) */
	snprintf(ev, sizeof(ev), "{\"kind\":\"fork\",%s", strstr(fork_ev, "\"pid\""));
	refused("fork without fork", NULL, ev, NULL,
		(const char *[]){"EVENT block #4 (fork)", "\"fork\" is missing", NULL});
	/* a fork whose start is a string */
	snprintf(ev, sizeof(ev), "%s", fork_ev);
	memcpy(strstr(ev, "\"start_ns\":1000"), "\"start_ns\":\"10\"", 15);
	refused("fork with start_ns a string", NULL, ev, NULL,
		(const char *[]){"(fork)", "\"start_ns\" is a string", NULL});
	/* a fork ended by something unknown */
	snprintf(ev, sizeof(ev), "%s", fork_ev);
	memcpy(strstr(ev, "\"signal\","), "\"signup\",", 9);
	refused("fork ended by an unknown cause", NULL, ev, NULL,
		(const char *[]){"(fork)", "\"ended_by\"", NULL});
	/* stop_decision without compute_ns, with a wrong checkpoint, with a string value */
	snprintf(ev, sizeof(ev), "%.*s}",
		 (int)(strstr(decision_ev, ",\"compute_ns\"") - decision_ev), decision_ev);
	refused("decision without compute_ns", NULL, ev, NULL,
		(const char *[]){"(stop_decision)", "\"compute_ns\" is missing", NULL});
	snprintf(ev, sizeof(ev), "%s", decision_ev);
	memcpy(strstr(ev, "\"fork\",\"fork\""), "\"fake\"", 6);
	refused("decision at an unknown checkpoint", NULL, ev, NULL,
		(const char *[]){"(stop_decision)", "\"checkpoint\"", "\"fake\"", NULL});
	snprintf(ev, sizeof(ev), "%s", decision_ev);
	memcpy(strstr(ev, "null"), "\"no\"", 4);
	refused("decision with a string value", NULL, ev, NULL,
		(const char *[]){"(stop_decision)", "\"values\"", NULL});
	snprintf(ev, sizeof(ev), "%s", decision_ev);
	memcpy(strstr(ev, "\"bound\":true"), "\"bound\":1   ", 12);
	refused("decision with bound an integer", NULL, ev, NULL,
		(const char *[]){"\"bound\" is an integer, expected a boolean", NULL});
	/* a warning without its text */
	refused("warning without text", NULL, "{\"kind\":\"warning\",\"txt\":\"x\"}", NULL,
		(const char *[]){"(warning)", "\"text\" is missing", NULL});
	/* CONTEXT and END: optional keys, but of the schema's type when present */
	refused("ncpus a string", "{\"ncpus\":\"4\"}", NULL, NULL,
		(const char *[]){"CONTEXT block", "\"ncpus\" is a string", NULL});
	refused("command a string", "{\"command\":\"./b --x\"}", NULL, NULL,
		(const char *[]){"CONTEXT block", "\"command\"", NULL});
	refused("stop.warmup of one", "{\"stop\":{\"criterion\":\"cv\",\"warmup\":[5]}}", NULL,
		NULL, (const char *[]){"CONTEXT block", "\"stop.warmup\"", NULL});
	refused("boundaries.kind a number", "{\"boundaries\":{\"kind\":3}}", NULL, NULL,
		(const char *[]){"\"boundaries.kind\" is an integer", NULL});
	refused("steal_accounting a string", "{\"steal_accounting\":\"no\"}", NULL, NULL,
		(const char *[]){"\"steal_accounting\" is a string, expected a boolean", NULL});
	refused("lost counter a string", NULL, NULL, "{\"lost\":{\"iter_lost\":\"x\"}}",
		(const char *[]){"END block", "\"lost.iter_lost\"", NULL});
	refused("status.signaled an integer", NULL, NULL, "{\"status\":{\"signaled\":1}}",
		(const char *[]){"END block", "\"status.signaled\"", NULL});
	refused("END warnings of numbers", NULL, NULL, "{\"warnings\":[1]}",
		(const char *[]){"END block", "\"warnings\"", NULL});
	refused("END stop.compute_ns negative", NULL, NULL, "{\"stop\":{\"compute_ns\":-1}}",
		(const char *[]){"\"stop.compute_ns\"", ">= 0", NULL});
}

/* The JSON-holding entry point (for readers not yet on the typed context). */
static void test_degraded_json(void)
{
	json_object *c = json_tokener_parse("{\"steal_accounting\":true,\"sched_info\":false}");
	json_object *bad = json_tokener_parse("{\"sched_info\":\"false\"}");
	char buf[160];

	CHECK(bs_context_degraded(c, buf, sizeof(buf)) &&
	      !strcmp(buf, "sched_delay_ns reads 0 (kernel without sched_info)"));
	CHECK(bs_context_degraded(bad, buf, sizeof(buf)) == NULL);
	json_object_put(c);
	json_object_put(bad);
}

/* Where the interferer charges come from follows the boundaries: one probe
 * per iteration follows every thread, output lines the writing threads,
 * anything else (and traces before those keys) the open iterations. */
static void test_charge_scope(void)
{
	static const struct {
		const char *ctx;
		enum bs_charge_scope scope;
		const char *name;
	} cases[] = {
	    {"{}", BS_CHARGES_ITERATIONS, "iterations"},
	    {"{\"boundaries\":{\"kind\":\"gbench\",\"probes\":2}}", BS_CHARGES_ITERATIONS,
	     "iterations"},
	    {"{\"boundaries\":{\"kind\":\"go\",\"probes\":1}}", BS_CHARGES_THREADS, "threads"},
	    {"{\"boundaries\":{\"kind\":\"lines\"}}", BS_CHARGES_WRITES, "writes"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_object *j = json_tokener_parse(cases[i].ctx);
		struct bs_run_context c;
		char err[256];

		CHECK_INT_EQ(bs_run_context_decode(j, &c, err, sizeof(err)), 0);
		CHECK_INT_EQ(bs_run_context_charge_scope(&c), cases[i].scope);
		CHECK(!strcmp(bs_charge_scope_name(cases[i].scope), cases[i].name));
		CHECK(strlen(bs_charge_scope_text(cases[i].scope)) > 20);
		bs_run_context_free(&c);
		json_object_put(j);
	}
}

int main(void)
{
	RUN_TEST(test_full_trace);
	RUN_TEST(test_optional_keys);
	RUN_TEST(test_refused);
	RUN_TEST(test_degraded_json);
	RUN_TEST(test_charge_scope);
	fx_cleanup();
	return test_summary("test_run_blocks");
}
