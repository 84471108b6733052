// SPDX-License-Identifier: MIT
/*
 * options.c - the options of `benchscope waste`: the argp table, help text
 * and parser (see options.h).
 */
#include <argp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/waste_record.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "waste/class.h"
#include "waste/options.h"
#include "waste/watch.h"

enum {
	OPT_KIND = 0x100,
	OPT_SOURCE,
	OPT_PERIOD,
	OPT_OVERHEAD,
	OPT_FPTOL,
	OPT_REGS,
	OPT_TOP,
	OPT_DEPTH,
	OPT_FREEZE,
	OPT_NO_FREEZE,
	OPT_NO_BASELINE,
	OPT_JSON,
	OPT_FOLDED,
	OPT_FROM_TRACE,
	OPT_SEED,
};

static const struct argp_option waste_options[] = {
    {"kind", OPT_KIND, "KIND", 0, "dead-store, silent-store, silent-load or all (default all)", 1},
    {"pid", 'p', "PID", 0, "attach to a running process (all its threads) instead of CMD", 1},
    {"source", OPT_SOURCE, "SRC", 0,
     "address samples: pebs (Intel precise mem-loads/mem-stores), ibs (AMD IBS op), pmu "
     "(pebs or ibs, whichever opens), timer (task-clock timer + decoded instruction; also "
     "'soft'), auto (pebs, else ibs, else timer; default; benchscope doctor says which)",
     2},
    {"period", OPT_PERIOD, "N", 0,
     "initial sampling period: CPU time for timer (e.g. 500us, 2ms; default 4ms), events for "
     "pebs, ops for ibs (a multiple of 16; default 20000)",
     2},
    {"overhead", OPT_OVERHEAD, "PCT", 0,
     "keep the estimated cost of samples and traps under PCT % of run time by lengthening "
     "the period (default 5); 100 lifts the limit, and a period shorter than a sample's "
     "handling then stalls the program (samples back to back)",
     2},
    {"fp-tolerance", OPT_FPTOL, "PCT", 0,
     "floating-point values within PCT % (relative) count as equal (default 1)", 2},
    {"regs", OPT_REGS, "N", 0, "debug registers per thread, 1-4 (default 4)", 2},
    {"no-freeze", OPT_NO_FREEZE, NULL, 0,
     "do not stop the thread group at each sample (default with -p: a job-control shell would "
     "see the stops); the first access of a pair is then approximate",
     2},
    {"freeze", OPT_FREEZE, NULL, 0, "stop at each sample also with -p", 2},
    {"seed", OPT_SEED, "N", 0, "seed of the reservoir's random draws (default 1)", 2},
    {"no-baseline", OPT_NO_BASELINE, NULL, 0,
     "do not run CMD once more without benchscope to measure the overhead", 2},
    {"output", 'o', "TRACE", 0, "trace file (default benchscope-waste.trace)", 3},
    {"json", OPT_JSON, "FILE", 0, "write the report as JSON ('-': stdout)", 3},
    {"folded", OPT_FOLDED, "FILE", 0,
     "write one line per wasteful pair stack with its bytes, for flame-graph tools ('-': stdout)",
     3},
    {"top", OPT_TOP, "N", 0, "pairs shown (default 10; --from-trace: the run's)", 3},
    {"depth", OPT_DEPTH, "N", 0, "frames shown per stack (default 6; --from-trace: the run's)", 3},
    {"from-trace", OPT_FROM_TRACE, "TRACE", 0, "render the report of a recorded trace", 3},
    {"quiet", 'q', NULL, 0, "no progress messages", 3},
    {0}};

static const char waste_doc[] =
    "Find dead stores, silent stores and silent loads with hardware watchpoints.\v"
    "A dead store is a store followed by another store to the same bytes with no load "
    "between; a silent store writes the value already there; a silent load reads the value "
    "the previous load read. Samples of memory accesses (Intel PEBS or AMD IBS where the CPU has "
    "it, "
    "otherwise timer samples whose instruction is decoded with the sampled registers) arm "
    "per-thread debug registers; the next access that traps is classified.\n\n"
    "Threads and child processes created later are followed; at exec a process's watchpoints "
    "are dropped and its symbols read again. Without --no-freeze each sample stops the "
    "thread group (SIGSTOP) until its watchpoint is armed.\n\n"
    "EXAMPLES\n"
    "  benchscope waste -- ./prog args\n"
    "  benchscope waste --kind dead-store --folded out.folded -- gzip -c big.txt\n"
    "  benchscope waste -p 1234 --no-baseline\n"
    "  benchscope waste --from-trace benchscope-waste.trace --json -\n\n"
    "Needs hardware watchpoints that fire (benchscope doctor), root or CAP_BPF + "
    "CAP_PERFMON.\n" BS_EXIT_STATUS_HELP;

/* "500us", "2ms", "1s", "100000" (ns) -> ns */
static int parse_period(const char *s, uint64_t *ns)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(s, &end);
	if (errno || end == s || !(x > 0))
		return -1;
	if (!*end || !strcmp(end, "ns"))
		;
	else if (!strcmp(end, "us"))
		x *= 1e3;
	else if (!strcmp(end, "ms"))
		x *= 1e6;
	else if (!strcmp(end, "s"))
		x *= 1e9;
	else
		return -1;
	if (x < 1 || x > 1e12)
		return -1;
	*ns = (uint64_t)x;
	return 0;
}

static error_t waste_parse(int key, char *arg, struct argp_state *state)
{
	struct bs_waste_args *a = state->input;
	uint64_t v;
	char *end;

	switch (key) {
	case OPT_KIND:
		a->kinds = bs_waste_kinds_parse(arg);
		if (!a->kinds)
			return bs_argp_error(
			    state,
			    "--kind takes dead-store, silent-store, silent-load or all, not '%s'",
			    arg);
		break;
	case 'p':
		if (bs_parse_u64(arg, 1, 1u << 22, &v))
			return bs_argp_error(state, "-p takes a process id, not '%s'", arg);
		a->pid = (pid_t)v;
		break;
	case OPT_SOURCE: {
		int src = bs_waste_source_parse(arg);

		if (src < 0)
			return bs_argp_error(
			    state, "--source takes auto, pebs, ibs, timer or pmu, not '%s'", arg);
		a->source = (enum bs_waste_source)(src < 0 ? 0 : src);
		break;
	}
	case OPT_PERIOD:
		if (parse_period(arg, &a->period))
			return bs_argp_error(
			    state,
			    "--period takes a positive duration (500us, 2ms) or count, not '%s'",
			    arg);
		break;
	case OPT_OVERHEAD:
		a->overhead_pct = strtod(arg, &end);
		if (*end || !(a->overhead_pct > 0 && a->overhead_pct <= 100))
			return bs_argp_error(
			    state, "--overhead takes a percentage in (0, 100], not '%s'", arg);
		break;
	case OPT_FPTOL:
		a->fp_tol = strtod(arg, &end);
		if (*end || !(a->fp_tol >= 0 && a->fp_tol < 100))
			return bs_argp_error(
			    state, "--fp-tolerance takes a percentage in [0, 100), not '%s'", arg);
		a->fp_tol /= 100;
		break;
	case OPT_REGS:
		if (bs_parse_u64(arg, 1, 4, &v))
			return bs_argp_error(state, "--regs takes 1 to 4, not '%s'", arg);
		a->regs = (int)v;
		break;
	case OPT_TOP:
		if (bs_parse_u64(arg, 0, 100000, &v))
			return bs_argp_error(state, "--top takes a whole number, not '%s'", arg);
		a->top = (int)v;
		a->top_set = true;
		break;
	case OPT_DEPTH:
		if (bs_parse_u64(arg, 1, BS_WASTE_STACK, &v))
			return bs_argp_error(state, "--depth takes 1 to %d, not '%s'",
					     BS_WASTE_STACK, arg);
		a->depth = (int)v;
		a->depth_set = true;
		break;
	case OPT_SEED:
		if (bs_parse_u64(arg, 0, UINT64_MAX, &a->seed))
			return bs_argp_error(state, "--seed takes a whole number, not '%s'", arg);
		break;
	case OPT_FREEZE:
		a->freeze = true;
		a->freeze_set = true;
		break;
	case OPT_NO_FREEZE:
		a->freeze = false;
		a->freeze_set = true;
		break;
	case OPT_NO_BASELINE:
		a->baseline = false;
		break;
	case 'o':
		a->trace = arg;
		break;
	case OPT_JSON:
		a->json = arg;
		break;
	case OPT_FOLDED:
		a->folded = arg;
		break;
	case OPT_FROM_TRACE:
		a->from_trace = arg;
		break;
	case 'q':
		a->quiet = true;
		break;
	case ARGP_KEY_ARGS:
		a->cmd = state->argv + state->next;
		break;
	case ARGP_KEY_END:
		if (a->from_trace && (a->cmd || a->pid))
			return bs_argp_error(state,
					     "--from-trace renders a trace: no CMD or -p with it");
		if (!a->from_trace && !a->cmd && !a->pid)
			return bs_argp_error(
			    state, "nothing to profile: benchscope waste [OPTIONS] -- CMD "
				   "[ARGS...] or -p PID");
		if (a->cmd && a->pid)
			return bs_argp_error(state, "give either CMD or -p PID, not both");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bs_waste_argp = {waste_options, waste_parse, "-- CMD [ARGS...]", waste_doc, NULL,
				   NULL,	  NULL};

void bs_waste_args_default(struct bs_waste_args *a)
{
	memset(a, 0, sizeof(*a));
	a->kinds = BS_WK_ALL;
	a->overhead_pct = 5;
	a->fp_tol = 0.01;
	a->regs = 4;
	a->top = 10;
	a->depth = 6;
	a->freeze = true;
	a->baseline = true;
	a->seed = 1;
	a->trace = "benchscope-waste.trace";
}
