/* SPDX-License-Identifier: MIT */
/*
 * noise.h - interference flags of `benchscope compare`, per run (process)
 * of a benchmark, from the iteration records' kernel accounting: a run is
 * flagged when, over its measurement iterations (busy = their summed
 * durations),
 *   preempted_ns / busy >= BS_CMP_NOISE_PREEMPTED  (involuntary off-CPU time),
 *   steal_ns / busy     >= BS_CMP_NOISE_STEAL      (hypervisor steal), or
 *   migrations / busy   >= BS_CMP_NOISE_MIGR_PER_S (CPU moves per second).
 * Imported traces carry no such figures: their noise is unknown, not nil.
 */
#ifndef BENCHSCOPE_COMPARE_NOISE_H
#define BENCHSCOPE_COMPARE_NOISE_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/side.h"

#define BS_CMP_NOISE_PREEMPTED	0.01 /**< share of busy time */
#define BS_CMP_NOISE_STEAL	0.01 /**< share of busy time */
#define BS_CMP_NOISE_MIGR_PER_S 10.0 /**< migrations per second of busy time */

enum bs_cmp_noise_flag {
	BS_CMP_NF_PREEMPTED = 1u << 0,
	BS_CMP_NF_STEAL = 1u << 1,
	BS_CMP_NF_MIGRATIONS = 1u << 2,
};

/** Noise of one benchmark on one side. */
struct bs_cmp_noise {
	bool known;	   /**< the side's trace has interference figures */
	bool steal_known;  /**< and steal time (its kernel had steal accounting); else
			    *   steal is unknown: never flagged, no figure */
	size_t n_runs;	   /**< runs of the benchmark */
	size_t n_flagged;  /**< of them flagged */
	unsigned flags;	   /**< enum bs_cmp_noise_flag, OR over the runs */
	double preempted;  /**< largest preempted share of a run */
	double steal;	   /**< largest steal share of a run */
	double migr_per_s; /**< largest migration rate of a run, per second */
};

/** bs_cmp_run_noise - the flags (enum bs_cmp_noise_flag) of one run; 0 when busy is 0. */
unsigned bs_cmp_run_noise(const struct bs_cmp_run *r);

/**
 * bs_cmp_bench_noise - the noise of @b's runs; @known: whether the side has
 * the figures, @steal_known: whether steal time is among them.
 */
void bs_cmp_bench_noise(const struct bs_cmp_bench *b, bool known, bool steal_known,
			struct bs_cmp_noise *out);

/**
 * bs_cmp_noise_text - @n in a few words into @buf: "-" (no run flagged),
 * "n/a" (unknown), else "2/5 runs: preempted 3.1 %, steal 1.2 %, 14 migr/s"
 * (the largest figures, of the flags raised). Returns @buf.
 */
char *bs_cmp_noise_text(const struct bs_cmp_noise *n, char *buf, size_t len);

#endif
