// SPDX-License-Identifier: MIT
/* run_sched.c - the order of a duet's runs: RMIT (seeded shuffle) or fixed. */
#include "duet/run.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>

const char *bs_duet_method_name(int method)
{
	static const char *const names[] = {"async", "sync", "seq"};

	return method >= 0 && method < BS_DM_RUN_N ? names[method] : "?";
}

int bs_duet_schedule(const int *methods, size_t n_methods, size_t runs, bool rmit, uint64_t seed,
		     struct bs_duet_plan **out, size_t *n_out)
{
	struct bs_duet_plan *p;
	int *orders = NULL, *perm = NULL;
	gsl_rng *rng = NULL;
	size_t r, i, k = 0;
	int rc = -ENOMEM;

	if (!n_methods || !runs || n_methods > BS_DM_RUN_N)
		return -EINVAL;
	p = calloc(n_methods * runs, sizeof(*p));
	orders = calloc(n_methods * runs, sizeof(*orders));
	perm = calloc(n_methods, sizeof(*perm));
	if (!p || !orders || !perm)
		goto out;
	if (rmit) {
		rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!rng)
			goto out;
		gsl_rng_set(rng, (unsigned long)seed);
		/* per method: balanced pair orders over its runs, shuffled */
		for (i = 0; i < n_methods; i++) {
			int *o = orders + i * runs;

			for (r = 0; r < runs; r++)
				o[r] = (int)(r % 2);
			if (runs % 2)
				o[runs - 1] = (int)gsl_rng_uniform_int(rng, 2);
			gsl_ran_shuffle(rng, o, runs, sizeof(*o));
		}
	}
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
	free(perm);
	if (rng)
		gsl_rng_free(rng);
	return rc;
}
