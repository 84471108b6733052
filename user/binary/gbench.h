/* SPDX-License-Identifier: MIT */
/*
 * gbench.h - what `--preset gbench` needs to know about a Google Benchmark
 * harness: where libbenchmark is, the file offsets of
 * benchmark::State::StartKeepRunning() / FinishKeepRunning(), and the
 * verified layout of benchmark::State for that library version, from which
 * the BPF program reads a run's invocation count (max_iterations) through
 * the `this` pointer (rdi at the entry of StartKeepRunning).
 */
#ifndef BENCHSCOPE_GBENCH_H
#define BENCHSCOPE_GBENCH_H

#include <stddef.h>
#include <stdint.h>

#define BS_GBENCH_START_SYM                                                                        \
	"_ZN9benchmark5State16StartKeepRunningEv" /* State::StartKeepRunning() */
#define BS_GBENCH_FINISH_SYM                                                                       \
	"_ZN9benchmark5State17FinishKeepRunningEv" /* State::FinishKeepRunning() */

/**
 * Byte offsets inside benchmark::State (x86-64, LP64) of:
 *   max_iterations  int64_t, invocations of this run (const after construction, > 0);
 *   started_, finished_, error_occurred_  bool; at StartKeepRunning entry a
 *   plausible State has started_ = 0 and finished_ = 0.
 */
/**
 * A verified State layout: byte offsets in benchmark::State, and for one
 * probe per iteration (probe/probe_count.h) in the internal::ThreadTimer
 * State::timer_ points to: start_real_time_, the double of seconds of
 * std::chrono::steady_clock (CLOCK_MONOTONIC in libstdc++) its StartTimer
 * took at the last ResumeTiming, and real_time_used_, not 0 once the body
 * paused timing. off_timer 0: not verified for this version.
 */
struct bs_gbench_layout {
	const char *version;
	uint32_t off_max_iterations, off_started, off_finished, off_error;
	uint32_t off_timer, tt_start_real, tt_real_used;
};

/**
 * Find libbenchmark for the harness EXE (EXE itself when it defines the
 * State symbols, i.e. links Google Benchmark statically; otherwise among the
 * libraries it loads), resolve the file offsets of StartKeepRunning and
 * FinishKeepRunning, detect the library version and return its verified
 * State layout. lib_path receives the canonical path of the file probed.
 * Errors (one-line reason in err): -ENOENT (no libbenchmark / symbols),
 * -ENOTSUP (version without a verified layout), other -errno.
 */
int bs_gbench_resolve(const char *exe, char *lib_path, size_t lib_len, uint64_t *off_start,
		      uint64_t *off_finish, struct bs_gbench_layout *layout, char *err,
		      size_t errlen);

/**
 * Version of the Google Benchmark library in the ELF file PATH ("1.7.1"),
 * from its installed file name or, failing that, its build-id; "" when
 * unknown. 0 or -errno (open/ELF errors).
 */
int bs_gbench_version(const char *path, char *ver, size_t verlen);

#endif
