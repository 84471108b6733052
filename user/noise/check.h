/* SPDX-License-Identifier: MIT */
/*
 * check.h - the noise check: how a machine's CPUs behave as a benchmark
 * platform, measured with a calibrated loop (about 2 ms of arithmetic) run
 * pinned to each CPU, in a process of its own, first on each CPU alone,
 * then on every CPU at once; with what the kernel accounted per CPU
 * meanwhile (/proc/stat irq, softirq, steal; /proc/interrupts local timer
 * ticks), and, where BPF may be used, what it accounted to the loops
 * themselves (noise/kacct.h: their IRQ, softirq, steal and preemption time,
 * and the tasks that ran on their CPU while they waited). Without BPF the
 * other tasks are those that used CPU time while every CPU was busy (from
 * /proc, by the CPU they last ran on). The samples are judged by
 * noise/verdict.h.
 */
#ifndef BENCHSCOPE_NOISE_CHECK_H
#define BENCHSCOPE_NOISE_CHECK_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "noise/verdict.h"

struct bs_noise_opts {
	double duration_s; /**< whole check, s (0: 6); half alone (split over the
			    *   CPUs), half all busy */
	bool cpus_set;	   /**< check only @cpus (else every CPU benchscope may use) */
	cpu_set_t cpus;
	bool progress; /**< a live line on stderr (progress.h: drawn only on a terminal) */
	bool verbose;  /**< libbpf's messages (the verifier log) on stderr */
};

struct bs_noise_result {
	struct bs_noise_cpu *cpus; /**< n, by CPU number */
	size_t n;
	double loop_ns;	     /**< the calibrated loop's time on the first CPU alone, ns */
	double duration_s;   /**< as run */
	bool kacct;	     /**< the loops were accounted by BPF (tasks: who made them wait) */
	char kacct_why[256]; /**< why not, when !kacct */
	uint64_t kacct_lost; /**< loop iteration records BPF could not deliver */
};

/**
 * bs_noise_check - run the check (about o->duration_s of wall time; it keeps
 * every checked CPU busy for half of it). Returns 0, or -errno with one line
 * in @err: -EINVAL (no CPU to check), -ENOMEM, or a thread or affinity
 * failure. Free with bs_noise_result_free (also after an error).
 */
int bs_noise_check(const struct bs_noise_opts *o, struct bs_noise_result *out, char *err,
		   size_t errlen);

/** Free what r holds and zero it, not r itself; r must not be NULL (not
 * NULL-safe). A zeroed or already freed result is fine. */
void bs_noise_result_free(struct bs_noise_result *r);

#endif
