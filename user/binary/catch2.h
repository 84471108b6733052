/* SPDX-License-Identifier: MIT */
/*
 * catch2.h - what `--preset catch2` needs to know about a Catch2 test
 * program with benchmarks: where a sample's timed region begins and ends,
 * where its repeat count is readable, and where the benchmark is named.
 *
 * Catch2 (2.x single header catch.hpp, 3.x catch2/benchmark/) times one
 * sample as (catch_chronometer.hpp):
 *
 *     Chronometer::measure(fun):  impl->start();            // ChronometerModel<Clock>::start()
 *                                 for (i = 0; i < k; ++i) fun(i);
 *                                 impl->finish();           // ChronometerModel<Clock>::finish()
 *
 * where `impl` is a ChronometerConcept* and k the repeats of the
 * Chronometer (`k` in 2.x, `repeats` in 3.x). ChronometerModel<Clock> is a
 * template instantiated in the test program (weak symbols, nm `W`).
 *
 * Devirtualised copies. GCC's speculative devirtualisation (-O2) turns
 * `impl->start()` into "if impl's vtable slot is
 * &ChronometerModel<steady_clock>::start, run its body inline (call
 * Clock::now()), else call through the vtable". With Debian's g++ 12 -O2
 * every measure() of the program takes the inline path, so the out-of-line
 * start()/finish() never run. The inline copies are found by their guard:
 * code that takes the address of start()/finish() (lea rip-relative or an
 * absolute immediate), compares it and branches; the timed region's
 * boundary is then the `call Clock::now()` on the guarded path, i.e. the
 * entry of the inlined start()/finish() body. Both kinds of site are
 * probed; each sample passes exactly one begin and one end.
 *
 * Repeats per sample. Chronometer is {ChronometerConcept *impl; int k;}
 * (16 bytes, trivially copyable), passed by value to
 * BenchmarkFunction::model<Fun>::call(Chronometer) const, one local
 * instantiation per BENCHMARK lambda; under the SysV x86-64 ABI it arrives
 * in rsi (impl) and edx (k). That call is virtual (through
 * BenchmarkFunction's callable*) and runs right before every sample's
 * start(): probed at its entry, it gives the k of the next sample. When the
 * program carries DWARF, the layout of Catch::Benchmark::Chronometer
 * (size 16, impl at 0, k/repeats at 8, a 4-byte int) is checked against it.
 *
 * Benchmark name. Catch::RunContext::benchmarkPreparing, called once per
 * benchmark before its estimation runs: 2.x passes std::string const&
 * (libstdc++ C++11 ABI: data pointer at 0, length at 8), 3.x a StringRef
 * by value (pointer in rsi, length in rdx). It is virtual too, and where
 * the program defines RunContext in the translation unit of its benchmarks
 * (2.x with CATCH_CONFIG_MAIN there) GCC devirtualises it the same way: the
 * inline copy is `m_reporter->benchmarkPreparing(name)`, whose indirect call
 * receives the name in the same registers, so that call is the site.
 */
#ifndef BENCHSCOPE_CATCH2_H
#define BENCHSCOPE_CATCH2_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/** Sites of one kind the preset attaches at most (each is a uprobe). */
#define BS_CATCH2_MAX_SITES 512

/** What a site is. */
enum bs_catch2_site_kind {
	BS_CATCH2_ENTRY = 1,  /**< entry of the out-of-line function (start(), finish(),
			       *   benchmarkPreparing) */
	BS_CATCH2_INLINE = 2, /**< the first call of a devirtualised inline copy: Clock::now() for
			       *   start()/finish(), the reporter's for benchmarkPreparing */
};

/** How RunContext::benchmarkPreparing receives the name. */
enum bs_catch2_name_abi {
	BS_CATCH2_NAME_STDSTRING = 1, /**< 2.x: std::string const& in rsi (libstdc++ C++11 ABI) */
	BS_CATCH2_NAME_STRINGREF = 2, /**< 3.x: StringRef by value: rsi pointer, rdx length */
};

struct bs_catch2_site {
	uint64_t offset; /**< file offset of the probed instruction */
	uint64_t vaddr;	 /**< its address in the ELF file (for messages) */
	uint32_t kind;	 /**< enum bs_catch2_site_kind */
};

/** Everything `--preset catch2` attaches, resolved for one program. */
struct bs_catch2_plan {
	char path[PATH_MAX];	  /**< the test program (canonical path) */
	char name_path[PATH_MAX]; /**< file defining RunContext::benchmarkPreparing */
	uint32_t name_abi;	  /**< enum bs_catch2_name_abi */
	uint32_t n_name, n_name_inline;
	struct bs_catch2_site name[16]; /**< benchmarkPreparing and its inline copies (name_path) */
	uint32_t n_begin, n_end, n_call;
	uint32_t n_begin_inline, n_end_inline; /**< how many of n_begin/n_end are inline copies */
	struct bs_catch2_site begin[BS_CATCH2_MAX_SITES]; /**< start() and its inline copies */
	struct bs_catch2_site end[BS_CATCH2_MAX_SITES];	  /**< finish() and its inline copies */
	struct bs_catch2_site call[BS_CATCH2_MAX_SITES];  /**< model<Fun>::call(Chronometer) */
	char clock[128]; /**< Clock of the first ChronometerModel ("std::chrono::...") */
	char layout[96]; /**< how the Chronometer layout was checked: "DWARF" or "header" */
};

/**
 * Resolve the preset for the test program EXE (a Catch2 2.x or 3.x program
 * with its symbol table): the begin and end sites (out-of-line
 * ChronometerModel<Clock>::start()/finish() of every Clock and their
 * devirtualised inline copies), the entries of every
 * BenchmarkFunction::model<Fun>::call(Chronometer) const, and
 * RunContext::benchmarkPreparing (in EXE, or in a libCatch2 shared library
 * it loads). plan is filled (about 13 KiB).
 * Errors (one line in err, naming what was found): -ENOENT (not a Catch2
 * benchmark program, or stripped: no .symtab), -ENOTSUP (an inline copy of
 * an unknown shape, a Chronometer layout that DWARF contradicts, an
 * unsupported name ABI), -E2BIG (more than BS_CATCH2_MAX_SITES sites of a
 * kind), -ENOEXEC / other -errno (open, ELF errors).
 */
int bs_catch2_resolve(const char *exe, struct bs_catch2_plan *plan, char *err, size_t errlen);

#endif
