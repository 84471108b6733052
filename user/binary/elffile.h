/* SPDX-License-Identifier: MIT */
/*
 * elffile.h - open an ELF file with libelf and translate addresses.
 *
 * Shared by the symbol, note and library-path code. Every function checks
 * bounds; a non-ELF, truncated or garbage file yields an error, never a crash.
 */
#ifndef BENCHSCOPE_ELFFILE_H
#define BENCHSCOPE_ELFFILE_H

#include <gelf.h>
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/** An open ELF file: descriptor plus libelf handle. */
struct bs_elf {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
};

/**
 * Open PATH read-only as an ELF file (ET_EXEC, ET_DYN or ET_REL).
 * Returns 0, or -errno: -ENOENT/-EACCES from open, -ENOEXEC when the file
 * is not a well-formed ELF file. On error a one-line reason goes to err.
 */
int bs_elf_open(const char *path, struct bs_elf *ef, char *err, size_t errlen);

/** Release what bs_elf_open acquired (safe on a zeroed or closed struct). */
void bs_elf_close(struct bs_elf *ef);

/**
 * Translate a virtual address to a file offset through the PT_LOAD segment
 * containing it (only executable segments when exec_only). 0 or -ENOENT.
 */
int bs_elf_vaddr_to_offset(struct bs_elf *ef, uint64_t vaddr, int exec_only, uint64_t *off);

/**
 * bs_elf_sym_offset - the file offset of symbol @sym's address, through the
 * section it lies in (relocatable files: section offset + value). 0, or -1
 * when the symbol is undefined, absolute, or outside a file-backed section.
 */
int bs_elf_sym_offset(struct bs_elf *ef, const GElf_Sym *sym, uint64_t *off);

/** First section named NAME (NULL if none); its header goes to *shdr. */
Elf_Scn *bs_elf_find_section(struct bs_elf *ef, const char *name, GElf_Shdr *shdr);

#endif
