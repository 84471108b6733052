// SPDX-License-Identifier: MIT
/* render_csv.c - `benchscope compare --csv`: one row per benchmark (see render.h). */
#include "compare/render.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/output.h"

/* a number, or an empty field when it is not finite */
static void num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

int bs_cmp_render_csv(FILE *f, const struct bs_cmp_result *r)
{
	fputs("benchmark,unit,a_runs,a_iterations,b_runs,b_iterations,a_mean_ns,b_mean_ns,"
	      "ratio,ratio_lo,ratio_hi,delta_pct,time_rel,u_unit,u_n_a,u_n_b,p,mds_pct,"
	      "verdict,regression,a_runs_noisy,b_runs_noisy,problem\n",
	      f);
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct bs_cmp_row *w = &r->rows[i];
		bool ok = !w->problem;

		bs_output_csv_field(f, w->name);
		fprintf(f, ",%s,%zu,%zu,%zu,%zu", w->a->per_op ? "ns/op" : "ns/iteration",
			w->a->n_runs, w->a->n, w->b->n_runs, w->b->n);
		num(f, ok ? w->mean_a.point : NAN);
		num(f, ok ? w->mean_b.point : NAN);
		num(f, ok ? w->ratio.point : NAN);
		num(f, ok ? w->ratio.lo : NAN);
		num(f, ok ? w->ratio.hi : NAN);
		num(f, ok ? (w->ratio.point - 1) * 100 : NAN);
		num(f, ok ? w->ratio.point - 1 : NAN);
		fprintf(f, ",%s", !ok ? "" : w->unit == BS_CMP_UNIT_RUNS ? "runs" : "iterations");
		fprintf(f, ",%zu,%zu", ok ? w->u_na : 0, ok ? w->u_nb : 0);
		num(f, ok ? w->u.p : NAN);
		num(f, ok ? w->mds.mds * 100 : NAN);
		fprintf(f, ",%s,%d", bs_cmp_verdict_word(w), w->regression);
		for (int s = 0; s < 2; s++) {
			if (w->noise[s].known)
				fprintf(f, ",%zu", w->noise[s].n_flagged);
			else
				fputc(',', f);
		}
		fputc(',', f);
		if (w->problem)
			bs_output_csv_field(f, w->problem);
		fputc('\n', f);
	}
	return ferror(f) ? -EIO : 0;
}
