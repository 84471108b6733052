// SPDX-License-Identifier: MIT
/* report.c - analyse a duet trace and write its outputs (duet/report.h). */
#include "duet/report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "duet/render.h"
#include "util/diag.h"
#include "util/output.h"

enum dout { DOUT_JSON, DOUT_CSV, DOUT_MD };

static int write_out(const char *path, enum dout kind, const struct bs_duet_ctx *c, char *err,
		     size_t errlen)
{
	FILE *f = bs_output_open(path, err, errlen);
	int ret;

	if (!f)
		return -EIO;
	ret = kind == DOUT_JSON	 ? bs_duet_render_json(f, c)
	      : kind == DOUT_CSV ? bs_duet_render_csv(f, c)
				 : bs_duet_render_table(f, c, true);
	if (bs_output_close(f) && !ret)
		ret = -EIO;
	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", bs_output_name(path),
			 ret == -ENOMEM ? "out of memory" : strerror(EIO));
		return ret == -ENOMEM ? ret : -EIO;
	}
	return 0;
}

int bs_duet_report_render(const struct bs_dataset *ds, const struct bs_duet_report_opts *o,
			  struct bs_duet_outcome *out, char *err, size_t errlen)
{
	struct bs_duet_report_opts opts = {0};
	struct bs_danalysis_opts ao = {0};
	struct bs_duet_data *d = NULL;
	struct bs_duet_analysis *a = NULL;
	struct bs_duet_noise *n = NULL;
	struct bs_dstop *stops = NULL;
	struct bs_duet_outcome oc;
	struct bs_duet_ctx c;
	int ret;

	if (o)
		opts = *o;
	memset(&oc, 0, sizeof(oc));
	oc.worst_slowdown_lo_pct = NAN;
	oc.headline_slowdown_lo_pct = NAN;
	oc.headline_method = -1;
	oc.gate_pct = NAN;
	if (out)
		*out = oc;
	ret = bs_duet_data_build(ds, &d, err, errlen);
	if (ret)
		return ret;
	if (!d->runs_ok) {
		snprintf(err, errlen, "no usable run: all %zu runs failed (first: run %d, %s)",
			 d->runs_total, d->n_failed ? d->failed[0].run : -1,
			 d->n_failed ? d->failed[0].reason : "?");
		ret = -EINVAL;
		goto out;
	}
	ao.min_overlap = opts.min_overlap;
	ao.n_resamples = opts.n_resamples ? opts.n_resamples : (size_t)d->ctx.resamples;
	ao.seed = opts.has_seed ? opts.seed : d->ctx.has_seed ? d->ctx.seed : 1;
	ao.no_mds = opts.no_mds || d->ctx.no_mds;
	ao.drop_warmup_half = opts.drop_warmup_half;
	ao.sampling = (enum bs_dsampling)opts.sampling;
	ao.steps = opts.steps;
	if (!(ao.min_overlap >= 0 && ao.min_overlap < 1)) {
		snprintf(err, errlen, "the minimum overlap ratio must be in [0, 1), not %g",
			 ao.min_overlap);
		ret = -EINVAL;
		goto out;
	}
	ret = bs_duet_analysis_run(d, &ao, &a);
	if (!ret)
		ret = bs_duet_noise_build(ds, d, &n);
	if (!ret)
		ret = bs_duet_stops_redecide(d, &stops);
	if (ret) {
		snprintf(err, errlen, "%s",
			 ret == -ENOMEM ? "out of memory" : "bad analysis options");
		goto out;
	}
	c = (struct bs_duet_ctx){.ds = ds, .d = d, .a = a, .n = n, .stops = stops, .oc = &oc};
	oc.runs_total = d->runs_total;
	oc.runs_used = d->runs_ok;
	oc.runs_failed = d->n_failed;
	oc.n_verdicts = a->n_verdicts;
	oc.worst_slowdown_lo_pct = a->worst_slowdown_lo_pct;
	oc.any_difference = a->any_difference;
	if (a->worst_headline) {
		const struct bs_dbres *w = a->worst_headline;

		oc.headline_slowdown_lo_pct = w->m[w->primary].v.lo_pct;
		snprintf(oc.headline_bench, sizeof(oc.headline_bench), "%s", w->bench->name);
		oc.headline_method = w->primary;
	}
	/* the gate given, else the one the duet ran with (so the trace re-checks it) */
	oc.gate = opts.has_fail || d->ctx.has_fail_pct;
	if (oc.gate) {
		oc.gate_pct = opts.has_fail ? opts.fail_pct : d->ctx.fail_pct;
		oc.regressed =
		    bs_duet_regression_text(&oc, oc.gate_pct, oc.regression, sizeof(oc.regression));
	}
	if (out)
		*out = oc;
	if (ds->truncated) {
		char t[128];

		bs_diag("warning: trace %s (the duet did not finish)",
			bs_dataset_truncation_text(ds, t, sizeof(t)));
	}
	if (!opts.no_table && !bs_output_is_stdout(opts.json_path) &&
	    !bs_output_is_stdout(opts.csv_path) && !bs_output_is_stdout(opts.md_path)) {
		/* its -EIO is stdout's error flag, which bs_output_flush_stdout reads */
		bs_duet_render_table(stdout, &c, false);
		if ((ret = bs_output_flush_stdout(err, errlen)))
			goto out;
	}
	if (opts.json_path && (ret = write_out(opts.json_path, DOUT_JSON, &c, err, errlen)))
		goto out;
	if (opts.csv_path && (ret = write_out(opts.csv_path, DOUT_CSV, &c, err, errlen)))
		goto out;
	if (opts.md_path && (ret = write_out(opts.md_path, DOUT_MD, &c, err, errlen)))
		goto out;
	if (opts.plot_path) {
		ret = bs_duet_render_plot(opts.plot_path, &c, err, errlen);
		if (ret == -EINVAL)
			goto out;
		if (ret)
			ret = -EIO;
	}
out:
	if (d)
		bs_dstops_free(stops, d->n_stops);
	bs_duet_noise_free(n);
	bs_duet_analysis_free(a);
	bs_duet_data_free(d);
	return ret;
}

bool bs_duet_regression_text(const struct bs_duet_outcome *o, double fail_pct, char *buf, size_t n)
{
	if (n)
		buf[0] = '\0';
	if (!isfinite(o->headline_slowdown_lo_pct) || !(o->headline_slowdown_lo_pct > fail_pct) ||
	    o->headline_method < 0)
		return false;
	snprintf(buf, n,
		 "B is slower than A by more than %g %% in %s (%s verdict, CI lower bound %.2f %%)",
		 fail_pct, o->headline_bench, bs_dmethod_name(o->headline_method),
		 o->headline_slowdown_lo_pct);
	return true;
}
