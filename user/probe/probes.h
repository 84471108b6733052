/* SPDX-License-Identifier: MIT */
/*
 * probes.h - the BPF side's life cycle seen from user space: open, size,
 * configure, load, attach the boundaries and the accounting programs, follow
 * a process, and read back counters, spilled records, interferers and the
 * programs' own run time.
 */
#ifndef BENCHSCOPE_PROBES_H
#define BENCHSCOPE_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/record.h"
#include "probe/interferer_table.h"
#include "probe/boundary.h"

struct benchscope_bpf;
struct kcont_bpf;
struct bpf_link;
struct bpf_program;

struct bs_probes_opts {
	size_t ringbuf_bytes;  /**< ring buffer size (power of two, >= page size) */
	bool interferers;      /**< account the tasks that take the CPU */
	bool verbose;	       /**< print libbpf's messages (verifier log) */
	bool no_accounting;    /**< attach no scheduler/IRQ/process programs (calibration only) */
	bool untagged_charges; /**< never keep charges per iteration, whatever the boundaries say
				*   (a duet whose other side's boundaries do not) */
};

struct bs_probes {
	struct benchscope_bpf *skel;
	struct bpf_link **links;
	size_t n_links;
	char **attached; /**< a description per attached boundary site */
	size_t n_attached;
	int stats_fd;		     /**< BPF_STATS_RUN_TIME enabled while >= 0 */
	struct kcont_bpf *kcont;     /**< the barrier's continuing program, or NULL */
	struct bpf_link *kcont_link; /**< its attachment */
};

/**
 * Open, configure (from opts and the boundaries) and load the BPF object,
 * and attach the scheduler, IRQ and process-lifecycle programs.
 * Returns 0 or -errno with a one-line reason in err (verifier log printed to
 * stderr when opts->verbose).
 */
int bs_probes_load(struct bs_probes *p, const struct bs_boundaries *b,
		   const struct bs_probes_opts *opts, char *err, size_t errlen);

/**
 * Attach the iteration boundaries of b (system-wide; filtered by the
 * tracked map) to the loaded object, each attached site listed in
 * p->attached. Returns 0, or -errno with a one-line reason in err: the
 * errno of a failed uprobe, USDT or tracepoint attachment (e.g. -ENOENT,
 * -EINVAL, -EPERM), -EINVAL "no iteration boundaries" (b->mode unknown),
 * -ENOMEM (err may then be left unwritten). Sites attached before a
 * failure stay attached until bs_probes_destroy.
 */
int bs_probes_attach_boundaries(struct bs_probes *p, const struct bs_boundaries *b, char *err,
				size_t errlen);

/**
 * bs_probes_attach_uprobe - attach @prog to file offset @off of @path (a
 * uretprobe when @ret) with attach cookie @cookie, and keep the link
 * (destroyed with @p). @desc names the site in the error line and, when
 * @list, among the attached boundary sites; NULL: the error names "PROG at
 * PATH+0xOFF" and nothing is listed. Returns 0, or -errno with one line in
 * @err (-ENOMEM: the link is destroyed).
 */
int bs_probes_attach_uprobe(struct bs_probes *p, struct bpf_program *prog, const char *path,
			    uint64_t off, bool ret, uint64_t cookie, const char *desc, bool list,
			    char *err, size_t errlen);

/** Follow process `pid` (and, through fork, its descendants). 0 or -errno. */
int bs_probes_track(struct bs_probes *p, pid_t pid);

/**
 * bs_probes_track_side - follow process `pid` like bs_probes_track, as side
 * `side` of a duet (0 A, 1 B); its descendants inherit the side. The side
 * takes part in the sync-duet barrier while one is armed. 0 or -errno.
 */
int bs_probes_track_side(struct bs_probes *p, pid_t pid, int side);

/**
 * bs_probes_barrier_arm - reset the duet barrier (begin and end counts,
 * waits) and arm it for a new run in @mode (enum bs_barrier_mode):
 * BS_BAR_SYNC, the k-th iteration begins of side A and of side B start
 * together (barrier_arrive in bpf/barrier.bpf.h); BS_BAR_INTERLEAVED, the
 * sides take turns, one iteration each (turn_arrive, turn_pass), side
 * @lead (0 A, 1 B) first in every turn; @lead is ignored in sync mode.
 * Returns the run's generation (> 0), which the barrier records carry.
 */
unsigned bs_probes_barrier_arm(struct bs_probes *p, int mode, int lead);

/**
 * bs_probes_barrier_disarm - no further waits (a side exited, timed out, or
 * the run ended); a side stopped at the barrier must still be continued by
 * the caller (SIGCONT): its pending wait is cleared here.
 */
void bs_probes_barrier_disarm(struct bs_probes *p);

/**
 * bs_probes_kcont_enable - let BPF continue a side stopped at the duet
 * barrier itself: load and attach the tracing program (on signal_generate,
 * rung by the boundary programs) that sends the SIGCONT with the kfunc
 * bpf_send_signal_task (kernels 6.13+; bpf_task_from_pid and
 * bpf_task_release too), so that user space is not woken per release. Call after bs_probes_load,
 * before any barrier is armed. Returns 0 (enabled; idempotent), -ENOTSUP when the kernel's BTF
 * lacks a kfunc, or -errno when loading or attaching failed, with a one-line reason in err; then
 * user space keeps continuing the sides (BS_BARRIER_RELEASE_CONT records) and nothing changed.
 */
int bs_probes_kcont_enable(struct bs_probes *p, char *err, size_t errlen);

/** Fd of the barrier ring buffer (struct bs_barrier_rec records). Call after
 * a successful bs_probes_load: p->skel is used unchecked (NULL before
 * bs_probes_load opened it and after bs_probes_destroy: a crash); opened
 * but not loaded, libbpf returns a negative value (-1, no map yet). */
int bs_probes_barrier_fd(const struct bs_probes *p);

/** Ring buffer map fd, for the collector. Same conditions as
 * bs_probes_barrier_fd. */
int bs_probes_ringbuf_fd(const struct bs_probes *p);

/** Sum the per-CPU drop/health counters into out. 0 or -errno. */
int bs_probes_counters(const struct bs_probes *p, struct bs_counters *out);

/**
 * Move every record in the spill map to fn (then delete it).
 * Returns the number of records moved, or -errno.
 */
long bs_probes_drain_spill(struct bs_probes *p, int (*fn)(void *ctx, const struct bs_iter_rec *r),
			   void *ctx);

/**
 * Call fn for every pair of table t (the BS_REC_INTERF records received so
 * far), its ns plus the time still pending in the CPUs' slots (struct
 * bs_cpu_wait): a pair's whole time, once the ring buffer is drained. Exact
 * for processes that have exited (nothing is charged to them after that).
 * Does not change t, so it can be called again later. Returns the number of
 * pairs, or fn's first non-zero return.
 */
long bs_probes_interferers(const struct bs_probes *p, const struct bs_interferer_table *t,
			   int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx);

/**
 * Add the time still pending in the CPUs' slots (struct bs_cpu_wait) to t,
 * as the charges they stand for, so that t holds every charge, by iteration
 * where they carry one. Once, at the end of a run, with the programs
 * detached and the ring buffer drained: a second call counts them twice.
 */
void bs_probes_take_pending(const struct bs_probes *p, struct bs_interferer_table *t);

/**
 * Whether the loaded programs' charges carry their iteration (struct
 * bs_interferer_charge.victim_iter): bs_boundaries_charges_by_iteration of
 * the boundaries they were loaded for.
 */
bool bs_probes_charges_by_iteration(const struct bs_probes *p);

/**
 * The BPF programs' own run time (BPF_STATS_RUN_TIME) as a JSON array text
 * [{"prog","run_cnt","run_time_ns"[,"recursion_misses"]}] (malloc'd), for
 * programs that ran; recursion_misses only where not 0.
 */
char *bs_probes_stats_json(const struct bs_probes *p);

/**
 * Runs of our BPF programs the kernel skipped (bpf_prog_info's
 * recursion_misses, summed: the program was already running on that CPU),
 * each an event lost to the accounting. 0 where the kernel does not count
 * them (before 5.12).
 */
uint64_t bs_probes_recursion_misses(const struct bs_probes *p);

/**
 * Detach every program (boundary probes, scheduler and IRQ handlers) and
 * keep the rest: from here on none runs, so the counters, the run counts
 * and the CPUs' pending charges read afterwards are one snapshot. Without
 * it, a process running the probed binary beside the harness added runs
 * between two reads (the run counts one above foreign_hits plus the
 * iterations, once in 18 runs of such a test natively). The object stays
 * loaded and readable; `attached` keeps its descriptions.
 */
void bs_probes_detach(struct bs_probes *p);

/** Detach and free everything. NULL-safe. */
void bs_probes_destroy(struct bs_probes *p);

#endif
