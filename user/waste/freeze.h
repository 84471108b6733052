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

#include <sys/types.h>

#include "benchscope/waste_record.h"
#include "waste/profiler.h"

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
 * bs_waste_resume - continue the thread group that sample @s froze (a
 * sample that froze nothing: no-op): wait until the stop has landed (up to
 * 5 ms), clear the BPF side's freeze_busy, SIGCONT; its stop counted
 * (bs_waste_stop_account) into w->c.stop_ns, w->c.stop_wakes, w->c.stops.
 */
void bs_waste_resume(struct bs_waste_run *w, const struct bs_waste_sample *s);

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
