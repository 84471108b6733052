/* SPDX-License-Identifier: MIT */
/*
 * gobench.h - what `--preset go` needs to know about a Go test binary
 * (`go test -c`, Go 1.17+ on x86-64, whose register ABI it reads): where
 * the probes go, and the layout of testing.B read from the binary's own
 * DWARF.
 *
 * The probes are entry-only uprobes, at function entries and at single
 * call instructions, never uretprobes: a uretprobe rewrites the return
 * address on the stack, and Go moves goroutine stacks (the program
 * crashes). The sites, found by disassembling the functions with capstone
 * (Go 1.19 testing/benchmark.go):
 *
 *   runn       the entry of testing.(*B).runN(b, n): b in RAX, n in RBX,
 *              the goroutine g in R14 (ABIInternal). The benchmark's name
 *              (b.name) is read here, and the goroutine is armed.
 *   start_now  the CALL time.Now in testing.(*B).StartTimer: the instant Go
 *              takes b.start, after runtime.GC, ResetTimer and
 *              ReadMemStats (a stop-the-world), so none of them is inside
 *              the iteration. Begins the iteration of an armed goroutine.
 *   stop_call  the CALL testing.(*B).StopTimer in runN, right after the
 *              benchmark function returned: StopTimer's first act is
 *              time.Since(b.start). Only runN's own call is probed, so a
 *              StopTimer inside the benchmark body does not end it. RAX = b,
 *              whose N is the count Go divides by, and whose timerOn, false
 *              here, says the body stopped the timer itself (flag paused).
 *   reset_now  the CALL time.Now in testing.(*B).ResetTimer, reached only
 *              when the timer runs: a b.ResetTimer() inside the benchmark
 *              (after its set-up) restarts Go's timed region, and ours.
 *   goexit     the entry of runtime.Goexit (b.Fatal, b.Skip, b.FailNow end
 *              the benchmark goroutine with it, and runN never reaches its
 *              StopTimer): the goroutine's open run is dropped, as Go
 *              reports none. 0 when the binary has no Goexit.
 */
#ifndef BENCHSCOPE_GOBENCH_H
#define BENCHSCOPE_GOBENCH_H

#include <stddef.h>
#include <stdint.h>

/** Function names (Go symbol names) of the sites. */
#define BS_GO_RUNN_SYM	 "testing.(*B).runN"
#define BS_GO_START_SYM	 "testing.(*B).StartTimer"
#define BS_GO_STOP_SYM	 "testing.(*B).StopTimer"
#define BS_GO_RESET_SYM	 "testing.(*B).ResetTimer"
#define BS_GO_NOW_SYM	 "time.Now"
#define BS_GO_GOEXIT_SYM "runtime.Goexit"
/** time's package variable: a Time's monotonic reading is ext + startNano (Go 1.9+). */
#define BS_GO_START_NANO_SYM "time.startNano"

/**
 * Byte offsets inside testing.B, from the binary's DWARF (never assumed):
 *   off_name     common.name, a Go string (pointer at +str_ptr, length in
 *                bytes at +str_len, both 8 bytes);
 *   off_n        N, the invocation count of this run (int, 8 bytes);
 *   off_has_sub  common.hasSub (4 bytes, non-zero once b.Run made a
 *                sub-benchmark: Go does not measure such a B itself);
 *   off_timer_on timerOn (bool, 1 byte): false at runN's StopTimer call
 *                when the benchmark stopped the timer itself.
 * tls_g is where the runtime keeps the running goroutine, relative to the
 * thread's FS base (-8 for internally linked amd64 binaries), found in the
 * code (see gobench.c).
 *
 * One probe per iteration (--probes 1) reads, at the end probe, the begin
 * Go's timer took itself: b.start, the time.Time StartTimer (or
 * ResetTimer) set with time.Now. Its monotonic reading is runtime.nanotime
 * (vDSO clock_gettime(CLOCK_MONOTONIC), the clock of bpf_ktime_get_ns)
 * minus time.startNano, kept in ext when wall's top bit (hasMonotonic) is
 * set (Go's src/time/time.go). So:
 *   off_start, off_duration  b.start (time.Time, 24 bytes) and b.duration
 *                (time.Duration, int64 ns: non-zero at runN's StopTimer
 *                call when the body paused the timer), both fields of the
 *                embedded testing.common;
 *   tm_wall, tm_ext  time.Time's wall (uint64) and ext (int64);
 *   start_nano_vaddr the link-time address of time.startNano (int64);
 *   stop_call_vaddr  the link-time address of the stop_call site: the end
 *                probe finds the load bias from its own address (PIE);
 *   one_probe_why    "" when all of these were found, else why not.
 */
struct bs_go_layout {
	char go_version[32]; /**< "go1.19.8" (from .go.buildinfo), "" when unknown */
	uint32_t off_name, off_n, off_has_sub, off_timer_on;
	uint32_t str_ptr, str_len;
	int32_t tls_g;
	uint32_t off_start, off_duration, tm_wall, tm_ext;
	uint64_t start_nano_vaddr, stop_call_vaddr;
	char one_probe_why[160];
};

/** File offsets (what a uprobe needs) and function-relative offsets of the sites. */
struct bs_go_sites {
	uint64_t runn, start_now, stop_call, reset_now,
	    goexit; /**< file offsets (goexit: 0 none) */
	uint32_t start_now_rel, stop_call_rel, reset_now_rel, _pad; /**< from the function start */
};

/**
 * bs_go_resolve - check that EXE is a Go test binary with benchmarks and
 * find the probe sites and testing.B's layout.
 *
 * Returns 0, or -errno with a one-line reason in err that says what was
 * found: -ENOEXEC (not an ELF file, or not a Go program), -ENOENT (a Go
 * program without testing.B's functions, or without a symbol table:
 * stripped), -ENODATA (no DWARF: built with -ldflags=-w or stripped; the
 * layout of testing.B cannot be read), -ENOTSUP (the code does not have
 * the expected shape, e.g. StopTimer inlined into runN, or a layout
 * without a needed field), other -errno (open, memory).
 */
int bs_go_resolve(const char *exe, struct bs_go_sites *sites, struct bs_go_layout *layout,
		  char *err, size_t errlen);

/**
 * bs_go_version - the Go version a binary was built with, from the
 * .go.buildinfo section (Go 1.18+ keeps it inline there).
 * @data, @len: the section's bytes. Writes "" when it is not there.
 * Returns 0, or -EINVAL for data that is not a Go build-info header.
 */
int bs_go_version(const unsigned char *data, size_t len, char *ver, size_t verlen);

/**
 * bs_go_find_tls_g - the offset of g's slot from the FS base in x86-64
 * code: the displacement d of the instructions `mov r14, qword ptr fs:[d]`
 * (bytes 64 4c 8b 34 25 d32, how Go's ABI wrappers reload g), over @len
 * bytes of @text. Needs at least 4 such instructions and 90 % of them to
 * agree. Returns 0 with *d set, or -ENOENT.
 */
int bs_go_find_tls_g(const unsigned char *text, size_t len, int32_t *d);

#endif
