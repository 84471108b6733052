/* SPDX-License-Identifier: MIT */
/*
 * barrier.bpf.h - the sync-duet barrier (included by benchscope.bpf.c, after
 * its maps): at the iteration-begin probe of a side, the side stops itself
 * (bpf_send_signal(SIGSTOP)) until the other side reaches the same index;
 * the later side claims the wait with a compare-and-swap and emits a
 * force-woken record, on which user space sends SIGCONT. The stopped side's
 * open iteration is re-stamped when it runs again (barrier_resume), so the
 * wait is in neither its duration nor its interference.
 */
#ifndef BENCHSCOPE_BARRIER_BPF_H
#define BENCHSCOPE_BARRIER_BPF_H

static __always_inline void barrier_emit(__u32 kind, __u32 side, __u64 index, __u64 ts,
					 __u64 other_ns, __u32 pid, __u32 other_pid, __u64 wake)
{
	struct bs_barrier_rec *r = bpf_ringbuf_reserve(&brb, sizeof(*r), 0);
	struct bs_counters *c;

	if (!r) {
		if ((c = ctrs()))
			c->barrier_lost++;
		return;
	}
	r->type = BS_REC_BARRIER;
	r->kind = kind;
	r->gen = bar_gen;
	r->side = side;
	r->index = index;
	r->ts_ns = ts;
	r->other_ns = other_ns;
	r->pid = pid;
	r->other_pid = other_pid;
	bpf_ringbuf_submit(r, wake);
}

/* Side s stops its whole process at its k-th begin until the other side
 * (or user space, on an exit or a timeout) continues it; the open iteration
 * is re-stamped when it runs again (barrier_resume). */
static __always_inline void barrier_stop_self(struct thread_state *ts, __u32 s, __u64 k, __u64 now,
					      __u32 tgid)
{
	ts->held = 1;
	ts->held_side = s;
	ts->held_index = k;
	bar_tid[s] = ts->rec.tid;
	bpf_send_signal(SIGSTOP);
	barrier_emit(BS_BARRIER_WAIT, s, k, now, 0, tgid, 0, BPF_RB_NO_WAKEUP);
}

/* Side s (0 or 1) arrives at an iteration begin at `now`: remember when and
 * which process, and return the 0-based index of this begin in the run. */
static __always_inline __u64 barrier_note_arrival(__u32 s, __u64 now, __u32 tgid)
{
	bar_begin_ns[s] = now;
	bar_pid[s] = tgid;
	return __sync_fetch_and_add(&bar_arrived[s], 1);
}

/*
 * The waiting side o was claimed (user space is asked to continue it). If
 * its stop has not taken effect yet (held 1: the SIGSTOP is still pending,
 * e.g. the side was preempted on its way back to user space; seen under
 * QEMU TCG, where the other side's whole iteration can pass meanwhile), the
 * SIGCONT will cancel it and the side would run on with its arrival as its
 * begin, overlapping the iteration it waited for. Marked held 3, it is
 * re-stamped like a stopped side when it next comes on a CPU
 * (barrier_resume from on_switch). A side that never left its CPU keeps its
 * arrival as begin: it was running, in the kernel, all along.
 */
static __always_inline void barrier_claimed(__u32 o)
{
	__u32 tid = bar_tid[o & 1];
	struct thread_state *w = bpf_map_lookup_elem(&threads, &tid);

	if (w)
		__sync_val_compare_and_swap(&w->held, 1, 3);
}

/*
 * Side `s` (0 A, 1 B) of a sync run begins an iteration (thread state `ts`,
 * begin already stamped). Its k-th begin meets the other side's k-th:
 * - the other side is there already: if it stopped itself waiting, claim
 *   its wait (cmpxchg) and ask user space to continue it (forced wake-up);
 * - else announce the wait, look again (the other may have arrived
 *   meanwhile: then take the wait back and go on), else stop the whole
 *   process with SIGSTOP, delivered on the return to user space, i.e.
 *   before the harness reads its own clock. The stopped thread's iteration
 *   is re-stamped when it runs again (on_switch), so the wait is not in it.
 * Every atomic op here is a full barrier, so the two sides cannot both
 * miss each other (at most both see each other: nobody stops).
 */
static __always_inline void barrier_arrive(struct thread_state *ts, __u32 s, __u32 tgid)
{
	__u64 k, ko, now = ts->rec.begin_ns;
	__u32 o = (s & 1) ^ 1;

	s &= 1;
	k = barrier_note_arrival(s, now, tgid);
	ko = __sync_fetch_and_add(&bar_arrived[o], 0);
	if (ko > k) {
		if (__sync_val_compare_and_swap(&bar_waiting[o], k + 1, 0) == k + 1) {
			barrier_claimed(o);
			barrier_emit(BS_BARRIER_RELEASE_CONT, s, k, now, bar_begin_ns[o], tgid,
				     bar_pid[o], BPF_RB_FORCE_WAKEUP);
		} else
			barrier_emit(BS_BARRIER_RELEASE, s, k, now, bar_begin_ns[o], tgid,
				     bar_pid[o], BPF_RB_NO_WAKEUP);
		return;
	}
	__sync_lock_test_and_set(&bar_waiting[s], k + 1);
	ko = __sync_fetch_and_add(&bar_arrived[o], 0);
	if (ko > k && __sync_val_compare_and_swap(&bar_waiting[s], k + 1, 0) == k + 1) {
		barrier_emit(BS_BARRIER_RELEASE, s, k, now, bar_begin_ns[o], tgid, bar_pid[o],
			     BPF_RB_NO_WAKEUP);
		return;
	}
	/* wait: the other side (or user space, on its exit or a timeout) continues us */
	barrier_stop_self(ts, s, k, now, tgid);
}

/*
 * Interleaved mode: the sides take turns, the leader's k-th iteration
 * (bar_lead: A, or B in the runs whose order is BA), then the other's k-th,
 * then the leader's (k+1)-th... Side s may begin its k-th iteration once the
 * other side ended `turn_need` of its own: the follower's k-th needs the
 * leader's k + 1 ends, the leader's k-th needs the follower's k. A side
 * that arrives too early stops itself exactly as at the sync barrier
 * (announce, look again, SIGSTOP; re-stamped on resume); the other side's
 * end that satisfies it claims the wait with a
 * compare-and-swap and asks user space to continue it. Both sides pinned to
 * one CPU never run an iteration at the same time, so neither carries the
 * other's CPU speed, and the pair is as close in time as it can be.
 */
static __always_inline __u64 turn_need(__u32 s, __u64 k)
{
	return s == bar_lead ? k : k + 1;
}

static __always_inline void turn_arrive(struct thread_state *ts, __u32 s, __u32 tgid)
{
	__u64 k, now = ts->rec.begin_ns;
	__u32 o = (s & 1) ^ 1;

	s &= 1;
	k = barrier_note_arrival(s, now, tgid);
	if (__sync_fetch_and_add(&bar_done[o], 0) >= turn_need(s, k))
		return;
	__sync_lock_test_and_set(&bar_waiting[s], k + 1);
	if (__sync_fetch_and_add(&bar_done[o], 0) >= turn_need(s, k) &&
	    __sync_val_compare_and_swap(&bar_waiting[s], k + 1, 0) == k + 1)
		return;
	barrier_stop_self(ts, s, k, now, tgid);
}

/* Side s ended an iteration at `now`: the other side may go on if it waits
 * for exactly this end. */
static __always_inline void turn_pass(__u32 s, __u64 now, __u32 tgid)
{
	__u64 d, w;
	__u32 o;

	s &= 1;
	o = s ^ 1;
	d = __sync_fetch_and_add(&bar_done[s], 1) + 1;
	w = __sync_fetch_and_add(&bar_waiting[o], 0);
	if (w && d >= turn_need(o, w - 1) &&
	    __sync_val_compare_and_swap(&bar_waiting[o], w, 0) == w) {
		barrier_claimed(o);
		barrier_emit(BS_BARRIER_RELEASE_CONT, s, w - 1, now, bar_begin_ns[o], tgid,
			     bar_pid[o], BPF_RB_FORCE_WAKEUP);
	}
}

/* A stopped side's thread runs again: its iteration begins now. What it
 * suffered so far was the barrier's wait, not the benchmark's. */
static __always_inline void barrier_resume(struct thread_state *ts, struct task_struct *t,
					   __u32 tid, __u64 now)
{
	ts->held = 0;
	ts->rec.begin_ns = now;
	ts->rec.cpu_begin = bpf_get_smp_processor_id();
	ts->rec.preempted_ns = 0;
	ts->rec.blocked_ns = 0;
	ts->rec.runq_wait_ns = 0;
	ts->rec.irq_ns = 0;
	ts->rec.softirq_ns = 0;
	ts->rec.steal_ns = 0;
	ts->off_start = 0;
	ts->wake_ts = 0;
	ts->off_runnable = 0;
	ts->nvcsw0 = BPF_CORE_READ(t, nvcsw);
	ts->nivcsw0 = BPF_CORE_READ(t, nivcsw);
	ts->migrations0 = BPF_CORE_READ(t, se.nr_migrations);
	ts->run_delay0 = BPF_CORE_READ(t, sched_info.run_delay);
	barrier_emit(BS_BARRIER_RESUME, ts->held_side, ts->held_index, now, 0,
		     BPF_CORE_READ(t, tgid), 0, BPF_RB_NO_WAKEUP);
}

#endif
