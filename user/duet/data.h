/* SPDX-License-Identifier: MIT */
/*
 * data.h - a duet trace (docs/duet-trace.md) as per-benchmark,
 * per-method runs whose sides A and B are arrays of iterations (start, end,
 * score, interference), ready for benchscope/stats_duet.h. Failed runs are
 * excluded and counted; the harness's calibration runs are dropped and
 * each benchmark of the program is separated (trace/bench_groups.h: by the
 * harness's names where it has them), so A/B pairs are only formed within
 * one benchmark. Source: Drozdík 2023 §3-4.
 */
#ifndef BENCHSCOPE_DUET_DATA_H
#define BENCHSCOPE_DUET_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"
#include "benchscope/stats_duet.h"
#include "trace/dataset.h"
#include "trace/duet_blocks.h" /* enum bs_dmethod, bs_dmethod_name/parse, bs_dataset_is_duet */

/** The duet package's type value: "seqn", "syncduet", "duet". */
const char *bs_dmethod_duet_type(enum bs_dmethod m);
/** The stats/ pairing type of a method. */
enum bs_duet_type bs_dmethod_type(enum bs_dmethod m);

/** One side (A or B) of one run, restricted to one benchmark. */
struct bs_dside {
	uint32_t pid;			/**< root process of the side (duet_run event) */
	size_t n;			/**< iterations */
	struct bs_iter *iv;		/**< n intervals [start_ns, end_ns), time order */
	double *score;			/**< n scores: ns per invocation, or duration (ns) */
	const struct bs_iter_rec **rec; /**< n source records (interference fields) */
};

/** One run (an A+B pair of processes) of one method, for one benchmark. */
struct bs_drun {
	int run;   /**< 0-based over all methods, execution order */
	int index; /**< 0-based within its method */
	enum bs_dmethod method;
	char order[3];		  /**< "AB" or "BA" ("" unknown) */
	int64_t start_ns, end_ns; /**< the run's span (event, else iterations) */
	struct bs_dside side[2];  /**< [0] = A, [1] = B */
};

/** One benchmark: its runs (ok runs only), grouped by method. */
struct bs_dbench {
	char *name;		       /**< label (CONTEXT benchmark, "#k" for gbench) */
	struct bs_drun *runs[BS_DM_N]; /**< runs of each method, execution order */
	size_t n_runs[BS_DM_N];
	bool per_invocation; /**< scores are duration / invocations */
};

/** A failed (excluded) run. */
struct bs_dfailed {
	int run;
	enum bs_dmethod method;
	char *reason; /**< the event's reason (or a side's "failed"), never NULL */
};

/** Process set of one run: every pid of each side (root and descendants). */
struct bs_dpids {
	int run;
	enum bs_dmethod method;	  /**< the run's method */
	int64_t start_ns, end_ns; /**< the run's span from its event (0, 0: unknown) */
	uint32_t *pids[2];
	size_t n[2];
};

struct bs_dpid_index; /* the sets by pid (duet/pidsets.h) */

struct bs_duet_data {
	struct bs_duet_context ctx; /**< the decoded CONTEXT (strings point into the dataset) */
	char *benchmark;	    /**< CONTEXT duet.benchmark ("" if absent) */
	char *source;		    /**< CONTEXT duet.source ("benchscope" if absent) */
	bool aa;		    /**< A/A mode (CONTEXT duet.aa) */
	double min_overlap;	    /**< CONTEXT duet.min_overlap, or 0 */
	bool methods[BS_DM_N];	    /**< methods that have at least one run */
	struct bs_dbench *benches;
	size_t n_benches;
	size_t runs_total, runs_ok; /**< duet_run events (ok: "ok": true) */
	struct bs_dfailed *failed;
	size_t n_failed;
	struct bs_dpids *pidsets; /**< one per ok run, by ascending run */
	size_t n_pidsets;
	struct bs_dpid_index *pid_index; /**< pidsets by pid (duet/pidsets.h) */
	size_t n_calibration;		 /**< gbench calibration iterations left out */
	size_t n_unmatched;		 /**< iterations of no run's side (left out) */
	size_t n_bench_mismatch; /**< runs whose sides had different gbench benchmark counts */
	size_t n_no_time;	 /**< iterations of the runs used that last 0 ns: no score, the
				  *   verdict's model leaves their pairs out (the comparison
				  *   tests keep them) */
	struct bs_duet_noise_event *rechecks; /**< the noise checks between rounds, in order */
	size_t n_rechecks;
	struct bs_duet_stop_event *stops; /**< the `duet_stop_check` events (--stop-ci), in
					   *   trace order; strings point into the dataset */
	size_t n_stops;
};

/**
 * bs_duet_data_build - the duet model of @ds. Iterations belong to the side
 * of a run whose process set (the event's sides.X.pid plus PROC fork
 * descendants) holds their pid; within a side they are sorted by begin_ns.
 * A side whose iterations carry invocation counts (BS_ITER_F_INVOC) is
 * grouped with bs_gbench_group_runs (calibration runs dropped); benchmark k
 * of A pairs with benchmark k of B of the same run.
 * The blocks are read through bs_duet_blocks_decode (trace/duet_blocks.h).
 * Returns 0; -EINVAL with a one-line reason in @err (not a duet trace, no
 * duet_run event, a CONTEXT or duet_run key missing or of the wrong type:
 * the decode's -EBADMSG line); -ENOMEM. Free with bs_duet_data_free; @ds
 * must outlive the model (its records and d->ctx's strings are the
 * dataset's).
 */
int bs_duet_data_build(const struct bs_dataset *ds, struct bs_duet_data **out, char *err,
		       size_t errlen);

/** Free (NULL-safe). */
void bs_duet_data_free(struct bs_duet_data *d);

/**
 * bs_duet_data_side_of - which side of run @run the process @pid belongs to:
 * 0 (A), 1 (B), or -1 (neither, or @run has no process set). When several
 * ok runs carry the number @run, the first of them (d->pidsets order) that
 * has @pid decides. O(log runs): an index by pid (duet/pidsets.h).
 */
int bs_duet_data_side_of(const struct bs_duet_data *d, int run, uint32_t pid);

/**
 * bs_duet_data_run_of_pid - the ok run and side of process @pid (its first
 * match in run order): returns the run (>= 0) and sets *side, or -1.
 * O(1) expected: an index by pid (duet/pidsets.h).
 */
int bs_duet_data_run_of_pid(const struct bs_duet_data *d, uint32_t pid, int *side);

/** The stats/ view of @r: pointers into @r's arrays (no copy). */
struct bs_duet_run bs_drun_stats(const struct bs_drun *r);

#endif
