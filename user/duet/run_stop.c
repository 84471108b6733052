// SPDX-License-Identifier: MIT
/*
 * run_stop.c - `duet --stop-ci WIDTH`: after each run, the CI test of
 * the primary method on the runs so far (stats/ bs_duet_analyze, on the
 * iteration records the runner kept), and the decision to stop once the
 * relative CI width of the paired difference is at most WIDTH.
 */
#include "duet/run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchscope/stats.h"
#include "trace/gbench_runs.h"
#include "util/monotime.h"

/* One side of one run, one benchmark: intervals and scores. */
struct qside {
	struct bs_iter *iv;
	double *score;
	size_t n;
};

static int cmp_begin(const void *a, const void *b)
{
	const struct bs_iter_rec *x = a, *y = b;

	return x->begin_ns < y->begin_ns ? -1 : x->begin_ns > y->begin_ns;
}

/*
 * Side `sd` split by benchmark: groups[g] for g < *n_groups (malloc'd).
 * Google Benchmark runs (invocation counts) are grouped by benchmark with
 * calibration runs left out; other iterations are one group.
 */
static int split_side(const struct bs_duet_side *sd, struct qside **groups, long *n_groups)
{
	struct bs_iter_rec *it = NULL;
	long *grp = NULL, ng = 1, g;
	struct qside *q = NULL;
	size_t i, n = sd->n_iters <= sd->cap_iters ? sd->n_iters : sd->cap_iters;
	bool invoc = false;
	int rc = -ENOMEM;

	*groups = NULL;
	*n_groups = 0;
	if (!n)
		return 0;
	it = malloc(n * sizeof(*it));
	grp = calloc(n, sizeof(*grp));
	if (!it || !grp)
		goto out;
	memcpy(it, sd->iters, n * sizeof(*it));
	qsort(it, n, sizeof(*it), cmp_begin);
	for (i = 0; i < n; i++)
		if (it[i].flags & BS_ITER_F_INVOC)
			invoc = true;
	if (invoc) {
		ng = bs_gbench_group_runs(it, n, grp);
		if (ng < 0) {
			rc = (int)ng;
			goto out;
		}
	}
	q = calloc(ng > 0 ? (size_t)ng : 1, sizeof(*q));
	if (!q)
		goto out;
	for (g = 0; g < ng; g++) {
		q[g].iv = malloc(n * sizeof(*q[g].iv));
		q[g].score = malloc(n * sizeof(*q[g].score));
		if (!q[g].iv || !q[g].score)
			goto out;
	}
	for (i = 0; i < n; i++) {
		struct qside *t;

		if (grp[i] < 0 || grp[i] >= ng || it[i].end_ns < it[i].begin_ns)
			continue;
		t = &q[grp[i]];
		t->iv[t->n].start_ns = (int64_t)it[i].begin_ns;
		t->iv[t->n].end_ns = (int64_t)it[i].end_ns;
		t->score[t->n] = (double)(it[i].end_ns - it[i].begin_ns);
		if (invoc && it[i].invocations)
			t->score[t->n] /= (double)it[i].invocations;
		t->n++;
	}
	*groups = q;
	*n_groups = ng;
	q = NULL;
	rc = 0;
out:
	if (q) {
		for (g = 0; g < ng; g++)
			free(q[g].iv), free(q[g].score);
		free(q);
	}
	free(it);
	free(grp);
	return rc;
}

static void free_groups(struct qside *q, long n)
{
	long g;

	for (g = 0; q && g < n; g++)
		free(q[g].iv), free(q[g].score);
	free(q);
}

static enum bs_duet_type stats_type(int method)
{
	return method == BS_DM_RUN_SEQ				     ? BS_DUET_SEQUENTIAL
	       : method == BS_DM_RUN_SYNC || method == BS_DM_RUN_ILV ? BS_DUET_SYNC
								     : BS_DUET_ASYNC;
}

int bs_duet_ci_of_runs(const struct bs_duet_runres *res, size_t n, int method, double min_overlap,
		       size_t n_resamples, uint64_t seed, struct bs_duet_quick *out, size_t max_out,
		       size_t *n_out)
{
	struct qside **ga = calloc(n ? n : 1, sizeof(*ga)), **gb = calloc(n ? n : 1, sizeof(*gb));
	long *na = calloc(n ? n : 1, sizeof(*na)), *nb = calloc(n ? n : 1, sizeof(*nb));
	struct bs_duet_run *runs = calloc(n ? n : 1, sizeof(*runs));
	long max_g = 0, g;
	size_t i, k = 0;
	int rc = 0;

	*n_out = 0;
	if (!ga || !gb || !na || !nb || !runs) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!res[i].ok || res[i].plan.method != method)
			continue;
		if (split_side(&res[i].side[0], &ga[i], &na[i]) ||
		    split_side(&res[i].side[1], &gb[i], &nb[i])) {
			rc = -ENOMEM;
			goto out;
		}
		if (na[i] > max_g)
			max_g = na[i];
	}
	for (g = 0; g < max_g && k < max_out; g++) {
		struct bs_duet_opts o = {0};
		struct bs_duet_result r;
		struct bs_duet_quick *q = &out[k];
		size_t nr = 0;
		int src;

		for (i = 0; i < n; i++) {
			if (g >= na[i] || g >= nb[i] || !ga[i][g].n || !gb[i][g].n)
				continue;
			runs[nr].a = ga[i][g].iv;
			runs[nr].na = ga[i][g].n;
			runs[nr].score_a = ga[i][g].score;
			runs[nr].b = gb[i][g].iv;
			runs[nr].nb = gb[i][g].n;
			runs[nr].score_b = gb[i][g].score;
			nr++;
		}
		if (!nr)
			continue;
		o.type = stats_type(method);
		o.min_overlap = min_overlap > 0 ? min_overlap : 0.4;
		o.n_resamples = n_resamples;
		o.seed = seed;
		memset(q, 0, sizeof(*q));
		q->n_runs = nr;
		q->rel_ci_width = q->slow_pct = q->lo_pct = q->hi_pct = NAN;
		src = bs_duet_analyze(runs, nr, &o, &r);
		k++;
		if (src != BS_OK && src != BS_ETIED) {
			if (!rc)
				rc = -EDOM;
			continue;
		}
		q->n_pairs = r.n_pairs;
		q->rel_ci_width = r.rel_ci_width;
		if (r.mean_a > 0) {
			q->slow_pct = (r.mean_b - r.mean_a) / r.mean_a * 100;
			q->lo_pct = -r.ci.hi / r.mean_a * 100;
			q->hi_pct = -r.ci.lo / r.mean_a * 100;
		}
		q->differs = r.ci_differs;
	}
	*n_out = k;
	if (!k && !rc)
		rc = -ENODATA;
out:
	for (i = 0; i < n; i++) {
		if (ga)
			free_groups(ga[i], na ? na[i] : 0);
		if (gb)
			free_groups(gb[i], nb ? nb[i] : 0);
	}
	free(ga);
	free(gb);
	free(na);
	free(nb);
	free(runs);
	return rc;
}

json_object *bs_duet_stop_check(const struct bs_duet_runres *res, size_t n, int method,
				size_t min_runs, double threshold, double min_overlap,
				uint64_t seed, double *width, bool *stop)
{
	struct bs_duet_quick q[64];
	json_object *ev = json_object_new_object(), *per = json_object_new_array();
	uint64_t t0, t1;
	size_t i, nq = 0, ok = 0;
	double w = NAN;
	int rc;

	t0 = bs_mono_ns();
	for (i = 0; i < n; i++)
		if (res[i].ok && res[i].plan.method == method)
			ok++;
	rc = ok >= 2 ? bs_duet_ci_of_runs(res, n, method, min_overlap, 2000, seed, q, 64, &nq)
		     : -ENODATA;
	for (i = 0; i < nq; i++) {
		json_object_array_add(per, isfinite(q[i].rel_ci_width)
					       ? json_object_new_double(q[i].rel_ci_width)
					       : NULL);
		if (!isfinite(q[i].rel_ci_width))
			rc = rc ? rc : -EDOM;
		else if (isnan(w) || q[i].rel_ci_width > w)
			w = q[i].rel_ci_width;
	}
	if (rc)
		w = NAN; /* a benchmark without a width: not stable yet */
	t1 = bs_mono_ns();
	*width = w;
	*stop = ok >= min_runs && isfinite(w) && w <= threshold;
	json_object_object_add(ev, "kind", json_object_new_string("duet_stop_check"));
	json_object_object_add(ev, "after_run", json_object_new_int64(n ? res[n - 1].run : -1));
	json_object_object_add(ev, "method", json_object_new_string(bs_duet_method_name(method)));
	json_object_object_add(ev, "runs_ok", json_object_new_int64((int64_t)ok));
	json_object_object_add(ev, "min_runs", json_object_new_int64((int64_t)min_runs));
	json_object_object_add(ev, "rel_ci_width", isfinite(w) ? json_object_new_double(w) : NULL);
	json_object_object_add(ev, "rel_ci_width_per_benchmark", per);
	json_object_object_add(ev, "threshold", json_object_new_double(threshold));
	json_object_object_add(ev, "decision", json_object_new_string(*stop ? "stop" : "continue"));
	json_object_object_add(ev, "compute_ns", json_object_new_int64((int64_t)(t1 - t0)));
	return ev;
}
