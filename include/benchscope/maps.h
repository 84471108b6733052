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

/** Value of the `tracked` map (key: tgid): a process whose threads are measured. */
struct bs_tracked_proc {
	__u64 iter_seq; /**< next iteration index in this process */
	__u32 depth;	/**< 0: the root process user space started */
	__u32 side;	/**< duet side: 0 none, 1 A, 2 B (inherited through fork) */
};

/** Key of the `spill` map: an iteration record that did not fit the ring buffer. */
struct bs_spill_key {
	__u32 pid;
	__u32 tid;
	__u64 index; /**< the iteration's index in its process */
};

_Static_assert(sizeof(struct bs_tracked_proc) == 16, "bs_tracked_proc layout");
_Static_assert(sizeof(struct bs_spill_key) == 16, "bs_spill_key layout");

#endif
