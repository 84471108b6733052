// SPDX-License-Identifier: MIT
/*
 * duet.c - `benchscope duet [options] -A 'CMD_A' -B 'CMD_B'`
 *
 * Runs two versions of a harness as a duet (Drozdík 2023):
 * async (both at once, unsynchronised), sync (iteration i of A and of B
 * start together: a kernel-assisted barrier, no change to either harness)
 * and seq (A then B), all runs in one measurement session and one trace
 * (docs/duet-trace.md), scheduled RMIT or fixed; then prints the analysis
 * read back from the trace (duet/report.h).
 */
#include <argp.h>
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/caps.h"
#include "commands.h"
#include "util/cli.h"
#include "trace/dataset.h"
#include "duet/design.h"
#include "duet/options.h"
#include "duet/report.h"
#include "duet/run_all.h"
#include "duet/setup.h"
#include "util/exit_status.h"
#include "util/interrupt.h"
#include "probe/measure.h"

int cmd_duet(int argc, char **argv)
{
	int parse_status;
	struct bs_duet_args a;
	struct bs_duet_setup setup;
	struct bs_duet_design design;
	struct bs_measure_opts mo = {0};
	struct bs_measure m;
	struct bs_duet_tally t;
	volatile sig_atomic_t *interrupted;
	json_object *extra = NULL, *end;
	char err[2048] = "";
	int rc = BS_EXIT_USAGE;
	bool opened = false, trace_incomplete = false;
	char *shard_filter = NULL;

	memset(&m, 0, sizeof(m));
	memset(&setup, 0, sizeof(setup));
	memset(&design, 0, sizeof(design));
	if (!bs_argp_parse_own(&bs_duet_argp, "benchscope duet", 0, argc, argv, &a, &parse_status))
		return parse_status;
	if (bs_duet_setup(&a, &setup, err, sizeof(err))) {
		fprintf(stderr, "benchscope duet: %s\n", err);
		rc = BS_EXIT_USAGE;
		goto out;
	}
	if (a.shard.set && !bs_shard_can_list(&setup.b[0], err, sizeof(err))) {
		fprintf(stderr, "benchscope duet: %s\n", err);
		rc = BS_EXIT_USAGE;
		goto out;
	}
	rc = bs_caps_require("duet", bs_caps_bpf_tracing, 4);
	if (!rc &&
	    (bs_boundaries_use_uprobes(&setup.b[0]) || bs_boundaries_use_uprobes(&setup.b[1])))
		rc = bs_caps_require("duet", (const enum bs_cap_id[]){BS_CAP_PRIV_UPROBE}, 1);
	if (rc)
		goto out;
	if (a.shard.set) {
		const struct bs_boundaries *bb[] = {&setup.b[0], &setup.b[1]};
		char *const *cc[] = {setup.we_cmd[0].we_wordv, setup.we_cmd[1].we_wordv};
		/* the context of an empty shard's trace: no design chosen yet */
		struct bs_measure_opts eo = {.b = bb[0],
					     .b2 = bb[1],
					     .trace_path = a.trace,
					     .cmd = cc[0],
					     .user = a.user,
					     .context_extra = bs_duet_context(&a, &setup)};

		extra = eo.context_extra;
		if (bs_shard_begin("duet", &a.shard, bb, cc, 2, &eo, &shard_filter, &rc))
			goto out;
		json_object_put(extra);
		extra = NULL;
		if (bs_duet_setup_add_word(&setup, shard_filter)) {
			fprintf(stderr,
				"benchscope duet: cannot add the shard's filter to -A/-B\n");
			rc = BS_EXIT_RUNTIME;
			goto out;
		}
	}
	/* the noise check; --method auto takes its design from it */
	if (bs_duet_design_check(&a, &setup, &design, err, sizeof(err))) {
		fprintf(stderr, "benchscope duet: %s\n", err);
		rc = BS_EXIT_RUNTIME;
		goto out;
	}

	/* CONTEXT: the common members plus the duet block (docs/duet-trace.md) */
	extra = bs_duet_context(&a, &setup);
	bs_duet_design_json(&design, &setup, json_object_object_get(extra, "duet"));
	if (a.shard.set)
		json_object_object_add(extra, "shard", bs_shard_json(&a.shard));
	interrupted = bs_interrupt_catch();

	mo.b = &setup.b[0];
	mo.b2 = &setup.b[1];
	mo.ringbuf_bytes = (size_t)a.ringbuf_mib << 20;
	mo.interferers = !a.no_interferers;
	mo.verbose = a.verbose;
	mo.calibrate = !a.no_calibrate;
	mo.calib_calls = 2000;
	mo.trace_path = a.trace;
	mo.cmd = setup.we_cmd[0].we_wordv;
	mo.user = a.user;
	mo.context_extra = extra;
	opened = true;
	if (bs_measure_open(&m, &mo, err, sizeof(err))) {
		fprintf(stderr, "benchscope duet: %s\n", err);
		rc = m.usage_error ? BS_EXIT_USAGE : BS_EXIT_RUNTIME;
		goto out;
	}
	rc = bs_duet_run_all(&m, &a, &setup, &design, interrupted, &t, &end);
	if (rc)
		goto out;
	trace_incomplete =
	    bs_measure_trace_incomplete(&m, "duet", a.trace, bs_measure_finish(&m, end));
	bs_measure_say_warnings(&m, "duet"); /* on stderr too, whatever the table shows */
	bs_measure_destroy(&m);
	opened = false;
	if (t.stopped_early)
		fprintf(stderr,
			"benchscope duet: stopped after %zu of %zu runs: the CI is narrow enough "
			"(--stop-ci %g)\n",
			t.n_done, setup.n_plan, a.stop_ci);
	rc = BS_EXIT_OK;
	if (t.n_ok == 0) {
		fprintf(stderr, "benchscope duet: no usable run (%zu failed); the trace is %s\n",
			t.n_done, a.trace);
		rc = BS_EXIT_NO_DATA;
	} else {
		struct bs_duet_report_opts ro = {.json_path = a.json,
						 .csv_path = a.csv,
						 .md_path = a.md,
						 .plot_path = a.plot,
						 .min_overlap = a.min_overlap,
						 .n_resamples = (size_t)a.resamples,
						 .seed = (uint64_t)a.seed,
						 .has_seed = true,
						 .no_mds = a.no_mds,
						 .has_fail = a.have_fail,
						 .fail_pct = a.fail_pct,
						 .no_table = a.quiet};
		struct bs_duet_outcome oc;
		struct bs_dataset *ds = NULL;
		int r;

		if (bs_dataset_load(a.trace, &ds, err, sizeof(err))) {
			fprintf(stderr, "benchscope duet: cannot read back the trace: %s\n", err);
			rc = BS_EXIT_RUNTIME;
		} else if ((r = bs_duet_report_render(ds, &ro, &oc, err, sizeof(err)))) {
			fprintf(stderr, "benchscope duet: %s\n", err);
			rc = r == -EINVAL ? BS_EXIT_NO_DATA : BS_EXIT_RUNTIME;
		} else if (a.have_fail && oc.regressed) {
			fprintf(stderr, "benchscope duet: regression: %s\n", oc.regression);
			rc = BS_EXIT_REGRESSION;
		}
		bs_dataset_free(ds);
	}
	if (t.measure_failed && rc == BS_EXIT_OK)
		rc = BS_EXIT_RUNTIME;
	if (*interrupted)
		rc = BS_EXIT_INTERRUPTED;
	if (trace_incomplete) /* said above; the report is of what the file holds */
		rc = BS_EXIT_RUNTIME;
out:
	if (opened)
		bs_measure_destroy(&m);
	bs_duet_setup_free(&setup);
	bs_duet_design_free(&design);
	json_object_put(extra);
	bs_shard_free(&a.shard);
	free(shard_filter);
	return rc;
}
