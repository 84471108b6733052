// catch2_bench.cc - an ordinary Catch2 2.x test program with benchmarks
// (Debian's catch2 2.13.10, header-only, unmodified): one translation unit
// with CATCH_CONFIG_MAIN, as many projects write it. `--preset catch2`
// measures it:
//   ./catch2_bench "[!benchmark]" --benchmark-samples 20
// Three BENCHMARKs of clearly different cost per invocation:
//   "fnv1a 256 bytes"   ~0.2 us   many invocations per sample
//   "map 100 keys"      ~10 us    BENCHMARK_ADVANCED: its setup is outside
//                                 meter.measure(), a few invocations per sample
//   "sort 20000 ints"   ~1 ms     one invocation per sample
// Built twice: catch2_bench (version A) and catch2_bench_b (-DBS_WORK_PCT=10:
// every 10th invocation does its work twice, 10 % more work on average).
//
// Catch2's own figures: its reporters give a benchmark's mean (-r xml), not
// its samples, so a listener (Catch2's public extension point) appends each
// benchmark's samples, as Catch2 computed them (ns per invocation, clock
// cost removed), to the file $BS_CATCH2_SAMPLES when that is set:
//   NAME<TAB>ITERATIONS<TAB>SAMPLE_1<TAB>...<TAB>SAMPLE_n
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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

struct SampleListener : Catch::TestEventListenerBase {
	using TestEventListenerBase::TestEventListenerBase;

	void benchmarkEnded(Catch::BenchmarkStats<> const &stats) override
	{
		const char *path = std::getenv("BS_CATCH2_SAMPLES");
		std::FILE *f = path ? std::fopen(path, "a") : nullptr;

		if (!f)
			return;
		std::fprintf(f, "%s\t%d", stats.info.name.c_str(), stats.info.iterations);
		for (auto const &d : stats.samples)
			std::fprintf(f, "\t%.3f", d.count());
		std::fprintf(f, "\n");
		std::fclose(f);
	}
};
CATCH_REGISTER_LISTENER(SampleListener)

static uint64_t fnv1a(const std::string &s)
{
	uint64_t h = 1469598103934665603ull;
	for (unsigned char c : s)
		h = (h ^ c) * 1099511628211ull;
	return h;
}

TEST_CASE("fnv1a is deterministic", "[hash]")
{
	REQUIRE(fnv1a("abc") == fnv1a(std::string("abc")));
	REQUIRE(fnv1a("abc") != fnv1a("abd"));
}

TEST_CASE("benchmarks", "[!benchmark]")
{
	std::string s(256, 'x');
	for (size_t i = 0; i < s.size(); i++)
		s[i] = static_cast<char>('a' + i % 26);
	uint64_t k1 = 0, k2 = 0, k3 = 0;

	BENCHMARK("fnv1a 256 bytes")
	{
		uint64_t h = fnv1a(s);
		if (extra_work(k1))
			h ^= fnv1a(s);
		return h;
	};

	BENCHMARK_ADVANCED("map 100 keys")(Catch::Benchmark::Chronometer meter)
	{
		std::vector<std::string> keys;
		for (int i = 0; i < 100; i++)
			keys.push_back("key-" + std::to_string(i * 7919 % 100));
		auto build = [&keys]() {
			std::map<std::string, int> m;
			for (size_t i = 0; i < keys.size(); i++)
				m[keys[i]] = static_cast<int>(i);
			return m.size();
		};
		meter.measure([&] {
			size_t n = build();
			if (extra_work(k2))
				n += build();
			return n;
		});
	};

	std::vector<int> base(20000);
	std::iota(base.begin(), base.end(), 0);
	std::mt19937 rng(42);
	std::shuffle(base.begin(), base.end(), rng);
	BENCHMARK("sort 20000 ints")
	{
		std::vector<int> v(base);
		std::sort(v.begin(), v.end());
		if (extra_work(k3)) {
			v = base;
			std::sort(v.begin(), v.end());
		}
		return v[v.size() / 2];
	};
}
