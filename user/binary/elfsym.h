/* SPDX-License-Identifier: MIT */
/*
 * elfsym.h - functions, USDT probes and build ids of ELF files, for
 * attaching uprobes to unmodified harnesses and for precise error messages.
 *
 * All functions open the file themselves, never print, and return 0 or
 * -errno. Garbage, truncated or non-ELF input gives -ENOEXEC (or the open
 * error), never a crash.
 */
#ifndef BENCHSCOPE_ELFSYM_H
#define BENCHSCOPE_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

/**
 * Find the function SYMBOL in the ELF file PATH (.symtab and .dynsym;
 * STT_FUNC or STT_GNU_IFUNC; defined; a sized definition preferred over an
 * unsized one).
 *
 * SYMBOL is a mangled name ("_ZN9benchmark5State16StartKeepRunningEv"), a
 * C name, or a demangled C++ name without parameters
 * ("benchmark::State::StartKeepRunning") or with them
 * ("benchmark::State::StartKeepRunning()"); whitespace and [abi:...] tags
 * are ignored when comparing demangled names.
 *
 * On success: *file_offset = the symbol's offset in the file (st_value -
 * sh_addr + sh_offset of its section: what a uprobe needs), *sym_size in
 * bytes, and the mangled name in name_out (any pointer may be NULL).
 * Errors (with a one-line reason in err):
 *   -ENOENT  not found; err names up to 5 closest demangled names
 *            (substring matches first, then by edit distance);
 *   -EINVAL  a demangled name matching several functions at different
 *            offsets (overloads); err lists the candidates;
 *   -ENOEXEC not an ELF file; other -errno from open.
 */
int bs_elf_find_func(const char *path, const char *symbol, uint64_t *file_offset,
		     uint64_t *sym_size, char *name_out, size_t name_len, char *err, size_t errlen);

/** One USDT probe site from a .note.stapsdt note (SystemTap v3 notes). */
struct bs_usdt_note {
	char provider[64];
	char name[64];
	uint64_t pc_offset; /* file offset of the probe's instruction (after .stapsdt.base prelink
			       adjustment) */
	uint64_t sema_addr; /* virtual address of the semaphore, 0 if none */
	char args[256];	    /* argument description, e.g. "-4@%edx 8@%rax" */
};

/**
 * List the USDT probes of PATH, in note order (a probe with several sites
 * appears once per site). *notes is malloc'd (NULL when *n is 0); free() it.
 * A file without a .note.stapsdt section gives 0 with *n = 0; a note that
 * cannot be decoded (or any note of a relocatable object) is skipped.
 * Returns 0; -ENOEXEC (not an ELF file, corrupt headers); -errno of
 * open(2) (e.g. -ENOENT, -EACCES); -EINVAL (libelf cannot be initialised);
 * -ENOMEM. On error *notes is NULL and *n 0.
 */
int bs_elf_list_usdt(const char *path, struct bs_usdt_note **notes, size_t *n);

/**
 * Check that the USDT probe PROVIDER:NAME exists in PATH: 0, or -ENOENT with
 * err naming up to 5 closest provider:name pairs (or "PATH has no USDT
 * probes"); -ENOEXEC/-errno as bs_elf_list_usdt.
 */
int bs_elf_check_usdt(const char *path, const char *provider, const char *name, char *err,
		      size_t errlen);

/**
 * GNU build-id of PATH as lowercase hex into hex ("" when the file has none).
 * 0, -ENOSPC when hexlen cannot hold it, or -ENOEXEC/-errno.
 */
int bs_elf_build_id(const char *path, char *hex, size_t hexlen);

#endif
