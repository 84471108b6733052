/* SPDX-License-Identifier: MIT */
/*
 * analysis.h - the statistics of a duet model (duet_data.h), per
 * benchmark and per method, through stats/: pairing, CI test and relative CI
 * width, U test, MDS curve, runtime speedup of each duet method versus the
 * sequential runs, and the verdict line. Source: Drozdík 2023 §3-5
 * .
 */
#ifndef BENCHSCOPE_DUET_ANALYSIS_H
#define BENCHSCOPE_DUET_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/stats_duet.h"
#include "benchscope/stats_desc.h"
#include "benchscope/stats_verdict.h"
#include "duet/data.h"
#include "duet/unexplained.h"

/**
 * Run-means sampling (one mean paired difference per run, the thesis'
 * choice, Drozdík 2023 §4.3) needs this many runs with pairs; with fewer, the
 * analysis uses every pair as one observation (runs merged) and says so.
 */
#define BS_DUET_RUN_MEANS_MIN 5
/** MDS search: s = 0, 1, ..., 15 % (Drozdík 2023 §4.4). */
#define BS_DUET_MDS_STEP 0.01
#define BS_DUET_MDS_MAX	 0.15

enum bs_dsampling { BS_DS_AUTO = 0, BS_DS_RUN_MEANS = 1, BS_DS_MERGED = 2 };

struct bs_danalysis_opts {
	double min_overlap;	    /**< async pairing threshold m; 0: 0.4 */
	size_t n_resamples;	    /**< bootstrap resamples; 0: 9999 */
	uint64_t seed;		    /**< bootstrap seed */
	bool no_mds;		    /**< skip the MDS search */
	enum bs_dsampling sampling; /**< AUTO: run means with >= BS_DUET_RUN_MEANS_MIN runs */
	bool drop_warmup_half;	    /**< drop the first half of each run's iterations */
};

/** Result of one method of one benchmark. */
struct bs_dmres {
	bool present;		   /**< the benchmark has runs of this method */
	size_t n_runs;		   /**< ok runs of the method */
	bool runs_merged;	   /**< sampling used: every pair an observation */
	int err;		   /**< BS_OK, or bs_duet_analyze's error (see bs_stats_strerror) */
	struct bs_duet_result res; /**< valid when err == BS_OK (means also for ETOOFEW) */
	bool has_mds;
	struct bs_mds mds; /**< fractions (0.03 = 3 %), NAN: not detected up to 15 % */
	bool has_verdict;
	struct bs_verdict v; /**< pct, lo_pct, hi_pct: B relative to A's mean score, % */
	char verdict[200];   /**< "B is X % slower, 95 % CI [lo, hi] %" / "no difference ..." */
	double speedup;	     /**< runtime speedup vs seq (ratio); NAN for seq or without seq */
	struct bs_dunexpl unexpl; /**< sync, async: runs with a side difference the guest
				     did not see (duet_unexplained.h); seq: not checked */
	/** per run r (n_runs): the pairs used, indexes into the run's sides */
	struct bs_pair **pairs;
	size_t *n_pairs;
};

/** One benchmark. */
struct bs_dbres {
	const struct bs_dbench *bench;
	struct bs_dmres m[BS_DM_N]; /**< indexed by enum bs_dmethod */
	int primary; /**< method of the headline verdict: async, else sync, else seq; -1 none */
};

struct bs_duet_analysis {
	const struct bs_duet_data *data;
	struct bs_danalysis_opts opts; /**< with defaults filled */
	struct bs_dbres *b;
	size_t n;
	size_t n_verdicts;
	double worst_slowdown_lo_pct; /**< max lo_pct over verdicts; NAN if none */
	bool any_difference;
};

/**
 * bs_duet_analysis_run - analyse every benchmark and method of @d: pairs
 * (seq, sync: j with j; async: overlap_rate > m), bs_duet_analyze on the
 * per-iteration scores, bs_duet_mds (0..15 % in 1 % steps) unless no_mds,
 * bs_runtime_speedup of sync and async versus seq, and the verdict.
 * A method whose tests cannot run (too few runs or pairs, all equal) keeps
 * err and no verdict. Returns 0 or -ENOMEM / -EINVAL (bad options).
 */
int bs_duet_analysis_run(const struct bs_duet_data *d, const struct bs_danalysis_opts *o,
			 struct bs_duet_analysis **out);

void bs_duet_analysis_free(struct bs_duet_analysis *a);

/**
 * bs_duet_verdict_text - the verdict sentence of @v into buf:
 * "B is 10.2 % slower, 95 % CI [8.1, 12.3] %", "B is 3.0 % faster, ...", or
 * "no difference detected (MDS here: 3 %; 95 % CI [-1.0, 2.1] %)"
 * (MDS "> 15 %" when not detected, "not computed" when skipped).
 */
void bs_duet_verdict_text(const struct bs_verdict *v, bool has_mds, char *buf, size_t len);

/** Short reason of a method that has no verdict ("too few runs or pairs"...). */
const char *bs_duet_err_text(int err);

#endif
