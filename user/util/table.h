/* SPDX-License-Identifier: MIT */
/*
 * table.h - the one table renderer of the human reports: cells as strings,
 * printed aligned by display width (UTF-8 aware) or as a Markdown table.
 */
#ifndef BENCHSCOPE_TABLE_H
#define BENCHSCOPE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** How bs_table_print lays a table out. */
struct bs_table_style {
	const char *indent; /**< text: printed before every row (e.g. "  ") */
	bool md;	    /**< Markdown: "| a | b |" rows, "|---|---:|" after the header */
	bool md_escape;	    /**< Markdown: escape | \ * _ ` in cells (bs_md_escape) */
};

/**
 * bs_table_print - print the header (@ncols strings) and @n_rows rows of
 * @ncols cells (@cells, row-major; NULL prints as ""). @right (@ncols flags,
 * or NULL for none) right-aligns a column. Text: cells separated by two
 * spaces, each column as wide as its widest cell (bs_text_width), the last
 * column not padded when left-aligned. Markdown: right-aligned columns get
 * "---:" in the separator.
 */
void bs_table_print(FILE *f, const char *const *header, const char *const *cells, size_t n_rows,
		    size_t ncols, const int *right, const struct bs_table_style *style);

/** bs_md_escape - write @s with the characters Markdown tables treat specially escaped. */
void bs_md_escape(FILE *f, const char *s);

#endif
