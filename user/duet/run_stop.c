// SPDX-License-Identifier: MIT
/*
 * run_stop.c - `duet --stop-ci WIDTH`: after each run, the trace written so
 * far is read back and the rule of stop_ci.h decides on it, so the decision
 * uses the verdict's interval on exactly the data `benchscope report` sees.
 */
#include "duet/run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "duet/stop_ci.h"
#include "probe/measure.h"
#include "trace/dataset.h"
#include "trace/trace.h"
#include "util/monotime.h"

json_object *bs_duet_stop_check(struct bs_measure *m, const char *trace, int after_run, int method,
				size_t min_runs, double threshold,
				const struct bs_danalysis_opts *o, double *width, bool *stop)
{
	struct bs_dataset *ds = NULL;
	struct bs_duet_data *d = NULL;
	struct bs_dstop s;
	char err[512] = "";
	uint64_t t0 = bs_mono_ns();
	int dm = bs_dmethod_parse(bs_duet_method_name(method)), rc;
	json_object *ev;

	memset(&s, 0, sizeof(s));
	if (m && m->tw && bs_trace_flush(m->tw))
		snprintf(err, sizeof(err), "cannot flush the trace");
	rc = err[0] ? -EIO : bs_dataset_load(trace, &ds, err, sizeof(err));
	if (!rc)
		rc = bs_duet_data_build(ds, &d, err, sizeof(err));
	if (!rc) {
		rc = bs_duet_stop_decide(d, after_run, dm < 0 ? BS_DM_N : (enum bs_dmethod)dm,
					 min_runs, threshold, o, &s);
		if (rc)
			snprintf(err, sizeof(err), "%s",
				 rc == -ENOMEM ? "out of memory" : "bad analysis options");
	}
	if (rc) {
		/* no decision could be computed: go on, and say why */
		bs_dstop_free(&s);
		memset(&s, 0, sizeof(s));
		s.after_run = after_run;
		s.method = dm < 0 ? BS_DM_SEQ : (enum bs_dmethod)dm;
		s.min_runs = min_runs;
		s.threshold = threshold;
		s.width = NAN;
		s.undecided = true;
		if (o)
			s.opts = *o;
		/* the options a check would have used, valid even when @o's are not */
		if (bs_danalysis_opts_fill(&s.opts, d)) {
			s.opts.min_overlap = s.opts.level = 0;
			bs_danalysis_opts_fill(&s.opts, NULL);
		}
		snprintf(s.reason, sizeof(s.reason), "no decision: %s",
			 err[0] ? err : "cannot read back the trace");
	}
	*width = s.width;
	*stop = s.stop;
	ev = bs_dstop_event(&s, bs_mono_ns() - t0);
	bs_dstop_free(&s);
	bs_duet_data_free(d);
	bs_dataset_free(ds);
	return ev;
}
