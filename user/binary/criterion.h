/* SPDX-License-Identifier: MIT */
/*
 * criterion.h - what `--preset criterion` needs to know about a Rust
 * criterion.rs benchmark binary: where its timing loops, warm-up and
 * benchmark ids are, and the field offsets the probes read.
 *
 * criterion (0.3.6 in Debian 12; 0.5 has the same shapes, by its source)
 * times one sample as one call of a Bencher method: Bencher<M>::iter runs
 * the routine `self.iters` times between measurement.start() and
 * measurement.end() (bencher.rs). Routine::warm_up calls it with iters 1,
 * 2, 4, ... for --warm-up-time; Routine::bench then with the sample counts
 * (routine.rs). Every benchmark starts with
 * <Reports as Report>::benchmark_start(&self, id: &BenchmarkId, ..)
 * (analysis/mod.rs), whose BenchmarkId.full_id is the id criterion prints
 * and stores ("group/function/parameter").
 *
 * The Bencher methods and warm_up are generic, instantiated once per
 * closure in the benchmark's crate, and LOCAL symbols: they are found by
 * their demangled path in .symtab (legacy mangling; all instantiations).
 * Bencher.iters and BenchmarkId.full_id are read at offsets taken from the
 * binary's DWARF (rustc orders struct fields as it likes), through each
 * function's own parameter types, so each instantiation gets its own.
 */
#ifndef BENCHSCOPE_CRITERION_BINARY_H
#define BENCHSCOPE_CRITERION_BINARY_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/criterion.h"

/** Most probe sites one binary may need (Bencher methods x closures). */
#define BS_CRIT_MAX_SITES 256

/** One probed function of a criterion binary. */
struct bs_crit_site {
	enum bs_crit_kind kind;
	uint64_t addr;	 /**< link-time address (st_value) */
	uint64_t offset; /**< file offset of the entry (uprobe) */
	uint16_t off_a;	 /**< ITER*: offsetof(Bencher, iters); NAME: the id's data pointer */
	uint16_t off_b;	 /**< NAME: the id's length */
	uint8_t arg;	 /**< argument holding the pointer read (0: first) */
	char what[200];	 /**< the function: its DWARF name with generic arguments, else its path */
};

/** The probe sites of one criterion binary, as bs_criterion_resolve found them. */
struct bs_crit_layout {
	size_t n;	/**< sites used */
	size_t n_iter;	/**< of which iteration sites (ITER, ITER_CUSTOM, ITER_BATCHED*) */
	size_t n_warm;	/**< warm-up sites */
	size_t n_name;	/**< benchmark-id sites */
	char note[512]; /**< what degrades, "" when nothing (e.g. no benchmark ids) */
	struct bs_crit_site sites[BS_CRIT_MAX_SITES];
};

/**
 * bs_criterion_resolve - find the probe sites of the criterion benchmark
 * EXE (an absolute path) and their field offsets. Iteration sites come
 * first, in address order.
 *
 * Errors (-errno, with one line in err saying what was found):
 *   -ENOENT   EXE has no criterion Bencher method among its symbols (not a
 *             criterion benchmark; the line lists what EXE's symbols are), or
 *             it has no symbol table (stripped: the instantiations are local
 *             symbols, which only .symtab holds);
 *   -ENODATA  no DWARF debug information to read Bencher's layout from;
 *   -EINVAL   the DWARF does not describe Bencher.iters as expected;
 *   -E2BIG    more than BS_CRIT_MAX_SITES sites;
 *   -ENOEXEC  not an ELF file; -ENOMEM; other -errno from open.
 * A missing benchmark-id function is not an error: iterations are then
 * unnamed, and l->note says so.
 */
int bs_criterion_resolve(const char *exe, struct bs_crit_layout *l, char *err, size_t errlen);

/** "iter", "iter_custom", "iter_batched", "iter_batched_ref", "warm_up", "benchmark_id". */
const char *bs_crit_kind_name(enum bs_crit_kind k);

#endif
