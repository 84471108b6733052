/* SPDX-License-Identifier: GPL-2.0 */
/*
 * criterion.bpf.h - `--preset criterion`: the probes on a criterion.rs
 * benchmark (included by benchscope.bpf.c after the boundary programs; uses
 * its iter_open, open_iter, bench_name_emit, ctrs and maps).
 *
 * Each probe's BPF cookie (benchscope/criterion.h) says what to read, so
 * one program serves every instantiation of criterion's generic functions,
 * each with the layout its DWARF gave:
 *  - iter_begin_criterion, at the entry of Bencher<M>::iter (iter_custom,
 *    iter_batched, iter_batched_ref): opens an iteration of Bencher.iters
 *    invocations (one criterion sample, or one warm-up run); iter_end on the
 *    method's return closes it. criterion times the loop inside the method
 *    (measurement.start() .. measurement.end(), bencher.rs), so the
 *    iteration holds criterion's own time plus two clock reads and the
 *    probes' traps;
 *  - crit_warmup_enter / crit_warmup_exit, at the entry and return of
 *    Routine::warm_up: iterations the thread begins in between are marked
 *    BS_ITER_F_HARNESS_WARMUP;
 *  - crit_bench_name, at <Reports as Report>::benchmark_start (and
 *    ::profile): emits the benchmark id (BenchmarkId.full_id, a Rust
 *    String: pointer and length) with bench_name_emit, before the
 *    benchmark's first iteration.
 */
#include "benchscope/criterion.h"

/* Threads inside Routine::warm_up: tid -> the task's start_time, so that an
 * entry left by a thread that died there never marks a later thread that
 * reuses its tid. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u64);
} crit_warm SEC(".maps");

/* Integer argument `i` (0: the first) at a function's entry. Every register
 * is loaded at its fixed offset first: the verifier refuses a load from ctx
 * at a computed offset, which a switch of loads compiles to. */
static __always_inline __u64 crit_arg(struct pt_regs *ctx, unsigned i)
{
	__u64 a0 = PT_REGS_PARM1(ctx), a1 = PT_REGS_PARM2(ctx), a2 = PT_REGS_PARM3(ctx),
	      a3 = PT_REGS_PARM4(ctx), a4 = PT_REGS_PARM5(ctx);

	barrier_var(a0);
	barrier_var(a1);
	barrier_var(a2);
	barrier_var(a3);
	barrier_var(a4);
	switch (i) {
	case 0:
		return a0;
	case 1:
		return a1;
	case 2:
		return a2;
	case 3:
		return a3;
	case 4:
		return a4;
	}
	return 0;
}

static __always_inline bool crit_tracked(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	return probe_tracked(tgid) != NULL;
}

SEC("uprobe")
int BPF_KPROBE(iter_begin_criterion)
{
	__u64 ck = bpf_get_attach_cookie(ctx), iters = 0, *start;
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), flags = BS_ITER_F_INVOC_BAD;
	void *bencher = (void *)crit_arg(ctx, BS_CRIT_CK_ARG(ck));
	struct task_struct *task;
	struct thread_state *ts;

	if (!crit_tracked())
		return 0;
	if (!bpf_probe_read_user(&iters, sizeof(iters), bencher + BS_CRIT_CK_OFF_A(ck)) &&
	    iters > 0 && iters < (1ULL << 40))
		flags = BS_ITER_F_INVOC;
	else
		iters = 0;
	start = bpf_map_lookup_elem(&crit_warm, &tid);
	if (start) {
		task = bpf_get_current_task_btf();
		if (*start == task->start_time)
			flags |= BS_ITER_F_HARNESS_WARMUP;
	}
	iter_open(iters, flags, true);
	ts = open_iter(tid);
	if (ts)
		ts->rec.probe = BS_CRIT_CK_SITE(ck);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(crit_warmup_enter)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct task_struct *task;
	__u64 start;

	if (!crit_tracked())
		return 0;
	task = bpf_get_current_task_btf();
	start = task->start_time;
	bpf_map_update_elem(&crit_warm, &tid, &start, BPF_ANY);
	return 0;
}

SEC("uretprobe")
int BPF_KRETPROBE(crit_warmup_exit)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	if (bpf_map_delete_elem(&crit_warm, &tid))
		probe_tracked(bpf_get_current_pid_tgid() >> 32); /* counts a foreign hit */
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(crit_bench_name)
{
	__u64 ck = bpf_get_attach_cookie(ctx), ptr = 0, len = 0;
	void *id = (void *)crit_arg(ctx, BS_CRIT_CK_ARG(ck));
	struct bs_counters *c;

	if (!crit_tracked())
		return 0;
	if (bpf_probe_read_user(&ptr, sizeof(ptr), id + BS_CRIT_CK_OFF_A(ck)) ||
	    bpf_probe_read_user(&len, sizeof(len), id + BS_CRIT_CK_OFF_B(ck)) || !ptr ||
	    len > (1ULL << 20)) {
		if ((c = ctrs()))
			c->bench_lost++;
		return 0;
	}
	bench_name_emit((const void *)ptr, (__s64)len);
	return 0;
}
