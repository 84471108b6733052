/* SPDX-License-Identifier: MIT */
/*
 * rustsym.h - Rust symbol names, and every function symbol of an ELF file
 * (local ones included), for presets that find a harness's generic
 * functions by name pattern.
 *
 * rustc's generic functions (criterion's Bencher<M>::iter<O, R>) are
 * instantiated once per closure in the user's crate and emitted as LOCAL
 * symbols (nm shows `t`): only .symtab has them, and bs_elf_find_func,
 * which wants one match, is not the tool. Their legacy-mangled names
 * ("_ZN9criterion7bencher16Bencher$LT$M$GT$4iter17h0123456789abcdefE")
 * differ only in the trailing hash; the demangled path without the hash
 * ("criterion::bencher::Bencher<M>::iter") is the same for all of them.
 *
 * Source of the mangling rules: rustc's legacy symbol mangling
 * (compiler/rustc_symbol_mangling/src/legacy.rs; the same rules as
 * rustc-demangle's legacy.rs and libiberty's rust-demangle.c): an Itanium
 * _ZN...E nested name of length-prefixed components, the last one being
 * "h" + 16 hex digits; "$LT$" and the other '$' escapes; ".." for "::".
 */
#ifndef BENCHSCOPE_RUSTSYM_H
#define BENCHSCOPE_RUSTSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * bs_rust_legacy_path - demangle a legacy-mangled Rust symbol to its path
 * without the hash: "_ZN4core3ptr13drop_in_place17h...E" -> "core::ptr::drop_in_place",
 * "_ZN72_$LT$a..B$u20$as$u20$c..D$GT$3fun17h...E" -> "<a::B as c::D>::fun".
 * A suffix ".llvm.NNN" after the E (a local promoted by LTO) is accepted;
 * any other suffix (".cold", ".part.0": pieces of a function, not its
 * entry) is not. Returns 0, -EINVAL when NAME is not a legacy Rust symbol
 * (no _ZN prefix, no hash component, a bad length or escape), or -ENOSPC
 * when out (outlen bytes) is too small.
 */
int bs_rust_legacy_path(const char *name, char *out, size_t outlen);

/** One defined function symbol of an ELF file. */
struct bs_elf_func {
	const char *name; /**< as in the symbol table (valid during the callback only) */
	uint64_t addr;	  /**< st_value: the link-time virtual address */
	uint64_t offset;  /**< file offset of the entry (what a uprobe needs) */
	uint64_t size;	  /**< st_size, bytes */
	bool local;	  /**< STB_LOCAL binding */
	bool dynsym;	  /**< from .dynsym (else .symtab) */
};

/**
 * bs_elf_each_func - call fn for every defined STT_FUNC symbol with a name
 * in .symtab and .dynsym of PATH, in table order; fn returning non-zero
 * stops the walk and is returned. *has_symtab (may be NULL) tells whether
 * PATH has a .symtab at all (a stripped file has none, and no local
 * symbols). Returns 0, fn's value, or -errno from bs_elf_open (-ENOENT,
 * -EACCES, -ENOEXEC for a non-ELF file) with a one-line reason in err.
 */
int bs_elf_each_func(const char *path, int (*fn)(void *ctx, const struct bs_elf_func *f), void *ctx,
		     bool *has_symtab, char *err, size_t errlen);

#endif
