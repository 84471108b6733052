// SPDX-License-Identifier: GPL-2.0
/*
 * task_storage.bpf.c - feature probe: can BPF task-local storage
 * (BPF_MAP_TYPE_TASK_STORAGE, bpf_task_storage_get) replace the `threads`
 * hash of benchscope.bpf.c, that is, be used from a uprobe (iteration begin:
 * create the thread's entry) and from tp_btf/sched_switch (look it up for
 * prev and next, never create there)? Each program is loaded on its own by
 * vmtest/probe/task_storage.c, so a rejection names the program type.
 *
 * For comparison, tls_switch_hash does what benchscope's on_switch does
 * today: two hash lookups by tid.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct tstate {
	__u64 uprobe_hits;
	__u64 switch_out;
	__u64 switch_in;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct tstate);
} tstore SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct tstate);
} thash SEC(".maps");

const volatile __u32 target_tid = 0;

/* Switches of the target thread out (prev) and in (next), and how many of
 * them found no storage although the uprobe created it: the storage's busy
 * lock was held on this CPU (before 6.2 a lookup from a tracing program then
 * fails instead of proceeding without the lock). */
__u64 seen_out = 0, null_out = 0, seen_in = 0, null_in = 0, uprobe_null = 0;

SEC("uprobe")
int BPF_KPROBE(tls_uprobe)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct tstate *s, zero = {};

	s = bpf_task_storage_get(&tstore, t, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s) {
		__sync_fetch_and_add(&uprobe_null, 1);
		return 0;
	}
	s->uprobe_hits++;
	/* the hash twin, for the comparison program */
	{
		__u32 tid = t->pid;

		bpf_map_update_elem(&thash, &tid, &zero, BPF_NOEXIST);
	}
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(tls_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct tstate *sp, *sn;

	/* the pattern on_switch needs: look up both sides, no creation */
	sp = bpf_task_storage_get(&tstore, prev, 0, 0);
	sn = bpf_task_storage_get(&tstore, next, 0, 0);
	if (sp)
		sp->switch_out++;
	if (sn)
		sn->switch_in++;
	if (prev->pid == target_tid) {
		__sync_fetch_and_add(&seen_out, 1);
		if (!sp)
			__sync_fetch_and_add(&null_out, 1);
	}
	if (next->pid == target_tid) {
		__sync_fetch_and_add(&seen_in, 1);
		if (!sn)
			__sync_fetch_and_add(&null_in, 1);
	}
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(tls_switch_hash, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 pt = prev->pid, nt = next->pid;
	struct tstate *sp = bpf_map_lookup_elem(&thash, &pt),
		      *sn = bpf_map_lookup_elem(&thash, &nt);

	if (sp)
		sp->switch_out++;
	if (sn)
		sn->switch_in++;
	return 0;
}
