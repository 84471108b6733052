/* SPDX-License-Identifier: MIT */
/*
 * analysis.h - the statistics of a duet model (duet/data.h), per
 * benchmark and per method, through stats/: pairing (Drozdík 2023 §3),
 * the verdict from the run-level model (one mean log score ratio per run,
 * CPU placement terms, t interval; stats_duet_model.h), its A/A-equivalent
 * MDS, the lag-1 autocorrelation, the diagnosis of one vCPU slower than
 * another (duet/model.h), runtime speedup of each duet method versus the
 * sequential runs (Drozdík 2023 §5.2.1), and, for comparison, Drozdík
 * 2023 §4.3's CI test on run means (BCa) and U test on all iterations.
 * The U test treats correlated iterations as independent: it is reported,
 * never used for a verdict.
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
#include "duet/model.h"
#include "util/steps.h"

/**
 * Drozdík 2023 §4.3's run-means sampling (one mean paired difference per
 * run) needs this many runs with pairs; with fewer, that comparison CI uses
 * every pair as one observation (runs merged) and says so. The verdict
 * never does: it comes from the run-level model.
 */
#define BS_DUET_RUN_MEANS_MIN 5

enum bs_dsampling { BS_DS_AUTO = 0, BS_DS_RUN_MEANS = 1, BS_DS_MERGED = 2 };

/** Bootstrap resamples of the duet analysis when none are given. */
#define BS_DUET_RESAMPLES_DEFAULT 9999
/** The range of `duet --resamples` and `report --resamples`. */
#define BS_DUET_RESAMPLES_MIN 100
#define BS_DUET_RESAMPLES_MAX 1000000

struct bs_danalysis_opts {
	double min_overlap; /**< async pairing threshold m; 0: 0.4 */
	size_t n_resamples; /**< bootstrap resamples; 0: 9999 */
	uint64_t seed;	    /**< bootstrap seed */
	bool no_mds;	    /**< print no MDS (the model's costs nothing; kept for the CLI) */
	enum bs_dsampling sampling; /**< of the comparison CI: AUTO: run means with
				     *   >= BS_DUET_RUN_MEANS_MIN runs */
	bool drop_warmup_half;	    /**< drop the first half of each run's iterations */
	bool no_cpu;		    /**< leave the CPU placement terms out of the model */
	double level;		    /**< confidence of the model's interval, (0, 1); 0: 0.95 */
	/** bs_duet_analysis_run tells it of each benchmark as its analysis
	 *  starts, and of the end (util/steps.h); NULL: none. Not kept */
	const struct bs_steps *steps;
};

/**
 * bs_danalysis_opts_fill - the defaults of the zero fields of @o: min_overlap
 * from @d's CONTEXT (duet.min_overlap when in (0, 1); @d may be NULL), else
 * 0.4; n_resamples 9999; level 0.95. Returns 0, or -EINVAL when min_overlap
 * or level ends up outside (0, 1).
 */
int bs_danalysis_opts_fill(struct bs_danalysis_opts *o, const struct bs_duet_data *d);

/** The most runs bs_dmres.runs_for looks at. */
#define BS_DUET_RUNS_FOR_MAX 10000

/**
 * bs_duet_headline_method - the method whose verdict is a benchmark's
 * headline, of those with present[m] set (indexed by enum bs_dmethod):
 * interleaved, else async, else sync, else seq. It is also the method
 * `duet --stop-ci` decides on. Returns the method, or -1 when none is set.
 */
int bs_duet_headline_method(const bool present[BS_DM_N]);

/** Result of one method of one benchmark. */
struct bs_dmres {
	bool present;		   /**< the benchmark has runs of this method */
	size_t n_runs;		   /**< ok runs of the method */
	bool runs_merged;	   /**< comparison CI: every pair an observation */
	int err;		   /**< BS_OK, or bs_duet_analyze's error (see bs_stats_strerror) */
	struct bs_duet_result res; /**< Drozdík 2023 §4.3's CI and U test, means, overlap
				    *   time; valid when err == BS_OK (means also for ETOOFEW) */
	int model_err;		   /**< BS_OK or bs_dmodel_fit's error (BS_ECONFOUNDED...) */
	struct bs_dmodel_result model; /**< the verdict's statistics (when model_err == BS_OK;
					*   counts and terms also on its errors) */
	size_t n_moved;		/**< pairs with a side that changed CPU within its iteration */
	double lag1;		/**< pooled lag-1 autocorrelation of the scores, NAN unknown */
	struct bs_dcpudiag cpu; /**< one vCPU slower than the other (two-CPU models) */
	bool has_spread;	/**< spread and runs_for are known (a fitted model whose
				 *   runs all had two iterations or more per side) */
	struct bs_dmodel_spread spread; /**< the residual spread, split (log units) */
	size_t runs_for[2];		/**< runs of this design for an MDS of 1 % and of 2 %
					 *   (bs_dmodel_runs_for_mds, at most BS_DUET_RUNS_FOR_MAX;
					 *   0: more) */
	bool has_mds;			/**< the model's A/A-equivalent MDS is known */
	bool has_verdict;
	struct bs_verdict v; /**< pct, lo_pct, hi_pct: B relative to A, %, from the model */
	char verdict[200];   /**< "B is X % slower, 95 % CI [lo, hi] %" / "no difference ..." */
	double speedup;	     /**< runtime speedup vs seq (ratio); NAN for seq or without seq */
	/** per run r (n_runs): the pairs used, indexes into the run's sides */
	struct bs_pair **pairs;
	size_t *n_pairs;
};

/** One benchmark. */
struct bs_dbres {
	const struct bs_dbench *bench;
	struct bs_dmres m[BS_DM_N]; /**< indexed by enum bs_dmethod */
	int primary; /**< method of the headline verdict (bs_duet_headline_method); -1 none */
};

struct bs_duet_analysis {
	const struct bs_duet_data *data;
	struct bs_danalysis_opts opts; /**< with defaults filled */
	struct bs_dbres *b;
	size_t n;
	size_t n_verdicts;
	double worst_slowdown_lo_pct; /**< max lo_pct over verdicts; NAN if none */
	bool any_difference;
	/** the benchmark whose headline verdict (its primary method's) has the
	 *  largest lo_pct: what `duet --fail-on-regression` compares; NULL when
	 *  no benchmark has a headline verdict */
	const struct bs_dbres *worst_headline;
};

/**
 * bs_duet_analysis_run - analyse every benchmark and method of @d: pairs
 * (seq, sync, interleaved: j with j; async: overlap_rate > m), the
 * run-level model (bs_dmodel_fit, CPU placement terms unless no_cpu) and
 * its verdict and MDS, bs_duet_analyze on the per-iteration scores for
 * comparison, the lag-1 autocorrelation, the CPU diagnosis, and
 * bs_runtime_speedup of every duet method versus seq. A method whose model
 * cannot be fitted (too few runs, confounded placement, all equal) keeps
 * model_err and no verdict. o->steps hears of every benchmark (N of
 * d->n_benches, its name) and, before it returns, of the end. Returns 0 or
 * -ENOMEM / -EINVAL (bad options).
 */
int bs_duet_analysis_run(const struct bs_duet_data *d, const struct bs_danalysis_opts *o,
			 struct bs_duet_analysis **out);

/** Free a and everything it holds; NULL is a no-op. */
void bs_duet_analysis_free(struct bs_duet_analysis *a);

/**
 * bs_duet_method_model - the verdict's statistics of method @m of benchmark
 * @b over its first @n_runs ok runs (all of them when n_runs >= b->n_runs[m]),
 * exactly as bs_duet_analysis_run computes them: the pairs (min_overlap,
 * drop_warmup_half of @o, filled by bs_danalysis_opts_fill), the run-level
 * model (level, no_cpu), its verdict and the CPU diagnosis; not Drozdík
 * 2023's bootstrap CI and U test (r->err stays 0, r->res zero). *r is
 * zeroed first; model_err says whether the model could be fitted. Returns
 * 0, -EINVAL (m out of range) or -ENOMEM. Free with bs_dmres_free.
 */
int bs_duet_method_model(const struct bs_dbench *b, enum bs_dmethod m, size_t n_runs,
			 const struct bs_danalysis_opts *o, struct bs_dmres *r);

/** bs_dmres_free - free the pairs of @r (not @r itself); idempotent. */
void bs_dmres_free(struct bs_dmres *r);

/**
 * bs_duet_verdict_text - the verdict sentence of @v into buf:
 * "B is 10.2 % slower, 95 % CI [8.1, 12.3] %", "B is 3.0 % faster, ...", or
 * "no difference detected (MDS here: 1.8 %; 95 % CI [-1.0, 2.1] %)"
 * ("MDS not computed" when has_mds is false).
 */
void bs_duet_verdict_text(const struct bs_verdict *v, bool has_mds, char *buf, size_t len);

/**
 * bs_duet_verdict_from_model - the verdict of a fitted model: pct =
 * (exp(v) - 1) 100, the interval likewise, mds_pct = mds 100, mds_max_pct
 * NAN; slower when the interval lies above 0, faster below, else no
 * difference. Returns BS_OK or BS_EINVAL (NULL, not finite).
 */
int bs_duet_verdict_from_model(const struct bs_dmodel_result *r, struct bs_verdict *v);

/** Short reason of a method that has no verdict ("too few runs or pairs"...). */
const char *bs_duet_err_text(int err);

/**
 * bs_duet_model_err_text - why a method's model gave no verdict, in one
 * sentence into buf (e.g. the confounded placement and what to do).
 */
void bs_duet_model_err_text(const struct bs_dmres *r, char *buf, size_t len);

#endif
