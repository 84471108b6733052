/* SPDX-License-Identifier: MIT */
/*
 * measure.h - one measurement session shared by `run`, `duet` and forked
 * runs: the BPF programs loaded and attached, the trace open, and every
 * record streamed from the ring buffer into the trace while harness
 * processes run. The commands start and stop the processes; this layer
 * follows them, lets them see records as they arrive (hooks), logs their
 * events, and closes the trace with the loss counters.
 *
 * Life cycle: bs_measure_open -> bs_measure_follow (per process, before it
 * is released) -> bs_measure_poll (loop) -> bs_measure_finish ->
 * bs_measure_destroy.
 */
#ifndef BENCHSCOPE_MEASURE_H
#define BENCHSCOPE_MEASURE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/record.h"
#include "probe/boundary.h"
#include "probe/calibrate.h"
#include "probe/collector.h"
#include "probe/probes.h"

struct bs_trace_writer;

struct bs_measure_opts {
	const struct bs_boundaries *b; /**< iteration boundaries, resolved */
	/** a second set (duet --probe-B), attached too unless it equals b, or
	 *  NULL. Both sets share one BPF object: a process preset cannot be
	 *  mixed with another kind, and two gbench sets need the same layout. */
	const struct bs_boundaries *b2;
	size_t ringbuf_bytes;	    /**< ring buffer size (power of two) */
	bool interferers;	    /**< account the tasks that take the CPU */
	bool verbose;		    /**< libbpf messages (verifier log) */
	bool calibrate;		    /**< measure the probe cost before attaching */
	int calib_calls;	    /**< probe hits per calibration round */
	const char *trace_path;	    /**< trace file to create */
	char *const *cmd;	    /**< harness command for the context (NULL-terminated) */
	const char *user;	    /**< user the harness runs as, or NULL */
	json_object *context_extra; /**< members added to the CONTEXT block (borrowed), or NULL */
};

struct bs_measure {
	struct bs_probes probes;
	struct bs_trace_writer *tw;
	struct bs_collector col;
	bool col_ready;
	bool usage_error;	   /**< open failed because of the input (exit 2), not the system */
	json_object *warnings;	   /**< array of strings, stored in END */
	struct bs_probe_cost cost; /**< valid when have_cost */
	bool have_cost;
	struct bs_counters k; /**< loss counters, read by bs_measure_finish */
	int (*on_iter)(void *ctx, struct bs_iter_rec *r);
	void (*on_proc)(void *ctx, const struct bs_proc_rec *r);
	void *hook_ctx;
	struct bs_lines *lines; /**< output-line boundaries' matcher (probe/lines.h), or NULL */
};

/**
 * bs_measure_check_privileges - 0 when root or CAP_BPF + CAP_PERFMON are
 * effective; else -EPERM with the missing capabilities named in err.
 */
int bs_measure_check_privileges(char *err, size_t errlen);

/**
 * bs_measure_write_empty - create o->trace_path with the CONTEXT block of
 * @o (no probe cost) and an END block of the members of @end (borrowed;
 * NULL: none), and no iteration: the trace of a run with nothing to
 * measure (an empty --shard), readable by every command. Loads no BPF.
 * Returns 0, or -errno with one line in @err.
 */
int bs_measure_write_empty(const struct bs_measure_opts *o, json_object *end, char *err,
			   size_t errlen);

/**
 * bs_measure_open - check privileges, load the BPF programs, measure the
 * probe cost (o->calibrate), attach the boundaries and create the trace.
 * Returns 0, or -errno with a one-line reason in err; m->usage_error tells
 * whether the cause is the input (privileges, trace path) rather than the
 * system. bs_measure_destroy must be called either way.
 */
int bs_measure_open(struct bs_measure *m, const struct bs_measure_opts *o, char *err,
		    size_t errlen);

/**
 * bs_measure_set_hooks - see records as they arrive, before they are stored:
 * on_iter may change r->flags (e.g. BS_ITER_F_WARMUP); on_proc sees fork,
 * exec and exit of followed processes. Either may be NULL.
 */
void bs_measure_set_hooks(struct bs_measure *m, int (*on_iter)(void *ctx, struct bs_iter_rec *r),
			  void (*on_proc)(void *ctx, const struct bs_proc_rec *r), void *ctx);

/** bs_measure_follow - follow process pid and its descendants. 0 or -errno. */
int bs_measure_follow(struct bs_measure *m, pid_t pid);

/**
 * bs_measure_follow_side - follow process pid and its descendants as side
 * `side` (0 A, 1 B) of a duet (they take part in an armed barrier).
 * 0 or -errno.
 */
int bs_measure_follow_side(struct bs_measure *m, pid_t pid, int side);

/**
 * bs_measure_poll - wait up to timeout_ms for records, store them (hooks
 * called), keep the spill map drained. Returns records handled or -errno.
 */
int bs_measure_poll(struct bs_measure *m, int timeout_ms);

/** bs_measure_event - store an EVENT block (the object is borrowed). 0 or -errno. */
int bs_measure_event(struct bs_measure *m, json_object *ev);

/**
 * bs_measure_say_warnings - print the END block's warnings (lost records
 * among them, each as the table shows it) on stderr, one line each,
 * "benchscope @cmd: warning: ...", after bs_measure_finish(): warnings go to
 * stderr whether or not the table on stdout shows them too.
 */
void bs_measure_say_warnings(const struct bs_measure *m, const char *cmd);

/** bs_measure_warn - add a warning (printf format) to the END block's list. */
void bs_measure_warn(struct bs_measure *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Iteration records received so far. */
uint64_t bs_measure_iters(const struct bs_measure *m);

/**
 * bs_measure_finish - drain the ring buffer and spill map, store the
 * interferers, add the loss counters ("lost"), the BPF programs' run time
 * ("bpf_stats"), the attached sites and the warnings to @end (taken over;
 * may already hold command-specific members such as "status"), write it as
 * the END block and close the trace. Returns 0, or the first -errno met
 * writing the trace (-ENOSPC: a full disk; the file then ends early).
 */
int bs_measure_finish(struct bs_measure *m, json_object *end);

/**
 * bs_measure_trace_incomplete - after bs_measure_finish returned @err: if
 * it is non-zero, say on one stderr line ("benchscope CMD: ...") that the
 * trace @path was not written in full, and how many of the iterations
 * received it holds (read back from the file). Returns whether it said so
 * (the command then exits BS_EXIT_RUNTIME, 1). Call before bs_measure_destroy.
 */
bool bs_measure_trace_incomplete(const struct bs_measure *m, const char *cmd, const char *path,
				 int err);

/** bs_measure_destroy - detach, free; closes the trace if still open. NULL-safe. */
void bs_measure_destroy(struct bs_measure *m);

#endif
