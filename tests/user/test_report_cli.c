// SPDX-License-Identifier: MIT
/* test_report_cli.c - `benchscope report` (cmd_report): exports, exit codes,
 * one-line errors, the truncation warning. Each call runs in a child with
 * stdout and stderr sent to files. */
#include <json-c/json.h>

#include "test.h"
#include "fixture_run.h"
#include "cmd_capture.h"
#include "trace/dataset.h"
#include "commands.h"

static char out_path[300], err_path[300];

/* Run cmd_report with the NULL-terminated args; return its exit status. */
static int run_report(const char *const *args)
{
	return cap_run(cmd_report, "report", args, out_path, err_path);
}

static void test_exports(void)
{
	char trace[300], json[300], csv[300], md[300];

	CHECK_INT_EQ(fx_write_run(fx_path(trace, sizeof(trace), "cli.trace")), 0);
	fx_path(json, sizeof(json), "cli.json");
	fx_path(csv, sizeof(csv), "cli.csv");
	fx_path(md, sizeof(md), "cli.md");
	{
		const char *a[] = {trace,  "--json", json,    "--csv", csv,
				   "--md", md,	     "--top", "1",     NULL};
		CHECK_INT_EQ(run_report(a), 0);
	}
	CHECK(strstr(cap_slurp(out_path), "Iterations: 8 in 2 processes") != NULL);
	CHECK(strstr(cap_slurp(out_path), "Top interferers (1 of 2 threads") != NULL);
	CHECK(strcmp(cap_slurp(err_path), "") == 0);
	CHECK_INT_EQ(cap_count_lines(cap_slurp(csv)), 10);
	CHECK(strncmp(cap_slurp(md), "# benchscope: ./bench --fast", 28) == 0);
	{
		json_object *root = json_tokener_parse(cap_slurp(json));

		CHECK(root != NULL);
		CHECK_INT_EQ(json_object_array_length(json_object_object_get(
				 json_object_object_get(root, "interferers"), "top")),
			     1);
		json_object_put(root);
	}
	/* one export on stdout replaces the table */
	{
		const char *a[] = {trace, "--csv", "-", NULL};
		CHECK_INT_EQ(run_report(a), 0);
		CHECK(strncmp(cap_slurp(out_path), "index,pid,tid,", 14) == 0);
		CHECK_INT_EQ(cap_count_lines(cap_slurp(out_path)), 10);
	}
	{
		const char *a[] = {trace, "--top", "0", NULL};
		CHECK_INT_EQ(run_report(a), 0);
		CHECK(strstr(cap_slurp(out_path),
			     "2 threads, 4.500 µs in all (none listed: --top 0)"));
	}
	{
		const char *a[] = {"--quiet", trace, NULL};
		CHECK_INT_EQ(run_report(a), 0);
		CHECK(strcmp(cap_slurp(out_path), "") == 0);
	}
}

/* Usage errors and bad traces: exit 2, one line on stderr, no crash. */
/* the run's --top (CONTEXT "top") is report's default; --top given wins */
static void test_top_of_run(void)
{
	char trace[300], ctx[sizeof(fx_run_context) + 16];

	snprintf(ctx, sizeof(ctx), "%.*s,\"top\":1}", (int)strlen(fx_run_context) - 1,
		 fx_run_context);
	CHECK_INT_EQ(fx_write_run_ctx(fx_path(trace, sizeof(trace), "top.trace"), ctx), 0);
	{
		const char *a[] = {trace, NULL};
		CHECK_INT_EQ(run_report(a), 0);
		CHECK(strstr(cap_slurp(out_path), "Top interferers (1 of 2 threads") != NULL);
	}
	{
		const char *a[] = {trace, "--top", "5", NULL};
		CHECK_INT_EQ(run_report(a), 0);
		CHECK(strstr(cap_slurp(out_path), "Top interferers (1 of 2 threads") == NULL);
	}
}

static void test_errors(void)
{
	char trace[300], bad[300];
	FILE *f;
	const char *e;

	fx_path(trace, sizeof(trace), "cli.trace");
	const char *cases[][4] = {
	    {NULL},
	    {"--frobnicate", trace, NULL},
	    {trace, "--top", "-1", NULL},
	    {trace, "--top", "x", NULL},
	    {trace, "--json", "-", NULL}, /* placeholder replaced below */
	    {trace, "extra", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *two[] = {trace, "--json", "-", "--csv", "-", NULL};
		int rc = run_report(i == 4 ? two : cases[i]);

		CHECK_INT_EQ(rc, 2);
		e = cap_slurp(err_path);
		CHECK(strncmp(e, "benchscope report: ", 19) == 0);
		CHECK_INT_EQ(cap_count_lines(e), 1);
	}
	f = fopen(fx_path(bad, sizeof(bad), "bad.trace"), "wb");
	fputs("this is not a trace at all", f);
	fclose(f);
	{
		const char *a[] = {bad, NULL};
		CHECK_INT_EQ(run_report(a), 2);
		e = cap_slurp(err_path);
		CHECK(strstr(e, "not a benchscope trace (bad magic)") != NULL);
		CHECK_INT_EQ(cap_count_lines(e), 1);
	}
	{
		const char *a[] = {"/nonexistent/x.trace", NULL};
		CHECK_INT_EQ(run_report(a), 2);
		CHECK(strstr(cap_slurp(err_path), "No such file or directory") != NULL);
	}
	{
		const char *a[] = {trace, "--json", "/nonexistent/dir/x.json", NULL};
		CHECK_INT_EQ(run_report(a), 1);
		CHECK(strstr(cap_slurp(err_path), "cannot write /nonexistent/dir/x.json") != NULL);
	}
	{
		const char *a[] = {"--help", NULL};
		CHECK_INT_EQ(run_report(a), 0);
		CHECK(strstr(cap_slurp(out_path), "Usage: benchscope report TRACE") != NULL);
	}
}

/* A truncated trace is reported, with a warning on stderr. */
static void test_truncated_warning(void)
{
	char trace[300], cut[300];
	long size;

	fx_path(trace, sizeof(trace), "cli.trace");
	size = fx_file_size(trace);
	CHECK(size > 20);
	CHECK_INT_EQ(fx_copy_prefix(trace, fx_path(cut, sizeof(cut), "cut.trace"), size - 4), 0);
	{
		const char *a[] = {cut, NULL};
		CHECK_INT_EQ(run_report(a), 0);
	}
	CHECK(strstr(cap_slurp(err_path), "trace truncated after 18 blocks holding 9 iteration "
					  "records (its writer did not finish it"));
	CHECK(strstr(cap_slurp(out_path), "(truncated: its writer did not finish it)") != NULL);
}

/* stdout that cannot be written: exit 1 and one line saying so, for the table and for '-' */
static void test_stdout_full(void)
{
	char trace[300];
	const char *full = cap_full(), *e;

	if (!full)
		SKIP("no /dev/full");
	CHECK_INT_EQ(fx_write_run(fx_path(trace, sizeof(trace), "full.trace")), 0);
	CHECK_INT_EQ(cap_run(cmd_report, "report", (const char *[]){trace, NULL}, full, err_path),
		     1);
	e = cap_slurp(err_path);
	CHECK(!strcmp(e, "benchscope report: cannot write the report to stdout: No space left on "
			 "device\n"));
	CHECK_INT_EQ(cap_run(cmd_report, "report", (const char *[]){trace, "--csv", "-", NULL},
			     full, err_path),
		     1);
	e = cap_slurp(err_path);
	CHECK(strstr(e, "benchscope report: cannot write to stdout") && cap_count_lines(e) == 1);
}

/* A trace cut before its CONTEXT block holds no header: one line saying so,
 * status 3 (no data), no report of n/a figures blaming the probes. */
static void test_truncated_before_context(void)
{
	char trace[300], cut[300];
	long size, len;
	bool found = false;

	fx_path(trace, sizeof(trace), "cli.trace");
	fx_path(cut, sizeof(cut), "nohdr.trace");
	size = fx_file_size(trace);
	/* the longest prefix that loads and holds no CONTEXT */
	for (len = 8; len < size; len++) {
		struct bs_dataset *ds = NULL;
		char err[256];

		CHECK_INT_EQ(fx_copy_prefix(trace, cut, len), 0);
		if (bs_dataset_load(cut, &ds, err, sizeof(err)))
			continue;
		bool ctx = ds->has_context;

		bs_dataset_free(ds);
		if (ctx)
			break;
		found = true;
	}
	CHECK(found);
	CHECK_INT_EQ(fx_copy_prefix(trace, cut, len - 1), 0);
	{
		const char *a[] = {cut, NULL};
		CHECK_INT_EQ(run_report(a), 3);
	}
	CHECK_INT_EQ(cap_count_lines(cap_slurp(err_path)), 1);
	CHECK(strstr(cap_slurp(err_path), "holds no header (CONTEXT block)") != NULL);
	CHECK(strstr(cap_slurp(err_path), "probes never fired") == NULL);
	CHECK(strcmp(cap_slurp(out_path), "") == 0);
}

int main(void)
{
	fx_path(out_path, sizeof(out_path), "stdout.txt");
	fx_path(err_path, sizeof(err_path), "stderr.txt");
	RUN_TEST(test_exports);
	RUN_TEST(test_errors);
	RUN_TEST(test_truncated_warning);
	RUN_TEST(test_stdout_full);
	RUN_TEST(test_truncated_before_context);
	RUN_TEST(test_top_of_run);
	fx_cleanup();
	return test_summary("test_report_cli");
}
