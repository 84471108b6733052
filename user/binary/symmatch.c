/* SPDX-License-Identifier: MIT */
/* symmatch.c - demangling, name keys, edit distance and suggestion ranking. */
#include "binary/symmatch.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char *(*demangle_fn)(const char *, char *, size_t *, int *);

/* Resolved when the final link includes libstdc++, NULL otherwise. */
extern char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status)
    __attribute__((weak));

static demangle_fn demangler;
static pthread_once_t demangler_once = PTHREAD_ONCE_INIT;

static void demangler_init(void)
{
	if (__cxa_demangle) {
		demangler = __cxa_demangle;
		return;
	}
	/* Kept open for the life of the process: the function is used until exit. */
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	if (h)
		*(void **)&demangler = dlsym(h, "__cxa_demangle");
}

char *bs_demangle(const char *name)
{
	if (!name || strncmp(name, "_Z", 2) != 0)
		return NULL;
	pthread_once(&demangler_once, demangler_init);
	if (!demangler)
		return NULL;
	int status = 0;
	char *d = demangler(name, NULL, NULL, &status);
	if (status != 0) {
		free(d);
		return NULL;
	}
	return d;
}

static void copy_span(char *out, size_t outlen, const char *s, size_t n)
{
	if (!outlen)
		return;
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, s, n);
	out[n] = '\0';
}

/* Index of the '(' opening the parameter list of S (length n), or n if none. */
static size_t param_list_start(const char *s, size_t n)
{
	size_t end = n;
	/* Skip trailing qualifiers: " const", " volatile", "&", "&&", " [clone ...]". */
	for (;;) {
		while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '&'))
			end--;
		if (end >= 5 && strncmp(s + end - 5, "const", 5) == 0)
			end -= 5;
		else if (end >= 8 && strncmp(s + end - 8, "volatile", 8) == 0)
			end -= 8;
		else if (end > 0 && s[end - 1] == ']') {
			const char *lb = NULL;
			for (size_t i = end; i-- > 0;)
				if (s[i] == '[') {
					lb = s + i;
					break;
				}
			if (!lb || strncmp(lb, "[clone", 6) != 0)
				break;
			end = (size_t)(lb - s);
		} else
			break;
	}
	if (end == 0 || s[end - 1] != ')')
		return n;
	int depth = 0;
	for (size_t i = end; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return n;
}

/* Start of the name in S[0..n) after a leading return type ("void f<int>" -> "f<int>"). */
static size_t name_start(const char *s, size_t n)
{
	int angle = 0, paren = 0;
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '<')
			angle++;
		else if (c == '>' && angle > 0)
			angle--;
		else if (c == '(')
			paren++;
		else if (c == ')' && paren > 0)
			paren--;
		else if (c == ' ' && !angle && !paren) {
			/* "operator new", "operator int": the space belongs to the name. */
			if (i >= 8 && strncmp(s + i - 8, "operator", 8) == 0)
				continue;
			start = i + 1;
		}
	}
	return start;
}

void bs_sym_keys(const char *d, char *full, size_t fulllen, char *base, size_t baselen)
{
	size_t n = strlen(d);
	size_t lp = param_list_start(d, n);
	size_t st = name_start(d, lp);
	copy_span(full, fulllen, d + st, n - st);
	copy_span(base, baselen, d + st, lp - st);
}

/* Next significant character of *p (skipping whitespace and [abi:...] tags), or 0. */
static char next_sig(const char **p)
{
	for (;;) {
		while (**p && isspace((unsigned char)**p))
			(*p)++;
		if (strncmp(*p, "[abi:", 5) == 0) {
			const char *e = strchr(*p, ']');
			*p = e ? e + 1 : *p + strlen(*p);
			continue;
		}
		return **p ? *(*p)++ : 0;
	}
}

int bs_sym_same(const char *a, const char *b)
{
	for (;;) {
		char ca = next_sig(&a), cb = next_sig(&b);
		if (ca != cb)
			return 0;
		if (!ca)
			return 1;
	}
}

size_t bs_edit_distance(const char *a, const char *b)
{
	enum { MAXL = 255 };
	size_t la = strnlen(a, MAXL), lb = strnlen(b, MAXL);
	size_t row[MAXL + 1];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static size_t count_components(const char *s)
{
	size_t k = 1;
	for (const char *p = s; (p = strstr(p, "::")); p += 2)
		k++;
	return k;
}

size_t bs_sym_distance(const char *query, const char *base)
{
	size_t best = bs_edit_distance(query, base);
	size_t k = count_components(query), have = count_components(base);
	if (have <= k)
		return best;
	/* Skip have-k leading components of base. */
	const char *p = base;
	for (size_t i = 0; i < have - k; i++)
		p = strstr(p, "::") + 2;
	size_t d = bs_edit_distance(query, p);
	return d < best ? d : best;
}

void bs_suggest_init(struct bs_suggest *s, size_t max)
{
	s->max = max > 16 ? 16 : max;
	s->n = 0;
	s->items = calloc(s->max + 1, sizeof(*s->items));
	if (!s->items)
		s->max = 0;
}

/* 1 when X ranks before Y. */
static int better(const struct bs_suggest_item *x, const struct bs_suggest_item *y)
{
	if (x->substr != y->substr)
		return x->substr > y->substr;
	if (x->substr)
		return strlen(x->text) < strlen(y->text);
	return x->dist < y->dist;
}

void bs_suggest_add(struct bs_suggest *s, const char *text, int substr, size_t dist)
{
	if (!s->max)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->items[i].text, text) == 0)
			return;
	struct bs_suggest_item it = {.text = NULL, .substr = substr != 0, .dist = dist};
	it.text = (char *)text; /* compare before copying */
	size_t pos = s->n;
	while (pos > 0 && better(&it, &s->items[pos - 1]))
		pos--;
	if (pos >= s->max)
		return;
	it.text = strdup(text);
	if (!it.text)
		return;
	if (s->n == s->max) {
		free(s->items[s->n - 1].text);
		s->n--;
	}
	memmove(&s->items[pos + 1], &s->items[pos], (s->n - pos) * sizeof(*s->items));
	s->items[pos] = it;
	s->n++;
}

void bs_suggest_format(const struct bs_suggest *s, char *buf, size_t len)
{
	size_t used = 0;
	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", s->items[i].text);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

void bs_suggest_free(struct bs_suggest *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i].text);
	free(s->items);
	s->items = NULL;
	s->n = s->max = 0;
}
