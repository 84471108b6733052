/* SPDX-License-Identifier: GPL-2.0 */
/*
 * go.bpf.h - `--preset go`: Go's testing.B in `go test -c` binaries
 * (included by benchscope.bpf.c after iter_open/iter_close).
 *
 * Probes (entry-only; user/binary/gobench.h says where and why): runN's
 * entry names the benchmark and arms the goroutine with n; StartTimer's
 * call of time.Now begins the iteration of an armed goroutine; runN's call
 * of StopTimer ends it; ResetTimer's call of time.Now (only reached while
 * the timer runs) restarts it; runtime.Goexit's entry drops the open run of
 * its goroutine (b.Skip, b.Fatal: Go reports none). Registers follow Go's
 * ABIInternal: the receiver b in RAX, the first integer argument (n) in
 * RBX, the running goroutine g in R14.
 *
 * Ownership follows the goroutine. The interference accounting of
 * benchscope.bpf.c is per thread: `threads[tid]` holds the open iteration
 * of the thread, and the scheduler handlers charge what that thread
 * suffers. A goroutine, though, moves between OS threads (Go's scheduler
 * runs it on whichever M has a P free), so the least invasive change that
 * keeps every other preset as it is: a Go iteration is still kept in the
 * `threads` entry of ONE thread, the one last seen running its goroutine,
 * and is MOVED to another thread's entry when its goroutine is seen
 * there:
 *   - go_iters[{tgid, g}] says where the iteration of goroutine g is:
 *     `owner` (a tid), or parked in go_iters itself (owner 0) when no
 *     thread is known to run g;
 *   - at every switch-out of a thread of a tracked process (on_switch,
 *     while any Go iteration is open: the global go_open), the running
 *     goroutine is read from the thread's TLS (FS base + cfg_go_tls_g: the
 *     slot the Go runtime keeps g in). If the thread holds the iteration of
 *     another goroutine, that goroutine left it: the iteration is folded
 *     (the thread's counters and IRQ time so far) and parked. If the
 *     thread runs a goroutine whose iteration is parked or held by another
 *     thread, the iteration moves here, before the switch-out is accounted:
 *     this thread's preemption is the goroutine's;
 *   - the end probe (and ResetTimer's) run in the goroutine itself and move
 *     the iteration to their thread first: an iteration begun on one thread
 *     and ended on another is closed there, with what each thread
 *     suffered while it ran the goroutine, and the flag BS_ITER_F_MOVED.
 * Moving folds the old thread's task counters (nvcsw, nivcsw, migrations,
 * run_delay) into the record through its task_struct pointer and takes the
 * new thread's as the base, hence the `+=` in iter_close. What cannot be
 * seen: a goroutine switch inside one thread without a kernel switch (Go's
 * own preemption every 10 ms): the thread's IRQ time meanwhile goes to the
 * iteration until the thread next leaves a CPU.
 * A move claims the entry with a compare-and-swap (owner -> GO_BUSY), so
 * two CPUs never move the same iteration at once (tracing programs cannot
 * take spin locks).
 *
 * A B that made sub-benchmarks (b.Run; "Main", the root of every test
 * binary, is one) is not measured by Go; its iteration is dropped at its
 * end (common.hasSub != 0) or at an exit (another runN of the process began
 * while it was open: `parent`) and emits nothing; in an interleaved duet it
 * passes the turn it began as soon as its first child begins.
 */
#ifndef BENCHSCOPE_GO_BPF_H
#define BENCHSCOPE_GO_BPF_H

/* ---- configuration (user/binary/gobench.h, from the binary's DWARF) ----
 * cfg_go itself is in benchscope.bpf.c, which tests it before this file. */
const volatile __u32 cfg_go_off_name = 0;     /* testing.B: common.name (Go string) */
const volatile __u32 cfg_go_off_n = 0;	      /* testing.B.N */
const volatile __u32 cfg_go_off_has_sub = 0;  /* testing.B: common.hasSub (4 bytes) */
const volatile __u32 cfg_go_off_timer_on = 0; /* testing.B.timerOn (bool) */
const volatile __u32 cfg_go_str_ptr = 0;      /* Go string: data pointer, length */
const volatile __u32 cfg_go_str_len = 8;
const volatile __s32 cfg_go_tls_g = -8; /* g's TLS slot from the FS base */
/* --probes 1 (go_stop_onep): testing.B.start (time.Time) and .duration, the
 * time.Time fields, and the link-time addresses of time.startNano and of
 * the stop_call site (the difference to the probe's address is the load bias) */
const volatile __u32 cfg_go_off_start = 0;
const volatile __u32 cfg_go_off_duration = 0;
const volatile __u32 cfg_go_tm_wall = 0;
const volatile __u32 cfg_go_tm_ext = 8;
const volatile __u64 cfg_go_start_nano = 0;
const volatile __u64 cfg_go_stop_vaddr = 0;

#define GO_ARMED     1		  /* runN entered, its timer not started yet */
#define GO_OPEN	     2		  /* the iteration is open */
#define GO_BUSY	     (~0ULL)	  /* owner: being moved by some CPU */
#define GO_MAX_INVOC (1ULL << 40) /* a plausible b.N (Go caps it at 1e9) */

struct go_key {
	__u32 tgid;
	__u32 _pad;
	__u64 g; /* the goroutine (runtime.g address) */
};

struct go_iter {
	__u32 state;		    /* GO_ARMED, GO_OPEN */
	__u32 last_tid;		    /* the thread that held it last (a move is to another) */
	__u64 owner;		    /* GO_OPEN: tid whose threads entry holds it; 0 parked here;
				     * 64 bits for the compare-and-swap */
	__u64 n;		    /* runN's n: the invocation count */
	__u32 paused;		    /* the benchmark restarted a timer it had stopped */
	__u32 parent;		    /* another runN began meanwhile: a B with sub-benchmarks */
	struct thread_state parked; /* the iteration while owner is 0 */
};

/* A handful of entries per process (its open runN and their parents, one
 * armed); small, since go_runn walks it (bpf_for_each_map_elem visits every
 * bucket: ~20 us at 4096 entries on the development VM). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 512);
	__type(key, struct go_key);
	__type(value, struct go_iter);
} go_iters SEC(".maps");

__u32 go_open;		       /* open Go iterations, all processes: on_switch looks while > 0 */
static struct go_iter go_zero; /* zeroes for new map entries (never written) */

/* The goroutine task `t` (the current task) runs, from its TLS; 0 unknown. */
static __always_inline __u64 go_tls_g(struct task_struct *t)
{
	__u64 g = 0;
#ifdef __TARGET_ARCH_x86
	__u64 fs = BPF_CORE_READ(t, thread.fsbase);

	if (fs && bpf_probe_read_user(&g, sizeof(g), (void *)(fs + (__s64)cfg_go_tls_g)))
		g = 0;
#endif
	return g;
}

/* Take `t`'s task counters as the base, running on this CPU from now. */
static __always_inline void go_rebase(struct thread_state *ts, struct task_struct *t, __u32 tid)
{
	iter_rebase(ts, t);
	ts->wait_cpu1 = 0;
	ts->go_task = (__u64)t;
	slice_start(ts, t, tid);
}

/* Claim gi for a move: returns its owner, now GO_BUSY until go_release;
 * GO_BUSY when it could not be claimed (or was not owned by `want`, unless
 * want is GO_BUSY: any owner). */
static __always_inline __u64 go_claim(struct go_iter *gi, __u64 want)
{
	for (int i = 0; i < 64; i++) {
		__u64 o = *(volatile __u64 *)&gi->owner;

		if (o == GO_BUSY)
			continue; /* another CPU moves it: a few hundred ns */
		if (want != GO_BUSY && o != want)
			return GO_BUSY;
		if (__sync_val_compare_and_swap(&gi->owner, o, GO_BUSY) == o)
			return o;
	}
	return GO_BUSY;
}

static __always_inline void go_release(struct go_iter *gi, __u64 owner)
{
	*(volatile __u64 *)&gi->owner = owner;
}

/*
 * Park the Go iteration held by thread `tid` (task `t`, the current task):
 * its goroutine runs elsewhere or nowhere. Folds what the thread suffered.
 */
static __always_inline void go_park(struct thread_state *ts, __u32 tid, __u32 tgid,
				    struct task_struct *t)
{
	struct go_key key = {.tgid = tgid, .g = ts->go_g};
	struct go_iter *gi = bpf_map_lookup_elem(&go_iters, &key);

	if (!gi || gi->state != GO_OPEN) {
		ts->open = 0; /* a stale link: the iteration is gone */
		ts->go_g = 0;
		return;
	}
	if (go_claim(gi, tid) != tid)
		return; /* moved meanwhile by another CPU, which cleared ts */
	slice_end(ts, t, tid);
	clear_wait(ts, tid);
	iter_fold_counters(ts, t);
	ts->open = 0;
	ts->go_g = 0;
	gi->parked = *ts;
	gi->last_tid = tid;
	go_release(gi, 0);
}

/* Thread `tid` is about to hold a Go iteration: park the one it holds. */
static __always_inline void go_vacate(__u32 tid, __u32 tgid, struct task_struct *t, __u64 g)
{
	struct thread_state *ts = open_iter(tid);

	if (ts && ts->go_g && ts->go_g != g)
		go_park(ts, tid, tgid, t);
}

/*
 * Move the iteration of goroutine key->g to thread `tid` (task `t`, the
 * current task, which runs the goroutine now) and return its state there;
 * NULL when it cannot (the thread map full, or a race lost).
 */
static __always_inline struct thread_state *go_attach(struct go_iter *gi, struct go_key *key,
						      __u32 tid, struct task_struct *t)
{
	struct thread_state *src, *dst;
	struct bs_counters *c;
	__u64 owner = gi->owner;
	__u32 otid;

	if (owner == tid) {
		dst = open_iter(tid);
		return dst && dst->go_g == key->g ? dst : NULL;
	}
	go_vacate(tid, key->tgid, t, key->g);
	dst = bpf_map_lookup_elem(&threads, &tid);
	if (!dst) {
		if (bpf_map_update_elem(&threads, &tid, &go_zero.parked, BPF_NOEXIST) &&
		    (c = ctrs()))
			c->thread_map_full++;
		dst = bpf_map_lookup_elem(&threads, &tid);
		if (!dst)
			return NULL;
	}
	if (dst->open)
		return NULL; /* a non-Go iteration of this thread: not ours */
	owner = go_claim(gi, GO_BUSY);
	if (owner == GO_BUSY)
		return NULL;
	if (owner == tid) { /* it came back meanwhile */
		go_release(gi, tid);
		return open_iter(tid);
	}
	otid = (__u32)owner;
	if (owner) {
		src = bpf_map_lookup_elem(&threads, &otid);
		if (!src || !src->open || src->go_g != key->g) {
			go_release(gi, owner);
			return NULL;
		}
		/* the thread it leaves runs elsewhere, or off CPU without g:
		 * its counters so far through its task; its slice's IRQ time
		 * stays behind (see the top of this file) */
		iter_fold_counters(src, (struct task_struct *)src->go_task);
		clear_wait(src, otid);
		src->open = 0;
		src->go_g = 0;
		*dst = *src;
	} else {
		*dst = gi->parked;
		otid = gi->last_tid;
	}
	if (otid != tid)
		dst->rec.flags |= BS_ITER_F_MOVED;
	dst->open = 1;
	dst->go_g = key->g;
	go_rebase(dst, t, tid);
	gi->last_tid = tid;
	go_release(gi, tid);
	return dst;
}

/* on_switch, prev = `t` (current) leaves its CPU: see the top of this file. */
static __always_inline void go_observe(struct task_struct *t)
{
	__u32 tgid = t->tgid, tid = t->pid;
	struct thread_state *ts;
	struct go_iter *gi;
	struct go_key key = {.tgid = tgid};

	if (!bpf_map_lookup_elem(&tracked, &tgid))
		return;
	key.g = go_tls_g(t);
	if (!key.g)
		return; /* unreadable: nothing learnt */
	ts = open_iter(tid);
	if (ts && ts->go_g && ts->go_g != key.g)
		go_park(ts, tid, tgid, t);
	gi = bpf_map_lookup_elem(&go_iters, &key);
	if (gi && gi->state == GO_OPEN && gi->owner != tid)
		go_attach(gi, &key, tid, t);
}

/* The iteration of `key` is over: forget it. */
static __always_inline void go_forget(struct go_key *key)
{
	if (!bpf_map_delete_elem(&go_iters, key))
		__sync_fetch_and_add(&go_open, -1);
}

/* Thread state `ts` of process `tgid` holds the iteration of a B with
 * sub-benchmarks (`parent`): Go measures none, and it ends without a record. */
static __always_inline bool go_holds_parent(const struct thread_state *ts, __u32 tgid)
{
	struct go_key key = {.tgid = tgid, .g = ts->go_g};
	struct go_iter *gi;

	if (!ts->go_g)
		return false;
	gi = bpf_map_lookup_elem(&go_iters, &key);
	return gi && gi->parent;
}

/*
 * Drop the open iteration of gi without a record: a runN that never
 * reached its StopTimer (b.Fatal, b.Skip: runtime.Goexit unwinds runN) and
 * whose goroutine's g now runs another runN.
 */
static __always_inline void go_drop(struct go_iter *gi, struct go_key *key)
{
	__u64 owner = go_claim(gi, GO_BUSY);
	__u32 otid = (__u32)owner;
	struct thread_state *ts;

	if (owner == GO_BUSY)
		return;
	if (owner && (ts = bpf_map_lookup_elem(&threads, &otid)) && ts->open &&
	    ts->go_g == key->g) {
		clear_wait(ts, otid);
		ts->open = 0;
		ts->go_g = 0;
	}
	gi->state = 0;
	go_release(gi, 0);
	__sync_fetch_and_add(&go_open, -1);
}

struct go_mark_ctx {
	__u32 tgid;
	__u32 marked; /* newly marked parents */
};

/* Mark the open iterations of process x->tgid as parents (bpf_for_each_map_elem). */
static long go_mark_parent(struct bpf_map *map, struct go_key *key, struct go_iter *gi,
			   struct go_mark_ctx *x)
{
	if (key->tgid == x->tgid && gi->state == GO_OPEN && !gi->parent) {
		gi->parent = 1;
		x->marked++;
	}
	return 0;
}

/* A parent's iteration ends for the interleaved duet (--method interleaved):
 * it began a turn when it opened, and the other side waits for that turn to
 * end before it begins its own; the parent's children come next. */
static __always_inline void go_pass_turn(__u32 tgid)
{
	struct bs_tracked_proc *tp;

	if (bar_active != BS_BAR_INTERLEAVED)
		return;
	tp = bpf_map_lookup_elem(&tracked, &tgid);
	if (tp && tp->side)
		turn_pass(tp->side - 1, bpf_ktime_get_ns(), tgid, true);
}

/* Name the benchmark of B `b` from `ts_ns` on (b.name, a Go string): a name
 * whose header cannot be read is counted in bench_lost (bytes that cannot be
 * read go to user space: bench_name_emit_at); an empty one names nothing. */
static __always_inline void go_name_emit(void *b, __u64 ts_ns)
{
	__u64 ptr = 0;
	__s64 len = 0;
	struct bs_counters *c;

	if (bpf_probe_read_user(&ptr, sizeof(ptr), b + cfg_go_off_name + cfg_go_str_ptr) ||
	    bpf_probe_read_user(&len, sizeof(len), b + cfg_go_off_name + cfg_go_str_len)) {
		if ((c = ctrs()))
			c->bench_lost++;
		return;
	}
	if (len > 0)
		bench_name_emit_at((const void *)ptr, len, ts_ns);
}

/* b.timerOn of B `b`. A failed read zeroes its buffer, and an unreadable
 * timerOn is not a stopped timer: true then. */
static __always_inline bool go_timer_on(void *b)
{
	__u8 on = 1;

	if (bpf_probe_read_user(&on, sizeof(on), b + cfg_go_off_timer_on))
		return true;
	return on;
}

/* ---- probes --------------------------------------------------------------- */

/* testing.(*B).runN(b, n) entry: name the benchmark, arm the goroutine. */
SEC("uprobe")
int go_runn(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct go_key key = {.tgid = id >> 32, .g = ctx->r14};
	void *b = (void *)ctx->ax;
	__s64 n = (__s64)ctx->bx;
	struct bs_counters *c;
	struct go_iter *gi;

	if (!probe_tracked(key.tgid))
		return 0;
	/* Go runs one benchmark at a time (testing.benchmarkLock), but b.Run
	 * lets go of the lock: an iteration of this process open now belongs
	 * to a B with sub-benchmarks, which Go does not measure */
	if (go_open) {
		struct go_mark_ctx x = {.tgid = key.tgid};

		bpf_for_each_map_elem(&go_iters, go_mark_parent, &x, 0);
		/* unrolled: 6.1's verifier refuses the loop clang may lay out
		 * with a fall-through back edge */
#pragma clang loop unroll(full)
		for (int i = 0; i < 4; i++)
			if (i < (int)x.marked)
				go_pass_turn(key.tgid);
	}
	go_name_emit(b, bpf_ktime_get_ns());
	gi = bpf_map_lookup_elem(&go_iters, &key);
	if (!gi) {
		if (bpf_map_update_elem(&go_iters, &key, &go_zero, BPF_NOEXIST) && (c = ctrs()))
			c->thread_map_full++; /* this run will have no iteration */
		gi = bpf_map_lookup_elem(&go_iters, &key);
		if (!gi)
			return 0;
	}
	if (gi->state == GO_OPEN)
		go_drop(gi, &key); /* see go_drop */
	gi->state = GO_ARMED;
	gi->paused = 0;
	gi->parent = 0;
	gi->n = n > 0 && (__u64)n < GO_MAX_INVOC ? (__u64)n : 0;
	return 0;
}

/* StartTimer's call of time.Now: the iteration of an armed goroutine begins. */
SEC("uprobe")
int go_start(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct go_key key = {.tgid = id >> 32, .g = ctx->r14};
	struct task_struct *t = bpf_get_current_task_btf();
	__u32 tid = (__u32)id;
	struct thread_state *ts;
	struct go_iter *gi = bpf_map_lookup_elem(&go_iters, &key);

	if (gi && gi->state == GO_OPEN) {
		/* the body restarts a timer it stopped: Go leaves the pause out */
		gi->paused = 1;
		return 0;
	}
	if (!gi) {
		probe_tracked(key.tgid); /* counts a foreign hit */
		return 0;
	}
	if (gi->state != GO_ARMED)
		return 0; /* runN unseen */
	go_vacate(tid, key.tgid, t, key.g);
	iter_open(gi->n, gi->n ? BS_ITER_F_INVOC : BS_ITER_F_INVOC_BAD, true);
	ts = open_iter(tid);
	if (!ts)
		return 0; /* not tracked, or the thread map is full (counted) */
	ts->go_g = key.g;
	ts->go_task = (__u64)t;
	gi->state = GO_OPEN;
	gi->last_tid = tid;
	gi->owner = tid;
	__sync_fetch_and_add(&go_open, 1);
	return 0;
}

#define GO_HAS_MONOTONIC (1ULL << 63)		   /* time.Time.wall: ext is a monotonic reading */
#define GO_MAX_ITER_NS	 (3600ULL * 1000000000ULL) /* a plausible run: under an hour */

/*
 * One probe per iteration (--probes 1, onep.bpf.h): runN's call of
 * StopTimer is the only probe. Go's own begin is b.start, set by
 * StartTimer's (or ResetTimer's) time.Now: with hasMonotonic its ext is
 * runtime.nanotime() - time.startNano, nanotime being CLOCK_MONOTONIC
 * (vDSO), the clock of bpf_ktime_get_ns. The name, b.N and hasSub are read
 * here too; a b whose timer is off here, or whose duration is not 0 (the
 * body stopped the timer: Go adds its segments up), is flagged paused and
 * begins at its last start, as Go's b.start does.
 */
static __always_inline int go_stop_onep(struct pt_regs *ctx)
{
	__u64 now = bpf_ktime_get_ns(), id = bpf_get_current_pid_tgid(), bn = 0, wall = 0;
	__u32 tgid = id >> 32, has_sub = 0, flags;
	__s64 ext = 0, start_nano = 0, dur = 0, begin;
	void *b = (void *)ctx->ax;
	__u64 bias = (PT_REGS_IP(ctx) - cfg_go_stop_vaddr) & ~0xfffULL;
	struct bs_counters *c;

	if (!probe_tracked(tgid))
		return 0;
	if (!bpf_probe_read_user(&has_sub, sizeof(has_sub), b + cfg_go_off_has_sub) && has_sub)
		return 0; /* a B with sub-benchmarks: not a measurement of Go's */
	if (cfg_go_tm_ext == cfg_go_tm_wall + 8) { /* one read where they are adjacent (Go 1.9+) */
		__u64 tm[2];

		if (bpf_probe_read_user(tm, sizeof(tm), b + cfg_go_off_start + cfg_go_tm_wall))
			tm[0] = 0;
		wall = tm[0];
		ext = (__s64)tm[1];
	} else if (bpf_probe_read_user(&wall, sizeof(wall),
				       b + cfg_go_off_start + cfg_go_tm_wall) ||
		   bpf_probe_read_user(&ext, sizeof(ext), b + cfg_go_off_start + cfg_go_tm_ext)) {
		wall = 0;
	}
	if (bpf_probe_read_user(&start_nano, sizeof(start_nano),
				(void *)(cfg_go_start_nano + bias)) ||
	    !(wall & GO_HAS_MONOTONIC) || (begin = ext + start_nano) <= 0 || (__u64)begin > now ||
	    now - (__u64)begin > GO_MAX_ITER_NS) {
		if ((c = ctrs()))
			c->end_without_begin++; /* no begin we can trust */
		return 0;
	}
	go_name_emit(b, (__u64)begin);
	flags = BS_ITER_F_INVOC_BAD;
	if (!bpf_probe_read_user(&bn, sizeof(bn), b + cfg_go_off_n) && bn > 0 && bn < GO_MAX_INVOC)
		flags = BS_ITER_F_INVOC;
	else
		bn = 0;
	bpf_probe_read_user(&dur, sizeof(dur), b + cfg_go_off_duration);
	if (!go_timer_on(b) || dur)
		flags |= BS_ITER_F_PAUSED;
	onep_close(bpf_get_current_task_btf(), (__u64)begin, now, flags, bn);
	return 0;
}

/* runN's call of StopTimer (b in RAX): the iteration ends, on this thread. */
SEC("uprobe")
int go_stop(struct pt_regs *ctx)
{
	__u64 now = bpf_ktime_get_ns(), id = bpf_get_current_pid_tgid(), bn = 0;
	struct go_key key = {.tgid = id >> 32, .g = ctx->r14};
	struct task_struct *t = bpf_get_current_task_btf();
	void *b = (void *)ctx->ax;
	__u32 tid = (__u32)id, has_sub = 0;
	struct thread_state *ts;
	struct bs_counters *c;
	struct go_iter *gi;

	if (cfg_one_probe)
		return go_stop_onep(ctx);
	gi = bpf_map_lookup_elem(&go_iters, &key);
	if (!gi || gi->state != GO_OPEN) {
		if (gi)
			bpf_map_delete_elem(&go_iters, &key); /* armed, never begun */
		probe_end_unopened(key.tgid);
		return 0;
	}
	ts = go_attach(gi, &key, tid, t);
	if (!ts) {
		/* cannot happen short of a full thread map: the record is lost */
		if ((c = ctrs()))
			c->iter_lost++;
		go_forget(&key);
		return 0;
	}
	ts->go_g = 0;
	bpf_probe_read_user(&has_sub, sizeof(has_sub), b + cfg_go_off_has_sub);
	if (has_sub || gi->parent) {
		if (!gi->parent) /* a parent none of whose children ran */
			go_pass_turn(key.tgid);
		/* a B with sub-benchmarks: not a measurement of Go's; no record */
		slice_end(ts, t, tid);
		clear_wait(ts, tid);
		ts->open = 0;
	} else {
		/* b.N is what Go divides its duration by */
		if (!bpf_probe_read_user(&bn, sizeof(bn), b + cfg_go_off_n) && bn > 0 &&
		    bn < GO_MAX_INVOC) {
			ts->rec.invocations = bn;
			ts->rec.flags = (ts->rec.flags & ~BS_ITER_F_INVOC_BAD) | BS_ITER_F_INVOC;
		}
		/* timer off here: the body stopped it at a time we did not see */
		if (!go_timer_on(b) || gi->paused)
			ts->rec.flags |= BS_ITER_F_PAUSED;
		iter_close(t, tid, now, 0, true);
	}
	go_forget(&key);
	return 0;
}

/* ResetTimer's call of time.Now, timer running: Go's timed region starts
 * again here, and so does the iteration (same count, a new index). */
SEC("uprobe")
int go_reset(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct go_key key = {.tgid = id >> 32, .g = ctx->r14};
	struct task_struct *t = bpf_get_current_task_btf();
	__u32 tid = (__u32)id;
	struct thread_state *ts;
	struct bs_tracked_proc *tp;
	struct go_iter *gi = bpf_map_lookup_elem(&go_iters, &key);

	if (!gi) {
		probe_tracked(key.tgid); /* counts a foreign hit */
		return 0;
	}
	if (gi->state != GO_OPEN)
		return 0;
	ts = go_attach(gi, &key, tid, t);
	if (!ts) {
		/* the begin cannot move here (a full thread map, a move of the
		 * iteration under way): the record keeps time before the reset,
		 * which Go leaves out, as after a pause (BS_ITER_F_PAUSED) */
		gi->paused = 1;
		return 0;
	}
	gi->paused = 0; /* ResetTimer drops Go's time so far, pauses included */
	clear_wait(ts, tid);
	/* a new index: the charges of the waits before the reset stay with
	 * the old one, which has no record (struct bs_interferer_charge) */
	if ((tp = bpf_map_lookup_elem(&tracked, &key.tgid)))
		ts->rec.index = __sync_fetch_and_add(&tp->iter_seq, 1);
	ts->rec.tid = tid;
	ts->rec.cpu_begin = bpf_get_smp_processor_id();
	ts->rec.flags &= ~BS_ITER_F_MOVED;
	iter_zero_interference(ts);
	go_rebase(ts, t, tid);
	ts->rec.begin_ns = bpf_ktime_get_ns();
	return 0;
}

/* runtime.Goexit entry: a goroutine ends with its runN unfinished (b.Fatal,
 * b.Skip, b.FailNow): Go reports no result for that run, neither do we. */
SEC("uprobe")
int go_goexit(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct go_key key = {.tgid = id >> 32, .g = ctx->r14};
	struct go_iter *gi = bpf_map_lookup_elem(&go_iters, &key);

	if (!gi) {
		probe_tracked(key.tgid); /* counts a foreign hit */
		return 0;
	}
	if (gi->state == GO_OPEN) {
		go_pass_turn(key.tgid); /* the turn it began (interleaved duet) */
		go_drop(gi, &key);
	}
	bpf_map_delete_elem(&go_iters, &key);
	return 0;
}

/* ---- exits ------------------------------------------------------------------ */

/* Thread `tid` exits: a Go iteration it holds is closed with it (as any
 * preset's, BS_ITER_F_EXIT, by the caller), unless it is a parent's, which
 * goes without a record; forget its goroutine entry. */
static __always_inline void go_thread_exit(__u32 tid, __u32 tgid)
{
	struct thread_state *ts = open_iter(tid);
	struct go_key key = {.tgid = tgid};
	struct go_iter *gi;

	if (!ts || !ts->go_g)
		return;
	key.g = ts->go_g;
	ts->go_g = 0;
	gi = bpf_map_lookup_elem(&go_iters, &key);
	if (gi && gi->parent) {
		clear_wait(ts, tid);
		ts->open = 0;
	}
	go_forget(&key);
}

struct go_exit_ctx {
	__u32 tgid;
	__u32 cpu;
	__u64 now;
};

static long go_exit_one(struct bpf_map *map, struct go_key *key, struct go_iter *gi,
			struct go_exit_ctx *x)
{
	if (key->tgid != x->tgid)
		return 0;
	/* held by a thread: that thread's own exit ends it (go_thread_exit),
	 * which may come after this one */
	if (gi->state == GO_OPEN && gi->owner != 0 && gi->owner != GO_BUSY)
		return 0;
	if (gi->state == GO_OPEN && gi->owner == 0 && !gi->parent) {
		/* parked when the process ended: closed by the exit */
		gi->parked.rec.end_ns = x->now;
		gi->parked.rec.cpu_end = x->cpu;
		gi->parked.rec.flags |= BS_ITER_F_EXIT;
		emit(&gi->parked.rec);
	}
	if (gi->state == GO_OPEN)
		__sync_fetch_and_add(&go_open, -1);
	bpf_map_delete_elem(map, key);
	return 0;
}

/* The last thread of process `tgid` exits (the first thread to see it):
 * close what is parked, forget the rest but what a thread holds. */
static __always_inline void go_proc_exit(__u32 tgid)
{
	struct go_exit_ctx x = {.tgid = tgid, .cpu = bpf_get_smp_processor_id()};

	x.now = bpf_ktime_get_ns();
	bpf_for_each_map_elem(&go_iters, go_exit_one, &x, 0);
}

#endif
