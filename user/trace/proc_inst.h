/* SPDX-License-Identifier: MIT */
/*
 * proc_inst.h - process instances: which of the processes that held a pid
 * during a trace a record belongs to. The kernel reuses pids (pid_max is
 * 32768 on many machines), so a long run with many forks can trace two
 * processes under one pid; their iterations, benchmark names and process
 * records must not be merged.
 *
 * A pid's timeline is cut at each of its FORK records (a record at or after
 * the FORK's ts_ns belongs to the new process) and just after each of its
 * EXIT records (a record after the EXIT belongs to a new process, even
 * before a FORK is seen). The pieces that hold a record (an iteration's
 * begin_ns, a BENCH or PROC record's ts_ns) are numbered from 0 in time
 * order: the instance. A pid without FORK or EXIT records, and a record
 * without a timestamp (ts_ns 0), has instance 0, so traces without pid
 * reuse, imports and traces without PROC records group exactly by pid.
 */
#ifndef BENCHSCOPE_PROC_INST_H
#define BENCHSCOPE_PROC_INST_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"

struct bs_proc_inst;

/**
 * bs_proc_inst_build - the instances of a trace's records.
 * @procs: the n_procs PROC records (any order; EXEC records are not cuts);
 * @iters, @benches: the records whose instances are numbered (every record
 *   that will be asked about should be here, so that the numbering is dense).
 * Sets *out to the table, or to NULL when no pid has a FORK or EXIT record
 * (every instance is 0). Returns 0 or -ENOMEM.
 */
int bs_proc_inst_build(const struct bs_proc_rec *procs, size_t n_procs,
		       const struct bs_iter_rec *iters, size_t n_iters,
		       const struct bs_bench_rec *benches, size_t n_benches,
		       struct bs_proc_inst **out);

/**
 * bs_proc_inst_of - the instance of the process @pid that ran at @ts_ns
 * (CLOCK_MONOTONIC ns; 0: unknown, instance 0). @t NULL: 0. For a time in a
 * piece that holds no record given to the build, the instance of the next
 * piece that holds one (after the last: a number of its own).
 */
uint32_t bs_proc_inst_of(const struct bs_proc_inst *t, uint32_t pid, uint64_t ts_ns);

/** Free the table (NULL-safe). */
void bs_proc_inst_free(struct bs_proc_inst *t);

#endif
