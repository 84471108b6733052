/* SPDX-License-Identifier: MIT */
/*
 * stats_desc.h - error codes, library initialisation, descriptive statistics
 * and outlier rules of benchscope's statistics core.
 *
 * Every function of stats/ is pure: it reads arrays, writes results through
 * pointers, keeps no state between calls and uses no globals, so it may be
 * called from several threads at once. Errors are returned as negative
 * enum bs_stats_err values; on error the outputs are left unspecified.
 *
 * Source: .NET CF team 2007; Laaber et al. 2020 §5.3.
 */
#ifndef BENCHSCOPE_STATS_DESC_H
#define BENCHSCOPE_STATS_DESC_H

#include <stddef.h>

/** Error codes returned (negated enum values) by every stats function. */
enum bs_stats_err {
	BS_OK = 0,
	BS_EEMPTY = -1,	      /* an input array has no element */
	BS_ETOOFEW = -2,      /* fewer elements than the method needs (e.g. n < 2) */
	BS_ENONFINITE = -3,   /* an input value is NaN or +-Inf */
	BS_ENEGATIVE = -4,    /* a duration / count that must be >= 0 is negative */
	BS_EZEROVAR = -5,     /* all values equal where variance is needed */
	BS_ETIED = -6,	      /* all values tied where ranks must differ */
	BS_EMISMATCH = -7,    /* arrays that must have equal lengths do not */
	BS_ENOMEM = -8,	      /* allocation failed */
	BS_EINVAL = -9,	      /* a parameter is out of range (level, q, NULL...) */
	BS_ECONFOUNDED = -10, /* a model term cannot be told apart from another */
};

/** A static English description of an error code (never NULL). */
const char *bs_stats_strerror(int err);

/**
 * bs_stats_init - turn GSL's aborting error handler off.
 *
 * Call once per program (main, tests, bench) before any other stats call.
 * The library checks its inputs so that GSL should never report an error,
 * but the default handler would abort the process if it did.
 */
void bs_stats_init(void);

/** Descriptive summary of one sample (.NET CF team 2007; Laaber et al. 2020 §5.3). */
struct bs_summary {
	size_t n;
	double mean;
	double median;
	double sd;  /* sample standard deviation (ddof = 1); NAN when n < 2 */
	double cv;  /* sd / mean; NAN when n < 2 or mean == 0 */
	double min; /* "raw speed" */
	double max;
	double q1;	     /* 25 % quantile, NumPy linear definition */
	double q3;	     /* 75 % quantile */
	double mean_trimmed; /* mean without the fastest and the slowest value
				("gymnastics"); = mean when n < 3 */
	double geomean;	     /* geometric mean; NAN if any value <= 0 */
};

/**
 * bs_summarize - descriptive statistics of x[0..n-1] (any unit; the results
 * have the unit of x, cv is dimensionless). x need not be sorted and is not
 * modified.
 *
 * Returns BS_OK, BS_EINVAL (NULL pointer), BS_EEMPTY (n == 0),
 * BS_ENONFINITE (a NaN or infinite value), BS_ENOMEM.
 */
int bs_summarize(const double *x, size_t n, struct bs_summary *out);

/**
 * bs_quantile - the q-quantile (0 <= q <= 1) of x[0..n-1] with NumPy's
 * default definition (method "linear", Hyndman & Fan 1996 definition 7):
 * h = (n - 1) q, result = x(floor h) + (h - floor h)(x(floor h + 1) - x(floor h))
 * on the sorted values. x need not be sorted and is not modified.
 *
 * Returns BS_OK, BS_EINVAL (NULL, q outside [0, 1] or NaN), BS_EEMPTY,
 * BS_ENONFINITE, BS_ENOMEM.
 */
int bs_quantile(const double *x, size_t n, double q, double *out);

/** bs_quantile_sorted - as bs_quantile on already sorted (ascending) data;
 * no check, no allocation. n >= 1, 0 <= q <= 1. */
double bs_quantile_sorted(const double *sorted, size_t n, double q);

/** bs_mean - arithmetic mean of x[0..n-1], in the unit of x (e.g. ns);
 * two passes (the sum, then a correction for its rounding). n >= 1 and x
 * finite, not checked (n == 0 gives NaN). */
double bs_mean(const double *x, size_t n);

/**
 * bs_trimmed_mean - the mean of x[0..n-1] without its floor(@frac n)
 * smallest and floor(@frac n) largest values (Tukey & McLaughlin 1963;
 * Wilcox 2012 §3.1: the 20 % trimmed mean, @frac 0.2, keeps about 95 % of
 * the mean's efficiency for normal data and resists up to 20 % outliers on
 * either side); as scipy.stats.trim_mean. 0 <= @frac < 0.5 (0: the mean).
 * Returns BS_OK; BS_EINVAL (NULL, @frac out of range), BS_EEMPTY,
 * BS_ENONFINITE, BS_ENOMEM.
 */
int bs_trimmed_mean(const double *x, size_t n, double frac, double *out);

/**
 * bs_trimmed_mean_se - the trimmed mean of bs_trimmed_mean and its standard
 * error s_w / ((1 - 2 @frac) sqrt(n)), s_w the standard deviation (ddof 1)
 * of x winsorized at the same floor(@frac n) values on each side
 * (Tukey & McLaughlin 1963; Wilcox 2012 §3.6); as
 * scipy.stats.mstats.trimmed_stde. Returns BS_OK; BS_ETOOFEW (n < 2) and
 * the errors of bs_trimmed_mean.
 */
int bs_trimmed_mean_se(const double *x, size_t n, double frac, double *tm, double *se);

/** bs_check_finite - BS_EINVAL if x is NULL with n > 0, BS_EEMPTY if
 * n == 0, BS_ENONFINITE if a value is NaN/Inf, else BS_OK. */
int bs_check_finite(const double *x, size_t n);

/**
 * bs_sample_var - sample variance (ddof = 1) of x[0..n-1] with a corrected
 * two-pass algorithm, in the square of x's unit (ns^2 for ns); never
 * negative. Returns BS_OK, BS_EINVAL (NULL), BS_EEMPTY, BS_ETOOFEW (n < 2),
 * BS_ENONFINITE.
 */
int bs_sample_var(const double *x, size_t n, double *var);

/** Outlier rules (.NET CF team 2007; Laaber et al. 2020 §5.3): which values a rule removes. */
enum bs_outlier_rule {
	BS_OUTLIER_MAGNITUDE = 1, /* x > factor * median (factor 10); .NET CF team 2007 */
	BS_OUTLIER_TUKEY = 2,	  /* x < Q1 - k IQR or x > Q3 + k IQR (k 1.5) */
	BS_OUTLIER_MAD = 3,	  /* |x - median| > k * 1.4826 * MAD (k 3) */
};

/**
 * bs_outliers - split x[0..n-1] into kept and removed values.
 * @param: factor for MAGNITUDE (0 -> 10), k for TUKEY (0 -> 1.5) and MAD
 *         (0 -> 3; MAD is scaled by 1.4826 to estimate sd for normal data).
 * @kept, @removed: caller arrays of n doubles each (either may be NULL);
 *         values keep their original order.
 * @kept_idx, @removed_idx: optional (may be NULL) arrays of n indices.
 * @n_kept, @n_removed: counts written (either may be NULL).
 *
 * With MAD == 0 (more than half the values equal) the MAD rule has no
 * scale and removes nothing (n_removed == 0).
 * Returns BS_OK, BS_EINVAL (NULL x, unknown rule, negative param),
 * BS_EEMPTY, BS_ENONFINITE, BS_ENOMEM.
 */
int bs_outliers(const double *x, size_t n, enum bs_outlier_rule rule, double param, double *kept,
		size_t *kept_idx, size_t *n_kept, double *removed, size_t *removed_idx,
		size_t *n_removed);

/** The thresholds bs_outliers applies: values outside [lo, hi] are removed
 * (lo = -INFINITY for MAGNITUDE). Same errors as bs_outliers. */
int bs_outlier_bounds(const double *x, size_t n, enum bs_outlier_rule rule, double param,
		      double *lo, double *hi);

#endif
