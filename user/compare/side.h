/* SPDX-License-Identifier: MIT */
/*
 * side.h - one side of `benchscope compare`: a single or forked run trace
 * (`benchscope run`, `run --stop`, `import`) turned into samples per
 * benchmark, the way the run report counts them: warmup, after-stop and
 * invalid iterations and the harness's calibration runs left out
 * (summary.h, bench_groups.h).
 *
 * A run is a process (a fork of `run --forks`, or the one process of a
 * plain run); its iterations are the harness's measurement runs (a Google
 * Benchmark repetition, a Go -count round, ...). A value is an iteration's
 * time per invocation (ns) when every iteration of the benchmark carries an
 * invocation count, else its duration (ns).
 */
#ifndef BENCHSCOPE_COMPARE_SIDE_H
#define BENCHSCOPE_COMPARE_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/dataset.h"

/** One run (process) of one benchmark. */
struct bs_cmp_run {
	uint32_t pid;
	uint32_t inst;	  /**< which of the processes that held pid (bs_dataset_iter_instance) */
	size_t n;	  /**< its iterations (values) */
	double mean;	  /**< mean of its values, ns */
	uint64_t busy_ns; /**< summed iteration durations, ns */
	uint64_t preempted_ns, steal_ns, migrations;
};

/** One benchmark of one side. */
struct bs_cmp_bench {
	char *name;		 /**< the harness's name, or "#K" (K from 1) where it names none */
	bool per_op;		 /**< x holds time per invocation (else durations) */
	double *x;		 /**< n values, ns, run-major in order of the runs */
	size_t n;		 /**< values (measurement iterations) */
	struct bs_cmp_run *runs; /**< in order of first iteration */
	size_t *n_iters;	 /**< n_runs entries: runs[i].n (the shape bs_hier wants) */
	size_t n_runs;
};

struct bs_cmp_side {
	struct bs_cmp_bench *b; /**< in order of first measurement run */
	size_t n;
	bool has_intf;	   /**< the iterations carry interference figures: recorded by
			    *   `benchscope run` (CONTEXT has a kernel, no "imported_from") */
	bool has_steal;	   /**< and steal time among them: has_intf and the kernel had steal
			    *   accounting (CONTEXT steal_accounting not false) */
	size_t n_iters;	   /**< iterations in the trace */
	size_t n_excluded; /**< of them: warmup, after stop, invalid or calibration */
};

/**
 * bs_cmp_side_load - the samples of the run trace @ds (named @label in
 * messages, e.g. its path) into *out (zeroed first).
 * Returns 0; -EINVAL with one line in @err: a duet trace (compared by its
 * own report), a truncated trace (the writer did not finish), no
 * measurement iteration; -ENOMEM. Free with bs_cmp_side_free().
 */
int bs_cmp_side_load(const struct bs_dataset *ds, const char *label, struct bs_cmp_side *out,
		     char *err, size_t errlen);

/** Free what bs_cmp_side_load() allocated (NULL-safe); @s itself is not freed. */
void bs_cmp_side_free(struct bs_cmp_side *s);

#endif
