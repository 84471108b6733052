// SPDX-License-Identifier: MIT
/* model.c - a method's runs as the run-level model's observations, lag-1
 * autocorrelation and the CPU diagnosis (duet/model.h). */
#include "duet/model.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "benchscope/stats_boot.h"
#include "benchscope/stats_desc.h"

/* the CPU of an iteration, or -1 when it moved (or the record is absent) */
static int iter_cpu(const struct bs_iter_rec *r)
{
	return r && r->cpu_begin == r->cpu_end && r->cpu_begin < BS_DMODEL_MAX_CPU
		   ? (int)r->cpu_begin
		   : -1;
}

/* add one iteration of side s on cpu to the run's shares sh[0..*n) */
static void share_add(struct bs_dmodel_share *sh, size_t *n, int cpu, int s, double w)
{
	size_t i;

	for (i = 0; i < *n && sh[i].cpu != cpu; i++)
		;
	if (i == *n)
		sh[(*n)++] = (struct bs_dmodel_share){.cpu = cpu};
	if (s)
		sh[i].b += w;
	else
		sh[i].a += w;
}

/*
 * What the run's iterations alone imply for the variance of y: the squared
 * standard error of the trimmed mean of its pairs' log ratios. Pairs, not
 * each side apart: the sides of a pair ran at the same time (or one after
 * the other on one CPU), so what disturbed both cancels in y and must not
 * count. NAN with fewer than 2 pairs.
 */
static double pair_w2(const struct bs_dside *const sd[2], const struct bs_pair *pairs, size_t np)
{
	double *d = calloc(np + 1, sizeof(*d)), tm, se, w2 = NAN;
	size_t n = 0;

	for (size_t p = 0; d && p < np; p++)
		if (pairs[p].a < sd[0]->n && pairs[p].b < sd[1]->n &&
		    sd[0]->score[pairs[p].a] > 0 && sd[1]->score[pairs[p].b] > 0)
			d[n++] = log(sd[1]->score[pairs[p].b] / sd[0]->score[pairs[p].a]);
	if (d && !bs_trimmed_mean_se(d, n, BS_DUET_RUN_TRIM, &tm, &se) && isfinite(se))
		w2 = se * se;
	free(d);
	return w2;
}

/* run r's observation: ratio of the trimmed means of each side's paired iterations */
static void run_obs(const struct bs_drun *run, const struct bs_pair *pairs, size_t np,
		    struct bs_dmodel_run *out, struct bs_dmodel_share *sh, size_t *n_moved)
{
	const struct bs_dside *sd[2] = {&run->side[0], &run->side[1]};
	bool *used[2];
	double *score[2], loc[2];
	size_t cnt[2] = {0, 0}, nsh = 0;

	memset(out, 0, sizeof(*out));
	out->share = sh;
	used[0] = calloc(sd[0]->n + 1, 1);
	used[1] = calloc(sd[1]->n + 1, 1);
	score[0] = calloc(sd[0]->n + 1, sizeof(double));
	score[1] = calloc(sd[1]->n + 1, sizeof(double));
	if (!used[0] || !used[1] || !score[0] || !score[1])
		goto out;
	for (size_t p = 0; p < np; p++) {
		size_t idx[2] = {pairs[p].a, pairs[p].b};

		for (int s = 0; s < 2; s++)
			if (idx[s] < sd[s]->n && !used[s][idx[s]] && sd[s]->score[idx[s]] > 0) {
				used[s][idx[s]] = true;
				score[s][cnt[s]++] = sd[s]->score[idx[s]];
			}
	}
	if (!cnt[0] || !cnt[1] || bs_trimmed_mean(score[0], cnt[0], BS_DUET_RUN_TRIM, &loc[0]) ||
	    bs_trimmed_mean(score[1], cnt[1], BS_DUET_RUN_TRIM, &loc[1]))
		goto out;
	out->w2 = pair_w2(sd, pairs, np);
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < sd[s]->n; i++) {
			int cpu;

			if (!used[s][i])
				continue;
			cpu = iter_cpu(sd[s]->rec ? sd[s]->rec[i] : NULL);
			if (cpu < 0)
				(*n_moved)++;
			else
				share_add(sh, &nsh, cpu, s, 1.0 / (double)cnt[s]);
		}
	out->y = log(loc[1] / loc[0]);
	out->n = np;
	out->n_share = nsh;
out:
	free(used[0]);
	free(used[1]);
	free(score[0]);
	free(score[1]);
}

int bs_duet_model_in_build(const struct bs_dbench *b, enum bs_dmethod m,
			   struct bs_pair *const *pairs, const size_t *n_pairs,
			   struct bs_dmodel_in *out)
{
	size_t n = b->n_runs[m], total = 0, off = 0;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < n; r++)
		total += b->runs[m][r].side[0].n + b->runs[m][r].side[1].n;
	out->runs = calloc(n + 1, sizeof(*out->runs));
	out->share = calloc(total + 1, sizeof(*out->share));
	if (!out->runs || !out->share) {
		bs_duet_model_in_free(out);
		return -ENOMEM;
	}
	out->n_runs = n;
	for (size_t r = 0; r < n; r++) {
		const struct bs_drun *run = &b->runs[m][r];

		run_obs(run, pairs[r], n_pairs[r], &out->runs[r], out->share + off, &out->n_moved);
		off += run->side[0].n + run->side[1].n;
	}
	return 0;
}

void bs_duet_model_in_free(struct bs_dmodel_in *in)
{
	free(in->runs);
	free(in->share);
	memset(in, 0, sizeof(*in));
}

double bs_duet_lag1(const struct bs_dbench *b, enum bs_dmethod m, bool drop_warmup_half)
{
	size_t n = b->n_runs[m], k = 0;
	const double **x = calloc(2 * n + 1, sizeof(*x));
	size_t *len = calloc(2 * n + 1, sizeof(*len));
	double r1 = NAN;

	if (x && len) {
		for (size_t r = 0; r < n; r++)
			for (int s = 0; s < 2; s++) {
				const struct bs_dside *sd = &b->runs[m][r].side[s];
				size_t skip = drop_warmup_half ? sd->n / 2 : 0;

				x[k] = sd->score + skip;
				len[k++] = sd->n - skip;
			}
		if (bs_lag1_autocorr_pooled(x, len, k, &r1))
			r1 = NAN;
	}
	free(x);
	free(len);
	return r1;
}

/* Run @run's CPU ratio @q (slow / fast, as the term is oriented) at
 * placement value @x, against its noise at the two-sided tail @alpha (see
 * bs_duet_cpu_diag): whether it is a slowed run, and whether it departs
 * from the term @c (ln of the term's ratio, >= 0) as well: by
 * BS_DUET_CPU_SLOW_RATIO or more, beyond its noise (a run's memory layout
 * moves it by a few %, which w2 does not hold). */
static bool run_slowed(const struct bs_dmodel_run *run, const struct bs_dmodel_result *r, double q,
		       double x, double c, double alpha, bool *departs)
{
	/* ln q = (y - v) / x: the variance of y and of v, over x^2 */
	double lq = log(q), sd = sqrt(run->w2 + r->se * r->se) / fabs(x), t;
	/* the trimmed mean's degrees of freedom, h - 1 (Wilcox 2012 §4.5.1) */
	size_t g = (size_t)floor(BS_DUET_RUN_TRIM * (double)run->n), h = run->n - 2 * g;

	*departs = false;
	if (h < 2 || !isfinite(sd))
		return false;
	t = gsl_cdf_tdist_Qinv(alpha / 2, (double)(h - 1));
	*departs = fabs(lq - c) >= log(BS_DUET_CPU_SLOW_RATIO) && fabs(lq - c) > t * sd;
	return fabs(lq) >= log(BS_DUET_CPU_SLOW_RATIO) && fabs(lq) > t * sd;
}

/* run k's CPU ratio (term's CPU / reference CPU), NAN when the run has no
 * pairs or did not keep its sides apart; *x its placement value */
static double run_ratio(const struct bs_dmodel_in *in, size_t k, const struct bs_dmodel_result *r,
			double *x)
{
	if (!in->runs[k].n)
		return NAN;
	*x = bs_dmodel_run_x(&in->runs[k], r->term_cpu[0]);
	return bs_dmodel_run_cpu_ratio(r, in->runs[k].y, *x);
}

void bs_duet_cpu_diag(const struct bs_dmodel_in *in, const struct bs_dmodel_result *r,
		      struct bs_dcpudiag *out)
{
	double *ratios, alpha, c, h, x;
	bool term_slow, departs;

	memset(out, 0, sizeof(*out));
	if (r->n_terms != 1)
		return;
	ratios = calloc(in->n_runs + 1, sizeof(*ratios));
	if (!ratios)
		return;
	term_slow = r->term_effect[0] > 0;
	out->checked = true;
	out->slow_cpu = term_slow ? r->term_cpu[0] : r->ref_cpu;
	out->fast_cpu = term_slow ? r->ref_cpu : r->term_cpu[0];
	c = fabs(r->term_effect[0]);
	h = r->t_crit * r->term_se[0];
	out->ratio = exp(c);
	out->ratio_lo = exp(c - h);
	out->ratio_hi = exp(c + h);
	out->max_run_ratio = NAN;
	for (size_t k = 0; k < in->n_runs; k++) {
		out->n_apart += !isnan(run_ratio(in, k, r, &x));
		out->n_unpaired += !in->runs[k].n;
	}
	alpha = (1 - r->level) / (double)(out->n_apart ? out->n_apart : 1);
	for (size_t k = 0, i = 0; k < in->n_runs; k++) {
		double q = run_ratio(in, k, r, &x);

		if (isnan(q))
			continue;
		q = term_slow ? q : 1 / q;
		ratios[i++] = q;
		if (!run_slowed(&in->runs[k], r, q, x, c, alpha, &departs))
			continue;
		out->n_slowed++;
		if (!departs)
			continue;
		out->n_departed++;
		q = q >= 1 ? q : 1 / q;
		out->max_run_ratio = isnan(out->max_run_ratio) ? q : fmax(out->max_run_ratio, q);
	}
	if (out->n_apart && bs_quantile(ratios, out->n_apart, 0.5, &out->median_ratio))
		out->median_ratio = NAN;
	if (out->ratio >= BS_DUET_CPU_SLOW_RATIO && out->ratio_lo > 1)
		out->contention = BS_DCONT_STEADY;
	else if (out->n_departed)
		out->contention = BS_DCONT_INTERMITTENT;
	free(ratios);
}

const char *bs_dcontention_name(enum bs_dcontention c)
{
	return c == BS_DCONT_STEADY	    ? "steady"
	       : c == BS_DCONT_INTERMITTENT ? "intermittent"
					    : "none";
}
