// SPDX-License-Identifier: MIT
/* measure.c - probes + trace + collector as one measurement session. */
#include "probe/measure.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "probe/context.h"
#include "probe/lines.h"
#include "trace/trace.h"
#include "util/diag.h"

int bs_measure_check_privileges(char *err, size_t errlen)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	bool bpf, perfmon;

	if (geteuid() == 0)
		return 0;
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d)) {
		snprintf(err, errlen, "cannot read capabilities: %s", strerror(errno));
		return -EPERM;
	}
	bpf = d[CAP_BPF / 32].effective & (1u << (CAP_BPF % 32));
	perfmon = d[CAP_PERFMON / 32].effective & (1u << (CAP_PERFMON % 32));
	if (bpf && perfmon)
		return 0;
	snprintf(err, errlen, "needs root or CAP_BPF+CAP_PERFMON (missing: %s%s%s)",
		 bpf ? "" : "CAP_BPF", !bpf && !perfmon ? ", " : "", perfmon ? "" : "CAP_PERFMON");
	return -EPERM;
}

static int hook_iter(void *ctx, struct bs_iter_rec *r)
{
	struct bs_measure *m = ctx;

	return m->on_iter ? m->on_iter(m->hook_ctx, r) : 0;
}

/* Two sites that fire at the same place (attaching both would double the hits). */
static bool same_site(const struct bs_site *x, const struct bs_site *y)
{
	return x->kind == y->kind && !strcmp(x->path, y->path) &&
	       (x->kind == BS_SITE_USDT
		    ? !strcmp(x->symbol, y->symbol) && !strcmp(x->usdt_name, y->usdt_name)
		    : x->offset == y->offset);
}

static bool bs_boundaries_same(const struct bs_boundaries *x, const struct bs_boundaries *y)
{
	if (x->mode != y->mode)
		return false;
	if (x->mode == BS_BOUND_PROCESS)
		return true;
	return same_site(&x->begin, &y->begin) && same_site(&x->end, &y->end);
}

static void hook_proc(void *ctx, const struct bs_proc_rec *r)
{
	struct bs_measure *m = ctx;

	if (m->on_proc)
		m->on_proc(m->hook_ctx, r);
}

/* Output-line boundaries: what the matcher makes goes to the trace. */
static int lines_iter(void *ctx, struct bs_iter_rec *r)
{
	struct bs_measure *m = ctx;

	return bs_collector_put_iter(&m->col, r);
}

static int lines_bench(void *ctx, const struct bs_bench_rec *r)
{
	struct bs_measure *m = ctx;

	m->col.benches++;
	if (bs_trace_write_bench(m->tw, r)) {
		m->col.write_errors++;
		return -EIO;
	}
	return 0;
}

static int lines_event(void *ctx, json_object *ev)
{
	return bs_measure_event(ctx, ev);
}

/* The context block: the common fields plus the command's own members. */
static char *context_text(const struct bs_measure_opts *o, const struct bs_probe_cost *cost)
{
	char *base = bs_context_json(o->cmd, o->b, cost, o->user), *out;
	/* A's boundaries keep charges per iteration, B's do not: the duet keeps
	 * none (bs_probes_opts.untagged_charges), so its context says none */
	bool drop = bs_boundaries_charges_by_iteration(o->b) &&
		    !bs_boundaries_pair_charges_by_iteration(o->b, o->b2);
	json_object *ctx, *bj;

	if (!base || (!o->context_extra && !drop))
		return base;
	ctx = json_tokener_parse(base);
	free(base);
	if (!ctx)
		return NULL;
	if (drop && json_object_object_get_ex(ctx, "boundaries", &bj))
		json_object_object_del(bj, "charges");
	if (o->context_extra) {
		json_object_object_foreach(o->context_extra, key, val)
		    json_object_object_add(ctx, key, json_object_get(val));
	}
	out = strdup(json_object_to_json_string_ext(ctx, JSON_C_TO_STRING_PLAIN));
	json_object_put(ctx);
	return out;
}

int bs_measure_write_empty(const struct bs_measure_opts *o, json_object *end, char *err,
			   size_t errlen)
{
	char *ctx = context_text(o, NULL);
	struct bs_trace_writer *tw;
	int rc = 0;

	if (!ctx) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	tw = bs_trace_create(o->trace_path, ctx, err, errlen);
	free(ctx);
	if (!tw)
		return -EINVAL;
	if (bs_trace_write_end(tw, end ? json_object_to_json_string_ext(end, JSON_C_TO_STRING_PLAIN)
				       : "{}"))
		rc = -EIO;
	if (bs_trace_close(tw))
		rc = -EIO;
	if (rc)
		snprintf(err, errlen, "cannot write %s", o->trace_path);
	return rc;
}

int bs_measure_open(struct bs_measure *m, const struct bs_measure_opts *o, char *err, size_t errlen)
{
	struct bs_probes_opts popts = {0};
	char *ctx;
	int rc;

	memset(m, 0, sizeof(*m));
	m->warnings = json_object_new_array();
	if (!m->warnings)
		return -ENOMEM;
	rc = bs_measure_check_privileges(err, errlen);
	if (rc) {
		m->usage_error = true;
		return rc;
	}
	popts.ringbuf_bytes = o->ringbuf_bytes;
	popts.interferers = o->interferers;
	popts.verbose = o->verbose;
	popts.untagged_charges = !bs_boundaries_pair_charges_by_iteration(o->b, o->b2);
	if (o->b2 && (o->b2->mode == BS_BOUND_PROCESS) != (o->b->mode == BS_BOUND_PROCESS)) {
		snprintf(err, errlen, "the process preset cannot be mixed with other boundaries");
		m->usage_error = true;
		return -EINVAL;
	}
	if (o->b2 && o->b->mode == BS_BOUND_GBENCH && o->b2->mode == BS_BOUND_GBENCH &&
	    memcmp(&o->b->layout, &o->b2->layout, sizeof(o->b->layout))) {
		snprintf(err, errlen,
			 "the two gbench boundaries need the same libbenchmark layout");
		m->usage_error = true;
		return -EINVAL;
	}
	if (o->b2 && (o->b2->mode == BS_BOUND_GO) != (o->b->mode == BS_BOUND_GO)) {
		snprintf(err, errlen, "the go preset cannot be mixed with other boundaries");
		m->usage_error = true;
		return -EINVAL;
	}
	if (o->b2 && o->b->mode == BS_BOUND_GO && o->b2->mode == BS_BOUND_GO &&
	    (o->b->go_layout.off_name != o->b2->go_layout.off_name ||
	     o->b->go_layout.off_n != o->b2->go_layout.off_n ||
	     o->b->go_layout.off_has_sub != o->b2->go_layout.off_has_sub ||
	     o->b->go_layout.off_timer_on != o->b2->go_layout.off_timer_on ||
	     o->b->go_layout.str_ptr != o->b2->go_layout.str_ptr ||
	     o->b->go_layout.str_len != o->b2->go_layout.str_len ||
	     o->b->go_layout.tls_g != o->b2->go_layout.tls_g)) {
		snprintf(err, errlen,
			 "the two Go test binaries need the same testing.B layout (%s, %s)",
			 o->b->go_layout.go_version, o->b2->go_layout.go_version);
		m->usage_error = true;
		return -EINVAL;
	}
	/* the gbench layout configures the (one) BPF object; go: both sides */
	rc = bs_probes_load(
	    &m->probes,
	    o->b2 && o->b2->mode == BS_BOUND_GBENCH && o->b->mode != BS_BOUND_GBENCH ? o->b2 : o->b,
	    &popts, err, errlen);
	if (rc)
		return rc;
	if (o->calibrate) {
		if (bs_calibrate(&m->probes, o->b, o->calib_calls > 0 ? o->calib_calls : 2000, 5,
				 &m->cost))
			bs_diag("warning: could not measure the probe cost");
		else
			m->have_cost = true;
	}
	rc = bs_probes_attach_boundaries(&m->probes, o->b, err, errlen);
	if (rc)
		return rc;
	if (o->b2 && !bs_boundaries_same(o->b, o->b2)) {
		rc = bs_probes_attach_boundaries(&m->probes, o->b2, err, errlen);
		if (rc)
			return rc;
	}
	ctx = context_text(o, m->have_cost ? &m->cost : NULL);
	if (!ctx) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	m->tw = bs_trace_create(o->trace_path, ctx, err, errlen);
	free(ctx);
	if (!m->tw) {
		m->usage_error = true;
		return -EINVAL;
	}
	rc = bs_collector_init(&m->col, bs_probes_ringbuf_fd(&m->probes), m->tw, -1);
	if (rc) {
		snprintf(err, errlen, "cannot read the ring buffer: %s", strerror(-rc));
		return rc;
	}
	m->col.interferers.by_iteration = bs_probes_charges_by_iteration(&m->probes);
	m->col.on_iter = hook_iter;
	m->col.on_proc = hook_proc;
	m->col.hook_ctx = m;
	m->col_ready = true;
	if (o->b->mode == BS_BOUND_LINES) {
		struct bs_lines_out lo = {
		    .ctx = m, .iter = lines_iter, .bench = lines_bench, .event = lines_event};

		m->lines = bs_lines_new(o->b->lines, &lo);
		if (!m->lines) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		m->col.lines = m->lines;
	}
	return 0;
}

void bs_measure_set_hooks(struct bs_measure *m, int (*on_iter)(void *ctx, struct bs_iter_rec *r),
			  void (*on_proc)(void *ctx, const struct bs_proc_rec *r), void *ctx)
{
	m->on_iter = on_iter;
	m->on_proc = on_proc;
	m->hook_ctx = ctx;
}

int bs_measure_follow_side(struct bs_measure *m, pid_t pid, int side)
{
	int rc = bs_probes_track_side(&m->probes, pid, side);

	if (rc == 0 && m->col.root <= 0)
		m->col.root = pid;
	return rc;
}

int bs_measure_follow(struct bs_measure *m, pid_t pid)
{
	int rc = bs_probes_track(&m->probes, pid);

	if (rc == 0 && m->col.root <= 0)
		m->col.root = pid;
	return rc;
}

int bs_measure_poll(struct bs_measure *m, int timeout_ms)
{
	struct bs_counters k;
	int n = bs_collector_poll(&m->col, timeout_ms);

	/* keep the spill map from filling up while the harness runs */
	if (n >= 0 && bs_probes_counters(&m->probes, &k) == 0 && k.iter_spilled)
		bs_collector_drain(&m->col, &m->probes);
	return n;
}

int bs_measure_event(struct bs_measure *m, json_object *ev)
{
	if (!m->tw)
		return -EBADF;
	return bs_trace_write_event(m->tw,
				    json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN))
		   ? -EIO
		   : 0;
}

void bs_measure_say_warnings(const struct bs_measure *m, const char *cmd)
{
	for (size_t i = 0; m->warnings && i < json_object_array_length(m->warnings); i++)
		fprintf(stderr, "benchscope %s: warning: %s\n", cmd,
			json_object_get_string(json_object_array_get_idx(m->warnings, i)));
}

void bs_measure_warn(struct bs_measure *m, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_object_array_add(m->warnings, json_object_new_string(buf));
}

uint64_t bs_measure_iters(const struct bs_measure *m)
{
	return m->col.iters;
}

static int store_interferer(void *ctx, const struct bs_interferer_rec *r)
{
	return bs_trace_write_interferer(ctx, r) ? -EIO : 0;
}

static void add_counter(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

int bs_measure_finish(struct bs_measure *m, json_object *end)
{
	json_object *lost = json_object_new_object(), *att = json_object_new_array(), *bs;
	const struct bs_counters *k = &m->k;
	uint64_t misses, unrec_iters = 0, bench_lost;
	char *stats;
	size_t i;
	int rc, ret;

	if (!m->tw) {
		json_object_put(end);
		return -EBADF;
	}
	/* one snapshot: nothing runs (and adds a run or a charge) between the
	 * reads below */
	bs_probes_detach(&m->probes);
	if (m->col_ready && (ret = bs_collector_drain(&m->col, &m->probes)) < 0)
		bs_measure_warn(
		    m,
		    "the records spilled by the kernel could not all be read (%s): those "
		    "left are not in the trace (END lost.iter_spilled counts every spill)",
		    strerror(-ret));
	memset(&m->k, 0, sizeof(m->k));
	if ((ret = bs_probes_counters(&m->probes, &m->k)))
		bs_measure_warn(m,
				"the loss counters could not be read (%s): their zeros do not mean "
				"that nothing was lost",
				strerror(-ret));
	misses = bs_probes_recursion_misses(&m->probes);
	if (m->lines) {
		struct bs_lines_stats st;

		bs_lines_finish(m->lines, m->warnings, &st);
		json_object_object_add(end, "lines", bs_lines_stats_json(&st));
		if (k->line_lost)
			bs_measure_warn(
			    m,
			    "%llu writes to stdout/stderr were lost (ring buffer full): "
			    "lines may be missing; use --ringbuf-size",
			    (unsigned long long)k->line_lost);
	}
	if (m->col_ready) {
		bs_probes_take_pending(&m->probes, &m->col.interferers);
		if (bs_interferer_table_walk(&m->col.interferers, store_interferer, m->tw) < 0)
			bs_measure_warn(m, "the interferers could not all be written to the trace");
		add_counter(end, "interferers_unrecorded_ns",
			    bs_interferer_table_unrecorded(&m->col.interferers, &unrec_iters));
		add_counter(end, "interferers_unrecorded_iterations", unrec_iters);
		if (m->col.interferers.dropped)
			bs_measure_warn(m, "%llu interferer charges were dropped (out of memory)",
					(unsigned long long)m->col.interferers.dropped);
	}
	if (k->iter_lost)
		bs_measure_warn(m,
				"%llu iteration records were lost (ring buffer and spill map "
				"full): use --ringbuf-size",
				(unsigned long long)k->iter_lost);
	if (k->interferer_lost)
		bs_measure_warn(m,
				"%llu interferer charges were lost (ring buffer full): the "
				"interferers' times are undercounts; use --ringbuf-size",
				(unsigned long long)k->interferer_lost);
	if (k->end_without_begin)
		bs_measure_warn(m,
				"%llu end probes hit without an open iteration: are --begin and "
				"--end the right way round?",
				(unsigned long long)k->end_without_begin);
	if (k->foreign_hits)
		bs_measure_warn(m,
				"%llu probe hits came from other processes running the probed "
				"binary: each paid the trap, none was recorded; the BPF run "
				"counts include them",
				(unsigned long long)k->foreign_hits);
	if (misses)
		bs_measure_warn(m,
				"the kernel skipped %llu runs of benchscope's BPF programs "
				"(recursion): those events are missing from the accounting",
				(unsigned long long)misses);
	if (k->switches_unseen)
		bs_measure_warn(m,
				"%llu context switches of measured threads were not seen by the "
				"scheduler handler: the iterations flagged unseen_switch miss "
				"their off-CPU time",
				(unsigned long long)k->switches_unseen);
	if (k->thread_map_full)
		bs_measure_warn(m,
				"the thread map was full %llu times (more than 16384 threads of "
				"measured processes at once, or Go's or one-probe mode's own maps "
				"full): iterations of the threads it could not take were not "
				"recorded",
				(unsigned long long)k->thread_map_full);
	if (k->proc_map_full)
		bs_measure_warn(m,
				"%llu processes forked by measured ones were not measured, nor "
				"their descendants: the process map was full (4096 at once)",
				(unsigned long long)k->proc_map_full);
	if (k->barrier_lost)
		bs_measure_warn(m,
				"%llu barrier records were lost (ring buffer full): the release "
				"skews of those meetings are missing",
				(unsigned long long)k->barrier_lost);
	/* names the probe could not send, and those user space could not read
	 * (the drain above may have read some) */
	bench_lost = k->bench_lost + m->col.bench_lost;
	if (bench_lost)
		bs_measure_warn(m,
				"%llu benchmark-name records were lost: the iterations after them "
				"keep the benchmark named before",
				(unsigned long long)bench_lost);
	add_counter(lost, "iter_lost", k->iter_lost);
	add_counter(lost, "iter_spilled", k->iter_spilled);
	add_counter(lost, "proc_lost", k->proc_lost);
	add_counter(lost, "thread_map_full", k->thread_map_full);
	add_counter(lost, "end_without_begin", k->end_without_begin);
	add_counter(lost, "interferer_lost", k->interferer_lost);
	if (k->barrier_lost)
		add_counter(lost, "barrier_lost", k->barrier_lost);
	if (bench_lost)
		add_counter(lost, "bench_lost", bench_lost);
	if (k->line_lost)
		add_counter(lost, "line_lost", k->line_lost);
	if (k->proc_map_full)
		add_counter(lost, "proc_map_full", k->proc_map_full);
	if (k->switches_unseen)
		add_counter(lost, "switches_unseen", k->switches_unseen);
	if (misses)
		add_counter(lost, "bpf_recursion_misses", misses);
	add_counter(lost, "ringbuf_lost_user", m->col.write_errors + m->col.unknown);
	json_object_object_add(end, "lost", lost);
	add_counter(end, "iterations_received", m->col.iters);
	if (m->col.bench_read_late)
		add_counter(end, "bench_names_read_by_user", m->col.bench_read_late);
	add_counter(end, "foreign_hits", k->foreign_hits);
	add_counter(end, "iterations_emitted", k->iter_emitted + k->iter_spilled);
	stats = bs_probes_stats_json(&m->probes);
	bs = stats ? json_tokener_parse(stats) : NULL;
	free(stats);
	json_object_object_add(end, "bpf_stats", bs ? bs : json_object_new_array());
	for (i = 0; i < m->probes.n_attached; i++)
		json_object_array_add(att, json_object_new_string(m->probes.attached[i]));
	json_object_object_add(end, "attached", att);
	json_object_object_add(end, "warnings", json_object_get(m->warnings));
	rc = bs_trace_write_end(m->tw, json_object_to_json_string_ext(end, JSON_C_TO_STRING_PLAIN));
	json_object_put(end);
	/* the first error met, which a full disk makes sticky */
	if (bs_trace_error(m->tw))
		rc = bs_trace_error(m->tw);
	ret = bs_trace_close(m->tw);
	if (!rc)
		rc = ret;
	m->tw = NULL;
	return rc;
}

bool bs_measure_trace_incomplete(const struct bs_measure *m, const char *cmd, const char *path,
				 int err)
{
	long long kept, end;

	if (!err)
		return false;
	kept = bs_trace_count_blocks(path, BS_BLK_ITER);
	end = bs_trace_count_blocks(path, BS_BLK_END);
	if (kept < 0)
		fprintf(stderr,
			"benchscope %s: the trace %s could not be written (%s) and cannot be "
			"read back (%s): the %llu iterations received are lost\n",
			cmd, path, strerror(-err), strerror((int)-kept),
			(unsigned long long)m->col.iters);
	else
		fprintf(stderr,
			"benchscope %s: the trace %s could not be written in full (%s): it holds "
			"%lld of the %llu iterations received%s\n",
			cmd, path, strerror(-err), kept, (unsigned long long)m->col.iters,
			end > 0 ? "" : ", and no END block (no loss counters, no warnings)");
	return true;
}

void bs_measure_destroy(struct bs_measure *m)
{
	if (!m)
		return;
	if (m->col_ready)
		bs_collector_free(&m->col);
	m->col_ready = false;
	bs_trace_close(m->tw);
	m->tw = NULL;
	bs_probes_destroy(&m->probes);
	bs_lines_free(m->lines);
	m->lines = NULL;
	json_object_put(m->warnings);
	m->warnings = NULL;
}
