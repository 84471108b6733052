/* SPDX-License-Identifier: MIT */
/*
 * render.h - outputs of `benchscope compare`: the table (benchstat-like
 * columns), JSON and CSV, from an analysis alone (analysis.h). The columns
 * and keys are documented in README ("benchscope compare").
 */
#ifndef BENCHSCOPE_COMPARE_RENDER_H
#define BENCHSCOPE_COMPARE_RENDER_H

#include <stdio.h>

#include "compare/analysis.h"

/** The two traces compared, for headers. */
struct bs_cmp_input {
	const char *path[2];		   /**< A, B */
	const struct bs_cmp_side *side[2]; /**< A, B */
};

/** bs_cmp_render_table - the human table and its notes. 0 or -EIO. */
int bs_cmp_render_table(FILE *f, const struct bs_cmp_input *in, const struct bs_cmp_result *r);

/** bs_cmp_render_json - one JSON object (README's keys). 0, -EIO or -ENOMEM. */
int bs_cmp_render_json(FILE *f, const struct bs_cmp_input *in, const struct bs_cmp_result *r);

/** bs_cmp_render_csv - a header and one row per benchmark in both traces. 0 or -EIO. */
int bs_cmp_render_csv(FILE *f, const struct bs_cmp_result *r);

/** bs_cmp_verdict_word - "slower", "faster", "no_difference", "no_test" (the U test
 * cannot reach alpha with these sample sizes: row->u_needed), or "n/a" (a row with a
 * problem). The table's verdict column says the same in words. */
const char *bs_cmp_verdict_word(const struct bs_cmp_row *row);

#endif
