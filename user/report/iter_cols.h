/* SPDX-License-Identifier: MIT */
/*
 * iter_cols.h - the per-iteration columns of the CSV and JSON exports: every
 * field of struct bs_iter_rec plus duration_ns and ns_per_op, in one order,
 * names carrying their unit. One table drives both renderers.
 */
#ifndef BENCHSCOPE_ITER_COLS_H
#define BENCHSCOPE_ITER_COLS_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"

enum bs_col_kind {
	BS_COL_UINT,  /**< unsigned integer */
	BS_COL_FLOAT, /**< double; absent when not defined (ns_per_op) */
	BS_COL_TEXT,  /**< text (flags) */
};

/** A value of one column for one iteration. */
struct bs_col_val {
	enum bs_col_kind kind;
	int present; /**< 0: no value (CSV empty, JSON null) */
	uint64_t u;
	double d;
	char text[96];
};

/** One column: name (with unit suffix), unit, one-line meaning. */
struct bs_iter_col {
	const char *name;
	const char *unit; /**< "ns", "count", "ns/op" or "" */
	const char *doc;
};

/** The columns, in export order; *n receives their number. */
const struct bs_iter_col *bs_iter_cols(size_t *n);

/** The value of column @col (index into bs_iter_cols()) for @r. */
void bs_iter_col_value(size_t col, const struct bs_iter_rec *r, struct bs_col_val *v);

/**
 * bs_iter_flag_names - @flags as names joined by '|' ("invoc|spilled"),
 * "" for none; unknown bits as "0x..". Returns @buf.
 */
char *bs_iter_flag_names(uint32_t flags, char *buf, size_t len);

#endif
