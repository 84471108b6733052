/* SPDX-License-Identifier: MIT */
/*
 * end.h - a trace's END block decoded once into typed fields: the harness's
 * exit status, the lost-record counters, the BPF programs' run time, the
 * warnings `run` recorded and the summary of a forked run (the block is
 * written by probe/measure.c, probe/run_once.c, stop/stop_run.c; keys in
 * docs/json-schema.md, "end").
 *
 * Every key may be missing (older traces, imports, duets, waste runs);
 * absent values are as documented below. A key present with another type
 * than the schema's is an error.
 */
#ifndef BENCHSCOPE_END_H
#define BENCHSCOPE_END_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/** One member of END "lost": a counter of records lost or rerouted. */
struct bs_end_counter {
	const char *name; /**< "iter_lost", "iter_spilled", "proc_lost", ... */
	int64_t value;	  /**< count, as written */
};

/** One element of END "bpf_stats" (BPF_STATS_RUN_TIME). */
struct bs_end_bpf_prog {
	const char *prog;   /**< program name; NULL if absent */
	int64_t run_cnt;    /**< runs; 0 if absent */
	double run_time_ns; /**< summed run time, ns; NaN if absent */
};

/** The END block. Strings belong to the dataset's JSON (valid while it lives). */
struct bs_run_end {
	int present; /**< the trace has an END block (the run finished) */
	/** "status" of a single run (forked runs have none) */
	struct {
		int present;
		int has_pid;
		int64_t pid;
		bool exited, signaled; /**< false if absent */
		int64_t exit_code;     /**< wait(2) exit status; 0 if absent */
		int64_t signal;	       /**< terminating signal; 0 if absent */
	} status;
	bool interrupted;	     /**< Ctrl-C; false if absent */
	double wall_ns;		     /**< the run's wall time, ns; NaN if absent */
	int has_lost;		     /**< the member "lost" exists */
	struct bs_end_counter *lost; /**< n_lost counters, in the order written */
	size_t n_lost;
	int has_bpf_stats;		   /**< the member "bpf_stats" exists */
	struct bs_end_bpf_prog *bpf_stats; /**< n_bpf_stats programs */
	size_t n_bpf_stats;
	int has_foreign_hits;		/**< the member "foreign_hits" exists */
	uint64_t foreign_hits;		/**< probe hits in processes not measured (other runs of
					 *   the same binary): in bpf_stats' run counts, not in
					 *   the records */
	int has_unrecorded;		/**< "interferers_unrecorded_ns" exists */
	uint64_t unrecorded_ns;		/**< interferer time charged while threads waited in
					 *   iterations that ended without a record (Go's B
					 *   with sub-benchmarks, a run that never reached
					 *   its end): left out of the interferers */
	uint64_t unrecorded_iterations; /**< the number of those iterations */
	const char **warnings;		/**< n_warnings lines `run` recorded */
	size_t n_warnings;
	/** "stop" of a forked run (`run --stop` / `--forks`) */
	struct {
		int present;
		int64_t forks;	     /**< forks run; 0 if absent */
		int has_compute_ns;  /**< checkpoint computation was recorded */
		uint64_t compute_ns; /**< summed checkpoint computation, ns */
		int has_wall_ns;     /**< the run's wall time was recorded */
		uint64_t wall_ns;    /**< first fork's release to the last fork's end, ns */
		bool harness_failed; /**< a fork exited with a status other than 0, was
				      *   killed by a signal benchscope did not send, or
				      *   could not be started; false if absent */
	} stop;
};

/**
 * bs_run_end_decode - decode the END object @end (NULL: no END block) into
 * *out; the strings stay owned by @end. Returns 0, -ENOMEM, or -EBADMSG with
 * a one-line message in @err naming the key. Free with bs_run_end_free().
 */
int bs_run_end_decode(struct json_object *end, struct bs_run_end *out, char *err, size_t errlen);

/** Free what bs_run_end_decode() allocated (NULL-safe); *e is zeroed. */
void bs_run_end_free(struct bs_run_end *e);

/**
 * bs_run_end_unrecorded_text - into @buf (@n bytes, NUL-terminated, cut to
 * fit) the sentence that names what the interferer list leaves out: the
 * time charged while threads waited in iterations without a record
 * (e->unrecorded_ns, e->unrecorded_iterations), with the reasons of the
 * boundary kind @kind (the context's boundaries.kind; "go" names Go's,
 * NULL or any other the generic ones). "" when nothing was left out or the
 * trace does not say. Returns @buf.
 */
const char *bs_run_end_unrecorded_text(const struct bs_run_end *e, const char *kind, char *buf,
				       size_t n);

/**
 * bs_run_end_lost_list - into @buf (@n bytes, NUL-terminated, cut to fit)
 * END's "lost" counters of @e as written, "iter_lost 0, iter_spilled 2,
 * ..." ("" without them); the lost lines of the run and duet reports.
 * Returns @buf.
 */
const char *bs_run_end_lost_list(const struct bs_run_end *e, char *buf, size_t n);

#endif
