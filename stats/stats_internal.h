/* SPDX-License-Identifier: MIT */
/* stats_internal.h - helpers shared by the stats sources; not installed. */
#ifndef BENCHSCOPE_STATS_INTERNAL_H
#define BENCHSCOPE_STATS_INTERNAL_H

#include <stddef.h>

/* qsort comparator of two doubles (a, b point to double): -1, 0 or 1 for
 * ascending order; NaN compares equal to everything, so sort only finite
 * values */
int bs_cmp_double(const void *a, const void *b);
/* malloc'ed sorted copy of x, NULL on allocation failure */
double *bs_sorted_copy(const double *x, size_t n);

#include <stdint.h>

#include <gsl/gsl_rng.h>

/* xoshiro256** (Blackman & Vigna 2021), seeded from the caller's gsl_rng */
struct bs_xrng {
	uint64_t s[4]; /* state; never all zero */
};

/* Seed g from four gsl_rng_get(r) values (so exactly four are consumed;
 * they may hold fewer than 64 bits each), mixed and spread over the state
 * with SplitMix64; an all-zero state is replaced. r must not be NULL. */
void bs_xrng_seed(struct bs_xrng *g, gsl_rng *r);
/* Seed g with the four SplitMix64 outputs after seed: the same seed gives
 * the same sequence. */
void bs_xrng_seed_u64(struct bs_xrng *g, uint64_t seed);

/* Next 64-bit output of xoshiro256** (Blackman & Vigna 2021): the **
 * scrambler, rotl(s[1] * 5, 7) * 9, then the xoshiro256 state step (shift
 * 17, rotation 45). */
static inline uint64_t bs_xrng_next(struct bs_xrng *g)
{
	uint64_t *s = g->s;
	uint64_t r = s[1] * 5;

	r = ((r << 7) | (r >> 57)) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return r;
}

/* uniform integer in [0, n), n >= 1: multiply-shift with rejection
 * (Lemire 2019), unbiased */
static inline size_t bs_xrng_below(struct bs_xrng *g, size_t n)
{
	uint64_t x = bs_xrng_next(g);
	unsigned __int128 m = (unsigned __int128)x * n;
	uint64_t l = (uint64_t)m;

	if (l < n) {
		uint64_t t = -(uint64_t)n % n;

		while (l < t) {
			x = bs_xrng_next(g);
			m = (unsigned __int128)x * n;
			l = (uint64_t)m;
		}
	}
	return (size_t)(m >> 64);
}

/* Two uniform indexes in [0, n), 0 < n < 2^32, from one 64-bit draw
 * (32-bit multiply-shift on each half, Lemire 2019, with rejection below
 * the threshold t = 2^32 mod n, computed once by the caller): halves the
 * generator cost of resampling. */
static inline void bs_xrng_below2(struct bs_xrng *g, uint32_t n, uint32_t t, uint32_t *i,
				  uint32_t *j)
{
	for (;;) {
		uint64_t x = bs_xrng_next(g);
		uint64_t a = (uint64_t)(uint32_t)x * n;
		uint64_t b = (x >> 32) * n;

		if (__builtin_expect((uint32_t)a >= t && (uint32_t)b >= t, 1)) {
			*i = (uint32_t)(a >> 32);
			*j = (uint32_t)(b >> 32);
			return;
		}
		/* rare (probability < 2 n / 2^32): redraw both */
	}
}

/* Largest n for bs_xrng_below4: n^2 <= 2^24, so a rejection (probability
 * (2^32 mod n^2) / 2^32 < 2^-8 per half) stays rare. */
#define BS_BELOW4_MAX 4096u

/* Four uniform indexes in [0, n), 0 < n <= BS_BELOW4_MAX, from one 64-bit
 * draw: each 32-bit half u gives two by batched multiply-shift
 * (Brackett-Rozinsky & Lemire 2024): u n = i 2^32 + l and l n = j 2^32 + l',
 * so u n^2 = (i n + j) 2^32 + l', i.e. i n + j is the multiply-shift
 * (Lemire 2019) of u onto [0, n^2), and rejecting l' < t = 2^32 mod n^2 (computed once by
 * the caller) makes the pair (i, j) exactly uniform on [0, n)^2. No
 * division; four indexes per generator step instead of two. */
static inline void bs_xrng_below4(struct bs_xrng *g, uint32_t n, uint32_t t, uint32_t idx[4])
{
	for (;;) {
		uint64_t x = bs_xrng_next(g);
		uint64_t a = (uint64_t)(uint32_t)x * n;
		uint64_t b = (x >> 32) * n;
		uint64_t c = (uint64_t)(uint32_t)a * n;
		uint64_t d = (uint64_t)(uint32_t)b * n;

		if (__builtin_expect((uint32_t)c >= t && (uint32_t)d >= t, 1)) {
			idx[0] = (uint32_t)(a >> 32);
			idx[1] = (uint32_t)(c >> 32);
			idx[2] = (uint32_t)(b >> 32);
			idx[3] = (uint32_t)(d >> 32);
			return;
		}
		/* rare (probability < 2^-7): redraw both halves */
	}
}

/* sum of x[idx] over m uniform draws with replacement from x[0..n-1],
 * 0 < n < 2^32, four accumulators to break the add latency chain; four
 * indexes per generator step when n <= BS_BELOW4_MAX, else two. The
 * resample is never materialised. */
static inline double bs_resample_sum(struct bs_xrng *g, const double *x, uint32_t n, size_t m)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	uint32_t i[4];
	size_t k = 0;

	if (n <= BS_BELOW4_MAX) {
		uint32_t t = -(n * n) % (n * n);

		for (; k + 4 <= m; k += 4) {
			bs_xrng_below4(g, n, t, i);
			s0 += x[i[0]];
			s1 += x[i[1]];
			s2 += x[i[2]];
			s3 += x[i[3]];
		}
	} else {
		uint32_t t = -n % n;

		for (; k + 4 <= m; k += 4) {
			bs_xrng_below2(g, n, t, &i[0], &i[1]);
			bs_xrng_below2(g, n, t, &i[2], &i[3]);
			s0 += x[i[0]];
			s1 += x[i[1]];
			s2 += x[i[2]];
			s3 += x[i[3]];
		}
	}
	for (; k < m; k++)
		s0 += x[bs_xrng_below(g, n)];
	return (s0 + s1) + (s2 + s3);
}

/* bs_check_finite, then BS_ENEGATIVE if any value is below 0 (durations) */
int bs_check_durations(const double *x, size_t n);

/* ascending sort of doubles (finite values), radix sort for large n */
void bs_sort(double *x, size_t n);
/* k-th smallest (0-based) of x[0..n-1] by quickselect (median-of-three
 * pivot, Hoare partition); reorders x so that x[k] holds it, the values
 * before it <= it and those after >= it. Preconditions, not checked: x not
 * NULL, n >= 1, k < n, no NaN (NaN breaks the partition's bounds). */
double bs_select(double *x, size_t n, size_t k);

#endif
