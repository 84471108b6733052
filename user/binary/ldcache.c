/* SPDX-License-Identifier: MIT */
/* ldcache.c - parse /etc/ld.so.cache (or `ldconfig -p`) into name -> path entries. */
#include "binary/ldcache.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OLD_MAGIC   "ld.so-1.7.0"
#define NEW_MAGIC   "glibc-ld.so.cache"
#define NEW_VERSION "1.1"
#define NEW_HDR_SIZE                                                                               \
	48		  /* magic[17] version[3] nlibs len_strings flags pad[3] ext_off unused[3] \
			   */
#define NEW_ENTRY_SIZE 24 /* int32 flags, u32 key, u32 value, u32 osversion, u64 hwcap */
#define OLD_HDR_SIZE   16 /* magic[11] (+1 pad) u32 nlibs */
#define OLD_ENTRY_SIZE 12 /* int32 flags, u32 key, u32 value */

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static int push(struct bs_ldcache *c, size_t *cap, const char *name, size_t nlen, const char *path,
		size_t plen)
{
	if (c->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct bs_ldcache_entry *v = realloc(c->v, ncap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		c->v = v;
		*cap = ncap;
	}
	char *n = strndup(name, nlen), *p = strndup(path, plen);
	if (!n || !p) {
		free(n);
		free(p);
		return -ENOMEM;
	}
	c->v[c->n++] = (struct bs_ldcache_entry){n, p};
	return 0;
}

/* String at offset OFF of the table T (LEN bytes); NULL unless NUL-terminated inside it. */
static const char *str_at(const unsigned char *t, size_t len, uint32_t off)
{
	if (off >= len || !memchr(t + off, '\0', len - off))
		return NULL;
	return (const char *)t + off;
}

int bs_ldcache_parse(struct bs_ldcache *c, const unsigned char *buf, size_t len)
{
	size_t cap = 0, start = 0;
	c->v = NULL;
	c->n = 0;
	if (len >= OLD_HDR_SIZE && memcmp(buf, OLD_MAGIC, strlen(OLD_MAGIC)) == 0) {
		uint64_t end = OLD_HDR_SIZE + (uint64_t)rd32(buf + 12) * OLD_ENTRY_SIZE;
		start = (size_t)((end + 7) & ~(uint64_t)7);
		if (end > len)
			return -EINVAL;
	}
	if (start > len || len - start < NEW_HDR_SIZE ||
	    memcmp(buf + start, NEW_MAGIC, strlen(NEW_MAGIC)) ||
	    memcmp(buf + start + 17, NEW_VERSION, 3))
		return -EINVAL;
	/* Strings are addressed from the start of the new-format header. */
	const unsigned char *base = buf + start;
	size_t blen = len - start;
	uint32_t nlibs = rd32(base + 20);
	if ((uint64_t)nlibs * NEW_ENTRY_SIZE > blen - NEW_HDR_SIZE)
		return -EINVAL;
	/* Two passes: plain entries, then glibc-hwcaps ones (their use depends on the CPU). */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < nlibs; i++) {
			const unsigned char *e = base + NEW_HDR_SIZE + (size_t)i * NEW_ENTRY_SIZE;
			if ((rd64(e + 16) != 0) != pass)
				continue;
			const char *k = str_at(base, blen, rd32(e + 4)),
				   *v = str_at(base, blen, rd32(e + 8));
			if (!k || !v)
				continue;
			if (push(c, &cap, k, strlen(k), v, strlen(v))) {
				bs_ldcache_free(c);
				return -ENOMEM;
			}
		}
	}
	return 0;
}

static int load_file(struct bs_ldcache *c, const char *file)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		return -errno;
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int ret = 0;
	for (;;) {
		if (len == cap) {
			if (cap >= (64u << 20)) { /* no sane cache is this large */
				ret = -EFBIG;
				break;
			}
			cap = cap ? cap * 2 : 65536;
			unsigned char *nb = realloc(buf, cap);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
		}
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	if (!ret)
		ret = bs_ldcache_parse(c, buf, len);
	free(buf);
	return ret;
}

/* Parse "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1" lines. */
static int load_ldconfig(struct bs_ldcache *c)
{
	static const char *const cmds[] = {"/sbin/ldconfig -p 2>/dev/null",
					   "ldconfig -p 2>/dev/null"};
	size_t cap = 0;
	for (size_t k = 0; k < 2 && !c->n; k++) {
		FILE *p = popen(cmds[k], "r");
		if (!p)
			continue;
		char line[4096];
		while (fgets(line, sizeof(line), p)) {
			char *s = line + strspn(line, " \t");
			char *arrow = strstr(s, " => ");
			size_t nlen = strcspn(s, " \t");
			if (!arrow || !nlen)
				continue;
			char *path = arrow + 4;
			path[strcspn(path, "\n")] = '\0';
			if (push(c, &cap, s, nlen, path, strlen(path))) {
				pclose(p);
				bs_ldcache_free(c);
				return -ENOMEM;
			}
		}
		pclose(p);
	}
	return c->n ? 0 : -ENOENT;
}

int bs_ldcache_load(struct bs_ldcache *c, const char *file)
{
	c->v = NULL;
	c->n = 0;
	int ret = load_file(c, file ? file : "/etc/ld.so.cache");
	if (ret == 0 || file)
		return ret;
	bs_ldcache_free(c);
	return load_ldconfig(c);
}

long bs_ldcache_next(const struct bs_ldcache *c, const char *name, size_t *pos)
{
	for (size_t i = *pos; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0) {
			*pos = i + 1;
			return (long)i;
		}
	*pos = c->n;
	return -1;
}

void bs_ldcache_free(struct bs_ldcache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].path);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
