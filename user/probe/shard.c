// SPDX-License-Identifier: MIT
/* shard.c - `--shard I/N`: the spec, the partition rule, the filter, the context (shard.h). */
#include "probe/shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"

int bs_shard_parse(const char *s, struct bs_shard *sh, char *err, size_t errlen)
{
	const char *slash = s ? strchr(s, '/') : NULL;
	char idx[32];
	long i, n;

	if (!slash || (size_t)(slash - s) >= sizeof(idx))
		goto bad;
	memcpy(idx, s, (size_t)(slash - s));
	idx[slash - s] = 0;
	if (bs_parse_long(slash + 1, 1, BS_SHARD_MAX, &n) || bs_parse_long(idx, 0, n - 1, &i))
		goto bad;
	memset(sh, 0, sizeof(*sh));
	sh->set = true;
	sh->index = i;
	sh->count = n;
	return 0;
bad:
	snprintf(err, errlen,
		 "--shard takes I/N, whole numbers with 0 <= I < N <= %d (I counts from 0, as "
		 "SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX), not '%s'",
		 BS_SHARD_MAX, s ? s : "");
	return -EINVAL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int bs_shard_pick(struct bs_shard *sh, char **all, size_t n)
{
	size_t k, m = 0;

	qsort(all, n, sizeof(*all), cmp_str);
	for (k = 0; k < n; k++)
		if (m == 0 || strcmp(all[m - 1], all[k]))
			all[m++] = all[k];
		else
			free(all[k]);
	bs_shard_free(sh);
	sh->n_listed = m;
	sh->names = calloc(m / (size_t)sh->count + 1, sizeof(*sh->names));
	if (!sh->names)
		return -ENOMEM;
	for (k = (size_t)sh->index; k < m; k += (size_t)sh->count) {
		sh->names[sh->n_names] = strdup(all[k]);
		if (!sh->names[sh->n_names])
			return -ENOMEM;
		sh->n_names++;
	}
	/* the freed duplicates are past m: the caller frees all[0..m) */
	for (k = m; k < n; k++)
		all[k] = NULL;
	return 0;
}

/* The characters a regex treats specially in RE2 (Go), Rust's regex
 * (criterion) and POSIX/ECMAScript (libbenchmark): each is escaped with a
 * backslash, which all of them read as the literal character. */
static const char regex_special[] = "\\.+*?()|[]{}^$";

char *bs_shard_filter(const struct bs_boundaries *b, const struct bs_shard *sh)
{
	const char *prefix = b->mode == BS_BOUND_GBENCH ? "--benchmark_filter="
			     : b->mode == BS_BOUND_GO	? "-test.bench="
							: "";
	size_t len = strlen(prefix) + 8, i;
	char *out, *p;

	if (!sh->n_names)
		return NULL;
	for (i = 0; i < sh->n_names; i++)
		len += 2 * strlen(sh->names[i]) + 1;
	out = malloc(len);
	if (!out)
		return NULL;
	p = out + sprintf(out, "%s^(", prefix);
	for (i = 0; i < sh->n_names; i++) {
		if (i)
			*p++ = '|';
		for (const char *c = sh->names[i]; *c; c++) {
			if (strchr(regex_special, *c))
				*p++ = '\\';
			*p++ = *c;
		}
	}
	strcpy(p, ")$");
	return out;
}

char **bs_shard_command(char *const argv[], char *filter)
{
	size_t n = 0;
	char **out;

	while (argv[n])
		n++;
	out = calloc(n + 2, sizeof(*out));
	if (!out)
		return NULL;
	memcpy(out, argv, n * sizeof(*out));
	out[n] = filter;
	return out;
}

json_object *bs_shard_json(const struct bs_shard *sh)
{
	json_object *o = json_object_new_object(), *names = json_object_new_array();

	for (size_t i = 0; i < sh->n_names; i++)
		json_object_array_add(names, json_object_new_string(sh->names[i]));
	json_object_object_add(o, "index", json_object_new_int64(sh->index));
	json_object_object_add(o, "count", json_object_new_int64(sh->count));
	json_object_object_add(o, "listed", json_object_new_int64((int64_t)sh->n_listed));
	json_object_object_add(o, "benchmarks", names);
	return o;
}

void bs_shard_names_free(char **names, size_t n)
{
	if (!names)
		return;
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

void bs_shard_free(struct bs_shard *sh)
{
	if (!sh)
		return;
	bs_shard_names_free(sh->names, sh->n_names);
	sh->names = NULL;
	sh->n_names = 0;
}
