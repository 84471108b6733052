/* SPDX-License-Identifier: MIT */
/*
 * collector.h - drain the BPF ring buffer into the trace while the harness runs.
 *
 * Every record is written to the trace as it arrives (the trace writer syncs
 * it to disk regularly), so a crash loses at most the last moments. Records
 * the writer could not store are counted, never silently dropped.
 */
#ifndef BENCHSCOPE_COLLECTOR_H
#define BENCHSCOPE_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/record.h"
#include "probe/interferer_table.h"

struct ring_buffer;
struct bs_trace_writer;
struct bs_probes;
struct bs_lines;

struct bs_collector {
	struct ring_buffer *rb;
	struct bs_trace_writer *trace;
	uint64_t iters;				/**< iteration records received */
	uint64_t procs;				/**< process records received */
	uint64_t benches;			/**< benchmark-name records stored */
	uint64_t bench_read_late;		/**< of them, names read from the process here
						     (struct bs_bench_addr_rec) */
	uint64_t bench_lost;			/**< names the process no longer had to read */
	uint64_t write_errors;			/**< records the trace writer failed to store */
	uint64_t unknown;			/**< records with an unknown type tag */
	struct bs_interferer_table interferers; /**< the BS_REC_INTERF charges, summed */
	pid_t root;				/**< the harness process */
	int root_exit_seen;			/**< the root's BS_PROC_EXIT arrived */
	/** called for each iteration record before it is stored; may change r->flags */
	int (*on_iter)(void *ctx, struct bs_iter_rec *r);
	/** called for each process record after it is stored */
	void (*on_proc)(void *ctx, const struct bs_proc_rec *r);
	void *hook_ctx;
	/** output-line boundaries: iteration records are the writing threads'
	 *  segments and go here with the write records, not to the trace; the
	 *  iterations it makes come back through bs_collector_put_iter */
	struct bs_lines *lines;
};

/**
 * bs_collector_put_iter - count an iteration, show it to on_iter (which may
 * change r->flags) and store it in the trace. Returns 0.
 */
int bs_collector_put_iter(struct bs_collector *c, struct bs_iter_rec *r);

/** Set up the ring buffer consumer (hooks cleared; set them after). Returns 0 or -errno. */
int bs_collector_init(struct bs_collector *c, int ringbuf_fd, struct bs_trace_writer *trace,
		      pid_t root);

/**
 * Wait up to timeout_ms for a wake-up, then store every record waiting in the
 * ring buffer and sync the trace if due (at least every 100 ms), so that a
 * SIGKILL of benchscope loses at most the last moments.
 * Returns records handled or -errno.
 */
int bs_collector_poll(struct bs_collector *c, int timeout_ms);

/** Store everything still in the ring buffer, then the spill map. Returns 0 or -errno. */
int bs_collector_drain(struct bs_collector *c, struct bs_probes *p);

/** Free the ring buffer consumer and the interferer pairs. */
void bs_collector_free(struct bs_collector *c);

#endif
