/* SPDX-License-Identifier: MIT */
/*
 * formats.h - the result formats `benchscope import --format F` reads into a
 * run trace (run_trace.h), one importer per file: gbench.c, hyperfine.c,
 * criterion.c, gotest.c, pyperf.c, jmh.c. docs/import.md says what each
 * keeps and what it drops.
 */
#ifndef BENCHSCOPE_IMPORT_FORMATS_H
#define BENCHSCOPE_IMPORT_FORMATS_H

#include <stddef.h>

#include "import/run_trace.h"

/**
 * An importer: reads the file (or, for criterion, the directory) @path and
 * adds its samples, machine facts and dropped items to @imp. Returns 0,
 * -EINVAL with "FILE: ..." in imp->err (bad input), -errno (cannot read)
 * with a message, or -ENOMEM.
 */
typedef int (*bs_import_fn)(struct bs_imp *imp, const char *path);

struct bs_import_format {
	const char *name; /**< --format value */
	const char *tool; /**< the tool that writes it */
	bs_import_fn read;
};

/** The format named @name, or NULL. */
const struct bs_import_format *bs_import_format_find(const char *name);

/** The names of every run-trace format joined by ", " (for messages). */
const char *bs_import_format_names(void);

int bs_import_gbench(struct bs_imp *imp, const char *path);
int bs_import_hyperfine(struct bs_imp *imp, const char *path);
int bs_import_criterion(struct bs_imp *imp, const char *path);
int bs_import_gotest(struct bs_imp *imp, const char *path);
int bs_import_pyperf(struct bs_imp *imp, const char *path);
int bs_import_jmh(struct bs_imp *imp, const char *path);

#endif
