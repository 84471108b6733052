// SPDX-License-Identifier: MIT
/* render_table.c - the human table of `benchscope compare` (see render.h). */
#include "compare/render.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/table.h"
#include "util/units.h"

#define NCOLS 11
#define CELL  96

const char *bs_cmp_verdict_word(const struct bs_cmp_row *row)
{
	if (row->problem)
		return "n/a";
	if (row->verdict == BS_VERDICT_SLOWER)
		return "slower";
	if (row->verdict == BS_VERDICT_FASTER)
		return "faster";
	/* as verdict_cell: no p below alpha was possible, so no test was made */
	return row->u_needed ? "no_test" : "no_difference";
}

/* "1.235 µs ±0.4 %": the mean and the half width of its CI, relative */
static void mean_cell(const struct bs_ci *c, char *buf, size_t len)
{
	char t[32];

	snprintf(buf, len, "%s ±%.1f %%", bs_fmt_ns(c->point, t, sizeof(t)),
		 (c->hi - c->lo) / 2 / c->point * 100);
}

static void verdict_cell(const struct bs_cmp_row *r, char *buf, size_t len)
{
	if (r->problem)
		snprintf(buf, len, "%s", r->problem);
	else if (r->verdict == BS_VERDICT_SLOWER)
		snprintf(buf, len, "B slower%s", r->regression ? ", REGRESSION" : "");
	else if (r->verdict == BS_VERDICT_FASTER)
		snprintf(buf, len, "B faster");
	else if (r->u_needed)
		snprintf(buf, len, "no test: the U test needs >= %zu %s a side", r->u_needed,
			 r->unit == BS_CMP_UNIT_RUNS ? "runs" : "iterations");
	else
		snprintf(buf, len, "no difference detected");
}

static void row_cells(const struct bs_cmp_row *r, char c[NCOLS][CELL])
{
	snprintf(c[0], CELL, "%s", r->name);
	bs_cmp_noise_text(&r->noise[0], c[8], CELL);
	bs_cmp_noise_text(&r->noise[1], c[9], CELL);
	verdict_cell(r, c[10], CELL);
	if (r->problem) {
		for (int i = 1; i < 8; i++)
			snprintf(c[i], CELL, "-");
		return;
	}
	mean_cell(&r->mean_a, c[1], CELL);
	mean_cell(&r->mean_b, c[2], CELL);
	snprintf(c[3], CELL, "%+.2f %% [%+.2f, %+.2f]", (r->ratio.point - 1) * 100,
		 (r->ratio.lo - 1) * 100, (r->ratio.hi - 1) * 100);
	snprintf(c[4], CELL, "%.3f", r->u.p);
	snprintf(c[5], CELL, "%zu+%zu %s", r->u_na, r->u_nb,
		 r->unit == BS_CMP_UNIT_RUNS ? "runs" : "iters");
	if (isnan(r->mds.mds))
		snprintf(c[6], CELL, "%s", r->u_needed ? "none" : "> 100 %");
	else
		snprintf(c[6], CELL, "%.1f %%", r->mds.mds * 100);
	snprintf(c[7], CELL, "%s", r->a->per_op ? "time/op" : "time/iter");
}

static void name_list(FILE *f, const char *what, const char **names, size_t n)
{
	if (!n)
		return;
	fprintf(f, "%s (%zu, not compared):", what, n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s", i ? "," : "", names[i]);
	fputc('\n', f);
}

static void side_line(FILE *f, const char *which, const char *path, const struct bs_cmp_side *s)
{
	size_t runs = 0, iters = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (s->b[i].n_runs > runs)
			runs = s->b[i].n_runs;
		iters += s->b[i].n;
	}
	fprintf(f,
		"%s  %s: %zu benchmark%s, %zu run%s (process%s), %zu measurement iterations "
		"(%zu left out: warmup, calibration, after the stop)\n",
		which, path, s->n, s->n == 1 ? "" : "s", runs, runs == 1 ? "" : "s",
		runs == 1 ? "" : "es", iters, s->n_excluded);
}

int bs_cmp_render_table(FILE *f, const struct bs_cmp_input *in, const struct bs_cmp_result *r)
{
	static const char *const hdr[NCOLS] = {"benchmark", "A",       "B",	 "delta B/A [CI]",
					       "p",	    "n (A+B)", "MDS",	 "unit",
					       "noise A",   "noise B", "verdict"};
	static const int right[NCOLS] = {0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
	size_t nrows = r->n_rows + (r->has_geomean ? 1 : 0);
	char(*cells)[NCOLS][CELL] = calloc(nrows ? nrows : 1, sizeof(*cells));
	const char **ptr = calloc((nrows ? nrows : 1) * NCOLS, sizeof(*ptr));
	bool iters = false;
	int ret;

	if (!cells || !ptr) {
		free(cells);
		free(ptr);
		return -ENOMEM;
	}
	side_line(f, "A", in->path[0], in->side[0]);
	side_line(f, "B", in->path[1], in->side[1]);
	fputc('\n', f);
	for (size_t i = 0; i < r->n_rows; i++) {
		row_cells(&r->rows[i], cells[i]);
		iters |= !r->rows[i].problem && r->rows[i].unit == BS_CMP_UNIT_ITERS;
	}
	if (r->has_geomean) {
		char(*c)[CELL] = cells[r->n_rows];

		snprintf(c[0], CELL, "geomean (%zu)", r->n_geomean);
		snprintf(c[3], CELL, "%+.2f %% [%+.2f, %+.2f]", (r->geomean.point - 1) * 100,
			 (r->geomean.lo - 1) * 100, (r->geomean.hi - 1) * 100);
	}
	for (size_t i = 0; i < nrows; i++)
		for (size_t j = 0; j < NCOLS; j++)
			ptr[i * NCOLS + j] = cells[i][j];
	bs_table_print(f, hdr, ptr, nrows, NCOLS, right, &(struct bs_table_style){0});
	fputc('\n', f);
	name_list(f, "only in A", r->only_a, r->n_only_a);
	name_list(f, "only in B", r->only_b, r->n_only_b);
	fprintf(f,
		"A, B: mean time per invocation (time/op) or per iteration, ± half its %g %% CI; "
		"delta: B/A - 1 with its %g %% CI (hierarchical bootstrap, %zu resamples, runs "
		"then iterations);\n"
		"p: two-sided Mann-Whitney U on the values counted in n; B slower or faster "
		"only when the CI excludes 0 and p < %g;\n"
		"MDS: the smallest slowdown of B that both tests would detect on this data.\n",
		r->opts.level * 100, r->opts.level * 100, r->opts.n_resamples, r->opts.alpha);
	if (iters)
		fprintf(f, "iters: one process on a side, so its iterations are the samples (as "
			   "benchstat and compare.py take repetitions): variation between "
			   "processes is not covered; record several (run --forks) for runs.\n");
	if (r->has_geomean)
		fprintf(f, "geomean: of the B/A ratios; its CI combines each benchmark's "
			   "bootstrap replicates.\n");
	fprintf(f,
		"noise: runs whose preempted or steal time reached %g %% of their busy time, "
		"or that migrated >= %g times a second; n/a: the trace has no kernel "
		"accounting.\n",
		BS_CMP_NOISE_PREEMPTED * 100, BS_CMP_NOISE_MIGR_PER_S);
	if (r->n_untested)
		fprintf(f,
			"not tested: %zu of %zu benchmark%s (no statistics, or no test possible: "
			"see the verdict); no verdict on %s\n",
			r->n_untested, r->n_rows, r->n_rows == 1 ? "" : "s",
			r->n_untested == 1 ? "it" : "them");
	if (isfinite(r->opts.fail_pct))
		fprintf(
		    f,
		    "gate --fail-on-regression %g %%: %zu regression%s in %zu tested benchmark%s\n",
		    r->opts.fail_pct, r->n_regressions, r->n_regressions == 1 ? "" : "s",
		    r->n_rows - r->n_untested, r->n_rows - r->n_untested == 1 ? "" : "s");
	ret = ferror(f) ? -EIO : 0;
	free(cells);
	free(ptr);
	return ret;
}
