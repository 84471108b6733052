/* SPDX-License-Identifier: MIT */
/*
 * report_doc.h - the human report as a small document: a title and a list of
 * sections, each either lines of text or a table of text cells. Built once
 * (report_doc.c) from a dataset and its summary; printed as an aligned text
 * table (render_table.c) or as Markdown (render_md.c), so both show the same
 * figures.
 */
#ifndef BENCHSCOPE_REPORT_DOC_H
#define BENCHSCOPE_REPORT_DOC_H

#include <stddef.h>

#include "trace/dataset.h"
#include "report/summary.h"

#define BS_DOC_MAX_COLS 12

/** One section: lines (ncols == 0) or a table (ncols > 0). */
struct bs_doc_section {
	char *title;
	size_t ncols;
	char *header[BS_DOC_MAX_COLS];
	int right[BS_DOC_MAX_COLS]; /**< 1: right-aligned column (numbers) */
	char **cells;		    /**< rows * ncols cells, row-major */
	size_t n_rows;
	char **lines; /**< text lines (ncols == 0) */
	size_t n_lines;
	char *note; /**< optional line after a table */
};

struct bs_doc {
	char *title;
	struct bs_doc_section *sections;
	size_t n_sections;
	int oom; /**< an allocation failed while building */
};

/**
 * bs_report_doc_build - the human report of @ds with summary @s.
 * Returns a document (free with bs_doc_free) or NULL when out of memory.
 */
struct bs_doc *bs_report_doc_build(const struct bs_dataset *ds, const struct bs_run_summary *s);

/** Free a document (NULL-safe). */
void bs_doc_free(struct bs_doc *doc);

/* building blocks, used by bs_report_doc_build and tests */
struct bs_doc *bs_doc_new(const char *title);
/** Start a text section. */
void bs_doc_text(struct bs_doc *doc, const char *title);
/** Append a printf-formatted line to the current text section. */
void bs_doc_line(struct bs_doc *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/**
 * Start a table section; @cols is a string of column headers separated by
 * '\t', each prefixed with '>' when right-aligned ("kind\t>total\t>share").
 */
void bs_doc_table(struct bs_doc *doc, const char *title, const char *cols);
/** Append a row of ncols cells (strings) to the current table. */
void bs_doc_row(struct bs_doc *doc, const char *const *cells);
/** Set the note printed under the current table. */
void bs_doc_note(struct bs_doc *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
