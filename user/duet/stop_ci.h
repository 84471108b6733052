/* SPDX-License-Identifier: MIT */
/*
 * stop_ci.h - the rule of `duet --stop-ci WIDTH --runs MIN:MAX`, on the
 * verdict's own interval: after a run, the primary method's runs so far go
 * through the same pairing and run-level model as the verdict
 * (bs_duet_method_model: one ln(B/A) per run, CPU placement terms, Student
 * t interval [lo, hi] of ln(B/A); stats_duet_model.h), and the rule stops
 * once, for every benchmark, the relative width of the interval of B/A,
 * exp(hi) - exp(lo) (= (hi_pct - lo_pct) / 100 of the printed CI), is at
 * most WIDTH, with at least MIN ok runs of the method. A benchmark whose
 * model cannot be fitted yet (too few runs, placement confounded with the
 * version, no spread) has no width: the rule goes on and says why.
 *
 * It decides from a duet data model (duet/data.h) built from the trace, so
 * that the runner (run_stop.c, on the trace written so far) and `benchscope
 * report` (re-deciding every recorded `duet_stop_check` EVENT,
 * docs/duet-trace.md) compute the same figures from the same blocks.
 * Sources: Kalibera & Jones 2013 §4 (the run as the unit), Jones & Kenward
 * 2014 §2 (crossover).
 */
#ifndef BENCHSCOPE_DUET_STOP_CI_H
#define BENCHSCOPE_DUET_STOP_CI_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duet/analysis.h"
#include "duet/data.h"

/** One benchmark of a decision. */
struct bs_dstop_bench {
	const char *name; /**< the benchmark (points into the data model) */
	size_t runs;	  /**< its ok runs of the method up to the decision */
	int model_err;	  /**< BS_OK or bs_dmodel_fit's error (BS_ECONFOUNDED, ...) */
	double width;	  /**< exp(hi) - exp(lo) of the model's interval; NAN without one */
	char why[240];	  /**< "" or why there is no width (bs_duet_model_err_text) */
};

/** One decision of the rule. */
struct bs_dstop {
	int after_run;		       /**< the run it follows (0-based over all methods) */
	enum bs_dmethod method;	       /**< the primary method */
	size_t runs_ok;		       /**< ok runs of the method with run <= after_run */
	size_t min_runs;	       /**< MIN of --runs MIN:MAX */
	double threshold;	       /**< WIDTH of --stop-ci, a ratio (0.02 = 2 points of %) */
	struct bs_danalysis_opts opts; /**< the analysis options used, defaults filled */
	double width;		       /**< the width the rule compares: the largest over the
					*   benchmarks; NAN when one has none or none exists */
	struct bs_dstop_bench *bench;  /**< n_bench benchmarks with runs of the method */
	size_t n_bench;
	bool stop;	  /**< runs_ok >= min_runs and width <= threshold */
	bool undecided;	  /**< no decision could be computed (the trace could not be
			   *   read back, ...): stop is false, width NAN, the reason
			   *   says why; its event says "decided": false */
	char reason[400]; /**< one line: why stop or continue */
};

/**
 * bs_duet_stop_decide - the decision after run @after_run on @d's runs of
 * method @m with run <= after_run (runs after it are ignored, so a finished
 * trace re-decides each recorded check). @o gives min_overlap,
 * drop_warmup_half, level and no_cpu (zero fields: bs_danalysis_opts_fill's
 * defaults, min_overlap from @d's CONTEXT); the bootstrap fields are not
 * used. Every benchmark with at least one such run counts. Returns 0,
 * -EINVAL (bad options, m out of range) or -ENOMEM; free *out with
 * bs_dstop_free (also after an error).
 */
int bs_duet_stop_decide(const struct bs_duet_data *d, int after_run, enum bs_dmethod m,
			size_t min_runs, double threshold, const struct bs_danalysis_opts *o,
			struct bs_dstop *out);

/** bs_dstop_free - free out->bench; idempotent. */
void bs_dstop_free(struct bs_dstop *s);

/**
 * bs_dstop_event - the EVENT {"kind": "duet_stop_check", ...} of @s
 * (docs/duet-trace.md): after_run, method, runs_ok, min_runs, threshold,
 * "interval": "run_model", level, cpu_terms, min_overlap, drop_warmup_half,
 * rel_ci_width (null without one), benchmarks[] (name, runs, rel_ci_width,
 * status), decided (false when s->undecided), decision, reason, compute_ns
 * (@compute_ns). New object, or NULL when out of memory.
 */
json_object *bs_dstop_event(const struct bs_dstop *s, uint64_t compute_ns);

/**
 * bs_dstop_opts_of_event - the analysis options a recorded decision used
 * (has_model events): min_overlap, drop_warmup_half, level, no_cpu.
 */
struct bs_danalysis_opts bs_dstop_opts_of_event(const struct bs_duet_stop_event *e);

/**
 * bs_dstop_same - the recomputed decision @s agrees with the recorded @e:
 * the same decision and runs_ok, and widths both absent or equal within
 * 1e-9 relative (the trace stores doubles with 17 digits).
 */
bool bs_dstop_same(const struct bs_dstop *s, const struct bs_duet_stop_event *e);

/**
 * bs_duet_stops_redecide - re-decide every recorded `duet_stop_check` of
 * @d (d->stops) from @d alone, with the options the event records
 * (bs_dstop_opts_of_event): (*out)[i] for d->stops[i]; an event without
 * them (has_model false: written by a benchscope whose rule used the
 * bootstrap CI) or that reached no decision when recorded (decided false)
 * gets a zeroed decision with width NAN and reason saying so; neither is
 * re-decided.
 * *out is NULL when d has no such event. Returns 0 or -ENOMEM; free with
 * bs_dstops_free(*out, d->n_stops).
 */
int bs_duet_stops_redecide(const struct bs_duet_data *d, struct bs_dstop **out);

/** bs_dstops_free - free @n decisions of bs_duet_stops_redecide (NULL-safe). */
void bs_dstops_free(struct bs_dstop *s, size_t n);

#endif
