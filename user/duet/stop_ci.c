// SPDX-License-Identifier: MIT
/* stop_ci.c - the --stop-ci rule on the verdict's interval (stop_ci.h). */
#include "duet/stop_ci.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* runs[0..n) of the method in execution order: how many have run <= after */
static size_t runs_upto(const struct bs_drun *runs, size_t n, int after)
{
	size_t k = 0;

	while (k < n && runs[k].run <= after)
		k++;
	return k;
}

/* the reason of a decision whose figures are set */
static void say_why(struct bs_dstop *s)
{
	const char *mn = bs_dmethod_name(s->method);

	if (!s->n_bench) {
		snprintf(s->reason, sizeof(s->reason),
			 "no ok run of %s with iterations on both sides yet", mn);
		return;
	}
	for (size_t i = 0; i < s->n_bench; i++)
		if (isnan(s->bench[i].width)) {
			snprintf(s->reason, sizeof(s->reason), "no interval yet%s%s: %s",
				 s->n_bench > 1 ? " for " : "",
				 s->n_bench > 1 ? s->bench[i].name : "", s->bench[i].why);
			return;
		}
	if (!(s->width <= s->threshold))
		snprintf(s->reason, sizeof(s->reason),
			 "relative CI width %.4g > %g (%zu ok runs of %s)", s->width, s->threshold,
			 s->runs_ok, mn);
	else if (s->runs_ok < s->min_runs)
		snprintf(s->reason, sizeof(s->reason),
			 "relative CI width %.4g <= %g, but %zu ok runs of %s, fewer than the "
			 "minimum %zu",
			 s->width, s->threshold, s->runs_ok, mn, s->min_runs);
	else
		snprintf(s->reason, sizeof(s->reason),
			 "relative CI width %.4g <= %g with %zu ok runs of %s (minimum %zu)",
			 s->width, s->threshold, s->runs_ok, mn, s->min_runs);
}

int bs_duet_stop_decide(const struct bs_duet_data *d, int after_run, enum bs_dmethod m,
			size_t min_runs, double threshold, const struct bs_danalysis_opts *o,
			struct bs_dstop *out)
{
	memset(out, 0, sizeof(*out));
	out->after_run = after_run;
	out->method = m;
	out->min_runs = min_runs;
	out->threshold = threshold;
	out->width = NAN;
	if (o)
		out->opts = *o;
	if (!d || m >= BS_DM_N || bs_danalysis_opts_fill(&out->opts, d))
		return -EINVAL;
	for (size_t k = 0; k < d->n_pidsets; k++)
		out->runs_ok += d->pidsets[k].method == m && d->pidsets[k].run <= after_run;
	out->bench = calloc(d->n_benches + 1, sizeof(*out->bench));
	if (!out->bench)
		return -ENOMEM;
	for (size_t i = 0; i < d->n_benches; i++) {
		const struct bs_dbench *b = &d->benches[i];
		size_t n = runs_upto(b->runs[m], b->n_runs[m], after_run);
		struct bs_dstop_bench *sb = &out->bench[out->n_bench];
		struct bs_dmres r;
		int ret;

		if (!n)
			continue;
		out->n_bench++;
		sb->name = b->name;
		sb->runs = n;
		sb->width = NAN;
		ret = bs_duet_method_model(b, m, n, &out->opts, &r);
		if (ret) {
			bs_dmres_free(&r);
			return ret;
		}
		sb->model_err = r.model_err;
		if (r.model_err == BS_OK && isfinite(r.model.lo) && isfinite(r.model.hi))
			sb->width = exp(r.model.hi) - exp(r.model.lo);
		else if (r.model_err == BS_OK)
			snprintf(sb->why, sizeof(sb->why), "the interval is not finite");
		else
			bs_duet_model_err_text(&r, sb->why, sizeof(sb->why));
		bs_dmres_free(&r);
	}
	for (size_t i = 0; i < out->n_bench; i++) {
		if (isnan(out->bench[i].width)) {
			out->width = NAN;
			break;
		}
		if (!i || out->bench[i].width > out->width)
			out->width = out->bench[i].width;
	}
	out->stop = out->runs_ok >= min_runs && isfinite(out->width) && out->width <= threshold;
	say_why(out);
	return 0;
}

void bs_dstop_free(struct bs_dstop *s)
{
	free(s->bench);
	s->bench = NULL;
	s->n_bench = 0;
}

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

json_object *bs_dstop_event(const struct bs_dstop *s, uint64_t compute_ns)
{
	json_object *ev = json_object_new_object(), *bs = json_object_new_array();

	if (!ev || !bs) {
		json_object_put(ev);
		json_object_put(bs);
		return NULL;
	}
	for (size_t i = 0; i < s->n_bench; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "name", json_object_new_string(s->bench[i].name));
		json_object_object_add(x, "runs", json_object_new_int64((int64_t)s->bench[i].runs));
		json_object_object_add(x, "rel_ci_width", num(s->bench[i].width));
		json_object_object_add(
		    x, "status",
		    json_object_new_string(isnan(s->bench[i].width) ? s->bench[i].why : "ok"));
		json_object_array_add(bs, x);
	}
	json_object_object_add(ev, "kind", json_object_new_string("duet_stop_check"));
	json_object_object_add(ev, "after_run", json_object_new_int(s->after_run));
	json_object_object_add(ev, "method", json_object_new_string(bs_dmethod_name(s->method)));
	json_object_object_add(ev, "runs_ok", json_object_new_int64((int64_t)s->runs_ok));
	json_object_object_add(ev, "min_runs", json_object_new_int64((int64_t)s->min_runs));
	json_object_object_add(ev, "threshold", json_object_new_double(s->threshold));
	json_object_object_add(ev, "interval", json_object_new_string("run_model"));
	json_object_object_add(ev, "level", json_object_new_double(s->opts.level));
	json_object_object_add(ev, "cpu_terms", json_object_new_boolean(!s->opts.no_cpu));
	json_object_object_add(ev, "min_overlap", json_object_new_double(s->opts.min_overlap));
	json_object_object_add(ev, "drop_warmup_half",
			       json_object_new_boolean(s->opts.drop_warmup_half));
	json_object_object_add(ev, "rel_ci_width", num(s->width));
	json_object_object_add(ev, "benchmarks", bs);
	json_object_object_add(ev, "decided", json_object_new_boolean(!s->undecided));
	json_object_object_add(ev, "decision",
			       json_object_new_string(s->stop ? "stop" : "continue"));
	json_object_object_add(ev, "reason", json_object_new_string(s->reason));
	json_object_object_add(ev, "compute_ns", json_object_new_int64((int64_t)compute_ns));
	return ev;
}

struct bs_danalysis_opts bs_dstop_opts_of_event(const struct bs_duet_stop_event *e)
{
	return (struct bs_danalysis_opts){.min_overlap = e->min_overlap,
					  .drop_warmup_half = e->drop_warmup_half,
					  .level = e->level,
					  .no_cpu = !e->cpu_terms};
}

bool bs_dstop_same(const struct bs_dstop *s, const struct bs_duet_stop_event *e)
{
	if (s->stop != e->stop || s->runs_ok != e->runs_ok)
		return false;
	if (isnan(s->width) || isnan(e->width))
		return isnan(s->width) && isnan(e->width);
	return fabs(s->width - e->width) <= 1e-9 * fabs(e->width);
}

int bs_duet_stops_redecide(const struct bs_duet_data *d, struct bs_dstop **out)
{
	struct bs_dstop *s;

	*out = NULL;
	if (!d->n_stops)
		return 0;
	s = calloc(d->n_stops, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < d->n_stops; i++) {
		const struct bs_duet_stop_event *e = &d->stops[i];
		struct bs_danalysis_opts o = bs_dstop_opts_of_event(e);
		int ret;

		if (!e->has_model) {
			s[i].after_run = e->after_run;
			s[i].method = e->method;
			s[i].width = NAN;
			snprintf(s[i].reason, sizeof(s[i].reason),
				 "recorded on the bootstrap CI of an older benchscope: not "
				 "re-decided");
			continue;
		}
		if (!e->decided) {
			s[i].after_run = e->after_run;
			s[i].method = e->method;
			s[i].width = NAN;
			s[i].undecided = true;
			snprintf(s[i].reason, sizeof(s[i].reason),
				 "reached no decision when recorded: not re-decided");
			continue;
		}
		ret = bs_duet_stop_decide(d, e->after_run, e->method, (size_t)e->min_runs,
					  e->threshold, &o, &s[i]);
		if (ret == -ENOMEM) {
			bs_dstops_free(s, d->n_stops);
			return ret;
		}
		if (ret)
			snprintf(s[i].reason, sizeof(s[i].reason),
				 "cannot re-decide: the recorded options are invalid");
	}
	*out = s;
	return 0;
}

void bs_dstops_free(struct bs_dstop *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		bs_dstop_free(&s[i]);
	free(s);
}
