/* SPDX-License-Identifier: MIT */
/*
 * shard.h - `--shard I/N` of run and duet: split the benchmarks a harness
 * lists into N shards and measure only shard I.
 *
 * The rule (README, "Many machines"): the names the harness lists are sorted
 * (bytewise, strcmp) and deduplicated; the benchmark at position k (from 0)
 * of that list belongs to shard k mod N. I is 0-based, as Slurm's
 * SLURM_ARRAY_TASK_ID and Kubernetes' JOB_COMPLETION_INDEX, so the N shards
 * 0..N-1 cover the suite exactly once. The harness is then run with a filter
 * that selects exactly the shard's names (anchored, regex-escaped).
 *
 * Presets that list: gbench (--benchmark_list_tests, --benchmark_filter),
 * go (-test.list, -test.bench), criterion (--list, its FILTER argument).
 * The listing itself is in shard_list.c.
 */
#ifndef BENCHSCOPE_PROBE_SHARD_H
#define BENCHSCOPE_PROBE_SHARD_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#include "probe/boundary.h"

/** The largest N of --shard I/N. */
#define BS_SHARD_MAX 100000

/** A shard: which one, of how many, and its benchmarks once listed. */
struct bs_shard {
	bool set;	   /**< --shard was given */
	long index, count; /**< I (0-based) and N */
	char **names;	   /**< the shard's benchmarks, sorted; n_names of them (malloc'd) */
	size_t n_names;
	size_t n_listed; /**< benchmarks the harness listed (the whole suite) */
};

/**
 * bs_shard_parse - parse "I/N" (whole numbers, 0 <= I < N <= BS_SHARD_MAX)
 * into *sh. Returns 0, or -EINVAL with one line in @err ("--shard takes
 * I/N ... not '4/4'"), for which the commands exit 2.
 */
int bs_shard_parse(const char *s, struct bs_shard *sh, char *err, size_t errlen);

/**
 * bs_shard_pick - sort and deduplicate the @n names @all in place, and set
 * sh->names to copies of those of shard sh->index (position k with
 * k mod sh->count == sh->index), sh->n_listed to the distinct count.
 * The duplicates are freed and their slots set to NULL: @all[0..n) stays
 * the caller's to free (bs_shard_names_free). Returns 0 or -ENOMEM.
 */
int bs_shard_pick(struct bs_shard *sh, char **all, size_t n);

/**
 * bs_shard_can_list - whether the preset of @b can list its benchmarks; if
 * not, a one-line reason in @why (@len bytes).
 */
bool bs_shard_can_list(const struct bs_boundaries *b, char *why, size_t len);

/**
 * bs_shard_list - run @argv (the harness command, NULL-terminated) with its
 * preset's listing option added, stdout read, stderr passed through, and
 * return the names it prints as *names (n_names of them; each and the
 * array malloc'd). Returns 0, or -EINVAL with one line in @err (the
 * harness cannot be started, exits non-zero, or the preset cannot list).
 */
int bs_shard_list(const struct bs_boundaries *b, char *const argv[], char ***names, size_t *n_names,
		  char *err, size_t errlen);

/**
 * bs_shard_resolve - list the benchmarks of each of the @n commands
 * @argv[k] (boundaries @b[k]; duet's A and B: their union is the suite) and
 * pick the shard *sh (bs_shard_pick). Returns 0; -EINVAL when the preset
 * cannot list or a listing fails (the commands exit 2); -ENODATA when the
 * harness lists no benchmark at all (exit 3); -ENOMEM; one line in @err.
 */
int bs_shard_resolve(struct bs_shard *sh, const struct bs_boundaries *const b[],
		     char *const *const argv[], int n, char *err, size_t errlen);

/**
 * bs_shard_filter - the argument that selects exactly sh->names for the
 * preset of @b: gbench "--benchmark_filter=^(a|b)$", go
 * "-test.bench=^(A|B)$", criterion "^(a|b)$" (every name regex-escaped).
 * malloc'd; NULL on ENOMEM or when the shard is empty.
 */
char *bs_shard_filter(const struct bs_boundaries *b, const struct bs_shard *sh);

struct bs_measure_opts;

/**
 * bs_shard_begin - `--shard` at the start of the command @what ("run",
 * "duet"), after the boundaries @b[k] of its @n commands @argv[k] are
 * resolved and the privileges checked: list and pick the shard
 * (bs_shard_resolve), add the member "shard" to o->context_extra (an
 * object the caller owns), and
 *  - when the shard has benchmarks: set *filter to the argument that
 *    selects them (bs_shard_filter; malloc'd) and return 0;
 *  - when it has none (N larger than the suite): write o->trace_path with
 *    the CONTEXT and an END {"shard_empty": true} (bs_measure_write_empty),
 *    say so in one line and return -1 with *exit_status 0;
 *  - on an error: one line "benchscope WHAT: ..." on stderr and -1 with
 *    *exit_status 2 (the preset cannot list, the listing failed), 3 (the
 *    harness lists nothing) or 1.
 */
int bs_shard_begin(const char *what, struct bs_shard *sh, const struct bs_boundaries *const b[],
		   char *const *const argv[], int n, struct bs_measure_opts *o, char **filter,
		   int *exit_status);

/**
 * bs_shard_command - @argv (NULL-terminated) with @filter added as its last
 * word: a new array (malloc'd; the words stay borrowed), or NULL on ENOMEM.
 */
char **bs_shard_command(char *const argv[], char *filter);

/**
 * bs_shard_json - the CONTEXT member "shard": {"index": I, "count": N,
 * "listed": M, "benchmarks": [names]} (docs/json-schema.md). New object.
 */
json_object *bs_shard_json(const struct bs_shard *sh);

/** bs_shard_free - free the names of @sh (NULL-safe); the rest is kept. */
void bs_shard_free(struct bs_shard *sh);

/** bs_shard_names_free - free @n names and the array @names (NULL-safe). */
void bs_shard_names_free(char **names, size_t n);

#endif
