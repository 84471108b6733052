// SPDX-License-Identifier: MIT
/* run_sched.c - the order of a duet's runs: RMIT (seeded shuffle) or fixed. */
#include "duet/run.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

const char *bs_duet_method_name(int method)
{
	static const char *const names[] = {"async", "sync", "seq", "interleaved"};

	return method >= 0 && method < BS_DM_RUN_N ? names[method] : "?";
}

int bs_duet_method_barrier(int method)
{
	return method == BS_DM_RUN_SYNC	 ? BS_BAR_SYNC
	       : method == BS_DM_RUN_ILV ? BS_BAR_INTERLEAVED
					 : BS_BAR_OFF;
}

/* 0/1 over n runs, half each (the odd one random), shuffled with rng; NULL
 * rng: alternating from 0 */
static void balanced(int *o, size_t n, gsl_rng *rng)
{
	for (size_t r = 0; r < n; r++)
		o[r] = (int)(r % 2);
	if (!rng)
		return;
	if (n % 2)
		o[n - 1] = (int)gsl_rng_uniform_int(rng, 2);
	gsl_ran_shuffle(rng, o, n, sizeof(*o));
}

int bs_duet_schedule(const int *methods, size_t n_methods, size_t runs, bool rmit, bool crossover,
		     uint64_t seed, struct bs_duet_plan **out, size_t *n_out)
{
	struct bs_duet_plan *p;
	int *orders = NULL, *swaps = NULL, *perm = NULL;
	gsl_rng *rng = NULL;
	size_t r, i, k = 0;
	int rc = -ENOMEM;

	if (!n_methods || !runs || n_methods > BS_DM_RUN_N)
		return -EINVAL;
	p = calloc(n_methods * runs, sizeof(*p));
	orders = calloc(n_methods * runs, sizeof(*orders));
	swaps = calloc(n_methods * runs, sizeof(*swaps));
	perm = calloc(n_methods, sizeof(*perm));
	if (!p || !orders || !swaps || !perm)
		goto out;
	if (rmit) {
		rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!rng)
			goto out;
		gsl_rng_set(rng, (unsigned long)seed);
		/* per method: balanced pair orders over its runs, shuffled */
		for (i = 0; i < n_methods; i++)
			balanced(orders + i * runs, runs, rng);
	}
	/* after the orders, so a schedule without crossover stays as it was */
	for (i = 0; crossover && i < n_methods; i++)
		balanced(swaps + i * runs, runs, rng);
	for (r = 0; r < runs; r++) {
		for (i = 0; i < n_methods; i++)
			perm[i] = (int)i;
		if (rmit)
			gsl_ran_shuffle(rng, perm, n_methods, sizeof(*perm));
		for (i = 0; i < n_methods; i++) {
			size_t mi = (size_t)perm[i];

			p[k].method = methods[mi];
			p[k].index = (int)r;
			p[k].order = rmit ? orders[mi * runs + r] : 0;
			p[k].swap = swaps[mi * runs + r];
			k++;
		}
	}
	*out = p;
	*n_out = k;
	p = NULL;
	rc = 0;
out:
	free(p);
	free(orders);
	free(swaps);
	free(perm);
	if (rng)
		gsl_rng_free(rng);
	return rc;
}
