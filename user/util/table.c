// SPDX-License-Identifier: MIT
/* table.c - aligned text and Markdown tables (see table.h). */
#include "util/table.h"
#include "util/units.h"

void bs_md_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', f);
		fputc(*s, f);
	}
}

static const char *cell(const char *const *header, const char *const *cells, size_t ncols, size_t r,
			size_t c)
{
	const char *s = r ? cells[(r - 1) * ncols + c] : header[c];

	return s ? s : "";
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static void print_md(FILE *f, const char *const *header, const char *const *cells, size_t n_rows,
		     size_t ncols, const int *right, bool escape)
{
	for (size_t r = 0; r <= n_rows; r++) {
		for (size_t c = 0; c < ncols; c++) {
			fputs("| ", f);
			if (escape)
				bs_md_escape(f, cell(header, cells, ncols, r, c));
			else
				fputs(cell(header, cells, ncols, r, c), f);
			fputc(' ', f);
		}
		fputs("|\n", f);
		if (r == 0) {
			for (size_t c = 0; c < ncols; c++)
				fputs(right && right[c] ? "|---:" : "|---", f);
			fputs("|\n", f);
		}
	}
}

void bs_table_print(FILE *f, const char *const *header, const char *const *cells, size_t n_rows,
		    size_t ncols, const int *right, const struct bs_table_style *style)
{
	size_t w[64] = {0};

	if (ncols > 64)
		ncols = 64;
	if (style->md) {
		print_md(f, header, cells, n_rows, ncols, right, style->md_escape);
		return;
	}
	for (size_t c = 0; c < ncols; c++)
		for (size_t r = 0; r <= n_rows; r++) {
			size_t cw = bs_text_width(cell(header, cells, ncols, r, c));

			if (cw > w[c])
				w[c] = cw;
		}
	for (size_t r = 0; r <= n_rows; r++) {
		fputs(style->indent ? style->indent : "", f);
		for (size_t c = 0; c < ncols; c++) {
			const char *s = cell(header, cells, ncols, r, c);
			size_t fill = w[c] - bs_text_width(s);
			bool rt = right && right[c];

			if (c)
				fputs("  ", f);
			if (rt)
				pad(f, fill);
			fputs(s, f);
			if (!rt && c + 1 < ncols)
				pad(f, fill);
		}
		fputc('\n', f);
	}
}
