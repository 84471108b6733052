// SPDX-License-Identifier: MIT
// stopbench_steady - a steady Google Benchmark (stoppage suite, bench/stop-bench):
// FNV-1a over a 4 KiB buffer, the same work every invocation.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

static void BM_Steady(benchmark::State &state)
{
	std::vector<uint8_t> buf(4096);
	for (size_t i = 0; i < buf.size(); i++)
		buf[i] = (uint8_t)(i * 131);
	for (auto _ : state) {
		uint64_t h = 1469598103934665603ull;
		for (uint8_t b : buf)
			h = (h ^ b) * 1099511628211ull;
		benchmark::DoNotOptimize(h);
	}
}
BENCHMARK(BM_Steady);
BENCHMARK_MAIN();
