// SPDX-License-Identifier: MIT
// stopbench_io - an I/O-bound Google Benchmark (stoppage suite): each
// invocation writes 4 KiB to a temporary file and reads it back
// (pwrite + pread through the page cache), every 256th with fdatasync().
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

static void BM_IO(benchmark::State &state)
{
	char path[] = "/tmp/stopbench_io.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		state.SkipWithError("mkstemp failed");
		return;
	}
	unlink(path);
	std::vector<char> buf(4096, 'x'), in(4096);
	int k = 0;
	for (auto _ : state) {
		off_t off = (off_t)(k % 256) * 4096;
		if (pwrite(fd, buf.data(), buf.size(), off) < 0 ||
		    pread(fd, in.data(), in.size(), off) < 0)
			state.SkipWithError("I/O failed");
		if ((++k & 255) == 0)
			fdatasync(fd);
		benchmark::DoNotOptimize(in[0]);
	}
	close(fd);
}
BENCHMARK(BM_IO);
BENCHMARK_MAIN();
