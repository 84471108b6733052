/* SPDX-License-Identifier: MIT */
/*
 * render.h - the renderers of a duet report (duet/report.h), each in
 * its own file: table and Markdown (render_table.c), JSON
 * (render_json.c, docs/json-schema.md "Duet reports"), CSV
 * (render_csv.c) and the overlap timeline picture (render_plot.c).
 */
#ifndef BENCHSCOPE_DUET_RENDER_H
#define BENCHSCOPE_DUET_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "trace/dataset.h"
#include "duet/analysis.h"
#include "duet/data.h"
#include "duet/noise.h"
#include "duet/report.h"
#include "duet/stop_ci.h"

/** Everything a renderer reads. */
struct bs_duet_ctx {
	const struct bs_dataset *ds;
	const struct bs_duet_data *d;
	const struct bs_duet_analysis *a;
	const struct bs_duet_noise *n;
	/** the recorded --stop-ci decisions re-decided from the trace: stops[i]
	 *  for d->stops[i] (bs_duet_stops_redecide), NULL when none */
	const struct bs_dstop *stops;
	/** the outcome, with the regression gate's result (gate false: none) */
	const struct bs_duet_outcome *oc;
};

/** Version of the duet JSON report's layout ("schema_version"). */
#define BS_DUET_JSON_SCHEMA_VERSION 2

/** The report as aligned text (md false) or Markdown (md true). Returns 0 or -EIO. */
int bs_duet_render_table(FILE *f, const struct bs_duet_ctx *c, bool md);

/** The JSON report object (caller puts it), or NULL when out of memory. */
json_object *bs_duet_render_json_object(const struct bs_duet_ctx *c);
/** Write the JSON report, pretty-printed. Returns 0, -ENOMEM or -EIO. */
int bs_duet_render_json(FILE *f, const struct bs_duet_ctx *c);

/**
 * bs_duet_render_csv - one row per analysed iteration: the duet package's
 * processed columns (suite, benchmark, type, runid, pair, iteration,
 * iteration_start_ns, iteration_end_ns, iteration_time_ns), then ours
 * (see docs/json-schema.md "Duet CSV"). Returns 0 or -EIO.
 */
int bs_duet_render_csv(FILE *f, const struct bs_duet_ctx *c);

/** The one-line error of a --plot name that is neither .svg nor .png (one %s: the name). */
#define BS_PLOT_USAGE "--plot wants a file name ending in .svg or .png, not '%s'"

/**
 * bs_duet_plot_format - the picture format --plot's @path names: 1 for
 * .svg, 0 for .png, -EINVAL for any other name (checked when the option
 * is parsed, by duet and report, and again by bs_duet_render_plot).
 */
int bs_duet_plot_format(const char *path);

/**
 * bs_duet_render_plot - the overlap timeline picture at @path (.svg or
 * .png; anything else is -EINVAL): one lane per run and side, time since
 * the run start, paired iterations highlighted, interference marked; drawn
 * by running gnuplot on a generated script and data file. Returns 0;
 * -ENOENT when gnuplot is missing, -EINVAL, -EIO (gnuplot failed) with a
 * one-line reason in @err.
 */
int bs_duet_render_plot(const char *path, const struct bs_duet_ctx *c, char *err, size_t errlen);

#endif
