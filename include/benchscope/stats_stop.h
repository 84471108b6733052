/* SPDX-License-Identifier: MIT */
/*
 * stats_stop.h - stoppage criteria of dynamic reconfiguration (Laaber et al. 2020
 * §4.2, Algorithm 1): CV, RCIW and KLD stability criteria,
 * the warmup window vector and the fork vector, stable_var / stable_prob,
 * and an incremental checkpoint object.
 *
 * Measurements are iterations, each holding one or more invocation values
 * (ns per invocation, or one iteration duration). Iterations are numbered
 * from 1 as in the paper.
 *
 * Warmup vector after iteration i'' (s_W = window): the window starts at
 * i' = i'' - s_W (so it holds s_W + 1 iterations) and the vector holds, for
 * each x in i'+1 .. i'', the criterion on iterations i' .. x (KLD: the
 * probability between iterations i'..x-1 and i'..x). It exists from
 * i'' = s_W + 1 on. Hence a series whose first k iterations are unsettled
 * and whose later iterations are settled is declared stable at
 * i'' = k + s_W + 1 at the earliest: the first window without iteration k.
 *
 * Fork vector after fork f'': for each x in 1..f'' the criterion on forks
 * 1..x (KLD: x in 2..f'', probability between forks 1..x-1 and 1..x).
 */
#ifndef BENCHSCOPE_STATS_STOP_H
#define BENCHSCOPE_STATS_STOP_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "benchscope/stats_boot.h"

enum bs_criterion {
	BS_CRIT_CV = 1,	  /* coefficient of variation sd/mean, stable_var */
	BS_CRIT_RCIW = 2, /* hierarchical bootstrap RCIW of the mean, stable_var */
	BS_CRIT_KLD = 3,  /* KLD similarity probability, stable_prob */
};

#define BS_STOP_WINDOW	       5 /* s_W */
#define BS_STOP_T_CV	       0.01
#define BS_STOP_T_RCIW	       0.03
#define BS_STOP_T_KLD	       0.99
#define BS_STOP_RCIW_LEVEL     0.99
#define BS_STOP_RCIW_RESAMPLES 1000

/** Configuration; zero fields take the paper's defaults. */
struct bs_stop_cfg {
	enum bs_criterion crit;
	double threshold;      /* 0.01 CV, 0.03 RCIW, 0.99 KLD */
	size_t window;	       /* s_W = 5 */
	double rciw_level;     /* 0.99 */
	size_t rciw_resamples; /* 1000 */
	size_t kld_grid;       /* 1000 */
	int kld_keep_outliers; /* 0: drop values outside the Tukey fences
				  (1.5 IQR) of each sample before KLD
				  (Laaber et al. 2020 §5.3) */
	uint64_t seed;	       /* RCIW resampling seed (incremental object) */
};

/** bs_stable_var - *stable = max(v) - min(v) <= t (Laaber et al. 2020 §4.2.3),
 * and never stable with one value (n = 1: its range of 0 says nothing).
 * Returns BS_OK, BS_EINVAL, BS_EEMPTY, BS_ENONFINITE. */
int bs_stable_var(const double *v, size_t n, double t, int *stable);

/** bs_stable_prob - *stable = mean(v) > t. Same errors as bs_stable_var. */
int bs_stable_prob(const double *v, size_t n, double t, int *stable);

/**
 * bs_stop_criterion - sc(M) of one set of measurements: CV (ddof = 1) of
 * all values, or the hierarchical-bootstrap RCIW of the mean (rng required).
 * m: forks x iterations x invocations (values >= 0, e.g. ns). Constant
 * data give 0 for both (no variability). Not defined for KLD (BS_EINVAL).
 * Returns BS_OK, BS_EINVAL (NULL, malformed m, mean 0, RCIW without rng),
 * BS_EEMPTY, BS_ETOOFEW (one value: no CV, no CI), BS_ENONFINITE, BS_ENOMEM.
 * Source: Laaber et al. 2020 §4.2.3.
 */
int bs_stop_criterion(const struct bs_stop_cfg *cfg, const struct bs_hier *m, gsl_rng *rng,
		      double *value);

/**
 * bs_stop_kld - KLD similarity (bs_kld_prob) of d1[0..n1-1] vs
 * d2[0..n2-1] (durations >= 0) after the configured outlier removal
 * (Tukey fences of each sample; Laaber et al. 2020 §5.3). Errors of bs_kld_prob.
 */
int bs_stop_kld(const struct bs_stop_cfg *cfg, const double *d1, size_t n1, const double *d2,
		size_t n2, double *p);

/**
 * bs_warmup_vector - the warmup vector after iteration upto (1-based) of
 * one fork's iterations (it->n_forks must be 1; it may hold more than upto
 * iterations, later ones are ignored). v receives window values.
 * rng: needed for RCIW only. Returns BS_OK, BS_ETOOFEW (upto <=
 * window), BS_EINVAL, errors of the criterion.
 */
int bs_warmup_vector(const struct bs_stop_cfg *cfg, const struct bs_hier *it, size_t upto,
		     gsl_rng *rng, double *v);

/**
 * bs_fork_vector - the fork vector over all forks of m; v must hold
 * m->n_forks values; *nv receives n_forks (CV, RCIW) or n_forks - 1 (KLD).
 * Returns BS_OK, BS_EINVAL, BS_ETOOFEW (KLD with one fork), errors of the
 * criterion.
 */
int bs_fork_vector(const struct bs_stop_cfg *cfg, const struct bs_hier *m, gsl_rng *rng, double *v,
		   size_t *nv);

/**
 * bs_stop_stable - whether a warmup or fork vector v[0..n-1] (n values, the
 * criterion's unit: CV and RCIW ratios, KLD probabilities) is stable by
 * the criterion of cfg: bs_stable_var with the CV or RCIW threshold,
 * bs_stable_prob with the KLD threshold (cfg->threshold, 0: the paper's
 * default) (Laaber et al. 2020 §4.2.3).
 * Returns BS_OK, BS_EINVAL (NULL cfg or stable, unknown criterion, a
 * non-finite threshold, rciw_level outside (0, 1), kld_grid 1), BS_EEMPTY
 * (n == 0), BS_ENONFINITE.
 */
int bs_stop_stable(const struct bs_stop_cfg *cfg, const double *v, size_t n, int *stable);

/*
 * Incremental checkpoints (Algorithm 1 lines 7 and 10). The object keeps
 * the last s_W + 1 warmup iterations of the current fork and the
 * measurement iterations of every fork. Work per checkpoint: CV warmup
 * O(window values), CV fork O(new fork) (running moments; earlier vector
 * elements are kept); RCIW and KLD fork checkpoints compute only the new
 * vector element. Not thread-safe per object; distinct objects are
 * independent.
 */
struct bs_stopper;

/**
 * bs_stopper_new - an incremental stopper for cfg. The configuration is
 * resolved and copied (cfg may be freed after the call); zero fields take
 * the defaults of struct bs_stop_cfg (BS_STOP_* and BS_KLD_GRID), and
 * cfg->seed seeds the object's own mt19937 generator (RCIW resampling).
 * Returns the object, or NULL with *err (err may be NULL) set to BS_EINVAL
 * (NULL cfg, unknown criterion, non-finite threshold, rciw_level outside
 * (0, 1), kld_grid 1) or BS_ENOMEM; *err = BS_OK on success.
 */
struct bs_stopper *bs_stopper_new(const struct bs_stop_cfg *cfg, int *err);
/** bs_stopper_free - free st and everything it holds; NULL is a no-op. */
void bs_stopper_free(struct bs_stopper *st);

/**
 * bs_stopper_warmup_add - append one warmup iteration (inv[0..n-1],
 * n >= 1) of the current fork and evaluate the warmup checkpoint.
 * *stable = 1 when the window is full and stable; vec (optional, window
 * values) receives the warmup vector when it exists, *nvec its length (0
 * before the window is full). The caller applies wi_min / wi_max.
 * Returns BS_OK, BS_EINVAL, BS_EEMPTY, BS_ENONFINITE, BS_ENEGATIVE,
 * BS_ENOMEM.
 */
int bs_stopper_warmup_add(struct bs_stopper *st, const double *inv, size_t n, int *stable,
			  double *vec, size_t *nvec);

/** bs_stopper_next_fork - forget the warmup window (a new fork starts). */
void bs_stopper_next_fork(struct bs_stopper *st);

/**
 * bs_stopper_fork_add - append the measurement iterations of one finished
 * fork (x: values, n_iters iterations, n_invs per iteration or NULL for one
 * value each) and evaluate the fork checkpoint: *stable from the fork
 * vector (KLD needs two forks). vec (optional, room for the number of
 * forks so far) receives the vector, *nvec its length. CV and RCIW: the
 * vector is never stable while it holds one value (bs_stable_var).
 * Same errors as bs_stopper_warmup_add, plus BS_ETOOFEW (CV, RCIW: the forks
 * so far hold one value; the fork is kept, no vector element added).
 */
int bs_stopper_fork_add(struct bs_stopper *st, const double *x, size_t n_iters,
			const size_t *n_invs, int *stable, double *vec, size_t *nvec);

#endif
