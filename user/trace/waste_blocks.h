/* SPDX-License-Identifier: MIT */
/*
 * waste_blocks.h - the EVENT blocks of a `benchscope waste` trace, decoded
 * once into typed structs (waste/report.c writes them and renders from these
 * structs only). The blocks, one JSON object each:
 *
 *   {"waste":"ctx","id":N,"frames":"LEAF;...;ROOT"}          a calling context
 *   {"waste":"pair","kind":"dead-store","wasteful":true,
 *    "bytes":8,"ctx1":N,"ctx2":N,"tid":N,"ns":N}             one classified pair
 *   {"waste":"summary","summary":{...}}                      the facts of the run
 *
 * Kinds, pairs and wasteful bytes after Su et al. 2019 (JXPerf; see
 * docs/references.md). Every member documented below is required with the
 * type given: a block that lacks one, or holds another type, is refused with
 * -EBADMSG and a one-line message naming the block and the key path, in
 * block_field.h's form (corrupted waste summary: "overhead.ratio" is missing
 * (a number or null)). Only "overhead" and its "periods" may be missing,
 * and only "baseline_ns", "ratio" and a period step's "window_pct" null. Events of other tools (no
 * "waste" member) and waste blocks of types this build does not know are
 * skipped.
 */
#ifndef BENCHSCOPE_WASTE_BLOCKS_H
#define BENCHSCOPE_WASTE_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/** What a decoded EVENT block is. */
enum bs_waste_block_type {
	BS_WBLK_OTHER = 0,   /**< not a waste block (skipped) */
	BS_WBLK_CTX = 1,     /**< "ctx" */
	BS_WBLK_PAIR = 2,    /**< "pair" */
	BS_WBLK_SUMMARY = 3, /**< "summary" */
};

/** A calling context: "id" (integer, 0..2^26), "frames" (string). */
struct bs_waste_ctx_block {
	uint32_t id;	    /**< the id pairs refer to (ctx1, ctx2) */
	const char *frames; /**< frames joined with ";", leaf first; owned by the block */
};

/**
 * One classified pair (a sampled access and the next access to its address):
 * "kind" (string), "wasteful" (boolean), "bytes", "ctx1", "ctx2", "tid"
 * (integers, 0..2^32-1), "ns" (integer, >= 0).
 */
struct bs_waste_pair_block {
	const char *kind; /**< kind name ("dead-store", "silent-store", "silent-load");
			       owned by the block, mapped by waste/class.h */
	bool wasteful;	  /**< the next access made the first one wasteful */
	uint32_t bytes;	  /**< bytes watched */
	uint32_t ctx1;	  /**< context id of the sampled (first) access */
	uint32_t ctx2;	  /**< context id of the next access */
	uint32_t tid;	  /**< thread of the next access */
	uint64_t ns;	  /**< CLOCK_MONOTONIC of the next access, ns */
};

/**
 * One action of the overhead controller that changed the sampling period
 * (an element of the summary's "overhead"."periods", an array of objects;
 * the first element is the period at start).
 */
struct bs_waste_period_step {
	uint64_t t_ns;	   /**< "t_ns": since the program started, ns (integer) */
	uint64_t period;   /**< "period": in force from then on: ns, events or ops (integer) */
	double window_pct; /**< "window_pct": the overhead estimated over the window (about
			      100 ms) that led to the change, percent; null (NaN) at start */
};

/** The overhead of the run (summary member "overhead", an object). */
struct bs_waste_overhead {
	double run_ns;		     /**< "run_ns": the run with benchscope, ns */
	double baseline_ns;	     /**< "baseline_ns": the run without, ns; null: NaN */
	double ratio;		     /**< "ratio": run_ns / baseline_ns; null: NaN */
	double trap_ns;		     /**< "trap_ns": one watchpoint trap, ns */
	double sample_ns;	     /**< "sample_ns": one stop and continue of the program, ns */
	double handling_ns;	     /**< "handling_ns": handling of one sample, ns */
	double budget_pct;	     /**< "budget_pct": --overhead, percent */
	double estimated_pct;	     /**< "estimated_pct": the controller's overhead, percent */
	double trap_cost_ns;	     /**< "trap_cost_ns": traps x each CPU's trap cost (optional) */
	double stop_cost_ns;	     /**< "stop_cost_ns": the program stopped (optional) */
	double program_cpu_ns;	     /**< "program_cpu_ns": its CPU time (optional: NaN) */
	int64_t maxrss_kib;	     /**< "maxrss_kib": peak RSS of the program, KiB */
	int64_t baseline_maxrss_kib; /**< "baseline_maxrss_kib": without benchscope, KiB */
	int64_t tool_maxrss_kib;     /**< "tool_maxrss_kib": of benchscope itself, KiB */
	struct bs_waste_period_step *periods; /**< "periods" (optional: traces of earlier
						 builds lack it): the period over time, in
						 time order; owned (NULL: none) */
	size_t nperiods;
};

/**
 * The facts of a run (block "summary", member "summary", an object). Strings
 * are "command", "source" ("timer" | "pebs" | "ibs"; "soft" and "pmu" in
 * traces of earlier builds), "kinds" (comma-separated kind names);
 * "period_ns" and "final_period_ns" are numbers (NaN for a PMU source), "period" and the counters
 * non-negative integers, "debug_registers" an integer, "freeze" a boolean; "overhead" is optional
 * (an object, see struct bs_waste_overhead). A zeroed struct (present false, strings NULL) stands
 * for a trace without a summary (e.g. killed before the end).
 */
struct bs_waste_summary {
	bool present;		 /**< decoded from a summary (false: zeroed, nothing known) */
	const char *command;	 /**< the profiled command line, or "-p PID" */
	const char *source;	 /**< "timer" (+ capstone), "pebs", "ibs" (old: "soft", "pmu") */
	const char *kinds;	 /**< the kinds profiled, e.g. "dead-store,silent-load" */
	double period_ns;	 /**< soft: sampling period at start, ns (NaN for pmu) */
	double final_period_ns;	 /**< soft: sampling period at the end, ns (NaN for pmu) */
	uint64_t period;	 /**< period at start: ns (soft) or events (pmu) */
	int64_t debug_registers; /**< watchpoints per thread */
	bool freeze;		 /**< watchpoints armed while the thread was stopped */
	uint64_t samples, samples_access, armed, reservoir_drops, unreadable; /**< samples */
	uint64_t hits, unresolved, noself, stale_hits; /**< next accesses (pairs) */
	uint64_t threads, processes, lost;	       /**< threads, processes, lost records */
	uint64_t threads_unfollowed;   /**< new threads not followed (optional: 0) */
	uint64_t processes_unfollowed; /**< forked processes not followed, map full (optional: 0) */
	uint64_t
	    stops_late; /**< frozen samples dropped, their stop not seen in time (optional: 0) */
	uint64_t
	    sigtraps_program; /**< SIGTRAPs the kernel generated for the program (optional: 0) */
	const char *first_sigtrap; /**< "first_sigtrap": the first of sigtraps_program,
				    *   described (bs_waste_trap_describe); NULL when
				    *   absent (none, or an older trace) */
	int64_t top;		   /**< "top": `--top`, pairs in the table; -1 when absent */
	int64_t depth;		   /**< "depth": `--depth`, frames per stack; -1 when absent */
	bool has_overhead;	   /**< "overhead" was present */
	struct bs_waste_overhead overhead;
	bool truncated;	   /**< set by the trace loader: the trace ended early */
	json_object *json; /**< the summary object as recorded (one reference, owned):
			      passed through to the JSON export, never read by key */
};

/**
 * bs_waste_summary_decode - decode the summary object @o into @s (zeroed
 * first). @s takes a reference on @o; its strings belong to @o.
 * Returns 0, or -EBADMSG with a one-line message naming the key in @err
 * (then @s is zeroed and holds nothing).
 */
int bs_waste_summary_decode(json_object *o, struct bs_waste_summary *s, char *err, size_t errlen);

/** Drop @s's reference, free its periods and zero it (NULL-safe for a zeroed struct). */
void bs_waste_summary_free(struct bs_waste_summary *s);

/** One decoded EVENT block. */
struct bs_waste_block {
	enum bs_waste_block_type type;
	union {
		struct bs_waste_ctx_block ctx;
		struct bs_waste_pair_block pair;
		struct bs_waste_summary summary; /**< move it out by clearing .json */
	} u;
	json_object *json; /**< the parsed block (owned): the strings above point into it */
};

/**
 * bs_waste_block_decode - decode the EVENT block payload @payload (@len
 * bytes of JSON text, not NUL-terminated) into @b.
 * Returns 1 (a waste block: b->type says which), 0 (not a waste block, or a
 * payload that is not JSON: skipped, @b holds nothing), or -EBADMSG with a
 * one-line message naming the key in @err (@b holds nothing).
 * Free a decoded block with bs_waste_block_free().
 */
int bs_waste_block_decode(const void *payload, uint32_t len, struct bs_waste_block *b, char *err,
			  size_t errlen);

/** Free what @b holds and zero it (NULL-safe for a zeroed block). */
void bs_waste_block_free(struct bs_waste_block *b);

/**
 * bs_waste_context_is_waste - whether the CONTEXT block payload @payload
 * (@len bytes of JSON text) was written by `benchscope waste` (its "tool"
 * is the string "waste"). 0 for anything else, a payload that is not JSON
 * included.
 */
int bs_waste_context_is_waste(const void *payload, uint32_t len);

#endif
