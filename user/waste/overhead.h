/* SPDX-License-Identifier: MIT */
/*
 * waste/overhead.h - what `benchscope waste` costs the profiled program and
 * how it is kept under --overhead: the cost of one watchpoint trap
 * measured here, the controller that lengthens (or shortens back) the
 * sampling period, and the baseline: the command run once more without
 * benchscope, with its peak RSS, for the overhead the report shows.
 */
#ifndef BENCHSCOPE_WASTE_OVERHEAD_H
#define BENCHSCOPE_WASTE_OVERHEAD_H

#include <stdint.h>
#include <sys/types.h>

#include "waste/profiler.h"

/**
 * bs_waste_measure_trap_ns - the cost of one watchpoint trap with on_hit
 * attached (to the calibration slot, BS_WASTE_CALIB_SLOT), measured on the
 * calling thread: ns per trap, >= 0. NaN with a one-line reason in w->err
 * when breakpoints cannot be opened, attached or armed here.
 */
double bs_waste_measure_trap_ns(struct bs_waste_run *w);

/**
 * bs_waste_adapt - the period controller, called after each poll; acts
 * every 100 ms at most. The cost since the last action (traps counted by
 * the BPF side * @trap_ns, plus per frozen sample its handling time and
 * @freeze_ns) as a fraction of the time passed: over --overhead the
 * period grows (up to 8 times at once), under a third of it the period
 * shrinks back towards the first one; every sampler gets the new period,
 * and the change is recorded (bs_waste_note_period) with the fraction
 * measured.
 * *@last_ns, *@last_traps, *@last_stop, *@last_stop_ns: the state of the
 * last action (start: the run's start time and zeros).
 */
void bs_waste_adapt(struct bs_waste_run *w, double trap_ns, double freeze_ns, uint64_t *last_ns,
		    uint64_t *last_traps, uint64_t *last_stop, uint64_t *last_stop_ns);

/**
 * bs_waste_note_period - record that @period is in force from @now_ns
 * (CLOCK_MONOTONIC) on, after a window whose estimated overhead was
 * @window_pct (NaN: the start) into w->steps; beyond BS_WASTE_MAX_STEPS
 * (or out of memory) only counted in w->steps_dropped.
 */
void bs_waste_note_period(struct bs_waste_run *w, uint64_t now_ns, uint64_t period,
			  double window_pct);

/** bs_waste_read_hwm - the peak RSS (VmHWM, KiB) of @pid so far, or 0. */
long bs_waste_read_hwm(pid_t pid);

/**
 * bs_waste_baseline - run @cmd (NULL-terminated, through PATH) once without
 * benchscope, stdout to /dev/null: its wall time in *@ns and its peak RSS
 * (KiB, read while it runs) in *@maxrss. 0 or -errno (fork, waitpid).
 */
int bs_waste_baseline(char **cmd, double *ns, long *maxrss);

#endif
