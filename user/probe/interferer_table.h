/* SPDX-License-Identifier: MIT */
/*
 * interferer_table.h - who took the CPU from a tracked process, summed in
 * user space from the scheduler handler's charges (struct
 * bs_interferer_charge: ring buffer records, then the CPUs' pending slots at
 * the end of a run).
 */
#ifndef BENCHSCOPE_INTERFERER_TABLE_H
#define BENCHSCOPE_INTERFERER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"

/**
 * One entry per (victim_pid, victim_iter, interferer_tid); victim_iter is
 * BS_CHARGE_NO_ITER for every charge when by_iteration is false, so there is
 * one entry per pair. Zero-initialise before use.
 *
 * With by_iteration set, the charges are kept per iteration, and only those
 * of iterations that have a record count: a charge whose iteration
 * (victim_pid, victim_iter) has had no record
 * yet is held until bs_interferer_table_recorded says it has; what is still
 * held at the end of a run waited in iterations that ended without one (Go's
 * B with sub-benchmarks, a run ended by b.Skip, the part of a run before
 * its b.ResetTimer(), a lost record), and
 * bs_interferer_table_unrecorded sums it. Charges without an iteration
 * (BS_CHARGE_NO_ITER), and every charge when by_iteration is false, count
 * at once.
 */
struct bs_interferer_table {
	void *root;	   /**< tsearch(3) tree of struct bs_interferer_rec */
	void *held;	   /**< tree of the charges of iterations with no record yet */
	void *recorded;	   /**< tree, per victim process, of the iterations with a record */
	void *names;	   /**< tree of the pairs' first names, whatever their iterations */
	bool by_iteration; /**< hold the charges of iterations with no record yet */
	uint64_t dropped;  /**< charges not added (out of memory) */
};

/**
 * Add a charge's ns to its pair's total (or hold it, see struct
 * bs_interferer_table); a named charge (interferer_pid set) names the pair
 * if it has no name yet, also when its own iteration never has a record.
 * Returns 0, or -ENOMEM (counted in t->dropped).
 */
int bs_interferer_table_add(struct bs_interferer_table *t, const struct bs_interferer_charge *ch);

/**
 * The iteration `index` (bs_iter_rec.index) of process `pid` has a record:
 * its held charges and every later one count. Returns 0, or -ENOMEM (out
 * of memory: one more in t->dropped, and its charges may stay held, then
 * left out).
 */
int bs_interferer_table_recorded(struct bs_interferer_table *t, uint32_t pid, uint64_t index);

/**
 * Whether a charge to iteration `iter` (bs_interferer_charge.victim_iter) of
 * process `pid` counts now: by_iteration is off, the iteration is not known,
 * or it has a record.
 */
bool bs_interferer_table_counts(const struct bs_interferer_table *t, uint32_t pid, uint32_t iter);

/**
 * The charges still held (their iterations have had no record): the summed
 * ns, and the number of such iterations in *n_iters (may be NULL).
 */
uint64_t bs_interferer_table_unrecorded(const struct bs_interferer_table *t, uint64_t *n_iters);

/**
 * If the ring buffer record `data` (`size` bytes) is a charge
 * (BS_REC_INTERF), add it to t and return true; else false (not a charge,
 * or too short to be one: the caller handles it).
 */
bool bs_interferer_table_take(struct bs_interferer_table *t, const void *data, size_t size);

/**
 * Call fn for every entry, in (victim_pid, victim_iter, interferer_tid)
 * order, named by its pair's first name whatever the iteration that had it.
 * Returns the number of entries passed, or fn's first non-zero return (no
 * entry is passed after it).
 */
long bs_interferer_table_walk(const struct bs_interferer_table *t,
			      int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx);

/** Free every entry, held ones too; the table is empty again (by_iteration kept). */
void bs_interferer_table_free(struct bs_interferer_table *t);

#endif
