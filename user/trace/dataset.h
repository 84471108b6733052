/* SPDX-License-Identifier: MIT */
/*
 * dataset.h - the in-memory model of one trace: every block loaded, in trace
 * order, ready for summaries and renderers. The trace is the single source
 * of truth; nothing here depends on the machine that reads it.
 */
#ifndef BENCHSCOPE_DATASET_H
#define BENCHSCOPE_DATASET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "benchscope/record.h"
#include "trace/context.h"
#include "trace/end.h"
#include "trace/events.h"
#include "trace/proc_inst.h"
#include "util/json.h" /* bs_json_get and the other accessors, for the blocks */

/*
 * The JSON blocks are kept as written (the JSON export copies them, and
 * readers of other trace kinds - duets, waste - look at their own keys); a
 * single or forked run's keys are decoded once, at load, into run_ctx,
 * run_end and run_ev, and the run report reads those.
 */
struct bs_dataset {
	json_object *context;	       /**< CONTEXT block (an object; {} if absent) */
	json_object *end;	       /**< END block, or NULL if the run did not finish */
	json_object *events;	       /**< array of EVENT objects, in trace order */
	struct bs_run_context run_ctx; /**< CONTEXT, decoded (strings point into context) */
	struct bs_run_end run_end;     /**< END, decoded (present == 0 without END) */
	struct bs_run_events run_ev;   /**< fork, stop_decision, warning and note events */
	struct bs_iter_rec *iters;     /**< in trace order */
	size_t n_iters;
	struct bs_proc_rec *procs;
	size_t n_procs;
	struct bs_interferer_rec *interferers;
	size_t n_interferers;
	struct bs_bench_rec *benches; /**< benchmark names, by process (pid, instance), then
				       *   ts_ns (NUL-terminated) */
	size_t n_benches;
	struct bs_proc_inst *proc_inst; /**< process instances (proc_inst.h); NULL: all 0 */
	uint32_t *iter_inst;		/**< instance of iters[i]; NULL: all 0 */
	uint32_t *bench_inst;		/**< instance of benches[i]; NULL: all 0 */
	int truncated;			/**< the stream ended early (writer killed): prefix only */
	size_t n_blocks;		/**< complete blocks loaded (SCHEMA and CONTEXT included) */
	bool has_context; /**< a CONTEXT block was loaded (a trace cut before it has none) */
	unsigned version; /**< trace format version of the file: major << 16 | minor */
	char *path;	  /**< file it was loaded from */
};

/**
 * bs_dataset_load - read the trace @path completely into *out.
 *
 * A truncated trace loads every complete block and sets truncated.
 * Errors (return -errno, *out untouched, one-line message in @err):
 * cannot open/read (-errno), not a trace / unknown major format version
 * (-EPROTO), corrupted data or blocks (-EBADMSG: bad compressed data, a
 * record block of the wrong size, a JSON block that is not an object, a
 * SCHEMA that does not match this build's records, a CONTEXT, END or EVENT
 * key of the wrong type or a required EVENT key missing - the message names
 * the block and the key; see context.h, end.h, events.h), out of memory.
 */
int bs_dataset_load(const char *path, struct bs_dataset **out, char *err, size_t errlen);

/*
 * The loader in steps, for readers that find several traces in one file
 * (fleets, fleet/fleet.h): new, then add every block of one trace in order
 * (SCHEMA first), then finish. Errors as for bs_dataset_load, without the
 * path prefix. finish frees the builder on success only; free it otherwise.
 */
struct bs_dataset_builder;
/** Start a dataset named @path (its `path`). Returns 0 or -ENOMEM. */
int bs_dataset_builder_new(const char *path, struct bs_dataset_builder **out, char *err,
			   size_t errlen);
/** Add one block (kind, payload, len) as bs_trace_next() returned it. */
int bs_dataset_builder_add(struct bs_dataset_builder *b, uint32_t kind, const void *payload,
			   uint32_t len, char *err, size_t errlen);
/** Decode CONTEXT and END and hand the dataset over in *out. */
int bs_dataset_builder_finish(struct bs_dataset_builder *b, int truncated, unsigned version,
			      struct bs_dataset **out, char *err, size_t errlen);
/** Free a builder and what it holds (NULL-safe). */
void bs_dataset_builder_free(struct bs_dataset_builder *b);

/**
 * bs_dataset_bench_name - the benchmark process @pid was running at @ts_ns
 * (CLOCK_MONOTONIC ns, e.g. an iteration's begin_ns): the name of the last
 * BENCH record with ts_ns <= @ts_ns of the same process instance (a
 * process that reused the pid of an earlier one does not inherit its
 * names; proc_inst.h), or NULL when the harness named none (presets
 * without names, traces from before format 1.1).
 */
const char *bs_dataset_bench_name(const struct bs_dataset *ds, uint32_t pid, uint64_t ts_ns);

/**
 * bs_dataset_proc_instance - which of the processes that held @pid in @ds
 * ran at @ts_ns (CLOCK_MONOTONIC ns; 0: unknown): its instance, from 0 in
 * time order (proc_inst.h). 0 for every record of a trace without pid
 * reuse or without PROC records.
 */
uint32_t bs_dataset_proc_instance(const struct bs_dataset *ds, uint32_t pid, uint64_t ts_ns);

/**
 * bs_dataset_iter_instance - the process instance of iteration @r (a record
 * of @ds, or a copy of one): that of its pid at its begin_ns. Together with
 * r->pid, the process the iteration belongs to; group by both, never by the
 * pid alone.
 */
uint32_t bs_dataset_iter_instance(const struct bs_dataset *ds, const struct bs_iter_rec *r);

/**
 * bs_dataset_truncation_text - what a truncated trace @ds still holds, for
 * the readers' warnings, into @buf: "truncated after 396 blocks holding
 * 3960 iteration records" (blocks of any kind, SCHEMA and CONTEXT
 * included; iteration records of every process and side). Returns @buf.
 */
char *bs_dataset_truncation_text(const struct bs_dataset *ds, char *buf, size_t len);

/** Free a dataset (NULL-safe). */
void bs_dataset_free(struct bs_dataset *ds);

#endif
