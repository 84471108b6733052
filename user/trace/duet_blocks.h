/* SPDX-License-Identifier: MIT */
/*
 * duet_blocks.h - the blocks of a duet trace (docs/duet-trace.md) decoded
 * once into typed structs: the CONTEXT's `duet` object and the machine keys
 * a duet report prints, and every `duet_run` EVENT. Readers (user/duet/)
 * use these structs, never the JSON by key. A key the format requires that
 * is missing, or any key of the wrong type, is refused at decode time.
 * Source of the duet method: Drozdík 2023 §3-4 (sequential, synchronized
 * and asynchronous duets).
 */
#ifndef BENCHSCOPE_DUET_BLOCKS_H
#define BENCHSCOPE_DUET_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/dataset.h"

/** Methods, in the analysis' order (also the index of per-method arrays). */
enum bs_dmethod { BS_DM_SEQ = 0, BS_DM_SYNC = 1, BS_DM_ASYNC = 2, BS_DM_ILV = 3, BS_DM_N = 4 };

/** "seq", "sync", "async", "interleaved" (the trace's `method` values); "?"
 * when out of range. */
const char *bs_dmethod_name(enum bs_dmethod m);
/** Method from "seq"/"seqn"/"sequential", "sync"/"syncduet"/"sduet",
 * "async"/"duet"/"aduet", "interleaved"; -1 when unknown (or @s NULL). */
int bs_dmethod_parse(const char *s);

/** bs_dataset_is_duet - the trace's CONTEXT says "mode": "duet". */
bool bs_dataset_is_duet(const struct bs_dataset *ds);

/*
 * Strings below point into the dataset's JSON blocks: valid while the
 * dataset they were decoded from lives. NULL means absent or JSON null.
 */

/** A noise check's recommendation (its "recommendation" object, and its
 * "duration_s"), docs/json-schema.md "Noise check". */
struct bs_duet_noise_rec {
	bool present;	      /**< the check is in the trace */
	const char *design;   /**< recommendation.design (required string): "parallel",
			       *   "one-cpu", "sequential" */
	const char *why;      /**< recommendation.why (required string) */
	int64_t cpu_a, cpu_b; /**< recommendation.cpu_a, cpu_b (required integers) */
	double duration_s;    /**< duration_s (number, s), or 0 */
};

/** The CONTEXT of a duet trace: its `duet` object and the machine keys. */
struct bs_duet_context {
	bool has_duet;	       /**< the `duet` object is present */
	const char *benchmark; /**< duet.benchmark (string), or NULL */
	const char *source;    /**< duet.source (string), or NULL */
	const char *suite;     /**< duet.suite (string, imports), or NULL */
	bool has_aa, aa;       /**< duet.aa (boolean): A/A test */
	bool has_min_overlap;  /**< duet.min_overlap is present */
	double min_overlap;    /**< duet.min_overlap (number, ratio), or 0 */
	bool no_mds;	       /**< duet.no_mds (boolean): `duet --no-mds`; false when absent */
	bool has_fail_pct;     /**< duet.fail_on_regression_pct is present */
	double fail_pct;       /**< duet.fail_on_regression_pct (number >= 0, %): the duet's
				*   --fail-on-regression, or 0 */
	bool has_seed;	       /**< duet.seed is present */
	uint64_t seed;	       /**< duet.seed (integer >= 0): the schedule's and bootstrap's seed */
	uint64_t resamples;    /**< duet.resamples (integer >= 1): `duet --resamples`, the
				*   bootstrap's resamples; 0 when absent */
	const char *kernel;    /**< kernel (string, `uname -r`), or NULL */
	const char *cpu_model; /**< cpu_model (string), or NULL */
	bool has_ncpus;	       /**< ncpus is present */
	int64_t ncpus;	       /**< ncpus (integer, online CPUs), or 0 */
	const char *hypervisor;		/**< hypervisor (string), or NULL */
	const char *picked_by;		/**< duet.design.picked_by (string): "auto", "option"; NULL
					 *   when absent (traces before --method auto) */
	const char *design_methods;	/**< duet.design.methods (string), or NULL */
	const char *design_why;		/**< duet.design.why (string): auto's reason, or NULL */
	struct bs_duet_noise_rec noise; /**< duet.noise_check (object), the check before the runs */
	char degraded[160]; /**< bs_context_degraded()'s line, "" when nothing is lacking */
};

/** One side (A or B) of a `duet_run` event: its `sides.A` or `sides.B`. */
struct bs_duet_run_side {
	uint32_t pid; /**< pid (required integer in [0, 2^32)): root process; 0 = never spawned */
	const char *failed; /**< failed (string): why the side failed, or NULL */
};

/** One `duet_run` EVENT: one A+B run of one method. */
struct bs_duet_run_event {
	size_t event;		  /**< index of the event in the dataset's events */
	int run;		  /**< run (required integer >= 0): execution order, all methods */
	enum bs_dmethod method;	  /**< method (required string, bs_dmethod_parse) */
	bool has_index;		  /**< index is present */
	int index;		  /**< index (integer): 0-based within its method, or 0 */
	char order[3];		  /**< order (string "AB" or "BA"), "" when absent */
	int64_t start_ns, end_ns; /**< start_ns, end_ns (integer ns, CLOCK_MONOTONIC), or 0 */
	bool ok;		  /**< ok (required boolean) */
	const char *reason;	  /**< reason (string) of a failed run, or NULL */
	const char *benchmark;	  /**< benchmark (string, imports: the run's benchmark), or NULL */
	bool crossover;		  /**< crossover (boolean): the run started with A and B's
				   *   CPUs exchanged; false when absent */
	int cpu_swaps;		  /**< cpu_swaps (integer >= 0): CPU exchanges within the
				   *   run (--swap-every); 0 when absent */
	struct bs_duet_run_side side[2]; /**< sides (required object): [0] = A, [1] = B */
};

/** A `noise_check` EVENT: the check repeated between rounds (--noise-every). */
struct bs_duet_noise_event {
	size_t event;		      /**< index of the event in the dataset's events */
	int before_run;		      /**< before_run (required integer >= 0) */
	struct bs_duet_noise_rec rec; /**< check (required object) */
};

/**
 * One `duet_stop_check` EVENT: a decision of `duet --stop-ci` after a run
 * (user/duet/stop_ci.h). Events written before the rule used the verdict's
 * model have no `interval` key: has_model is false and the model keys are
 * unset.
 */
struct bs_duet_stop_event {
	size_t event;		/**< index of the event in the dataset's events */
	int after_run;		/**< after_run (required integer >= 0): the run it follows */
	enum bs_dmethod method; /**< method (required string): the primary method */
	uint64_t runs_ok;	/**< runs_ok (required integer >= 0): ok runs of the method */
	uint64_t min_runs;	/**< min_runs (required integer >= 0): MIN of --runs MIN:MAX */
	double threshold;	/**< threshold (required number): --stop-ci WIDTH */
	double width;		/**< rel_ci_width (required number or null): the width the
				 *   rule compared, NAN when null (no interval) */
	bool stop;		/**< decision (required "stop" or "continue") */
	const char *reason;	/**< reason (string), or NULL */
	bool decided;		/**< decided (optional boolean, absent: true): false when the
				 *   check reached no decision (the trace could not be read
				 *   back, ...); also false for the "no decision: ..." reason
				 *   of older traces, whose level and min_overlap were 0.
				 *   Such an event is not re-decided and its level and
				 *   min_overlap are not checked */
	bool has_model;		/**< interval is "run_model": the keys below are present */
	double level;		/**< level (number in (0, 1)): the interval's confidence */
	bool cpu_terms;		/**< cpu_terms (boolean): placement terms in the model */
	double min_overlap;	/**< min_overlap (number in (0, 1)): async pairing threshold */
	bool drop_warmup_half;	/**< drop_warmup_half (boolean) */
};

/** A duet trace's decoded blocks. */
struct bs_duet_blocks {
	struct bs_duet_context ctx;
	struct bs_duet_run_event *runs; /**< n_runs `duet_run` events, in trace order */
	size_t n_runs;
	struct bs_duet_noise_event *rechecks; /**< n_rechecks `noise_check` events */
	size_t n_rechecks;
	struct bs_duet_stop_event *stops; /**< n_stops `duet_stop_check` events, trace order */
	size_t n_stops;
};

/**
 * bs_duet_blocks_decode - decode @ds's CONTEXT, its `duet_run`,
 * `noise_check` and `duet_stop_check` events into *out (zeroed first; other
 * event kinds are skipped). The CONTEXT's
 * `mode` is not checked (bs_dataset_is_duet). Optional keys may be absent
 * or null; a present key must have its documented type.
 * Returns 0; -EBADMSG with one line in @err naming the block ("CONTEXT", or
 * "EVENT i (duet_run, run r)", "EVENT i (noise_check)", "EVENT i
 * (duet_stop_check)", i 0-based among
 * the trace's events) and the
 * key path, in block_field.h's form (corrupted EVENT 3 (duet_run, run 2):
 * "sides.B.pid" is a string, expected an integer), when a required key is
 * missing or null or a key has the wrong type or an out-of-range value;
 * -ENOMEM.
 * Free with bs_duet_blocks_free (also after an error).
 */
int bs_duet_blocks_decode(const struct bs_dataset *ds, struct bs_duet_blocks *out, char *err,
			  size_t errlen);

/** Free what bs_duet_blocks_decode allocated in @b (NULL-safe); @b is zeroed. */
void bs_duet_blocks_free(struct bs_duet_blocks *b);

#endif
