// SPDX-License-Identifier: MIT
/* unexplained.c - runs with a side difference the guest did not see (see duet_unexplained.h).
 */
#include "duet/unexplained.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats_desc.h"
#include "duet/noise.h"

/* mean score and lost share of one side of a run; false when unusable */
static bool side_figures(const struct bs_dside *s, double *mean, double *share)
{
	double sum = 0, busy = 0, lost = 0;

	if (!s->n)
		return false;
	for (size_t i = 0; i < s->n; i++) {
		sum += s->score[i];
		busy += (double)(s->iv[i].end_ns - s->iv[i].start_ns);
		lost += (double)bs_duet_iter_lost_ns(s->rec[i]);
	}
	*mean = sum / (double)s->n;
	*share = busy > 0 ? lost / busy : 0;
	return *mean > 0 && isfinite(*mean);
}

int bs_duet_unexplained(const struct bs_dbench *b, enum bs_dmethod m, struct bs_dunexpl *out)
{
	size_t n = b->n_runs[m], k, used = 0;
	double *u, *diff, *expl;
	size_t *idx;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (n < BS_DUET_UNEXPL_MIN_RUNS)
		return 0;
	u = calloc(n, sizeof(*u));
	diff = calloc(n, sizeof(*diff));
	expl = calloc(n, sizeof(*expl));
	idx = calloc(n, sizeof(*idx));
	if (!u || !diff || !expl || !idx) {
		ret = -ENOMEM;
		goto out;
	}
	for (k = 0; k < n; k++) {
		const struct bs_drun *r = &b->runs[m][k];
		double ma, mb, sa, sb;

		if (!side_figures(&r->side[0], &ma, &sa) || !side_figures(&r->side[1], &mb, &sb))
			continue;
		diff[used] = (mb / ma - 1) * 100;
		expl[used] = (sb - sa) * 100;
		u[used] = diff[used] - expl[used];
		idx[used++] = k;
	}
	if (used < BS_DUET_UNEXPL_MIN_RUNS)
		goto out;
	if (bs_outlier_bounds(u, used, BS_OUTLIER_MAD, 0, &out->lo_pct, &out->hi_pct) ||
	    bs_quantile(u, used, 0.5, &out->median_pct))
		goto out; /* non-finite values: nothing to say */
	out->lo_pct = fmin(out->lo_pct, out->median_pct - BS_DUET_UNEXPL_MIN_PCT);
	out->hi_pct = fmax(out->hi_pct, out->median_pct + BS_DUET_UNEXPL_MIN_PCT);
	out->n_checked = used;
	out->runs = calloc(used, sizeof(*out->runs));
	if (!out->runs) {
		ret = -ENOMEM;
		goto out;
	}
	for (k = 0; k < used; k++) {
		const struct bs_drun *r = &b->runs[m][idx[k]];

		if (u[k] >= out->lo_pct && u[k] <= out->hi_pct)
			continue;
		out->runs[out->n_runs++] = (struct bs_dunexpl_run){.run = r->run,
								   .index = r->index,
								   .diff_pct = diff[k],
								   .explained_pct = expl[k],
								   .unexplained_pct = u[k]};
	}
out:
	free(u);
	free(diff);
	free(expl);
	free(idx);
	if (ret)
		memset(out, 0, sizeof(*out));
	return ret;
}
