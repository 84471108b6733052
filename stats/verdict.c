// SPDX-License-Identifier: MIT
/*
 * verdict.c - the A/B verdict sentence (Drozdík 2023 §4.3-4.4).
 */
#include <math.h>
#include <stdio.h>

#include "benchscope/stats_desc.h"
#include "benchscope/stats_verdict.h"

int bs_verdict_make(double mean_a, const struct bs_ci *ci, double mds, double mds_max,
		    struct bs_verdict *v)
{
	double lv;

	if (!ci || !v || !(mean_a > 0) || !isfinite(mean_a) || !isfinite(ci->lo) ||
	    !isfinite(ci->hi) || !isfinite(ci->point) || ci->lo > ci->hi)
		return BS_EINVAL;
	lv = ci->level * 100;
	v->level = ci->level;
	v->pct = -ci->point / mean_a * 100;
	v->lo_pct = -ci->hi / mean_a * 100;
	v->hi_pct = -ci->lo / mean_a * 100;
	v->mds_pct = isfinite(mds) ? mds * 100 : NAN;
	v->mds_max_pct = isfinite(mds_max) ? mds_max * 100 : NAN;
	if (ci->hi < 0) {
		v->kind = BS_VERDICT_SLOWER;
		snprintf(v->text, sizeof(v->text),
			 "B is %.1f %% slower than A, %g %% CI [%.1f, %.1f] %%", v->pct, lv,
			 v->lo_pct, v->hi_pct);
	} else if (ci->lo > 0) {
		v->kind = BS_VERDICT_FASTER;
		snprintf(v->text, sizeof(v->text),
			 "B is %.1f %% faster than A, %g %% CI [%.1f, %.1f] %%", -v->pct, lv,
			 -v->hi_pct, -v->lo_pct);
	} else {
		v->kind = BS_VERDICT_NO_DIFFERENCE;
		if (!isnan(v->mds_pct))
			snprintf(v->text, sizeof(v->text),
				 "no difference detected (%g %% CI [%.1f, %.1f] %%); "
				 "this setup detects >= %.0f %%",
				 lv, v->lo_pct, v->hi_pct, v->mds_pct);
		else if (!isnan(v->mds_max_pct))
			snprintf(v->text, sizeof(v->text),
				 "no difference detected (%g %% CI [%.1f, %.1f] %%); "
				 "this setup cannot detect slowdowns up to %.0f %%",
				 lv, v->lo_pct, v->hi_pct, v->mds_max_pct);
		else
			snprintf(v->text, sizeof(v->text),
				 "no difference detected (%g %% CI [%.1f, %.1f] %%)", lv, v->lo_pct,
				 v->hi_pct);
	}
	return BS_OK;
}

int bs_verdict_from_duet(const struct bs_duet_result *r, const struct bs_mds *m, double mds_max,
			 struct bs_verdict *out)
{
	if (!r)
		return BS_EINVAL;
	return bs_verdict_make(r->mean_a, &r->ci, m ? m->mds_ci : NAN, m ? mds_max : NAN, out);
}
