/* SPDX-License-Identifier: MIT */
/*
 * barrier.bpf.h - the sync-duet barrier (included by benchscope.bpf.c, after
 * its maps): at the iteration-begin probe of a side, the side stops itself
 * (bpf_send_signal(SIGSTOP)) until the other side reaches the same index;
 * the later side claims the wait with a compare-and-swap and continues it
 * (SIGCONT): from BPF where the kernel allows it (barrier_release_cont),
 * else through a force-woken record on which user space sends SIGCONT. The
 * stopped side's open iteration is re-stamped when it runs again
 * (barrier_resume), so the wait is in neither its duration nor its
 * interference.
 *
 * Order of stop and continue. A SIGCONT sent while a SIGSTOP is pending
 * cancels the SIGSTOP (the kernel flushes pending stop signals when it
 * queues SIGCONT), and one sent before the SIGSTOP is queued is lost: the
 * side would stop for good. So in a boundary probe (task_ctx), where
 * bpf_send_signal queues the signal before it returns, a side queues its
 * SIGSTOP before it announces the wait, and whoever claims the announced
 * wait continues it after that; a side that takes its announced wait back
 * cancels its own pending SIGSTOP with a SIGCONT to itself. From a
 * tracepoint (exec, exit: the process preset) the signal is sent later from
 * an irq_work, so there the stop is sent after the announcement as before,
 * and the continuing is left to user space, which is slower than the
 * deferred SIGSTOP.
 */
#ifndef BENCHSCOPE_BARRIER_BPF_H
#define BENCHSCOPE_BARRIER_BPF_H

/* Wake the release thread when this much barrier data waits, although no
 * record asked for it: it also drains the ring buffer every 250 ms, and a
 * quarter of the 64 KiB leaves room for ~800 records meanwhile. */
#define BRB_WAKE_BYTES (16 << 10)

static __always_inline void barrier_fill(struct bs_barrier_rec *r, __u32 kind, __u32 side,
					 __u64 index, __u64 ts, __u64 other_ns, __u32 pid,
					 __u32 other_pid)
{
	r->type = BS_REC_BARRIER;
	r->kind = kind;
	r->gen = bar_gen;
	r->side = side;
	r->index = index;
	r->ts_ns = ts;
	r->other_ns = other_ns;
	r->pid = pid;
	r->other_pid = other_pid;
}

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
	barrier_fill(r, kind, side, index, ts, other_ns, pid, other_pid);
	if (wake != BPF_RB_FORCE_WAKEUP &&
	    bpf_ringbuf_query(&brb, BPF_RB_AVAIL_DATA) >= BRB_WAKE_BYTES)
		wake = BPF_RB_FORCE_WAKEUP;
	bpf_ringbuf_submit(r, wake);
}

/* Side s is about to wait at its k-th begin: mark its thread held and queue
 * the SIGSTOP of its whole process (delivered on its return to user space,
 * i.e. before the harness reads its own clock). */
static __always_inline void barrier_stop_queue(struct thread_state *ts, __u32 s, __u64 k)
{
	ts->held_side = s;
	ts->held_index = k;
	bar_tid[s] = ts->rec.tid;
	__sync_lock_test_and_set(&ts->held, 1);
	bpf_send_signal(SIGSTOP);
}

/* Side s took its wait back before anyone claimed it: cancel the SIGSTOP it
 * queued (a SIGCONT flushes a pending stop; nothing else happens to a
 * process that is not stopped). */
static __always_inline void barrier_stop_cancel(struct thread_state *ts)
{
	bpf_send_signal(SIGCONT);
	ts->held = 0;
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
 * The waiting side o was claimed (it is continued now). If its stop has
 * not taken effect yet (held 1: the SIGSTOP is still pending), the SIGCONT
 * cancels it and the side runs on with its arrival as its begin:
 * - it is off its CPU (e.g. preempted on its way back to user space; seen
 *   under QEMU TCG, where the other side's whole iteration can pass
 *   meanwhile): marked held 3, it is re-stamped like a stopped side when it
 *   next comes on a CPU (barrier_resume from on_switch), or it would
 *   overlap the iteration it waited for;
 * - it is on its CPU (still in its begin probe or on its way out of the
 *   kernel: common when BPF continues it microseconds after its arrival):
 *   marked held 4, it keeps its arrival as begin (it was running, in the
 *   kernel, all along), and a later preemption in the iteration is
 *   accounted as such, not taken for the barrier's wait. Should the stop
 *   still take effect, on_switch makes it held 2 and it is re-stamped.
 */
static __always_inline void barrier_claimed(__u32 o)
{
	__u32 tid = bar_tid[o & 1];
	struct thread_state *w = bpf_map_lookup_elem(&threads, &tid);

	if (w)
		__sync_val_compare_and_swap(&w->held, 1, w->off_start ? 3 : 4);
}

/* The doorbell of the continuing program (kcont.bpf.c): SIGWINCH, which
 * the kernel drops without a trace in the harness when the harness neither
 * handles nor blocks it and is not traced; else the doorbell is not used. */
#define BS_KCONT_DOORBELL 28

static __always_inline bool doorbell_silent(void)
{
	struct task_struct *t = bpf_get_current_task_btf();
	unsigned long h;

	if (BPF_CORE_READ(t, ptrace) ||
	    (BPF_CORE_READ(t, blocked.sig[0]) & (1UL << (BS_KCONT_DOORBELL - 1))))
		return false;
	h = (unsigned long)BPF_CORE_READ(t, sighand, action[BS_KCONT_DOORBELL - 1].sa.sa_handler);
	return h == 0 || h == 1; /* SIG_DFL (ignore) or SIG_IGN */
}

/*
 * Side s claimed the wait of the stopped side o at rendezvous k (`now`: the
 * claimer's begin, or interleaved its end): continue o. In a boundary probe
 * with the continuing program attached (bar_kcont), BPF continues it: the
 * release goes to this CPU's kcont_pend slot and the doorbell rings; the
 * continuing program (kcont.bpf.c), run by the kernel within that
 * bpf_send_signal_thread, sends the SIGCONT with bpf_send_signal_task
 * (which probe programs may not call) and emits the record without waking
 * user space. If it did not take the release (the slot is still valid
 * after the doorbell), or without it, the record asks user space to send
 * the SIGCONT (forced wake-up).
 */
static __always_inline void barrier_release_cont(__u32 s, __u64 k, __u64 now, __u32 o, __u32 tgid,
						 bool task_ctx)
{
	__u32 zero = 0;
	struct bs_kcont_pend *p;

	barrier_claimed(o);
	if (task_ctx && bar_kcont && doorbell_silent() &&
	    (p = bpf_map_lookup_elem(&kcont_pend, &zero))) {
		barrier_fill(&p->rec, BS_BARRIER_RELEASE_CONT, s, k, now, bar_begin_ns[o], tgid,
			     bar_pid[o]);
		p->tid = (__u32)bpf_get_current_pid_tgid();
		p->valid = 1;
		bpf_send_signal_thread(BS_KCONT_DOORBELL);
		if (!p->valid)
			return; /* taken: continued, or the record asks user space */
		p->valid = 0;
	}
	barrier_emit(BS_BARRIER_RELEASE_CONT, s, k, now, bar_begin_ns[o], tgid, bar_pid[o],
		     BPF_RB_FORCE_WAKEUP);
}

/* The barrier is still armed (user space disarms it when a side exits or
 * the run ends, then continues both sides once): a wait announced after
 * that is taken back, or nobody would continue it. */
static __always_inline bool barrier_armed(void)
{
	return *(volatile __u32 *)&bar_active != 0;
}

/*
 * Side `s` (0 A, 1 B) of a sync run begins an iteration (thread state `ts`,
 * begin already stamped). Its k-th begin meets the other side's k-th:
 * - the other side is there already: if it stopped itself waiting, claim
 *   its wait (cmpxchg) and continue it (barrier_release_cont);
 * - else (in a boundary probe, queue our SIGSTOP first, see the top of this
 *   file) announce the wait, look again (the other may have arrived
 *   meanwhile, or user space disarmed the barrier: then take the wait back,
 *   cancel our SIGSTOP and go on), else stay stopped: the SIGSTOP is
 *   delivered on the return to user space, i.e. before the harness reads
 *   its own clock. The stopped thread's iteration is re-stamped when it
 *   runs again (on_switch), so the wait is not in it.
 * Every atomic op here is a full barrier, so the two sides cannot both
 * miss each other (at most both see each other: nobody stops).
 */
static __always_inline void barrier_arrive(struct thread_state *ts, __u32 s, __u32 tgid,
					   bool task_ctx)
{
	__u64 k, ko, now = ts->rec.begin_ns;
	__u32 o = (s & 1) ^ 1;

	s &= 1;
	k = barrier_note_arrival(s, now, tgid);
	ko = __sync_fetch_and_add(&bar_arrived[o], 0);
	if (ko > k) {
		if (__sync_val_compare_and_swap(&bar_waiting[o], k + 1, 0) == k + 1)
			barrier_release_cont(s, k, now, o, tgid, task_ctx);
		else
			barrier_emit(BS_BARRIER_RELEASE, s, k, now, bar_begin_ns[o], tgid,
				     bar_pid[o], BPF_RB_NO_WAKEUP);
		return;
	}
	if (task_ctx)
		barrier_stop_queue(ts, s, k);
	__sync_lock_test_and_set(&bar_waiting[s], k + 1);
	ko = __sync_fetch_and_add(&bar_arrived[o], 0);
	if ((ko > k || !barrier_armed()) &&
	    __sync_val_compare_and_swap(&bar_waiting[s], k + 1, 0) == k + 1) {
		if (task_ctx)
			barrier_stop_cancel(ts);
		if (ko > k)
			barrier_emit(BS_BARRIER_RELEASE, s, k, now, bar_begin_ns[o], tgid,
				     bar_pid[o], BPF_RB_NO_WAKEUP);
		return;
	}
	/* wait: the other side (or user space, on its exit or a timeout) continues us */
	if (!task_ctx)
		barrier_stop_queue(ts, s, k);
	barrier_emit(BS_BARRIER_WAIT, s, k, now, 0, tgid, 0, BPF_RB_NO_WAKEUP);
}

/*
 * Interleaved mode: the sides take turns, the leader's k-th iteration
 * (bar_lead: A, or B in the runs whose order is BA), then the other's k-th,
 * then the leader's (k+1)-th... Side s may begin its k-th iteration once the
 * other side ended `turn_need` of its own: the follower's k-th needs the
 * leader's k + 1 ends, the leader's k-th needs the follower's k. A side
 * that arrives too early stops itself exactly as at the sync barrier (stop
 * queued, announce, look again, take back; re-stamped on resume); the
 * other side's end that satisfies it claims the wait with a
 * compare-and-swap and continues it. Both sides pinned to one CPU never
 * run an iteration at the same time, so neither carries the
 * other's CPU speed, and the pair is as close in time as it can be.
 */
static __always_inline __u64 turn_need(__u32 s, __u64 k)
{
	return s == bar_lead ? k : k + 1;
}

static __always_inline void turn_arrive(struct thread_state *ts, __u32 s, __u32 tgid, bool task_ctx)
{
	__u64 k, now = ts->rec.begin_ns;
	__u32 o = (s & 1) ^ 1;

	s &= 1;
	k = barrier_note_arrival(s, now, tgid);
	if (__sync_fetch_and_add(&bar_done[o], 0) >= turn_need(s, k))
		return;
	if (task_ctx)
		barrier_stop_queue(ts, s, k);
	__sync_lock_test_and_set(&bar_waiting[s], k + 1);
	if ((__sync_fetch_and_add(&bar_done[o], 0) >= turn_need(s, k) || !barrier_armed()) &&
	    __sync_val_compare_and_swap(&bar_waiting[s], k + 1, 0) == k + 1) {
		if (task_ctx)
			barrier_stop_cancel(ts);
		return;
	}
	if (!task_ctx)
		barrier_stop_queue(ts, s, k);
	barrier_emit(BS_BARRIER_WAIT, s, k, now, 0, tgid, 0, BPF_RB_NO_WAKEUP);
}

/* Side s ended an iteration at `now`: the other side may go on if it waits
 * for exactly this end. */
static __always_inline void turn_pass(__u32 s, __u64 now, __u32 tgid, bool task_ctx)
{
	__u64 d, w;
	__u32 o;

	s &= 1;
	o = s ^ 1;
	d = __sync_fetch_and_add(&bar_done[s], 1) + 1;
	w = __sync_fetch_and_add(&bar_waiting[o], 0);
	if (w && d >= turn_need(o, w - 1) &&
	    __sync_val_compare_and_swap(&bar_waiting[o], w, 0) == w)
		barrier_release_cont(s, w - 1, now, o, tgid, task_ctx);
}

/* A stopped side's thread runs again: its iteration begins now. What it
 * suffered so far was the barrier's wait, not the benchmark's. */
static __always_inline void barrier_resume(struct thread_state *ts, struct task_struct *t,
					   __u32 tid, __u64 now)
{
	ts->held = 0;
	ts->rec.begin_ns = now;
	ts->rec.cpu_begin = bpf_get_smp_processor_id();
	iter_zero_interference(ts);
	iter_rebase(ts, t);
	barrier_emit(BS_BARRIER_RESUME, ts->held_side, ts->held_index, now, 0,
		     BPF_CORE_READ(t, tgid), 0, BPF_RB_NO_WAKEUP);
}

#endif
