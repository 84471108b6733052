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

/** One entry per (victim_pid, interferer_tid). Zero-initialise before use. */
struct bs_interferer_table {
	void *root;	  /**< tsearch(3) tree of struct bs_interferer_rec */
	uint64_t dropped; /**< charges not added (out of memory) */
};

/**
 * Add a charge's ns to its pair's total; a named charge (interferer_pid set)
 * names the pair if it has no name yet. Returns 0, or -ENOMEM (counted in
 * t->dropped).
 */
int bs_interferer_table_add(struct bs_interferer_table *t, const struct bs_interferer_charge *ch);

/**
 * If the ring buffer record `data` (`size` bytes) is a charge
 * (BS_REC_INTERF), add it to t and return true; else false (not a charge,
 * or too short to be one: the caller handles it).
 */
bool bs_interferer_table_take(struct bs_interferer_table *t, const void *data, size_t size);

/**
 * Call fn for every pair, in (victim_pid, interferer_tid) order. Returns the
 * number of pairs passed, or fn's first non-zero return (no pair is passed
 * after it).
 */
long bs_interferer_table_walk(const struct bs_interferer_table *t,
			      int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx);

/** Free every entry; the table is empty again. */
void bs_interferer_table_free(struct bs_interferer_table *t);

#endif
