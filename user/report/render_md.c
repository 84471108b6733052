// SPDX-License-Identifier: MIT
/* render_md.c - the report document as Markdown (see render.h). */
#include <errno.h>
#include <string.h>

#include "report/render.h"

/* Text with the characters Markdown tables treat specially escaped. */
static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\' || *s == '*' || *s == '_' || *s == '`')
			fputc('\\', f);
		fputc(*s, f);
	}
}

int bs_render_md(FILE *f, const struct bs_doc *doc)
{
	fprintf(f, "# ");
	md_cell(f, doc->title);
	fputs("\n", f);
	for (size_t i = 0; i < doc->n_sections; i++) {
		const struct bs_doc_section *sec = &doc->sections[i];

		fprintf(f, "\n## ");
		md_cell(f, sec->title);
		fputs("\n\n", f);
		if (sec->ncols) {
			for (size_t r = 0; r <= sec->n_rows; r++) {
				for (size_t c = 0; c < sec->ncols; c++) {
					fputs("| ", f);
					md_cell(f, r ? sec->cells[(r - 1) * sec->ncols + c]
						     : sec->header[c]);
					fputc(' ', f);
				}
				fputs("|\n", f);
				if (r == 0) {
					for (size_t c = 0; c < sec->ncols; c++)
						fputs(sec->right[c] ? "|---:" : "|---", f);
					fputs("|\n", f);
				}
			}
			if (sec->note) {
				fputs("\n", f);
				md_cell(f, sec->note);
				fputs("\n", f);
			}
		}
		for (size_t l = 0; l < sec->n_lines; l++) {
			fputs("- ", f);
			md_cell(f, sec->lines[l]);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}
