/* SPDX-License-Identifier: MIT */
/*
 * analysis.h - one analysis of a fleet (fleet.h) with machines as units.
 *
 * Per benchmark (matched by name across members): run fleets give the mean
 * time per invocation (ns; the iteration's duration where it carries no
 * invocation count) with a 95 % CI by three-level hierarchical resampling,
 * machine -> run (process) -> iteration (bs_hierk_ci); duet fleets give the
 * ratio of means B / A, the same way, each run's A and B iterations drawn
 * within the run (the primary method's ok runs: the first method of the
 * duet with runs), and the minimal detectable slowdown of that verdict
 * (bs_ci_mds: B brought to A's level, slowed until the interval clears 1),
 * which a fleet narrows as machines are added. Each member gets its own row from the same
 * resampling below the machine level (run -> iteration). An interval is
 * withheld, with the reason, below BS_FLEET_MIN_MACHINES machines (the
 * fleet's) or BS_FLEET_MIN_VALUES values a side (a member's), or when it
 * has no width (every resample the same). A duet member whose own duet
 * analysis (bs_duet_method_model, the run-level model of `report`)
 * withholds the method's verdict for a confound (BS_ECONFOUNDED: A and B
 * never exchanged CPUs, so the CPUs' speed difference is in its B/A) is
 * left out of the fleet's interval, counted, with the reason. Members
 * whose units differ (ns per invocation vs iteration durations) are never
 * pooled: no combined interval, and no speed from that benchmark.
 *
 * The noise table: per member, its machine (hostname, CPU model,
 * hypervisor), its speed relative to the fleet (geometric mean over the
 * benchmarks of its mean / the median of the members' means; duets: A's
 * scores), interference per iteration (preempted and steal time as shares
 * of the iterations' time, migrations per iteration), the noise check of
 * a duet CONTEXT, and the outlier rule: a member is flagged when
 * |log speed - median| > 3 x 1.4826 x MAD of the members' log speeds and
 * the member is more than 2 % off the median (the floor keeps a fleet of
 * near-identical machines, MAD ~ 0, from flagging noise).
 */
#ifndef BENCHSCOPE_FLEET_ANALYSIS_H
#define BENCHSCOPE_FLEET_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/stats.h"
#include "fleet/fleet.h"

/** Outlier rule: MADs (scaled to a normal sd) and the floor, a ratio. */
#define BS_FLEET_OUTLIER_MADS  3.0
#define BS_FLEET_OUTLIER_FLOOR 0.02
/** Resamples of every interval. */
#define BS_FLEET_RESAMPLES 2000
/** Leaf groups (runs) larger than this use the normal approximation. */
#define BS_FLEET_LEAF_EXACT 64
/** Machines a combined interval needs: they are its units (with one, the
 *  machine level draws that machine every time and the interval is its
 *  own run -> iteration interval). */
#define BS_FLEET_MIN_MACHINES 2
/** Values a member's interval needs (per side for duets): with one, every
 *  resample draws it and the interval has no width. */
#define BS_FLEET_MIN_VALUES 2

/** One member's figure for one benchmark. */
struct bs_fleet_cell {
	bool present;	      /**< the member ran the benchmark */
	bool per_op;	      /**< its values are ns per invocation (else durations, ns) */
	bool left_out;	      /**< duet: left out of the fleet (and without an interval): its
			       *   own duet analysis withholds the verdict for a confound */
	bool has_ci;	      /**< ci is valid: >= BS_FLEET_MIN_VALUES values (a side) and an
			       *   interval with width */
	size_t runs, iters;   /**< runs (processes / duet runs) and iterations (A's for duets) */
	struct bs_ci ci;      /**< its mean (run) or B/A ratio (duet), run -> iteration */
	double mds;	      /**< duet: bs_ci_mds of ci (fraction); NAN for runs or !has_ci */
	int err;	      /**< bs_hierk_ci's error when !has_ci (or BS_OK) */
	const char *withheld; /**< why no interval (!has_ci), a static phrase; NULL if has_ci */
};

struct bs_fleet_bench {
	char *name;
	bool per_op;		/**< every member's values are ns per invocation (else some are
				 *   iteration durations, ns); duets: of the scores */
	bool mixed_units;	/**< members differ in per_op: never pooled, no combined interval */
	size_t members;		/**< members that ran it */
	bool has_ci;		/**< combined is valid: >= BS_FLEET_MIN_MACHINES members and an
				 *   interval with width */
	struct bs_ci combined;	/**< machines as units */
	double mds;		/**< duet: the smallest slowdown of B the combined verdict detects,
				 *   bs_ci_mds of combined (fraction, 0.1 % grid, never 0); NAN for
				 *   runs, without an interval, or none up to 100 % */
	int err;		/**< bs_hierk_ci's error when !has_ci (or BS_OK) */
	char withheld[160];	/**< why no combined interval (!has_ci), "" if has_ci */
	size_t left_out;	/**< duet: members left out (cell[].left_out), not in members */
	char left_out_why[256]; /**< the first one's reason (bs_duet_model_err_text), "" if none */
	struct bs_fleet_cell *cell; /**< [n_members] */
};

struct bs_fleet_machine {
	char hostname[64], cpu_model[96], hypervisor[32]; /**< "?" if absent */
	double speed; /**< geometric mean of mean / fleet median (NaN: no benchmark of one unit) */
	size_t iters; /**< counted iterations */
	double preempt_share, steal_share; /**< of the iterations' time; NaN without iterations
					    *   or interference data (imported traces); steal
					    *   also NaN without steal accounting */
	double migrations;		   /**< per iteration */
	bool has_noise;			   /**< a duet noise check in CONTEXT */
	char noise[96];			   /**< its verdict, e.g. "coupled (busy/alone 1.42)" */
	bool outlier;
	char why[256]; /**< the sentence: "member 7 (vm-007) ran 40.0 % slower ..." */
};

struct bs_fleet_analysis {
	const struct bs_fleet *fleet;
	bool duet;
	bool drop_warmup_half; /**< duet: the first half of each run's iterations (a side) left
				*   out, as `report --drop-warmup-half` does; set before adding */
	const char *method;    /**< duet: the method analysed */
	struct bs_fleet_bench *benches;
	size_t n_benches;
	struct bs_fleet_machine *machines; /**< [fleet->n_members] */
	size_t n_machines;
	size_t n_outliers;
	double speed_mad; /**< scaled MAD of the log speeds */
	void *acc;	  /**< the data gathered member by member (analysis.c) */
};

/*
 * The analysis member by member (with bs_fleet_each, one member in memory
 * at a time): new, add every member in fleet order, finish. Errors as
 * bs_fleet_analyze's; free with bs_fleet_analysis_free in any state.
 */
int bs_fleet_analysis_new(uint64_t seed, bool duet, struct bs_fleet_analysis **out);
int bs_fleet_analysis_add(struct bs_fleet_analysis *a, const struct bs_dataset *ds, char *err,
			  size_t errlen);
/** Intervals and the noise table; @f (its members' sources) must outlive @a. */
int bs_fleet_analysis_finish(struct bs_fleet_analysis *a, const struct bs_fleet *f, char *err,
			     size_t errlen);

/**
 * bs_fleet_analyze - the analysis of @f (seed @seed for every interval).
 * Returns 0; -EINVAL with one line in @err (a member's duet data cannot
 * be built); -ENOMEM. Free with bs_fleet_analysis_free.
 */
int bs_fleet_analyze(const struct bs_fleet *f, uint64_t seed, struct bs_fleet_analysis **out,
		     char *err, size_t errlen);

/** Free a and everything it holds; NULL is a no-op. */
void bs_fleet_analysis_free(struct bs_fleet_analysis *a);

/** The duet verdict of a B/A interval: "B slower by 3.1 % [2.0, 4.2]" etc. */
void bs_fleet_verdict(const struct bs_ci *ci, char *buf, size_t len);

/** Outputs of bs_fleet_render: NULL paths are not written. */
struct bs_fleet_render_opts {
	const char *json_path, *csv_path; /**< '-' for stdout */
	bool no_table;
};

/**
 * bs_fleet_render - the table (stdout unless an export goes there), the
 * JSON document (docs/fleet-trace.md "Report") and the CSV (one row per
 * benchmark and member, plus the combined row). Returns 0 or -errno with
 * one line in @err.
 */
int bs_fleet_render(const struct bs_fleet_analysis *a, const struct bs_fleet_render_opts *o,
		    char *err, size_t errlen);

#endif
