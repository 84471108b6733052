// SPDX-License-Identifier: MIT
/* analysis.c - benchmarks of two run traces compared (see analysis.h). */
#include "compare/analysis.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

void bs_cmp_result_free(struct bs_cmp_result *r)
{
	if (!r)
		return;
	free(r->rows);
	free(r->only_a);
	free(r->only_b);
	memset(r, 0, sizeof(*r));
}

static const struct bs_cmp_bench *find(const struct bs_cmp_side *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->b[i].name, name))
			return &s->b[i];
	return NULL;
}

/* "x, y, z and 4 more" of the side's names into buf */
static void names_text(const struct bs_cmp_side *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < s->n && i < 3 && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", s->b[i].name);
	if (s->n > 3 && o < len)
		snprintf(buf + o, len - o, " and %zu more", s->n - 3);
}

/* the values the U test compares: runs' means, or the iterations */
static double *u_values(const struct bs_cmp_bench *b, enum bs_cmp_unit unit, size_t *n)
{
	double *v;

	if (unit == BS_CMP_UNIT_ITERS) {
		*n = b->n;
		return b->x;
	}
	v = malloc(b->n_runs * sizeof(*v));
	if (v)
		for (size_t i = 0; i < b->n_runs; i++)
			v[i] = b->runs[i].mean;
	*n = b->n_runs;
	return v;
}

/* why the statistics of a (A) against b (B) failed with err */
static const char *stat_problem(int err, const struct bs_cmp_bench *a, const struct bs_cmp_bench *b)
{
	switch (err) {
	case BS_EZEROVAR:
	case BS_ETIED:
		return "all values equal: no test possible";
	case BS_ENONFINITE:
		return "values not finite";
	case BS_EINVAL:
		/* a ratio B/A needs mean(A) != 0; the MDS needs B/A and its CI above 0 */
		if (bs_mean(a->x, a->n) == 0)
			return "mean of A is 0";
		if (bs_mean(b->x, b->n) == 0)
			return "mean of B is 0";
		return "the CI of B/A reaches 0: no MDS";
	default:
		return "statistics failed";
	}
}

/* every value of b equal */
static bool constant(const struct bs_cmp_bench *b)
{
	for (size_t i = 1; i < b->n; i++)
		if (b->x[i] != b->x[0])
			return false;
	return true;
}

/* the smallest n with 2 / C(2n, n) < alpha: the exact two-sided U test's
 * smallest p with n values a side, no ties */
static size_t u_needed(double alpha)
{
	double c = 2; /* C(2n, n) for n = 1 */
	size_t n = 1;

	while (2 / c >= alpha && n < 1000) {
		c = c * (2 * n + 1) * (2 * n + 2) / ((n + 1) * (double)(n + 1));
		n++;
	}
	return n;
}

/* statistics of one row; @rep receives its n_resamples ratio replicates */
static int analyze_row(struct bs_cmp_row *r, const struct bs_cmp_opts *o, gsl_rng *rng, double *rep)
{
	const struct bs_cmp_bench *a = r->a, *b = r->b;
	struct bs_hier ha = {a->x, a->n_runs, a->n_iters, NULL};
	struct bs_hier hb = {b->x, b->n_runs, b->n_iters, NULL};
	double *ua = NULL, *ub = NULL;
	int err;

	if (a->per_op != b->per_op) {
		r->problem = "one side has time per invocation, the other iteration durations only";
		return 0;
	}
	/* one value has no spread: its CI would be a point and the U test would
	 * rank B's values around it alone (1 + 40 values: p = 2/41 < 0.05) */
	if (a->n < 2 || b->n < 2) {
		r->problem = a->n >= 2	 ? "B has one value: a test needs >= 2 a side"
			     : b->n >= 2 ? "A has one value: a test needs >= 2 a side"
					 : "one value a side: a test needs >= 2 a side";
		return 0;
	}
	/* No variation on either side: nothing to judge a difference against. The
	 * CI of B/A is a point, the U test has all ties (A = B) or complete
	 * separation at any shift, so a verdict or an MDS would be the search
	 * grid's first step, not the data's. One constant side is fine: the other
	 * side's variation carries both tests. */
	if (constant(a) && constant(b)) {
		r->problem = "no variation on either side (constant values): no test possible";
		return 0;
	}
	err = bs_hier_ci_mean(&ha, o->level, o->n_resamples, rng, &r->mean_a);
	if (!err)
		err = bs_hier_ci_mean(&hb, o->level, o->n_resamples, rng, &r->mean_b);
	if (!err)
		err = bs_hier_ratio_ci_rep(&ha, &hb, o->level, o->n_resamples, rng, rep, &r->ratio);
	if (err == BS_ENOMEM)
		return -ENOMEM;
	if (err) {
		r->problem = stat_problem(err, a, b);
		return 0;
	}
	r->unit = a->n_runs >= 2 && b->n_runs >= 2 ? BS_CMP_UNIT_RUNS : BS_CMP_UNIT_ITERS;
	ua = u_values(a, r->unit, &r->u_na);
	ub = u_values(b, r->unit, &r->u_nb);
	if (!ua || !ub) {
		err = BS_ENOMEM;
		goto out;
	}
	err = bs_mannwhitneyu(ua, r->u_na, ub, r->u_nb, BS_TWO_SIDED, &r->u);
	if (err == BS_ETIED) {
		/* every run's mean equal (the iterations vary, or the row would have
		 * stopped above): U at its null mean, nothing tells A from B */
		r->u.p = 1;
		err = 0;
	}
	if (!err)
		err = bs_shift_mds(ua, r->u_na, ub, r->u_nb, &r->ratio, o->alpha, 0, 0, &r->mds);
	if (err && err != BS_ENOMEM) {
		r->problem = stat_problem(err, a, b);
		err = 0;
		goto out;
	}
	if (!err && r->mds.p_min >= o->alpha)
		r->u_needed = u_needed(o->alpha);
	if (!err && r->u.p < o->alpha && r->ratio.lo > 1)
		r->verdict = BS_VERDICT_SLOWER;
	else if (!err && r->u.p < o->alpha && r->ratio.hi < 1)
		r->verdict = BS_VERDICT_FASTER;
	r->regression = r->verdict == BS_VERDICT_SLOWER && isfinite(o->fail_pct) &&
			r->ratio.lo > 1 + o->fail_pct / 100;
out:
	if (ua != a->x)
		free(ua);
	if (ub != b->x)
		free(ub);
	return err == BS_ENOMEM ? -ENOMEM : 0;
}

static int geomean(struct bs_cmp_result *out, const double *rep)
{
	size_t nrep = out->opts.n_resamples, k = 0;
	double *pts = malloc((out->n_rows ? out->n_rows : 1) * sizeof(*pts));
	double *sel = malloc((out->n_rows ? out->n_rows : 1) * nrep * sizeof(*sel));
	int err = 0;

	if (!pts || !sel) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < out->n_rows; i++) {
		if (out->rows[i].problem)
			continue;
		pts[k] = out->rows[i].ratio.point;
		memcpy(sel + k * nrep, rep + i * nrep, nrep * sizeof(*sel));
		k++;
	}
	out->n_geomean = k;
	if (k >= 2) {
		err = bs_geomean_ci_from_replicates(sel, k, nrep, pts, out->opts.level,
						    &out->geomean);
		out->has_geomean = !err;
		err = err == BS_ENOMEM ? -ENOMEM : 0;
	}
out:
	free(pts);
	free(sel);
	return err;
}

int bs_cmp_analyze(const struct bs_cmp_side *a, const struct bs_cmp_side *b,
		   const struct bs_cmp_opts *opts, struct bs_cmp_result *out, char *err,
		   size_t errlen)
{
	struct bs_cmp_opts o = opts ? *opts : (struct bs_cmp_opts){.fail_pct = NAN};
	gsl_rng *rng = NULL;
	double *rep = NULL;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	o.level = o.level ? o.level : 0.95;
	o.n_resamples = o.n_resamples ? o.n_resamples : 10000;
	o.alpha = o.alpha ? o.alpha : 0.05;
	o.seed = o.seed ? o.seed : 1;
	out->opts = o;
	out->opts.steps = NULL;
	out->rows = calloc(a->n ? a->n : 1, sizeof(*out->rows));
	out->only_a = calloc(a->n ? a->n : 1, sizeof(*out->only_a));
	out->only_b = calloc(b->n ? b->n : 1, sizeof(*out->only_b));
	if (!out->rows || !out->only_a || !out->only_b)
		goto fail;
	for (size_t i = 0; i < a->n; i++) {
		const struct bs_cmp_bench *m = find(b, a->b[i].name);

		if (!m) {
			out->only_a[out->n_only_a++] = a->b[i].name;
			continue;
		}
		out->rows[out->n_rows++] =
		    (struct bs_cmp_row){.name = a->b[i].name, .a = &a->b[i], .b = m};
	}
	for (size_t i = 0; i < b->n; i++)
		if (!find(a, b->b[i].name))
			out->only_b[out->n_only_b++] = b->b[i].name;
	if (!out->n_rows) {
		char na[256], nb[256];

		names_text(a, na, sizeof(na));
		names_text(b, nb, sizeof(nb));
		snprintf(err, errlen, "no benchmark in common: A has %s; B has %s", na, nb);
		bs_cmp_result_free(out);
		return -EINVAL;
	}
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	rep = malloc(out->n_rows * o.n_resamples * sizeof(*rep));
	if (!rng || !rep)
		goto fail;
	gsl_rng_set(rng, o.seed);
	for (size_t i = 0; i < out->n_rows; i++) {
		struct bs_cmp_row *r = &out->rows[i];

		bs_steps_step(o.steps, i, out->n_rows, r->name);
		if (analyze_row(r, &o, rng, rep + i * o.n_resamples))
			goto fail;
		bs_cmp_bench_noise(r->a, a->has_intf, a->has_steal, &r->noise[0]);
		bs_cmp_bench_noise(r->b, b->has_intf, b->has_steal, &r->noise[1]);
		out->n_slower += !r->problem && r->verdict == BS_VERDICT_SLOWER;
		out->n_faster += !r->problem && r->verdict == BS_VERDICT_FASTER;
		out->n_regressions += r->regression;
		out->n_untested += r->problem || r->u_needed;
	}
	if (geomean(out, rep))
		goto fail;
	ret = 0;
fail:
	bs_steps_step(o.steps, out->n_rows, out->n_rows, NULL);
	if (ret) {
		snprintf(err, errlen, "out of memory");
		bs_cmp_result_free(out);
	}
	gsl_rng_free(rng);
	free(rep);
	return ret;
}
