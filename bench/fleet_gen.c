// SPDX-License-Identifier: MIT
/*
 * fleet_gen.c - synthetic run traces of one suite from many "machines",
 * for `benchscope merge` and the fleet report (make bench, tests).
 *
 *   fleet_gen DIR N_TRACES TOTAL_ITERS [SLOW_MEMBER SLOW_FACTOR] [SEED]
 *
 * writes DIR/m001.trace ... Each trace holds 4 runs (processes) of two
 * benchmarks (BENCH names "BM_a", "BM_b"), 100 invocations per iteration.
 * Time per invocation, ns: 100 (BM_a) or 250 (BM_b) x machine factor
 * exp(N(0, 0.02^2)) x run factor exp(N(0, 0.01^2)) x iteration noise
 * exp(N(0, 0.03^2)); member SLOW_MEMBER (from 1) gets SLOW_FACTOR more and
 * 20 % of its time preempted. The machine-level spread (sd 0.02 of the log)
 * is the truth the fleet report's combined interval is checked against.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

#define RUNS  4
#define BENCH 2
#define INVOC 100

static uint64_t rng_state = 88172645463325252ull;

static double unif(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

static int one_trace(const char *path, int m, size_t iters, double factor, int slow)
{
	static const char *const names[BENCH] = {"BM_a", "BM_b"};
	static const double base[BENCH] = {100, 250};
	char ctx[1024], err[256];
	struct bs_trace_writer *w;
	uint64_t t = 1000000000ull;
	size_t per = iters / (RUNS * BENCH), left = iters;

	snprintf(ctx, sizeof(ctx),
		 "{\"tool\":\"benchscope\",\"version\":\"0.1.0\",\"trace_format\":\"1.2\","
		 "\"kernel\":\"6.1.0-synthetic\",\"cpu_model\":\"Synthetic CPU %d\",\"ncpus\":2,"
		 "\"hypervisor\":\"KVM\",\"steal_accounting\":true,\"sched_info\":true,"
		 "\"hostname\":\"vm-%03d\",\"clock\":\"CLOCK_MONOTONIC\","
		 "\"started_at\":\"2026-11-23T10:00:00Z\",\"command\":[\"./bench\",\"--fixed\"],"
		 "\"boundaries\":{\"kind\":\"uprobe\",\"begin\":\"start\",\"end\":\"finish\","
		 "\"probes\":2}}",
		 m % 3, m);
	w = bs_trace_create(path, ctx, err, sizeof(err));
	if (!w) {
		fprintf(stderr, "fleet_gen: %s\n", err);
		return 1;
	}
	for (int r = 0; r < RUNS; r++) {
		uint32_t pid = 1000 + (uint32_t)r;
		double rf = exp(0.01 * gauss());

		for (int b = 0; b < BENCH; b++) {
			struct bs_bench_rec br = {.type = BS_REC_BENCH, .pid = pid, .tid = pid};
			size_t n = (r == RUNS - 1 && b == BENCH - 1) ? left : per;

			br.ts_ns = t;
			br.name_len = (uint32_t)strlen(names[b]);
			snprintf(br.name, sizeof(br.name), "%s", names[b]);
			bs_trace_write_bench(w, &br);
			for (size_t i = 0; i < n; i++) {
				struct bs_iter_rec it = {.type = BS_REC_ITER,
							 .flags = BS_ITER_F_INVOC};
				double ns = base[b] * factor * rf * exp(0.03 * gauss()) * INVOC;

				it.index = i;
				it.pid = it.tid = pid;
				it.begin_ns = t + 1;
				it.end_ns = it.begin_ns + (uint64_t)ns;
				it.invocations = INVOC;
				it.preempted_ns =
				    slow ? (uint64_t)(0.2 * ns) : (uint64_t)(unif() * 50);
				it.migrations = slow ? 1 : 0;
				it.nivcsw = slow ? 3 : 0;
				bs_trace_write_iter(w, &it);
				t = it.end_ns + 10;
			}
			left -= n;
		}
	}
	bs_trace_write_end(w, "{\"interrupted\":false}");
	return bs_trace_close(w) ? 1 : 0;
}

int main(int argc, char **argv)
{
	int n, slow = 0, ret = 0;
	size_t total;
	double slow_f = 1;
	char path[4096];

	if (argc < 4) {
		fprintf(stderr,
			"usage: fleet_gen DIR N_TRACES TOTAL_ITERS [SLOW_MEMBER SLOW_FACTOR] "
			"[SEED]\n");
		return 2;
	}
	n = atoi(argv[2]);
	total = strtoull(argv[3], NULL, 10);
	if (argc >= 6) {
		slow = atoi(argv[4]);
		slow_f = atof(argv[5]);
	}
	if (argc >= 7)
		rng_state += strtoull(argv[6], NULL, 10) * 0x9E3779B97F4A7C15ull;
	if (n < 1 || total < (size_t)n * RUNS * BENCH) {
		fprintf(stderr, "fleet_gen: want N >= 1 and TOTAL_ITERS >= N * %d\n", RUNS * BENCH);
		return 2;
	}
	for (int m = 1; m <= n && !ret; m++) {
		double f = exp(0.02 * gauss()) * (m == slow ? slow_f : 1);
		size_t it = total / (size_t)n + (m <= (int)(total % (size_t)n));

		snprintf(path, sizeof(path), "%s/m%03d.trace", argv[1], m);
		ret = one_trace(path, m, it, f, m == slow);
	}
	return ret;
}
