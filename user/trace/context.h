/* SPDX-License-Identifier: MIT */
/*
 * context.h - a trace's CONTEXT block decoded once into typed fields: the
 * recording machine, the command, the boundaries, the probe cost and the
 * configuration of a forked run (the block is built by probe/context.h and
 * cmd/run.c; its keys in docs/json-schema.md, "context" and "stoppage").
 *
 * Every key may be missing (older traces, imports, duets): absent strings
 * are NULL, absent numbers NaN, absent flags -1, each as documented below.
 * A key present with another type than the schema's is an error.
 */
#ifndef BENCHSCOPE_CONTEXT_H
#define BENCHSCOPE_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/** CONTEXT member "stop": the configuration of `run --stop` / `--forks`. */
struct bs_stop_config {
	int present;		  /**< the member exists (a forked run) */
	const char *criterion;	  /**< "none", "cv", "rciw", "kld"; NULL if absent */
	double threshold;	  /**< t; NaN if absent (criterion none) */
	uint64_t window;	  /**< s_W, iterations; 0 if absent */
	uint64_t wi_min, wi_max;  /**< "warmup" [wi_min, wi_max], iterations; 0 if absent */
	uint64_t mi;		  /**< "measure", measurement iterations per fork; 0 if absent */
	uint64_t f_min, f_max;	  /**< "forks" [f_min, f_max]; 0 if absent */
	struct json_object *json; /**< the member as written, for the JSON export's verbatim copy */
};

/** CONTEXT member "shard": `--shard I/N` (probe/shard.h). */
struct bs_shard_info {
	int present;		 /**< the member exists (a sharded run or duet) */
	int64_t index, count;	 /**< I (0-based) and N; -1 if absent */
	int64_t listed;		 /**< benchmarks the harness listed (the suite); -1 if absent */
	const char **benchmarks; /**< the shard's n_benchmarks names, sorted; NULL if absent */
	size_t n_benchmarks;
};

/** The CONTEXT block. Strings belong to the dataset's JSON (valid while it lives). */
struct bs_run_context {
	const char *tool, *version;   /**< "benchscope" and its version */
	const char *hostname, *clock; /**< clock of the timestamps, "CLOCK_MONOTONIC" */
	const char *kernel;	      /**< uname -r */
	const char *cpu_model;	      /**< from /proc/cpuinfo */
	const char *hypervisor;	      /**< NULL if absent (older traces) */
	const char *started_at;	      /**< ISO 8601 wall-clock time of the start */
	int64_t ncpus;		      /**< online CPUs; -1 if absent */
	int steal_accounting;	      /**< 1, 0 (steal_ns reads 0), or -1 if absent */
	int sched_info;		      /**< 1, 0 (sched_delay_ns reads 0), or -1 if absent */
	const char **command;	      /**< n_command words; NULL if absent */
	size_t n_command;
	/** "boundaries": kind ("uprobe", "usdt", "process", "gbench"), begin, end; NULL if absent
	 */
	const char *boundaries_kind, *boundaries_begin, *boundaries_end;
	/** boundaries.probes: probes per iteration (1: the end probe alone, reading the
	 * harness's own begin), 0 if absent; probes_choice how it was chosen, NULL if absent */
	int64_t probes;
	/** boundaries.charges "iteration": the interferer records carry their
	 *  iteration (bs_interferer_rec.victim_iter) */
	bool charges_by_iteration;
	const char *probes_choice;
	int has_probe_cost;	       /**< the member "probe_cost_ns" exists */
	double probe_cost_begin_ns;    /**< ns; NaN if absent or null */
	double probe_cost_end_ns;      /**< ns; NaN if absent or null */
	double probe_cost_per_iter_ns; /**< ns per iteration; NaN if absent or null */
	const char *probe_cost_method; /**< NULL if absent */
	struct bs_stop_config stop;
	struct bs_shard_info shard;
	int64_t top; /**< "top": `run --top N`, the interferers listed; -1 if absent */
};

/**
 * bs_run_context_decode - decode the CONTEXT object @ctx (NULL: an empty
 * context) into *out; the strings stay owned by @ctx. Returns 0, -ENOMEM,
 * or -EBADMSG with a one-line message in @err naming the key (a key of
 * another type, e.g. "ncpus" as a string). Free with bs_run_context_free().
 */
int bs_run_context_decode(struct json_object *ctx, struct bs_run_context *out, char *err,
			  size_t errlen);

/** Free what bs_run_context_decode() allocated (NULL-safe); *c is zeroed. */
void bs_run_context_free(struct bs_run_context *c);

/**
 * bs_run_context_degraded - what the recording machine lacked that makes
 * some figures read 0 (context keys "steal_accounting", "sched_info", from
 * the capability probes of caps.h), as one line in @buf (@len bytes); NULL
 * when nothing is lacking or the trace predates those keys.
 */
const char *bs_run_context_degraded(const struct bs_run_context *c, char *buf, size_t len);

/**
 * Where a trace's interferer charges (struct bs_interferer_rec) were taken:
 * the BPF programs charge a task for the CPU time it takes while a thread
 * they account waits for that CPU, and which threads they account depends
 * on the boundaries, not on which iterations the report analyses.
 */
enum bs_charge_scope {
	/** while the thread had an iteration open: every iteration the harness
	 *  ran, those a report leaves out (calibration, warmup) included */
	BS_CHARGES_ITERATIONS,
	/** per iteration (boundaries.charges "iteration"): a report sums those
	 *  of the iterations it analyses (bs_charge_counts) */
	BS_CHARGES_ANALYSED,
	/** one probe per iteration (boundaries.probes 1): every thread of the
	 *  measured processes, from its first switch-in to its exit */
	BS_CHARGES_THREADS,
	/** output-line boundaries (boundaries.kind "lines"): the writing threads,
	 *  from their first write to the harness's stdout or stderr on */
	BS_CHARGES_WRITES,
};

/** The charge scope of a trace with context @c (BS_CHARGES_ITERATIONS when
 *  the keys are absent: traces before one-probe mode). */
enum bs_charge_scope bs_run_context_charge_scope(const struct bs_run_context *c);

/** @s as the JSON exports name it: "iterations", "analysed", "threads" or
 *  "writes". */
const char *bs_charge_scope_name(enum bs_charge_scope s);

/** @s in words for a report's note, e.g. "in every iteration the harness
 *  ran, those left out of the statistics (calibration, warm-up) included". */
const char *bs_charge_scope_text(enum bs_charge_scope s);

/**
 * bs_context_degraded - bs_run_context_degraded() of the CONTEXT object
 * @ctx, decoded on the spot (for readers that still hold the JSON); NULL as
 * well when @ctx does not decode.
 */
const char *bs_context_degraded(struct json_object *ctx, char *buf, size_t len);

#endif
