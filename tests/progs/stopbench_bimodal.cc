// SPDX-License-Identifier: MIT
// stopbench_bimodal - a bimodal Google Benchmark (stoppage suite): each run
// (a call of the benchmark function) is, with probability 0.3, in a slow mode
// doing 1.25 times the work, as with two steady states (e.g. code layout).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

static uint64_t work(int n)
{
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; i < n; i++)
		h = (h ^ (uint64_t)i) * 1099511628211ull;
	return h;
}

static void BM_Bimodal(benchmark::State &state)
{
	static std::mt19937_64 rng(std::random_device{}());
	int n = std::uniform_real_distribution<double>(0, 1)(rng) < 0.3 ? 2500 : 2000;
	for (auto _ : state)
		benchmark::DoNotOptimize(work(n));
}
BENCHMARK(BM_Bimodal);
BENCHMARK_MAIN();
