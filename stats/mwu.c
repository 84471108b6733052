// SPDX-License-Identifier: MIT
/*
 * mwu.c - Mann-Whitney U test as scipy.stats.mannwhitneyu(method="auto")
 * (Drozdík 2023 §4.3.3).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "benchscope/stats_desc.h"
#include "benchscope/stats_mwu.h"
#include "stats_internal.h"

/*
 * Counts c[u] of arrangements with U = u are the coefficients of the
 * Gaussian binomial [m+n choose s]_q, s = min(m, n):
 *   prod_{i=1..s} (1 - q^(L+i)) / (1 - q^i),  L = max(m, n).
 * After each factor the partial product is [L+i choose i]_q, a polynomial
 * with nonnegative integer coefficients, so multiplying by (1 - q^(L+i))
 * then dividing by (1 - q^i) (a running sum with stride i) stays exact.
 */
typedef __int128 i128;

/*
 * exact_sf_T(s, L, umax, k, p): *p = P(U >= k) = sum_{u >= k} c[u] / sum_u c[u]
 * from the counts c[0..umax] computed in type T; defined below for i128
 * (exact, while C(m+n, s) fits) and long double (large counts, rounded).
 */
#define DEFINE_EXACT_SF(T)                                                                         \
	static int exact_sf_##T(size_t s, size_t L, size_t umax, size_t k, double *p)              \
	{                                                                                          \
		T *c = malloc((umax + 1) * sizeof(*c)), tail = 0, tot = 0;                         \
                                                                                                   \
		if (!c)                                                                            \
			return BS_ENOMEM;                                                          \
		memset(c, 0, (umax + 1) * sizeof(*c));                                             \
		c[0] = 1;                                                                          \
		for (size_t i = 1; i <= s; i++) {                                                  \
			size_t deg = i * L; /* degree after this factor */                         \
			size_t sh = L + i;                                                         \
                                                                                                   \
			for (size_t u = deg; u >= sh; u--) {                                       \
				c[u] -= c[u - sh];                                                 \
				if (u == sh)                                                       \
					break;                                                     \
			}                                                                          \
			for (size_t u = i; u <= deg; u++)                                          \
				c[u] += c[u - i];                                                  \
		}                                                                                  \
		for (size_t u = 0; u <= umax; u++) {                                               \
			tot += c[u];                                                               \
			if (u >= k)                                                                \
				tail += c[u];                                                      \
		}                                                                                  \
		*p = (double)((long double)tail / (long double)tot);                               \
		free(c);                                                                           \
		return BS_OK;                                                                      \
	}

typedef long double ldbl;
DEFINE_EXACT_SF(i128)
DEFINE_EXACT_SF(ldbl)

static int binom_fits(size_t s, size_t N)
{
	/* C(N, s) < 2^126 checked in long double */
	long double lg = lgammal(N + 1.0L) - lgammal(s + 1.0L) - lgammal(N - s + 1.0L);

	return lg < 125 * logl(2.0L);
}

int bs_mwu_exact_sf(size_t m, size_t n, long long k, double *p)
{
	size_t s = m < n ? m : n, L = m < n ? n : m, umax = m * n;

	if (!p || !m || !n)
		return BS_EINVAL;
	if (k <= 0) {
		*p = 1;
		return BS_OK;
	}
	if ((size_t)k > umax) {
		*p = 0;
		return BS_OK;
	}
	if (binom_fits(s, m + n))
		return exact_sf_i128(s, L, umax, (size_t)k, p);
	return exact_sf_ldbl(s, L, umax, (size_t)k, p);
}

int bs_mannwhitneyu(const double *x, size_t n1, const double *y, size_t n2, enum bs_alternative alt,
		    struct bs_mwu *out)
{
	double *sx, *sy, r1 = 0, tie = 0, u1, u2, u, f;
	size_t i = 0, j = 0, rank = 0; /* ranks assigned so far */
	int ties = 0, err;

	if (!x || !y || !out)
		return n1 == 0 || n2 == 0 ? BS_EEMPTY : BS_EINVAL;
	if (alt != BS_TWO_SIDED && alt != BS_LESS && alt != BS_GREATER)
		return BS_EINVAL;
	err = bs_check_finite(x, n1);
	if (!err)
		err = bs_check_finite(y, n2);
	if (err)
		return err;
	sx = malloc((n1 + n2) * sizeof(*sx));
	if (!sx)
		return BS_ENOMEM;
	sy = sx + n1;
	memcpy(sx, x, n1 * sizeof(*x));
	memcpy(sy, y, n2 * sizeof(*y));
	bs_sort(sx, n1);
	bs_sort(sy, n2);
	/* merge: each group of equal values gets the average rank */
	while (i < n1 || j < n2) {
		double v;
		size_t cx = 0, cy = 0, t;

		if (j >= n2 || (i < n1 && sx[i] <= sy[j]))
			v = sx[i];
		else
			v = sy[j];
		while (i < n1 && sx[i] == v)
			i++, cx++;
		while (j < n2 && sy[j] == v)
			j++, cy++;
		t = cx + cy;
		r1 += cx * (rank + (t + 1) / 2.0);
		rank += t;
		if (t > 1) {
			ties = 1;
			tie += (double)t * t * t - t;
		}
	}
	free(sx);
	u1 = r1 - n1 * (n1 + 1) / 2.0;
	u2 = (double)n1 * n2 - u1;
	if (alt == BS_GREATER)
		u = u1, f = 1;
	else if (alt == BS_LESS)
		u = u2, f = 1;
	else
		u = u1 > u2 ? u1 : u2, f = 2;
	out->u1 = u1;
	out->u2 = u2;
	if ((n1 <= 8 || n2 <= 8) && !ties) {
		err = bs_mwu_exact_sf(n1, n2, (long long)u, &out->p);
		if (err)
			return err;
		out->z = NAN;
		out->exact = 1;
	} else {
		double n = (double)n1 + n2;
		double s = sqrt((double)n1 * n2 / 12.0 * ((n + 1) - tie / (n * (n - 1))));

		if (!(s > 0))
			return BS_ETIED;
		out->z = (u - (double)n1 * n2 / 2.0 - 0.5) / s;
		out->p = gsl_cdf_ugaussian_Q(out->z);
		out->exact = 0;
	}
	out->p *= f;
	if (out->p > 1)
		out->p = 1;
	return BS_OK;
}
