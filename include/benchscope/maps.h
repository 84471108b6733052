/* SPDX-License-Identifier: MIT */
/*
 * maps.h - key and value layouts of the BPF maps that user space reads or
 * writes, shared by bpf/benchscope.bpf.c (with vmlinux.h) and user/probe/
 * (with <linux/types.h>), so the two sides cannot drift apart. Records that
 * cross through ring buffers are in record.h.
 */
#ifndef BENCHSCOPE_MAPS_H
#define BENCHSCOPE_MAPS_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif
#include "benchscope/record.h"

/** Value of the `tracked` map (key: tgid): a process whose threads are measured. */
struct bs_tracked_proc {
	__u64 iter_seq; /**< next iteration index in this process */
	__u32 depth;	/**< 0: the root process user space started */
	__u32 side;	/**< duet side: 0 none, 1 A, 2 B (inherited through fork) */
	__u64 start_ns; /**< the process's task start_time (CLOCK_MONOTONIC ns) from
			 *   its fork; 0 in a root user space writes, set at its exit */
};

/** Key of the `spill` map: an iteration record that did not fit the ring buffer. */
struct bs_spill_key {
	__u32 pid;
	__u32 tid;
	__u64 index; /**< the iteration's index in its process */
};

/**
 * Value of the per-CPU `kcont_pend` map: a duet barrier release that a
 * boundary program (uprobe or USDT, which may not signal another process)
 * decided and hands over, on the same CPU, to the tracing program that may
 * (kcont.bpf.c): the boundary program rings a doorbell (a signal the
 * harness ignores, sent to its own thread), on whose generation that
 * program sends SIGCONT to rec.other_pid and emits rec as
 * BS_BARRIER_RELEASE_KCONT, or as BS_BARRIER_RELEASE_CONT for user space to
 * continue the side when the signal could not be sent.
 */
struct bs_kcont_pend {
	struct bs_barrier_rec rec; /**< the release record, kind RELEASE_CONT */
	__u32 tid;		   /**< the releasing thread, which rings the doorbell */
	__u32 valid;		   /**< 1: a release waits to be carried out */
};

_Static_assert(sizeof(struct bs_kcont_pend) == 56, "bs_kcont_pend layout");
_Static_assert(sizeof(struct bs_tracked_proc) == 24, "bs_tracked_proc layout");
_Static_assert(sizeof(struct bs_spill_key) == 16, "bs_spill_key layout");

#endif
