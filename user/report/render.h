/* SPDX-License-Identifier: MIT */
/*
 * render.h - every output of a run rendered from a dataset (so from a trace
 * alone): bs_report_render() (report.c), used by `benchscope report` and at
 * the end of `benchscope run`, and the renderers it calls: the human table
 * and Markdown (from the report document), JSON (docs/json-schema.md) and
 * CSV (one row per iteration).
 */
#ifndef BENCHSCOPE_RENDER_H
#define BENCHSCOPE_RENDER_H

#include <stdio.h>

#include "trace/dataset.h"
#include "report/report_doc.h"
#include "report/summary.h"

/** What bs_report_render() writes. Paths: NULL = not written, "-" = stdout. */
struct bs_report_opts {
	const char *json_path; /**< JSON export (docs/json-schema.md) */
	const char *csv_path;  /**< CSV export, one row per iteration */
	const char *md_path;   /**< Markdown export of the table */
	size_t top_n;	       /**< interferers listed (0: none; BS_REPORT_TOP_DEFAULT is usual) */
	int no_table;	       /**< 1: do not print the table on stdout */
};

#define BS_REPORT_TOP_DEFAULT 5
/** Version of the JSON export's layout (field "schema_version"). */
#define BS_JSON_SCHEMA_VERSION 2

/**
 * bs_report_render - summarise @ds, print the table on stdout (unless
 * no_table, or an export goes to stdout) and write every requested export.
 * Warns on stderr "trace truncated after N blocks holding M iteration
 * records (...)" when the trace is truncated. Returns 0, or -errno after printing
 * "benchscope CMD: ..." on stderr (bs_diag) (cannot write a file, out of memory).
 */
int bs_report_render(const struct bs_dataset *ds, const struct bs_report_opts *opts);

/** Print @doc as aligned text columns. Returns 0 or -EIO. */
int bs_render_table(FILE *f, const struct bs_doc *doc);
/** Print @doc as Markdown (headings, pipe tables). Returns 0 or -EIO. */
int bs_render_md(FILE *f, const struct bs_doc *doc);
/**
 * bs_render_json_object - the JSON export of @ds and @s as a json-c object
 * (caller puts it), or NULL when out of memory.
 */
json_object *bs_render_json_object(const struct bs_dataset *ds, const struct bs_run_summary *s);
/** Write the JSON export (pretty-printed). Returns 0, -ENOMEM or -EIO. */
int bs_render_json(FILE *f, const struct bs_dataset *ds, const struct bs_run_summary *s);
/** Write the CSV export: a header, then one row per iteration in trace order.
 * Returns 0, or -EIO when f's error indicator is set afterwards (ferror). */
int bs_render_csv(FILE *f, const struct bs_dataset *ds);

#endif
