/* SPDX-License-Identifier: MIT */
/*
 * run.h - the runner of `benchscope duet` (Drozdík 2023):
 * the schedule of runs (RMIT or fixed), one duet run (both sides spawned
 * held, released together or one after the other, followed, timed out),
 * the kernel-assisted barrier of sync runs, placement (--cpus) and the
 * --stop-ci decision. The trace layout written is docs/duet-trace.md; the
 * analysis of the finished trace is user/duet/report.h.
 *
 * Files: run_sched.c (schedule), run_one.c (one run),
 * run_barrier.c (barrier control), run_place.c (placement),
 * run_stop.c (--stop-ci, on the rule of stop_ci.h).
 */
#ifndef BENCHSCOPE_DUET_RUN_H
#define BENCHSCOPE_DUET_RUN_H

#include <json-c/json.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/record.h"
#include "probe/session.h"

struct bs_measure;
struct bs_probes;

/**
 * Duet methods: the CLI and trace names are "async", "sync", "seq"
 * (Drozdík 2023) and "interleaved" (benchscope's: both sides on one CPU,
 * taking turns one iteration each; see enum bs_barrier_mode). --method all
 * means the first three.
 */
enum bs_duet_method {
	BS_DM_RUN_ASYNC = 0,
	BS_DM_RUN_SYNC = 1,
	BS_DM_RUN_SEQ = 2,
	BS_DM_RUN_ILV = 3,
	BS_DM_RUN_N = 4
};
#define BS_DM_RUN_ALL 3 /**< --method all: methods 0..BS_DM_RUN_ALL-1 */

/** The barrier mode a method runs with (enum bs_barrier_mode; BS_BAR_OFF: none). */
int bs_duet_method_barrier(int method);

/** "async", "sync", "seq", "interleaved". */
const char *bs_duet_method_name(int method);

/* ---- schedule (run_sched.c) ------------------------------------------- */

/** One planned run. */
struct bs_duet_plan {
	int method; /**< enum bs_duet_method */
	int index;  /**< 0-based run index within its method */
	int order;  /**< 0: A first ("AB"), 1: B first ("BA") */
	int swap;   /**< crossover: 1 when A starts on B's CPUs and B on A's */
};

/**
 * bs_duet_schedule - the runs of a duet, in execution order: `runs` rounds;
 * each round runs every method of methods[0..n_methods-1] once.
 * rmit: the methods' order within each round is shuffled and each method's
 * pair orders are balanced (half AB, half BA; the odd one random) and
 * shuffled over its runs, all from a GSL mt19937 seeded with `seed`
 * (randomized multiple interleaved trials, Abedi & Brecht 2017).
 * fixed: methods in the given order in every round, always AB.
 * crossover: each method's runs start half with the sides on their own CPUs
 * and half swapped (swap = 1), balanced like the pair orders (RMIT:
 * shuffled with the same generator, after the orders; fixed: alternating,
 * run 0 unswapped), so a CPU's speed weighs on A and B alike (Jones &
 * Kenward 2014 §2). Without it, swap is 0.
 * *out (malloc'd, n_methods * runs entries) is freed by the caller.
 * Returns 0, -EINVAL (no method, runs 0) or -ENOMEM.
 */
int bs_duet_schedule(const int *methods, size_t n_methods, size_t runs, bool rmit, bool crossover,
		     uint64_t seed, struct bs_duet_plan **out, size_t *n_out);

/* ---- placement (run_place.c) ------------------------------------------- */

/** --cpus A=LIST,B=LIST, parsed. */
struct bs_duet_cpus {
	bool set;	   /**< --cpus given (or chosen for crossover / interleaved) */
	cpu_set_t cpus[2]; /**< A's and B's CPUs */
	char text[2][128]; /**< the lists as given, e.g. "0", "2-3" */
};

/**
 * bs_duet_cpus_default - a placement when --cpus is absent: for crossover
 * (@same false) A on the first CPU benchscope may use and B on the second;
 * for the interleaved method (@same true) both on the last one, so
 * benchscope's own threads can run on the others. Returns 0, or -EINVAL
 * with a reason in err when there are not enough CPUs.
 */
int bs_duet_cpus_default(bool same, struct bs_duet_cpus *c, char *err, size_t errlen);

/** bs_duet_cpus_pair - the placement A on CPU @cpu_a, B on CPU @cpu_b (each
 * in [0, CPU_SETSIZE)); the same CPU for both is allowed (interleaved). */
void bs_duet_cpus_pair(int cpu_a, int cpu_b, struct bs_duet_cpus *c);

/**
 * bs_duet_place_pids - pin every thread of the processes pids[0..n-1] to
 * @set (sched_setaffinity on each /proc/PID/task entry). Processes or
 * threads that exited meanwhile are skipped. Returns the number of threads
 * moved, or -errno of the first other failure.
 */
int bs_duet_place_pids(const pid_t *pids, size_t n, const cpu_set_t *set);

/**
 * bs_duet_cpus_parse - parse "A=LIST,B=LIST" (LIST: CPU numbers and ranges
 * separated by commas, "0", "0,2", "1-3"; both sides required). Every CPU
 * must be one benchscope may run on (sched_getaffinity).
 * Returns 0 or -EINVAL with a one-line reason in err.
 */
int bs_duet_cpus_parse(const char *spec, struct bs_duet_cpus *c, char *err, size_t errlen);

/**
 * bs_duet_smt_siblings - the SMT sibling groups of the online CPUs from
 * sysfs (topology/thread_siblings_list), each group with more than one CPU
 * once, as a JSON array of arrays of CPU numbers ([] when no SMT).
 */
json_object *bs_duet_smt_siblings(void);

/* ---- barrier control (run_barrier.c) ----------------------------------- */

/** One rendezvous of a sync run, as the barrier records describe it. */
struct bs_barrier_meet {
	uint64_t release_ns; /**< the second side's begin (RELEASE*) */
	uint64_t other_ns;   /**< the first side's begin as it arrived */
	uint64_t resume_ns;  /**< RESUME: the stopped side's re-stamped begin (0: none) */
	bool seen;	     /**< a RELEASE* record arrived for it */
	bool cont;	     /**< the first side was stopped and had to be continued (by user
			      *   space or by BPF) */
};

/** The barrier of one sync run, seen from user space. */
struct bs_barrier_ctl {
	struct bs_probes *probes;
	pthread_mutex_t *mu;	/**< the release thread's lock (bs_barrier_rt), or NULL */
	struct ring_buffer *rb; /**< the release thread's reader (records not yet read are
				 *   handled before a forced release), or NULL */
	bool fifo;		/**< the release thread ran SCHED_FIFO */
	bool armed;
	unsigned gen;		      /**< this run's generation (records of others ignored) */
	pid_t pid[2];		      /**< the sides' root processes */
	int mode;		      /**< enum bs_barrier_mode */
	struct bs_barrier_meet *meet; /**< by rendezvous index k (interleaved: 2k + waiting side) */
	size_t n_meet, cap_meet;
	size_t waits;	       /**< WAIT records (a side stopped itself) */
	size_t conts;	       /**< SIGCONTs sent for RELEASE_CONT (by user space) */
	size_t kconts;	       /**< sides BPF continued itself (RELEASE_KCONT) */
	size_t timeouts;       /**< forced releases: a side waited and the other never came */
	size_t dropped;	       /**< records of a meet that could not be kept (out of memory,
				    or an index past 2^24): their skew is missing */
	int64_t wait_index[2]; /**< index a side is known to wait at, -1: none */
};

/**
 * The release thread: sleeps on the barrier ring buffer (epoll; woken by the
 * records that need it, else every 250 ms) and continues a stopped side
 * (SIGCONT) the moment the other side arrives. It runs SCHED_FIFO
 * (priority 10) where allowed, so that a busy machine does not delay the
 * release behind other tasks' time slices (p90 skew 0.5-1 ms -> ~60 us on
 * the 2-vCPU development VM under load); it only consumes 48-byte records
 * and sends signals, so it takes next to no CPU from the harnesses. The
 * trace writing stays in the main thread at normal priority.
 */
struct bs_barrier_rt {
	pthread_t th;
	bool running;
	bool fifo; /**< SCHED_FIFO was granted */
	struct ring_buffer *rb;
	pthread_mutex_t mu;
	struct bs_barrier_ctl *cur; /**< the sync run in progress, or NULL */
	volatile int stop;
	bool kcont;  /**< BPF continues stopped sides itself (bs_probes_kcont_enable):
		      *   the thread is woken only by the records of the paths BPF
		      *   cannot take (exec/exit boundaries, a failed signal), when
		      *   the ring buffer fills, and to stop (no 250 ms wake-ups);
		      *   timeouts and exits are the main thread's
		      *   (bs_barrier_force_release) */
	int stop_fd; /**< eventfd that wakes the thread to stop, or -1 */
};

/**
 * bs_barrier_rt_start - start the release thread on the barrier ring buffer
 * of @p. Returns 0 or -errno with a one-line reason in err.
 */
int bs_barrier_rt_start(struct bs_barrier_rt *rt, struct bs_probes *p, char *err, size_t errlen);

/**
 * bs_barrier_rt_attach - route the records to @b (a sync or interleaved run
 * starts), or detach with NULL after handling, under the thread's lock,
 * every record already in the ring buffer (the run ended). Main thread
 * only; NULL rt is a no-op.
 */
void bs_barrier_rt_attach(struct bs_barrier_rt *rt, struct bs_barrier_ctl *b);

/** bs_barrier_rt_stop - stop and join the thread, free the reader. Idempotent. */
void bs_barrier_rt_stop(struct bs_barrier_rt *rt);

/**
 * bs_barrier_start - arm the barrier in @mode (enum bs_barrier_mode) for a
 * sync or interleaved run of the sides pid[0], pid[1], side @lead (0 A,
 * 1 B: the run's order) first in each interleaved turn; the release thread
 * @rt (or NULL: records not read) routes its records to @b from now on.
 */
void bs_barrier_start(struct bs_barrier_ctl *b, struct bs_probes *p, const pid_t pid[2],
		      struct bs_barrier_rt *rt, int mode, int lead);

/**
 * bs_barrier_on_record - handle one barrier record (release thread, lock held): on
 * BS_BARRIER_RELEASE_CONT send SIGCONT to the stopped side at once (on
 * BS_BARRIER_RELEASE_KCONT BPF sent it); note every rendezvous for the skew.
 */
void bs_barrier_on_record(struct bs_barrier_ctl *b, const struct bs_barrier_rec *r);

/**
 * bs_barrier_force_release - disarm and continue both sides (a side exited,
 * failed or timed out, or the run ends); counts a timeout when a side was
 * waiting for the other. Idempotent.
 */
void bs_barrier_force_release(struct bs_barrier_ctl *b);

/**
 * bs_barrier_json - {"released": N, "skew_ns": [...], "timeouts": N} of
 * the run: per rendezvous (iteration index of both sides), the release
 * skew |begin_A - begin_B| in ns, i.e. the stopped side's re-stamped begin
 * minus the releasing side's begin, or the distance of the two begins when
 * nobody had to stop. Call after the run's records are drained.
 */
json_object *bs_barrier_json(const struct bs_barrier_ctl *b);

/** bs_barrier_free - free the bookkeeping (not the probes). */
void bs_barrier_free(struct bs_barrier_ctl *b);

/* ---- one run (run_one.c) ------------------------------------------------ */

/** What a duet run needs that stays the same over runs. */
struct bs_duet_env {
	struct bs_measure *m;
	char **argv[2];			     /**< A's and B's commands */
	const struct bs_duet_cpus *cpus;     /**< placement of async, sync, seq runs */
	const struct bs_duet_cpus *ilv_cpus; /**< placement of interleaved runs */
	double timeout_s;		     /**< per side: from release to exit */
	double swap_every_s;		     /**< crossover within runs: swap the sides' CPUs
					      *   this often (0: never) */
	int stdout_fd;			     /**< harness stdout (e.g. /dev/null), < 0: inherited */
	bool capture_stderr;		     /**< keep each side's stderr in a temporary file and
					      *   quote its last line when the side fails */
	const char *user;		     /**< run the sides as this user, or NULL */
	volatile int *interrupted;	     /**< set by the signal handler */
	struct bs_barrier_rt *rt;	     /**< release thread (sync runs), or NULL */
	void (*tick)(void *ctx); /**< called about every 50 ms while a run goes (progress) */
	void *tick_ctx;
};

/** One side of a finished run. */
struct bs_duet_side {
	struct bs_session sess;
	bool spawned, released;
	uint64_t start_ns, end_ns; /**< CLOCK_MONOTONIC: release, exit */
	size_t n_iters;		   /**< iteration records of its processes */
	char failed[256];	   /**< "" or why it failed */
	pid_t *pids;		   /**< root and descendants */
	size_t n_pids, cap_pids;
	int err_fd;		/**< its captured stderr (temporary file), or -1 */
	const cpu_set_t *place; /**< the CPUs it runs on now (NULL: not pinned) */
};

/** One finished run. */
struct bs_duet_runres {
	struct bs_duet_plan plan;
	int run; /**< 0-based over all runs */
	bool ok;
	bool interrupted;
	char reason[320]; /**< "" when ok */
	uint64_t start_ns, end_ns;
	struct bs_duet_side side[2];
	struct bs_barrier_ctl bar; /**< sync and interleaved runs */
	unsigned swaps;		   /**< CPU swaps within the run (--swap-every) */
};

/**
 * bs_duet_run_one - run plan `pl` as run number `run`: spawn the sides held
 * before exec (placed per env->cpus, A and B's sets exchanged when
 * pl->swap), follow them as sides A and B, release them (async: together;
 * sync and interleaved: together with the barrier armed in the method's
 * mode; seq: one after the other, in pl->order), swap their CPUs every
 * env->swap_every_s while both run, wait until both exited, a side failed
 * (then the other is stopped) or a side ran longer than env->timeout_s,
 * drain the ring buffer, and fill *res. The caller routes iteration,
 * process and barrier records to bs_duet_runres_on_* while it runs.
 * Returns 0 (the run happened, ok or failed: see res->ok) or -errno when
 * the measurement itself failed (then res->reason says why).
 */
int bs_duet_run_one(const struct bs_duet_env *env, const struct bs_duet_plan *pl, int run,
		    struct bs_duet_runres *res);

/** Iteration record hook: counts it for its side (the trace keeps it). Returns 0. */
int bs_duet_runres_on_iter(struct bs_duet_runres *res, const struct bs_iter_rec *r);

/** Process record hook: follows forks and exits of the sides. */
void bs_duet_runres_on_proc(struct bs_duet_runres *res, const struct bs_proc_rec *r);

/**
 * bs_duet_runres_event - the "duet_run" EVENT of a finished run
 * (docs/duet-trace.md), with cpus from env. New object, caller puts it.
 */
json_object *bs_duet_runres_event(const struct bs_duet_runres *res,
				  const struct bs_duet_cpus *cpus);

/** bs_duet_runres_free - free a result's arrays and close its sessions. */
void bs_duet_runres_free(struct bs_duet_runres *res);

/* ---- --stop-ci (run_stop.c, the rule in stop_ci.h) ----------------------- */

struct bs_danalysis_opts;

/**
 * bs_duet_stop_check - the --stop-ci decision after run @after_run: flush
 * the trace of @m, read @trace back (bs_dataset_load, bs_duet_data_build)
 * and apply the rule of stop_ci.h (bs_duet_stop_decide) to the ok runs of
 * @method (enum bs_duet_method) with @min_runs, the relative width
 * @threshold and the analysis options @o (min_overlap, level, no_cpu,
 * drop_warmup_half; zero fields take the report's defaults). *width gets
 * the width the rule compared (NAN when no interval: too few runs,
 * placement confounded, no spread), *stop the decision. When the trace
 * cannot be read back the decision is "continue" and the reason says why.
 * Returns the new {"kind": "duet_stop_check", ...} EVENT (docs/duet-trace.md;
 * the caller writes and puts it), NULL when out of memory.
 */
json_object *bs_duet_stop_check(struct bs_measure *m, const char *trace, int after_run, int method,
				size_t min_runs, double threshold,
				const struct bs_danalysis_opts *o, double *width, bool *stop);

#endif
