/* SPDX-License-Identifier: MIT */
/*
 * pidsets.h - the process sets of a duet's ok runs (struct bs_dpids in
 * d->pidsets: each side's root process and its PROC fork descendants) and
 * the look-ups by pid that place iterations, forks and interferer records
 * in a run and side (docs/duet-trace.md, "Iterations").
 *
 * A pid can be in several runs' sets (the kernel reuses pids; imported
 * traces may repeat run numbers), so a record belongs to the first run, in
 * d->pidsets order, whose run number has the pid in its sets and whose
 * span (when known) holds the record's time. An index by pid keeps each
 * look-up at O(1) expected for a pid of one run and O(log runs) for a pid
 * of many when the runs' spans are in run order, instead of a search
 * through every run's set.
 */
#ifndef BENCHSCOPE_DUET_PIDSETS_H
#define BENCHSCOPE_DUET_PIDSETS_H

#include <stddef.h>
#include <stdint.h>

#include "duet/data.h"
#include "trace/dataset.h"

/**
 * bs_dpids_index_init - start the index of d->pidsets[0..d->n_pidsets):
 * their run (ascending), method and span set, no pid added yet. Returns 0
 * or -ENOMEM. The index is freed with the sets (bs_dpids_free).
 */
int bs_dpids_index_init(struct bs_duet_data *d);

/**
 * bs_dpids_add - add process @pid to side @side (0 A, 1 B) of set @k of
 * d->pidsets (ignored if it is there already). Returns 0 or -ENOMEM.
 */
int bs_dpids_add(struct bs_duet_data *d, size_t k, int side, uint32_t pid);

/**
 * bs_dpids_add_forks - add the PROC fork records of @ds, in trace order:
 * the child joins the side of the set bs_dpids_place gives its parent at
 * the fork's time. Returns 0 or -ENOMEM.
 */
int bs_dpids_add_forks(struct bs_duet_data *d, const struct bs_dataset *ds);

/**
 * bs_dpids_place - the set (index into d->pidsets) and side of a record of
 * process @pid at time @t_ns (CLOCK_MONOTONIC ns): the first set whose run
 * number has @pid in its sets and whose span is unknown (0, 0) or holds
 * @t_ns; *side is the side of @pid in the first set of that run number
 * that has it. Returns -1 (and leaves *side) when there is none.
 */
long bs_dpids_place(const struct bs_duet_data *d, uint32_t pid, int64_t t_ns, int *side);

/**
 * bs_dpids_steps - the runs examined by the look-ups of @d so far (a run
 * whose span or whose sets a look-up tested): for tests, which bound the
 * look-ups' cost without timing them.
 */
size_t bs_dpids_steps(const struct bs_duet_data *d);

/** Free d->pidsets, their pids and the index (NULL-safe members). */
void bs_dpids_free(struct bs_duet_data *d);

#endif
