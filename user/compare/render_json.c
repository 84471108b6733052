// SPDX-License-Identifier: MIT
/* render_json.c - `benchscope compare --json` (see render.h; keys in README). */
#include "compare/render.h"

#include <errno.h>
#include <math.h>

#include <json-c/json.h>

#include "util/json.h"

/* A fraction as a percentage (JSON null when not finite). */
static json_object *jpct(double frac)
{
	return bs_json_double(frac * 100);
}

static json_object *jci(const struct bs_ci *c)
{
	json_object *a = json_object_new_array();

	json_object_array_add(a, bs_json_double(c->lo));
	json_object_array_add(a, bs_json_double(c->hi));
	return a;
}

static json_object *side_json(const struct bs_cmp_bench *b, const struct bs_ci *mean)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mean_ns", mean ? bs_json_double(mean->point) : NULL);
	json_object_object_add(o, "mean_ci_ns", mean ? jci(mean) : NULL);
	json_object_object_add(o, "runs", json_object_new_int64((int64_t)b->n_runs));
	json_object_object_add(o, "iterations", json_object_new_int64((int64_t)b->n));
	return o;
}

static json_object *noise_json(const struct bs_cmp_noise *n)
{
	json_object *o;

	if (!n->known)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "runs_flagged", json_object_new_int64((int64_t)n->n_flagged));
	json_object_object_add(o, "max_preempted_pct", jpct(n->preempted));
	json_object_object_add(o, "max_steal_pct", n->steal_known ? jpct(n->steal) : NULL);
	json_object_object_add(o, "max_migrations_per_s", bs_json_double(n->migr_per_s));
	return o;
}

static json_object *row_json(const struct bs_cmp_row *r)
{
	json_object *o = json_object_new_object(), *u, *nz;
	bool ok = !r->problem;

	json_object_object_add(o, "name", json_object_new_string(r->name));
	json_object_object_add(o, "unit",
			       json_object_new_string(r->a->per_op ? "ns/op" : "ns/iteration"));
	json_object_object_add(o, "a", side_json(r->a, ok ? &r->mean_a : NULL));
	json_object_object_add(o, "b", side_json(r->b, ok ? &r->mean_b : NULL));
	json_object_object_add(o, "ratio", ok ? bs_json_double(r->ratio.point) : NULL);
	json_object_object_add(o, "ratio_ci", ok ? jci(&r->ratio) : NULL);
	json_object_object_add(o, "delta_pct", ok ? jpct(r->ratio.point - 1) : NULL);
	/* compare.py's "Time" column: (new - old) / old as a fraction */
	json_object_object_add(o, "time_rel", ok ? bs_json_double(r->ratio.point - 1) : NULL);
	if (ok) {
		u = json_object_new_object();
		json_object_object_add(
		    u, "unit",
		    json_object_new_string(r->unit == BS_CMP_UNIT_RUNS ? "runs" : "iterations"));
		json_object_object_add(u, "n_a", json_object_new_int64((int64_t)r->u_na));
		json_object_object_add(u, "n_b", json_object_new_int64((int64_t)r->u_nb));
		json_object_object_add(u, "U_a", bs_json_double(r->u.u1));
		json_object_object_add(u, "p", bs_json_double(r->u.p));
		json_object_object_add(u, "p_min", bs_json_double(r->mds.p_min));
		json_object_object_add(u, "needed_per_side",
				       r->u_needed ? json_object_new_int64((int64_t)r->u_needed)
						   : NULL);
		json_object_object_add(o, "u_test", u);
	} else {
		json_object_object_add(o, "u_test", NULL);
	}
	json_object_object_add(o, "mds_pct", ok ? jpct(r->mds.mds) : NULL);
	json_object_object_add(o, "mds_ci_pct", ok ? jpct(r->mds.mds_ci) : NULL);
	json_object_object_add(o, "mds_u_pct", ok ? jpct(r->mds.mds_u) : NULL);
	json_object_object_add(o, "verdict", json_object_new_string(bs_cmp_verdict_word(r)));
	json_object_object_add(o, "regression", json_object_new_boolean(r->regression));
	json_object_object_add(o, "problem",
			       r->problem ? json_object_new_string(r->problem) : NULL);
	nz = json_object_new_object();
	json_object_object_add(nz, "a", noise_json(&r->noise[0]));
	json_object_object_add(nz, "b", noise_json(&r->noise[1]));
	json_object_object_add(o, "noise", nz);
	return o;
}

static json_object *names_json(const char **names, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(names[i]));
	return a;
}

int bs_cmp_render_json(FILE *f, const struct bs_cmp_input *in, const struct bs_cmp_result *r)
{
	json_object *root = json_object_new_object(), *opt, *rows, *g = NULL;
	int ret;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "a", json_object_new_string(in->path[0]));
	json_object_object_add(root, "b", json_object_new_string(in->path[1]));
	opt = json_object_new_object();
	json_object_object_add(opt, "level", bs_json_double(r->opts.level));
	json_object_object_add(opt, "resamples",
			       json_object_new_int64((int64_t)r->opts.n_resamples));
	json_object_object_add(opt, "alpha", bs_json_double(r->opts.alpha));
	json_object_object_add(opt, "seed", json_object_new_int64((int64_t)r->opts.seed));
	json_object_object_add(opt, "fail_on_regression_pct", bs_json_double(r->opts.fail_pct));
	json_object_object_add(root, "options", opt);
	rows = json_object_new_array();
	for (size_t i = 0; i < r->n_rows; i++)
		json_object_array_add(rows, row_json(&r->rows[i]));
	json_object_object_add(root, "benchmarks", rows);
	json_object_object_add(root, "only_a", names_json(r->only_a, r->n_only_a));
	json_object_object_add(root, "only_b", names_json(r->only_b, r->n_only_b));
	if (r->has_geomean) {
		g = json_object_new_object();
		json_object_object_add(g, "ratio", bs_json_double(r->geomean.point));
		json_object_object_add(g, "ratio_ci", jci(&r->geomean));
		json_object_object_add(g, "benchmarks",
				       json_object_new_int64((int64_t)r->n_geomean));
	}
	json_object_object_add(root, "geomean", g);
	json_object_object_add(root, "slower", json_object_new_int64((int64_t)r->n_slower));
	json_object_object_add(root, "faster", json_object_new_int64((int64_t)r->n_faster));
	json_object_object_add(root, "regressions",
			       json_object_new_int64((int64_t)r->n_regressions));
	json_object_object_add(root, "not_tested", json_object_new_int64((int64_t)r->n_untested));
	ret = fprintf(f, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY)) < 0
		  ? -EIO
		  : 0;
	json_object_put(root);
	return ret;
}
