// SPDX-License-Identifier: GPL-2.0
/*
 * benchscope.bpf.c - iteration boundaries and in-kernel interference accounting.
 *
 * Boundary programs (uprobe / uretprobe / USDT, or exec/exit for the process
 * preset) open and close an iteration of the current thread. While a thread
 * has an open iteration, the scheduler and IRQ handlers below account what
 * disturbed it into its entry in `threads`; nothing reaches user space per
 * context switch. When the iteration closes, one struct bs_iter_rec goes to
 * the ring buffer (or, if that is full, to the `spill` map; only if both are
 * full is it counted as lost).
 *
 * With one probe per iteration (onep.bpf.h) the end probe alone makes the
 * record, from running totals and the harness's own begin timestamp.
 *
 * Processes are filtered by `tracked` (the harness and its descendants,
 * inserted by user space for the root and followed here through fork).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/usdt.bpf.h>
#include "benchscope/maps.h"
#include "benchscope/record.h"

char LICENSE[] SEC("license") = "GPL";

#define MAX_CPUS	  8192 /* x86-64's largest NR_CPUS (MAXSMP); arm64's is 4096 */
#define TASK_RUNNING	  0
#define TASK_STOPPED_BIT  0x4 /* __TASK_STOPPED */
#define SIGCONT		  18
#define SIGSTOP		  19
#define SIGNAL_GROUP_EXIT 0x00000004

/* ---- configuration, set by user space between open and load ------------- */
const volatile bool cfg_gbench = false;	       /* begin reads benchmark::State */
const volatile __u32 cfg_gb_off_max_iter = 16; /* offsets into benchmark::State */
const volatile __u32 cfg_gb_off_started = 24;
const volatile __u32 cfg_gb_off_finished = 25;
const volatile __u32 cfg_gb_off_timer = 120;   /* --probes 1: State::timer_ (ThreadTimer *) */
const volatile __u32 cfg_gb_tt_start_real = 8; /* ThreadTimer::start_real_time_ (double s) */
const volatile __u32 cfg_gb_tt_real_used = 24; /* ThreadTimer::real_time_used_ (double s) */
const volatile bool cfg_process_iters = false; /* --preset process */
const volatile __u32 cfg_process_depth = 1;    /* children of the root process */
const volatile bool cfg_interferers = true;
const volatile bool cfg_go = false;	   /* --preset go (go.bpf.h) */
const volatile bool cfg_one_probe = false; /* --probes 1 (onep.bpf.h) */
/* charges carry their iteration (bs_boundaries_charges_by_iteration) */
const volatile bool cfg_charge_iter = false;
const volatile bool cfg_lines = false; /* output-line boundaries: account between writes */
/* Wake the consumer only when this much data waits: a wake-up is an
 * irq_work self-IPI, which costs ~20 us in a VM, more than the record. The
 * consumer also polls on a timer, so nothing waits longer than that. */
const volatile __u64 cfg_wakeup_bytes = 1 << 20;

/* ---- maps ---------------------------------------------------------------- */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32); /* tgid */
	__type(value, struct bs_tracked_proc);
} tracked SEC(".maps");

/* Processes whose EXIT record was sent, until their leader is freed
 * (on_exit, on_free): the threads that see the last one leave after the
 * first find it here. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32); /* tgid */
	__type(value, __u8);
} exit_sent SEC(".maps");

/* Open iteration of one thread and what it has suffered so far. */
struct thread_state {
	struct bs_iter_rec rec;				/* filled as we go, emitted at the end */
	__u64 off_start;				/* when it left the CPU (0: on CPU) */
	__u64 wake_ts;					/* when it was woken after blocking */
	__u64 nvcsw0, nivcsw0, migrations0, run_delay0; /* task counters at begin */
	__u64 steal0;					/* rq steal clock when it came on CPU */
	__u64 n_out;	    /* switch-outs seen since the base (iter_rebase), to check
			     * the task's own counts against (BS_ITER_F_UNSEEN_SWITCH) */
	__u32 off_runnable; /* left the CPU still runnable */
	__u32 wait_cpu1;    /* 1 + CPU whose cpu_wait names it (0: none) */
	__u32 open;	    /* an iteration is open; the entry stays between
			     * iterations (no insert/delete per iteration)
			     * and goes when the thread exits */
	__u32 held_side;    /* its duet side (0 A, 1 B), for the RESUME record */
	__u64 held;	    /* duet barrier: 1 SIGSTOP sent at begin, 2 stopped, 3
			     * claimed off CPU before the stop took effect, 4
			     * claimed on CPU before it took effect; 2 and 3
			     * re-stamp the iteration when it next runs (64 bits
			     * for barrier_claimed's compare-and-swap) */
	__u64 held_index;   /* rendezvous index it waits at */
	__u64 go_g;	    /* --preset go: the goroutine whose iteration this is (0: none);
			     * see go.bpf.h */
	__u64 go_task;	    /* --preset go: this thread's task_struct, to fold its counters
			     * when the iteration moves to another thread */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32); /* tid */
	__type(value, struct thread_state);
} threads SEC(".maps");

/* The thread's state if it has an open iteration, else NULL. */
static __always_inline struct thread_state *open_iter(__u32 tid)
{
	struct thread_state *ts = bpf_map_lookup_elem(&threads, &tid);

	return ts && ts->open ? ts : NULL;
}

/*
 * The scheduler handlers' second early exit (the first is struct
 * sched_hot's; in Go and one-probe modes this is the first): one bit per
 * tgid (modulo 4096) of the processes that have opened an iteration since
 * the object was loaded, set by iter_mark_process before the iteration
 * opens and never cleared (another process may share the bit). A clear bit
 * means no thread of the process has an open iteration, so sched_switch
 * and sched_wakeup of every other task cost one load instead of a hash
 * lookup by tid; a set bit of an unrelated tgid only costs that lookup.
 * Kept in the hash rather than task-local storage: Go's moves and the duet
 * barrier reach another thread's state by tid, which 6.1 cannot turn into
 * a task_struct (bpf_task_from_pid is 6.2+), and a 6.1 task-storage lookup
 * from sched_switch fails while the CPU's storage lock is busy
 * (vmtest/README.md).
 */
#define OPEN_TGID_BITS 4096
__u64 open_tgids[OPEN_TGID_BITS / 64];

/* Thread group `tgid` may have an open iteration (see open_tgids). */
static __always_inline bool process_maybe_open(__u32 tgid)
{
	__u32 i = (tgid / 64) & (OPEN_TGID_BITS / 64 - 1);

	return open_tgids[i] & (1ULL << (tgid & 63));
}

/* Thread group `tgid` is about to open an iteration: set its bit. */
static __always_inline void iter_mark_process(__u32 tgid)
{
	__u32 i = (tgid / 64) & (OPEN_TGID_BITS / 64 - 1);
	__u64 m = 1ULL << (tgid & 63);

	if (!(open_tgids[i] & m)) /* no store on the shared line when set */
		__sync_fetch_and_or(&open_tgids[i], m);
}

/*
 * Per-CPU state lives in global arrays indexed by CPU, one cache line per
 * CPU: the scheduler and IRQ handlers reach it with a load instead of a
 * map-lookup call (each call is tens of ns on a cloud VM).
 */

/* Per CPU: the in-iteration thread running here, and IRQ time under it. */
struct cpu_cur {
	__u32 tid; /* 0: none */
	__u32 _pad;
	__u64 irq_start;
	__u64 softirq_start;
	__u64 irq_acc;
	__u64 softirq_acc;
} __attribute__((aligned(64)));

/*
 * What the scheduler and IRQ handlers read first lives in a section of
 * static variables only: libbpf then creates its map without
 * BPF_F_MMAPABLE, and a map of up to 32 KiB is kmalloc'ed, in the kernel's
 * linear map like the task_structs the handlers touch anyway, rather than
 * vmalloc'ed in 4 KiB pages like the rest of the global data (.rodata
 * too). On a cloud VM the TLB miss on such a page costs more than the
 * cache miss: on AMD EPYC under PVM a handler's first load of global data
 * took 400-500 ns. The early exits read the first cache line of struct
 * sched_hot only (on up to 6 CPUs), by address, never through the stack
 * (see switch_account).
 *
 * The map's value starts offsetof(struct bpf_array, value) into a page
 * (56 bytes into a cache line on 6.18, 16 on 6.1), so the struct starts
 * far enough into `hot_area` that its lines are the memory's (hot(), with
 * CO-RE).
 */
#define HOT_CPUS 384 /* 27 KiB in all */
#define HOT_FAST 1
#define HOT_SLOW 2
struct sched_hot {
	/* In-iteration threads off their CPU (off_start set), all processes.
	 * While it is 0 no switch-in or wake-up can concern an iteration, and
	 * a switch-out only does if the task leaving is its CPU's task[] (the
	 * in-iteration thread that came on there), so a switch of other tasks
	 * reads no task_struct. Every off_start 0 -> set adds one and every
	 * set -> 0 takes one (off_set, off_clear), so a missed switch only
	 * ever leaves it too high, which costs the exit, never an account. */
	__u64 n_off;
	/* Whether those exits hold (HOT_FAST), set by the first on_switch from
	 * the configuration: not in Go and one-probe modes, where threads are
	 * followed without an open iteration (go.bpf.h, onep.bpf.h). A copy
	 * here because .rodata is one more page for the exit to miss. */
	__u32 mode; /* 0 (unset), HOT_FAST or HOT_SLOW */
	__u32 _pad;
	/* Per CPU below HOT_CPUS: the task_struct of the in-iteration thread
	 * that came on it last (0: none); it may outlive its slice, which only
	 * costs the exit. Written at the measured threads' switches only, like
	 * n_off; CPUs from HOT_CPUS on have no early exit. */
	__u64 task[HOT_CPUS];
	/* struct cpu_cur of CPUs below HOT_CPUS; the others keep theirs in
	 * ordinary global data (cpu_curs_cold, MAX_CPUS in all). */
	struct cpu_cur cpu[HOT_CPUS];
};

static __u8 hot_area[sizeof(struct sched_hot) + 64] SEC(".data.hot");
/* struct cpu_cur of CPUs from HOT_CPUS on (indexed by CPU, the first
 * HOT_CPUS unused: a mask, not a compare, bounds the index for 6.1's
 * verifier) */
static struct cpu_cur cpu_curs_cold[MAX_CPUS];

/* The struct sched_hot in hot_area, cache-line aligned in memory (never
 * NULL). */
static __always_inline struct sched_hot *hot(void)
{
	/* a multiple of 8 (the offset is), which the verifier of 6.1, for
	 * which the offset is not a constant, needs to see for the atomics */
	__u32 skew = (64 - (bpf_core_field_offset(struct bpf_array, value) & 63)) & 56;

	return (struct sched_hot *)(hot_area + skew);
}

/* Per CPU (its waiter readable from any CPU): a tracked thread waiting for
 * this CPU, so the tasks that run here meanwhile can be charged, and the
 * pairs last charged here (struct bs_cpu_wait; user space reads `pend` at
 * the end of a run, hence global) */
struct bs_cpu_wait cpu_waits[MAX_CPUS];

/* Thread `ts` left its CPU at `now` (see sched_hot). */
static __always_inline void off_set(struct thread_state *ts, __u64 now)
{
	if (!ts->off_start)
		__sync_fetch_and_add(&hot()->n_off, 1);
	ts->off_start = now;
}

/* Thread `ts` is on a CPU again, or its iteration is over (see sched_hot). */
static __always_inline void off_clear(struct thread_state *ts)
{
	if (ts->off_start)
		__sync_fetch_and_add(&hot()->n_off, -1);
	ts->off_start = 0;
}

/* CPU `cpu`'s waiter slot (never NULL: a CPU number is below MAX_CPUS; the
 * mask is for the verifier, which 6.1's cannot follow through a NULL check
 * of the index) */
static __always_inline struct bs_cpu_wait *cpu_wait_of(__u32 cpu)
{
	return &cpu_waits[cpu & (MAX_CPUS - 1)];
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct bs_spill_key);
	__type(value, struct bs_iter_rec);
} spill SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} rb SEC(".maps");

#include "shared_maps.bpf.h"

/* The barrier of the sync duet run in progress (one at a time). User space
 * (bs_probes_barrier_arm, user/probe/probes.c) resets it and sets `active` per sync run through the
 * mmap'ed .bss; the two sides meet here with atomic operations only
 * (tracing programs cannot take bpf_spin_lock). */
__u32 bar_active;      /* BS_BAR_SYNC / BS_BAR_INTERLEAVED while such a run goes; 0 */
__u32 bar_gen;	       /* run generation, copied into the records */
__u64 bar_arrived[2];  /* iteration begins seen per side (A, B) in this run */
__u64 bar_waiting[2];  /* 1 + index a side stopped itself at; 0: not waiting */
__u64 bar_begin_ns[2]; /* begin of each side's latest arrival */
__u32 bar_pid[2];      /* process of each side's latest arrival */
__u32 bar_lead;	       /* interleaved: the side whose iteration comes first in a turn */
__u64 bar_done[2];     /* interleaved: iteration ends seen per side in this run */
__u32 bar_tid[2];      /* thread of each side that stopped itself last */
__u32 bar_kcont;       /* 1: the program that continues a stopped side from BPF is
			* attached (user space sets it once, after attaching it) */

/* ---- helpers ------------------------------------------------------------- */
static __always_inline struct bs_counters *ctrs(void)
{
	__u32 zero = 0;
	return bpf_map_lookup_elem(&counters, &zero);
}

/*
 * A boundary probe hit in process `tgid`: its tracked entry, or NULL for a
 * process not measured that runs the same binary (probes are set on the
 * file, for every process; that one paid the trap for nothing), counted in
 * foreign_hits. Only for probe programs: a scheduler handler sees untracked
 * tasks all the time.
 */
static __always_inline struct bs_tracked_proc *probe_tracked(__u32 tgid)
{
	struct bs_tracked_proc *tp = bpf_map_lookup_elem(&tracked, &tgid);
	struct bs_counters *c;

	if (!tp && (c = ctrs()))
		c->foreign_hits++;
	return tp;
}

/* An end probe hit in process `tgid` on a thread with no open iteration:
 * end_without_begin if the process is measured, else a foreign hit. */
static __always_inline void probe_end_unopened(__u32 tgid)
{
	struct bs_counters *c;

	if (probe_tracked(tgid) && (c = ctrs()))
		c->end_without_begin++;
}

/* CPU `cpu`'s cpu_cur (never NULL, see cpu_wait_of). */
static __always_inline struct cpu_cur *cpu_cur_of(__u32 cpu)
{
	if (cpu < HOT_CPUS)
		return &hot()->cpu[cpu];
	return &cpu_curs_cold[cpu & (MAX_CPUS - 1)];
}

/* This CPU's cpu_cur. */
static __always_inline struct cpu_cur *this_cpu_cur(void)
{
	return cpu_cur_of(bpf_get_smp_processor_id());
}

/* Task `t` comes on CPU `cpu` in an iteration: sched_hot.task (written
 * only when it changes: a thread opens iteration after iteration). */
static __always_inline void hot_task_set(__u32 cpu, struct task_struct *t)
{
	struct sched_hot *h = hot();

	if (cpu < HOT_CPUS && h->task[cpu] != (__u64)t)
		h->task[cpu] = (__u64)t;
}

/* Task `t`, running here, is about to open an iteration: name it in
 * sched_hot first, so that a switch-out of it from then on passes
 * on_switch's early exit (a uprobe program is preemptible). */
static __always_inline void cpu_claim(struct task_struct *t)
{
	hot_task_set(bpf_get_smp_processor_id(), t);
	asm volatile("" ::: "memory"); /* before the iteration opens */
}

/* Steal clock (ns) of the run queue of task `t`, which is running on this
 * CPU; 0 where the kernel does not account steal time. The kernel updates it
 * at each rq clock update. The rq is reached through the task's CFS run queue
 * (percpu `runqueues` needs CONFIG_KALLSYMS_ALL, often off). */
static __always_inline __u64 steal_clock(struct task_struct *t)
{
	struct cfs_rq *cfs;
	struct rq *rq;

	if (!bpf_core_field_exists(struct rq, prev_steal_time_rq) ||
	    !bpf_core_field_exists(struct cfs_rq, rq))
		return 0;
	/* BTF loads, no probe-read calls: `t` is a trusted task pointer */
	cfs = t->se.cfs_rq;
	if (!cfs)
		return 0;
	rq = cfs->rq;
	return rq ? rq->prev_steal_time_rq : 0;
}

/* The thread `ts` comes on this CPU (iteration begin, or switch-in). */
static __always_inline void slice_start(struct thread_state *ts, struct task_struct *t, __u32 tid)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct cpu_cur *cc = cpu_cur_of(cpu);

	hot_task_set(cpu, t);
	if (cc) {
		cc->tid = tid;
		cc->irq_acc = 0;
		cc->softirq_acc = 0;
	}
	ts->steal0 = steal_clock(t);
}

/* The thread `ts` leaves this CPU (switch-out, or iteration end): fold the
 * IRQ and steal time of the slice into the record. */
static __always_inline void slice_end(struct thread_state *ts, struct task_struct *t, __u32 tid)
{
	struct cpu_cur *cc = this_cpu_cur();
	__u64 steal = steal_clock(t);

	if (cc && cc->tid == tid) {
		ts->rec.irq_ns += cc->irq_acc;
		ts->rec.softirq_ns += cc->softirq_acc;
		cc->irq_acc = 0;
		cc->softirq_acc = 0;
		cc->tid = 0;
	}
	if (steal > ts->steal0 && ts->steal0)
		ts->rec.steal_ns += steal - ts->steal0;
	ts->steal0 = steal;
}

/* Send a charge of `ns` to (victim_pid, victim_iter, interferer tid), named
 * with task `t`'s tgid and comm when `t` is given; false when the ring
 * buffer is full (counted in interferer_lost). */
static __always_inline bool charge_send(__u32 victim_pid, __u32 victim_iter, __u32 tid,
					struct task_struct *t, __u64 ns)
{
	struct bs_interferer_charge *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	struct bs_counters *c;

	if (!r) {
		if ((c = ctrs()))
			c->interferer_lost++;
		return false;
	}
	r->type = BS_REC_INTERF;
	r->victim_pid = victim_pid;
	r->victim_iter = victim_iter;
	r->_pad = 0;
	r->interferer_tid = tid;
	r->ns = ns;
	r->interferer_pid = 0;
	r->comm[0] = 0;
	if (t) {
		r->interferer_pid = t->tgid;
		BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
	}
	/* the consumer polls on a timer too (cfg_wakeup_bytes) */
	bpf_ringbuf_submit(r, BPF_RB_NO_WAKEUP);
	return true;
}

/* Task `t` (sched_switch's prev, a BTF pointer) ran `ns` on this CPU while
 * w's victim waited for it in its iteration. A pair (victim, interferer)
 * charged here lately only adds to its slot, after sending, unnamed, what
 * the slot held for an earlier iteration of the victim; a new pair is sent
 * named and takes the oldest slot, whose pending time is sent first (struct
 * bs_cpu_wait). */
static __always_inline void charge_interferer(struct bs_cpu_wait *w, struct task_struct *t,
					      __u32 tid, __u64 ns)
{
	__u64 victim = *(volatile __u64 *)&w->victim;
	__u32 pid = (__u32)victim, iter = victim >> 32;
	struct bs_wait_pend *old = &w->pend[BS_WAIT_PEND - 1];
	int i;

	if (!ns)
		return;
#pragma unroll
	for (i = 0; i < BS_WAIT_PEND; i++) {
		if (w->pend[i].interferer_tid == tid && w->pend[i].victim_pid == pid) {
			if (w->pend[i].victim_iter != iter) {
				if (w->pend[i].ns)
					charge_send(pid, w->pend[i].victim_iter, tid, NULL,
						    w->pend[i].ns);
				w->pend[i].victim_iter = iter;
				w->pend[i].ns = 0;
			}
			w->pend[i].ns += ns;
			return;
		}
	}
	if (old->interferer_tid && old->ns)
		charge_send(old->victim_pid, old->victim_iter, old->interferer_tid, NULL, old->ns);
#pragma unroll
	for (i = BS_WAIT_PEND - 1; i > 0; i--)
		w->pend[i] = w->pend[i - 1];
	w->pend[0].interferer_tid = 0;
	if (!charge_send(pid, iter, tid, t, ns))
		return;
	w->pend[0].victim_pid = pid;
	w->pend[0].victim_iter = iter;
	w->pend[0].ns = 0;
	w->pend[0].interferer_tid = tid;
}

/* Thread `ts` (tid, pid) waits for CPU `cpu` from `now`: charge whoever runs there. */
static __always_inline void set_wait(struct thread_state *ts, __u32 cpu, __u32 tid, __u32 pid,
				     __u64 now)
{
	struct bs_cpu_wait *w;
	__u32 iter;

	if (!cfg_interferers)
		return;
	w = cpu_wait_of(cpu);
	if (!w)
		return;
	/* Where an iteration is a harness's run (its calibration runs too,
	 * which a report leaves out), lasting milliseconds at least: a report
	 * sums the charges of the iterations it analyses, and Go's can end
	 * without a record (a parent B, b.Skip) or restart (b.ResetTimer).
	 * --begin/--end iterations may last microseconds, where a send per
	 * iteration would cost more than the slot saves (+50 % on on_switch
	 * under scheduler load). --probes 1 numbers an iteration at its end
	 * (onep.bpf.h). */
	iter = cfg_charge_iter ? (__u32)ts->rec.index : BS_CHARGE_NO_ITER;
	*(volatile __u64 *)&w->victim = (__u64)iter << 32 | pid;
	w->since = now;
	w->victim_tid = tid;
	ts->wait_cpu1 = cpu + 1;
}

/* Thread `ts` waits at the duet barrier (barrier.bpf.h: its SIGSTOP pending,
 * or stopped, or claimed while off its CPU): until it next runs, its time off
 * the CPU is the barrier's wait, left out of its iteration when it resumes,
 * so nobody is charged for it. Held 4 (claimed on its CPU) is not: it keeps
 * its begin, and a later preemption is the iteration's. */
static __always_inline bool held_at_barrier(const struct thread_state *ts)
{
	return ts->held && ts->held != 4;
}

/* Thread `ts` runs again (on any CPU) or its iteration ends: stop charging. */
static __always_inline void clear_wait(struct thread_state *ts, __u32 tid)
{
	__u32 cpu;
	struct bs_cpu_wait *w;

	if (!ts->wait_cpu1)
		return;
	cpu = ts->wait_cpu1 - 1;
	ts->wait_cpu1 = 0;
	w = cpu_wait_of(cpu);
	if (w && w->victim_tid == tid)
		w->victim_tid = 0;
}

/* Take task `t`'s counters as the base of the iteration of `ts`, on its
 * CPU from now (neither off nor woken). */
static __always_inline void iter_rebase(struct thread_state *ts, struct task_struct *t)
{
	/* first: a switch-out between this and the reads below (a uprobe
	 * program is preemptible) is then seen but not in the base, never
	 * the reverse, so iter_check_switches never flags it */
	ts->n_out = 0;
	ts->nvcsw0 = BPF_CORE_READ(t, nvcsw);
	ts->nivcsw0 = BPF_CORE_READ(t, nivcsw);
	ts->migrations0 = BPF_CORE_READ(t, se.nr_migrations);
	ts->run_delay0 = BPF_CORE_READ(t, sched_info.run_delay);
	off_clear(ts);
	ts->wake_ts = 0;
	ts->off_runnable = 0;
}

/* Thread `ts` is in an iteration (or, with one probe, accounted) from now:
 * on its CPU, waiting for nothing, not held at a barrier. */
static __always_inline void iter_arm(struct thread_state *ts)
{
	off_clear(ts);
	ts->wake_ts = 0;
	ts->off_runnable = 0;
	ts->wait_cpu1 = 0;
	ts->held = 0;
	ts->open = 1;
}

/* Fold the task counters of `t` since the base (iter_rebase) into the
 * record of `ts`: += , an iteration that moved between threads (go.bpf.h)
 * carries the counts of the threads it left; others start from 0. */
static __always_inline void iter_fold_counters(struct thread_state *ts, struct task_struct *t)
{
	ts->rec.nvcsw += BPF_CORE_READ(t, nvcsw) - ts->nvcsw0;
	ts->rec.nivcsw += BPF_CORE_READ(t, nivcsw) - ts->nivcsw0;
	ts->rec.migrations += BPF_CORE_READ(t, se.nr_migrations) - ts->migrations0;
	ts->rec.sched_delay_ns += BPF_CORE_READ(t, sched_info.run_delay) - ts->run_delay0;
}

/* Forget what the iteration of `ts` suffered so far (its record's
 * interference fields and folded counts), when its measured time starts
 * again: the duet barrier's resume, Go's ResetTimer. The caller re-stamps
 * begin_ns and rebases (iter_rebase). */
static __always_inline void iter_zero_interference(struct thread_state *ts)
{
	ts->rec.preempted_ns = 0;
	ts->rec.blocked_ns = 0;
	ts->rec.runq_wait_ns = 0;
	ts->rec.irq_ns = 0;
	ts->rec.softirq_ns = 0;
	ts->rec.steal_ns = 0;
	ts->rec.sched_delay_ns = 0;
	ts->rec.nvcsw = 0;
	ts->rec.nivcsw = 0;
	ts->rec.migrations = 0;
}

#include "barrier.bpf.h"

/* Open an iteration on the current thread. `task_ctx`: called from a
 * boundary probe (uprobe, USDT), i.e. in the harness thread with preemption
 * and IRQs enabled, where a signal is sent at once; false from a tracepoint. */
static __always_inline int iter_open(__u64 invocations, __u32 flags, bool task_ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct thread_state *ts, zero = {};
	struct bs_tracked_proc *tp;
	struct bs_counters *c;

	tp = task_ctx ? probe_tracked(tgid) : bpf_map_lookup_elem(&tracked, &tgid);
	if (!tp)
		return 0;
	iter_mark_process(tgid);
	ts = bpf_map_lookup_elem(&threads, &tid);
	if (ts) {
		if (ts->open)
			flags |= BS_ITER_F_NESTED;
	} else {
		if (bpf_map_update_elem(&threads, &tid, &zero, BPF_NOEXIST)) {
			if ((c = ctrs()))
				c->thread_map_full++;
			return 0;
		}
		ts = bpf_map_lookup_elem(&threads, &tid);
		if (!ts)
			return 0;
	}
	__builtin_memset(&ts->rec, 0, sizeof(ts->rec));
	ts->rec.type = BS_REC_ITER;
	ts->rec.flags = flags;
	ts->rec.index = __sync_fetch_and_add(&tp->iter_seq, 1);
	ts->rec.pid = tgid;
	ts->rec.tid = tid;
	ts->rec.cpu_begin = bpf_get_smp_processor_id();
	ts->rec.invocations = invocations;
	cpu_claim(task);
	iter_arm(ts);
	iter_rebase(ts, task);
	slice_start(ts, task, tid);
	ts->rec.begin_ns = bpf_ktime_get_ns();
	if (tp->side && bar_active == BS_BAR_SYNC)
		barrier_arrive(ts, tp->side - 1, tgid, task_ctx);
	else if (tp->side && bar_active == BS_BAR_INTERLEAVED)
		turn_arrive(ts, tp->side - 1, tgid, task_ctx);
	return 0;
}

/* Deliver a finished record: ring buffer, else spill map, else count it lost. */
static __always_inline void emit(struct bs_iter_rec *rec)
{
	struct bs_counters *c = ctrs();
	struct bs_spill_key key;

	__u64 wake = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= cfg_wakeup_bytes
			 ? BPF_RB_FORCE_WAKEUP
			 : BPF_RB_NO_WAKEUP;

	if (!bpf_ringbuf_output(&rb, rec, sizeof(*rec), wake)) {
		if (c)
			c->iter_emitted++;
		return;
	}
	rec->flags |= BS_ITER_F_SPILLED;
	key.pid = rec->pid;
	key.tid = rec->tid;
	key.index = rec->index;
	if (!bpf_map_update_elem(&spill, &key, rec, BPF_NOEXIST)) {
		if (c)
			c->iter_spilled++;
		return;
	}
	if (c)
		c->iter_lost++;
}

/* The harness names the benchmark this thread runs from now on (a preset's
 * probe read where the name is): `len` bytes at user address `uptr` (Go
 * and Rust strings carry no terminator), or a NUL-terminated C string when
 * len < 0. The caller has checked that the process is measured
 * (probe_tracked). A name that cannot be read here goes to user space by
 * its address (struct bs_bench_addr_rec); a failed reserve and an empty
 * name are counted in bench_lost. See struct bs_bench_rec. */
static __always_inline __attribute__((unused)) void bench_name_emit_at(const void *uptr, __s64 len,
								       __u64 ts_ns)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, n;
	struct bs_counters *c;
	struct bs_bench_rec *r;
	long err;

	r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	if (!r) {
		if ((c = ctrs()))
			c->bench_lost++;
		return;
	}
	__builtin_memset(r->name, 0, sizeof(r->name));
	if (len < 0) {
		err = bpf_probe_read_user_str(r->name, sizeof(r->name), uptr);
		n = err > 0 ? (__u32)err - 1 : 0;
	} else {
		n = len < BS_BENCH_NAME_LEN - 1 ? (__u32)len : BS_BENCH_NAME_LEN - 1;
		barrier_var(n);
		if (n > BS_BENCH_NAME_LEN - 1) /* for the verifier */
			n = BS_BENCH_NAME_LEN - 1;
		err = n ? bpf_probe_read_user(r->name, n, uptr) : -1;
	}
	if (err < 0 && len != 0) {
		/* its page is not in memory: user space reads it */
		struct bs_bench_addr_rec *a = (void *)r;

		a->type = BS_REC_BENCH_ADDR;
		a->pid = tgid;
		a->tid = (__u32)id;
		a->name_len = len < 0 ? 0 : (__u32)len;
		a->ts_ns = ts_ns;
		a->uaddr = (__u64)uptr;
		/* woken now, while the process is there to be read */
		bpf_ringbuf_submit(r, BPF_RB_FORCE_WAKEUP);
		return;
	}
	if (err < 0) {
		bpf_ringbuf_discard(r, 0);
		if ((c = ctrs()))
			c->bench_lost++;
		return;
	}
	r->type = BS_REC_BENCH;
	r->pid = tgid;
	r->tid = (__u32)id;
	r->name_len = len < 0 ? n : (__u32)len;
	r->ts_ns = ts_ns;
	/* no wake-up (see cfg_wakeup_bytes): the default one, sent when the
	 * reader has caught up, cost ~6 us per name on the development VM,
	 * per Go run */
	bpf_ringbuf_submit(r, bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= cfg_wakeup_bytes
				  ? BPF_RB_FORCE_WAKEUP
				  : BPF_RB_NO_WAKEUP);
}

/* bench_name_emit_at, named from now on. */
static __always_inline __attribute__((unused)) void bench_name_emit(const void *uptr, __s64 len)
{
	bench_name_emit_at(uptr, len, bpf_ktime_get_ns());
}

/* Flag the iteration of `ts` (counters folded; its thread running, at its
 * end) if on_switch missed a switch of it: every nvcsw/nivcsw increment
 * comes with a sched_switch with the task as prev, so counts above the
 * switch-outs seen are missed switch-outs; a switch-out whose switch-in was
 * never seen leaves off_start set. Either way off-CPU time is missing from
 * the record. Not for Go, whose iterations carry the counts of the threads
 * they left. */
static __always_inline void iter_check_switches(struct thread_state *ts)
{
	__u64 sw = ts->rec.nvcsw + ts->rec.nivcsw;
	__u64 missed = (sw > ts->n_out ? sw - ts->n_out : 0) + (ts->off_start ? 1 : 0);
	struct bs_counters *c;

	if (cfg_go || !missed)
		return;
	ts->rec.flags |= BS_ITER_F_UNSEEN_SWITCH;
	if ((c = ctrs()))
		c->switches_unseen += missed;
}

/* Close the open iteration of thread `tid` (task `task`) at `now`;
 * `task_ctx` as for iter_open. */
static __always_inline void iter_close(struct task_struct *task, __u32 tid, __u64 now, __u32 flags,
				       bool task_ctx)
{
	struct thread_state *ts = open_iter(tid);
	struct bs_counters *c;

	if (!ts) {
		__u32 tgid = BPF_CORE_READ(task, tgid);

		if (task_ctx)
			probe_end_unopened(tgid);
		else if (bpf_map_lookup_elem(&tracked, &tgid) && (c = ctrs()))
			c->end_without_begin++;
		return;
	}
	slice_end(ts, task, tid);
	clear_wait(ts, tid);
	ts->rec.end_ns = now;
	ts->rec.cpu_end = bpf_get_smp_processor_id();
	ts->rec.flags |= flags;
	iter_fold_counters(ts, task);
	iter_check_switches(ts);
	off_clear(ts);
	ts->open = 0;
	emit(&ts->rec);
	if (bar_active == BS_BAR_INTERLEAVED) {
		__u32 tgid = BPF_CORE_READ(task, tgid);
		struct bs_tracked_proc *tp = bpf_map_lookup_elem(&tracked, &tgid);

		if (tp && tp->side)
			turn_pass(tp->side - 1, now, tgid, task_ctx);
	}
}

#include "onep.bpf.h"
#include "go.bpf.h"

/* ---- boundary programs --------------------------------------------------- */
SEC("uprobe")
int BPF_KPROBE(iter_begin)
{
	return iter_open(0, 0, true);
}

/* Google Benchmark: benchmark::State::StartKeepRunning(this). Reads the run's
 * invocation count (State::max_iterations) with the layout user space
 * verified for the library version, and checks it is plausible. */
SEC("uprobe")
int BPF_KPROBE(iter_begin_gbench, void *state)
{
	__u64 max_iter = 0;
	__u8 started = 1, finished = 1;
	__u32 flags = 0;

	if (!bpf_probe_read_user(&max_iter, sizeof(max_iter), state + cfg_gb_off_max_iter) &&
	    !bpf_probe_read_user(&started, 1, state + cfg_gb_off_started) &&
	    !bpf_probe_read_user(&finished, 1, state + cfg_gb_off_finished)) {
		if (!started && !finished && max_iter > 0 && max_iter < (1ULL << 40))
			flags = BS_ITER_F_INVOC;
		else
			flags = BS_ITER_F_INVOC_BAD;
	} else {
		flags = BS_ITER_F_INVOC_BAD;
	}
	return iter_open(flags == BS_ITER_F_INVOC ? max_iter : 0, flags, true);
}

/* The whole ns in the bits of a double of seconds, from 1 s to 2^40 s (a
 * monotonic clock's reading); 0 outside (negative, NaN, implausible).
 * Integer arithmetic only (BPF has no floating point): value = m * 2^-sh,
 * the fraction kept to 2^-32 s. */
static __always_inline __u64 dsec_to_ns(__u64 bits)
{
	__u32 e = (bits >> 52) & 0x7ff, sh;
	__u64 m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52), frac;

	if (bits >> 63 || e < 1023 || e > 1023 + 40)
		return 0;
	sh = 1075 - e; /* 12..52 */
	frac = m & ((1ULL << sh) - 1);
	frac = sh > 32 ? frac >> (sh - 32) : frac << (32 - sh);
	return (m >> sh) * 1000000000ULL + ((frac * 1000000000ULL + (1ULL << 31)) >> 32);
}

/* Google Benchmark, one probe per iteration (--probes 1, onep.bpf.h):
 * FinishKeepRunning(this) is the only probe. The begin is the State's
 * timer's start_real_time_ (steady_clock, i.e. CLOCK_MONOTONIC, in s),
 * set by StartKeepRunning's ResumeTiming or the body's last ResumeTiming
 * (then real_time_used_ is not 0: flag paused); invocations as at the begin. */
SEC("uprobe")
int BPF_KPROBE(iter_end_gbench1, void *state)
{
	__u64 now = bpf_ktime_get_ns(), max_iter = 0, start = 0, used = 0, begin;
	__u8 sf[2] = {1, 1}; /* started_, finished_ */
	__u32 tgid = bpf_get_current_pid_tgid() >> 32, flags = BS_ITER_F_INVOC_BAD;
	void *timer = NULL;
	struct bs_counters *c;

	if (!probe_tracked(tgid))
		return 0;
	if (bpf_probe_read_user(&timer, sizeof(timer), state + cfg_gb_off_timer) || !timer ||
	    bpf_probe_read_user(&start, sizeof(start), timer + cfg_gb_tt_start_real) ||
	    bpf_probe_read_user(&used, sizeof(used), timer + cfg_gb_tt_real_used) ||
	    !(begin = dsec_to_ns(start)) || begin > now || now - begin > 3600000000000ULL) {
		if ((c = ctrs()))
			c->end_without_begin++; /* no begin we can trust */
		return 0;
	}
	if (!bpf_probe_read_user(&max_iter, sizeof(max_iter), state + cfg_gb_off_max_iter) &&
	    !bpf_probe_read_user(&sf[0], 1, state + cfg_gb_off_started) &&
	    !bpf_probe_read_user(&sf[1], 1, state + cfg_gb_off_finished) && sf[0] && !sf[1] &&
	    max_iter > 0 && max_iter < (1ULL << 40))
		flags = BS_ITER_F_INVOC;
	else
		max_iter = 0;
	if (used)
		flags |= BS_ITER_F_PAUSED;
	onep_close(bpf_get_current_task_btf(), begin, now, flags, max_iter);
	return 0;
}

/* ---- Catch2 (--preset catch2; user/binary/catch2.h says what is probed) ---- */

/* The Chronometer a thread's next sample is timed with, as passed to
 * BenchmarkFunction::model<Fun>::call(Chronometer) (rsi impl, edx k). It
 * stays valid for every measure() of that call; benchmarkPreparing (a new
 * benchmark) drops it. LRU: entries of exited threads age out. */
struct c2_chrono {
	__u64 impl; /* ChronometerConcept* */
	__s64 k;    /* repeats of the sample (int in Catch2) */
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32); /* tid */
	__type(value, struct c2_chrono);
} c2_chrono SEC(".maps");

/* Attach cookies of the Catch2 programs. */
#define C2_BEGIN_ENTRY	  1 /* iter_begin_catch2 at ChronometerModel<Clock>::start(): rdi = impl */
#define C2_NAME_STDSTRING 1 /* catch2_name: std::string const& (2.x, libstdc++ C++11 ABI) */
#define C2_NAME_STRINGREF 2 /* catch2_name: Catch::StringRef by value (3.x) */
#define C2_MAX_REPEATS	  (1LL << 30) /* run_for_at_least gives up there */

SEC("uprobe")
int BPF_KPROBE(catch2_call, void *self, void *impl, __u64 k)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct c2_chrono c = {.impl = (__u64)impl, .k = (__s32)k};

	if (probe_tracked(tgid))
		bpf_map_update_elem(&c2_chrono, &tid, &c, BPF_ANY);
	return 0;
}

/* A sample begins: at start()'s entry or at the call of Clock::now() of an
 * inline copy. The repeats come from the Chronometer its call passed; at
 * start()'s entry, `self` must be that Chronometer's impl. */
SEC("uprobe")
int BPF_KPROBE(iter_begin_catch2, void *self)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct c2_chrono *c = bpf_map_lookup_elem(&c2_chrono, &tid);
	__u64 cookie = bpf_get_attach_cookie(ctx);

	if (c && c->k > 0 && c->k < C2_MAX_REPEATS &&
	    (cookie != C2_BEGIN_ENTRY || c->impl == (__u64)self))
		return iter_open((__u64)c->k, BS_ITER_F_INVOC, true);
	return iter_open(0, BS_ITER_F_INVOC_BAD, true);
}

/* RunContext::benchmarkPreparing(name): a new benchmark, before its estimation runs. */
SEC("uprobe")
int BPF_KPROBE(catch2_name, void *self, void *arg, __u64 len)
{
	__u64 id = bpf_get_current_pid_tgid(), cookie = bpf_get_attach_cookie(ctx);
	__u32 tid = (__u32)id;
	struct {
		__u64 ptr, len;
	} str = {};

	if (!probe_tracked(id >> 32))
		return 0;
	bpf_map_delete_elem(&c2_chrono, &tid);
	if (cookie == C2_NAME_STDSTRING) {
		if (bpf_probe_read_user(&str, sizeof(str), arg))
			str.len = 0;
	} else {
		str.ptr = (__u64)arg;
		str.len = len;
	}
	if (str.len > (1 << 20)) /* not a name */
		str.len = 0;
	bench_name_emit((const void *)str.ptr, (__s64)str.len);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(iter_end)
{
	__u64 now = bpf_ktime_get_ns();

	iter_close(bpf_get_current_task_btf(), (__u32)bpf_get_current_pid_tgid(), now, 0, true);
	return 0;
}

SEC("usdt")
int BPF_USDT(iter_begin_usdt)
{
	return iter_open(0, 0, true);
}

SEC("usdt")
int BPF_USDT(iter_end_usdt)
{
	__u64 now = bpf_ktime_get_ns();

	iter_close(bpf_get_current_task_btf(), (__u32)bpf_get_current_pid_tgid(), now, 0, true);
	return 0;
}

/* ---- output-line boundaries (--line, --begin-line/--end-line) -------------
 *
 * Every write of a tracked process to the file of its fd 1 or fd 2 (through
 * any descriptor: dup'ed copies of them count) is timestamped here, at the
 * entry of the write system call (write, pwrite64, writev, pwritev, pwritev2), and its first
 * BS_LINE_DATA_LEN bytes go to user space, which splits them into lines and matches the regexes
 * (user/probe/lines.c). Which write begins or ends an iteration is only known
 * there, so the kernel accounts the writing thread in segments: each such
 * write ends the thread's open segment at the write (a bs_iter_rec, emitted
 * before the write's bs_line_rec) and begins the next one at the same
 * instant, with the same counter snapshots. An iteration from one matched
 * write to another of the same thread is the union of the segments between
 * them, and its interference (every field additive) their sum: exact, not
 * sampled. */

/* Which standard stream of the current task the descriptor `fd` writes to:
 * 1 (the open file of its fd 1), 2 (of its fd 2; 1 when both are one file), 0
 * neither. Descriptors dup'ed from them share their open file, so they count. */
static __always_inline __u32 std_stream(struct task_struct *task, __u64 fd)
{
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file *f = NULL, *f1 = NULL, *f2 = NULL;
	struct file **fds;
	__u32 max;

	if (!fdt)
		return 0;
	max = BPF_CORE_READ(fdt, max_fds);
	if (fd >= max || max < 3)
		return 0;
	fds = BPF_CORE_READ(fdt, fd);
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return 0;
	if (fd == 1 || (!bpf_probe_read_kernel(&f1, sizeof(f1), &fds[1]) && f1 == f))
		return 1;
	if (fd == 2 || (!bpf_probe_read_kernel(&f2, sizeof(f2), &fds[2]) && f2 == f))
		return 2;
	return 0;
}

/* End thread `tid`'s open segment at `now` (emitting it) and begin the next
 * one there; the counters are read once, so the two segments meet exactly. */
static __always_inline void seg_split(struct task_struct *task, struct bs_tracked_proc *tp,
				      __u32 tgid, __u32 tid, __u64 now)
{
	struct thread_state *ts = bpf_map_lookup_elem(&threads, &tid), zero = {};
	struct cpu_cur *cc = this_cpu_cur();
	__u64 nvcsw = BPF_CORE_READ(task, nvcsw), nivcsw = BPF_CORE_READ(task, nivcsw);
	__u64 mig = BPF_CORE_READ(task, se.nr_migrations);
	__u64 delay = BPF_CORE_READ(task, sched_info.run_delay);
	__u64 steal = steal_clock(task);
	__u32 cpu = bpf_get_smp_processor_id();
	struct bs_counters *c;

	iter_mark_process(tgid);
	if (!ts) {
		if (bpf_map_update_elem(&threads, &tid, &zero, BPF_NOEXIST)) {
			if ((c = ctrs()))
				c->thread_map_full++;
			return;
		}
		ts = bpf_map_lookup_elem(&threads, &tid);
		if (!ts)
			return;
	} else if (ts->open) {
		if (cc && cc->tid == tid) {
			ts->rec.irq_ns += cc->irq_acc;
			ts->rec.softirq_ns += cc->softirq_acc;
		}
		if (steal > ts->steal0 && ts->steal0)
			ts->rec.steal_ns += steal - ts->steal0;
		clear_wait(ts, tid);
		ts->rec.end_ns = now;
		ts->rec.cpu_end = cpu;
		ts->rec.nvcsw = nvcsw - ts->nvcsw0;
		ts->rec.nivcsw = nivcsw - ts->nivcsw0;
		ts->rec.migrations = mig - ts->migrations0;
		ts->rec.sched_delay_ns = delay - ts->run_delay0;
		emit(&ts->rec);
	}
	__builtin_memset(&ts->rec, 0, sizeof(ts->rec));
	ts->rec.type = BS_REC_ITER;
	ts->rec.index = __sync_fetch_and_add(&tp->iter_seq, 1);
	ts->rec.pid = tgid;
	ts->rec.tid = tid;
	ts->rec.cpu_begin = cpu;
	ts->rec.begin_ns = now;
	cpu_claim(task);
	iter_arm(ts);
	ts->nvcsw0 = nvcsw;
	ts->nivcsw0 = nivcsw;
	ts->migrations0 = mig;
	ts->run_delay0 = delay;
	ts->steal0 = steal;
	if (cc) {
		cc->tid = tid;
		cc->irq_acc = 0;
		cc->softirq_acc = 0;
	}
}

/* A line record and room for one more copy's worth of bytes (so that the
 * verifier sees every bounded copy at a bounded offset in bounds). */
struct line_scratch {
	struct bs_line_rec r;
	char over[BS_LINE_DATA_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct line_scratch);
} line_buf SEC(".maps");

#define LINE_MAX_IOV 8

/* Append up to `n` user bytes at `src` to s->r.data at `off`; the new offset. */
static __always_inline __u32 line_copy(struct line_scratch *s, __u32 off, const void *src, __u64 n)
{
	__u64 room, m;

	if (off >= BS_LINE_DATA_LEN || !n)
		return off;
	room = BS_LINE_DATA_LEN - off;
	m = n < room ? n : room;
	/* for the verifier (older ones track no relation between the two): 1 <= m
	 * <= 256 and off <= 255, so off + m fits data + over; the barriers keep
	 * clang from dropping masks it can prove are no-ops */
	barrier_var(m);
	m = ((m - 1) & (BS_LINE_DATA_LEN - 1)) + 1;
	barrier_var(off);
	off &= BS_LINE_DATA_LEN - 1;
	if (bpf_probe_read_user(&s->r.data[off], m, src))
		return BS_LINE_DATA_LEN + 1; /* unreadable: stop copying */
	return off + (__u32)m;
}

/* A tracked process writes `buf` (`count` bytes) or the iovecs `vec` to `fdn`. */
static __always_inline int on_std_write(__u64 fdn, const void *buf, __u64 count,
					const struct iovec *vec, __u64 vlen)
{
	__u64 id = bpf_get_current_pid_tgid(), now, wake;
	__u32 tgid = id >> 32, tid = (__u32)id, fd, off = 0, zero = 0, i;
	struct task_struct *task;
	struct bs_tracked_proc *tp;
	struct line_scratch *s;
	struct bs_counters *c;
	struct iovec iov;

	if (!cfg_lines)
		return 0;
	tp = bpf_map_lookup_elem(&tracked, &tgid);
	if (!tp)
		return 0;
	task = bpf_get_current_task_btf();
	fd = std_stream(task, fdn);
	if (!fd)
		return 0;
	now = bpf_ktime_get_ns();
	seg_split(task, tp, tgid, tid, now);
	s = bpf_map_lookup_elem(&line_buf, &zero);
	if (!s)
		return 0;
	s->r.type = BS_REC_LINE;
	s->r.pid = tgid;
	s->r.tid = tid;
	s->r.fd = fd;
	s->r.ts_ns = now;
	s->r.cpu = bpf_get_smp_processor_id();
	if (vec) {
		s->r.len = 0;
#pragma unroll
		for (i = 0; i < LINE_MAX_IOV; i++) {
			if (i >= vlen)
				break;
			if (bpf_probe_read_user(&iov, sizeof(iov), &vec[i])) {
				off = BS_LINE_DATA_LEN + 1;
				break;
			}
			s->r.len += iov.iov_len;
			off = line_copy(s, off, iov.iov_base, iov.iov_len);
		}
		if (vlen > LINE_MAX_IOV)
			s->r.len = ~0ULL; /* more than we looked at */
	} else {
		s->r.len = count;
		off = line_copy(s, 0, buf, count);
	}
	if (off > BS_LINE_DATA_LEN) { /* a read failed: what was copied is unknown */
		off = 0;
		if ((c = ctrs()))
			c->line_lost++;
	}
	s->r.data_len = off;
	wake = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA) >= cfg_wakeup_bytes ? BPF_RB_FORCE_WAKEUP
									     : BPF_RB_NO_WAKEUP;
	if (bpf_ringbuf_output(&rb, &s->r, sizeof(s->r), wake) && (c = ctrs()))
		c->line_lost++;
	return 0;
}

/* x86-64 system call numbers of the writes (arch/x86/entry/syscalls) */
#define NR_WRITE    1
#define NR_PWRITE64 18
#define NR_WRITEV   20
#define NR_PWRITEV  296
#define NR_PWRITEV2 328

/* Every system call enters here (a raw tracepoint: no trap, no tracefs): all
 * but the writes leave at the first comparison. */
SEC("tp_btf/sys_enter")
int BPF_PROG(line_sys_enter, struct pt_regs *regs, long id)
{
	if (id != NR_WRITE && id != NR_WRITEV && id != NR_PWRITE64 && id != NR_PWRITEV &&
	    id != NR_PWRITEV2)
		return 0;
	if (id == NR_WRITE || id == NR_PWRITE64)
		return on_std_write(regs->di, (const void *)regs->si, regs->dx, NULL, 0);
	return on_std_write(regs->di, NULL, 0, (const struct iovec *)regs->si, regs->dx);
}

/* Calibration target of the probe-cost measurement: does nothing. */
SEC("uprobe")
int BPF_KPROBE(calib_probe)
{
	return 0;
}

SEC("usdt")
int BPF_USDT(calib_usdt)
{
	return 0;
}

#include "criterion.bpf.h"

/* ---- scheduler accounting ------------------------------------------------ */
/* Whether the tasks that run while thread `ts` (of process `tgid`) waits for
 * a CPU are charged for it: not for the duet barrier's wait
 * (held_at_barrier), nor for a Go parent's (go_holds_parent), which no
 * iteration record reports. */
static __always_inline bool wait_charged(const struct thread_state *ts, __u32 tgid)
{
	if (held_at_barrier(ts))
		return false;
	return !(cfg_go && go_holds_parent(ts, tgid));
}

/* The accounting of a switch on CPU `cpu` from `prev` to `next`, past
 * on_switch's first early exit. Not inlined, so that the exit touches no
 * stack: inlined, the handler's arguments were spilled to the stack before
 * the exit, one more cache line for it to miss. */
static __noinline int switch_account(bool preempt, struct task_struct *prev,
				     struct task_struct *next, unsigned int prev_state, __u32 cpu)
{
	bool mp = process_maybe_open(prev->tgid), mn = process_maybe_open(next->tgid);
	__u32 prev_tid = prev->pid, next_tid = next->pid;
	struct thread_state *tp = NULL, *tn = NULL;
	struct bs_cpu_wait *w = NULL;
	__u64 now;

	/* the early exit: neither side's process has had an iteration (no
	 * hashing, see open_tgids) and nobody waits for this CPU */
	if (cfg_interferers) {
		w = cpu_wait_of(cpu);
		if (w && !w->victim_tid)
			w = NULL;
	}
	if (!mp && !mn && !w)
		return 0;
	if (mp) {
		/* Go: which goroutine prev was running decides whose iteration
		 * this switch-out belongs to (go.bpf.h); only while a Go
		 * iteration is open */
		if (cfg_go && go_open)
			go_observe(prev);
		tp = open_iter(prev_tid);
	}
	if (mn) {
		tn = open_iter(next_tid);
		/* one probe per iteration: every thread of a tracked process
		 * (its bit set when tracked) is accounted from the first time
		 * it comes on a CPU (onep.bpf.h) */
		if (cfg_one_probe && !tn && next_tid)
			tn = onep_adopt(next, bpf_ktime_get_ns());
	}
	if (!tp && !tn && !w)
		return 0;
	now = bpf_ktime_get_ns();

	/* a tracked thread is waiting for this CPU: charge whoever ran here */
	if (w) {
		/* the idle task is wake-up latency, not a competitor; read
		 * again after the clock: the victim may have come on another
		 * CPU since the early exit's read (clear_wait) */
		__u32 victim = *(volatile __u32 *)&w->victim_tid;

		if (victim && prev_tid != victim && prev_tid != 0 && now > w->since)
			charge_interferer(w, prev, prev_tid, now - w->since);
		if (next_tid == w->victim_tid)
			w->victim_tid = 0;
		else
			w->since = now;
	}

	if (tp) {
		slice_end(tp, prev, prev_tid);
		tp->n_out++;
		off_set(tp, now);
		tp->off_runnable = preempt || prev_state == TASK_RUNNING;
		if (tp->off_runnable && wait_charged(tp, prev->tgid))
			set_wait(tp, cpu, prev_tid, prev->tgid, now);
		else if (tp->held && (prev_state & TASK_STOPPED_BIT))
			tp->held = 2; /* stopped at the duet barrier */
	}

	if (tn) {
		__u64 out_ns = tn->off_start;

		if (tn->held == 2 || tn->held == 3) {
			clear_wait(tn, next_tid);
			barrier_resume(tn, next, next_tid, now);
		} else if (tn->off_start && now > tn->off_start) {
			__u64 off = now - tn->off_start;

			if (tn->off_runnable) {
				tn->rec.preempted_ns += off;
				tn->rec.runq_wait_ns += off;
			} else {
				tn->rec.blocked_ns += off;
				if (tn->wake_ts && now > tn->wake_ts)
					tn->rec.runq_wait_ns += now - tn->wake_ts;
			}
		}
		off_clear(tn);
		tn->wake_ts = 0;
		clear_wait(tn, next_tid);
		slice_start(tn, next, next_tid);
		if (cfg_one_probe)
			onep_switch_in(tn, next, next_tid, out_ns, now);
	}
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct sched_hot *h = hot();

	/* the early exit (see sched_hot): no iteration's thread is off its
	 * CPU, and the task leaving is not the one that came on in an
	 * iteration here */
	if (h->mode == HOT_FAST && cpu < HOT_CPUS) {
		if (h->task[cpu] != (__u64)prev && !h->n_off)
			return 0;
		if (h->task[cpu] == (__u64)prev)
			h->task[cpu] = 0; /* slice_start names the next one */
	} else if (!h->mode) {
		h->mode = cfg_go || cfg_one_probe ? HOT_SLOW : HOT_FAST;
	}
	return switch_account(preempt, prev, next, prev_state, cpu);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(on_wakeup, struct task_struct *p)
{
	struct thread_state *ts;
	__u32 tid, tgid;
	__u64 now;

	/* the early exits: no iteration's thread is off its CPU (outside Go
	 * and one-probe modes, see sched_hot), or none of p's process has opened
	 * one (see open_tgids) */
	if (hot()->mode == HOT_FAST && !hot()->n_off)
		return 0;
	tgid = p->tgid;
	if (!process_maybe_open(tgid))
		return 0;
	tid = p->pid;
	ts = open_iter(tid);
	if (!ts || !ts->off_start || ts->off_runnable || !wait_charged(ts, tgid))
		return 0;
	now = bpf_ktime_get_ns();
	ts->wake_ts = now;
	set_wait(ts, p->thread_info.cpu, tid, tgid, now);
	return 0;
}

/* ---- IRQ time under an in-iteration thread ------------------------------ */
SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_irq_entry)
{
	struct cpu_cur *cc = this_cpu_cur();

	if (cc && cc->tid)
		cc->irq_start = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(on_irq_exit)
{
	struct cpu_cur *cc = this_cpu_cur();
	__u64 d;

	if (!cc || !cc->irq_start)
		return 0;
	d = bpf_ktime_get_ns() - cc->irq_start;
	cc->irq_start = 0;
	if (!cc->tid)
		return 0;
	cc->irq_acc += d;
	/* a hard IRQ inside a softirq is not softirq time */
	if (cc->softirq_start)
		cc->softirq_start += d;
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_softirq_entry)
{
	struct cpu_cur *cc = this_cpu_cur();

	if (cc && cc->tid)
		cc->softirq_start = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(on_softirq_exit)
{
	struct cpu_cur *cc = this_cpu_cur();
	__u64 now;

	if (!cc || !cc->softirq_start)
		return 0;
	now = bpf_ktime_get_ns();
	if (cc->tid && now > cc->softirq_start)
		cc->softirq_acc += now - cc->softirq_start;
	cc->softirq_start = 0;
	return 0;
}

/* ---- process lifecycle --------------------------------------------------- */
static __always_inline void proc_event(__u32 kind, struct task_struct *t, __u32 ppid, __s32 code)
{
	struct bs_proc_rec *r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
	struct bs_counters *c;

	if (!r) {
		if ((c = ctrs()))
			c->proc_lost++;
		return;
	}
	r->type = BS_REC_PROC;
	r->kind = kind;
	r->pid = BPF_CORE_READ(t, tgid);
	r->ppid = ppid;
	r->ts_ns = bpf_ktime_get_ns();
	r->exit_code = code;
	r->_pad = 0;
	BPF_CORE_READ_STR_INTO(&r->comm, t, comm);
	/* an exit wakes the reader at once: it ends a run, and the runner
	 * sleeps in long waits rather than polling */
	bpf_ringbuf_submit(r, kind == BS_PROC_EXIT ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(on_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	struct bs_tracked_proc *tp, init = {};
	struct bs_counters *c;

	if (ptgid == ctgid)
		return 0; /* a new thread, not a new process */
	tp = bpf_map_lookup_elem(&tracked, &ptgid);
	if (!tp)
		return 0;
	init.depth = tp->depth + 1;
	init.side = tp->side;
	init.start_ns = child->start_time;
	if (bpf_map_update_elem(&tracked, &ctgid, &init, BPF_ANY) && (c = ctrs()))
		c->proc_map_full++; /* it and its descendants go unmeasured */
	if (cfg_one_probe)	    /* its threads are accounted from their first switch-in */
		iter_mark_process(ctgid);
	proc_event(BS_PROC_FORK, child, ptgid, 0);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(on_exec, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	struct bs_tracked_proc *tp = bpf_map_lookup_elem(&tracked, &tgid);
	__u32 tid;

	if (!tp)
		return 0;
	proc_event(BS_PROC_EXEC, p, BPF_CORE_READ(p, real_parent, tgid), 0);
	if (cfg_process_iters && tp->depth == cfg_process_depth) {
		tid = p->pid;
		/* an exec chain (sh -c cmd) stays one iteration */
		if (!open_iter(tid))
			iter_open(0, 0, false);
	}
	return 0;
}

/*
 * A thread leaves: its open iteration ends (EXIT), its state goes. Looked
 * up by tid, not behind `tracked`: signal->live reaches 0 when the last
 * thread decrements it, before threads that decremented it earlier reach
 * this tracepoint, so whichever thread sees 0 first cannot tell that it is
 * the last one here. The process's EXIT record is sent once (`exit_sent`),
 * and its `tracked` entry stays until its leader is freed (on_free). So a
 * thread's EXIT iteration may follow its process's EXIT record.
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(on_exit, struct task_struct *p)
{
	__u32 tid = p->pid, tgid = p->tgid;
	struct bs_tracked_proc *tp;
	struct thread_state *ts;
	struct signal_struct *sig;
	__u8 one = 1;
	__s32 code;

	ts = bpf_map_lookup_elem(&threads, &tid);
	if (ts) {
		if (cfg_go)
			go_thread_exit(tid, tgid);
		/* one probe per iteration: the state is running totals, never
		 * an iteration (the harness's begin is unknown until its end
		 * probe) */
		if (!cfg_one_probe && open_iter(tid))
			iter_close(p, tid, bpf_ktime_get_ns(), BS_ITER_F_EXIT, false);
		off_clear(ts); /* sched_hot.n_off stays exact */
		bpf_map_delete_elem(&threads, &tid);
	}
	if (cfg_one_probe)
		bpf_map_delete_elem(&onep_hist, &tid);
	tp = bpf_map_lookup_elem(&tracked, &tgid);
	if (!tp)
		return 0;
	sig = p->signal;
	if (BPF_CORE_READ(sig, live.counter) != 0)
		return 0; /* other threads of the process live on */
	/* the first to get here sends it (with the map full, each does: a
	 * duplicate, never a loss); the error is an int (the map's update,
	 * called directly once the verifier inlined the helper, returns int
	 * on 6.1: its upper 32 bits are not a sign) */
	if ((__s32)bpf_map_update_elem(&exit_sent, &tgid, &one, BPF_NOEXIST) == -EEXIST)
		return 0;
	/* a root user space wrote (start 0): now on_free knows it */
	if (!tp->start_ns)
		tp->start_ns = BPF_CORE_READ(p, group_leader, start_time);
	code = BPF_CORE_READ(sig, flags) & SIGNAL_GROUP_EXIT ? BPF_CORE_READ(sig, group_exit_code)
							     : BPF_CORE_READ(p, exit_code);
	if (cfg_go)
		go_proc_exit(tgid);
	proc_event(BS_PROC_EXIT, p, BPF_CORE_READ(p, real_parent, tgid), code);
	return 0;
}

/*
 * The process is gone: its leader's task is freed only after every thread
 * of the group was reaped (an old leader replaced by another thread's exec
 * no longer has pid == tgid), so no thread of it needs `tracked` any more,
 * and a later process given the same pid is not taken for it.
 */
SEC("tp_btf/sched_process_free")
int BPF_PROG(on_free, struct task_struct *p)
{
	__u32 tgid = p->tgid;
	struct bs_tracked_proc *tp;

	if (p->pid != tgid)
		return 0;
	/* not a later process given the pid meanwhile (it is free before
	 * this runs, after a grace period) */
	tp = bpf_map_lookup_elem(&tracked, &tgid);
	if (tp && tp->start_ns == p->start_time)
		bpf_map_delete_elem(&tracked, &tgid);
	bpf_map_delete_elem(&exit_sent, &tgid);
	return 0;
}
