// SPDX-License-Identifier: MIT
/* lines_check.c - iteration durations beside the harness's printed figures. */
#include "report/lines_check.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/units.h"

#define SHOWN 8 /* rows listed in the table (all are in the JSON) */

static int cmp_iter(const void *a, const void *b)
{
	const struct bs_iter_rec *x = *(const struct bs_iter_rec *const *)a;
	const struct bs_iter_rec *y = *(const struct bs_iter_rec *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool get_num(json_object *o, const char *k, double *v)
{
	json_object *j;

	if (!json_object_object_get_ex(o, k, &j) ||
	    (!json_object_is_type(j, json_type_double) && !json_object_is_type(j, json_type_int)))
		return false;
	*v = json_object_get_double(j);
	return true;
}

long bs_lines_check(const struct bs_dataset *ds, struct bs_lines_check_row **rows)
{
	const struct bs_iter_rec **idx = NULL;
	struct bs_lines_check_row *out = NULL;
	size_t i, n = 0, nev = ds->events ? json_object_array_length(ds->events) : 0;

	*rows = NULL;
	if (!ds->run_ctx.boundaries_kind || strcmp(ds->run_ctx.boundaries_kind, "lines") ||
	    !ds->n_iters)
		return 0;
	idx = malloc(ds->n_iters * sizeof(*idx));
	out = calloc(ds->n_iters, sizeof(*out));
	if (!idx || !out) {
		free(idx);
		free(out);
		return -ENOMEM;
	}
	for (i = 0; i < ds->n_iters; i++)
		idx[i] = &ds->iters[i];
	qsort(idx, ds->n_iters, sizeof(*idx), cmp_iter);
	for (i = 0; i < nev && n < ds->n_iters; i++) {
		json_object *ev = json_object_array_get_idx(ds->events, i), *j;
		struct bs_iter_rec key = {0}, *kp = &key;
		const struct bs_iter_rec **hit;
		struct bs_lines_check_row *r = &out[n];
		double pid, iter, score_ns, inv;
		bool per_op = false;

		if (!json_object_object_get_ex(ev, "kind", &j) ||
		    strcmp(json_object_get_string(j), "line") || !get_num(ev, "pid", &pid) ||
		    !get_num(ev, "iteration", &iter) || !get_num(ev, "score", &r->score) ||
		    !json_object_object_get_ex(ev, "role", &j) ||
		    !strcmp(json_object_get_string(j), "begin"))
			continue;
		key.pid = (uint32_t)pid;
		key.index = (uint64_t)iter;
		hit = bsearch(&kp, idx, ds->n_iters, sizeof(*idx), cmp_iter);
		if (!hit)
			continue;
		r->it = *hit;
		r->text =
		    json_object_object_get_ex(ev, "text", &j) ? json_object_get_string(j) : "";
		r->theirs_ns = r->ratio = r->implied_invocations = NAN;
		if (json_object_object_get_ex(ev, "per_op", &j))
			per_op = json_object_get_boolean(j);
		if (get_num(ev, "score_ns", &score_ns) && score_ns > 0) {
			double ours = (double)(r->it->end_ns - r->it->begin_ns);

			if (!per_op)
				r->theirs_ns = score_ns;
			else if (get_num(ev, "invocations", &inv) ||
				 (r->it->invocations && (inv = (double)r->it->invocations)))
				r->theirs_ns = score_ns * inv;
			else
				r->implied_invocations = ours / score_ns;
			if (!isnan(r->theirs_ns))
				r->ratio = ours / r->theirs_ns;
		}
		n++;
	}
	free(idx);
	if (!n) {
		free(out);
		return 0;
	}
	*rows = out;
	return (long)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct ratios {
	size_t n, within;
	double median, min, max;
};

static void ratios_of(const struct bs_lines_check_row *r, size_t n, struct ratios *out)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i;

	memset(out, 0, sizeof(*out));
	out->median = out->min = out->max = NAN;
	if (!v)
		return;
	for (i = 0; i < n; i++)
		if (!isnan(r[i].ratio)) {
			v[out->n++] = r[i].ratio;
			out->within += fabs(r[i].ratio - 1) <= 0.01;
		}
	if (out->n) {
		qsort(v, out->n, sizeof(*v), cmp_double);
		out->min = v[0];
		out->max = v[out->n - 1];
		out->median = out->n % 2 ? v[out->n / 2] : (v[out->n / 2 - 1] + v[out->n / 2]) / 2;
	}
	free(v);
}

void bs_lines_check_doc(struct bs_doc *doc, const struct bs_dataset *ds)
{
	struct bs_lines_check_row *r;
	long n = bs_lines_check(ds, &r);
	struct ratios q;
	char c[5][64];
	const char *cells[5];
	long i;

	if (n <= 0)
		return;
	ratios_of(r, (size_t)n, &q);
	bs_doc_table(doc, "Harness's own figures (the (?<score>) of each iteration's end line)",
		     "#\tline\t>harness\t>ours\t>ours/harness");
	for (i = 0; i < n && i < SHOWN; i++) {
		snprintf(c[0], sizeof(c[0]), "%llu", (unsigned long long)r[i].it->index);
		snprintf(c[1], sizeof(c[1]), "%.40s", r[i].text);
		if (!isnan(r[i].theirs_ns))
			bs_fmt_ns(r[i].theirs_ns, c[2], sizeof(c[2]));
		else
			snprintf(c[2], sizeof(c[2]), "%g", r[i].score);
		bs_fmt_ns((double)(r[i].it->end_ns - r[i].it->begin_ns), c[3], sizeof(c[3]));
		if (!isnan(r[i].ratio))
			snprintf(c[4], sizeof(c[4]), "%.4f", r[i].ratio);
		else if (!isnan(r[i].implied_invocations))
			snprintf(c[4], sizeof(c[4]), "%.4g ops", r[i].implied_invocations);
		else
			snprintf(c[4], sizeof(c[4]), "n/a");
		for (int k = 0; k < 5; k++)
			cells[k] = c[k];
		bs_doc_row(doc, cells);
	}
	if (q.n)
		bs_doc_note(
		    doc,
		    "%zu of %ld iterations compared: ours / harness's median %.4f (min %.4f, "
		    "max %.4f), %zu within 1 %%; ours runs from write to write, so it holds "
		    "the harness's own window plus its bookkeeping and printing%s",
		    q.n, n, q.median, q.min, q.max, q.within,
		    n > SHOWN ? "; every row is in the JSON export (lines_check)" : "");
	else
		bs_doc_note(doc,
			    "the scores have no time unit to compare with (give --score-unit or a "
			    "(?<unit>) group); a per-op score without a count gives the implied "
			    "invocations");
	free(r);
}

json_object *bs_lines_check_json(const struct bs_dataset *ds)
{
	struct bs_lines_check_row *r;
	long n = bs_lines_check(ds, &r), i;
	json_object *o, *rows;
	struct ratios q;

	if (n <= 0)
		return NULL;
	ratios_of(r, (size_t)n, &q);
	o = json_object_new_object();
	rows = json_object_new_array();
#define DBL(obj, k, v) json_object_object_add(obj, k, isnan(v) ? NULL : json_object_new_double(v))
	json_object_object_add(o, "n", json_object_new_int64(n));
	json_object_object_add(o, "compared", json_object_new_int64((int64_t)q.n));
	DBL(o, "ratio_median", q.median);
	DBL(o, "ratio_min", q.min);
	DBL(o, "ratio_max", q.max);
	json_object_object_add(o, "within_1pct", json_object_new_int64((int64_t)q.within));
	for (i = 0; i < n; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "pid", json_object_new_int64(r[i].it->pid));
		json_object_object_add(x, "index", json_object_new_int64((int64_t)r[i].it->index));
		json_object_object_add(
		    x, "duration_ns",
		    json_object_new_int64((int64_t)(r[i].it->end_ns - r[i].it->begin_ns)));
		DBL(x, "score", r[i].score);
		DBL(x, "harness_ns", r[i].theirs_ns);
		DBL(x, "ratio", r[i].ratio);
		DBL(x, "implied_invocations", r[i].implied_invocations);
		json_object_array_add(rows, x);
	}
#undef DBL
	json_object_object_add(o, "rows", rows);
	free(r);
	return o;
}
