/* SPDX-License-Identifier: MIT */
/*
 * noise.h - noise diagnosis of a duet (issue 4 item 4, benchscope's
 * own addition to Drozdík 2023): per run and side, the interference its
 * iterations suffered (the fields of the iteration records); the side's lost
 * CPU time split into time taken by the other side's processes and by third
 * parties (interferer records); and an impact-symmetry figure per run.
 *
 * Definitions (per run r, side X in {A, B}):
 *   busy_X   = sum of X's iteration durations (the iterations analysed), ns
 *   lost_X   = sum over them of runq_wait_ns + irq_ns + softirq_ns + steal_ns
 *              (runq_wait_ns includes preempted_ns), ns
 *   share_X  = lost_X / busy_X (ratio; 0 when busy_X is 0)
 *   asym_pp  = (share_A - share_B) * 100, percentage points; > 0: A was hit
 *              harder
 *   imbalance = |share_A - share_B| / (share_A + share_B), in [0, 1]
 *              (0: equal shares, 1: only one side lost time; 0 when both 0)
 *   asymmetric = |asym_pp| >= BS_DUET_ASYM_MIN_PP and imbalance >=
 *              BS_DUET_ASYM_MIN_IMBALANCE (the harder-hit side lost at least
 *              twice the other's share, and at least 1 point more)
 * An asymmetric run penalises one side only: its paired differences carry
 * the noise instead of cancelling it, which is what duets rely on.
 *
 * Who took the CPU while a side waited comes from the interferer charges.
 * Where the trace keeps them per iteration (the charge scope
 * BS_CHARGES_ANALYSED, bs_run_context_charge_scope) only those of the
 * analysed iterations are summed; elsewhere they cover more (every
 * iteration the harness ran, or with one probe per iteration every thread
 * of the side, the whole run). They are split among themselves (other
 * side, own side, third parties), never compared with the iterations' busy
 * or lost time.
 */
#ifndef BENCHSCOPE_DUET_NOISE_H
#define BENCHSCOPE_DUET_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "duet/data.h"
#include "trace/context.h"

#define BS_DUET_ASYM_MIN_PP	   1.0
#define BS_DUET_ASYM_MIN_IMBALANCE (1.0 / 3.0)

/** Interference of one side, summed over iterations (all ns except counts). */
struct bs_dnoise_side {
	size_t n_iters;
	uint64_t busy_ns, lost_ns;
	uint64_t preempted_ns, runq_wait_ns, blocked_ns, irq_ns, softirq_ns, steal_ns;
	uint64_t nivcsw, migrations;
	/** from interferer records whose victim is one of the side's processes
	 *  (over the charge scope, see above), ns: */
	uint64_t by_other_ns; /**< taken by the other side's processes (same run) */
	uint64_t by_own_ns;   /**< taken by the side's own processes: its other
			       *   threads, e.g. a runtime's garbage collector */
	uint64_t by_third_ns; /**< taken by any other task */
};

struct bs_dnoise_run {
	int run;
	enum bs_dmethod method;
	struct bs_dnoise_side side[2];
	double share[2];  /**< lost / busy, ratio */
	double asym_pp;	  /**< (share_A - share_B) * 100 */
	double imbalance; /**< |share_A - share_B| / (share_A + share_B) */
	bool asymmetric;
};

/** A third-party task, summed over every run. */
struct bs_dnoise_task {
	char comm[BS_COMM_LEN + 1];
	uint32_t pid;
	uint64_t ns[2]; /**< time taken from side A, from side B */
};

struct bs_duet_noise {
	struct bs_dnoise_run *runs; /**< by ascending run */
	size_t n_runs;
	struct bs_dnoise_side method[BS_DM_N][2]; /**< sums per method and side */
	size_t n_asymmetric[BS_DM_N];
	struct bs_dnoise_task *third; /**< descending total ns */
	size_t n_third;
	bool has_interference;	    /**< any interference field or interferer record non-zero */
	uint64_t self_ns[2];	    /**< of by_third_ns: taken from A, from B by benchscope's own
				     *   threads (interferer comm "benchscope"), ns */
	uint64_t charged_ns;	    /**< every charge to either side (other, own, third), ns */
	enum bs_charge_scope scope; /**< what the charges cover (the trace's context) */
	uint64_t busy_ns;	    /**< sum of both sides' busy_ns over every run, ns */
};

/** Comm of benchscope's own threads in interferer records. */
#define BS_DUET_SELF_COMM "benchscope"

/**
 * bs_duet_noise_build - the diagnosis of @d (its analysed iterations) and of
 * the interferer records of @ds. Returns 0 or -ENOMEM.
 */
int bs_duet_noise_build(const struct bs_dataset *ds, const struct bs_duet_data *d,
			struct bs_duet_noise **out);

/** Free n and everything it holds; NULL is a no-op. */
void bs_duet_noise_free(struct bs_duet_noise *n);

/** benchscope's own part of the time charged: (self_ns[0] + self_ns[1]) /
 *  charged_ns (ratio; NaN when nothing was charged). */
double bs_duet_noise_self_share(const struct bs_duet_noise *n);

/** The run entry of @run, or NULL. */
const struct bs_dnoise_run *bs_duet_noise_run(const struct bs_duet_noise *n, int run);

/** Lost time of one iteration record: runq_wait + irq + softirq + steal, ns. */
uint64_t bs_duet_iter_lost_ns(const struct bs_iter_rec *r);

#endif
