/* SPDX-License-Identifier: MIT */
/*
 * report.h - analyse and render a duet trace (docs/duet-trace.md):
 * per benchmark and method, overlaps, pairing, CI test, U test, MDS, runtime
 * speedup versus sequential runs, the noise diagnosis, and the verdict;
 * as a table, JSON, CSV (duet package's processed schema plus ours) and an
 * overlap timeline picture. Source: Drozdík 2023.
 */
#ifndef BENCHSCOPE_DUET_REPORT_H
#define BENCHSCOPE_DUET_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duet/data.h" /* bs_dataset_is_duet */

struct bs_dataset;

struct bs_duet_report_opts {
	const char *json_path; /**< JSON report file, "-" for stdout, or NULL */
	const char *csv_path;  /**< per-iteration CSV (duet schema + ours), "-" or NULL */
	const char *md_path;   /**< Markdown report, "-" or NULL */
	const char *plot_path; /**< overlap timeline picture (.svg or .png), or NULL */
	double min_overlap;    /**< async pairing threshold m; 0: the trace's, else 0.4 */
	size_t n_resamples;    /**< bootstrap resamples; 0: 9999 */
	uint64_t seed;	       /**< bootstrap seed */
	bool no_mds;	       /**< skip the MDS curve (it re-runs the tests 16 times) */
	bool no_table;	       /**< no table on stdout */
	/* added by the analysis (zero = default): */
	bool drop_warmup_half; /**< drop the first half of each run's iterations (Drozdík 2023 §4.2)
				*/
	int sampling;	       /**< 0 auto (run means from 5 runs), 1 run means, 2 runs merged */
};

/** What a pipeline needs from the analysis: the worst regression seen. */
struct bs_duet_outcome {
	size_t runs_total, runs_used, runs_failed;
	size_t n_verdicts; /**< benchmarks x methods analysed */
	/** largest lower CI bound of "B slower than A" over the verdicts, in
	 *  percent of A's mean score (negative when no verdict shows B slower);
	 *  NAN when nothing could be analysed */
	double worst_slowdown_lo_pct;
	bool any_difference; /**< some verdict's CI excludes 0 */
};

/**
 * bs_duet_report_render - analyse @ds (a duet trace) and write the outputs
 * of @o; fills @out when non-NULL. Returns 0; -EINVAL with a one-line reason
 * in err when @ds is not a duet trace or has no usable run; -EIO when an
 * output file cannot be written; -ENOMEM.
 */
int bs_duet_report_render(const struct bs_dataset *ds, const struct bs_duet_report_opts *o,
			  struct bs_duet_outcome *out, char *err, size_t errlen);

#endif
