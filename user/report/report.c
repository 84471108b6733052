// SPDX-License-Identifier: MIT
/* report.c - summary + every requested output of a dataset (see render.h). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "report/render.h"
#include "util/diag.h"
#include "util/output.h"

enum out_kind { OUT_JSON, OUT_CSV, OUT_MD };

static int write_one(const char *path, enum out_kind kind, const struct bs_dataset *ds,
		     const struct bs_run_summary *s, const struct bs_doc *doc)
{
	char err[PATH_MAX + 128];
	FILE *f = bs_output_open(path, err, sizeof(err));
	int ret, cret;

	if (!f) {
		ret = -errno;
		bs_diag("%s", err);
		return ret;
	}
	switch (kind) {
	case OUT_JSON:
		ret = bs_render_json(f, ds, s);
		break;
	case OUT_CSV:
		ret = bs_render_csv(f, ds);
		break;
	default:
		ret = bs_render_md(f, doc);
		break;
	}
	cret = bs_output_close(f);
	if (!ret)
		ret = cret;
	if (ret)
		bs_diag("cannot write %s: %s", bs_output_name(path), strerror(-ret));
	return ret;
}

int bs_report_render(const struct bs_dataset *ds, const struct bs_report_opts *opts)
{
	struct bs_report_opts o = {0};
	struct bs_run_summary s;
	struct bs_doc *doc = NULL;
	int ret;

	if (opts)
		o = *opts;
	if (!ds)
		return -EINVAL;
	if (ds->truncated) {
		char t[128];

		bs_diag(
		    "warning: trace %s (its writer did not finish it: killed, or the disk full)",
		    bs_dataset_truncation_text(ds, t, sizeof(t)));
	}
	ret = bs_run_summarize(ds, o.top_n, &s);
	if (ret) {
		bs_diag("cannot summarise the trace: %s", strerror(-ret));
		return ret;
	}
	doc = bs_report_doc_build(ds, &s);
	if (!doc) {
		bs_diag("out of memory");
		bs_run_summary_free(&s);
		return -ENOMEM;
	}
	if (!o.no_table && !bs_output_is_stdout(o.json_path) && !bs_output_is_stdout(o.csv_path) &&
	    !bs_output_is_stdout(o.md_path)) {
		char err[128];

		/* its -EIO is stdout's error flag, which bs_output_flush_stdout reads */
		bs_render_table(stdout, doc);
		if ((ret = bs_output_flush_stdout(err, sizeof(err))))
			bs_diag("%s", err);
	}
	if (!ret && o.json_path)
		ret = write_one(o.json_path, OUT_JSON, ds, &s, doc);
	if (!ret && o.csv_path)
		ret = write_one(o.csv_path, OUT_CSV, ds, &s, doc);
	if (!ret && o.md_path)
		ret = write_one(o.md_path, OUT_MD, ds, &s, doc);
	bs_doc_free(doc);
	bs_run_summary_free(&s);
	return ret;
}
