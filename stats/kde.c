// SPDX-License-Identifier: MIT
/*
 * kde.c - Gaussian KDE (Silverman bandwidth) and the KLD similarity
 * probability (Laaber et al. 2020 §4.2.3).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats_desc.h"
#include "benchscope/stats_kde.h"
#include "stats_internal.h"

struct spread {
	double sd, q1, q3;
};

/* Quartiles and sd of the n values of sorted array sx. */
static void spread_of(const double *sx, size_t n, struct spread *s)
{
	double v = 0;

	s->q1 = bs_quantile_sorted(sx, n, 0.25);
	s->q3 = bs_quantile_sorted(sx, n, 0.75);
	if (n >= 2)
		bs_sample_var(sx, n, &v);
	s->sd = sqrt(v);
}

static double silverman(const struct spread *s, size_t n)
{
	double iqr = (s->q3 - s->q1) / 1.34, m = s->sd;

	if (iqr > 0 && iqr < m)
		m = iqr;
	return 1.06 * m * pow((double)n, -0.2);
}

int bs_silverman_bandwidth(const double *x, size_t n, double *h)
{
	int err = bs_check_finite(x, n);
	struct spread s;

	if (err)
		return err;
	if (!h)
		return BS_EINVAL;
	if (n < 2)
		return BS_ETOOFEW;
	double *sx = bs_sorted_copy(x, n);

	if (!sx)
		return BS_ENOMEM;
	spread_of(sx, n, &s);
	free(sx);
	if (!(s.sd > 0))
		return BS_EZEROVAR;
	*h = silverman(&s, n);
	return BS_OK;
}

/*
 * Kernel values along the grid by a multiplicative recurrence: with
 * z_j = (t_j - x) / h and d = dx / h, exp(-z_{j+1}^2 / 2) =
 * exp(-z_j^2 / 2) * f_j where f_j = exp(-z_j d - d^2 / 2) and
 * f_{j+1} = f_j * exp(-d^2). Each point starts at its nearest grid point
 * and walks outwards both ways, so values only decrease and an underflow
 * to 0 ends the walk. Four points are walked together: their chains are
 * independent, which hides the multiply latency.
 */
struct walk {
	double g, f;
	size_t k;
};

static void walk_start(double x, double h, double lo, double dx, size_t G, double d, struct walk *r,
		       struct walk *l)
{
	double t = (x - lo) / dx;
	size_t k0 = t <= 0 ? 0 : t >= G - 1 ? G - 1 : (size_t)(t + 0.5);
	double u = (lo + k0 * dx - x) / h, g0 = exp(-0.5 * u * u);

	r->g = g0;
	r->f = exp(-u * d - 0.5 * d * d);
	r->k = k0;
	/* leftwards: mirrored, w = -u; the first value is at k0 - 1 */
	l->f = exp(u * d - 0.5 * d * d);
	l->g = g0 * l->f;
	l->f *= exp(-d * d);
	l->k = k0; /* next index written is k - 1 */
}

static void walk_one(double x, double h, double lo, double dx, size_t G, double d, double b,
		     double *acc)
{
	struct walk r, l;

	walk_start(x, h, lo, dx, G, d, &r, &l);
	for (size_t j = r.k; j < G && r.g > 0; j++) {
		acc[j] += r.g;
		r.g *= r.f;
		r.f *= b;
	}
	for (size_t j = l.k; j-- > 0 && l.g > 0;) {
		acc[j] += l.g;
		l.g *= l.f;
		l.f *= b;
	}
}

#define KB 8 /* points walked together */

/*
 * One grid step of a block's KB chains, in either direction: add their
 * values g to *acc, then advance each value by its factor f and the factor
 * by b. With check (the callers ask every 16th step), returns 1 when every
 * chain has underflowed to 0, so the walk can end; else 0.
 */
static inline int block_step(double *acc, double *g, double *f, double b, int check)
{
	double s = 0, m = 0;

	for (int q = 0; q < KB; q++) {
		s += g[q];
		g[q] *= f[q];
		f[q] *= b;
	}
	*acc += s;
	if (!check)
		return 0;
	for (int q = 0; q < KB; q++)
		m = fmax(m, g[q]);
	return m == 0;
}

/*
 * Blocks of KB neighbouring points (x sorted) walk the grid together from
 * one start index j0, so each grid value is written once per block and the
 * KB chains are independent (vectorisable). A chain may first climb
 * towards its own peak; that is exact too, as long as its start value does
 * not underflow: blocks whose points are too far from j0 fall back to the
 * one-point walk.
 */
static void kde_accumulate(const double *x, size_t n, double h, double lo, double dx, size_t G,
			   double *acc)
{
	double d = dx / h, b = exp(-d * d);
	size_t i = 0;

	for (; i + KB <= n; i += KB) {
		double t = (x[i + KB / 2] - lo) / dx, gr[KB], fr[KB], gl[KB], fl[KB];
		size_t j0 = t <= 0 ? 0 : t >= G - 1 ? G - 1 : (size_t)(t + 0.5);
		int ok = 1;

		for (int q = 0; q < KB; q++) {
			double u = (lo + j0 * dx - x[i + q]) / h;

			gr[q] = exp(-0.5 * u * u);
			fr[q] = exp(-u * d - 0.5 * d * d);
			fl[q] = exp(u * d - 0.5 * d * d);
			gl[q] = gr[q] * fl[q];
			fl[q] *= b;
			if (!(gr[q] > 1e-200) || !isfinite(fr[q]) || !isfinite(fl[q]) ||
			    !isfinite(gl[q]))
				ok = 0;
		}
		if (!ok) {
			for (int q = 0; q < KB; q++)
				walk_one(x[i + q], h, lo, dx, G, d, b, acc);
			continue;
		}
		for (size_t j = j0; j < G; j++)
			if (block_step(&acc[j], gr, fr, b, (j & 15) == 15))
				break;
		for (size_t j = j0; j-- > 0;)
			if (block_step(&acc[j], gl, fl, b, (j & 15) == 0))
				break;
	}
	for (; i < n; i++)
		walk_one(x[i], h, lo, dx, G, d, b, acc);
}

/* bs_kde_grid on sorted, checked values sx (n >= 1). */
static void kde_grid_sorted(const double *sx, size_t n, double h, double lo, double hi, size_t npts,
			    double *dens)
{
	double norm = 1.0 / (n * h * sqrt(2 * M_PI));

	memset(dens, 0, npts * sizeof(*dens));
	kde_accumulate(sx, n, h, lo, (hi - lo) / (npts - 1), npts, dens);
	for (size_t k = 0; k < npts; k++)
		dens[k] *= norm;
}

int bs_kde_grid(const double *x, size_t n, double h, double lo, double hi, size_t npts,
		double *dens)
{
	int err = bs_check_finite(x, n);

	if (err)
		return err;
	if (!dens || !(h > 0) || !isfinite(h) || npts < 2 || !(hi > lo) || !isfinite(lo) ||
	    !isfinite(hi))
		return BS_EINVAL;
	double *sx = bs_sorted_copy(x, n);

	if (!sx)
		return BS_ENOMEM;
	kde_grid_sorted(sx, n, h, lo, hi, npts, dens);
	free(sx);
	return BS_OK;
}

int bs_kld_prob(const double *d1, size_t n1, const double *d2, size_t n2, size_t npts,
		struct bs_kld *out)
{
	struct spread s1, s2;
	double lo, hi, h1, h2, *p1, dx, kl12 = 0, kl21 = 0, *x1 = NULL, *x2 = NULL;
	int err;

	if (!out || npts == 1)
		return BS_EINVAL;
	if (!npts)
		npts = BS_KLD_GRID;
	err = bs_check_durations(d1, n1);
	if (!err)
		err = bs_check_durations(d2, n2);
	if (err)
		return err;
	/* each sample is sorted once: quartiles and the KDE both use it */
	x1 = bs_sorted_copy(d1, n1);
	x2 = bs_sorted_copy(d2, n2);
	if (!x1 || !x2) {
		err = BS_ENOMEM;
		goto out;
	}
	spread_of(x1, n1, &s1);
	spread_of(x2, n2, &s2);
	lo = fmin(s1.q1 - 1.5 * (s1.q3 - s1.q1), s2.q1 - 1.5 * (s2.q3 - s2.q1));
	hi = fmax(s1.q3 + 1.5 * (s1.q3 - s1.q1), s2.q3 + 1.5 * (s2.q3 - s2.q1));
	if (lo < 0)
		lo = 0;
	h1 = s1.sd > 0 ? silverman(&s1, n1) : 0;
	h2 = s2.sd > 0 ? silverman(&s2, n2) : 0;
	if (!(h1 > 0))
		h1 = h2;
	if (!(h2 > 0))
		h2 = h1;
	out->lo = lo;
	out->hi = hi;
	out->h1 = h1;
	out->h2 = h2;
	if (!(hi > lo)) {
		out->p = 1;
		out->kl12 = out->kl21 = 0;
		goto out;
	}
	if (!(h1 > 0)) {
		out->p = 0;
		out->kl12 = out->kl21 = INFINITY;
		goto out;
	}
	p1 = malloc(2 * npts * sizeof(*p1));
	if (!p1) {
		err = BS_ENOMEM;
		goto out;
	}
	double *p2 = p1 + npts;

	kde_grid_sorted(x1, n1, h1, lo, hi, npts, p1);
	kde_grid_sorted(x2, n2, h2, lo, hi, npts, p2);
	dx = (hi - lo) / (npts - 1);
	size_t used = 0;

	for (size_t k = 0; k < npts; k++) {
		if (p1[k] == 0 || p2[k] == 0)
			continue;
		used++;
		/* difference of logs: the ratio of two tails may overflow */
		double l = log2(p1[k]) - log2(p2[k]);

		kl12 += p1[k] * l * dx;
		kl21 -= p2[k] * l * dx;
	}
	free(p1);
	if (!used) {
		/* no common support at all: every point skipped */
		out->kl12 = out->kl21 = INFINITY;
		out->p = 0;
		goto out;
	}
	out->kl12 = kl12;
	out->kl21 = kl21;
	out->p = exp2(-kl12) * exp2(-kl21);
out:
	free(x1);
	free(x2);
	return err;
}
