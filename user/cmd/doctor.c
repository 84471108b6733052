// SPDX-License-Identifier: MIT
/*
 * doctor.c - `benchscope doctor [--json FILE|-] [--calls N] [--rounds N]`:
 * what this machine can do for benchscope and what it costs, measured
 * (caps.h): a table on stdout (feature, yes/no, the figure, what depends on
 * it), or JSON (docs/json-schema.md, "Doctor").
 */
#include <argp.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/version.h"
#include "probe/calib_options.h"
#include "probe/caps.h"
#include "util/cli.h"
#include "commands.h"
#include "util/exit_status.h"
#include "util/output.h"
#include "util/table.h"
#include "waste/watch.h"

struct doctor_args {
	const char *json;
	struct bs_calib_options cal; /* defaults: 5000 hits, 5 rounds */
};

static const struct argp_option doctor_options[] = {
    {"json", 'j', "FILE", 0, "write the findings as JSON to FILE ('-': stdout, no table)", 0}, {0}};

static const struct argp_child doctor_children[] = {{&bs_calib_argp, 0, NULL, 0}, {0}};

static const char doctor_doc[] =
    "Report what this machine can do for benchscope, and what it costs, by trying it: "
    "privileges, kernel BTF, the hypervisor, BPF programs and maps, the cost of a uprobe, "
    "uretprobe and USDT hit, hardware watchpoints (armed and written to), PMU address "
    "sampling, steal and scheduler accounting. Each line says which subcommands depend on "
    "the feature.\v"
    "Examples:\n"
    "  benchscope doctor\n"
    "  benchscope doctor --json doctor.json\n"
    "Probe costs: 5000 hits per round, 5 rounds unless --calls/--rounds say otherwise.\n"
    "Status 0 when everything run and duet need works, 6 when something is "
    "lacking.\n" BS_EXIT_STATUS_HELP;

static error_t doctor_parse(int key, char *arg, struct argp_state *state)
{
	struct doctor_args *a = state->input;

	switch (key) {
	case 'j':
		a->json = arg;
		break;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->cal;
		break;
	case ARGP_KEY_ARG:
		return bs_argp_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char *state_word(enum bs_cap_state s)
{
	switch (s) {
	case BS_CAP_YES:
		return "yes";
	case BS_CAP_NO:
		return "no";
	case BS_CAP_INFO:
		return "info";
	default:
		return "unknown";
	}
}

/* What `waste --source auto` would use here, and why (waste/watch.h). */
struct source_choice {
	struct bs_waste_sources s;
	int pick;
	char line[400];
};

static void choose_source(struct source_choice *c)
{
	bs_waste_sources_probe(&c->s);
	c->pick = bs_waste_source_pick(BS_SRC_AUTO, &c->s);
	bs_waste_sources_explain(&c->s, c->line, sizeof(c->line));
}

static json_object *source_json(const struct source_choice *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(
	    o, "auto", json_object_new_string(bs_waste_source_name((enum bs_waste_source)c->pick)));
	json_object_object_add(o, "pebs",
			       c->s.pebs_err ? json_object_new_string(c->s.pebs_why) : NULL);
	json_object_object_add(o, "ibs",
			       c->s.ibs_err ? json_object_new_string(c->s.ibs_why) : NULL);
	json_object_object_add(o, "line", json_object_new_string(c->line));
	return o;
}

static void print_table(const struct bs_cap *caps, bool ok, const struct source_choice *src)
{
	static const char *const head[3] = {"feature", "", "found [used by]"};
	struct bs_table_style st = {.indent = ""};
	char found[BS_CAP_N][600];
	const char *cells[BS_CAP_N * 3];

	for (int i = 0; i < BS_CAP_N; i++) {
		const struct bs_cap_info *in = bs_cap_info((enum bs_cap_id)i);

		snprintf(found[i], sizeof(found[i]), "%s%s%s%s", caps[i].figure,
			 in->used_by[0] ? "  [" : "", in->used_by, in->used_by[0] ? "]" : "");
		cells[3 * i] = in->label;
		cells[3 * i + 1] = caps[i].state == BS_CAP_INFO ? "" : state_word(caps[i].state);
		cells[3 * i + 2] = found[i];
	}
	bs_table_print(stdout, head, cells, BS_CAP_N, 3, NULL, &st);
	printf("\n%s\n", ok ? "run and duet: everything they need works here"
			    : "run and duet: something they need is lacking (the lines marked no "
			      "and [run...] above)");
	if (caps[BS_CAP_WATCHPOINTS].state != BS_CAP_YES)
		printf("waste: refused here (hardware watchpoints do not fire)\n");
	printf("waste --source %s\n", src->line);
}

static json_object *to_json(const struct bs_cap *caps, bool ok, const struct source_choice *src)
{
	json_object *o = json_object_new_object(), *cs = json_object_new_object(), *c;
	const struct bs_cap_info *in;
	int i;

	json_object_object_add(o, "tool", json_object_new_string("benchscope"));
	json_object_object_add(o, "version", json_object_new_string(BS_VERSION));
	json_object_object_add(o, "subcommand", json_object_new_string("doctor"));
	json_object_object_add(o, "run_and_duet_ok", json_object_new_boolean(ok));
	for (i = 0; i < BS_CAP_N; i++) {
		in = bs_cap_info((enum bs_cap_id)i);
		c = json_object_new_object();
		json_object_object_add(c, "state",
				       json_object_new_string(state_word(caps[i].state)));
		json_object_object_add(
		    c, "value",
		    isnan(caps[i].value) ? NULL : json_object_new_double(caps[i].value));
		json_object_object_add(c, "figure", json_object_new_string(caps[i].figure));
		json_object_object_add(c, "label", json_object_new_string(in->label));
		json_object_object_add(c, "used_by", json_object_new_string(in->used_by));
		json_object_object_add(c, "essential", json_object_new_boolean(in->essential));
		json_object_object_add(cs, in->key, c);
	}
	json_object_object_add(o, "capabilities", cs);
	json_object_object_add(o, "waste_source", source_json(src));
	return o;
}

int cmd_doctor(int argc, char **argv)
{
	int parse_status;
	struct argp argp = {doctor_options,  doctor_parse, "",	doctor_doc,
			    doctor_children, NULL,	   NULL};
	struct doctor_args a = {NULL, {5000, 5}};
	struct bs_cap caps[BS_CAP_N];
	struct source_choice src;
	json_object *o;
	bool ok = true, to_stdout;
	int i, rc = BS_EXIT_OK;

	if (!bs_argp_parse_own(&argp, "benchscope doctor", 0, argc, argv, &a, &parse_status))
		return parse_status;
	to_stdout = bs_output_is_stdout(a.json);
	for (i = 0; i < BS_CAP_N; i++)
		bs_cap_probe((enum bs_cap_id)i, &caps[i]);
	if (caps[BS_CAP_BTF].state == BS_CAP_YES && caps[BS_CAP_PRIV_BPF].state == BS_CAP_YES &&
	    caps[BS_CAP_PRIV_PERFMON].state == BS_CAP_YES)
		bs_caps_probe_bpf(caps, (int)a.cal.calls, (int)a.cal.rounds);
	for (i = 0; i < BS_CAP_N; i++)
		if (bs_cap_info((enum bs_cap_id)i)->essential && caps[i].state != BS_CAP_YES)
			ok = false;
	choose_source(&src);
	if (!to_stdout) {
		char err[256];

		print_table(caps, ok, &src);
		if (bs_output_flush_stdout(err, sizeof(err))) {
			fprintf(stderr, "benchscope doctor: %s\n", err);
			rc = BS_EXIT_RUNTIME;
		}
	}
	if (a.json) {
		char err[512];
		FILE *f = bs_output_open(a.json, err, sizeof(err));
		int e = 0;

		o = to_json(caps, ok, &src);
		if (!f) {
			fprintf(stderr, "benchscope doctor: %s\n", err);
			rc = BS_EXIT_RUNTIME;
		} else {
			fprintf(f, "%s\n",
				json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
			if ((e = bs_output_close(f))) {
				fprintf(stderr, "benchscope doctor: cannot write %s: %s\n",
					bs_output_name(a.json), strerror(-e));
				rc = BS_EXIT_RUNTIME;
			}
		}
		json_object_put(o);
	}
	if (rc == BS_EXIT_OK && !ok)
		rc = BS_EXIT_UNSUPPORTED;
	return rc;
}
