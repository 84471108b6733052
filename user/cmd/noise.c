// SPDX-License-Identifier: MIT
/*
 * noise.c - `benchscope noise [--duration S] [--cpus LIST] [--json FILE|-]`:
 * this machine's CPUs as a benchmark platform (noise/check.h), judged
 * (noise/verdict.h): per CPU alone and with all busy, per pair coupled or
 * not, and the duet design that suits the machine.
 */
#include <argp.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "noise/check.h"
#include "noise/render.h"
#include "noise/verdict.h"
#include "probe/caps.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "util/output.h"

struct noise_args {
	struct bs_noise_opts o;
	const char *json;
};

static const struct argp_option noise_options[] = {
    {"duration", 'd', "S", 0, "length of the check in seconds (default 6)", 0},
    {"cpus", 'c', "LIST", 0, "check these CPUs (e.g. 0,2-3; default: every CPU allowed)", 0},
    {"json", 'j', "FILE", 0, "write the report as JSON to FILE ('-': stdout, no table)", 0},
    {"verbose", 'v', NULL, 0, "libbpf's messages (the verifier log when BPF does not load)", 0},
    {0}};

static const char noise_doc[] =
    "Characterise this machine's CPUs as a benchmark platform: a calibrated loop on each CPU "
    "alone, then on every CPU at once (hidden coupling: an SMT sibling, a host sharing a core "
    "between vCPUs), how its time varies, what the kernel accounted (the loop's run-queue "
    "wait, irq, softirq, steal, timer ticks) and which other tasks ran; per pair of CPUs, coupled "
    "or independent and at "
    "which speed ratio; and which duet design suits the machine. It keeps every checked CPU "
    "busy for half of the check.\v"
    "Examples:\n"
    "  benchscope noise\n"
    "  benchscope noise --duration 20 --cpus 0-1 --json noise.json\n" BS_EXIT_STATUS_HELP;

static error_t noise_parse(int key, char *arg, struct argp_state *state)
{
	struct noise_args *a = state->input;

	switch (key) {
	case 'd':
		if (bs_parse_double(arg, 0.5, 3600, &a->o.duration_s))
			return bs_argp_error(
			    state, "--duration takes seconds in [0.5, 3600], not '%s'", arg);
		break;
	case 'c':
		if (bs_parse_cpu_list(arg, &a->o.cpus))
			return bs_argp_error(
			    state, "--cpus takes a CPU list such as 0,2-3, not '%s'", arg);
		a->o.cpus_set = true;
		break;
	case 'j':
		a->json = arg;
		break;
	case 'v':
		a->o.verbose = true;
		break;
	case ARGP_KEY_ARG:
		return bs_argp_error(state, "unexpected argument '%s'", arg);
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_noise(int argc, char **argv)
{
	int parse_status;
	struct argp argp = {noise_options, noise_parse, "", noise_doc, NULL, NULL, NULL};
	struct noise_args a = {{.duration_s = 6}, NULL};
	struct bs_noise_result r;
	struct bs_noise_verdict v = {0};
	char err[512], hv[64];
	int rc = BS_EXIT_OK;

	if (!bs_argp_parse_own(&argp, "benchscope noise", 0, argc, argv, &a, &parse_status))
		return parse_status;
	a.o.progress = true;
	if (bs_noise_check(&a.o, &r, err, sizeof(err))) {
		fprintf(stderr, "benchscope noise: %s\n", err);
		rc = a.o.cpus_set && !r.n ? BS_EXIT_USAGE : BS_EXIT_RUNTIME;
		goto out;
	}
	if (bs_noise_judge(r.cpus, r.n, bs_hypervisor_guest(hv, sizeof(hv)), &v)) {
		fprintf(stderr, "benchscope noise: too few loop samples to judge (use a longer "
				"--duration)\n");
		rc = BS_EXIT_RUNTIME;
		goto out;
	}
	if (!a.json || !bs_output_is_stdout(a.json))
		bs_noise_render_text(stdout, &r, &v);
	if (a.json) {
		json_object *o = bs_noise_render_json(&r, &v);
		FILE *f = o ? bs_output_open(a.json, err, sizeof(err)) : NULL;

		if (!f) {
			fprintf(stderr, "benchscope noise: %s\n", o ? err : "out of memory");
			rc = BS_EXIT_RUNTIME;
		} else if ((fprintf(f, "%s\n",
				    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY)) <
			    0) |
			   (bs_output_close(f) != 0)) {
			fprintf(stderr, "benchscope noise: cannot write %s\n",
				bs_output_name(a.json));
			rc = BS_EXIT_RUNTIME;
		}
		json_object_put(o);
	}
out:
	bs_noise_verdict_free(&v);
	bs_noise_result_free(&r);
	return rc;
}
