/* SPDX-License-Identifier: MIT */
/*
 * steps.h - how far a long analysis got (unit N of TOTAL, and its name),
 * told through a hook, so that a command can show it while the analysis
 * knows nothing of terminals: the command passes bs_progress_steps's hook
 * (util/progress.h: a live line on a terminal only), or nothing.
 */
#ifndef BENCHSCOPE_STEPS_H
#define BENCHSCOPE_STEPS_H

#include <stdint.h>

struct bs_steps {
	/**
	 * @done of @total units are finished and unit @done + 1, named @name
	 * (NULL: no name), starts; once more with @done == @total when the
	 * counted work is over, before anything else is printed.
	 */
	void (*step)(void *ctx, uint64_t done, uint64_t total, const char *name);
	void *ctx;
};

/** bs_steps_step - call @s's hook; nothing when @s is NULL (no one is told). */
static inline void bs_steps_step(const struct bs_steps *s, uint64_t done, uint64_t total,
				 const char *name)
{
	if (s && s->step)
		s->step(s->ctx, done, total, name);
}

#endif
