// SPDX-License-Identifier: MIT
/* render_csv.c - one CSV row per iteration (see render.h, iter_cols.h). */
#include <errno.h>
#include <inttypes.h>

#include "report/iter_cols.h"
#include "report/render.h"

int bs_render_csv(FILE *f, const struct bs_dataset *ds)
{
	size_t ncols;
	const struct bs_iter_col *cols = bs_iter_cols(&ncols);
	struct bs_col_val v;

	for (size_t c = 0; c < ncols; c++)
		fprintf(f, "%s%s", c ? "," : "", cols[c].name);
	fputc('\n', f);
	for (size_t i = 0; i < ds->n_iters; i++) {
		for (size_t c = 0; c < ncols; c++) {
			bs_iter_col_value(c, &ds->iters[i], &v);
			if (c)
				fputc(',', f);
			if (!v.present)
				continue;
			if (v.kind == BS_COL_UINT)
				fprintf(f, "%" PRIu64, v.u);
			else if (v.kind == BS_COL_FLOAT)
				fprintf(f, "%.3f", v.d);
			else
				fputs(v.text, f); /* flag names: no comma, no quote */
		}
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}
