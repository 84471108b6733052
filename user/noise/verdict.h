/* SPDX-License-Identifier: MIT */
/*
 * verdict.h - what the noise check's samples say of a machine's CPUs as a
 * benchmark platform: per CPU the speed of a calibrated loop alone and with
 * every other CPU busy, how it varies over time, what the kernel accounted;
 * per pair of CPUs whether one slows the other (hidden coupling: an SMT
 * sibling, a host that shares a core between vCPUs) or runs at another
 * speed; and which duet design suits the machine. Pure functions on the
 * samples: no measuring here (user/noise/check.h measures).
 *
 * Thresholds (measured on 2-vCPU cloud VMs, see README "Benchmarking on
 * cloud VMs"): a CPU is coupled when its median loop time with the other
 * CPUs busy is BS_NOISE_COUPLED_RATIO times its median alone or more; two
 * CPUs run at different speeds when their busy medians differ by
 * BS_NOISE_ASYM_RATIO or more; a CPU is unsteady when its p95 is
 * BS_NOISE_UNSTEADY_RATIO times its median or more.
 */
#ifndef BENCHSCOPE_NOISE_VERDICT_H
#define BENCHSCOPE_NOISE_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BS_NOISE_COUPLED_RATIO	1.10
#define BS_NOISE_ASYM_RATIO	1.10
#define BS_NOISE_UNSTEADY_RATIO 1.10
#define BS_NOISE_MAX_TASKS	8

/** Loop times of one CPU in one phase, and what the kernel accounted then. */
struct bs_noise_phase {
	double *ns; /**< n loop times, ns, in time order */
	size_t n;
	double median_ns;   /**< filled by bs_noise_judge */
	double p95_ns;	    /**< 95 % quantile, ns */
	double cv;	    /**< coefficient of variation (ratio) */
	double runq_pct;    /**< the loop thread's run-queue wait (the kernel's run_delay,
			     *   schedstat), % of the phase: other tasks ran instead */
	double irq_pct;	    /**< /proc/stat irq time of the CPU, % of the phase */
	double softirq_pct; /**< softirq time, % */
	double steal_pct;   /**< steal time, % */
	double ticks_per_s; /**< local timer interrupts per second (/proc/interrupts LOC) */
	bool kacct;	    /**< the loop_* figures below are set (BPF accounting) */
	double loop_irq_pct, loop_softirq_pct,
	    loop_steal_pct;	   /**< what the kernel accounted to the
				    * loop while it ran, % of its time */
	double loop_preempted_pct; /**< the loop's preempted time, % of its time */
};

/** Another task that ran on the CPU during the busy phase. */
struct bs_noise_task {
	char comm[17];
	int pid;
	double pct; /**< with BPF accounting: the CPU time it took while the loop waited
		     *   to run; else its CPU time; % of the phase */
};

/** One CPU. */
struct bs_noise_cpu {
	int cpu;
	struct bs_noise_phase alone; /**< only this CPU ran the loop */
	struct bs_noise_phase busy;  /**< every checked CPU ran it at once */
	double coupling;	     /**< busy median / alone median (ratio) */
	bool coupled;		     /**< coupling >= BS_NOISE_COUPLED_RATIO */
	bool unsteady;		     /**< p95 / median >= BS_NOISE_UNSTEADY_RATIO in a phase */
	struct bs_noise_task tasks[BS_NOISE_MAX_TASKS]; /**< largest first */
	size_t n_tasks;
};

/** One pair of CPUs (i < j by index into the CPU array). */
struct bs_noise_pair {
	size_t i, j;
	double speed_ratio; /**< slower busy median / faster busy median, >= 1 */
	bool independent;   /**< neither CPU is coupled */
	bool same_speed;    /**< speed_ratio < BS_NOISE_ASYM_RATIO */
};

/** The design the check recommends for a duet. */
enum bs_noise_design {
	BS_NOISE_PARALLEL = 0,	 /**< the sides on two CPUs, exchanged (--crossover) */
	BS_NOISE_ONE_CPU = 1,	 /**< both sides on one CPU, taking turns (interleaved) */
	BS_NOISE_SEQUENTIAL = 2, /**< one CPU only: seq or interleaved on it */
};

struct bs_noise_verdict {
	struct bs_noise_pair *pairs; /**< n_pairs = n (n - 1) / 2 */
	size_t n_pairs;
	enum bs_noise_design design;
	int cpu_a, cpu_b;   /**< the recommended placement (the same CPU for ONE_CPU) */
	bool held_back;	    /**< a pair passed every test of a parallel duet, but the machine
			     *   is virtual: ONE_CPU instead (see bs_noise_judge) */
	int held_a, held_b; /**< that pair's CPUs (with held_back) */
	char why[320];	    /**< one sentence: why this design */
};

/**
 * bs_noise_judge - fill every CPU's statistics (medians, p95, CV, coupling,
 * unsteady) from its samples and the verdict from them. cpus[0..n-1] each
 * need at least 2 samples in both phases.
 *
 * @hypervisor names the hypervisor of a virtual machine (NULL on bare
 * metal). A host can slow one vCPU at any moment, for seconds or minutes,
 * without the guest seeing it (no steal time on PVM): a check of a few
 * seconds that found two steady, independent vCPUs at one speed does not
 * say they stay so for the duet. On a virtual machine the verdict is
 * therefore never PARALLEL: the pair that qualified is named in @v->why,
 * @v->held_back is set, and both sides go to the steadiest CPU (measured
 * in README "Benchmarking on cloud VMs": async duets there lost a 3 %
 * slowdown in 9 of 20 duets, interleaved on one vCPU found 20 of 20).
 *
 * Returns 0, -EINVAL (a phase with fewer than 2 samples or a non-positive
 * time) or -ENOMEM; free with bs_noise_verdict_free.
 */
int bs_noise_judge(struct bs_noise_cpu *cpus, size_t n, const char *hypervisor,
		   struct bs_noise_verdict *v);

/** Free what v holds and zero it, not v itself; v must not be NULL (not
 * NULL-safe). A zeroed or already freed verdict is fine. */
void bs_noise_verdict_free(struct bs_noise_verdict *v);

/** "parallel", "one-cpu", "sequential". */
const char *bs_noise_design_name(enum bs_noise_design d);

#endif
