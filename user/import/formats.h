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

/* The importers (bs_import_fn; returns as described there). */
/** Google Benchmark JSON (--benchmark_out_format=json; library 1.7). */
int bs_import_gbench(struct bs_imp *imp, const char *path);
/** `hyperfine --export-json` (hyperfine 1.15). */
int bs_import_hyperfine(struct bs_imp *imp, const char *path);
/** criterion.rs 0.3 results: a target/criterion directory or sample.json files. */
int bs_import_criterion(struct bs_imp *imp, const char *path);
/** `go test -bench` text output (Go benchmark format, Go 1.19). */
int bs_import_gotest(struct bs_imp *imp, const char *path);
/** pyperf JSON, format version 1.0 (.json or .json.gz). */
int bs_import_pyperf(struct bs_imp *imp, const char *path);
/** JMH JSON results (-rf json; JMH 1.x). */
int bs_import_jmh(struct bs_imp *imp, const char *path);

#endif
