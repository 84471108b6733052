/* SPDX-License-Identifier: MIT */
/*
 * iter_set.h - a set of iterations, by (pid, low 32 bits of
 * bs_iter_rec.index): the iterations a report analyses, to sum the
 * interferer charges taken in them (struct bs_interferer_rec.victim_iter).
 */
#ifndef BENCHSCOPE_ITER_SET_H
#define BENCHSCOPE_ITER_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"
#include "trace/context.h"

/** Zero-initialise; add, then seal, then ask. */
struct bs_iter_set {
	uint64_t *keys; /**< n keys, pid << 32 | low 32 bits of the index */
	size_t n, cap;
};

/** Add iteration @index of process @pid. Returns 0, or -ENOMEM. */
int bs_iter_set_add(struct bs_iter_set *s, uint32_t pid, uint64_t index);

/** Sort the keys: call once after the last add, before bs_iter_set_has. */
void bs_iter_set_seal(struct bs_iter_set *s);

/** Whether the sealed set holds iteration @iter (low 32 bits of its index) of @pid. */
bool bs_iter_set_has(const struct bs_iter_set *s, uint32_t pid, uint32_t iter);

/** Free the keys; the set is empty again. */
void bs_iter_set_free(struct bs_iter_set *s);

/**
 * Whether interferer record @r, of a trace whose charge scope is @scope
 * (bs_run_context_charge_scope), counts for a report that analyses the
 * iterations in @s (sealed): a per-iteration record (BS_CHARGES_ANALYSED)
 * when its iteration is in @s, any other record always (its scope says what
 * it covers).
 */
bool bs_charge_counts(const struct bs_interferer_rec *r, enum bs_charge_scope scope,
		      const struct bs_iter_set *s);

#endif
