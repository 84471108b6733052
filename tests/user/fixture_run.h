/* SPDX-License-Identifier: MIT */
/*
 * fixture_run.h - a small synthetic run written as a trace, with figures
 * computed by hand in the comments (used by test_render and test_report_cli).
 *
 * pid 100 "bench": durations 1000, 2000, 3000, 4000, 10000 ns, 10
 *   invocations each (100..1000 ns/op), preempted 100 and runq wait 200 each;
 *   plus one warmup iteration of 99999 ns (excluded).
 * pid 200 "bench2": durations 5000 ns x 3, 50 invocations each (100 ns/op).
 * overall (8 iterations): sum 35000, mean 4375, median 4500, min 1000,
 *   max 10000, trimmed mean (35000 - 1000 - 10000) / 6 = 4000.
 * interferers: tid 555 "stress" 3000 (victim 100) + 1000 (victim 200) = 4000
 *   (share 4000 / 35000); tid 556 "kworker/0:1" 500.
 * probe cost 100 ns per iteration = 2.22 % of the median -> warning.
 * END: lost iter_lost 0, proc_lost 1, iter_spilled 2 -> 1 lost; exit 0.
 */
#ifndef BENCHSCOPE_TESTS_FIXTURE_RUN_H
#define BENCHSCOPE_TESTS_FIXTURE_RUN_H

#include "fixture.h"
#include "trace/trace.h"

static const char fx_run_context[] =
    "{\"tool\":\"benchscope\",\"version\":\"0.1\",\"trace_format\":\"1.0\","
    "\"kernel\":\"6.18.0-test\",\"cpu_model\":\"Test CPU @ 3GHz\",\"ncpus\":4,"
    "\"hostname\":\"testhost\",\"clock\":\"CLOCK_MONOTONIC\","
    "\"command\":[\"./bench\",\"--fast\"],"
    "\"boundaries\":{\"kind\":\"uprobe\",\"begin\":\"bench:start\",\"end\":\"bench:stop\"},"
    "\"probe_cost_ns\":{\"begin\":40,\"end\":60,\"per_iteration\":100,\"method\":\"loop\"},"
    "\"started_at\":\"2026-01-01T00:00:00Z\"}";

static const char fx_run_end[] =
    "{\"status\":{\"pid\":100,\"exited\":true,\"exit_code\":0,\"signaled\":false,"
    "\"signal\":0},\"interrupted\":false,\"wall_ns\":2000000,"
    "\"lost\":{\"iter_lost\":0,\"iter_spilled\":2,\"proc_lost\":1},"
    "\"bpf_stats\":[{\"prog\":\"on_switch\",\"run_cnt\":1000,\"run_time_ns\":150000}],"
    "\"warnings\":[\"a warning from run\"]}";

static inline struct bs_iter_rec fx_run_iter(uint32_t pid, uint64_t index, uint64_t begin,
					     uint64_t dur, uint64_t invoc, uint32_t flags)
{
	struct bs_iter_rec r;

	memset(&r, 0, sizeof(r));
	r.type = BS_REC_ITER;
	r.flags = flags | (invoc ? BS_ITER_F_INVOC : 0);
	r.index = index;
	r.pid = pid;
	r.tid = pid;
	r.cpu_begin = 1;
	r.cpu_end = 2;
	r.begin_ns = begin;
	r.end_ns = begin + dur;
	r.invocations = invoc;
	if (pid == 100) {
		r.preempted_ns = 100;
		r.runq_wait_ns = 200;
		r.nivcsw = 1;
	}
	return r;
}

static inline struct bs_interferer_rec fx_run_intf(uint32_t victim, uint32_t tid, uint64_t ns,
						   const char *comm)
{
	struct bs_interferer_rec x;

	memset(&x, 0, sizeof(x));
	x.victim_pid = victim;
	x.interferer_tid = tid;
	x.interferer_pid = tid;
	x.ns = ns;
	snprintf(x.comm, sizeof(x.comm), "%s", comm);
	return x;
}

/** Write the run to @path with the CONTEXT text @ctx. */
static inline int fx_write_run_ctx(const char *path, const char *ctx)
{
	char err[256];
	struct bs_trace_writer *w = bs_trace_create(path, ctx, err, sizeof(err));
	static const uint64_t d100[] = {1000, 2000, 3000, 4000, 10000};
	struct bs_proc_rec p;
	int ret = 0;

	if (!w)
		return -1;
	memset(&p, 0, sizeof(p));
	p.type = BS_REC_PROC;
	p.kind = BS_PROC_EXEC;
	p.pid = 100;
	snprintf(p.comm, sizeof(p.comm), "bench");
	ret |= bs_trace_write_proc(w, &p);
	p.pid = 200;
	snprintf(p.comm, sizeof(p.comm), "bench2");
	ret |= bs_trace_write_proc(w, &p);
	struct bs_iter_rec warm = fx_run_iter(100, 0, 1000, 99999, 10, BS_ITER_F_WARMUP);
	ret |= bs_trace_write_iter(w, &warm);
	for (unsigned i = 0; i < 5; i++) {
		struct bs_iter_rec r = fx_run_iter(100, i + 1, 200000 + i * 20000, d100[i], 10, 0);

		ret |= bs_trace_write_iter(w, &r);
		if (i < 3) {
			struct bs_iter_rec q = fx_run_iter(200, i, 210000 + i * 20000, 5000, 50, 0);

			ret |= bs_trace_write_iter(w, &q);
		}
	}
	struct bs_interferer_rec x1 = fx_run_intf(100, 555, 3000, "stress");
	struct bs_interferer_rec x2 = fx_run_intf(100, 556, 500, "kworker/0:1");
	struct bs_interferer_rec x3 = fx_run_intf(200, 555, 1000, "stress");
	ret |= bs_trace_write_interferer(w, &x1);
	ret |= bs_trace_write_interferer(w, &x2);
	ret |= bs_trace_write_interferer(w, &x3);
	ret |= bs_trace_write_event(w, "{\"kind\":\"warning\",\"text\":\"an event warning\"}");
	ret |= bs_trace_write_end(w, fx_run_end);
	ret |= bs_trace_close(w);
	return ret ? -1 : 0;
}

/** Write the run to @path. */
static inline int fx_write_run(const char *path)
{
	return fx_write_run_ctx(path, fx_run_context);
}

#endif
