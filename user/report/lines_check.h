/* SPDX-License-Identifier: MIT */
/*
 * lines_check.h - output-line boundaries in the run report: each iteration's
 * duration beside the figure the harness printed for it (the (?<score>)
 * group of its end line, an EVENT "line" in the trace; see probe/lines.h),
 * from the trace alone.
 */
#ifndef BENCHSCOPE_LINES_CHECK_H
#define BENCHSCOPE_LINES_CHECK_H

#include <json-c/json.h>
#include <stddef.h>

#include "trace/dataset.h"
#include "report/report_doc.h"

/** One iteration with the harness's own figure. */
struct bs_lines_check_row {
	const struct bs_iter_rec *it; /**< the iteration (in the dataset) */
	const char *text;	      /**< the line that ended it (in the dataset's JSON) */
	double score;		      /**< as printed */
	double theirs_ns;	    /**< the harness's time for the iteration, ns; NaN if unknown */
	double ratio;		    /**< duration / theirs_ns; NaN if unknown */
	double implied_invocations; /**< per-op score, no count: duration / score_ns; else NaN */
};

/**
 * bs_lines_check - the rows of @ds (its "line" events of role end or line that
 * ended an iteration and carry a score), in trace order, into a malloc'd
 * array (*rows, free() it). Returns the number of rows, 0 when the trace has
 * none (other boundaries), or -ENOMEM.
 */
long bs_lines_check(const struct bs_dataset *ds, struct bs_lines_check_row **rows);

/** Add the section "Harness's own figures" to @doc when @ds has rows. */
void bs_lines_check_doc(struct bs_doc *doc, const struct bs_dataset *ds);

/**
 * The JSON member "lines_check" (docs/json-schema.md): {"n", "compared",
 * "ratio_median", "ratio_min", "ratio_max", "within_1pct", "rows": [...]},
 * or NULL when @ds has no rows.
 */
json_object *bs_lines_check_json(const struct bs_dataset *ds);

#endif
