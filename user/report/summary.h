/* SPDX-License-Identifier: MIT */
/*
 * summary.h - figures of a run computed from a dataset: descriptive
 * statistics of iteration durations (and of time per invocation), per process
 * and overall, interference totals with their share of the iterations' wall
 * time, top interferers, lost-record totals and warnings. Renderers only
 * format what is here.
 */
#ifndef BENCHSCOPE_SUMMARY_H
#define BENCHSCOPE_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"
#include "benchscope/stats.h"
#include "trace/dataset.h"

/** Interference summed over a set of iterations (ns unless a count). */
struct bs_interference {
	uint64_t wall_ns; /**< summed duration of the iterations (the share denominator) */
	uint64_t preempted_ns, blocked_ns, runq_wait_ns, irq_ns, softirq_ns, steal_ns;
	uint64_t sched_delay_ns;
	uint64_t nvcsw, nivcsw, migrations; /**< counts */
	size_t n_measured; /**< iterations that carry interference (not BS_ITER_F_NO_INTF);
			    *   0 with iterations: not measured (imports), shown as absent */
};

/** Summary of a group of iterations: one process, or all of them. */
struct bs_group_summary {
	uint32_t pid;	  /**< process; 0 for the overall group and benchmarks */
	uint32_t inst;	  /**< process: which of the processes that held pid, from 0
			   *   (bs_dataset_proc_instance; 0 unless the pid was reused) */
	long bench;	  /**< benchmark index from 0 (presets with benchmarks), else -1 */
	const char *name; /**< benchmark: the harness's name (points into the dataset), or NULL */
	char comm[BS_COMM_LEN];	    /**< its command name from PROC records, "" if unknown */
	size_t n_iters;		    /**< iterations summarised */
	int has_duration;	    /**< duration is valid (n_iters >= 1) */
	struct bs_summary duration; /**< of end_ns - begin_ns, ns */
	int has_per_op;		    /**< every iteration carries an invocation count */
	struct bs_summary per_op;   /**< of duration / invocations, ns per invocation */
	uint64_t invocations;	    /**< summed invocation count (0 unless has_per_op) */
	struct bs_interference intf;
	uint64_t first_begin_ns, last_end_ns; /**< span of the group, ns (monotonic) */
};

/** One interferer summed over every tracked process it took CPU time from. */
struct bs_top_interferer {
	uint32_t pid, tid;
	char comm[BS_COMM_LEN];
	uint64_t ns;	 /**< CPU time it took while a tracked process waited (over the
			  *   trace's charge scope, bs_run_context_charge_scope) */
	double of_total; /**< ns / interferer_ns of the summary: its part of every
			  *   interferer's time (ratio; the charges cover more than
			  *   the iterations analysed, so no share of their wall time) */
};

/**
 * Dynamic reconfiguration figures of a forked run (Laaber et al. 2020 §4), from the
 * CONTEXT member "stop", the fork and stop_decision events and the END
 * member "stop". present == 0 for a single run. forks points into the
 * dataset: the summary must not outlive it.
 */
struct bs_stop_summary {
	int present;
	char criterion[8]; /**< "none", "cv", "rciw", "kld" */
	double threshold;  /**< NaN for none */
	size_t window, wi_min, wi_max, mi, f_min, f_max;
	const struct bs_fork_event *forks; /**< n_forks: the dataset's fork events (run_ev.forks) */
	size_t n_forks;
	int forks_stable; /**< the last fork checkpoint said stable */
	int fork_bound;	  /**< f_max forks ran without fork stability (criterion unreachable) */
	size_t n_warmup_bound; /**< forks whose warmup hit wi_max without stability */
	size_t n_short;	       /**< short forks */
	size_t n_checkpoints;  /**< stop_decision events */
	uint64_t compute_ns;   /**< checkpoint computation (END, else the events' sum) */
	uint64_t wall_ns;      /**< the run: first fork's start to last fork's end */
	double compute_share;  /**< compute_ns / wall_ns (NaN if unknown) */
	double warmup_mean;    /**< mean warmup iterations per fork */
};

/** Everything the reports show. */
struct bs_run_summary {
	struct bs_group_summary overall;
	struct bs_group_summary
	    *procs; /**< one per process (pid, inst), in order of first iteration */
	size_t n_procs;
	/** Presets with benchmarks (boundaries.kind "gbench", or BENCH names in
	 * the trace): one group per benchmark, its measurement runs (see
	 * bench_groups.h); NULL otherwise */
	struct bs_group_summary *benches;
	size_t n_benches;
	size_t n_iters_total;	       /**< iterations in the trace */
	size_t n_calibration;	       /**< excluded: the harness's calibration runs */
	size_t n_warmup;	       /**< excluded: flagged warmup */
	size_t n_after_stop;	       /**< excluded: flagged after_stop (fork already ended) */
	size_t n_invalid;	       /**< excluded: end before begin */
	size_t n_invoc_flagged;	       /**< iterations with BS_ITER_F_INVOC */
	size_t n_invoc_bad;	       /**< iterations with BS_ITER_F_INVOC_BAD */
	struct bs_top_interferer *top; /**< the top_n largest, descending */
	size_t n_top;
	size_t n_interferers;	/**< distinct interferer threads */
	uint64_t interferer_ns; /**< their summed time */
	double probe_cost_ns;	/**< CONTEXT probe_cost_ns.per_iteration, NaN if absent */
	double perturbation;	/**< probe_cost_ns / median duration, NaN if unknown */
	int has_lost;		/**< END carries a "lost" object */
	uint64_t lost_total;	/**< sum of its counters named *_lost */
	char **warnings;	/**< computed warnings (English, one line each) */
	size_t n_warnings;
	struct bs_stop_summary stop; /**< forks and stoppage; stop.present == 0 for one run */
};

/** Share of wall time above which the probe perturbation is warned about. */
#define BS_PERTURBATION_WARN 0.01

/**
 * bs_run_summarize - compute the summary of @ds into @out (zeroed first).
 * Iterations flagged warmup and iterations ending before they begin are
 * excluded and counted; so are the harness's calibration runs when the
 * boundaries are "gbench" or the harness named its benchmarks, and at least
 * one benchmark was recognised (bench_groups.h).
 * @top_n: how many interferers to keep (0: none).
 * Returns 0 or -ENOMEM / -EINVAL; free with bs_run_summary_free().
 */
int bs_run_summarize(const struct bs_dataset *ds, size_t top_n, struct bs_run_summary *out);

/**
 * bs_run_end_lost_total - the records the run lost: the sum of END's "*_lost" counters of @e
 * (trace/end.h), not the map-full counters (failed inserts, retried, and counted in iter_lost
 * where a record was due; their warnings say them): what the run report's lost_total and the
 * duet report's lost line give. 0 without a "lost" object.
 */
uint64_t bs_run_end_lost_total(const struct bs_run_end *e);

/** Free what bs_run_summarize() allocated (NULL-safe); @s itself is not freed. */
void bs_run_summary_free(struct bs_run_summary *s);

/** 1 if @r counts for the summary (not warmup, not after_stop, end >= begin). */
int bs_iter_counted(const struct bs_iter_rec *r);

/** ns per invocation of @r, or NaN when it carries no valid invocation count. */
double bs_iter_ns_per_op(const struct bs_iter_rec *r);

#endif
