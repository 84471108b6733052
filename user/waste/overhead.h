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
 * calling thread pinned to each CPU it may run on in turn (at most 32; the
 * others, and every CPU when pinning is refused, get the mean): ns per
 * trap in w->trap_ns_cpu[BS_WASTE_MAX_CPUS], the mean returned (>= 0).
 * NaN with a one-line reason in w->err when breakpoints cannot be opened,
 * attached or armed here.
 */
double bs_waste_measure_trap_ns(struct bs_waste_run *w);

/** bs_waste_thread_cpu_ns - thread @tid of @pid's CPU time (schedstat), ns; 0 when gone. */
uint64_t bs_waste_thread_cpu_ns(pid_t pid, pid_t tid);

/**
 * bs_waste_account - add what the run cost the program since the last
 * account (struct bs_waste_cost, in w->cost) at CLOCK_MONOTONIC @now:
 * traps per CPU (BPF) x that CPU's trap cost, stops as measured, the
 * followed threads' CPU time; the window's parts into *@win. Returns the
 * window's cost fraction (bs_waste_cost_frac).
 */
double bs_waste_account(struct bs_waste_run *w, uint64_t now, struct bs_waste_window *win);

/**
 * bs_waste_cost_frac - the cost of @trap_ns of traps and @stop_ns of stops
 * (all ns) to a program that used @cpu_ns of CPU time in @wall_ns: traps
 * delay the thread that takes them, so they count against its CPU time
 * less themselves (at least 1 ms); a stop halts the whole program, so it
 * counts against the wall time. A fraction (0.05: 5 %). Pure.
 */
double bs_waste_cost_frac(double trap_ns, double stop_ns, double cpu_ns, double wall_ns);

/**
 * bs_waste_program_cpu_ns - the program's CPU time over the run, ns: CMD's
 * from wait4 (w->cmd_cpu_ns) when known, else its followed threads' sum.
 */
double bs_waste_program_cpu_ns(const struct bs_waste_run *w);

/**
 * bs_waste_estimated_pct - the run's measured cost in percent: the sums of
 * w->cost against the program's CPU time (bs_waste_program_cpu_ns) and
 * w->run_ns.
 */
double bs_waste_estimated_pct(const struct bs_waste_run *w);

/**
 * bs_waste_adapt - the period controller, called after each poll. Every
 * 25 ms the cost is accounted (bs_waste_account); every 100 ms, or at once
 * when a 25 ms window cost over twice --overhead (the start of a short
 * run), it decides: over --overhead the period grows (up to 8 times at
 * once); under a third of it (100 ms windows only) the period shrinks back
 * towards the first one. Every sampler gets the new period, and the change
 * is recorded (bs_waste_note_period) with the cost that caused it.
 */
void bs_waste_adapt(struct bs_waste_run *w);

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
 * (KiB, VmHWM read every 2 ms from its exec on, not benchscope's copy
 * before it) in *@maxrss. 0 or -errno (pipe, fork, waitpid).
 */
int bs_waste_baseline(char **cmd, double *ns, long *maxrss);

#endif
