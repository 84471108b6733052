// SPDX-License-Identifier: MIT
/* csv.c - RFC 4180 CSV record reader (import/csv.h). */
#include "import/csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void bs_csv_init(struct bs_csv_reader *r, FILE *f)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->next_line = 1;
}

void bs_csv_free(struct bs_csv_reader *r)
{
	free(r->buf);
	free(r->fields);
	r->buf = NULL;
	r->fields = NULL;
}

static int put(struct bs_csv_reader *r, size_t *len, char c)
{
	if (*len + 1 >= r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		char *b = realloc(r->buf, cap);

		if (!b)
			return -ENOMEM;
		r->buf = b;
		r->cap = cap;
	}
	r->buf[(*len)++] = c;
	return 0;
}

/*
 * c as read from f, but a line end as '\n' whatever its form: for a CR the
 * LF of a CRLF is consumed too, so CR, CRLF and LF each end one line.
 */
static int fold_crlf(FILE *f, int c)
{
	if (c == '\r') {
		int d = getc(f);

		if (d != '\n' && d != EOF)
			ungetc(d, f);
		return '\n';
	}
	return c;
}

/* a read error of r's file: strerror in @err, -errno (-EIO when errno says nothing) */
static int read_error(char *err, size_t errlen)
{
	int e = errno ? errno : EIO;

	snprintf(err, errlen, "%s", strerror(e));
	return -e;
}

int bs_csv_next(struct bs_csv_reader *r, char ***fields, size_t *n, char *err, size_t errlen)
{
	size_t len = 0, nf = 0;
	int c, quoted = 0, in_q = 0, after_q = 0;
	size_t *off = NULL, ocap = 0;

	errno = 0; /* what a failed read sets: read_error's reason */
	if (!r->started) {
		r->started = 1;
		c = getc(r->f);
		if (c == 0xEF) {
			if (getc(r->f) != 0xBB || getc(r->f) != 0xBF) {
				snprintf(err, errlen, "line 1: not UTF-8 text");
				return -EINVAL;
			}
		} else if (c != EOF) {
			ungetc(c, r->f);
		}
	}
	/* skip blank lines */
	while ((c = fold_crlf(r->f, getc(r->f))) == '\n')
		r->next_line++;
	if (c == EOF)
		return ferror(r->f) ? read_error(err, errlen) : 0;
	ungetc(c, r->f);
	r->line = r->next_line;
#define NEW_FIELD()                                                                                \
	do {                                                                                       \
		if (nf == ocap) {                                                                  \
			size_t nc = ocap ? 2 * ocap : 16;                                          \
			size_t *o2 = realloc(off, nc * sizeof(*o2));                               \
			if (!o2)                                                                   \
				goto nomem;                                                        \
			off = o2;                                                                  \
			ocap = nc;                                                                 \
		}                                                                                  \
		off[nf++] = len;                                                                   \
	} while (0)
	NEW_FIELD();
	for (;;) {
		c = getc(r->f);
		if (c == EOF) {
			if (ferror(r->f)) {
				free(off);
				return read_error(err, errlen);
			}
			if (in_q) {
				snprintf(err, errlen,
					 "line %zu: a quoted field is not closed before the end of "
					 "the file",
					 r->line);
				free(off);
				return -EINVAL;
			}
			break;
		}
		if (c == 0) {
			snprintf(err, errlen, "line %zu: a NUL byte (not a text file)",
				 r->next_line);
			free(off);
			return -EINVAL;
		}
		if (in_q) {
			if (c == '"') {
				int d = getc(r->f);

				if (d == '"') {
					if (put(r, &len, '"'))
						goto nomem;
					continue;
				}
				if (d != EOF)
					ungetc(d, r->f);
				in_q = 0;
				after_q = 1;
				continue;
			}
			if (c == '\n')
				r->next_line++;
			if (put(r, &len, (char)c))
				goto nomem;
			continue;
		}
		if (c == ',') {
			if (put(r, &len, 0))
				goto nomem;
			NEW_FIELD();
			quoted = after_q = 0;
			continue;
		}
		c = fold_crlf(r->f, c);
		if (c == '\n') {
			r->next_line++;
			break;
		}
		if (after_q) {
			snprintf(err, errlen, "line %zu: text after the closing quote of field %zu",
				 r->next_line, nf);
			free(off);
			return -EINVAL;
		}
		if (c == '"') {
			if (len != off[nf - 1] || quoted) {
				snprintf(err, errlen, "line %zu: a quote inside unquoted field %zu",
					 r->next_line, nf);
				free(off);
				return -EINVAL;
			}
			quoted = in_q = 1;
			continue;
		}
		if (put(r, &len, (char)c))
			goto nomem;
	}
	if (put(r, &len, 0))
		goto nomem;
	if (nf > r->fcap) {
		char **fl = realloc(r->fields, nf * sizeof(*fl));

		if (!fl)
			goto nomem;
		r->fields = fl;
		r->fcap = nf;
	}
	for (size_t i = 0; i < nf; i++)
		r->fields[i] = r->buf + off[i];
	free(off);
	*fields = r->fields;
	*n = nf;
	return 1;
nomem:
	free(off);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
#undef NEW_FIELD
}
