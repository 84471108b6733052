// SPDX-License-Identifier: MIT
// stopbench_warmup - a Google Benchmark with a slow warmup (stoppage suite):
// like a JIT or a cache filling up, each invocation costs
// 1 + 2 exp(-t / 0.15 s) times the steady work, t the process's time since
// its first invocation; steady after about 0.7 s (35 runs of 20 ms).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdint>

static uint64_t work(int n)
{
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; i < n; i++)
		h = (h ^ (uint64_t)i) * 1099511628211ull;
	return h;
}

static void BM_Warmup(benchmark::State &state)
{
	static const auto t0 = std::chrono::steady_clock::now();
	int k = 0;
	double factor = 1;
	for (auto _ : state) {
		if ((k++ & 63) == 0) {
			double t =
			    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
				.count();
			factor = 1 + 2 * std::exp(-t / 0.15);
		}
		benchmark::DoNotOptimize(work((int)(2000 * factor)));
	}
}
BENCHMARK(BM_Warmup);
BENCHMARK_MAIN();
