// SPDX-License-Identifier: MIT
/* calib_live.c - a calibration rule on a sequence of runs as they arrive (see calib_live.h). */
#include "stop/calib_live.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void bs_calib_live_init(struct bs_calib_live *l, bs_calib_rule rule)
{
	memset(l, 0, sizeof(*l));
	l->rule = rule;
}

/* Room for one more run; the pointers are redone only when runs moved. */
static int grow(struct bs_calib_live *l)
{
	size_t cap = l->cap ? 2 * l->cap : 256;
	struct bs_iter_rec *runs = realloc(l->runs, cap * sizeof(*runs));
	const struct bs_iter_rec **ptr;
	bool *calib;

	if (!runs)
		return -ENOMEM;
	if (runs != l->runs) /* the old ptr has room for n */
		for (size_t i = 0; i < l->n; i++)
			l->ptr[i] = &runs[i];
	l->runs = runs;
	ptr = realloc(l->ptr, cap * sizeof(*ptr));
	if (!ptr)
		return -ENOMEM;
	l->ptr = ptr;
	calib = realloc(l->calib, cap * sizeof(*calib));
	if (!calib)
		return -ENOMEM;
	l->calib = calib;
	l->cap = cap;
	return 0;
}

int bs_calib_live_push(struct bs_calib_live *l, const struct bs_iter_rec *r)
{
	if (l->n == l->cap && grow(l))
		return -ENOMEM;
	l->runs[l->n] = *r;
	l->ptr[l->n] = &l->runs[l->n];
	l->n++;
	l->rule(l->ptr, l->n, l->calib, &l->st);
	return 0;
}

bool bs_calib_live_calib(const struct bs_calib_live *l, size_t i)
{
	return l->calib[i];
}

void bs_calib_live_reset(struct bs_calib_live *l)
{
	l->n = 0;
	memset(&l->st, 0, sizeof(l->st));
}

void bs_calib_live_free(struct bs_calib_live *l)
{
	free(l->runs);
	free(l->ptr);
	free(l->calib);
	bs_calib_live_init(l, l->rule);
}
