/* SPDX-License-Identifier: MIT */
/*
 * kacct.h - the kernel's accounting of the noise check's loops, from
 * benchscope's own BPF programs: every loop is an iteration, delimited by
 * two USDT probes in benchscope itself (benchscope:noise_begin and
 * benchscope:noise_end around the loop), so the kernel side accounts it
 * like any harness's iteration: run-queue wait, preemption, IRQ, softirq
 * and steal time while the loop ran, and - through the interferer charges -
 * which tasks ran on its CPU while it waited, and for how long. Each loop
 * runs in a process of its own, so that the interferers (keyed by the
 * victim's process) can be told apart per CPU and phase.
 */
#ifndef BENCHSCOPE_NOISE_KACCT_H
#define BENCHSCOPE_NOISE_KACCT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/record.h"
#include "probe/probes.h"

/** What the kernel accounted to one loop process, summed over its iterations (ns). */
struct bs_kacct_sum {
	pid_t pid;
	uint64_t iterations, wall_ns;
	uint64_t runq_wait_ns, preempted_ns, irq_ns, softirq_ns, steal_ns;
};

struct bs_noise_kacct {
	struct bs_probes probes;
	struct ring_buffer *rb;
	struct bs_kacct_sum *sums; /**< n_sums, one per tracked loop process */
	size_t n_sums;
	uint64_t lost; /**< iteration records the kernel could not deliver */
	struct bs_interferer_table interferers; /**< the charges received (BS_REC_INTERF) */
	int on;					/**< loaded and attached */
};

/**
 * bs_noise_kacct_open - load the BPF programs and attach them to the loop's
 * USDT probes in this executable; @verbose: libbpf's messages (the
 * verifier log) on stderr. Returns 0, or -errno with one line in @err (no
 * BPF here: -EPERM / -ENOTSUP; the check then falls back to /proc).
 */
int bs_noise_kacct_open(struct bs_noise_kacct *k, bool verbose, char *err, size_t errlen);

/** Account the loop process @pid from now on. 0 or -errno. */
int bs_noise_kacct_track(struct bs_noise_kacct *k, pid_t pid);

/** Take the iteration records delivered so far into the sums. 0 or -errno. */
int bs_noise_kacct_drain(struct bs_noise_kacct *k);

/** The sums of loop process @pid (after a drain), or NULL when it has none. */
const struct bs_kacct_sum *bs_noise_kacct_sum(const struct bs_noise_kacct *k, pid_t pid);

/**
 * bs_noise_kacct_interferers - call @fn for every task that ran while a
 * tracked loop waited (victim_pid is the loop's process; ns the CPU time it
 * took meanwhile), as of the last drain. Returns the count, or @fn's
 * non-zero return.
 */
long bs_noise_kacct_interferers(const struct bs_noise_kacct *k,
				int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx);

/** Detach and free (safe on a failed or never-opened k). */
void bs_noise_kacct_close(struct bs_noise_kacct *k);

/** The loop's boundaries: call around each loop (USDT sites; cost ~5 us on a PVM guest). */
void bs_noise_loop_begin(void);
void bs_noise_loop_end(void);

#endif
