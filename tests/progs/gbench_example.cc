// gbench_example.cc - the bundled example harness: an ordinary Google
// Benchmark program (Debian's libbenchmark, unmodified) with three benchmarks
// of clearly different cost per invocation:
//   BM_HashStrings  ~0.05 us  FNV-1a over a 64-byte string
//   BM_SortInts     ~2 us    std::sort of 256 shuffled ints
//   BM_MapInsert    ~20 us   std::map of 200 string keys, built and dropped
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

static uint64_t fnv1a(const std::string &s)
{
	uint64_t h = 1469598103934665603ull;
	for (unsigned char c : s)
		h = (h ^ c) * 1099511628211ull;
	return h;
}

static void BM_HashStrings(benchmark::State &state)
{
	std::string s(64, 'x');
	for (size_t i = 0; i < s.size(); i++)
		s[i] = static_cast<char>('a' + i % 26);
	for (auto _ : state) {
		benchmark::DoNotOptimize(s.data());
		benchmark::DoNotOptimize(fnv1a(s));
	}
}
BENCHMARK(BM_HashStrings);

static void BM_SortInts(benchmark::State &state)
{
	std::vector<int> base(256);
	std::iota(base.begin(), base.end(), 0);
	std::mt19937 rng(42);
	std::shuffle(base.begin(), base.end(), rng);
	std::vector<int> v;
	for (auto _ : state) {
		v = base;
		std::sort(v.begin(), v.end());
		benchmark::DoNotOptimize(v.data());
	}
}
BENCHMARK(BM_SortInts);

static void BM_MapInsert(benchmark::State &state)
{
	std::vector<std::string> keys;
	for (int i = 0; i < 200; i++)
		keys.push_back("key-" + std::to_string(i * 7919 % 200));
	for (auto _ : state) {
		std::map<std::string, int> m;
		for (size_t i = 0; i < keys.size(); i++)
			m[keys[i]] = static_cast<int>(i);
		benchmark::DoNotOptimize(m.size());
	}
}
BENCHMARK(BM_MapInsert);

BENCHMARK_MAIN();
