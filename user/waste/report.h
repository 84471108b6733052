/* SPDX-License-Identifier: MIT */
/*
 * report.h - the results of `benchscope waste`: calling contexts,
 * aggregated pairs and run facts; rendered as a table, folded stacks
 * (flame-graph input) or JSON; written to and read back from the trace as
 * EVENT blocks ({"waste":"ctx"|"pair"|"summary", ...}), so that
 * `benchscope waste --from-trace TRACE` prints what the run printed.
 */
#ifndef BENCHSCOPE_WASTE_REPORT_H
#define BENCHSCOPE_WASTE_REPORT_H

#include <json-c/json.h>
#include <stdio.h>

#include "trace/waste_blocks.h"
#include "waste/class.h"

struct bs_trace_writer;

/** Interned calling contexts: frames leaf first, joined with ";". */
struct bs_waste_ctxtab {
	char **s;
	size_t n, cap;
	uint32_t *hash; /* open addressing: id + 1, 0 empty */
	size_t hcap;
};

/**
 * bs_waste_ctx_intern - the id of context @frames (a string of frames
 * joined with ";", leaf first), adding it when new (*is_new = 1).
 * Returns the id, or -ENOMEM.
 */
long bs_waste_ctx_intern(struct bs_waste_ctxtab *t, const char *frames, int *is_new);
/** Free the table's contents. */
void bs_waste_ctx_free(struct bs_waste_ctxtab *t);

/** Everything a report shows. */
struct bs_waste_result {
	struct bs_waste_agg agg;
	struct bs_waste_ctxtab ctx;
	struct bs_waste_summary sum; /**< run facts (source, period, counters, overhead) */
};

/** Free a result's contents. */
void bs_waste_result_free(struct bs_waste_result *r);

/** Trace: the EVENT of a new context @id. 0 or -errno. */
int bs_waste_trace_ctx(struct bs_trace_writer *w, uint32_t id, const char *frames);
/** Trace: one classified pair outcome. 0 or -errno. */
int bs_waste_trace_pair(struct bs_trace_writer *w, const struct bs_waste_outcome *o, uint32_t bytes,
			uint32_t ctx1, uint32_t ctx2, uint32_t tid, uint64_t ns);
/** Trace: the summary (a copy of @summary). 0 or -errno. */
int bs_waste_trace_summary(struct bs_trace_writer *w, json_object *summary);

/**
 * bs_waste_load_trace - rebuild a result from trace @path (contexts, pairs,
 * summary), each block decoded once by trace/waste_blocks.h. 0; -EPROTO when
 * the trace holds no waste records (err says so); -EBADMSG when a waste block
 * lacks a member or holds one of another type, a pair names an unknown kind
 * or a context no ctx block defined before it (err names the key); -errno
 * with a one-line reason in @err otherwise. A truncated trace loads what it
 * holds, and the summary says "truncated" (r->sum.truncated, and the member
 * "truncated" of r->sum.json).
 */
int bs_waste_load_trace(const char *path, struct bs_waste_result *r, char *err, size_t errlen);

/** Bars of the period-over-time line of the report. */
#define BS_WASTE_SPARK_WIDTH 32

/**
 * bs_waste_period_slices - the period over a run of @end_ns ns cut into
 * @width equal slices: v[k] the time-weighted mean of ln(period) over slice
 * k, from the steps @st[0..n) (each in force from its t_ns to the next's;
 * the first also before its t_ns). NaN for every slice when @n is 0 or
 * @end_ns not positive. Pure.
 */
void bs_waste_period_slices(const struct bs_waste_period_step *st, size_t n, double end_ns,
			    double *v, size_t width);

/**
 * bs_waste_print - the human report: run facts, per-kind fractions, the top
 * @top pairs with both stacks (at most @depth frames each), the overhead:
 * the controller's estimate next to the budget, and the period over the
 * run as bars (UTF-8 on a UTF-8 terminal, else ASCII: util/sparkline.h)
 * with its first changes.
 */
void bs_waste_print(FILE *f, const struct bs_waste_result *r, int top, int depth);

/**
 * bs_waste_print_folded - one line per wasteful pair:
 * "KIND;ROOT;...;LEAF1;-- next --;ROOT;...;LEAF2 BYTES" (frames root first).
 */
void bs_waste_print_folded(FILE *f, const struct bs_waste_result *r);

/** The JSON document: {"summary":{...},"kinds":{...},"pairs":[...]}. Caller puts it. */
json_object *bs_waste_json(const struct bs_waste_result *r, int top);

#endif
