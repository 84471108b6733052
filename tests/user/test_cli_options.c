// SPDX-License-Identifier: MIT
/* test_cli_options.c - the option parsers of `benchscope duet` and `benchscope
 * run` (bs_duet_argp, bs_measure_argp) on bad values: each is refused while
 * the options are parsed, before any probe or trace, with one line on stderr
 * and status 2. The parsers run in a child with stderr sent to a file; no
 * command is run. */
#include "test.h"
#include "util/cli.h"
#include "duet/options.h"
#include "probe/measure.h"
#include "probe/measure_options.h"
#include "fixture.h"
#include "cmd_capture.h"

static char out_path[300], err_path[300];
static struct bs_duet_args duet_args;

/* cap_run's command: duet's option parser alone (the status bs_argp_parse_own gives) */
static int parse_duet(int argc, char **argv)
{
	int status = 0;

	return bs_argp_parse_own(&bs_duet_argp, "benchscope duet", 0, argc, argv, &duet_args,
				 &status)
		   ? 0
		   : status;
}

/* duet's options, then "-A true -B true": the parse status */
static int duet_opts(const char *o1, const char *o2)
{
	const char *args[] = {o1, o2, "-A", "true", "-B", "true", NULL};

	return cap_run(parse_duet, "duet", args, out_path, err_path);
}

/* stderr is exactly one line containing @what */
static void check_one_line_err(const char *what)
{
	char *e = cap_slurp(err_path);

	CHECK_INT_EQ(cap_count_lines(e), 1);
	if (!strstr(e, what))
		FAILF("stderr '%s' lacks '%s'", e, what);
}

/* --min-overlap: 0 < M < 1; 0 is refused, not read as the default 0.4 */
static void test_duet_min_overlap(void)
{
	CHECK_INT_EQ(duet_opts("--min-overlap", "0"), 2);
	check_one_line_err("--min-overlap wants a ratio between 0 and 1");
	CHECK_INT_EQ(duet_opts("--min-overlap", "1"), 2);
	CHECK_INT_EQ(duet_opts("--min-overlap", "-0.1"), 2);
	CHECK_INT_EQ(duet_opts("--min-overlap", "x"), 2);
	CHECK_INT_EQ(duet_opts("--min-overlap", "0.5"), 0);
	CHECK_INT_EQ(duet_opts("--min-overlap", "0.9995"), 0);
}

/* --plot: a name that is neither .svg nor .png is refused before anything runs */
static void test_duet_plot_name(void)
{
	CHECK_INT_EQ(duet_opts("--plot", "x.txt"), 2);
	check_one_line_err("--plot wants a file name ending in .svg or .png, not 'x.txt'");
	CHECK_INT_EQ(duet_opts("--plot", "svg"), 2);
	CHECK_INT_EQ(duet_opts("--plot", "o.svg"), 0);
	CHECK_INT_EQ(duet_opts("--plot", "o.png"), 0);
}

/* run's way of handing bs_measure_argp its input */
static error_t measure_parent(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	if (key != ARGP_KEY_INIT)
		return ARGP_ERR_UNKNOWN;
	state->child_inputs[0] = state->input;
	return 0;
}

/* cap_run's command: run's measurement options alone (bs_measure_argp) */
static int parse_measure(int argc, char **argv)
{
	struct bs_measure_opts mo;
	struct argp_child ch[] = {{&bs_measure_argp, 0, NULL, 0}, {0}};
	struct argp argp = {NULL, measure_parent, NULL, NULL, ch, NULL, NULL};
	int status = 0;

	memset(&mo, 0, sizeof(mo));
	return bs_argp_parse(&argp, "benchscope run", argc, argv, &mo, (const char *[2]){0}, 2,
			     &status)
		   ? 0
		   : status;
}

/* --user: a name that is no user of this machine is refused while the
 * options are read (before BPF is loaded or the trace created) */
static void test_user_unknown(void)
{
	static const char nobody[] = "bs-no-such-user-4711";

	CHECK_INT_EQ(duet_opts("--user", nobody), 2);
	check_one_line_err("--user names no user of this machine: 'bs-no-such-user-4711'");
	CHECK_INT_EQ(duet_opts("--user", "root"), 0);
	CHECK_INT_EQ(cap_run(parse_measure, "run", (const char *[]){"--user", nobody, NULL},
			     out_path, err_path),
		     2);
	check_one_line_err("--user names no user of this machine");
	CHECK_INT_EQ(cap_run(parse_measure, "run", (const char *[]){"--user", "root", NULL},
			     out_path, err_path),
		     0);
}

int main(void)
{
	fx_path(out_path, sizeof(out_path), "cli_options.out");
	fx_path(err_path, sizeof(err_path), "cli_options.err");
	RUN_TEST(test_duet_min_overlap);
	RUN_TEST(test_duet_plot_name);
	RUN_TEST(test_user_unknown);
	return test_summary("test_cli_options");
}
