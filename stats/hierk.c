// SPDX-License-Identifier: MIT
/*
 * hierk.c - k-level hierarchical bootstrap (Kalibera & Jones 2013; Laaber
 * et al. 2020 §4.2.3, generalised from fork -> iteration -> invocation to
 * any depth, e.g. machine -> run -> iteration), of a mean or of a ratio of
 * two samples sharing the upper levels.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "benchscope/stats_boot.h"
#include "benchscope/stats_desc.h"
#include "stats_internal.h"

/* Offsets computed once: first child of every group, per level; values of
 * every leaf group; the leaf groups' moments for the normal approximation. */
struct hk {
	size_t depth, n_top;
	size_t *first[BS_HIERK_MAX_DEPTH]; /* [groups of level l + 1]: first child */
	const double *v[2];		   /* x, y */
	size_t *voff[2];		   /* [leaf groups + 1]: first value */
	double *mean[2], *sd[2];	   /* per leaf group */
	size_t exact_max;
	int two;
};

static void hk_free(struct hk *k)
{
	for (size_t l = 0; l < BS_HIERK_MAX_DEPTH; l++)
		free(k->first[l]);
	for (int s = 0; s < 2; s++) {
		free(k->voff[s]);
		free(k->mean[s]);
		free(k->sd[s]);
	}
}

/* Prefix sums of counts c[0..n-1] into off[0..n]; 0 if a count is 0. */
static int prefix(const size_t *c, size_t n, size_t *off)
{
	off[0] = 0;
	for (size_t i = 0; i < n; i++) {
		if (!c[i])
			return 0;
		off[i + 1] = off[i] + c[i];
	}
	return 1;
}

static int hk_index(const struct bs_hierk *h, size_t exact_max, struct hk *k)
{
	size_t n = 0, groups;

	memset(k, 0, sizeof(*k));
	if (!h || !h->n_child || !h->x || h->depth < 1 || h->depth > BS_HIERK_MAX_DEPTH ||
	    (h->y && !h->y_child))
		return BS_EINVAL;
	if (!h->n_top)
		return BS_EEMPTY;
	k->depth = h->depth;
	k->n_top = h->n_top;
	k->exact_max = exact_max;
	k->two = h->y != NULL;
	groups = h->n_top;
	for (size_t l = 0; l < h->depth; l++) {
		if (!h->n_child[l])
			return BS_EINVAL;
		size_t *off = malloc((groups + 1) * sizeof(*off));

		if (!off)
			return BS_ENOMEM;
		if (l + 1 < h->depth) {
			k->first[l] = off;
		} else {
			k->voff[0] = off;
		}
		if (!prefix(h->n_child[l], groups, off))
			return BS_EINVAL;
		n = groups;
		groups = off[groups];
	}
	/* n: leaf groups; groups: values of x */
	k->v[0] = h->x;
	if (k->two) {
		k->voff[1] = malloc((n + 1) * sizeof(size_t));
		if (!k->voff[1])
			return BS_ENOMEM;
		if (!prefix(h->y_child, n, k->voff[1]))
			return BS_EINVAL;
		k->v[1] = h->y;
	}
	for (int s = 0; s <= k->two; s++) {
		int err = bs_check_finite(k->v[s], k->voff[s][n]);

		if (err)
			return err;
		k->mean[s] = malloc(n * sizeof(double));
		k->sd[s] = malloc(n * sizeof(double));
		if (!k->mean[s] || !k->sd[s])
			return BS_ENOMEM;
		for (size_t g = 0; g < n; g++) {
			const double *v = k->v[s] + k->voff[s][g];
			size_t m = k->voff[s][g + 1] - k->voff[s][g];
			double mu = bs_mean(v, m), ss = 0;

			for (size_t i = 0; i < m; i++)
				ss += (v[i] - mu) * (v[i] - mu);
			k->mean[s][g] = mu;
			k->sd[s][g] = sqrt(ss / (double)m);
		}
	}
	return BS_OK;
}

/* standard normal draw (Box-Muller on the xoshiro stream) */
static double gauss(struct bs_xrng *g)
{
	double u1 = ((bs_xrng_next(g) >> 11) + 0.5) * 0x1.0p-53;
	double u2 = (bs_xrng_next(g) >> 11) * 0x1.0p-53;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/* Resampled sum of leaf group @lg of sample @s; adds its size to *cnt. */
static double leaf_sum(const struct hk *k, int s, size_t lg, struct bs_xrng *g, size_t *cnt)
{
	size_t off = k->voff[s][lg], m = k->voff[s][lg + 1] - off;
	const double *v = k->v[s] + off;

	*cnt += m;
	if (m == 1)
		return v[0];
	if (k->exact_max && m > k->exact_max)
		return (double)m * k->mean[s][lg] + sqrt((double)m) * k->sd[s][lg] * gauss(g);
	if (m < UINT32_MAX)
		return bs_resample_sum(g, v, (uint32_t)m, m);
	double sum = 0;

	for (size_t i = 0; i < m; i++)
		sum += v[bs_xrng_below(g, m)];
	return sum;
}

/* Draw the children of group @grp of level @l (its count of them). */
static void draw(const struct hk *k, size_t l, size_t grp, struct bs_xrng *g, double sum[2],
		 size_t cnt[2])
{
	if (l == k->depth) { /* grp is a leaf group */
		for (int s = 0; s <= k->two; s++)
			sum[s] += leaf_sum(k, s, grp, g, &cnt[s]);
		return;
	}
	size_t first = l ? k->first[l - 1][grp] : 0;
	size_t n = l ? k->first[l - 1][grp + 1] - first : k->n_top;

	for (size_t i = 0; i < n; i++)
		draw(k, l + 1, first + (n == 1 ? 0 : bs_xrng_below(g, n)), g, sum, cnt);
}

size_t bs_hierk_count(const struct bs_hierk *h)
{
	struct hk k;
	size_t n = 0;

	if (hk_index(h, 0, &k) == BS_OK) {
		size_t leaves = h->n_top;

		for (size_t l = 0; l + 1 < h->depth; l++)
			leaves = k.first[l][leaves];
		n = k.voff[0][leaves];
	}
	hk_free(&k);
	return n;
}

int bs_hierk_ci(const struct bs_hierk *h, const struct bs_hierk_opts *o, gsl_rng *rng,
		struct bs_ci *out)
{
	struct hk k;
	struct bs_xrng g;
	double *rep = NULL, point;
	size_t leaves;
	int err;

	if (!o || !rng || !out || !(o->level > 0 && o->level < 1) || o->n_resamples < 2)
		return BS_EINVAL;
	err = hk_index(h, o->leaf_exact_max, &k);
	if (err)
		goto out;
	leaves = h->n_top;
	for (size_t l = 0; l + 1 < h->depth; l++)
		leaves = k.first[l][leaves];
	point = bs_mean(k.v[0], k.voff[0][leaves]);
	if (k.two) {
		if (point == 0) {
			err = BS_EINVAL;
			goto out;
		}
		point = bs_mean(k.v[1], k.voff[1][leaves]) / point;
	}
	rep = malloc(o->n_resamples * sizeof(*rep));
	if (!rep) {
		err = BS_ENOMEM;
		goto out;
	}
	bs_xrng_seed(&g, rng);
	/* the tree is walked from level 0: draw() at level 0 draws n_top groups */
	for (size_t r = 0; r < o->n_resamples; r++) {
		double sum[2] = {0, 0};
		size_t cnt[2] = {0, 0};

		draw(&k, 0, 0, &g, sum, cnt);
		rep[r] = sum[0] / (double)cnt[0];
		if (k.two)
			rep[r] = (sum[1] / (double)cnt[1]) / rep[r];
	}
	err = bs_check_finite(rep, o->n_resamples);
	if (!err)
		err = bs_percentile_from_replicates(rep, o->n_resamples, point, o->level, out);
out:
	free(rep);
	hk_free(&k);
	return err;
}
