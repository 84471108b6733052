// SPDX-License-Identifier: MIT
/* waste/output.c - summary, trace end and outputs of a run; --from-trace (see waste/output.h). */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "trace/trace.h"
#include "waste.skel.h"
#include "waste/class.h"
#include "waste/events.h"
#include "util/exit_status.h"
#include "util/output.h"
#include "waste/output.h"
#include "waste/overhead.h"
#include "waste/report.h"

static json_object *cmd_json(char **cmd, pid_t pid)
{
	char buf[4096];
	size_t len = 0;

	buf[0] = 0;
	if (!cmd) {
		snprintf(buf, sizeof(buf), "-p %d", (int)pid);
		return json_object_new_string(buf);
	}
	for (; *cmd && len < sizeof(buf) - 1; cmd++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? " " : "", *cmd);
	return json_object_new_string(buf);
}

/* The period over time (trace/waste_blocks.h, struct bs_waste_period_step). */
static json_object *periods_json(const struct bs_waste_run *w)
{
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < w->nsteps; i++) {
		json_object *s = json_object_new_object();

		json_object_object_add(s, "t_ns", json_object_new_uint64(w->steps[i].t_ns));
		json_object_object_add(s, "period", json_object_new_uint64(w->steps[i].period));
		json_object_object_add(s, "window_pct",
				       isnan(w->steps[i].window_pct)
					   ? NULL
					   : json_object_new_double(w->steps[i].window_pct));
		json_object_array_add(a, s);
	}
	return a;
}

/* Open @path (a file, or stdout for "-") and run @put on it; 0, or 1 after one error line. */
static int write_one(const char *path,
		     void (*put)(FILE *f, const struct bs_waste_result *res, json_object *j),
		     const struct bs_waste_result *res, json_object *j)
{
	char err[512];
	FILE *f = bs_output_open(path, err, sizeof(err));

	if (!f) {
		fprintf(stderr, "benchscope waste: %s\n", err);
		return 1;
	}
	put(f, res, j);
	if (bs_output_close(f)) {
		fprintf(stderr, "benchscope waste: cannot write %s\n", bs_output_name(path));
		return 1;
	}
	return 0;
}

static void put_folded(FILE *f, const struct bs_waste_result *res, json_object *j)
{
	(void)j;
	bs_waste_print_folded(f, res);
}

static void put_json(FILE *f, const struct bs_waste_result *res, json_object *j)
{
	(void)res;
	fprintf(f, "%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY));
}

static int write_outputs(struct bs_waste_args *a, struct bs_waste_result *res)
{
	int rc = 0;

	bs_waste_agg_sort(&res->agg);
	/* an export to stdout ('-') is all stdout carries */
	if (!bs_output_is_stdout(a->folded) && !bs_output_is_stdout(a->json)) {
		char err[128];

		bs_waste_print(stdout, res, a->top, a->depth);
		if (bs_output_flush_stdout(err, sizeof(err))) {
			fprintf(stderr, "benchscope waste: %s\n", err);
			rc = 1;
		}
	}
	if (a->folded)
		rc |= write_one(a->folded, put_folded, res, NULL);
	if (a->json) {
		json_object *j = bs_waste_json(res, -1);

		rc |= write_one(a->json, put_json, res, j);
		json_object_put(j);
	}
	return rc;
}

int bs_waste_from_trace(struct bs_waste_args *a)
{
	struct bs_waste_result res;
	char err[512];
	int rc;

	rc = bs_waste_load_trace(a->from_trace, &res, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "benchscope waste: %s\n", err);
		return bs_exit_of_errno(rc);
	}
	/* the run's own --top and --depth, so that the table is the run's */
	if (!a->top_set && res.sum.top >= 0)
		a->top = (int)res.sum.top;
	if (!a->depth_set && res.sum.depth > 0)
		a->depth = (int)res.sum.depth;
	rc = write_outputs(a, &res);
	bs_waste_result_free(&res);
	return rc;
}

/* one warning on stderr when records were lost or tasks went unprofiled
 * (the report's "threads" and "unfollowed" lines give the same figures) */
static void warn_unprofiled(const struct bs_waste_summary *s)
{
	if (!s->lost && !s->threads_unfollowed && !s->processes_unfollowed)
		return;
	fprintf(stderr,
		"benchscope waste: warning: %" PRIu64 " records lost (ring buffer full), %" PRIu64
		" new threads and %" PRIu64 " forked processes not profiled\n",
		s->lost, s->threads_unfollowed, s->processes_unfollowed);
}

int bs_waste_report(struct bs_waste_run *w, const volatile sig_atomic_t *interrupted,
		    const volatile sig_atomic_t *stray_traps)
{
	struct bs_waste_args *a = w->a;
	json_object *sum, *ov;
	char err[256];
	int i, terr;

	sum = json_object_new_object();
	json_object_object_add(sum, "command", cmd_json(a->cmd, a->pid));
	json_object_object_add(sum, "source", json_object_new_string(bs_waste_source_name(w->src)));
	/* in ns for the timer source only; null (not NaN, which is not JSON) for
	 * a PMU source, whose period counts events or ops */
	json_object_object_add(sum, "period_ns",
			       w->src == BS_SRC_TIMER ? json_object_new_double((double)w->period0)
						      : NULL);
	json_object_object_add(sum, "final_period_ns",
			       w->src == BS_SRC_TIMER ? json_object_new_double((double)w->period)
						      : NULL);
	json_object_object_add(sum, "period", json_object_new_uint64(w->period0));
	json_object_object_add(sum, "final_period", json_object_new_uint64(w->period));
	{
		char ks[64] = "";

		for (i = 0; i < BS_WK_N; i++)
			if (a->kinds & (1u << i))
				snprintf(ks + strlen(ks), sizeof(ks) - strlen(ks), "%s%s",
					 ks[0] ? "," : "", bs_waste_kind_name(i));
		json_object_object_add(sum, "kinds", json_object_new_string(ks));
	}
	json_object_object_add(sum, "debug_registers", json_object_new_int(a->regs));
	json_object_object_add(sum, "freeze", json_object_new_boolean(a->freeze));
	json_object_object_add(sum, "fp_tolerance", json_object_new_double(a->fp_tol));
	json_object_object_add(sum, "top", json_object_new_int(a->top));
	json_object_object_add(sum, "depth", json_object_new_int(a->depth));
#define C(name) json_object_object_add(sum, #name, json_object_new_uint64(w->c.name))
	C(samples);
	C(samples_access);
	C(armed);
	C(reservoir_drops);
	C(unreadable);
	C(arm_errors);
	C(hits);
	C(resolved_hits);
	C(unresolved);
	C(noself);
	C(stale_hits);
	C(undecoded);
	C(threads);
	C(processes);
	C(unstuck);
	C(stops_late);
	C(gone_early);
	C(threads_unfollowed);
	C(sigtraps_program);
	C(sigtraps_self);
#undef C
	if (w->c.sigtraps_program) {
		char why[320];

		bs_waste_trap_describe(&w->first_trap, why, sizeof(why));
		json_object_object_add(sum, "first_sigtrap", json_object_new_string(why));
	}
	json_object_object_add(sum, "kernel_samples",
			       json_object_new_uint64(w->skel->bss->n_kernel_samples));
	json_object_object_add(sum, "busy_skips",
			       json_object_new_uint64(w->skel->bss->n_busy_skips));
	json_object_object_add(sum, "extra_traps", json_object_new_uint64(w->skel->bss->n_extra));
	json_object_object_add(sum, "lost", json_object_new_uint64(w->skel->bss->n_lost));
	json_object_object_add(sum, "processes_unfollowed",
			       json_object_new_uint64(w->skel->bss->n_unfollowed_procs));
	json_object_object_add(sum, "exit_code", json_object_new_int(w->exit_code));
	json_object_object_add(sum, "stray_traps", json_object_new_int(*stray_traps));
	ov = json_object_new_object();
	{
		double traps =
		    (double)(w->skel->bss->n_hits + w->skel->bss->n_self + w->skel->bss->n_extra);
		double est = bs_waste_estimated_pct(w);
		struct rusage self;

		json_object_object_add(ov, "run_ns", json_object_new_double(w->run_ns));
		json_object_object_add(ov, "baseline_ns",
				       isnan(w->base_ns) ? NULL
							 : json_object_new_double(w->base_ns));
		json_object_object_add(
		    ov, "ratio",
		    isnan(w->base_ns) ? NULL : json_object_new_double(w->run_ns / w->base_ns));
		json_object_object_add(ov, "trap_ns", json_object_new_double(w->trap_ns));
		json_object_object_add(ov, "sample_ns", json_object_new_double(w->freeze_ns));
		json_object_object_add(
		    ov, "handling_ns",
		    json_object_new_double(w->c.stops ? (double)w->c.stop_ns / (double)w->c.stops
						      : 0));
		json_object_object_add(ov, "traps", json_object_new_double(traps));
		json_object_object_add(ov, "budget_pct", json_object_new_double(a->overhead_pct));
		json_object_object_add(ov, "estimated_pct", json_object_new_double(est));
		json_object_object_add(ov, "trap_cost_ns",
				       json_object_new_double(w->cost.trap_sum_ns));
		json_object_object_add(ov, "stop_cost_ns",
				       json_object_new_double(w->cost.stop_sum_ns));
		json_object_object_add(ov, "program_cpu_ns",
				       json_object_new_double(bs_waste_program_cpu_ns(w)));
		json_object_object_add(ov, "periods", periods_json(w));
		json_object_object_add(ov, "periods_dropped",
				       json_object_new_uint64(w->steps_dropped));
		json_object_object_add(ov, "maxrss_kib", json_object_new_int64(w->maxrss));
		json_object_object_add(ov, "baseline_maxrss_kib",
				       json_object_new_int64(w->base_rss));
		getrusage(RUSAGE_SELF, &self);
		json_object_object_add(ov, "tool_maxrss_kib",
				       json_object_new_int64(self.ru_maxrss));
	}
	json_object_object_add(sum, "overhead", ov);
	bs_waste_trace_summary(w->tw, sum);
	{
		json_object *end = json_object_new_object();

		json_object_object_add(end, "exit_code", json_object_new_int(w->exit_code));
		json_object_object_add(end, "interrupted", json_object_new_boolean(*interrupted));
		bs_trace_write_end(w->tw, json_object_to_json_string(end));
		json_object_put(end);
	}
	/* the first error met (sticky: a full disk fails every later write) */
	terr = bs_trace_error(w->tw);
	i = bs_trace_close(w->tw);
	if (!terr)
		terr = i;
	w->tw = NULL;
	i = bs_waste_summary_decode(sum, &w->res.sum, err, sizeof(err));
	json_object_put(sum);
	if (i) {
		fprintf(stderr, "benchscope waste: %s\n", err);
		return 1;
	}
	i = write_outputs(a, &w->res);
	warn_unprofiled(&w->res.sum);
	if (terr && a->trace) {
		fprintf(stderr,
			"benchscope waste: the trace %s could not be written in full (%s): the "
			"report is complete, the trace is not\n",
			a->trace, strerror(-terr));
		return 1;
	}
	return i;
}
