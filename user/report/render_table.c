// SPDX-License-Identifier: MIT
/* render_table.c - the report document as aligned text (see render.h). */
#include <errno.h>
#include <string.h>

#include "report/render.h"
#include "util/units.h"

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static void print_table(FILE *f, const struct bs_doc_section *sec)
{
	size_t w[BS_DOC_MAX_COLS];

	for (size_t c = 0; c < sec->ncols; c++) {
		w[c] = bs_text_width(sec->header[c]);
		for (size_t r = 0; r < sec->n_rows; r++) {
			size_t cw = bs_text_width(sec->cells[r * sec->ncols + c]);

			if (cw > w[c])
				w[c] = cw;
		}
	}
	for (size_t r = 0; r <= sec->n_rows; r++) { /* row 0 is the header */
		fputs("  ", f);
		for (size_t c = 0; c < sec->ncols; c++) {
			const char *s = r ? sec->cells[(r - 1) * sec->ncols + c] : sec->header[c];
			size_t fill = w[c] - bs_text_width(s);

			if (c)
				fputs("  ", f);
			if (sec->right[c])
				pad(f, fill);
			fputs(s, f);
			if (!sec->right[c] && c + 1 < sec->ncols)
				pad(f, fill);
		}
		fputc('\n', f);
	}
	if (sec->note)
		fprintf(f, "  (%s)\n", sec->note);
}

int bs_render_table(FILE *f, const struct bs_doc *doc)
{
	fprintf(f, "%s\n", doc->title);
	for (size_t i = 0; i < doc->n_sections; i++) {
		const struct bs_doc_section *sec = &doc->sections[i];

		fprintf(f, "\n%s\n", sec->title);
		if (sec->ncols)
			print_table(f, sec);
		for (size_t l = 0; l < sec->n_lines; l++)
			fprintf(f, "  %s\n", sec->lines[l]);
	}
	return ferror(f) ? -EIO : 0;
}
