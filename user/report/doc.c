// SPDX-License-Identifier: MIT
/* doc.c - building blocks of the report document (see report_doc.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_doc.h"

static char *dup_or_oom(struct bs_doc *doc, const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		doc->oom = 1;
	return d;
}

struct bs_doc *bs_doc_new(const char *title)
{
	struct bs_doc *doc = calloc(1, sizeof(*doc));

	if (doc)
		doc->title = dup_or_oom(doc, title);
	return doc;
}

static struct bs_doc_section *add_section(struct bs_doc *doc, const char *title)
{
	struct bs_doc_section *ns;

	ns = realloc(doc->sections, (doc->n_sections + 1) * sizeof(*ns));
	if (!ns) {
		doc->oom = 1;
		return NULL;
	}
	doc->sections = ns;
	ns = &doc->sections[doc->n_sections++];
	memset(ns, 0, sizeof(*ns));
	ns->title = dup_or_oom(doc, title);
	return ns;
}

static struct bs_doc_section *current(struct bs_doc *doc)
{
	return doc->n_sections ? &doc->sections[doc->n_sections - 1] : NULL;
}

void bs_doc_text(struct bs_doc *doc, const char *title)
{
	add_section(doc, title);
}

static int append(struct bs_doc *doc, char ***arr, size_t *n, char *s)
{
	char **na;

	if (!s) {
		doc->oom = 1;
		return -1;
	}
	na = realloc(*arr, (*n + 1) * sizeof(*na));
	if (!na) {
		free(s);
		doc->oom = 1;
		return -1;
	}
	*arr = na;
	na[(*n)++] = s;
	return 0;
}

void bs_doc_line(struct bs_doc *doc, const char *fmt, ...)
{
	struct bs_doc_section *sec = current(doc);
	char *s = NULL;
	va_list ap;

	if (!sec || sec->ncols)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	append(doc, &sec->lines, &sec->n_lines, s);
}

void bs_doc_table(struct bs_doc *doc, const char *title, const char *cols)
{
	struct bs_doc_section *sec = add_section(doc, title);
	char *copy, *rest, *tok;

	if (!sec)
		return;
	copy = rest = dup_or_oom(doc, cols);
	while (rest && sec->ncols < BS_DOC_MAX_COLS) { /* empty headers are kept */
		tok = strsep(&rest, "\t");
		sec->right[sec->ncols] = tok[0] == '>';
		sec->header[sec->ncols++] = dup_or_oom(doc, tok + (tok[0] == '>'));
	}
	free(copy);
}

void bs_doc_row(struct bs_doc *doc, const char *const *cells)
{
	struct bs_doc_section *sec = current(doc);
	char **nc;

	if (!sec || !sec->ncols)
		return;
	nc = realloc(sec->cells, (sec->n_rows + 1) * sec->ncols * sizeof(*nc));
	if (!nc) {
		doc->oom = 1;
		return;
	}
	sec->cells = nc;
	for (size_t c = 0; c < sec->ncols; c++)
		nc[sec->n_rows * sec->ncols + c] = dup_or_oom(doc, cells[c]);
	sec->n_rows++;
}

void bs_doc_note(struct bs_doc *doc, const char *fmt, ...)
{
	struct bs_doc_section *sec = current(doc);
	va_list ap;

	if (!sec)
		return;
	free(sec->note);
	va_start(ap, fmt);
	if (vasprintf(&sec->note, fmt, ap) < 0) {
		sec->note = NULL;
		doc->oom = 1;
	}
	va_end(ap);
}

void bs_doc_free(struct bs_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->n_sections; i++) {
		struct bs_doc_section *sec = &doc->sections[i];

		free(sec->title);
		for (size_t c = 0; c < sec->ncols; c++)
			free(sec->header[c]);
		for (size_t c = 0; c < sec->n_rows * sec->ncols; c++)
			free(sec->cells[c]);
		free(sec->cells);
		for (size_t l = 0; l < sec->n_lines; l++)
			free(sec->lines[l]);
		free(sec->lines);
		free(sec->note);
	}
	free(doc->sections);
	free(doc->title);
	free(doc);
}
