// gbench_example.cc - the bundled example harness: an ordinary Google
// Benchmark program (Debian's libbenchmark, unmodified) with three benchmarks
// of clearly different cost per invocation:
//   BM_HashStrings  ~0.05 us  FNV-1a over a 64-byte string
//   BM_SortInts     ~2 us    std::sort of 256 shuffled ints
//   BM_MapInsert    ~20 us   std::map of 200 string keys, built and dropped
// Built twice: gbench_example (version A) and gbench_example_b (version B,
// -DBS_WORK_PCT=10). In B every (100 / BS_WORK_PCT)-th invocation does its
// work twice, so B does exactly 10 % more work per invocation on average.
// Duet tests and `make demo` compare the two.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#ifndef BS_WORK_PCT
#define BS_WORK_PCT 0
#endif
/* true on every (100 / BS_WORK_PCT)-th call: repeat the invocation's work */
static inline bool extra_work(uint64_t &k)
{
	return BS_WORK_PCT > 0 && ++k % (100 / (BS_WORK_PCT > 0 ? BS_WORK_PCT : 1)) == 0;
}

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
	uint64_t k = 0;
	for (auto _ : state) {
		benchmark::DoNotOptimize(s.data());
		benchmark::DoNotOptimize(fnv1a(s));
		if (extra_work(k)) {
			benchmark::DoNotOptimize(s.data());
			benchmark::DoNotOptimize(fnv1a(s));
		}
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
	uint64_t k = 0;
	for (auto _ : state) {
		v = base;
		std::sort(v.begin(), v.end());
		benchmark::DoNotOptimize(v.data());
		if (extra_work(k)) {
			v = base;
			std::sort(v.begin(), v.end());
			benchmark::DoNotOptimize(v.data());
		}
	}
}
BENCHMARK(BM_SortInts);

static void BM_MapInsert(benchmark::State &state)
{
	std::vector<std::string> keys;
	for (int i = 0; i < 200; i++)
		keys.push_back("key-" + std::to_string(i * 7919 % 200));
	uint64_t k = 0;
	auto build = [&keys]() {
		std::map<std::string, int> m;
		for (size_t i = 0; i < keys.size(); i++)
			m[keys[i]] = static_cast<int>(i);
		benchmark::DoNotOptimize(m.size());
	};
	for (auto _ : state) {
		build();
		if (extra_work(k))
			build();
	}
}
BENCHMARK(BM_MapInsert);

BENCHMARK_MAIN();
