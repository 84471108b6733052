// SPDX-License-Identifier: MIT
/*
 * compare.c - the summary and the MDS of an A/B comparison of two
 * independent recordings (see stats_compare.h).
 */
#include <math.h>
#include <stdlib.h>

#include "benchscope/stats_compare.h"
#include "benchscope/stats_desc.h"
#include "benchscope/stats_mwu.h"
#include "stats_internal.h"

int bs_geomean_ci_from_replicates(const double *rep, size_t k, size_t nrep, const double *points,
				  double level, struct bs_ci *out)
{
	double *g, lp = 0;
	int err;

	if (!rep || !points || !out || !(level > 0 && level < 1) || nrep < 2)
		return BS_EINVAL;
	if (!k)
		return BS_EEMPTY;
	for (size_t i = 0; i < k; i++) {
		if (!(points[i] > 0) || !isfinite(points[i]))
			return BS_ENONFINITE;
		lp += log(points[i]);
	}
	g = calloc(nrep, sizeof(*g));
	if (!g)
		return BS_ENOMEM;
	for (size_t i = 0; i < k; i++)
		for (size_t r = 0; r < nrep; r++) {
			double v = rep[i * nrep + r];

			if (!(v > 0) || !isfinite(v)) {
				free(g);
				return BS_ENONFINITE;
			}
			g[r] += log(v);
		}
	for (size_t r = 0; r < nrep; r++)
		g[r] = exp(g[r] / (double)k);
	err = bs_percentile_from_replicates(g, nrep, exp(lp / (double)k), level, out);
	free(g);
	return err;
}

/* p of the U test with the two samples completely apart (no ties) */
static int min_p(size_t na, size_t nb, double *p)
{
	double *x = malloc((na + nb) * sizeof(*x));
	struct bs_mwu u;
	int err;

	if (!x)
		return BS_ENOMEM;
	for (size_t i = 0; i < na + nb; i++)
		x[i] = (double)i;
	err = bs_mannwhitneyu(x, na, x + na, nb, BS_TWO_SIDED, &u);
	free(x);
	if (!err)
		*p = u.p;
	return err;
}

double bs_ci_mds(const struct bs_ci *ratio, double step, double max_s)
{
	size_t n_steps;

	if (!ratio || !(ratio->point > 0) || !(ratio->lo > 0) || !isfinite(ratio->point) ||
	    !isfinite(ratio->lo) || !(step >= 0) || !(max_s >= 0))
		return NAN;
	step = step ? step : 0.001;
	max_s = max_s ? max_s : 1.0;
	n_steps = (size_t)floor(max_s / step + 1e-9);
	for (size_t k = 1; k <= n_steps; k++) {
		double s = (double)k * step;

		if ((1 + s) * ratio->lo / ratio->point > 1)
			return s;
	}
	return NAN;
}

int bs_shift_mds(const double *a, size_t na, const double *b, size_t nb, const struct bs_ci *ratio,
		 double alpha, double step, double max_s, struct bs_shift_mds *out)
{
	double *y;
	size_t n_steps;
	int err;

	if (!a || !b || !ratio || !out || !(ratio->point > 0) || !(ratio->lo > 0) ||
	    !isfinite(ratio->point) || !(step >= 0) || !(max_s >= 0))
		return BS_EINVAL;
	alpha = alpha ? alpha : 0.05;
	step = step ? step : 0.001;
	max_s = max_s ? max_s : 1.0;
	if (!(alpha > 0 && alpha < 1))
		return BS_EINVAL;
	if (!na || !nb)
		return BS_EEMPTY;
	err = bs_check_finite(a, na);
	if (!err)
		err = bs_check_finite(b, nb);
	if (err)
		return err;
	out->mds = out->mds_u = NAN;
	out->mds_ci = bs_ci_mds(ratio, step, max_s);
	err = min_p(na, nb, &out->p_min);
	if (err)
		return err;
	y = malloc(nb * sizeof(*y));
	if (!y)
		return BS_ENOMEM;
	n_steps = (size_t)floor(max_s / step + 1e-9);
	for (size_t k = 1; k <= n_steps; k++) {
		double s = (double)k * step;
		int ci = !isnan(out->mds_ci) && s >= out->mds_ci;
		struct bs_mwu u;

		if (out->p_min < alpha && (isnan(out->mds_u) || (ci && isnan(out->mds)))) {
			for (size_t i = 0; i < nb; i++)
				y[i] = b[i] / ratio->point * (1 + s);
			err = bs_mannwhitneyu(a, na, y, nb, BS_TWO_SIDED, &u);
			if (err == BS_ETIED) {
				err = BS_OK;
				continue;
			}
			if (err)
				break;
			if (u.p < alpha && isnan(out->mds_u))
				out->mds_u = s;
			if (u.p < alpha && ci && isnan(out->mds))
				out->mds = s;
		}
		if (!isnan(out->mds))
			break;
		if (out->p_min >= alpha && !isnan(out->mds_ci))
			break; /* the U test can never detect: nothing more to find */
	}
	free(y);
	return err;
}
