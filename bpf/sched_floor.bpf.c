// SPDX-License-Identifier: GPL-2.0
/*
 * sched_floor - empty programs on the scheduler tracepoints benchscope uses.
 * `make bench` (section 4) runs the measured harness under them
 * (bench/sched_floor.c): their run time per run (BPF_STATS_RUN_TIME) while
 * it runs is the floor any handler on those tracepoints pays on this
 * machine (dispatch, the stats' own clock reads, cold caches), over nearly
 * the same events as ours.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch)
{
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(floor_wakeup)
{
	return 0;
}
