/* SPDX-License-Identifier: MIT */
/*
 * sym.h - symbolize user addresses of live processes: function names
 * and source lines (libdw's dwfl over /proc/PID/maps, ELF symbols and DWARF
 * lines), JIT code through perf-map files (/tmp/perf-PID.map).
 *
 * A process's modules are read at its first lookup and read again when an
 * address that can be user code falls outside every module while the
 * process lives (dlopen), at most every 100 ms;
 * bs_waste_sym_forget() drops them (exec). Once read, lookups keep working
 * after the process exits (the ELF files are opened by path).
 */
#ifndef BENCHSCOPE_WASTE_SYM_H
#define BENCHSCOPE_WASTE_SYM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct bs_waste_sym;

/** A symbolizer; NULL with errno on ENOMEM. */
struct bs_waste_sym *bs_waste_sym_new(void);
/** Free it and every process's modules (NULL-safe). */
void bs_waste_sym_free(struct bs_waste_sym *s);
/** Drop what is known of @pid (after exec). */
void bs_waste_sym_forget(struct bs_waste_sym *s, pid_t pid);

/**
 * bs_waste_sym_frame - "function (file.c:LINE)" for @addr in @pid, into @buf;
 * "function+0xOFF (module)" without line info; "[module+0xOFF]" without a
 * symbol; "[0xADDR]" when no module covers it. @is_return: @addr is a return
 * address (the call is at @addr - 1 for the line lookup).
 * Returns @buf (always NUL-terminated).
 */
const char *bs_waste_sym_frame(struct bs_waste_sym *s, pid_t pid, uint64_t addr, int is_return,
			       char *buf, size_t len);

/**
 * bs_waste_sym_func_start - start address of the function containing
 * @addr in @pid (ELF symbol or perf-map entry); 0 when unknown.
 */
uint64_t bs_waste_sym_func_start(struct bs_waste_sym *s, pid_t pid, uint64_t addr);

#endif
