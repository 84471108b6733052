// SPDX-License-Identifier: MIT
/*
 * run_barrier.c - the user-space half of the sync-duet barrier: arm it
 * per run, continue (SIGCONT) a side that stopped itself at an iteration
 * begin as soon as the other side arrives (unless BPF did), force a release
 * when a side goes away, and turn the barrier records into the release skew.
 * The kernel half is barrier_arrive/barrier_resume in bpf/benchscope.bpf.c.
 */
#include "duet/run.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "probe/probes.h"

static int rt_record(void *ctx, void *data, size_t size)
{
	struct bs_barrier_rt *rt = ctx;
	struct bs_barrier_rec r;

	if (size < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	if (r.type == BS_REC_BARRIER && rt->cur)
		bs_barrier_on_record(rt->cur, &r); /* lock held by the loop */
	return 0;
}

static void *rt_loop(void *arg)
{
	struct bs_barrier_rt *rt = arg;
	int efd = ring_buffer__epoll_fd(rt->rb);

	while (!rt->stop) {
		struct epoll_event ev;

		/* sleep until a record asks for a wake-up (a side to continue),
		 * or 250 ms pass; then handle every record there is, under the
		 * lock the main thread takes to switch runs. When BPF continues
		 * the sides, only the records it cannot handle, a filling ring
		 * buffer and bs_barrier_rt_stop wake it: no periodic wake-up
		 * takes a measured side's CPU (the main thread handles what
		 * is left when a run ends or a side exits) */
		epoll_wait(efd, &ev, 1, rt->kcont ? -1 : 250);
		pthread_mutex_lock(&rt->mu);
		ring_buffer__consume(rt->rb);
		pthread_mutex_unlock(&rt->mu);
	}
	return NULL;
}

int bs_barrier_rt_start(struct bs_barrier_rt *rt, struct bs_probes *p, char *err, size_t errlen)
{
	struct sched_param sp = {.sched_priority = 10};
	pthread_attr_t attr;
	int rc;

	memset(rt, 0, sizeof(*rt));
	pthread_mutex_init(&rt->mu, NULL);
	rt->stop_fd = -1;
	rt->rb = ring_buffer__new(bs_probes_barrier_fd(p), rt_record, rt, NULL);
	if (!rt->rb) {
		rc = -errno;
		snprintf(err, errlen, "cannot read the barrier ring buffer: %s", strerror(-rc));
		return rc;
	}
	/* bs_barrier_rt_stop wakes the thread through this, in the reader's epoll set */
	rt->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rt->stop_fd >= 0) {
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = UINT32_MAX};

		if (epoll_ctl(ring_buffer__epoll_fd(rt->rb), EPOLL_CTL_ADD, rt->stop_fd, &ev)) {
			close(rt->stop_fd);
			rt->stop_fd = -1;
		}
	}
	pthread_attr_init(&attr);
	/* SCHED_FIFO where allowed (root, CAP_SYS_NICE), else a normal thread */
	if (!pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED) &&
	    !pthread_attr_setschedpolicy(&attr, SCHED_FIFO) &&
	    !pthread_attr_setschedparam(&attr, &sp) &&
	    !pthread_create(&rt->th, &attr, rt_loop, rt)) {
		rt->fifo = true;
	} else if ((rc = pthread_create(&rt->th, NULL, rt_loop, rt))) {
		pthread_attr_destroy(&attr);
		ring_buffer__free(rt->rb);
		rt->rb = NULL;
		snprintf(err, errlen, "cannot start the barrier thread: %s", strerror(rc));
		return -rc;
	}
	pthread_attr_destroy(&attr);
	rt->running = true;
	return 0;
}

void bs_barrier_rt_attach(struct bs_barrier_rt *rt, struct bs_barrier_ctl *b)
{
	if (!rt || !rt->running)
		return;
	pthread_mutex_lock(&rt->mu);
	/* a detach first handles what the ring buffer holds, for the run
	 * that ends */
	if (!b)
		ring_buffer__consume(rt->rb);
	rt->cur = b;
	pthread_mutex_unlock(&rt->mu);
}

void bs_barrier_rt_stop(struct bs_barrier_rt *rt)
{
	if (!rt || !rt->running)
		return;
	rt->stop = 1;
	if (rt->stop_fd >= 0) {
		uint64_t one = 1;

		if (write(rt->stop_fd, &one, sizeof(one)) < 0) {
			/* cannot happen with a fresh eventfd; the thread then wakes on records */
		}
	}
	pthread_join(rt->th, NULL);
	if (rt->stop_fd >= 0)
		close(rt->stop_fd);
	rt->stop_fd = -1;
	ring_buffer__free(rt->rb);
	rt->rb = NULL;
	rt->running = false;
	pthread_mutex_destroy(&rt->mu);
}

void bs_barrier_start(struct bs_barrier_ctl *b, struct bs_probes *p, const pid_t pid[2],
		      struct bs_barrier_rt *rt, int mode, int lead)
{
	memset(b, 0, sizeof(*b));
	b->mode = mode;
	b->probes = p;
	b->mu = rt && rt->running ? &rt->mu : NULL;
	b->rb = rt && rt->running ? rt->rb : NULL;
	b->fifo = rt && rt->fifo;
	b->pid[0] = pid[0];
	b->pid[1] = pid[1];
	b->wait_index[0] = b->wait_index[1] = -1;
	b->gen = bs_probes_barrier_arm(p, mode, lead);
	b->armed = true;
	bs_barrier_rt_attach(rt, b);
}

static struct bs_barrier_meet *meet_at(struct bs_barrier_ctl *b, uint64_t k)
{
	if (k > (1u << 24)) {
		b->dropped++;
		return NULL; /* not a plausible iteration count */
	}
	if (k >= b->cap_meet) {
		size_t cap = b->cap_meet ? b->cap_meet : 64;
		struct bs_barrier_meet *nm;

		while (cap <= k)
			cap *= 2;
		nm = realloc(b->meet, cap * sizeof(*nm));
		if (!nm) {
			b->dropped++;
			return NULL;
		}
		memset(nm + b->cap_meet, 0, (cap - b->cap_meet) * sizeof(*nm));
		b->meet = nm;
		b->cap_meet = cap;
	}
	if (k >= b->n_meet)
		b->n_meet = k + 1;
	return &b->meet[k];
}

/*
 * The meet a record belongs to. Sync: the sides' k-th begins meet at k.
 * Interleaved: each side waits for its own turns, so side s's wait at its
 * k-th iteration is meet 2k + s (WAIT and RESUME come from the waiting
 * side, RELEASE* from the other one).
 */
static struct bs_barrier_meet *meet_of(struct bs_barrier_ctl *b, const struct bs_barrier_rec *r)
{
	uint64_t waiter = r->side & 1;

	if (b->mode != BS_BAR_INTERLEAVED)
		return meet_at(b, r->index);
	if (r->kind == BS_BARRIER_RELEASE || r->kind == BS_BARRIER_RELEASE_CONT ||
	    r->kind == BS_BARRIER_RELEASE_KCONT)
		waiter ^= 1;
	return r->index > (1u << 23) ? NULL : meet_at(b, 2 * r->index + waiter);
}

void bs_barrier_on_record(struct bs_barrier_ctl *b, const struct bs_barrier_rec *r)
{
	struct bs_barrier_meet *mt;
	int s = (int)(r->side & 1);

	if (!b->gen || r->gen != b->gen)
		return;
	switch (r->kind) {
	case BS_BARRIER_RELEASE_CONT:
		/* first: the stopped side is waiting for exactly this */
		if (r->other_pid > 0)
			kill((pid_t)r->other_pid, SIGCONT);
		b->conts++;
		b->wait_index[s ^ 1] = -1;
		goto release;
	case BS_BARRIER_RELEASE_KCONT:
		/* BPF continued it already */
		b->kconts++;
		b->wait_index[s ^ 1] = -1;
		/* fall through */
	case BS_BARRIER_RELEASE:
	release:
		mt = meet_of(b, r);
		if (!mt)
			return;
		if (!mt->seen || r->kind != BS_BARRIER_RELEASE) {
			mt->release_ns = r->ts_ns;
			mt->other_ns = r->other_ns;
		}
		mt->seen = true;
		if (r->kind != BS_BARRIER_RELEASE)
			mt->cont = true;
		break;
	case BS_BARRIER_WAIT:
		b->waits++;
		/* unless its release came first (records of two CPUs interleave) */
		mt = meet_of(b, r);
		if (!mt || !mt->seen)
			b->wait_index[s] = (int64_t)r->index;
		break;
	case BS_BARRIER_RESUME:
		mt = meet_of(b, r);
		if (mt && !mt->resume_ns)
			mt->resume_ns = r->ts_ns;
		if (b->wait_index[s] == (int64_t)r->index)
			b->wait_index[s] = -1;
		break;
	default:
		break;
	}
}

void bs_barrier_force_release(struct bs_barrier_ctl *b)
{
	int s;

	if (b->mu)
		pthread_mutex_lock(b->mu);
	if (!b->armed) {
		if (b->mu)
			pthread_mutex_unlock(b->mu);
		return;
	}
	bs_probes_barrier_disarm(b->probes);
	b->armed = false;
	/* records that woke nobody (BPF continued the side) tell who still waits */
	if (b->rb)
		ring_buffer__consume(b->rb);
	for (s = 0; s < 2; s++) {
		if (b->wait_index[s] >= 0)
			b->timeouts++;
		b->wait_index[s] = -1;
		if (b->pid[s] > 0)
			kill(b->pid[s], SIGCONT); /* harmless when it runs; ends a stop */
	}
	if (b->mu)
		pthread_mutex_unlock(b->mu);
}

json_object *bs_barrier_json(const struct bs_barrier_ctl *b)
{
	json_object *o = json_object_new_object(), *sk = json_object_new_array();
	size_t k, released = 0;

	for (k = 0; k < b->n_meet; k++) {
		const struct bs_barrier_meet *mt = &b->meet[k];
		int64_t skew;

		if (!mt->seen)
			continue;
		released++;
		if (mt->cont && mt->resume_ns)
			skew = (int64_t)(mt->resume_ns - mt->release_ns);
		else
			skew = (int64_t)(mt->release_ns - mt->other_ns);
		json_object_array_add(sk, json_object_new_int64(skew < 0 ? -skew : skew));
	}
	json_object_object_add(o, "released", json_object_new_int64((int64_t)released));
	json_object_object_add(o, "skew_ns", sk);
	json_object_object_add(o, "timeouts", json_object_new_int64((int64_t)b->timeouts));
	json_object_object_add(o, "dropped", json_object_new_int64((int64_t)b->dropped));
	json_object_object_add(o, "stops", json_object_new_int64((int64_t)b->waits));
	json_object_object_add(o, "release_thread",
			       json_object_new_string(b->fifo ? "fifo" : "normal"));
	/* who continued the stopped sides: BPF itself, or the release thread */
	json_object_object_add(o, "continued_bpf", json_object_new_int64((int64_t)b->kconts));
	json_object_object_add(o, "continued_user", json_object_new_int64((int64_t)b->conts));
	/* interleaved: skew_ns is the hand-over, the waiting side's re-stamped
	 * begin minus the end of the other side's iteration that let it go */
	if (b->mode == BS_BAR_INTERLEAVED)
		json_object_object_add(o, "mode", json_object_new_string("interleaved"));
	return o;
}

void bs_barrier_free(struct bs_barrier_ctl *b)
{
	free(b->meet);
	b->meet = NULL;
	b->n_meet = b->cap_meet = 0;
}
