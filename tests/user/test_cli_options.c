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

int main(void)
{
	fx_path(out_path, sizeof(out_path), "cli_options.out");
	fx_path(err_path, sizeof(err_path), "cli_options.err");
	RUN_TEST(test_duet_min_overlap);
	RUN_TEST(test_duet_plot_name);
	return test_summary("test_cli_options");
}
