// SPDX-License-Identifier: MIT
/* render_table.c - the report document as aligned text (see render.h). */
#include <errno.h>
#include <string.h>

#include "report/render.h"
#include "util/table.h"

static void print_table(FILE *f, const struct bs_doc_section *sec)
{
	static const struct bs_table_style style = {.indent = "  "};

	bs_table_print(f, (const char *const *)sec->header, (const char *const *)sec->cells,
		       sec->n_rows, sec->ncols, sec->right, &style);
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
