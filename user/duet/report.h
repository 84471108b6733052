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
#include "util/steps.h"

struct bs_dataset;

struct bs_duet_report_opts {
	const char *json_path; /**< JSON report file, "-" for stdout, or NULL */
	const char *csv_path;  /**< per-iteration CSV (duet schema + ours), "-" or NULL */
	const char *md_path;   /**< Markdown report, "-" or NULL */
	const char *plot_path; /**< overlap timeline picture (.svg or .png), or NULL */
	double min_overlap;    /**< async pairing threshold m; 0: the trace's, else 0.4 */
	size_t n_resamples;    /**< bootstrap resamples; 0: the trace's (CONTEXT
				*   duet.resamples), else BS_DUET_RESAMPLES_DEFAULT */
	uint64_t seed;	       /**< bootstrap seed, when has_seed */
	bool has_seed;	       /**< seed is given; else the trace's (CONTEXT duet.seed), else 1 */
	bool no_mds;	       /**< skip the MDS curve; also when the trace's duet says so
				*   (CONTEXT duet.no_mds, `duet --no-mds`) */
	bool no_table;	       /**< no table on stdout */
	bool has_fail;	       /**< fail_pct is given; else the trace's gate (CONTEXT
				*   duet.fail_on_regression_pct), else none */
	double fail_pct;       /**< the regression gate, % (--fail-on-regression) */
	/* added by the analysis (zero = default): */
	bool drop_warmup_half; /**< drop the first half of each run's iterations (Drozdík 2023 §4.2)
				*/
	int sampling;	       /**< 0 auto (run means from 5 runs), 1 run means, 2 runs merged */
	/** told of each benchmark's analysis and of its end, before anything
	 *  is printed (bs_danalysis_opts.steps); NULL: none */
	const struct bs_steps *steps;
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
	/** largest lower CI bound of B vs A over the benchmarks' headline
	 *  verdicts (one per benchmark, its primary method's), in percent of
	 *  A's mean score; NAN when no benchmark has one. What
	 *  --fail-on-regression compares (bs_duet_regression_text) */
	double headline_slowdown_lo_pct;
	char headline_bench[256]; /**< that benchmark's name (cut to fit), "" without */
	int headline_method;	  /**< its headline method (enum bs_dmethod), -1 without */
	bool gate;		  /**< a regression gate applies (given, or the trace's) */
	double gate_pct;	  /**< its threshold, %; NAN without */
	bool regressed;		  /**< the gate fails (bs_duet_regression_text) */
	char regression[512];	  /**< bs_duet_regression_text's line, "" without */
};

/**
 * bs_duet_report_render - analyse @ds (a duet trace) and write the outputs
 * of @o; fills @out when non-NULL. With a regression gate (o->has_fail, or
 * the trace's duet.fail_on_regression_pct) the table has a `regression`
 * line and the JSON outcome.regression its result; the exit status is the
 * caller's. Returns 0; -EINVAL with a one-line reason
 * in err when @ds is not a duet trace or has no usable run; -EIO when an
 * output file cannot be written; -ENOMEM.
 */
int bs_duet_report_render(const struct bs_dataset *ds, const struct bs_duet_report_opts *o,
			  struct bs_duet_outcome *out, char *err, size_t errlen);

/**
 * bs_duet_regression_text - whether @o shows a regression beyond @fail_pct
 * (%, >= 0): a benchmark's headline verdict puts B slower than A with the
 * lower bound of its CI above fail_pct (so the CI excludes it). Then the
 * line that says so into @buf (@n bytes), naming the benchmark and the
 * method: "B is slower than A by more than 2 % in BM_x (async verdict, CI
 * lower bound 8.10 %)". Returns true on a regression; false (buf "")
 * otherwise.
 */
bool bs_duet_regression_text(const struct bs_duet_outcome *o, double fail_pct, char *buf, size_t n);

#endif
