// SPDX-License-Identifier: MIT
/*
 * desc.c - descriptive statistics, quantiles, outlier rules (.NET CF team 2007; Laaber et al. 2020
 * §5.3).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "benchscope/stats_desc.h"
#include "stats_internal.h"

const char *bs_stats_strerror(int err)
{
	switch (err) {
	case BS_OK:
		return "success";
	case BS_EEMPTY:
		return "empty input";
	case BS_ETOOFEW:
		return "too few values";
	case BS_ENONFINITE:
		return "NaN or infinite value";
	case BS_ENEGATIVE:
		return "negative value where a duration is expected";
	case BS_EZEROVAR:
		return "zero variance";
	case BS_ETIED:
		return "all values tied";
	case BS_EMISMATCH:
		return "mismatched array lengths";
	case BS_ENOMEM:
		return "out of memory";
	case BS_EINVAL:
		return "invalid argument";
	case BS_ECONFOUNDED:
		return "a model term is confounded with another";
	}
	return "unknown statistics error";
}

void bs_stats_init(void)
{
	gsl_set_error_handler_off();
}

int bs_check_finite(const double *x, size_t n)
{
	if (n == 0)
		return BS_EEMPTY;
	if (!x)
		return BS_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return BS_ENONFINITE;
	return BS_OK;
}

int bs_check_durations(const double *x, size_t n)
{
	int err = bs_check_finite(x, n);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++)
		if (x[i] < 0)
			return BS_ENEGATIVE;
	return BS_OK;
}

/* the trimmed mean, and (se != NULL) its standard error from the winsorized sample */
static int trimmed(const double *x, size_t n, double frac, double *tm, double *se)
{
	double *s;
	size_t k;
	int rc;

	if (!tm || !(frac >= 0 && frac < 0.5))
		return BS_EINVAL;
	if ((rc = bs_check_finite(x, n)))
		return rc;
	if (se && n < 2)
		return BS_ETOOFEW;
	s = malloc(n * sizeof(*s));
	if (!s)
		return BS_ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), bs_cmp_double);
	k = (size_t)(frac * (double)n);
	*tm = bs_mean(s + k, n - 2 * k);
	if (se) {
		double var;

		for (size_t i = 0; i < k; i++) {
			s[i] = s[k];
			s[n - 1 - i] = s[n - 1 - k];
		}
		rc = bs_sample_var(s, n, &var);
		*se = rc ? NAN : sqrt(var) / ((1 - 2 * frac) * sqrt((double)n));
	}
	free(s);
	return rc;
}

int bs_trimmed_mean(const double *x, size_t n, double frac, double *out)
{
	return trimmed(x, n, frac, out, NULL);
}

int bs_trimmed_mean_se(const double *x, size_t n, double frac, double *tm, double *se)
{
	return se ? trimmed(x, n, frac, tm, se) : BS_EINVAL;
}

double bs_mean(const double *x, size_t n)
{
	/* two-pass: mean then a correction term, accurate for large offsets */
	double s = 0, m, c = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	m = s / n;
	for (size_t i = 0; i < n; i++)
		c += x[i] - m;
	return m + c / n;
}

int bs_sample_var(const double *x, size_t n, double *var)
{
	int err = bs_check_finite(x, n);
	double m, ss = 0, c = 0;

	if (err)
		return err;
	if (!var)
		return BS_EINVAL;
	if (n < 2)
		return BS_ETOOFEW;
	m = bs_mean(x, n);
	for (size_t i = 0; i < n; i++) {
		double d = x[i] - m;
		ss += d * d;
		c += d;
	}
	*var = (ss - c * c / n) / (n - 1);
	if (*var < 0)
		*var = 0;
	return BS_OK;
}

int bs_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bs_quantile_sorted(const double *s, size_t n, double q)
{
	double h = (n - 1) * q, fl = floor(h);
	size_t i = (size_t)fl;

	if (i + 1 >= n)
		return s[n - 1];
	/* NumPy's _lerp: a + t (b - a), switched to b - (1-t)(b - a) for t>=.5 */
	double a = s[i], b = s[i + 1], t = h - fl, d = b - a;

	return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

double *bs_sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));

	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	bs_sort(s, n);
	return s;
}

int bs_quantile(const double *x, size_t n, double q, double *out)
{
	int err = bs_check_finite(x, n);
	double *s;

	if (err)
		return err;
	if (!out || !(q >= 0 && q <= 1))
		return BS_EINVAL;
	s = bs_sorted_copy(x, n);
	if (!s)
		return BS_ENOMEM;
	*out = bs_quantile_sorted(s, n, q);
	free(s);
	return BS_OK;
}

int bs_summarize(const double *x, size_t n, struct bs_summary *out)
{
	int err = bs_check_finite(x, n);
	double *s, lsum = 0;
	int pos = 1;

	if (err)
		return err;
	if (!out)
		return BS_EINVAL;
	s = bs_sorted_copy(x, n);
	if (!s)
		return BS_ENOMEM;
	out->n = n;
	out->mean = bs_mean(x, n);
	out->median = bs_quantile_sorted(s, n, 0.5);
	out->q1 = bs_quantile_sorted(s, n, 0.25);
	out->q3 = bs_quantile_sorted(s, n, 0.75);
	out->min = s[0];
	out->max = s[n - 1];
	if (n >= 2) {
		double v;

		bs_sample_var(x, n, &v);
		out->sd = sqrt(v);
		out->cv = out->mean != 0 ? out->sd / out->mean : NAN;
	} else {
		out->sd = out->cv = NAN;
	}
	if (n >= 3)
		out->mean_trimmed = bs_mean(s + 1, n - 2);
	else
		out->mean_trimmed = out->mean;
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0)) {
			pos = 0;
			break;
		}
		lsum += log(x[i]);
	}
	out->geomean = pos ? exp(lsum / n) : NAN;
	free(s);
	return BS_OK;
}

int bs_outlier_bounds(const double *x, size_t n, enum bs_outlier_rule rule, double param,
		      double *lo, double *hi)
{
	int err = bs_check_finite(x, n);
	double *s, med;

	if (err)
		return err;
	if (!lo || !hi || !(param >= 0) || !isfinite(param))
		return BS_EINVAL;
	if (rule != BS_OUTLIER_MAGNITUDE && rule != BS_OUTLIER_TUKEY && rule != BS_OUTLIER_MAD)
		return BS_EINVAL;
	s = bs_sorted_copy(x, n);
	if (!s)
		return BS_ENOMEM;
	med = bs_quantile_sorted(s, n, 0.5);
	switch (rule) {
	case BS_OUTLIER_MAGNITUDE:
		*lo = -INFINITY;
		*hi = (param ? param : 10.0) * med;
		break;
	case BS_OUTLIER_TUKEY: {
		double q1 = bs_quantile_sorted(s, n, 0.25);
		double q3 = bs_quantile_sorted(s, n, 0.75);
		double k = param ? param : 1.5;

		*lo = q1 - k * (q3 - q1);
		*hi = q3 + k * (q3 - q1);
		break;
	}
	case BS_OUTLIER_MAD: {
		double k = param ? param : 3.0, mad;

		for (size_t i = 0; i < n; i++)
			s[i] = fabs(x[i] - med);
		qsort(s, n, sizeof(*s), bs_cmp_double);
		mad = bs_quantile_sorted(s, n, 0.5);
		if (mad == 0) {
			*lo = -INFINITY;
			*hi = INFINITY;
		} else {
			*lo = med - k * 1.4826 * mad;
			*hi = med + k * 1.4826 * mad;
		}
		break;
	}
	}
	free(s);
	return BS_OK;
}

int bs_outliers(const double *x, size_t n, enum bs_outlier_rule rule, double param, double *kept,
		size_t *kept_idx, size_t *n_kept, double *removed, size_t *removed_idx,
		size_t *n_removed)
{
	double lo, hi;
	size_t nk = 0, nr = 0;
	int err = bs_outlier_bounds(x, n, rule, param, &lo, &hi);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		if (x[i] < lo || x[i] > hi) {
			if (removed)
				removed[nr] = x[i];
			if (removed_idx)
				removed_idx[nr] = i;
			nr++;
		} else {
			if (kept)
				kept[nk] = x[i];
			if (kept_idx)
				kept_idx[nk] = i;
			nk++;
		}
	}
	if (n_kept)
		*n_kept = nk;
	if (n_removed)
		*n_removed = nr;
	return BS_OK;
}
