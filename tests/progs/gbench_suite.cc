// gbench_suite.cc - a Google Benchmark program (Debian's libbenchmark,
// unmodified) with a suite of seven small benchmarks, for --shard: names
// with '/', '<', '>' and ':' as libbenchmark makes them (Args, templates,
// min_time), which the shard's filter must escape and select exactly.
//   BM_Sum/8, BM_Sum/64, BM_Sum/512   summing a vector of that many ints
//   BM_Fill<int>, BM_Fill<double>     std::fill of 256 elements
//   BM_Rotate/min_time:0.010          std::rotate of 256 ints
//   BM_Xor                            a 64-step xorshift
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

static void BM_Sum(benchmark::State &state)
{
	std::vector<int> v((size_t)state.range(0), 3);

	for (auto _ : state)
		benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0));
}
BENCHMARK(BM_Sum)->Arg(8)->Arg(64)->Arg(512);

template <typename T> static void BM_Fill(benchmark::State &state)
{
	std::vector<T> v(256);

	for (auto _ : state) {
		std::fill(v.begin(), v.end(), T(1));
		benchmark::ClobberMemory();
	}
}
BENCHMARK_TEMPLATE(BM_Fill, int);
BENCHMARK_TEMPLATE(BM_Fill, double);

static void BM_Rotate(benchmark::State &state)
{
	std::vector<int> v(256);

	std::iota(v.begin(), v.end(), 0);
	for (auto _ : state) {
		std::rotate(v.begin(), v.begin() + 7, v.end());
		benchmark::ClobberMemory();
	}
}
BENCHMARK(BM_Rotate)->MinTime(0.01);

static void BM_Xor(benchmark::State &state)
{
	uint64_t x = 88172645463325252ull;

	for (auto _ : state) {
		for (int i = 0; i < 64; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		benchmark::DoNotOptimize(x);
	}
}
BENCHMARK(BM_Xor);

BENCHMARK_MAIN();
