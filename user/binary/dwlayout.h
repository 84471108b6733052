/* SPDX-License-Identifier: MIT */
/*
 * dwlayout.h - data layouts read from a program's own DWARF (libdw): where
 * a function's parameter is at its entry, and byte offsets of struct
 * members, so that a BPF probe can read a harness's fields without
 * hard-coding a layout the compiler chose (rustc reorders struct fields).
 *
 * Only the file's own .debug_info is read (no separate debug files).
 */
#ifndef BENCHSCOPE_DWLAYOUT_H
#define BENCHSCOPE_DWLAYOUT_H

#include <elfutils/libdw.h>
#include <stddef.h>
#include <stdint.h>

/** An open DWARF reader of one ELF file. */
struct bs_dw {
	int fd;
	Dwarf *dbg;
};

/** Where one parameter of a function is at its entry, and what it points to. */
struct bs_dw_param {
	char name[64];	   /**< the parameter's name ("self", "id"), "" when it has none */
	int entry_reg;	   /**< DWARF register number holding it at the entry, -1 unknown */
	Dwarf_Die pointee; /**< the type it points to (typedefs and qualifiers stripped) */
	char
	    type_name[256]; /**< the pointee's name ("Bencher<criterion::measurement::WallTime>") */
};

/**
 * bs_dw_open - open the DWARF of the ELF file PATH. Returns 0, -ENODATA
 * when the file has no DWARF (.debug_info), or another -errno (open,
 * -ENOEXEC for a non-ELF file), with a one-line reason in err.
 */
int bs_dw_open(const char *path, struct bs_dw *dw, char *err, size_t errlen);

/** Release what bs_dw_open acquired (safe on a closed one). */
void bs_dw_close(struct bs_dw *dw);

/**
 * bs_dw_func_param - parameter number IDX (from 0, in declaration order)
 * of the function whose entry is at the link-time address ADDR (a
 * DW_TAG_subprogram with that low_pc, found through the CU covering ADDR;
 * the name and type are taken through DW_AT_abstract_origin /
 * DW_AT_specification where the concrete DIE has none). The parameter must
 * be a pointer (Rust `&T` / `&mut T`): p->pointee is the type it points to.
 * fn_name (may be NULL) receives the subprogram's DW_AT_name, which for
 * Rust carries the generic arguments ("iter<criterion::measurement::WallTime,
 * u64, work::benches::{closure#0}::{closure_env#0}>").
 * Returns 0, or -ENOENT (no such function or parameter), -EINVAL (the
 * parameter is no pointer) with a one-line reason in err.
 */
int bs_dw_func_param(struct bs_dw *dw, uint64_t addr, unsigned idx, struct bs_dw_param *p,
		     char *fn_name, size_t fn_len, char *err, size_t errlen);

/**
 * bs_dw_member - the member NAME of the struct/union type TYPE: its byte
 * offset in TYPE (*off) and its type (*mtype, typedefs and qualifiers
 * stripped; may be NULL). 0, or -ENOENT when TYPE has no such member (or
 * its offset is not a constant).
 */
int bs_dw_member(Dwarf_Die *type, const char *name, uint64_t *off, Dwarf_Die *mtype);

/**
 * bs_dw_first_pointer - the byte offset in TYPE of its first pointer
 * reached depth-first through struct members (at most 8 levels), e.g. the
 * data pointer of Rust's RawVec, whatever its nesting in a compiler
 * version (RawVec{ptr: Unique{pointer: NonNull{pointer: *const u8}}} in
 * 1.63, RawVec{inner: RawVecInner{ptr: ...}} later). TYPE itself may be a
 * pointer (offset 0). 0 or -ENOENT.
 */
int bs_dw_first_pointer(Dwarf_Die *type, uint64_t *off);

/** Byte size of TYPE (DW_AT_byte_size; pointers: 8), or -1 when unknown. */
long bs_dw_byte_size(Dwarf_Die *type);

#endif
