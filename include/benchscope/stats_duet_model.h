/* SPDX-License-Identifier: MIT */
/*
 * stats_duet_model.h - the run-level model of a duet: one observation per
 * run, the mean log ratio of B's to A's paired scores, fitted by least
 * squares with a version term and, where the sides ran on several CPUs,
 * one placement term per CPU; a Student t interval on the version term.
 *
 * Why (measured on 2-vCPU cloud VMs): the host may slow one vCPU by up to
 * 2x while the guest sees no steal. A side that stays on the slow vCPU
 * carries that slowdown into every paired difference. A crossover design
 * (the sides swap CPUs between runs or within a run, Jones & Kenward 2014
 * §2) lets the placement terms absorb the CPU speed difference, so the
 * version term no longer depends on it; with every run on one CPU the terms
 * vanish. Iterations within a run are correlated, so the unit of inference
 * is the run (Kalibera & Jones 2013 §4): the interval stays valid with
 * autocorrelated iterations and with few runs (t, not normal, quantiles).
 *
 * Model, run k = 1..n, given by the caller as y_k, the run's log score
 * ratio (e.g. ln of B's mean score over A's, over the run's paired
 * iterations), and for each CPU j the shares a_k,j and b_k,j of A's and of
 * B's iterations that ran on j (iterations whose CPU is unknown, e.g. the
 * side migrated within it, are in neither share):
 *   x_k,j = b_k,j - a_k,j
 *   y_k   = v + sum_j c_j x_k,j + e_k,  e_k iid N(0, s^2)
 * v is ln(B / A) with the CPU speed differences removed; c_j is ln(score on
 * CPU j / score on the reference CPU). Placement columns that are 0 in every
 * run are left out; of the rest, one (the lowest CPU) is the reference and
 * columns linearly dependent on the kept ones are dropped (they add nothing
 * the kept ones do not span). When the intercept lies in the span of the
 * placement columns (e.g. A always on CPU 0 and B always on CPU 1), v cannot
 * be separated from the CPU difference: BS_ECONFOUNDED.
 *
 * MDS (the A/A-equivalent minimal detectable slowdown): rescaling B to A's
 * mean shifts every y_k by one constant, so the residuals, se and the
 * interval's half width h = t * se do not change; a slowdown s of B is
 * detected when ln(1 + s) > h, so MDS = exp(h) - 1. It answers "what could
 * this setup detect?" and is never 0 unless every run agrees exactly.
 */
#ifndef BENCHSCOPE_STATS_DUET_MODEL_H
#define BENCHSCOPE_STATS_DUET_MODEL_H

#include <stddef.h>
#include <stdint.h>

/** Most CPU placement terms of one model (CPUs numbered 0..BS_DMODEL_MAX_CPU-1). */
#define BS_DMODEL_MAX_CPU   256
#define BS_DMODEL_MAX_TERMS 16

/** The share of a run's A iterations and of its B iterations on one CPU. */
struct bs_dmodel_share {
	int cpu;  /**< 0 .. BS_DMODEL_MAX_CPU - 1 */
	double a; /**< fraction of A's iterations on cpu, [0, 1] */
	double b; /**< fraction of B's iterations on cpu, [0, 1] */
};

/** One run's observation. */
struct bs_dmodel_run {
	double y;			     /**< ln(score_B / score_A) of the run, finite */
	size_t n;			     /**< pairs behind y; 0 leaves the run out */
	const struct bs_dmodel_share *share; /**< n_share CPUs (each at most once) */
	size_t n_share;
	double w2; /**< the variance of y that the run's own iterations imply (e.g.
		    *   the squared standard errors of each side's log location,
		    *   summed), >= 0; read by bs_dmodel_spread only */
};

/** Options; zero fields take the defaults shown. */
struct bs_dmodel_opts {
	double level; /**< interval confidence, 0.95 */
	int no_cpu;   /**< 1: leave the placement terms out (a plain t interval
			   on the run means: the CPU-unaware analysis) */
};

/** The fit. Log figures are natural logs of B / A; ratios are exp of them. */
struct bs_dmodel_result {
	size_t n_runs;			   /**< runs with at least one pair (model observations) */
	size_t n_pairs;			   /**< pairs over those runs */
	size_t n_terms;			   /**< placement terms in the model */
	int term_cpu[BS_DMODEL_MAX_TERMS]; /**< CPU of each term */
	double term_effect[BS_DMODEL_MAX_TERMS]; /**< c_j: ln(score on term_cpu / on ref_cpu) */
	double term_se[BS_DMODEL_MAX_TERMS];	 /**< standard error of c_j (its interval is
						  *   c_j -/+ t_crit term_se[j]); 0 unless BS_OK */
	int ref_cpu;				 /**< reference CPU of the terms, -1 when no term */
	size_t df;	 /**< residual degrees of freedom, n_runs - 1 - n_terms */
	double v;	 /**< ln(B / A), CPU differences removed */
	double se;	 /**< standard error of v */
	double t_crit;	 /**< Student t quantile (1 + level) / 2 with df */
	double lo, hi;	 /**< interval of v, v -/+ t_crit se */
	double p;	 /**< two-sided p-value of v = 0 */
	double mds;	 /**< A/A-equivalent MDS, fraction: exp(t_crit se) - 1 */
	double resid_sd; /**< residual standard deviation of the y_k */
	double level;
	int confounded_cpu; /**< BS_ECONFOUNDED: a CPU whose term the version
			       term cannot be told apart from; else -1 */
};

/**
 * bs_dmodel_fit - fit the model above to runs[0..n_runs-1].
 * Returns BS_OK; BS_EINVAL (NULL, level outside (0, 1), a CPU outside
 * [0, BS_DMODEL_MAX_CPU), a share outside [0, 1], more than
 * BS_DMODEL_MAX_TERMS independent placement terms); BS_ENONFINITE (a y);
 * BS_EEMPTY (no run with n > 0); BS_ECONFOUNDED (see above; out->confounded_cpu says which CPU);
 * BS_ETOOFEW (no residual degree of freedom: n_runs <= 1 + n_terms);
 * BS_EZEROVAR (the residuals are all 0: no spread to build an interval);
 * BS_ENOMEM. On BS_ECONFOUNDED, BS_ETOOFEW and BS_EZEROVAR, n_runs,
 * n_pairs and the terms are filled.
 */
int bs_dmodel_fit(const struct bs_dmodel_run *runs, size_t n_runs, const struct bs_dmodel_opts *o,
		  struct bs_dmodel_result *out);

/**
 * bs_dmodel_run_cpu_ratio - for a two-CPU model (n_terms == 1), the speed
 * ratio of the term's CPU to the reference CPU that run (y, x) shows once
 * the version term is removed: exp((y - v) / x), x being the run's
 * placement value of the term (bs_dmodel_run_x). NAN when |x| < 0.5 (the
 * run did not keep the sides apart long enough to tell).
 */
double bs_dmodel_run_cpu_ratio(const struct bs_dmodel_result *r, double y, double x);

/**
 * bs_dmodel_run_x - a run's placement value of CPU @cpu: b - a of its
 * share (0 when the run has none for @cpu). NAN for a NULL run.
 */
double bs_dmodel_run_x(const struct bs_dmodel_run *run, int cpu);

/**
 * Where the residual spread of a fit comes from (Kalibera & Jones 2013:
 * repeat at the level whose variance dominates). Log units (ln B/A).
 */
struct bs_dmodel_spread {
	double within_sd; /**< sqrt of the mean w2 over the fitted runs: the run-to-run
			   *   spread the iterations' own noise explains */
	double run_sd;	  /**< sqrt(max(0, resid_sd^2 - within_sd^2)): what comes with
			   *   each run beyond its iterations (the processes' memory
			   *   layout, the host's state); more iterations per run do not
			   *   shrink it, more runs do */
};

/**
 * bs_dmodel_spread - split r->resid_sd of a fit of runs[0..n_runs-1] (the
 * same array bs_dmodel_fit took; runs with n == 0 are skipped) into the
 * part the iterations explain (runs[k].w2) and the rest. Returns BS_OK;
 * BS_EINVAL (NULL, a w2 negative or not finite, no fitted run).
 */
int bs_dmodel_spread(const struct bs_dmodel_result *r, const struct bs_dmodel_run *runs,
		     size_t n_runs, struct bs_dmodel_spread *out);

/**
 * bs_dmodel_runs_for_mds - the fewest runs of the same design (the same
 * mix of placements) whose interval would give an MDS of at most @mds
 * (fraction, > 0) if their runs spread as the fitted ones did: the standard
 * error scales as sqrt(r->n_runs / n) and df = n - 1 - n_terms, at r's
 * level. Returns BS_OK with *n in [n_terms + 2, @max]; BS_ETOOFEW (*n = 0)
 * when @max runs would not reach it; BS_EINVAL (NULL, @mds <= 0, r not a
 * fit: se not finite or n_runs 0).
 */
int bs_dmodel_runs_for_mds(const struct bs_dmodel_result *r, double mds, size_t max, size_t *n);

#endif
