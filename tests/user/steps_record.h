/* SPDX-License-Identifier: MIT */
/*
 * steps_record.h - a steps hook (util/steps.h) that records what an
 * analysis tells it, for the tests that check the counts a progress line
 * would show.
 */
#ifndef BENCHSCOPE_TESTS_STEPS_RECORD_H
#define BENCHSCOPE_TESTS_STEPS_RECORD_H

#include <stdio.h>
#include <string.h>

#include "util/steps.h"

#define STEPS_RECORD_MAX 16

struct steps_record {
	size_t n; /**< calls; those past STEPS_RECORD_MAX are counted only */
	struct {
		uint64_t done, total;
		char name[64]; /**< "(null)" for NULL */
	} call[STEPS_RECORD_MAX];
};

static inline void steps_record_hook(void *ctx, uint64_t done, uint64_t total, const char *name)
{
	struct steps_record *r = ctx;

	if (r->n < STEPS_RECORD_MAX) {
		r->call[r->n].done = done;
		r->call[r->n].total = total;
		snprintf(r->call[r->n].name, sizeof(r->call[r->n].name), "%s",
			 name ? name : "(null)");
	}
	r->n++;
}

/** A hook recording into @r (zeroed first). */
static inline struct bs_steps steps_record_init(struct steps_record *r)
{
	memset(r, 0, sizeof(*r));
	return (struct bs_steps){steps_record_hook, r};
}

/** Whether call @i of @r was (@done, @total, @name). */
static inline int steps_record_is(const struct steps_record *r, size_t i, uint64_t done,
				  uint64_t total, const char *name)
{
	return i < r->n && i < STEPS_RECORD_MAX && r->call[i].done == done &&
	       r->call[i].total == total && !strcmp(r->call[i].name, name);
}

#endif
