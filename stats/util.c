// SPDX-License-Identifier: MIT
/*
 * util.c - internal helpers: the resampling generator, sorting, selection.
 */
#include <stdlib.h>
#include <string.h>

#include "stats_internal.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void bs_xrng_seed_u64(struct bs_xrng *g, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		g->s[i] = splitmix64(&seed);
}

void bs_xrng_seed(struct bs_xrng *g, gsl_rng *r)
{
	uint64_t acc = 0;

	/* gsl_rng_get may return fewer than 64 bits: mix four values */
	for (int i = 0; i < 4; i++) {
		uint64_t v = gsl_rng_get(r);

		acc = acc * 0x100000001b3ULL ^ v;
		g->s[i] = splitmix64(&acc);
	}
	if (!(g->s[0] | g->s[1] | g->s[2] | g->s[3]))
		g->s[0] = 1;
}

static inline uint64_t key_of(double d)
{
	uint64_t u;

	memcpy(&u, &d, sizeof(u));
	return (u & 0x8000000000000000ULL) ? ~u : u | 0x8000000000000000ULL;
}

static inline double double_of(uint64_t k)
{
	uint64_t u = (k & 0x8000000000000000ULL) ? k & ~0x8000000000000000ULL : ~k;
	double d;

	memcpy(&d, &u, sizeof(d));
	return d;
}

static void insertion_sort(double *x, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;

		while (j > 0 && x[j - 1] > v) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = v;
	}
}

void bs_sort(double *x, size_t n)
{
	uint64_t *a, *b;
	size_t cnt[256];

	if (n < 256) {
		if (n < 32)
			insertion_sort(x, n);
		else
			qsort(x, n, sizeof(*x), bs_cmp_double);
		return;
	}
	a = malloc(2 * n * sizeof(*a));
	if (!a) {
		qsort(x, n, sizeof(*x), bs_cmp_double);
		return;
	}
	b = a + n;
	for (size_t i = 0; i < n; i++)
		a[i] = key_of(x[i] == 0 ? 0.0 : x[i]); /* -0.0 sorts as 0.0 */
	for (int shift = 0; shift < 64; shift += 8) {
		memset(cnt, 0, sizeof(cnt));
		for (size_t i = 0; i < n; i++)
			cnt[(a[i] >> shift) & 0xff]++;
		if (cnt[(a[0] >> shift) & 0xff] == n)
			continue; /* every key has this byte: pass is identity */
		size_t sum = 0;

		for (int k = 0; k < 256; k++) {
			size_t c = cnt[k];

			cnt[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[cnt[(a[i] >> shift) & 0xff]++] = a[i];
		uint64_t *t = a;

		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		x[i] = double_of(a[i]);
	free(a < b ? a : b);
}

double bs_select(double *x, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (hi > lo) {
		/* median of three pivot, Hoare partition */
		size_t mid = lo + (hi - lo) / 2;
		double a = x[lo], b = x[mid], c = x[hi];
		double p = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t i = lo, j = hi;

		while (i <= j) {
			while (x[i] < p)
				i++;
			while (x[j] > p)
				j--;
			if (i <= j) {
				double t = x[i];

				x[i] = x[j];
				x[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j && j != (size_t)-1)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return x[k];
	}
	return x[k];
}
