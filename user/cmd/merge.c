// SPDX-License-Identifier: MIT
/*
 * merge.c - `benchscope merge TRACE... -o FLEET`: many traces of one suite,
 * from many machines, into one fleet trace (fleet/merge.h) that `benchscope
 * report` analyses with machines as units (fleet/analysis.h).
 * Exit status: 0 ok; 1 the output could not be written; 2 usage, or an
 * input that is corrupted, truncated, not a trace, incompatible with the
 * first, given twice, or named as the output too (one line "benchscope merge: member N (FILE): ..."
 * on stderr; no output left).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/cli.h"
#include "util/exit_status.h"
#include "commands.h"
#include "fleet/merge.h"

static const char merge_help[] =
    "Usage: benchscope merge TRACE... -o FLEET\n"
    "Merge traces of one suite from many machines into one fleet trace;\n"
    "`benchscope report FLEET` gives one analysis with machines as units.\n"
    "\n"
    "  -o, --output=FLEET   the fleet trace to write (required)\n"
    "  -h, --help           this help\n"
    "\n"
    "Inputs may be fleets: their members are taken out (merging flattens).\n"
    "Every input must be complete (not truncated) and measure the same thing\n"
    "as the first: kind (run or duet), command, boundaries, stop configuration,\n"
    "duet design; shards of one suite (--shard I/N) may select different\n"
    "benchmarks. Members are copied byte for byte. A file given twice, and an\n"
    "output that is one of the inputs, are refused.\n"
    "\n"
    "Examples:\n"
    "  benchscope merge host*.trace -o fleet.trace\n"
    "  benchscope report fleet.trace --json fleet.json\n"
    "\n" BS_EXIT_STATUS_HELP "\n";

int cmd_merge(int argc, char **argv)
{
	const char **in = calloc((size_t)argc + 1, sizeof(*in));
	const char *out = NULL;
	struct bs_merge_result res = {0};
	size_t n = 0;
	char err[1024];
	int ret, opts_done = 0;

	if (!in) {
		fprintf(stderr, "benchscope merge: out of memory\n");
		return BS_EXIT_RUNTIME;
	}
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];

		if (opts_done || w[0] != '-' || !w[1]) {
			in[n++] = w;
		} else if (!strcmp(w, "--")) {
			opts_done = 1;
		} else if (!strcmp(w, "-h") || !strcmp(w, "--help")) {
			fputs(merge_help, stdout);
			free(in);
			return 0;
		} else if (!strcmp(w, "-o") || !strcmp(w, "--output")) {
			if (i + 1 >= argc) {
				free(in);
				return bs_usage_error("merge", "%s wants a file", w);
			}
			out = argv[++i];
		} else if (!strncmp(w, "--output=", 9)) {
			out = w + 9;
		} else if (!strncmp(w, "-o", 2)) {
			out = w + 2;
		} else {
			free(in);
			return bs_usage_error("merge", "unknown option '%s'", w);
		}
	}
	if (!out || !*out) {
		free(in);
		return bs_usage_error("merge", "%s", "no output given (-o FLEET)");
	}
	if (!n) {
		free(in);
		return bs_usage_error("merge", "%s", "no trace given");
	}
	ret = bs_fleet_merge(in, n, out, &res, err, sizeof(err));
	free(in);
	if (ret) {
		fprintf(stderr, "benchscope merge: %s\n", err);
		return ret == -EINVAL ? BS_EXIT_USAGE : BS_EXIT_RUNTIME;
	}
	printf("merged %zu %s trace%s (%zu blocks, %llu bytes) into %s\n", res.members, res.kind,
	       res.members == 1 ? "" : "s", res.blocks, res.bytes, out);
	return 0;
}
