// SPDX-License-Identifier: MIT
/* main.c - `benchscope SUBCOMMAND ...`: dispatch to the subcommands. */
#include <argp.h>
#include <stdio.h>
#include <string.h>

#include "util/version.h"
#include "benchscope/stats.h"
#include "commands.h"
#include "util/diag.h"
#include "util/exit_status.h"

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
    {"run", cmd_run, "measure every iteration of a harness (probes + kernel accounting)"},
    {"report", cmd_report, "render a trace: table, JSON, CSV, Markdown"},
    {"compare", cmd_compare, "two run traces: B/A per benchmark with CI, U test, MDS; a gate"},
    {"duet", cmd_duet,
     "A/B duet: both versions measured together (async, sync) or in turn (seq, interleaved)"},
    {"merge", cmd_merge, "traces from many machines into one fleet trace (report analyses it)"},
    {"import", cmd_import,
     "other tools' results as a trace: gbench, hyperfine, criterion, go, pyperf, jmh, duet"},
    {"replay", cmd_replay, "compute stoppage points post hoc on a recorded trace"},
    {"waste", cmd_waste, "dead stores, silent stores and silent loads (hardware watchpoints)"},
    {"calibrate", cmd_calibrate, "measure what one probe hit costs here (uprobe, uretprobe, USDT)"},
    {"doctor", cmd_doctor, "what this machine can do for benchscope, and what it costs, measured"},
    {"noise", cmd_noise, "this machine's CPUs as a benchmark platform: coupling, speed, noise"},
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: benchscope COMMAND [OPTIONS] ...\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f,
		"\n`benchscope COMMAND --help` for a command's options; `benchscope "
		"--version`.\n\n%s\n",
		BS_EXIT_STATUS_HELP);
}

int main(int argc, char **argv)
{
	size_t i;

	bs_stats_init();
	argp_err_exit_status = 2; /* usage errors: exit 2, like every bad input */
	if (argc < 2) {
		fprintf(stderr, "benchscope: no command given (see benchscope --help)\n");
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("benchscope %s\n", BS_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			bs_diag_set_command(commands[i].name);
			return commands[i].fn(argc - 1, argv + 1);
		}
	fprintf(stderr, "benchscope: unknown command '%s' (see benchscope --help)\n", argv[1]);
	return 2;
}
