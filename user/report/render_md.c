// SPDX-License-Identifier: MIT
/* render_md.c - the report document as Markdown (see render.h). */
#include <errno.h>
#include <string.h>

#include "report/render.h"
#include "util/table.h"

int bs_render_md(FILE *f, const struct bs_doc *doc)
{
	fprintf(f, "# ");
	bs_md_escape(f, doc->title);
	fputs("\n", f);
	for (size_t i = 0; i < doc->n_sections; i++) {
		const struct bs_doc_section *sec = &doc->sections[i];

		fprintf(f, "\n## ");
		bs_md_escape(f, sec->title);
		fputs("\n\n", f);
		if (sec->ncols) {
			static const struct bs_table_style style = {.md = true, .md_escape = true};

			bs_table_print(f, (const char *const *)sec->header,
				       (const char *const *)sec->cells, sec->n_rows, sec->ncols,
				       sec->right, &style);
			if (sec->note) {
				fputs("\n", f);
				bs_md_escape(f, sec->note);
				fputs("\n", f);
			}
		}
		for (size_t l = 0; l < sec->n_lines; l++) {
			fputs("- ", f);
			bs_md_escape(f, sec->lines[l]);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}
