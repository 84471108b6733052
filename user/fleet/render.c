// SPDX-License-Identifier: MIT
/* render.c - the fleet report: table, JSON, CSV (analysis.h). */
#include "fleet/analysis.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/output.h"
#include "util/table.h"
#include "util/units.h"

#define CELL 96

/* The figure of an interval as text: a time or a ratio. */
static void fig(const struct bs_fleet_analysis *a, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (a->duet)
		snprintf(buf, len, "%.4f", v);
	else
		bs_fmt_ns(v, buf, len);
}

/* The unit of member @cl's figures (fleet row: @cl NULL), as JSON and CSV
 * name it. */
static const char *unit_of(const struct bs_fleet_analysis *a, const struct bs_fleet_bench *b,
			   const struct bs_fleet_cell *cl)
{
	if (a->duet)
		return "ratio";
	if (!cl && b->mixed_units)
		return "mixed";
	return (cl ? cl->per_op : b->per_op) ? "ns/invocation" : "ns/iteration";
}

/* A duet MDS (fraction) as text: "1.2 %"; "n/a" without an interval or
 * when no slowdown up to 100 % is detected. */
static void mds(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.1f %%", 100 * v);
}

static void bench_table(FILE *f, const struct bs_fleet_analysis *a, const struct bs_fleet_bench *b)
{
	static const char *const hdr[] = {"member", "host",    "runs",	   "iterations", "",
					  "CI low", "CI high", "vs fleet", "MDS"};
	static const int right[] = {1, 0, 1, 1, 1, 1, 1, 1, 1};
	enum { NC = 9 };
	const struct bs_fleet *fl = a->fleet;
	const int ncols = a->duet ? NC : NC - 1; /* MDS: duets only */
	char(*c)[CELL] = calloc(fl->n_members * NC, CELL);
	const char **cells = calloc(fl->n_members * NC, sizeof(*cells));
	const char *h[NC];
	char lo[32], hi[32], pt[32], verdict[128];
	size_t rows = 0;

	if (!c || !cells) {
		free(c);
		free(cells);
		return;
	}
	memcpy(h, hdr, sizeof(h));
	h[4] = a->duet		? "B/A"
	       : b->mixed_units ? "time (/op) or duration"
	       : b->per_op	? "time/op"
				: "duration";
	fig(a, b->has_ci ? b->combined.point : NAN, pt, sizeof(pt));
	fig(a, b->has_ci ? b->combined.lo : NAN, lo, sizeof(lo));
	fig(a, b->has_ci ? b->combined.hi : NAN, hi, sizeof(hi));
	if (b->has_ci) {
		fprintf(f, "\n%s: %s [%s, %s] over %zu machine%s", b->name, pt, lo, hi, b->members,
			b->members == 1 ? "" : "s");
		if (a->duet) {
			bs_fleet_verdict(&b->combined, verdict, sizeof(verdict));
			fprintf(f, ": %s", verdict);
			mds(b->mds, verdict, sizeof(verdict));
			fprintf(f, "; MDS %s", verdict);
		}
		fprintf(f, "\n");
	} else {
		fprintf(f, "\n%s: %zu machine%s, no fleet interval: %s\n", b->name, b->members,
			b->members == 1 ? "" : "s", b->withheld);
	}
	if (b->left_out)
		fprintf(f,
			"  %zu member%s left out: %s own duet analysis withholds the verdict: %s\n",
			b->left_out, b->left_out == 1 ? "" : "s",
			b->left_out == 1 ? "its" : "their", b->left_out_why);
	for (size_t m = 0; m < fl->n_members; m++) {
		const struct bs_fleet_cell *cl = &b->cell[m];
		char(*r)[CELL] = &c[rows * NC];

		if (!cl->present)
			continue;
		snprintf(r[0], CELL, "%zu", m + 1);
		snprintf(r[1], CELL, "%.40s", a->machines[m].hostname);
		snprintf(r[2], CELL, "%zu", cl->runs);
		snprintf(r[3], CELL, "%zu", cl->iters);
		fig(a, cl->has_ci ? cl->ci.point : NAN, r[4], CELL);
		fig(a, cl->has_ci ? cl->ci.lo : NAN, r[5], CELL);
		fig(a, cl->has_ci ? cl->ci.hi : NAN, r[6], CELL);
		for (int k = 4; k < 7 && b->mixed_units && cl->per_op && cl->has_ci && !a->duet;
		     k++)
			strncat(r[k], "/op", CELL - strlen(r[k]) - 1);
		if (cl->left_out)
			snprintf(r[7], CELL, "left out (see above)");
		else if (!cl->has_ci)
			snprintf(r[7], CELL, "n/a: %s", cl->withheld ?: "no interval");
		else if (a->duet)
			bs_fleet_verdict(&cl->ci, r[7], CELL);
		else if (b->has_ci)
			snprintf(r[7], CELL, "%+.1f %%",
				 100 * (cl->ci.point / b->combined.point - 1));
		else
			snprintf(r[7], CELL, "n/a");
		mds(cl->mds, r[8], CELL);
		for (int k = 0; k < ncols; k++)
			cells[rows * (size_t)ncols + (size_t)k] = r[k];
		rows++;
	}
	if (a->duet)
		h[7] = "verdict";
	bs_table_print(f, h, cells, rows, (size_t)ncols, right,
		       &(struct bs_table_style){.indent = "  "});
	free(c);
	free(cells);
}

static void noise_table(FILE *f, const struct bs_fleet_analysis *a)
{
	static const char *const hdr[] = {"member",	 "host",      "cpu model", "hypervisor",
					  "speed",	 "preempted", "steal",	   "migr/iter",
					  "noise check", "outlier"};
	static const int right[] = {1, 0, 0, 0, 1, 1, 1, 1, 0, 0};
	enum { NC = 10 };
	const struct bs_fleet *fl = a->fleet;
	char(*c)[CELL] = calloc(fl->n_members * NC, CELL);
	const char **cells = calloc(fl->n_members * NC, sizeof(*cells));

	if (!c || !cells) {
		free(c);
		free(cells);
		return;
	}
	for (size_t m = 0; m < fl->n_members; m++) {
		const struct bs_fleet_machine *mc = &a->machines[m];
		char(*r)[CELL] = &c[m * NC];

		snprintf(r[0], CELL, "%zu", m + 1);
		snprintf(r[1], CELL, "%.40s", mc->hostname);
		snprintf(r[2], CELL, "%.40s", mc->cpu_model);
		snprintf(r[3], CELL, "%.20s", mc->hypervisor);
		if (isnan(mc->speed))
			snprintf(r[4], CELL, "n/a");
		else
			snprintf(r[4], CELL, "%+.1f %%", 100 * (mc->speed - 1));
		bs_fmt_pct(mc->preempt_share, r[5], CELL);
		bs_fmt_pct(mc->steal_share, r[6], CELL);
		if (isnan(mc->migrations))
			snprintf(r[7], CELL, "n/a");
		else
			snprintf(r[7], CELL, "%.2f", mc->migrations);
		snprintf(r[8], CELL, "%s", mc->has_noise ? mc->noise : "-");
		snprintf(r[9], CELL, "%s", mc->outlier ? "OUTLIER" : "");
		for (int k = 0; k < NC; k++)
			cells[m * NC + (size_t)k] = r[k];
	}
	fprintf(f, "\nMachines (speed: time relative to the fleet median, + is slower; preempted "
		   "and steal: share of the iterations' time)\n");
	bs_table_print(f, hdr, cells, fl->n_members, NC, right,
		       &(struct bs_table_style){.indent = "  "});
	free(c);
	free(cells);
	if (!a->n_outliers)
		fprintf(f,
			"  no outlier machine (|log speed - median| > %.0f MADs and > %.0f %%)\n",
			BS_FLEET_OUTLIER_MADS, 100 * BS_FLEET_OUTLIER_FLOOR);
	for (size_t m = 0; m < fl->n_members; m++)
		if (a->machines[m].outlier)
			fprintf(f, "  %s\n", a->machines[m].why);
}

static void table(FILE *f, const struct bs_fleet_analysis *a)
{
	size_t runs = 0, iters = 0;

	for (size_t m = 0; m < a->fleet->n_members; m++)
		iters += a->machines[m].iters;
	for (size_t b = 0; b < a->n_benches; b++)
		for (size_t m = 0; m < a->fleet->n_members; m++)
			runs += a->benches[b].cell[m].runs;
	fprintf(f, "Fleet %s: %zu %s traces, %zu benchmark%s, %zu iterations\n", a->fleet->path,
		a->fleet->n_members, a->fleet->kind, a->n_benches, a->n_benches == 1 ? "" : "s",
		iters);
	fprintf(f,
		"  intervals: 95 %%, hierarchical bootstrap machine -> %s -> iteration, %d "
		"resamples%s%s%s\n",
		a->duet ? "run" : "run (process)", BS_FLEET_RESAMPLES,
		a->duet ? "; duet method " : "", a->duet ? a->method ?: "?" : "",
		a->drop_warmup_half ? "; first half of each run's iterations dropped" : "");
	for (size_t b = 0; b < a->n_benches; b++)
		bench_table(f, a, &a->benches[b]);
	noise_table(f, a);
	(void)runs;
}

static json_object *num(double v)
{
	return isnan(v) || isinf(v) ? NULL : json_object_new_double(v);
}

static json_object *ci_json(const struct bs_fleet_analysis *a, const struct bs_ci *ci, bool ok)
{
	json_object *o;
	char v[128];

	if (!ok)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "point", num(ci->point));
	json_object_object_add(o, "lo", num(ci->lo));
	json_object_object_add(o, "hi", num(ci->hi));
	json_object_object_add(o, "level", num(ci->level));
	if (a->duet) {
		bs_fleet_verdict(ci, v, sizeof(v));
		json_object_object_add(o, "verdict", json_object_new_string(v));
	}
	return o;
}

/* A machine's fact as JSON: null when the trace does not say ("?"). */
static json_object *known(const char *s)
{
	return strcmp(s, "?") ? json_object_new_string(s) : NULL;
}

static json_object *doc(const struct bs_fleet_analysis *a)
{
	json_object *o = json_object_new_object(), *bs = json_object_new_array();
	json_object *ms = json_object_new_array(), *rule = json_object_new_object();

	json_object_object_add(o, "kind", json_object_new_string(a->fleet->kind));
	json_object_object_add(o, "members", json_object_new_int64((int64_t)a->fleet->n_members));
	if (a->method)
		json_object_object_add(o, "method", json_object_new_string(a->method));
	if (a->duet)
		json_object_object_add(o, "drop_warmup_half",
				       json_object_new_boolean(a->drop_warmup_half));
	json_object_object_add(o, "statistic",
			       json_object_new_string(a->duet ? "ratio of means B/A"
							      : "mean time per invocation, ns"));
	json_object_object_add(o, "resampling",
			       json_object_new_string("machine -> run -> iteration"));
	json_object_object_add(o, "resamples", json_object_new_int(BS_FLEET_RESAMPLES));
	for (size_t b = 0; b < a->n_benches; b++) {
		const struct bs_fleet_bench *fb = &a->benches[b];
		json_object *bo = json_object_new_object(), *pm = json_object_new_array();

		json_object_object_add(bo, "name", json_object_new_string(fb->name));
		json_object_object_add(bo, "unit", json_object_new_string(unit_of(a, fb, NULL)));
		json_object_object_add(bo, "machines", json_object_new_int64((int64_t)fb->members));
		if (a->duet) {
			json_object_object_add(bo, "left_out",
					       json_object_new_int64((int64_t)fb->left_out));
			json_object_object_add(
			    bo, "left_out_why",
			    fb->left_out ? json_object_new_string(fb->left_out_why) : NULL);
		}
		json_object_object_add(bo, "combined", ci_json(a, &fb->combined, fb->has_ci));
		json_object_object_add(bo, "withheld",
				       fb->has_ci ? NULL : json_object_new_string(fb->withheld));
		if (a->duet)
			json_object_object_add(bo, "mds_pct", bs_json_double(100 * fb->mds));
		for (size_t m = 0; m < a->fleet->n_members; m++) {
			const struct bs_fleet_cell *cl = &fb->cell[m];
			json_object *co;

			if (!cl->present)
				continue;
			co = json_object_new_object();
			json_object_object_add(co, "member", json_object_new_int64((int64_t)m + 1));
			json_object_object_add(co, "unit",
					       json_object_new_string(unit_of(a, fb, cl)));
			json_object_object_add(co, "runs",
					       json_object_new_int64((int64_t)cl->runs));
			json_object_object_add(co, "iterations",
					       json_object_new_int64((int64_t)cl->iters));
			if (a->duet)
				json_object_object_add(co, "left_out",
						       json_object_new_boolean(cl->left_out));
			json_object_object_add(co, "ci", ci_json(a, &cl->ci, cl->has_ci));
			json_object_object_add(
			    co, "withheld",
			    cl->has_ci ? NULL : json_object_new_string(cl->withheld ?: "?"));
			if (a->duet)
				json_object_object_add(co, "mds_pct",
						       bs_json_double(100 * cl->mds));
			json_object_array_add(pm, co);
		}
		json_object_object_add(bo, "per_member", pm);
		json_object_array_add(bs, bo);
	}
	json_object_object_add(o, "benchmarks", bs);
	for (size_t m = 0; m < a->fleet->n_members; m++) {
		const struct bs_fleet_machine *mc = &a->machines[m];
		json_object *mo = json_object_new_object();

		json_object_object_add(mo, "member", json_object_new_int64((int64_t)m + 1));
		json_object_object_add(mo, "source",
				       json_object_new_string(a->fleet->members[m].source));
		json_object_object_add(mo, "hostname", known(mc->hostname));
		json_object_object_add(mo, "cpu_model", known(mc->cpu_model));
		json_object_object_add(mo, "hypervisor", known(mc->hypervisor));
		json_object_object_add(mo, "iterations", json_object_new_int64((int64_t)mc->iters));
		json_object_object_add(mo, "speed", num(mc->speed));
		json_object_object_add(mo, "preempted_share", num(mc->preempt_share));
		json_object_object_add(mo, "steal_share", num(mc->steal_share));
		json_object_object_add(mo, "migrations_per_iteration", num(mc->migrations));
		json_object_object_add(mo, "noise_check",
				       mc->has_noise ? json_object_new_string(mc->noise) : NULL);
		json_object_object_add(mo, "outlier", json_object_new_boolean(mc->outlier));
		json_object_object_add(mo, "why",
				       mc->outlier ? json_object_new_string(mc->why) : NULL);
		json_object_array_add(ms, mo);
	}
	json_object_object_add(o, "machines", ms);
	json_object_object_add(rule, "mads", json_object_new_double(BS_FLEET_OUTLIER_MADS));
	json_object_object_add(rule, "floor", json_object_new_double(BS_FLEET_OUTLIER_FLOOR));
	json_object_object_add(rule, "speed_mad", num(a->speed_mad));
	json_object_object_add(o, "outlier_rule", rule);
	return o;
}

/* ",v" (%.10g), or "," alone when v is NaN or infinite: an empty cell. */
static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.10g", v);
	else
		fputc(',', f);
}

/* The CSV row's figures from point on: point, lo, hi, unit, mds_pct,
 * withheld (empty cells for an interval withheld, and the reason). */
static void csv_interval(FILE *f, bool has_ci, const struct bs_ci *ci, const char *unit, double mds,
			 const char *withheld)
{
	csv_num(f, has_ci ? ci->point : NAN);
	csv_num(f, has_ci ? ci->lo : NAN);
	csv_num(f, has_ci ? ci->hi : NAN);
	fprintf(f, ",%s", unit);
	csv_num(f, 100 * mds);
	fputc(',', f);
	bs_output_csv_field(f, has_ci ? "" : withheld);
	fputc('\n', f);
}

static void csv(FILE *f, const struct bs_fleet_analysis *a)
{
	fprintf(f, "benchmark,member,hostname,runs,iterations,point,lo,hi,unit,mds_pct,withheld\n");
	for (size_t b = 0; b < a->n_benches; b++) {
		const struct bs_fleet_bench *fb = &a->benches[b];

		bs_output_csv_field(f, fb->name);
		fprintf(f, ",fleet,,,");
		csv_interval(f, fb->has_ci, &fb->combined, unit_of(a, fb, NULL), fb->mds,
			     fb->withheld);
		for (size_t m = 0; m < a->fleet->n_members; m++) {
			const struct bs_fleet_cell *cl = &fb->cell[m];

			if (!cl->present)
				continue;
			bs_output_csv_field(f, fb->name);
			fprintf(f, ",%zu,", m + 1);
			bs_output_csv_field(f, a->machines[m].hostname);
			fprintf(f, ",%zu,%zu", cl->runs, cl->iters);
			csv_interval(f, cl->has_ci, &cl->ci, unit_of(a, fb, cl), cl->mds,
				     cl->withheld ?: "?");
		}
	}
}

int bs_fleet_render(const struct bs_fleet_analysis *a, const struct bs_fleet_render_opts *o,
		    char *err, size_t errlen)
{
	FILE *f;
	int ret = 0;

	if (!o->no_table && !bs_output_is_stdout(o->json_path) &&
	    !bs_output_is_stdout(o->csv_path)) {
		table(stdout, a);
		if ((ret = bs_output_flush_stdout(err, errlen)))
			return ret;
	}
	if (o->json_path) {
		json_object *d = doc(a);

		f = bs_output_open(o->json_path, err, errlen);
		if (!f) {
			json_object_put(d);
			return -errno;
		}
		fprintf(f, "%s\n", json_object_to_json_string_ext(d, JSON_C_TO_STRING_PRETTY));
		json_object_put(d);
		ret = bs_output_close(f);
	}
	if (!ret && o->csv_path) {
		f = bs_output_open(o->csv_path, err, errlen);
		if (!f)
			return -errno;
		csv(f, a);
		ret = bs_output_close(f);
	}
	if (ret)
		snprintf(err, errlen, "cannot write the report: %s", strerror(-ret));
	return ret;
}
