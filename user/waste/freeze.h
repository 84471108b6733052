/* SPDX-License-Identifier: MIT */
/*
 * waste/freeze.h - stopping and continuing the profiled program. Without
 * --no-freeze, on_sample of waste.bpf.c stops the sampled thread group
 * (SIGSTOP, from an irq_work) until its watchpoint is armed; these continue
 * it, make sure no stop outlives its sample, and measure what a stop costs
 * the program.
 */
#ifndef BENCHSCOPE_WASTE_FREEZE_H
#define BENCHSCOPE_WASTE_FREEZE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/waste_record.h"
#include "waste/profiler.h"

/* How long bs_waste_resume waits for a frozen sample's thread to stop, ns:
 * stops were seen to land within 50 ms on a loaded machine, and a few in a
 * TCG guest within 50-100 ms; the wait holds every other sample back. */
#define BS_WASTE_STOP_WAIT_NS 100000000ull

/**
 * bs_waste_task_state - the state letter of thread @tid of @pid in
 * /proc/PID/task/TID/stat ('R', 'S', 'T': stopped, 'Z'...), or 0 when it
 * cannot be read (gone).
 */
char bs_waste_task_state(pid_t pid, pid_t tid);

/**
 * bs_waste_stop_account - count the stop of a frozen sample taken at
 * @sample_ns, continued now (@cont_ns; CLOCK_MONOTONIC ns). A SIGCONT
 * continues the whole group, so the stop ended at the first continue after
 * the sample (from @st's ring of recent ones, else @cont_ns); when records
 * queue up, stops overlap, and the time they overlap is counted once: the
 * part past the last counted end is added to *@stop_ns, and *@wakes grows
 * by one when the stop began after that end (a separate stop, woken once).
 * @cont_ns joins the ring. Pure.
 */
void bs_waste_stop_account(struct bs_waste_stops *st, uint64_t sample_ns, uint64_t cont_ns,
			   uint64_t *stop_ns, uint64_t *wakes);

/**
 * bs_waste_wait_stopped - wait until thread @tid of @pid is stopped ('T' or
 * 't'), or gone (no longer readable, a zombie), polling /proc for at most
 * @timeout_ns of CLOCK_MONOTONIC. The SIGSTOP of a frozen sample is sent
 * from an irq_work that may run after the record reached us; counting our
 * own wait for a CPU, two busy threads on 2 vCPUs were seen stopped within
 * 5 ms, 4 % of them within 5-50 ms under load, and in a 6.1 TCG guest about
 * one stop in 3000 came 200-400 ms late, no signal pending meanwhile and the
 * thread running on.
 * Returns true when it stopped or is gone, false when @timeout_ns passed.
 */
bool bs_waste_wait_stopped(pid_t pid, pid_t tid, uint64_t timeout_ns);

/**
 * bs_waste_resume - continue the thread group that sample @s froze: wait
 * until its thread has stopped (up to BS_WASTE_STOP_WAIT_NS), clear the BPF
 * side's freeze_busy, SIGCONT; the stop counted (bs_waste_stop_account)
 * into w->c.stop_ns, w->c.stop_wakes, w->c.stops. Returns false when the
 * thread was not seen stopped in time (counted in w->c.stops_late: it ran
 * on, so what was read and armed at the sample may be past; the stop that
 * lands later is undone by bs_waste_unstick), true otherwise (also for a
 * sample that froze nothing: a no-op).
 */
bool bs_waste_resume(struct bs_waste_run *w, const struct bs_waste_sample *s);

/** bs_waste_resume_all - SIGCONT to every process the run followed that
 * is still there (bs_waste_procs_cont: never to a later process given the
 * same pid, except where /proc cannot be read to tell, EMFILE say: then by
 * pid, rather than leave a frozen process stopped). */
void bs_waste_resume_all(struct bs_waste_run *w);

/**
 * bs_waste_unstick - with no frozen sample in flight, continue every
 * followed process that is stopped (a stop that overtook our SIGCONT) and
 * still the one followed (same start time); counted in w->c.unstuck.
 * Processes that are gone are forgotten here.
 */
void bs_waste_unstick(struct bs_waste_run *w);

/**
 * bs_waste_measure_freeze_ns - what continuing a stopped program costs it
 * here beyond its stopped interval, in ns of its run time (the median of 21
 * cycles on a spinning child, >= 0); NaN when it cannot be measured.
 */
double bs_waste_measure_freeze_ns(void);

#endif
