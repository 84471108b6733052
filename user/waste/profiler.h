/* SPDX-License-Identifier: MIT */
/*
 * waste/profiler.h - one run of `benchscope waste` (JXPerf: Su et al.
 * 2019): its options, the state shared by the files of the profiler, and
 * the steps user/cmd/waste.c takes: open -> load -> attach -> loop ->
 * finish -> report (waste/output.h) -> close.
 *
 * Files: waste/profiler.c (the steps), waste/threads.c (the followed
 * threads and processes), waste/events.c (the ring-buffer records: samples,
 * hits, tasks), waste/freeze.c (stopping and continuing the target),
 * waste/overhead.c (the cost of a trap, the period controller, the
 * baseline run), waste/output.c (summary, trace end, outputs, --from-trace).
 *
 * The steps return 0 or the exit status to end with (util/exit_status.h),
 * the reason printed on stderr as one "benchscope waste: ..." line.
 * bs_waste_close() ends every run that bs_waste_open() began, failed or not.
 */
#ifndef BENCHSCOPE_WASTE_PROFILER_H
#define BENCHSCOPE_WASTE_PROFILER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/waste_record.h"
#include "probe/session.h"
#include "util/progress.h"
#include "waste/procs.h"
#include "waste/report.h"
#include "waste/watch.h"

struct bs_trace_writer;
struct bs_waste_decoder;
struct bs_waste_sym;
struct bs_waste_thread;
struct ring_buffer;
struct waste_bpf;

/** Period changes kept per run for the report (about 7 minutes of changes every 100 ms). */
#define BS_WASTE_MAX_STEPS 4096

/** The options of `benchscope waste`, as user/cmd/waste.c parses them. */
struct bs_waste_args {
	unsigned kinds; /* bits 1 << enum bs_waste_kind (waste/class.h) */
	enum bs_waste_source source;
	uint64_t period;	     /* ns (timer), events (pebs) or ops (ibs); 0: default */
	double overhead_pct, fp_tol; /* fp_tol: a fraction (--fp-tolerance / 100) */
	int regs, top, depth;
	bool freeze, freeze_set, baseline, quiet;
	bool top_set, depth_set; /* --top, --depth given (--from-trace: else the trace's) */
	pid_t pid;
	uint64_t seed;
	const char *trace, *json, *folded, *from_trace;
	char **cmd;
};

/** What a run counted; the summary reports them under these names. */
struct bs_waste_counters {
	uint64_t samples, samples_access, armed, reservoir_drops, unreadable, arm_errors;
	uint64_t hits, resolved_hits, unresolved, noself, stale_hits, undecoded, threads, processes;
	uint64_t open_errors, stop_ns, stops, unstuck, gone_early;
	uint64_t threads_unfollowed; /* new threads not followed (table full, no breakpoint...) */
	uint64_t stop_wakes; /* stops that did not overlap the one before (one wake-up each) */
	uint64_t stops_late; /* frozen samples whose stop was not seen in time (dropped) */
	uint64_t sigtraps_program, sigtraps_self; /* SIGTRAPs the kernel generated (on_signal) */
};

/** The parts of a cost window, ns (waste/overhead.h, bs_waste_account). */
struct bs_waste_window {
	double trap_ns, stop_ns, cpu_ns, wall_ns;
};

/**
 * What the run has cost the program, as measured (waste/overhead.c,
 * bs_waste_account): the state at the last account and the sums since the
 * start. Traps: the BPF per-CPU counts, each CPU's weighed by the cost of a
 * trap measured on it. Stops: the time the program was stopped for frozen
 * samples (each from its sample to the first SIGCONT after it, overlaps
 * counted once: bs_waste_stop_account, in w->c.stop_ns) plus one wake-up
 * measured at start per stop that did not overlap the one before
 * (w->c.stop_wakes).
 * The program's CPU time: its followed threads' (schedstat).
 */
struct bs_waste_cost {
	uint64_t cpu_traps[BS_WASTE_MAX_CPUS]; /* BPF counts at the last account */
	uint64_t stop_wakes, stop_ns;	       /* w->c's at the last account */
	uint64_t at_ns;			       /* CLOCK_MONOTONIC of the last account */
	double trap_sum_ns, stop_sum_ns;       /* cost since the start, ns */
	double cpu_sum_ns;		       /* the program's CPU time since the start, ns */
	struct bs_waste_window decide;	       /* since the controller's last decision */
};

/** SIGCONT times kept to find the continue that ended a sample's stop. */
#define BS_WASTE_CONT_RING 64

/** The program's stops as the continues ended them (waste/freeze.h, bs_waste_stop_account). */
struct bs_waste_stops {
	uint64_t cont[BS_WASTE_CONT_RING]; /* the last continues' CLOCK_MONOTONIC ns (ring) */
	uint64_t n;			   /* continues sent */
	uint64_t end_ns;		   /* end of the last stop counted */
};

/** The state of one run; bs_waste_open() sets it up. */
struct bs_waste_run {
	struct bs_waste_args *a;
	struct waste_bpf *skel;
	struct bs_waste_thread *th; /* BS_WASTE_MAX_THREADS (waste/threads.h) */
	struct bs_waste_decoder *dec;
	struct bs_waste_sym *sym;
	struct bs_waste_result res;
	struct bs_trace_writer *tw;
	struct bs_waste_counters c;
	enum bs_waste_source src;
	uint64_t period, period0, rng; /* period now, at start (as a->period); PRNG state */
	struct bs_waste_procs procs;   /* every process a sampler was opened in */
	pid_t root;
	uint64_t root_exit_ns; /* CLOCK_MONOTONIC of the root thread's exit */
	long maxrss;	       /* peak RSS of the root process seen, KiB */
	char err[512];
	/* set by the steps below */
	struct bs_session sess; /* with CMD: the program */
	struct ring_buffer *rb; /* the records of waste.bpf.c */
	char *ctxs;		/* the context JSON of the trace, or NULL */
	double trap_ns,
	    freeze_ns; /* cost of one trap (mean over CPUs), of one continue past the stop: ns */
	double trap_ns_cpu[BS_WASTE_MAX_CPUS]; /* one trap on each CPU, ns (NaN: not measured) */
	struct bs_waste_cost cost;	       /* what the run cost the program so far */
	struct bs_waste_stops stopped;	       /* the program's stops so far */
	double cmd_cpu_ns;		       /* CMD's CPU time from wait4 (NaN: not known) */
	uint64_t t_start, t_end;	       /* CLOCK_MONOTONIC ns: the program's run */
	double run_ns, base_ns;		       /* its length; the baseline run's (NAN: none) */
	long base_rss;			       /* the baseline run's peak RSS, KiB */
	/* the period over time: the first, then each change the controller made
	 * (at most BS_WASTE_MAX_STEPS; later changes counted in steps_dropped) */
	struct bs_waste_period_step *steps;
	size_t nsteps;
	uint64_t steps_dropped;
	int status, exit_code; /* CMD's wait status; its exit code (128 + signal) */
	/* the first SIGTRAP the kernel generated for the program (valid when
	 * c.sigtraps_program > 0), for the message when it killed it */
	struct bs_waste_trap first_trap;
	/* the live line (samples, hits, elapsed; with CMD only when stdout is
	 * redirected: util/progress.h), and the status lines' terminal check */
	struct bs_progress prog;
};

/** BS_DEBUG set: diagnostics on stderr (read once, at start, by the command). */
extern bool bs_waste_debug;

/**
 * bs_waste_open - set up @w for the options @a (kept by reference): the
 * thread table, the instruction decoder, the symbolizer, the BPF object
 * opened (not loaded) with --freeze/--no-freeze set. 0 or BS_EXIT_RUNTIME.
 */
int bs_waste_open(struct bs_waste_run *w, struct bs_waste_args *a);

/**
 * bs_waste_load - load the BPF programs; pick the sampling source
 * (--source; auto: PEBS, else IBS, else the timer: bs_waste_source_pick)
 * and the first period (--period, else 20000 events or ops, or 4 ms);
 * measure the cost of one trap on each CPU (w->trap_ns_cpu, their mean in
 * w->trap_ns) and, when freezing, of one stop and continue
 * (w->freeze_ns; 1 ms when it cannot be measured). 0, BS_EXIT_RUNTIME, or
 * BS_EXIT_UNSUPPORTED (--source pebs, ibs or pmu where it does not open).
 */
int bs_waste_load(struct bs_waste_run *w);

/**
 * bs_waste_attach - attach the task tracepoints, open the ring buffer and
 * the trace (--output, with the run's context), then follow the target:
 * CMD spawned held, its thread added, released (its sampler counts from
 * the exec on), or every thread of -p PID. Sets w->root and w->t_start;
 * prints the source, period and trap cost unless --quiet. 0,
 * BS_EXIT_RUNTIME, or BS_EXIT_USAGE (the trace cannot be written, CMD
 * cannot be started, -p PID is gone).
 */
int bs_waste_attach(struct bs_waste_run *w);

/**
 * bs_waste_loop - handle the records until the target ends (CMD waited
 * for: w->sess.exited, w->status; -p PID gone or a zombie) or
 * *@interrupted is set. After each poll (at most 20 ms; 2 ms once the root
 * thread exited): the period adapted to --overhead, a stop that overtook
 * a continue undone, the peak RSS read, the trace flushed when due.
 */
void bs_waste_loop(struct bs_waste_run *w, const volatile sig_atomic_t *interrupted);

/**
 * bs_waste_finish - end the run: the last records read, every followed
 * process continued and every thread dropped; w->t_end and w->run_ns (up
 * to the root thread's exit when seen). CMD: stopped when *@interrupted
 * and still running, else its exit code in w->exit_code (a warning on
 * stderr, even with --quiet, when it failed); then, unless --no-baseline
 * or *@interrupted, run once more without benchscope (w->base_ns,
 * w->base_rss).
 */
void bs_waste_finish(struct bs_waste_run *w, const volatile sig_atomic_t *interrupted);

/**
 * bs_waste_close - continue every followed process, stop CMD when it still
 * runs, free everything. After any step, also after a failed bs_waste_open.
 */
void bs_waste_close(struct bs_waste_run *w);

#endif
