/* SPDX-License-Identifier: MIT */
/*
 * fixtures.h - reader of the frozen reference values in tests/fixtures/stats
 * (written by tests/ref/gen_stats_fixtures.py). A file is a sequence of
 * records "<name> <count>" followed by count values, one per line; lines
 * starting with '#' are comments. Files are found under $BS_FIXTURES, else
 * tests/fixtures/stats relative to the repository root (tests run from it).
 */
#ifndef BENCHSCOPE_TEST_FIXTURES_H
#define BENCHSCOPE_TEST_FIXTURES_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fix_rec {
	char name[96];
	size_t n;
	double *v;
};

struct fixture {
	struct fix_rec *r;
	size_t n;
};

static inline void fix_free(struct fixture *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->r[i].v);
	free(f->r);
	f->r = NULL;
	f->n = 0;
}

/* 0 on success; -1 when the file is missing or malformed */
static inline int fix_load(struct fixture *f, const char *file)
{
	const char *dir = getenv("BS_FIXTURES");
	char path[512], line[256];
	FILE *fp;
	size_t cap = 0;

	memset(f, 0, sizeof(*f));
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "tests/fixtures/stats", file);
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "fixture %s: cannot open\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		struct fix_rec rec;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%95s %zu", rec.name, &rec.n) != 2)
			goto bad;
		rec.v = malloc((rec.n ? rec.n : 1) * sizeof(double));
		if (!rec.v)
			goto bad;
		for (size_t i = 0; i < rec.n; i++) {
			if (!fgets(line, sizeof(line), fp)) {
				free(rec.v);
				goto bad;
			}
			rec.v[i] = strtod(line, NULL);
		}
		if (f->n == cap) {
			cap = cap ? 2 * cap : 64;
			f->r = realloc(f->r, cap * sizeof(*f->r));
			if (!f->r)
				goto bad;
		}
		f->r[f->n++] = rec;
	}
	fclose(fp);
	return 0;
bad:
	fprintf(stderr, "fixture %s: malformed\n", path);
	fclose(fp);
	fix_free(f);
	return -1;
}

/* the values of record name (NULL if absent, which fails the caller's
 * check); *n receives the count */
static inline const double *fix_get(const struct fixture *f, const char *name, size_t *n)
{
	for (size_t i = 0; i < f->n; i++) {
		if (!strcmp(f->r[i].name, name)) {
			if (n)
				*n = f->r[i].n;
			return f->r[i].v;
		}
	}
	fprintf(stderr, "fixture record %s: missing\n", name);
	if (n)
		*n = 0;
	return NULL;
}

/*
 * fix_getf - fix_get() of the record whose name is printf(@fmt, ...),
 * e.g. fix_getf(&f, &n, "%s.data", cases[c]); a name is at most 95 bytes.
 */
__attribute__((format(printf, 3, 4))) static inline const double *
fix_getf(const struct fixture *f, size_t *n, const char *fmt, ...)
{
	char name[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return fix_get(f, name, n);
}

#endif
