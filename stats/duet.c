// SPDX-License-Identifier: MIT
/*
 * duet.c - duet benchmarking analysis: overlaps, pairing, CI test, U test,
 * MDS, runtime speedup (Drozdík 2023 §2-4).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats_desc.h"
#include "benchscope/stats_duet.h"
#include "stats_internal.h"

int bs_duet_check_side(const struct bs_iter *it, size_t n)
{
	if (!n)
		return BS_OK;
	if (!it)
		return BS_EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (it[i].end_ns < it[i].start_ns)
			return BS_ENEGATIVE;
		if (i && it[i].start_ns < it[i - 1].end_ns)
			return BS_EINVAL;
	}
	return BS_OK;
}

double bs_overlap_rate(const struct bs_iter *a, const struct bs_iter *b)
{
	int64_t s = a->start_ns > b->start_ns ? a->start_ns : b->start_ns;
	int64_t e = a->end_ns < b->end_ns ? a->end_ns : b->end_ns;
	double ov = (double)(e - s), ra, rb;

	if (e <= s)
		return 0;
	ra = ov / (double)(a->end_ns - a->start_ns);
	rb = ov / (double)(b->end_ns - b->start_ns);
	return ra < rb ? ra : rb;
}

int bs_duet_overlaps(const struct bs_iter *a, size_t na, const struct bs_iter *b, size_t nb,
		     struct bs_overlap *out, size_t *n_out)
{
	size_t i = 0, j = 0, k = 0;
	int err;

	if (!n_out || (!out && na + nb))
		return BS_EINVAL;
	if ((err = bs_duet_check_side(a, na)) || (err = bs_duet_check_side(b, nb)))
		return err;
	while (i < na && j < nb) {
		int64_t s = a[i].start_ns > b[j].start_ns ? a[i].start_ns : b[j].start_ns;
		int64_t e = a[i].end_ns < b[j].end_ns ? a[i].end_ns : b[j].end_ns;

		if (s < e) {
			out[k].a = i;
			out[k].b = j;
			out[k].start_ns = s;
			out[k].end_ns = e;
			out[k].rate = bs_overlap_rate(&a[i], &b[j]);
			k++;
		}
		/* advance whichever ends first; both when they end together
		 * (the next iteration of either side starts at or after it) */
		if (a[i].end_ns < b[j].end_ns)
			i++;
		else if (b[j].end_ns < a[i].end_ns)
			j++;
		else
			i++, j++;
	}
	*n_out = k;
	return BS_OK;
}

int bs_duet_pairs(const struct bs_duet_run *run, enum bs_duet_type type, double m,
		  struct bs_pair *out, size_t *n_out, double *overlap_ns)
{
	int err;

	if (!run || !n_out || (!out && run->na + run->nb))
		return BS_EINVAL;
	if (overlap_ns)
		*overlap_ns = 0;
	if ((err = bs_duet_check_side(run->a, run->na)) ||
	    (err = bs_duet_check_side(run->b, run->nb)))
		return err;
	if (type == BS_DUET_SEQUENTIAL || type == BS_DUET_SYNC) {
		size_t n = run->na < run->nb ? run->na : run->nb;

		for (size_t j = 0; j < n; j++)
			out[j] = (struct bs_pair){j, j};
		*n_out = n;
		return BS_OK;
	}
	if (type != BS_DUET_ASYNC || !(m >= 0 && m < 1))
		return BS_EINVAL;
	struct bs_overlap *ov = malloc((run->na + run->nb + 1) * sizeof(*ov));
	size_t no, k = 0;
	double sum = 0;

	if (!ov)
		return BS_ENOMEM;
	err = bs_duet_overlaps(run->a, run->na, run->b, run->nb, ov, &no);
	if (!err) {
		for (size_t i = 0; i < no; i++) {
			if (ov[i].rate > m) {
				out[k++] = (struct bs_pair){ov[i].a, ov[i].b};
				sum += (double)(ov[i].end_ns - ov[i].start_ns);
			}
		}
		*n_out = k;
		if (overlap_ns)
			*overlap_ns = sum;
	}
	free(ov);
	return err;
}

static double dur(const struct bs_iter *it)
{
	return (double)(it->end_ns - it->start_ns);
}

/* score of iteration i of a side: the given score, else the duration */
static double score(const struct bs_iter *it, const double *sc, size_t i)
{
	return sc ? sc[i] : dur(&it[i]);
}

int bs_duet_analyze(const struct bs_duet_run *runs, size_t n_runs, const struct bs_duet_opts *o,
		    struct bs_duet_result *out)
{
	struct bs_duet_opts d = {0};
	size_t tot_a = 0, tot_b = 0, maxp = 0, nobs = 0, npairs = 0;
	double *obs = NULL, *da = NULL, *db = NULL, sum_dur = 0, sum_ov = 0;
	double sum_x = 0, sum_sc = 0;
	struct bs_pair *pairs = NULL;
	gsl_rng *rng = NULL;
	int err;

	if (!runs || !out)
		return n_runs ? BS_EINVAL : BS_EEMPTY;
	if (!n_runs)
		return BS_EEMPTY;
	if (o)
		d = *o;
	if (!d.min_overlap)
		d.min_overlap = 0.4;
	if (!d.level)
		d.level = 0.95;
	if (!d.n_resamples)
		d.n_resamples = 9999;
	if (!d.alpha)
		d.alpha = 0.05;
	if (!(d.level > 0 && d.level < 1) || !(d.alpha > 0 && d.alpha < 1) ||
	    d.type > BS_DUET_ASYNC)
		return BS_EINVAL;
	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < n_runs; r++) {
		if ((err = bs_duet_check_side(runs[r].a, runs[r].na)) ||
		    (err = bs_duet_check_side(runs[r].b, runs[r].nb)))
			return err;
		for (size_t i = 0; runs[r].score_a && i < runs[r].na; i++)
			if (!isfinite(runs[r].score_a[i]))
				return BS_EINVAL;
		for (size_t i = 0; runs[r].score_b && i < runs[r].nb; i++)
			if (!isfinite(runs[r].score_b[i]))
				return BS_EINVAL;
		tot_a += runs[r].na;
		tot_b += runs[r].nb;
		if (runs[r].na + runs[r].nb > maxp)
			maxp = runs[r].na + runs[r].nb;
	}
	obs = malloc((tot_a + tot_b + n_runs) * sizeof(*obs));
	da = malloc((tot_a + tot_b + 1) * sizeof(*da));
	pairs = malloc((maxp + 1) * sizeof(*pairs));
	if (!obs || !da || !pairs) {
		err = BS_ENOMEM;
		goto out;
	}
	db = da + tot_a;
	tot_a = tot_b = 0;
	for (size_t r = 0; r < n_runs; r++) {
		struct bs_duet_run run = runs[r];
		size_t np;
		double ovns, sx = 0;

		if (d.drop_warmup_half) {
			size_t ha = run.na / 2, hb = run.nb / 2;

			run.a += ha;
			run.na -= ha;
			if (run.score_a)
				run.score_a += ha;
			run.b += hb;
			run.nb -= hb;
			if (run.score_b)
				run.score_b += hb;
		}
		for (size_t i = 0; i < run.na; i++) {
			sum_dur += dur(&run.a[i]);
			sum_sc += da[tot_a++] = score(run.a, run.score_a, i);
		}
		for (size_t i = 0; i < run.nb; i++) {
			sum_dur += dur(&run.b[i]);
			sum_sc += db[tot_b++] = score(run.b, run.score_b, i);
		}
		err = bs_duet_pairs(&run, d.type, d.min_overlap, pairs, &np, &ovns);
		if (err)
			goto out;
		sum_ov += 2 * ovns;
		for (size_t k = 0; k < np; k++) {
			double x = score(run.a, run.score_a, pairs[k].a) -
				   score(run.b, run.score_b, pairs[k].b);

			sx += x;
			if (d.runs_merged)
				obs[nobs++] = x;
		}
		if (np && !d.runs_merged)
			obs[nobs++] = sx / np;
		sum_x += sx;
		npairs += np;
		if (np)
			out->n_runs++;
	}
	out->n_pairs = npairs;
	out->n_obs = nobs;
	if (!tot_a || !tot_b) {
		err = BS_EEMPTY;
		goto out;
	}
	out->mean_a = bs_mean(da, tot_a);
	out->mean_b = bs_mean(db, tot_b);
	out->grand_mean = sum_sc / (tot_a + tot_b);
	out->rel_overlap_time = d.type == BS_DUET_ASYNC && sum_dur > 0 ? sum_ov / sum_dur : NAN;
	if (!npairs || nobs < 2) {
		err = BS_ETOOFEW;
		goto out;
	}
	out->mean_diff = sum_x / npairs;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng) {
		err = BS_ENOMEM;
		goto out;
	}
	gsl_rng_set(rng, (unsigned long)d.seed);
	err = bs_bootstrap_ci(obs, nobs, bs_stat_mean, NULL, BS_CI_BCA, d.level, d.n_resamples, rng,
			      NULL, &out->ci);
	if (err)
		goto out;
	out->rel_ci_width = out->grand_mean > 0 ? (out->ci.hi - out->ci.lo) / out->grand_mean : NAN;
	out->ci_differs = out->ci.lo > 0 || out->ci.hi < 0;
	err = bs_mannwhitneyu(da, tot_a, db, tot_b, BS_TWO_SIDED, &out->u);
	if (err)
		goto out;
	out->u_differs = out->u.p < d.alpha;
out:
	if (rng)
		gsl_rng_free(rng);
	free(obs);
	free(da);
	free(pairs);
	return err;
}

int bs_duet_slow_b(const struct bs_iter *in, size_t n, double s, struct bs_iter *out)
{
	int64_t shift = 0;
	int err;

	if (!(s >= 0) || !isfinite(s) || (n && (!in || !out)))
		return BS_EINVAL;
	for (size_t i = 0; i < n; i++)
		if (in[i].end_ns < in[i].start_ns)
			return BS_ENEGATIVE;
	if ((err = bs_duet_check_side(in, n)))
		return err;
	for (size_t i = 0; i < n; i++) {
		int64_t d = in[i].end_ns - in[i].start_ns;
		int64_t nd = (int64_t)llround((double)d * (1 + s));

		out[i].start_ns = in[i].start_ns + shift;
		out[i].end_ns = out[i].start_ns + nd;
		shift += nd - d;
	}
	return BS_OK;
}

int bs_duet_mds(const struct bs_duet_run *runs, size_t n_runs, const struct bs_duet_opts *o,
		double step, double max_s, struct bs_mds *out)
{
	struct bs_duet_run *slow;
	struct bs_iter *buf;
	double *sbuf;
	size_t tot = 0;
	int err = BS_OK;

	if (!runs || !out)
		return n_runs ? BS_EINVAL : BS_EEMPTY;
	if (!n_runs)
		return BS_EEMPTY;
	if (!step)
		step = 0.01;
	if (!max_s)
		max_s = 0.15;
	if (!(step > 0) || !(max_s >= 0) || !isfinite(max_s) || max_s > 10)
		return BS_EINVAL;
	for (size_t r = 0; r < n_runs; r++)
		tot += runs[r].nb;
	slow = malloc(n_runs * sizeof(*slow));
	buf = malloc((tot + 1) * sizeof(*buf));
	sbuf = malloc((tot + 1) * sizeof(*sbuf));
	if (!slow || !buf || !sbuf) {
		err = BS_ENOMEM;
		goto out;
	}
	out->mds_ci = out->mds_u = NAN;
	out->differs_at_0 = 0;
	size_t nsteps = (size_t)floor(max_s / step + 1e-9);

	for (size_t k = 0; k <= nsteps; k++) {
		double s = k * step;
		struct bs_duet_result res;
		size_t off = 0;

		for (size_t r = 0; r < n_runs; r++) {
			slow[r] = runs[r];
			slow[r].b = buf + off;
			err = bs_duet_slow_b(runs[r].b, runs[r].nb, s, buf + off);
			if (err)
				goto out;
			if (runs[r].score_b) {
				for (size_t i = 0; i < runs[r].nb; i++)
					sbuf[off + i] = runs[r].score_b[i] * (1 + s);
				slow[r].score_b = sbuf + off;
			}
			off += runs[r].nb;
		}
		err = bs_duet_analyze(slow, n_runs, o, &res);
		if (err)
			goto out;
		if (k == 0)
			out->differs_at_0 = res.ci_differs | res.u_differs << 1;
		/* a slowdown of B is detected: X = A - B below 0, B ranks
		 * higher than A */
		if (isnan(out->mds_ci) && res.ci.hi < 0)
			out->mds_ci = s;
		if (isnan(out->mds_u) && res.u_differs && res.u.u1 < res.u.u2)
			out->mds_u = s;
		if (!isnan(out->mds_ci) && !isnan(out->mds_u))
			break;
	}
out:
	free(slow);
	free(buf);
	free(sbuf);
	return err;
}

int bs_runtime_speedup(const struct bs_duet_run *seq, size_t n_seq, const struct bs_duet_run *duet,
		       size_t n_duet, double *speedup)
{
	double ts = 0, td = 0;

	if (!seq || !duet || !speedup)
		return BS_EINVAL;
	if (!n_seq || !n_duet)
		return BS_EEMPTY;
	for (size_t r = 0; r < n_seq; r++) {
		const struct bs_duet_run *x = &seq[r];

		if (!x->na || !x->nb)
			return BS_EEMPTY;
		ts += (double)(x->a[x->na - 1].end_ns - x->a[0].start_ns) +
		      (double)(x->b[x->nb - 1].end_ns - x->b[0].start_ns);
	}
	for (size_t r = 0; r < n_duet; r++) {
		const struct bs_duet_run *x = &duet[r];
		int64_t s, e;

		if (!x->na || !x->nb)
			return BS_EEMPTY;
		s = x->a[0].start_ns < x->b[0].start_ns ? x->a[0].start_ns : x->b[0].start_ns;
		e = x->a[x->na - 1].end_ns > x->b[x->nb - 1].end_ns ? x->a[x->na - 1].end_ns
								    : x->b[x->nb - 1].end_ns;
		td += (double)(e - s);
	}
	if (!(td > 0))
		return BS_EINVAL;
	*speedup = (ts / n_seq) / (td / n_duet);
	return BS_OK;
}
