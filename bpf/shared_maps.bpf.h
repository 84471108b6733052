/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * shared_maps.bpf.h - the maps both BPF objects of a duet use: the main
 * object (benchscope.bpf.c) creates them, the object that continues a
 * stopped side (kcont.bpf.c) is loaded with the same definitions and user
 * space points it at the main object's maps (bpf_map__reuse_fd).
 */
#ifndef BENCHSCOPE_SHARED_MAPS_BPF_H
#define BENCHSCOPE_SHARED_MAPS_BPF_H

/* per-CPU counters of what was lost or ignored (struct bs_counters) */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bs_counters);
} counters SEC(".maps");

/* Sync-duet barrier control records (struct bs_barrier_rec): few, and the
 * ones that ask user space to continue a stopped side wake it at once. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 << 10);
} brb SEC(".maps");

/* A barrier release decided by a boundary program, carried out on this CPU
 * by the program that may signal another process (kcont.bpf.c); see
 * barrier_release_cont. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct bs_kcont_pend);
} kcont_pend SEC(".maps");

#endif
