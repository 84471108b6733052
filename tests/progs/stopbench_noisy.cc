// SPDX-License-Identifier: MIT
// stopbench_noisy - a noisy Google Benchmark (stoppage suite): each
// invocation does a random amount of work (log-normal, sigma 0.5) and each
// run a random level (normal, 4 % sd), so runs vary by several percent.
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

static void BM_Noisy(benchmark::State &state)
{
	static std::mt19937_64 rng(std::random_device{}());
	std::lognormal_distribution<double> inv(0, 0.5);
	double level = std::normal_distribution<double>(1, 0.04)(rng);
	for (auto _ : state)
		benchmark::DoNotOptimize(work((int)(1500 * level * inv(rng))));
}
BENCHMARK(BM_Noisy);
BENCHMARK_MAIN();
