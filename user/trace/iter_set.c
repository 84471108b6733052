// SPDX-License-Identifier: MIT
/* iter_set.c - a set of iterations by (pid, index) (iter_set.h). */
#include "trace/iter_set.h"

#include <errno.h>
#include <stdlib.h>

static uint64_t key_of(uint32_t pid, uint32_t iter)
{
	return (uint64_t)pid << 32 | iter;
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int bs_iter_set_add(struct bs_iter_set *s, uint32_t pid, uint64_t index)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		uint64_t *k = realloc(s->keys, cap * sizeof(*k));

		if (!k)
			return -ENOMEM;
		s->keys = k;
		s->cap = cap;
	}
	s->keys[s->n++] = key_of(pid, (uint32_t)index);
	return 0;
}

void bs_iter_set_seal(struct bs_iter_set *s)
{
	if (s->n)
		qsort(s->keys, s->n, sizeof(*s->keys), key_cmp);
}

bool bs_iter_set_has(const struct bs_iter_set *s, uint32_t pid, uint32_t iter)
{
	uint64_t k = key_of(pid, iter);

	return s->n && bsearch(&k, s->keys, s->n, sizeof(k), key_cmp);
}

void bs_iter_set_free(struct bs_iter_set *s)
{
	free(s->keys);
	s->keys = NULL;
	s->n = s->cap = 0;
}

bool bs_charge_counts(const struct bs_interferer_rec *r, enum bs_charge_scope scope,
		      const struct bs_iter_set *s)
{
	if (scope != BS_CHARGES_ANALYSED || r->victim_iter == BS_CHARGE_NO_ITER)
		return true;
	return bs_iter_set_has(s, r->victim_pid, r->victim_iter);
}
