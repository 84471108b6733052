// SPDX-License-Identifier: GPL-2.0
/*
 * waste.bpf.c - `benchscope waste`: address samples and watchpoint hits.
 *
 * on_sample runs on each thread's sampling perf event (a software task-clock
 * timer, or a precise PMU memory event where one exists). When it interrupted
 * user code it sends user space the registers, the instruction bytes at the
 * ip and the user stack; with cfg_freeze it also stops the thread group
 * (SIGSTOP) before the sampled instruction runs, so user space can arm a
 * watchpoint that sees the very next access (it sends SIGCONT after arming).
 *
 * on_hit runs on each hardware breakpoint perf event (4 per thread; the BPF
 * cookie is the slot index in `slots`). The first trap of a slot armed
 * before the sampled access ran is that access itself: its value is kept as
 * `old`. The next trap is recorded with the value now there and the user
 * stack; later traps are only counted until user space re-arms the slot.
 *
 * Tasks forked from a followed process are followed (`pids`); user space
 * gets NEW, EXEC and EXIT records for them. A process leaves `pids` when its
 * leader's task is freed (after every thread of it was reaped), so that a
 * long run's short-lived processes do not fill it; a fork the full map
 * cannot take is counted (n_unfollowed_procs).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "benchscope/waste_record.h"

char LICENSE[] SEC("license") = "GPL";

#define SIGSTOP 19
#define SIGTRAP 5

/* benchscope's own process: its SIGTRAPs are recorded too (set before load) */
const volatile __u32 cfg_self_tgid;

const volatile bool cfg_freeze = true;

/* user space: 1 while a frozen sample is being handled (no new freeze then) */
volatile __u32 freeze_busy;
/* every trap, per CPU that took it: the controller weighs each CPU's by its own cost */
__u64 cpu_traps[BS_WASTE_MAX_CPUS];
/* counters (read by user space at exit) */
__u64 n_samples, n_kernel_samples, n_busy_skips, n_lost, n_hits, n_self, n_extra, n_stale;
/* processes forked from a followed one and not followed: `pids` was full */
__u64 n_unfollowed_procs;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BS_WASTE_MAX_SLOTS);
	__type(key, __u32);
	__type(value, struct bs_waste_slot);
} slots SEC(".maps");

/* followed processes (tgid -> 1) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, __u32);
} pids SEC(".maps");

/*
 * The user-visible register layout of a perf_event program's context
 * (bpf_user_pt_regs_t = the UAPI struct pt_regs of x86-64). Read without
 * CO-RE: the kernel's own struct pt_regs names the code segment `csx` on
 * kernels with FRED support and `cs` before (6.1), while the UAPI layout,
 * which the verifier checks context reads against, has never changed.
 */
struct bs_uapi_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip,
	    cs, flags, sp, ss;
};

SEC("perf_event")
int on_sample(struct bpf_perf_event_data *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	__u64 id = bpf_get_current_pid_tgid();
	struct bs_waste_sample *s;
	struct pt_regs *r = (struct pt_regs *)&ctx->regs;
	long n;

	if ((((volatile struct bs_uapi_regs *)&ctx->regs)->cs & 3) !=
	    3) { /* in the kernel: nothing to decode */
		__sync_fetch_and_add(&n_kernel_samples, 1);
		return 0;
	}
	if (cfg_freeze && freeze_busy) {
		__sync_fetch_and_add(&n_busy_skips, 1);
		return 0;
	}
	s = bpf_ringbuf_reserve(&rb, sizeof(*s), 0);
	if (!s) {
		__sync_fetch_and_add(&n_lost, 1);
		return 0;
	}
	s->type = BS_WREC_SAMPLE;
	s->tid = (__u32)id;
	s->pid = id >> 32;
	s->ns = bpf_ktime_get_ns();
	s->addr = ctx->addr;
	s->regs.r15 = r->r15;
	s->regs.r14 = r->r14;
	s->regs.r13 = r->r13;
	s->regs.r12 = r->r12;
	s->regs.bp = r->bp;
	s->regs.bx = r->bx;
	s->regs.r11 = r->r11;
	s->regs.r10 = r->r10;
	s->regs.r9 = r->r9;
	s->regs.r8 = r->r8;
	s->regs.ax = r->ax;
	s->regs.cx = r->cx;
	s->regs.dx = r->dx;
	s->regs.si = r->si;
	s->regs.di = r->di;
	s->regs.ip = r->ip;
	s->regs.sp = r->sp;
	s->regs.flags = r->flags;
	s->regs.fs_base = BPF_CORE_READ(t, thread.fsbase);
	s->insn_ok = bpf_probe_read_user(s->insn, sizeof(s->insn), (void *)r->ip) == 0;
	n = bpf_get_stack(ctx, s->stack, sizeof(s->stack), BPF_F_USER_STACK);
	s->nstack = n > 0 ? (__u64)n / 8 : 0;
	s->frozen = 0;
	if (cfg_freeze && s->insn_ok) {
		if (bpf_send_signal(SIGSTOP) == 0) {
			s->frozen = 1;
			freeze_busy = 1;
		}
	}
	__sync_fetch_and_add(&n_samples, 1);
	bpf_ringbuf_submit(s, BPF_RB_FORCE_WAKEUP);
	return 0;
}

static __always_inline __u64 read_val(__u64 addr, __u32 len, int *ok)
{
	__u64 v = 0;

	*ok = bpf_probe_read_user(&v, 8, (void *)addr) == 0;
	if (!*ok)
		*ok = bpf_probe_read_user(&v, 1, (void *)addr) == 0 &&
		      bpf_probe_read_user(&v, len & 7 ? len & 7 : 1, (void *)addr) == 0;
	if (len < 8)
		v &= (1ull << (len * 8)) - 1;
	return v;
}

SEC("perf_event")
int on_hit(struct bpf_perf_event_data *ctx)
{
	__u32 key = (__u32)bpf_get_attach_cookie(ctx);
	struct pt_regs *r = (struct pt_regs *)&ctx->regs;
	struct bs_waste_slot *sl = bpf_map_lookup_elem(&slots, &key);
	struct bs_waste_hit *h;
	__u64 id, v;
	int ok;
	long n;

	if (!sl)
		return 0;
	__sync_fetch_and_add(&cpu_traps[bpf_get_smp_processor_id() & (BS_WASTE_MAX_CPUS - 1)], 1);
	if (sl->state == BS_WSLOT_FREE || sl->addr != ctx->addr) {
		__sync_fetch_and_add(&n_stale, 1);
		return 0;
	}
	if (sl->state == BS_WSLOT_DONE) {
		sl->extra++;
		__sync_fetch_and_add(&n_extra, 1);
		return 0;
	}
	v = read_val(sl->addr, sl->len, &ok);
	if (sl->state == BS_WSLOT_WAIT_SELF) {
		if (r->ip == sl->self_ip) {
			sl->old = v;
			sl->state = BS_WSLOT_ARMED;
			__sync_fetch_and_add(&n_self, 1);
			return 0;
		}
		/* accesses between the stop and the sampled access (the sample is
		 * a few instructions ahead of the ip): wait a little for it */
		if (++sl->extra < 16) {
			__sync_fetch_and_add(&n_extra, 1);
			return 0;
		}
	}
	h = bpf_ringbuf_reserve(&rb, sizeof(*h), 0);
	if (!h) {
		__sync_fetch_and_add(&n_lost, 1);
		return 0;
	}
	id = bpf_get_current_pid_tgid();
	h->type = BS_WREC_HIT;
	h->slot = key;
	h->gen = sl->gen;
	h->tid = (__u32)id;
	h->pid = id >> 32;
	h->flags =
	    (sl->state == BS_WSLOT_WAIT_SELF ? BS_WHIT_NOSELF : 0) | (ok ? 0 : BS_WHIT_NOVALUE);
	h->pad = 0;
	h->ns = bpf_ktime_get_ns();
	h->addr = sl->addr;
	h->ip = r->ip;
	h->old = sl->old;
	h->val = v;
	if (bpf_probe_read_user(h->code, sizeof(h->code), (void *)(r->ip - sizeof(h->code))))
		__builtin_memset(h->code, 0, sizeof(h->code));
	n = bpf_get_stack(ctx, h->stack, sizeof(h->stack), BPF_F_USER_STACK);
	h->nstack = n > 0 ? (__u64)n / 8 : 0;
	sl->state = BS_WSLOT_DONE;
	__sync_fetch_and_add(&n_hits, 1);
	bpf_ringbuf_submit(h, BPF_RB_FORCE_WAKEUP);
	return 0;
}

static __always_inline void task_rec(__u32 what, __u32 tid, __u32 pid)
{
	struct bs_waste_task *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e) {
		__sync_fetch_and_add(&n_lost, 1);
		return;
	}
	e->type = BS_WREC_TASK;
	e->what = what;
	e->tid = tid;
	e->pid = pid;
	e->ns = bpf_ktime_get_ns();
	bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ppid = BPF_CORE_READ(parent, tgid), cpid = BPF_CORE_READ(child, tgid);
	__u32 one = 1;

	if (!bpf_map_lookup_elem(&pids, &ppid))
		return 0;
	if (cpid != ppid && bpf_map_update_elem(&pids, &cpid, &one, BPF_ANY)) {
		__sync_fetch_and_add(&n_unfollowed_procs, 1);
		return 0; /* none of its tasks is followed, nor named to user space */
	}
	task_rec(BS_WTASK_NEW, BPF_CORE_READ(child, pid), cpid);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	__u32 pid = BPF_CORE_READ(p, tgid);

	if (bpf_map_lookup_elem(&pids, &pid))
		task_rec(BS_WTASK_EXEC, BPF_CORE_READ(p, pid), pid);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	__u32 pid = BPF_CORE_READ(p, tgid);

	if (bpf_map_lookup_elem(&pids, &pid))
		task_rec(BS_WTASK_EXIT, BPF_CORE_READ(p, pid), pid);
	return 0;
}

/*
 * The process is gone: its leader's task is freed only after every thread
 * of the group was reaped (an old leader replaced by another thread's exec
 * no longer has pid == tgid). Not at the last thread's exit: signal->live
 * reaches 0 when the last thread decrements it, before threads that
 * decremented it earlier reach sched_process_exit, whose EXIT records need
 * the entry.
 */
SEC("tp_btf/sched_process_free")
int BPF_PROG(on_free, struct task_struct *p)
{
	__u32 pid = BPF_CORE_READ(p, tgid);

	if (BPF_CORE_READ(p, pid) == pid)
		bpf_map_delete_elem(&pids, &pid);
	return 0;
}

/*
 * Every SIGTRAP generated for a followed process (or benchscope): what kind
 * of trap it was (si_code), where (the ip) and on which CPU, so that a
 * debug trap no breakpoint claimed is named rather than only fatal. (The
 * CPU's breakpoint registers, cpu_dr7 and bp_per_reg, are per-CPU data the
 * verifier finds only through kallsyms, which lacks data symbols here.)
 */
SEC("tp_btf/signal_generate")
int BPF_PROG(on_signal, int sig, struct kernel_siginfo *info, struct task_struct *task, int group,
	     int result)
{
	struct bs_waste_trap *e;
	__u32 pid;

	if (sig != SIGTRAP)
		return 0;
	pid = BPF_CORE_READ(task, tgid);
	if (pid != cfg_self_tgid && !bpf_map_lookup_elem(&pids, &pid))
		return 0;
	e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e) {
		__sync_fetch_and_add(&n_lost, 1);
		return 0;
	}
	e->type = BS_WREC_TRAP;
	e->tid = BPF_CORE_READ(task, pid);
	e->pid = pid;
	e->ns = bpf_ktime_get_ns();
	e->cpu = bpf_get_smp_processor_id();
	e->pad = 0;
	/* SEND_SIG_NOINFO (0) and SEND_SIG_PRIV (1) are not pointers */
	e->code = (unsigned long)info > 1 ? BPF_CORE_READ(info, si_code) : 0;
	e->ip = (unsigned long)info > 1 ? (__u64)BPF_CORE_READ(info, _sifields._sigfault._addr) : 0;
	e->virtual_dr6 = bpf_core_field_exists(task->thread.virtual_dr6)
			     ? BPF_CORE_READ(task, thread.virtual_dr6)
			     : 0;
	bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
	return 0;
}
