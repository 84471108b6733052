// SPDX-License-Identifier: MIT
/*
 * calibrate.c - `benchscope calibrate`: what one probe hit costs here,
 * per kind (uprobe, uretprobe, USDT), so a user can choose boundaries whose
 * perturbation is small against the iteration (probe cost differs 20x
 * between machines; `benchscope doctor` shows it too). A kind that cannot
 * be measured is printed "not available (REASON)"; exit status 6 when the
 * kernel does not attach it, 1 for a runtime error (probe/calib_table.h).
 */
#include <argp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "probe/calib_options.h"
#include "probe/calib_table.h"
#include "probe/calibrate.h"
#include "probe/caps.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "probe/probes.h"
#include "util/progress.h"

struct cal_args {
	struct bs_calib_options cal; /* defaults: 20000 hits, 5 rounds */
	bool json;
};

static const struct argp_option cal_options[] = {
    {"json", 'j', NULL, 0, "print JSON instead of a table", 0}, {0}};

static const struct argp_child cal_children[] = {{&bs_calib_argp, 0, NULL, 0}, {0}};

static error_t cal_parse(int key, char *arg, struct argp_state *state)
{
	struct cal_args *a = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->cal;
		break;
	case 'j':
		a->json = true;
		break;
	case ARGP_KEY_ARG:
		return bs_argp_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	int parse_status;
	static const struct {
		enum bs_site_kind kind;
		const char *name;
	} kinds[] = {
	    {BS_SITE_UPROBE, "uprobe"}, {BS_SITE_URETPROBE, "uretprobe"}, {BS_SITE_USDT, "usdt"}};
	struct argp argp = {
	    cal_options,
	    cal_parse,
	    "",
	    "Measure the cost of one probe hit per kind on this machine and "
	    "kernel.\vDefaults: 20000 hits per round, 5 rounds.\n" BS_EXIT_STATUS_HELP,
	    cal_children,
	    NULL,
	    NULL};
	struct cal_args a = {{20000, 5}, false};
	struct bs_probes_opts po = {.no_accounting = true};
	struct bs_boundaries b = {.mode = BS_BOUND_NONE};
	struct bs_probes p;
	struct bs_calib_row rows[3];
	struct bs_progress line;
	struct bs_calib_steps steps = {0};
	json_object *o;
	char err[1024];
	size_t i;
	int rc;

	if (!bs_argp_parse_own(&argp, "benchscope calibrate", 0, argc, argv, &a, &parse_status))
		return parse_status;
	rc = bs_caps_require("calibrate", bs_caps_bpf_tracing, 4);
	if (!rc)
		rc = bs_caps_require("calibrate", (const enum bs_cap_id[]){BS_CAP_PRIV_UPROBE}, 1);
	if (rc)
		return rc;
	if (bs_probes_load(&p, &b, &po, err, sizeof(err))) {
		fprintf(stderr, "benchscope calibrate: %s\n", err);
		bs_probes_destroy(&p);
		return 1;
	}
	bs_progress_init(&line, "timed rounds (3 kinds, unprobed and probed)", true);
	steps.line = &line;
	steps.total = 3 * 2 * (uint64_t)a.cal.rounds;
	for (i = 0; i < 3; i++) {
		rows[i].kind = kinds[i].name;
		rows[i].ns = bs_calibrate_kind(&p, kinds[i].kind, (int)a.cal.calls,
					       (int)a.cal.rounds, &rows[i].why, &steps);
	}
	bs_progress_done(&line);
	bs_probes_destroy(&p);
	if (a.json) {
		o = bs_calib_json(rows, 3, a.cal.calls, a.cal.rounds);
		if (o)
			printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		bs_calib_print_table(stdout, rows, 3, a.cal.calls, a.cal.rounds);
	}
	return bs_calib_status(rows, 3, stderr);
}
