/* SPDX-License-Identifier: MIT */
/*
 * fuzz_check.h - the post-condition of every import harness
 * (fuzz_import.c, fuzz_import_formats.c): an importer must never write a
 * trace that `benchscope report` refuses, nor one that holds other samples
 * than it said. Header-only: every harness is one translation unit.
 */
#ifndef BENCHSCOPE_FUZZ_CHECK_H
#define BENCHSCOPE_FUZZ_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/dataset.h"
#include "trace/duet_blocks.h"
#include "report/summary.h"

/** What the importer said it wrote; a field it cannot know is FUZZ_UNKNOWN. */
struct fuzz_expect {
	uint64_t iters;	 /**< iteration records (duet rows, imported samples) */
	uint64_t warmup; /**< of them flagged warmup (run traces) */
	uint64_t ns;	 /**< their summed durations, ns (run traces) */
	uint64_t invoc;	 /**< their summed invocation counts (run traces) */
};

#define FUZZ_UNKNOWN UINT64_MAX

static inline void fuzz_check_fail(const char *who, const char *what, uint64_t want, uint64_t got)
{
	fprintf(stderr, "%s: %s: reported %llu, the trace holds %llu\n", who, what,
		(unsigned long long)want, (unsigned long long)got);
	abort();
}

/*
 * fuzz_check_run - a run trace must summarise, every iteration valid, with
 * the warmup flags, summed durations and invocations @e says.
 */
static inline void fuzz_check_run(const char *who, const struct bs_dataset *ds,
				  const struct fuzz_expect *e)
{
	struct bs_run_summary s;
	uint64_t ns = 0, invoc = 0;

	if (bs_run_summarize(ds, 5, &s)) {
		fprintf(stderr, "%s wrote a run trace that does not summarise\n", who);
		abort();
	}
	if (s.n_invalid)
		fuzz_check_fail(who, "iterations ending before they begin", 0, s.n_invalid);
	if (e->warmup != FUZZ_UNKNOWN && s.n_warmup != e->warmup)
		fuzz_check_fail(who, "warm-up iterations", e->warmup, s.n_warmup);
	bs_run_summary_free(&s);
	for (size_t i = 0; i < ds->n_iters; i++) {
		ns += ds->iters[i].end_ns - ds->iters[i].begin_ns;
		invoc += ds->iters[i].invocations;
	}
	if (e->ns != FUZZ_UNKNOWN && ns != e->ns)
		fuzz_check_fail(who, "summed durations (ns)", e->ns, ns);
	if (e->invoc != FUZZ_UNKNOWN && invoc != e->invoc)
		fuzz_check_fail(who, "summed invocations", e->invoc, invoc);
}

/**
 * fuzz_check_trace - the trace @path that importer @who accepted must load,
 * hold @e->iters iterations, and decode as a duet trace
 * (trace/duet_blocks.c) or summarise as a run (report/summary.c) as
 * fuzz_check_run says. Aborts (the fuzzer's crash) with a message naming
 * @who otherwise.
 */
static inline void fuzz_check_trace(const char *who, const char *path, const struct fuzz_expect *e)
{
	struct bs_dataset *ds = NULL;
	char err[600];

	if (bs_dataset_load(path, &ds, err, sizeof(err))) {
		fprintf(stderr, "%s wrote a trace that does not load: %s\n", who, err);
		abort();
	}
	if (ds->n_iters != e->iters)
		fuzz_check_fail(who, "iterations", e->iters, ds->n_iters);
	if (bs_dataset_is_duet(ds)) {
		struct bs_duet_blocks b;

		if (bs_duet_blocks_decode(ds, &b, err, sizeof(err))) {
			fprintf(stderr, "%s wrote a duet trace that does not decode: %s\n", who,
				err);
			abort();
		}
		bs_duet_blocks_free(&b);
	} else {
		fuzz_check_run(who, ds, e);
	}
	bs_dataset_free(ds);
}

#endif
