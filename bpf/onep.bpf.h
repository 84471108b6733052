/* SPDX-License-Identifier: GPL-2.0 */
/*
 * onep.bpf.h - one probe per iteration (--probes 1; included by
 * benchscope.bpf.c after iter_close).
 *
 * A harness that keeps its own begin timestamp in memory (Go's b.start)
 * needs no begin trap: the end probe reads that timestamp, on the clock of
 * bpf_ktime_get_ns, and the iteration is [harness's begin, end]. Its
 * interference must then be counted from a moment no probe saw, so every
 * thread of a tracked process is accounted all the time: its thread_state
 * is "open" from the first time it is seen coming on a CPU, and its `rec`
 * holds running totals (preempted, blocked, run-queue wait, IRQ, softirq,
 * steal) that the scheduler and IRQ handlers add to as for any open
 * iteration. At every switch-in (after the off-CPU interval that ends
 * there was added) and at every end, the thread appends a mark to its
 * history `onep_hist`: when it left the CPU, when it came back, the totals
 * then and the task's own counters (nvcsw, nivcsw, migrations,
 * sched_info.run_delay). The end probe takes as base the newest mark at or
 * before the harness's begin T, i.e. the start of the CPU slice in which
 * the harness read its clock, and the record is the totals now minus the
 * base:
 *   - exact: every off-CPU interval, its preemption, blocking and
 *     run-queue wait, and the task counters: an interval that ended before
 *     T is before the base, one that ended after T began after it (the
 *     thread was on CPU at T);
 *   - approximate: IRQ, softirq and steal time of the slice that contains
 *     T counts from the slice's start, not from T (the handlers fold them
 *     per slice), so at most that slice's share before T is added;
 *   - BS_ITER_F_MOVED: the thread was off CPU at T (a Go goroutine that ran
 *     on another thread then): counted from this thread's first switch-in
 *     after T; what the other thread suffered is not counted;
 *   - BS_ITER_F_BEGIN_APPROX: more than ONEP_MARKS switch-ins since T (or a
 *     thread first seen after T): counted from the oldest mark kept.
 * Separate from thread_state (ONEP_MARKS marks are 26 KiB: too big to
 * zero on the BPF stack or to copy where Go moves thread_state around).
 */
#ifndef BENCHSCOPE_ONEP_BPF_H
#define BENCHSCOPE_ONEP_BPF_H

/* cfg_one_probe itself is in benchscope.bpf.c, which tests it before this file. */

#define ONEP_MARKS 256 /* a power of two: switch-ins within an iteration it reaches back over */

struct onep_mark {
	__u64 out_ns; /* when the thread left its CPU before in_ns (== in_ns: an end) */
	__u64 in_ns;  /* when it came on a CPU again, or the end */
	__u64 preempted_ns, blocked_ns, runq_wait_ns, irq_ns, softirq_ns, steal_ns;
	__u64 run_delay;		      /* sched_info.run_delay then */
	__u32 nvcsw, nivcsw, migrations, cpu; /* task counters then; the CPU it came on */
};

struct onep_hist {
	__u64 n; /* marks made; the newest is m[(n - 1) % ONEP_MARKS] */
	struct onep_mark m[ONEP_MARKS];
};

/* 26 KiB per thread of a tracked process, allocated when it is first seen
 * (only loaded in one-probe mode: user space sizes it to 1 otherwise) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, __u32); /* tid */
	__type(value, struct onep_hist);
} onep_hist SEC(".maps");

/* zeroes for new entries (never written) */
static struct onep_hist onep_zero;
static struct thread_state onep_ts_zero;

/* Append a mark: thread `ts` (task `t`) left its CPU at out_ns and runs from in_ns. */
static __always_inline void onep_mark(struct onep_hist *h, struct thread_state *ts,
				      struct task_struct *t, __u64 out_ns, __u64 in_ns)
{
	struct onep_mark *m = &h->m[h->n & (ONEP_MARKS - 1)];

	m->out_ns = out_ns;
	m->in_ns = in_ns;
	m->preempted_ns = ts->rec.preempted_ns;
	m->blocked_ns = ts->rec.blocked_ns;
	m->runq_wait_ns = ts->rec.runq_wait_ns;
	m->irq_ns = ts->rec.irq_ns;
	m->softirq_ns = ts->rec.softirq_ns;
	m->steal_ns = ts->rec.steal_ns;
	/* `t` is a trusted task pointer: plain BTF loads, no probe-read calls */
	m->run_delay = t->sched_info.run_delay;
	m->nvcsw = (__u32)t->nvcsw;
	m->nivcsw = (__u32)t->nivcsw;
	m->migrations = (__u32)t->se.nr_migrations;
	m->cpu = bpf_get_smp_processor_id();
	h->n++;
}

/* The running totals of thread `t` of a tracked process, which comes on this
 * CPU at `now`: created (and its first mark made) on first sight; NULL when
 * it is not tracked or a map is full (counted). */
static __always_inline struct thread_state *onep_adopt(struct task_struct *t, __u64 now)
{
	__u32 tgid = t->tgid, tid = t->pid;
	struct thread_state *ts;
	struct onep_hist *h;
	struct bs_counters *c;

	if (!bpf_map_lookup_elem(&tracked, &tgid))
		return NULL;
	ts = bpf_map_lookup_elem(&threads, &tid);
	if (!ts) {
		if (bpf_map_update_elem(&threads, &tid, &onep_ts_zero, BPF_NOEXIST) && (c = ctrs()))
			c->thread_map_full++;
		ts = bpf_map_lookup_elem(&threads, &tid);
		if (!ts)
			return NULL;
	}
	h = bpf_map_lookup_elem(&onep_hist, &tid);
	if (!h) {
		if (bpf_map_update_elem(&onep_hist, &tid, &onep_zero, BPF_NOEXIST) && (c = ctrs()))
			c->thread_map_full++;
		h = bpf_map_lookup_elem(&onep_hist, &tid);
		if (!h)
			return NULL;
	}
	__builtin_memset(&ts->rec, 0, sizeof(ts->rec));
	iter_arm(ts);
	onep_mark(h, ts, t, now, now);
	return ts;
}

/* on_switch: thread `ts` (task `t`) came on this CPU at `now`, off since
 * `out_ns` (0: first seen), its off-CPU interval already added. */
static __always_inline void onep_switch_in(struct thread_state *ts, struct task_struct *t,
					   __u32 tid, __u64 out_ns, __u64 now)
{
	struct onep_hist *h = bpf_map_lookup_elem(&onep_hist, &tid);

	if (h)
		onep_mark(h, ts, t, out_ns ? out_ns : now, now);
}

/*
 * The end probe of one-probe mode: the iteration of the current thread
 * (task `t`) that the harness began at `begin` (its own timestamp, same
 * clock) ends at `now`. Emits its record (see the top of this file).
 */
static __always_inline void onep_close(struct task_struct *t, __u64 begin, __u64 now, __u32 flags,
				       __u64 invocations)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32, tid = (__u32)id, k = 0, next = 0;
	struct bs_tracked_proc *tp = bpf_map_lookup_elem(&tracked, &tgid);
	struct thread_state *ts;
	struct onep_hist *h;
	struct onep_mark *b;
	struct bs_iter_rec rec = {};
	bool found = false, has_next = false;
	__u64 n;

	if (!tp)
		return;
	ts = open_iter(tid);
	if (!ts)
		ts = onep_adopt(t, now); /* first seen here: no history */
	h = bpf_map_lookup_elem(&onep_hist, &tid);
	if (!ts || !h) {
		struct bs_counters *c = ctrs();

		if (c)
			c->iter_lost++;
		return;
	}
	slice_end(ts, t, tid); /* this slice's IRQ and steal time into the totals */
	n = h->n;
	for (__u32 i = 0; i < ONEP_MARKS; i++) {
		if (i >= n)
			break;
		k = (__u32)(n - 1 - i) & (ONEP_MARKS - 1);
		if (h->m[k].in_ns <= begin) {
			found = true;
			break;
		}
		next = k; /* the oldest mark after T so far */
		has_next = true;
	}
	if (!found) {
		flags |= BS_ITER_F_BEGIN_APPROX;
		k = next;
	} else if (has_next && h->m[next].out_ns < begin) {
		/* off CPU at T: the harness ran on another thread then; this
		 * thread's share begins when it came back */
		flags |= BS_ITER_F_MOVED;
		k = next;
	}
	b = &h->m[k & (ONEP_MARKS - 1)];
	rec.type = BS_REC_ITER;
	rec.flags = flags;
	rec.index = __sync_fetch_and_add(&tp->iter_seq, 1);
	rec.pid = tgid;
	rec.tid = tid;
	rec.cpu_begin = b->cpu;
	rec.cpu_end = bpf_get_smp_processor_id();
	rec.begin_ns = begin;
	rec.end_ns = now;
	rec.invocations = invocations;
	rec.preempted_ns = ts->rec.preempted_ns - b->preempted_ns;
	rec.blocked_ns = ts->rec.blocked_ns - b->blocked_ns;
	rec.runq_wait_ns = ts->rec.runq_wait_ns - b->runq_wait_ns;
	rec.irq_ns = ts->rec.irq_ns - b->irq_ns;
	rec.softirq_ns = ts->rec.softirq_ns - b->softirq_ns;
	rec.steal_ns = ts->rec.steal_ns - b->steal_ns;
	rec.sched_delay_ns = t->sched_info.run_delay - b->run_delay;
	rec.nvcsw = (__u32)t->nvcsw - b->nvcsw;
	rec.nivcsw = (__u32)t->nivcsw - b->nivcsw;
	rec.migrations = (__u32)t->se.nr_migrations - b->migrations;
	emit(&rec);
	onep_mark(h, ts, t, now, now);
	slice_start(ts, t, tid); /* the thread runs on, accounted */
}

#endif
