/* SPDX-License-Identifier: MIT */
/*
 * criterion_probes.h - `--preset criterion`: resolve a criterion.rs
 * benchmark's probe sites into the boundaries, describe them for the trace,
 * and attach them (every instantiation of Bencher<M>::iter, iter_custom,
 * iter_batched and iter_batched_ref as an iteration, entry to return;
 * Routine::warm_up to mark warm-up iterations; Reports::benchmark_start and
 * ::profile to name the benchmark). See binary/criterion.h for what is
 * found where, and bpf/criterion.bpf.h for what the probes read.
 */
#ifndef BENCHSCOPE_CRITERION_PROBES_H
#define BENCHSCOPE_CRITERION_PROBES_H

#include <json-c/json.h>
#include <stddef.h>

struct bs_boundaries;
struct bs_probes;

/**
 * bs_criterion_boundaries - fill b (mode BS_BOUND_CRITERION) for the
 * criterion benchmark EXE (absolute path): b->crit from
 * bs_criterion_resolve; b->begin / b->end the first iteration site's entry
 * and return. What degrades (no benchmark ids) is printed to stderr as one
 * warning line. Returns 0 or -errno with a one-line reason in err (see
 * bs_criterion_resolve).
 */
int bs_criterion_boundaries(struct bs_boundaries *b, const char *exe, char *err, size_t errlen);

/**
 * bs_criterion_boundaries_json - add to the boundaries object o (the trace
 * context's "boundaries") the criterion keys: "invocations" (where they are
 * read), "sites" (one object per probed function: "site" (the index stored
 * in bs_iter_rec.probe of the iterations it delimits), "kind", "function",
 * "offset" (file offset, bytes)), and "note" when something degrades.
 */
void bs_criterion_boundaries_json(const struct bs_boundaries *b, json_object *o);

/**
 * bs_criterion_attach - attach every site of b->crit to the loaded BPF
 * object of p, each with its BPF cookie (benchscope/criterion.h). Returns 0
 * or -errno with a one-line reason in err.
 */
int bs_criterion_attach(struct bs_probes *p, const struct bs_boundaries *b, char *err,
			size_t errlen);

#endif
