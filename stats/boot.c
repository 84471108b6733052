// SPDX-License-Identifier: MIT
/*
 * boot.c - bootstrap confidence intervals: percentile, BCa, hierarchical,
 * ratio of means, moving block (Kalibera & Jones 2013; Laaber et al. 2020 §4.2.3, §5.4).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "benchscope/stats_boot.h"
#include "benchscope/stats_desc.h"
#include "stats_internal.h"

double bs_stat_mean(double *x, size_t n, void *ctx)
{
	return bs_mean(x, n);
}

double bs_stat_median(double *x, size_t n, void *ctx)
{
	size_t h = (n - 1) / 2;
	double a = bs_select(x, n, h);

	if (n % 2)
		return a;
	/* the upper middle value is the minimum of the upper part */
	double b = x[h + 1];

	for (size_t i = h + 2; i < n; i++)
		if (x[i] < b)
			b = x[i];
	return a + (b - a) * 0.5;
}

double bs_stat_geomean(double *x, size_t n, void *ctx)
{
	double s = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		s += log(x[i]);
	}
	return exp(s / n);
}

static int check_level(double level)
{
	return level > 0 && level < 1 ? BS_OK : BS_EINVAL;
}

int bs_percentile_from_replicates(const double *rep, size_t nrep, double point, double level,
				  struct bs_ci *out)
{
	int err = bs_check_finite(rep, nrep);
	double *s;

	if (err)
		return err;
	if (!out || check_level(level))
		return BS_EINVAL;
	s = malloc(nrep * sizeof(*s));
	if (!s)
		return BS_ENOMEM;
	memcpy(s, rep, nrep * sizeof(*s));
	bs_sort(s, nrep);
	out->point = point;
	out->level = level;
	out->n_resamples = nrep;
	out->z0 = out->accel = 0;
	out->lo = bs_quantile_sorted(s, nrep, (1 - level) / 2);
	out->hi = bs_quantile_sorted(s, nrep, (1 + level) / 2);
	free(s);
	return BS_OK;
}

int bs_bca_from_replicates(const double *x, size_t n, bs_statistic_fn stat, void *ctx,
			   const double *rep, size_t nrep, double level, struct bs_ci *out)
{
	int err = bs_check_finite(x, n);
	double *jack, *s, theta, dot = 0, num = 0, den = 0;
	size_t below = 0, atmost = 0;

	if (err)
		return err;
	if (!stat || !out || !rep || check_level(level) || nrep < 2)
		return BS_EINVAL;
	if (n < 2)
		return BS_ETOOFEW;
	err = bs_check_finite(rep, nrep);
	if (err)
		return err;
	s = malloc((nrep + 2 * n) * sizeof(*s));
	if (!s)
		return BS_ENOMEM;
	jack = s + nrep;
	memcpy(jack, x, n * sizeof(*x));
	theta = stat(jack, n, ctx);
	if (!isfinite(theta)) {
		free(s);
		return BS_ENONFINITE;
	}
	/* jackknife: leave-one-out statistics */
	double *buf = jack + n;

	if (stat == bs_stat_mean) {
		double sum = 0;

		for (size_t i = 0; i < n; i++)
			sum += x[i];
		for (size_t i = 0; i < n; i++)
			jack[i] = (sum - x[i]) / (n - 1);
	} else {
		for (size_t i = 0; i < n; i++) {
			memcpy(buf, x, i * sizeof(*x));
			memcpy(buf + i, x + i + 1, (n - 1 - i) * sizeof(*x));
			jack[i] = stat(buf, n - 1, ctx);
			if (!isfinite(jack[i])) {
				free(s);
				return BS_ENONFINITE;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		dot += jack[i];
	dot /= n;
	for (size_t i = 0; i < n; i++) {
		double d = dot - jack[i];

		num += d * d * d;
		den += d * d;
	}
	if (den == 0) {
		free(s);
		return BS_EZEROVAR;
	}
	double a = num / (6 * pow(den, 1.5));

	for (size_t i = 0; i < nrep; i++) {
		below += rep[i] < theta;
		atmost += rep[i] <= theta;
	}
	if (below + atmost == 0 || below + atmost == 2 * nrep) {
		free(s);
		return BS_ETOOFEW;
	}
	double z0 = gsl_cdf_ugaussian_Pinv((double)(below + atmost) / (2.0 * nrep));
	double za = gsl_cdf_ugaussian_Pinv((1 - level) / 2), z1a = -za;
	double n1 = z0 + za, n2 = z0 + z1a;
	double a1 = gsl_cdf_ugaussian_P(z0 + n1 / (1 - a * n1));
	double a2 = gsl_cdf_ugaussian_P(z0 + n2 / (1 - a * n2));

	if (!isfinite(a1) || !isfinite(a2)) {
		free(s);
		return BS_ENONFINITE;
	}
	memcpy(s, rep, nrep * sizeof(*s));
	bs_sort(s, nrep);
	/* NumPy percentile takes q in percent: mirror SciPy's alpha*100/100 */
	out->point = theta;
	out->lo = bs_quantile_sorted(s, nrep, a1 * 100 / 100);
	out->hi = bs_quantile_sorted(s, nrep, a2 * 100 / 100);
	out->level = level;
	out->n_resamples = nrep;
	out->z0 = z0;
	out->accel = a;
	free(s);
	return BS_OK;
}

/* bootstrap distribution of stat over x into rep[0..nrep-1] */
static int replicates(const double *x, size_t n, bs_statistic_fn stat, void *ctx, size_t nrep,
		      struct bs_xrng *g, double *rep)
{
	if (stat == bs_stat_mean && n < UINT32_MAX) {
		for (size_t r = 0; r < nrep; r++)
			rep[r] = bs_resample_sum(g, x, (uint32_t)n, n) / n;
		return BS_OK;
	}
	double *buf = malloc(n * sizeof(*buf));

	if (!buf)
		return BS_ENOMEM;
	for (size_t r = 0; r < nrep; r++) {
		size_t i = 0;

		if (n <= BS_BELOW4_MAX) {
			uint32_t t = -(uint32_t)(n * n) % (uint32_t)(n * n);
			uint32_t k[4];

			for (; i + 4 <= n; i += 4) {
				bs_xrng_below4(g, (uint32_t)n, t, k);
				buf[i] = x[k[0]];
				buf[i + 1] = x[k[1]];
				buf[i + 2] = x[k[2]];
				buf[i + 3] = x[k[3]];
			}
		}
		for (; i < n; i++)
			buf[i] = x[bs_xrng_below(g, n)];
		rep[r] = stat(buf, n, ctx);
		if (!isfinite(rep[r])) {
			free(buf);
			return BS_ENONFINITE;
		}
	}
	free(buf);
	return BS_OK;
}

int bs_bootstrap_ci(const double *x, size_t n, bs_statistic_fn stat, void *ctx,
		    enum bs_ci_method method, double level, size_t n_resamples, gsl_rng *rng,
		    double *replicates_out, struct bs_ci *out)
{
	int err = bs_check_finite(x, n);
	struct bs_xrng g;
	double *rep;

	if (err)
		return err;
	if (!stat || !rng || !out || check_level(level) || n_resamples < 2 ||
	    (method != BS_CI_PERCENTILE && method != BS_CI_BCA))
		return BS_EINVAL;
	if (n < 2)
		return BS_ETOOFEW;
	rep = replicates_out ? replicates_out : malloc(n_resamples * sizeof(*rep));
	if (!rep)
		return BS_ENOMEM;
	bs_xrng_seed(&g, rng);
	err = replicates(x, n, stat, ctx, n_resamples, &g, rep);
	if (!err) {
		if (method == BS_CI_BCA) {
			err = bs_bca_from_replicates(x, n, stat, ctx, rep, n_resamples, level, out);
		} else {
			double *c = malloc(n * sizeof(*c));

			if (!c) {
				err = BS_ENOMEM;
			} else {
				memcpy(c, x, n * sizeof(*c));
				double p = stat(c, n, ctx);

				free(c);
				err = isfinite(p) ? bs_percentile_from_replicates(rep, n_resamples,
										  p, level, out)
						  : BS_ENONFINITE;
			}
		}
	}
	if (!replicates_out)
		free(rep);
	return err;
}

/* ---- hierarchical ------------------------------------------------------ */

size_t bs_hier_count(const struct bs_hier *h)
{
	size_t it = 0, tot = 0;

	if (!h || !h->n_iters)
		return 0;
	for (size_t f = 0; f < h->n_forks; f++) {
		if (!h->n_iters[f])
			return 0;
		for (size_t j = 0; j < h->n_iters[f]; j++, it++) {
			size_t k = h->n_invs ? h->n_invs[it] : 1;

			if (!k)
				return 0;
			tot += k;
		}
	}
	return tot;
}

/* Offsets computed once per call: iteration start in x, first iteration of
 * each fork, iteration lengths. */
struct hier_idx {
	size_t n_forks, n_iter, n_val;
	size_t *fork_first; /* [n_forks + 1] */
	size_t *iter_off;   /* [n_iter + 1] */
	const double *x;
	double mean;
};

static int hier_index(const struct bs_hier *h, struct hier_idx *ix)
{
	size_t it = 0, nit = 0, nv;
	int err;

	if (!h || !h->x || !h->n_iters)
		return BS_EINVAL;
	if (!h->n_forks)
		return BS_EEMPTY;
	nv = bs_hier_count(h);
	if (!nv)
		return BS_EINVAL;
	err = bs_check_finite(h->x, nv);
	if (err)
		return err;
	for (size_t f = 0; f < h->n_forks; f++)
		nit += h->n_iters[f];
	ix->fork_first = malloc((h->n_forks + 1 + nit + 1) * sizeof(size_t));
	if (!ix->fork_first)
		return BS_ENOMEM;
	ix->iter_off = ix->fork_first + h->n_forks + 1;
	ix->n_forks = h->n_forks;
	ix->n_iter = nit;
	ix->n_val = nv;
	ix->x = h->x;
	ix->iter_off[0] = 0;
	for (size_t f = 0; f < h->n_forks; f++) {
		ix->fork_first[f] = it;
		for (size_t j = 0; j < h->n_iters[f]; j++, it++)
			ix->iter_off[it + 1] = ix->iter_off[it] + (h->n_invs ? h->n_invs[it] : 1);
	}
	ix->fork_first[h->n_forks] = it;
	ix->mean = bs_mean(h->x, nv);
	return BS_OK;
}

static double hier_replicate(const struct hier_idx *ix, struct bs_xrng *g)
{
	double sum = 0;
	size_t cnt = 0;

	for (size_t f = 0; f < ix->n_forks; f++) {
		size_t cf = ix->n_forks == 1 ? 0 : bs_xrng_below(g, ix->n_forks);
		size_t first = ix->fork_first[cf];
		size_t ni = ix->fork_first[cf + 1] - first;

		for (size_t j = 0; j < ni; j++) {
			size_t ci = first + bs_xrng_below(g, ni);
			size_t off = ix->iter_off[ci];
			size_t nk = ix->iter_off[ci + 1] - off;
			const double *v = ix->x + off;

			if (nk == 1)
				sum += v[0];
			else if (nk < UINT32_MAX)
				sum += bs_resample_sum(g, v, (uint32_t)nk, nk);
			else
				for (size_t k = 0; k < nk; k++)
					sum += v[bs_xrng_below(g, nk)];
			cnt += nk;
		}
	}
	return sum / cnt;
}

int bs_hier_ci_mean(const struct bs_hier *h, double level, size_t n_resamples, gsl_rng *rng,
		    struct bs_ci *out)
{
	struct hier_idx ix;
	struct bs_xrng g;
	double *rep;
	int err;

	if (!rng || !out || check_level(level) || n_resamples < 2)
		return BS_EINVAL;
	err = hier_index(h, &ix);
	if (err)
		return err;
	rep = malloc(n_resamples * sizeof(*rep));
	if (!rep) {
		free(ix.fork_first);
		return BS_ENOMEM;
	}
	bs_xrng_seed(&g, rng);
	for (size_t r = 0; r < n_resamples; r++)
		rep[r] = hier_replicate(&ix, &g);
	err = bs_percentile_from_replicates(rep, n_resamples, ix.mean, level, out);
	free(rep);
	free(ix.fork_first);
	return err;
}

int bs_hier_rciw(const struct bs_hier *h, double level, size_t n_resamples, gsl_rng *rng,
		 double *rciw, struct bs_ci *ci)
{
	struct bs_ci c;
	int err;

	if (!rciw)
		return BS_EINVAL;
	err = bs_hier_ci_mean(h, level, n_resamples, rng, &c);
	if (err)
		return err;
	if (c.point == 0)
		return BS_EINVAL;
	*rciw = (c.hi - c.lo) / fabs(c.point);
	if (ci)
		*ci = c;
	return BS_OK;
}

int bs_hier_ratio_ci(const struct bs_hier *a, const struct bs_hier *b, double level,
		     size_t n_resamples, gsl_rng *rng, struct bs_ci *out)
{
	return bs_hier_ratio_ci_rep(a, b, level, n_resamples, rng, NULL, out);
}

int bs_hier_ratio_ci_rep(const struct bs_hier *a, const struct bs_hier *b, double level,
			 size_t n_resamples, gsl_rng *rng, double *replicates_out,
			 struct bs_ci *out)
{
	struct hier_idx ia, ib;
	struct bs_xrng g;
	double *rep;
	int err;

	if (!rng || !out || check_level(level) || n_resamples < 2)
		return BS_EINVAL;
	err = hier_index(a, &ia);
	if (err)
		return err;
	err = hier_index(b, &ib);
	if (err) {
		free(ia.fork_first);
		return err;
	}
	rep = replicates_out ? replicates_out : malloc(n_resamples * sizeof(*rep));
	if (!rep) {
		err = BS_ENOMEM;
		goto out;
	}
	if (ia.mean == 0) {
		err = BS_EINVAL;
		goto out;
	}
	bs_xrng_seed(&g, rng);
	for (size_t r = 0; r < n_resamples; r++) {
		double ma = hier_replicate(&ia, &g);
		double mb = hier_replicate(&ib, &g);

		rep[r] = mb / ma;
	}
	err = bs_check_finite(rep, n_resamples);
	if (!err)
		err =
		    bs_percentile_from_replicates(rep, n_resamples, ib.mean / ia.mean, level, out);
out:
	if (rep != replicates_out)
		free(rep);
	free(ia.fork_first);
	free(ib.fork_first);
	return err;
}

/* ---- autocorrelated series ---------------------------------------------- */

int bs_lag1_autocorr_pooled(const double *const *x, const size_t *n, size_t k, double *r1)
{
	double num = 0, den = 0;
	size_t used = 0;

	if ((!x || !n) && k)
		return BS_EINVAL;
	if (!r1)
		return BS_EINVAL;
	for (size_t s = 0; s < k; s++) {
		int err;
		double m;

		if (n[s] < 2)
			continue;
		err = bs_check_finite(x[s], n[s]);
		if (err)
			return err;
		m = bs_mean(x[s], n[s]);
		for (size_t t = 0; t < n[s]; t++) {
			double d = x[s][t] - m;

			den += d * d;
			if (t + 1 < n[s])
				num += d * (x[s][t + 1] - m);
		}
		used++;
	}
	if (!used)
		return BS_ETOOFEW;
	if (den == 0)
		return BS_EZEROVAR;
	*r1 = num / den;
	return BS_OK;
}

int bs_lag1_autocorr(const double *x, size_t n, double *r1)
{
	int err = bs_check_finite(x, n);

	if (err)
		return err;
	if (!r1)
		return BS_EINVAL;
	if (n < 3)
		return BS_ETOOFEW;
	return bs_lag1_autocorr_pooled(&x, &n, 1, r1);
}

int bs_block_bootstrap_ci(const double *x, size_t n, size_t block_len, bs_statistic_fn stat,
			  void *ctx, double level, size_t n_resamples, gsl_rng *rng, double *r1,
			  struct bs_ci *out)
{
	int err = bs_check_finite(x, n);
	struct bs_xrng g;
	double *rep, *buf, point;

	if (err)
		return err;
	if (!stat || !rng || !out || check_level(level) || n_resamples < 2)
		return BS_EINVAL;
	if (n < 2)
		return BS_ETOOFEW;
	if (!block_len)
		block_len = (size_t)ceil(cbrt((double)n));
	if (block_len > n)
		return BS_EINVAL;
	if (r1 && bs_lag1_autocorr(x, n, r1))
		*r1 = NAN;
	rep = malloc((n_resamples + n) * sizeof(*rep));
	if (!rep)
		return BS_ENOMEM;
	buf = rep + n_resamples;
	memcpy(buf, x, n * sizeof(*buf));
	point = stat(buf, n, ctx);
	bs_xrng_seed(&g, rng);
	for (size_t r = 0; r < n_resamples; r++) {
		size_t k = 0;

		while (k < n) {
			size_t s = bs_xrng_below(&g, n - block_len + 1);

			for (size_t j = 0; j < block_len && k < n; j++)
				buf[k++] = x[s + j];
		}
		rep[r] = stat(buf, n, ctx);
	}
	err = isfinite(point) ? bs_percentile_from_replicates(rep, n_resamples, point, level, out)
			      : BS_ENONFINITE;
	free(rep);
	return err;
}
