// SPDX-License-Identifier: MIT
/*
 * duet_model.c - the run-level duet model with CPU placement terms and its
 * t interval (stats_duet_model.h; Jones & Kenward 2014 §2, Kalibera & Jones
 * 2013 §4).
 */
#include "benchscope/stats_duet_model.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>

#include "benchscope/stats_desc.h"

/* A column is kept when projecting out the kept ones leaves more than this
 * fraction of its norm; the intercept is confounded when less is left. */
#define DEP_TOL 1e-9

double bs_dmodel_run_x(const struct bs_dmodel_run *run, int cpu)
{
	if (!run)
		return NAN;
	for (size_t i = 0; i < run->n_share; i++)
		if (run->share[i].cpu == cpu)
			return run->share[i].b - run->share[i].a;
	return 0;
}

double bs_dmodel_run_cpu_ratio(const struct bs_dmodel_result *r, double y, double x)
{
	if (!r || r->n_terms != 1 || !(fabs(x) >= 0.5))
		return NAN;
	return exp((y - r->v) / x);
}

/* every y finite, every CPU and share in range; marks the CPUs that held
 * one side more than the other in some run */
static int check_runs(const struct bs_dmodel_run *runs, size_t n_runs, bool *used)
{
	for (size_t k = 0; k < n_runs; k++) {
		if (!runs[k].n)
			continue;
		if (!isfinite(runs[k].y))
			return BS_ENONFINITE;
		if (runs[k].n_share && !runs[k].share)
			return BS_EINVAL;
		for (size_t i = 0; i < runs[k].n_share; i++) {
			const struct bs_dmodel_share *q = &runs[k].share[i];

			/* shares summed from 1/n steps may pass 1 by a rounding */
			if (q->cpu < 0 || q->cpu >= BS_DMODEL_MAX_CPU ||
			    !(q->a >= 0 && q->a <= 1 + 1e-9) || !(q->b >= 0 && q->b <= 1 + 1e-9))
				return BS_EINVAL;
			if (q->a != q->b)
				used[q->cpu] = true;
		}
	}
	return BS_OK;
}

/* v minus its projection on the orthonormal columns q[0..m-1] (length n) */
static void project_out(double *v, double *const *q, size_t m, size_t n)
{
	for (size_t j = 0; j < m; j++) {
		double d = 0;

		for (size_t i = 0; i < n; i++)
			d += v[i] * q[j][i];
		for (size_t i = 0; i < n; i++)
			v[i] -= d * q[j][i];
	}
}

static double norm(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i] * v[i];
	return sqrt(s);
}

/*
 * Choose the placement columns: CPUs that ever held one side apart from the
 * other, the lowest as reference, the others kept while linearly
 * independent (modified Gram-Schmidt). x[j] is CPU cpu's column. Fills
 * r->term_cpu, r->n_terms, r->ref_cpu and term_col (the kept columns).
 * Returns BS_OK, BS_ECONFOUNDED (the intercept is in their span), BS_EINVAL
 * (more than BS_DMODEL_MAX_TERMS terms), BS_ENOMEM.
 */
static int choose_terms(const struct bs_dmodel_run *runs, const size_t *obs, size_t n,
			const bool *used, struct bs_dmodel_result *r, double **term_col)
{
	double *q[BS_DMODEL_MAX_TERMS + 1] = {0}, *ones = NULL;
	int ret = BS_OK;
	size_t m = 0;

	r->ref_cpu = -1;
	for (int c = 0; c < BS_DMODEL_MAX_CPU && ret == BS_OK; c++) {
		double *col, *w, nc;

		if (!used[c])
			continue;
		if (r->ref_cpu < 0) {
			r->ref_cpu = c;
			continue;
		}
		col = malloc(n * sizeof(*col));
		w = malloc(n * sizeof(*w));
		if (!col || !w) {
			free(col);
			free(w);
			ret = BS_ENOMEM;
			break;
		}
		for (size_t i = 0; i < n; i++)
			w[i] = col[i] = bs_dmodel_run_x(&runs[obs[i]], c);
		nc = norm(col, n);
		project_out(w, q, m, n);
		if (nc > 0 && norm(w, n) > DEP_TOL * nc) {
			if (m == BS_DMODEL_MAX_TERMS) {
				free(col);
				free(w);
				ret = BS_EINVAL;
				break;
			}
			double nw = norm(w, n);

			for (size_t i = 0; i < n; i++)
				w[i] /= nw;
			q[m] = w;
			term_col[m] = col;
			r->term_cpu[m++] = c;
		} else {
			free(col);
			free(w);
		}
	}
	r->n_terms = m;
	if (ret == BS_OK && m) {
		ones = malloc(n * sizeof(*ones));
		if (!ones) {
			ret = BS_ENOMEM;
		} else {
			for (size_t i = 0; i < n; i++)
				ones[i] = 1;
			project_out(ones, q, m, n);
			if (norm(ones, n) <= DEP_TOL * sqrt((double)n)) {
				r->confounded_cpu = r->term_cpu[0];
				ret = BS_ECONFOUNDED;
			}
		}
	}
	free(ones);
	for (size_t j = 0; j < m; j++)
		free(q[j]);
	return ret;
}

/* least squares of y on [1, cols] by the normal equations (Cholesky; the
 * columns are independent, checked above); fills v, se, the terms and
 * their standard errors, resid_sd */
static int least_squares(const double *y, double *const *cols, size_t n, size_t m,
			 struct bs_dmodel_result *r)
{
	size_t p = m + 1;
	gsl_matrix *xtx = gsl_matrix_alloc(p, p);
	double xty[BS_DMODEL_MAX_TERMS + 1] = {0}, beta[BS_DMODEL_MAX_TERMS + 1] = {0};
	double rss = 0, ymax = 0;
	int ret = BS_OK;

	if (!xtx)
		return BS_ENOMEM;
#define COL(j, i) ((j) ? cols[(j)-1][i] : 1.0)
	for (size_t a = 0; a < p; a++) {
		for (size_t b = 0; b < p; b++) {
			double s = 0;

			for (size_t i = 0; i < n; i++)
				s += COL(a, i) * COL(b, i);
			gsl_matrix_set(xtx, a, b, s);
		}
		for (size_t i = 0; i < n; i++)
			xty[a] += COL(a, i) * y[i];
	}
	gsl_set_error_handler_off();
	if (gsl_linalg_cholesky_decomp1(xtx) || gsl_linalg_cholesky_invert(xtx)) {
		ret = BS_ECONFOUNDED;
		goto out;
	}
	for (size_t a = 0; a < p; a++)
		for (size_t b = 0; b < p; b++)
			beta[a] += gsl_matrix_get(xtx, a, b) * xty[b];
	for (size_t i = 0; i < n; i++) {
		double fit = 0;

		for (size_t a = 0; a < p; a++)
			fit += beta[a] * COL(a, i);
		rss += (y[i] - fit) * (y[i] - fit);
		ymax = fmax(ymax, fabs(y[i]));
	}
#undef COL
	r->v = beta[0];
	for (size_t j = 0; j < m; j++)
		r->term_effect[j] = beta[j + 1];
	/* all residuals 0 up to rounding: no spread to build an interval on */
	if (rss <= (double)n * 1e-28 * fmax(ymax * ymax, 1e-300)) {
		ret = BS_EZEROVAR;
		goto out;
	}
	r->resid_sd = sqrt(rss / (double)r->df);
	r->se = r->resid_sd * sqrt(gsl_matrix_get(xtx, 0, 0));
	for (size_t j = 0; j < m; j++)
		r->term_se[j] = r->resid_sd * sqrt(gsl_matrix_get(xtx, j + 1, j + 1));
out:
	gsl_matrix_free(xtx);
	return ret;
}

int bs_dmodel_fit(const struct bs_dmodel_run *runs, size_t n_runs, const struct bs_dmodel_opts *o,
		  struct bs_dmodel_result *out)
{
	double level = o && o->level ? o->level : 0.95;
	double *term_col[BS_DMODEL_MAX_TERMS] = {0}, *y = NULL;
	bool *used = NULL;
	size_t *obs = NULL, n = 0;
	int ret;

	if ((!runs && n_runs) || !out || !(level > 0 && level < 1))
		return BS_EINVAL;
	memset(out, 0, sizeof(*out));
	out->level = level;
	out->ref_cpu = out->confounded_cpu = -1;
	used = calloc(BS_DMODEL_MAX_CPU, sizeof(*used));
	obs = malloc((n_runs + 1) * sizeof(*obs));
	y = malloc((n_runs + 1) * sizeof(*y));
	if (!used || !obs || !y) {
		ret = BS_ENOMEM;
		goto out;
	}
	ret = check_runs(runs, n_runs, used);
	if (ret)
		goto out;
	for (size_t k = 0; k < n_runs; k++) {
		if (!runs[k].n)
			continue;
		y[n] = runs[k].y;
		out->n_pairs += runs[k].n;
		obs[n++] = k;
	}
	out->n_runs = n;
	if (!n) {
		ret = BS_EEMPTY;
		goto out;
	}
	if (o && o->no_cpu)
		memset(used, 0, BS_DMODEL_MAX_CPU * sizeof(*used));
	ret = choose_terms(runs, obs, n, used, out, term_col);
	if (ret)
		goto out;
	if (n <= 1 + out->n_terms) {
		ret = BS_ETOOFEW;
		goto out;
	}
	out->df = n - 1 - out->n_terms;
	ret = least_squares(y, term_col, n, out->n_terms, out);
	if (ret)
		goto out;
	out->t_crit = gsl_cdf_tdist_Pinv((1 + level) / 2, (double)out->df);
	out->lo = out->v - out->t_crit * out->se;
	out->hi = out->v + out->t_crit * out->se;
	out->p = 2 * gsl_cdf_tdist_Q(fabs(out->v / out->se), (double)out->df);
	out->mds = expm1(out->t_crit * out->se);
out:
	for (size_t j = 0; j < BS_DMODEL_MAX_TERMS; j++)
		free(term_col[j]);
	free(used);
	free(obs);
	free(y);
	return ret;
}
