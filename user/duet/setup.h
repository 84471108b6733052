/* SPDX-License-Identifier: MIT */
/*
 * setup.h - duet's options (options.h) checked and turned into what the
 * runs need: the two commands split into words (wordexp(3), no shell),
 * each side's boundaries resolved against its program, the methods, the
 * run counts, the placement and the schedule; and the CONTEXT block that
 * records them in the trace (docs/duet-trace.md).
 */
#ifndef BENCHSCOPE_DUET_SETUP_H
#define BENCHSCOPE_DUET_SETUP_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <wordexp.h>

#include "duet/options.h"
#include "duet/run.h"
#include "probe/boundary.h"

/** What the runs need, from the options. Zero it before bs_duet_setup. */
struct bs_duet_setup {
	wordexp_t we_cmd[2];		 /**< A's and B's commands, as words */
	wordexp_t we_probe[2];		 /**< --probe-A/--probe-B, as words */
	bool have_cmd[2], have_probe[2]; /**< which of these hold words to free */
	struct bs_boundaries b[2];	 /**< A's and B's boundaries, resolved */
	struct bs_lines_cfg lines;	 /**< output-line boundaries of both sides (b[].lines) */
	struct bs_duet_cpus cpus;	 /**< --cpus (cpus.set: given or chosen for crossover) */
	struct bs_duet_cpus ilv_cpus;	 /**< the interleaved method's: --cpus, else both on
					  *   the last CPU */
	int methods[BS_DM_RUN_N];	 /**< the methods in the given order */
	size_t n_methods;		 /**< 0 until picked with --method auto */
	bool auto_pick;			 /**< --method auto (the default): the design comes
					  *   from the noise check (duet/design.h) */
	bool crossover;			 /**< --crossover, or picked by auto */
	long rmin, rmax;		 /**< runs per method: at least (--stop-ci), at most */
	struct bs_duet_plan *plan;	 /**< the runs in execution order */
	size_t n_plan;
};

/**
 * bs_duet_setup - check the options @a and fill @s (also a->side[]).
 * Returns 0, or -EINVAL with the first problem in one line in @err: a
 * command that cannot be split or is empty, --probe-A without --probe-B
 * or with --iter & co., a bad --probe-A/B, --method, --runs or --cpus, a
 * program not found, a boundary that does not resolve, a bad --shard
 * (a->shard is set from a->shard_text), a plan that
 * cannot be made; --crossover or --swap-every, or --noise-check 0, with
 * --method auto. With --method auto the methods and the placement are not
 * chosen yet, nor the runs planned: bs_duet_design_check (duet/design.h)
 * does it after the noise check. Free @s with bs_duet_setup_free either way.
 */
int bs_duet_setup(struct bs_duet_args *a, struct bs_duet_setup *s, char *err, size_t errlen);

/**
 * bs_duet_setup_plan - once s->methods, s->cpus / s->ilv_cpus and
 * s->crossover are known: complete the placement (crossover needs the
 * sides apart; interleaved defaults to the last CPU) and plan the runs.
 * Returns 0 or -EINVAL with one line in @err.
 */
int bs_duet_setup_plan(const struct bs_duet_args *a, struct bs_duet_setup *s, char *err,
		       size_t errlen);

/**
 * bs_duet_setup_add_word - add @word (as is, no expansion) as the last
 * word of both commands (--shard's filter). Returns 0, -ENOMEM or -EINVAL.
 */
int bs_duet_setup_add_word(struct bs_duet_setup *s, const char *word);

/**
 * bs_duet_stop_method - the method of s->methods that `--stop-ci` decides
 * on: the one whose verdict the report puts in the headline
 * (bs_duet_headline_method, duet/analysis.h), whatever the order given.
 * Returns an enum bs_duet_method, or -1 when no method is chosen yet.
 */
int bs_duet_stop_method(const struct bs_duet_setup *s);

/** bs_duet_setup_free - free the words and the plan of @s. */
void bs_duet_setup_free(struct bs_duet_setup *s);

/**
 * bs_duet_context - the CONTEXT members of a duet: "mode": "duet" and the
 * "duet" block (benchmark, commands, aa, methods, runs, schedule, seed,
 * cpus, SMT siblings, min_overlap, timeout_s, stop_ci, boundaries_B), as
 * docs/duet-trace.md lays them out. New object, the caller puts it.
 */
json_object *bs_duet_context(const struct bs_duet_args *a, const struct bs_duet_setup *s);

#endif
