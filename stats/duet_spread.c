// SPDX-License-Identifier: MIT
/* duet_spread.c - where a duet model's run-to-run spread comes from, and how
 * many runs an MDS needs (benchscope/stats_duet_model.h). */
#include <gsl/gsl_cdf.h>
#include <math.h>

#include "benchscope/stats_desc.h"
#include "benchscope/stats_duet_model.h"

int bs_dmodel_spread(const struct bs_dmodel_result *r, const struct bs_dmodel_run *runs,
		     size_t n_runs, struct bs_dmodel_spread *out)
{
	double sum = 0, within2;
	size_t n = 0;

	if (!r || !runs || !out || !isfinite(r->resid_sd))
		return BS_EINVAL;
	for (size_t k = 0; k < n_runs; k++) {
		if (!runs[k].n)
			continue;
		if (!(runs[k].w2 >= 0) || !isfinite(runs[k].w2))
			return BS_EINVAL;
		sum += runs[k].w2;
		n++;
	}
	if (!n)
		return BS_EINVAL;
	within2 = sum / (double)n;
	out->within_sd = sqrt(within2);
	out->run_sd =
	    r->resid_sd * r->resid_sd > within2 ? sqrt(r->resid_sd * r->resid_sd - within2) : 0;
	return BS_OK;
}

int bs_dmodel_runs_for_mds(const struct bs_dmodel_result *r, double mds, size_t max, size_t *n)
{
	double target, se1;

	if (!r || !n || !(mds > 0) || !r->n_runs || !isfinite(r->se) || !(r->level > 0))
		return BS_EINVAL;
	*n = 0;
	target = log1p(mds);
	se1 = r->se * sqrt((double)r->n_runs); /* the se of one run's worth */
	for (size_t k = r->n_terms + 2; k <= max; k++) {
		double t = gsl_cdf_tdist_Pinv((1 + r->level) / 2, (double)(k - 1 - r->n_terms));

		if (t * se1 / sqrt((double)k) <= target) {
			*n = k;
			return BS_OK;
		}
	}
	return BS_ETOOFEW;
}
