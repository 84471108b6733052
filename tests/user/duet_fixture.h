/* SPDX-License-Identifier: MIT */
/*
 * duet_fixture.h - synthetic duet traces with known truth for the duet
 * tests: per run, A's and B's iteration durations are a base that varies
 * between iterations times (1 + slow_b) for B and a small independent
 * noise; async runs start both sides together and run them back to back,
 * sync runs start every iteration of both sides together, seq runs run A
 * then B. Optional: a failed run, an asymmetric-interference run (A waits
 * on the run queue 20 % of its time, B not; interferer records of the other
 * side and of a third party), Google Benchmark style iterations.
 */
#ifndef BENCHSCOPE_TESTS_DUET_FIXTURE_H
#define BENCHSCOPE_TESTS_DUET_FIXTURE_H

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "benchscope/stats_duet.h"
#include "duet/data.h"
#include "trace/trace.h"

#define DF_MAX_RUNS  32
#define DF_MAX_ITERS 64

struct df_spec {
	int runs_per_method;
	bool methods[BS_DM_N];
	int iters;		 /* per side and run */
	double slow_b;		 /* B's extra time, 0.10 = 10 % */
	double noise;		 /* relative sd of each iteration's own noise */
	bool failed_run;	 /* add one failed async run (with iterations) */
	bool asym_run;		 /* the first async run: A suffers 20 % run-queue wait */
	bool gbench;		 /* invocation counts, with calibration runs */
	bool named;		 /* with gbench: two benchmarks named by the harness (BENCH
				    records), run in opposite orders: A runs "BM_First"
				    (1000 invocations, ~1 us each) then "BM_Second" (2000,
				    ~1.5 us each), B the other way round; each starts with
				    calibration runs of 10 and 100 (not for seq); no common
				    variation between iterations */
	int cpu_place;		 /* 0: both sides on CPU 0; 1: A on CPU 0, B on CPU 1;
				    2: crossover, A on CPU k % 2 in run k, B on the other */
	double cpu1_slow;	 /* durations on CPU 1 multiplied by it (hidden host
				    contention, nothing accounted); 0: not slowed */
	unsigned cpu1_slow_runs; /* with cpu1_slow: the runs k (of each method,
				    bit k) in which CPU 1 is slowed; 0: all */
	double run_sd;		 /* each side's durations of a run multiplied by
				    exp(run_sd N(0, 1)), drawn per run and side (what
				    comes with a process: its memory layout); 0: none */
	bool aa;
	uint64_t unrecorded_ns; /* END's interferers_unrecorded_ns, charged in 2
				   iterations without a record; 0: absent */
	double seq_slow_b;	/* B's extra time in seq runs instead of slow_b,
				   when not 0 */
	int zero_a_iters;	/* the first N iterations of A in each run last
				   0 ns */
	const char *end_extra;	/* more END members, JSON text after a comma
				   ("\"lost\": {...}"); NULL: none */
	const char *duet_extra; /* more CONTEXT duet members, JSON text after a
				   comma ("\"seed\": 7"); NULL: none */
	uint64_t seed;
};

/* what was written: timestamps per run and side, in run order */
struct df_truth {
	int n_runs;
	enum bs_dmethod method[DF_MAX_RUNS];
	struct bs_iter it[DF_MAX_RUNS][2][DF_MAX_ITERS];
	int n[DF_MAX_RUNS][2];
	uint32_t pid[DF_MAX_RUNS][2];
	int failed_run;	   /* run number of the failed run, or -1 */
	int asym_run;	   /* run number of the asymmetric run, or -1 */
	uint64_t other_ns; /* interferer ns charged to A by B's process in asym_run */
	uint64_t third_ns; /* interferer ns charged to A by a third party in asym_run */
	uint64_t own_ns;   /* interferer ns charged to A by another thread of A in asym_run */
};

/* xorshift64* uniform in [0, 1) and a rough normal from 12 uniforms */
static inline double df_unif(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static inline double df_norm(uint64_t *s)
{
	double x = -6;

	for (int i = 0; i < 12; i++)
		x += df_unif(s);
	return x;
}

static inline int df_write(const char *path, const struct df_spec *sp, struct df_truth *t)
{
	char ctx[1536], ev[2048], err[256];
	uint64_t rs = sp->seed ? sp->seed : 1;
	struct bs_trace_writer *w;
	int64_t clock = 1000000000;
	int run = 0;

	memset(t, 0, sizeof(*t));
	t->failed_run = t->asym_run = -1;
	snprintf(
	    ctx, sizeof(ctx),
	    "{\"tool\": \"benchscope\", \"mode\": \"duet\", \"duet\": {\"source\": \"benchscope\", "
	    "\"benchmark\": \"synth\", \"aa\": %s, \"methods\": [\"async\", \"sync\", \"seq\"], "
	    "\"runs_per_method\": %d, \"min_overlap\": 0.4%s%s}, \"boundaries\": {\"kind\": "
	    "\"pair\", \"probes\": 2, \"probes_choice\": \"auto\"}}",
	    sp->aa ? "true" : "false", sp->runs_per_method, sp->duet_extra ? ", " : "",
	    sp->duet_extra ? sp->duet_extra : "");
	w = bs_trace_create(path, ctx, err, sizeof(err));
	if (!w)
		return -1;
	for (int k = 0; k < sp->runs_per_method + (sp->failed_run ? 1 : 0); k++)
		for (int m = BS_DM_ASYNC; m >= 0; m--) {
			bool failed = k == sp->runs_per_method;
			bool asym = sp->asym_run && m == BS_DM_ASYNC && k == 0;
			int cpu[2] = {sp->cpu_place == 2 ? k % 2 : 0,
				      sp->cpu_place == 2 ? 1 - k % 2 : sp->cpu_place == 1};
			int64_t side_t[2], start = clock;
			double run_f[2] = {1, 1};
			double cpu1_f = sp->cpu1_slow > 0 && (!sp->cpu1_slow_runs ||
							      (sp->cpu1_slow_runs >> k & 1))
					    ? sp->cpu1_slow
					    : 1;
			int n = sp->iters;

			if (!sp->methods[m] || (failed && m != BS_DM_ASYNC) || run >= DF_MAX_RUNS)
				continue;
			t->method[run] = (enum bs_dmethod)m;
			t->pid[run][0] = 5000 + 10 * (uint32_t)run;
			t->pid[run][1] = 5001 + 10 * (uint32_t)run;
			side_t[0] = side_t[1] = clock;
			if (failed) {
				t->failed_run = run;
				n = 3;
			}
			if (asym)
				t->asym_run = run;
			for (int s = 0; s < 2 && sp->run_sd > 0; s++)
				run_f[s] = exp(sp->run_sd * df_norm(&rs));
			for (int j = 0; j < n; j++) {
				double base = 1e6 * (1 + 0.2 * (df_unif(&rs) - 0.5));
				int64_t d[2];

				if (sp->named) /* the sides run a benchmark at different times */
					base = 1e6;
				uint64_t inv = 0;

				d[0] = (int64_t)(base * (1 + sp->noise * df_norm(&rs)));
				d[1] = (int64_t)(base * (1 + sp->slow_b) *
						 (1 + sp->noise * df_norm(&rs)));
				for (int s = 0; s < 2; s++)
					if (cpu[s] == 1)
						d[s] = (int64_t)((double)d[s] * cpu1_f);
				for (int s = 0; s < 2; s++)
					d[s] = (int64_t)((double)d[s] * run_f[s]);
				if (sp->gbench) {
					/* per invocation: ~1 µs, B slower; calibration 10, 100
					 * first */
					inv = j == 0 ? 10 : j == 1 ? 100 : 1000;
				}
				int half = j >= n / 2; /* named: the second benchmark run */
				if (sp->gbench && sp->named) {
					int jj = j % (n / 2);

					inv = jj == 0 ? 10 : jj == 1 ? 100 : 0;
				}
				if (m == BS_DM_SYNC)
					side_t[0] = side_t[1] =
					    side_t[0] > side_t[1] ? side_t[0] : side_t[1];
				for (int s = 0; s < 2; s++) {
					struct bs_iter_rec r;
					int second = sp->named && half != s; /* runs BM_Second */
					uint64_t inv_s = inv ? inv : second ? 2000 : 1000;
					int64_t dd =
					    sp->gbench ? d[s] * (int64_t)inv_s / 1000 : d[s];

					if (m == BS_DM_SEQ && s == 1)
						continue;
					if (second)
						dd += dd / 2;
					if (s == 0 && j < sp->zero_a_iters)
						dd = 0;
					if (sp->named && j % (n / 2) == 0) {
						struct bs_bench_rec b;

						memset(&b, 0, sizeof(b));
						b.type = BS_REC_BENCH;
						b.pid = b.tid = t->pid[run][s];
						b.ts_ns = (uint64_t)side_t[s];
						snprintf(b.name, sizeof(b.name), "%s",
							 second ? "BM_Second" : "BM_First");
						bs_trace_write_bench(w, &b);
					}
					memset(&r, 0, sizeof(r));
					r.type = BS_REC_ITER;
					r.index = (uint64_t)j;
					r.pid = r.tid = t->pid[run][s];
					r.begin_ns = (uint64_t)side_t[s];
					r.end_ns = (uint64_t)(side_t[s] + dd);
					if (sp->gbench) {
						r.flags = BS_ITER_F_INVOC;
						r.invocations = inv_s;
					}
					if (asym && s == 0) {
						r.runq_wait_ns = r.preempted_ns =
						    (uint64_t)(dd / 5);
						r.nivcsw = 3;
					}
					if (asym && s == 1)
						r.softirq_ns = (uint64_t)(dd / 1000);
					r.cpu_begin = r.cpu_end = (uint32_t)cpu[s];
					bs_trace_write_iter(w, &r);
					if (!failed && j < DF_MAX_ITERS) {
						t->it[run][s][j] =
						    (struct bs_iter){side_t[s], side_t[s] + dd};
						t->n[run][s] = j + 1;
					}
					side_t[s] += dd + 2000;
				}
			}
			if (m == BS_DM_SEQ) {
				side_t[1] = side_t[0] + 5000;
				for (int j = 0; j < n; j++) {
					double base = 1e6 * (1 + 0.2 * (df_unif(&rs) - 0.5));
					double slow = sp->seq_slow_b ? sp->seq_slow_b : sp->slow_b;
					int64_t dd = (int64_t)(base * (1 + slow) *
							       (1 + sp->noise * df_norm(&rs)));
					struct bs_iter_rec r;

					if (cpu[1] == 1)
						dd = (int64_t)((double)dd * cpu1_f);
					dd = (int64_t)((double)dd * run_f[1]);
					memset(&r, 0, sizeof(r));
					r.cpu_begin = r.cpu_end = (uint32_t)cpu[1];
					r.type = BS_REC_ITER;
					r.index = (uint64_t)j;
					r.pid = r.tid = t->pid[run][1];
					r.begin_ns = (uint64_t)side_t[1];
					r.end_ns = (uint64_t)(side_t[1] + dd);
					bs_trace_write_iter(w, &r);
					if (j < DF_MAX_ITERS) {
						t->it[run][1][j] =
						    (struct bs_iter){side_t[1], side_t[1] + dd};
						t->n[run][1] = j + 1;
					}
					side_t[1] += dd + 2000;
				}
			}
			clock = (side_t[0] > side_t[1] ? side_t[0] : side_t[1]) + 1000000;
			if (asym) {
				struct bs_interferer_rec ir = {.victim_pid = t->pid[run][0],
							       .interferer_tid = t->pid[run][1],
							       .interferer_pid = t->pid[run][1],
							       .ns = 5000000};

				memcpy(ir.comm, "bench_b", 8);
				bs_trace_write_interferer(w, &ir);
				ir = (struct bs_interferer_rec){.victim_pid = t->pid[run][0],
								.interferer_tid = 77,
								.interferer_pid = 77,
								.ns = 3000000};
				memcpy(ir.comm, "kworker/0:1", 12);
				bs_trace_write_interferer(w, &ir);
				/* another thread of A's own process */
				ir =
				    (struct bs_interferer_rec){.victim_pid = t->pid[run][0],
							       .interferer_tid = t->pid[run][0] + 1,
							       .interferer_pid = t->pid[run][0],
							       .ns = 1000000};
				memcpy(ir.comm, "bench_a", 8);
				bs_trace_write_interferer(w, &ir);
				t->other_ns = 5000000;
				t->third_ns = 3000000;
				t->own_ns = 1000000;
			}
			snprintf(ev, sizeof(ev),
				 "{\"kind\": \"duet_run\", \"run\": %d, \"method\": \"%s\", "
				 "\"index\": %d, "
				 "\"order\": \"%s\", \"start_ns\": %" PRId64
				 ", \"end_ns\": %" PRId64
				 ", \"ok\": %s, \"reason\": %s, \"sides\": {\"A\": {\"pid\": %u}, "
				 "\"B\": {\"pid\": %u}}}",
				 run, bs_dmethod_name(m), k, k % 2 ? "BA" : "AB", start, clock - 1,
				 failed ? "false" : "true",
				 failed ? "\"B crashed (signal 11)\"" : "null", t->pid[run][0],
				 t->pid[run][1]);
			bs_trace_write_event(w, ev);
			run++;
		}
	t->n_runs = run;
	if (sp->unrecorded_ns)
		snprintf(ev, sizeof(ev),
			 "{\"interrupted\": false, \"interferers_unrecorded_ns\": %" PRIu64
			 ", \"interferers_unrecorded_iterations\": 2%s%s}",
			 sp->unrecorded_ns, sp->end_extra ? ", " : "",
			 sp->end_extra ? sp->end_extra : "");
	else
		snprintf(ev, sizeof(ev), "{\"interrupted\": false%s%s}", sp->end_extra ? ", " : "",
			 sp->end_extra ? sp->end_extra : "");
	bs_trace_write_end(w, ev);
	return bs_trace_close(w);
}

#endif
