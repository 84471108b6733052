/* SPDX-License-Identifier: MIT */
/*
 * ldcache.h - read the dynamic loader's cache (/etc/ld.so.cache, the
 * "glibc-ld.so.cache1.1" format, alone or after the old "ld.so-1.7.0"
 * table), or `ldconfig -p` output when the file cannot be parsed.
 */
#ifndef BENCHSCOPE_LDCACHE_H
#define BENCHSCOPE_LDCACHE_H

#include <stddef.h>

struct bs_ldcache_entry {
	char *name; /* the key: a soname, e.g. "libc.so.6" */
	char *path; /* where the loader would take it from */
};

/** The cache's entries in lookup order (plain entries before glibc-hwcaps ones). */
struct bs_ldcache {
	struct bs_ldcache_entry *v;
	size_t n;
};

/**
 * Load the cache from FILE (NULL: /etc/ld.so.cache); falls back to
 * `ldconfig -p` when FILE is NULL and unreadable or malformed.
 * 0, -ENOMEM, or -ENOENT when neither source gives entries (c is then empty).
 */
int bs_ldcache_load(struct bs_ldcache *c, const char *file);

/** Parse a cache image already in memory (BUF, LEN bytes). 0, -EINVAL malformed, -ENOMEM. */
int bs_ldcache_parse(struct bs_ldcache *c, const unsigned char *buf, size_t len);

/** Next entry index >= *pos whose name is NAME, or -1; *pos moves past it. */
long bs_ldcache_next(const struct bs_ldcache *c, const char *name, size_t *pos);

void bs_ldcache_free(struct bs_ldcache *c);

#endif
