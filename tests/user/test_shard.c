// SPDX-License-Identifier: MIT
/*
 * test_shard.c - `--shard I/N` (probe/shard.h): the spec, the partition
 * rule (the shards cover the listed suite exactly once), the filter (checked
 * with POSIX regexec as the independent matcher), the listing of a stand-in
 * harness (sh -c), the line of a harness that cannot run, and the CONTEXT
 * member read back by trace/context.h.
 */
#include <errno.h>
#include <json-c/json.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "fixture.h"
#include "cmd_capture.h"
#include "probe/shard.h"
#include "trace/context.h"

static void test_parse(void)
{
	struct bs_shard sh;
	char err[256];
	const char *bad[] = {"4/4",  "a/b", "1/0",	"-1/4", "0/",	 "/4",
			     "0/4x", "",    "0/100001", "0 /4", "1/2/3", "04"};

	CHECK_INT_EQ(bs_shard_parse("0/4", &sh, err, sizeof(err)), 0);
	CHECK(sh.set && sh.index == 0 && sh.count == 4);
	CHECK_INT_EQ(bs_shard_parse("3/4", &sh, err, sizeof(err)), 0);
	CHECK(sh.index == 3 && sh.count == 4);
	CHECK_INT_EQ(bs_shard_parse("0/1", &sh, err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		if (bs_shard_parse(bad[i], &sh, err, sizeof(err)) != -EINVAL)
			FAILF("'%s' accepted", bad[i]);
		CHECK(strstr(err, "--shard takes I/N") && !strchr(err, '\n'));
	}
	CHECK_INT_EQ(bs_shard_parse(NULL, &sh, err, sizeof(err)), -EINVAL);
}

static char **copy_names(const char *const *v, size_t n)
{
	char **out = calloc(n, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		out[i] = strdup(v[i]);
	return out;
}

/* 13 distinct names, 4 of them twice, unsorted */
static const char *const suite[] = {"BM_z",
				    "BM_a/8",
				    "BM_a/64",
				    "BM_m",
				    "BM_a/8",
				    "BM_b<int>",
				    "BM_c/min_time:0.050",
				    "BM_y",
				    "BM_m",
				    "BM_q/real_time",
				    "BM_x",
				    "BM_d",
				    "BM_e",
				    "BM_z",
				    "BM_f",
				    "BM_y",
				    "BM_g"};
#define N_SUITE	   (sizeof(suite) / sizeof(suite[0]))
#define N_DISTINCT 13

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_partition(void)
{
	const char *sorted[N_DISTINCT];
	size_t m = 0;

	/* the truth: the distinct names, sorted */
	for (size_t i = 0; i < N_SUITE; i++) {
		size_t j;

		for (j = 0; j < m && strcmp(sorted[j], suite[i]); j++)
			;
		if (j == m)
			sorted[m++] = suite[i];
	}
	CHECK_INT_EQ(m, N_DISTINCT);
	qsort(sorted, m, sizeof(*sorted), cmp);
	for (long n = 1; n <= 20; n++) {
		int seen[N_DISTINCT] = {0};

		for (long i = 0; i < n; i++) {
			struct bs_shard sh = {.set = true, .index = i, .count = n};
			char **all = copy_names(suite, N_SUITE);

			CHECK_INT_EQ(bs_shard_pick(&sh, all, N_SUITE), 0);
			bs_shard_names_free(all, N_SUITE);
			CHECK_INT_EQ(sh.n_listed, N_DISTINCT);
			/* sizes: floor or ceil of M/N */
			CHECK(sh.n_names == N_DISTINCT / (size_t)n ||
			      sh.n_names == N_DISTINCT / (size_t)n + 1);
			for (size_t k = 0; k < sh.n_names; k++) {
				size_t pos;

				for (pos = 0; pos < m && strcmp(sorted[pos], sh.names[k]); pos++)
					;
				if (pos == m || (long)(pos % (size_t)n) != i)
					FAILF("N=%ld I=%ld: '%s' at %zu", n, i, sh.names[k], pos);
				else
					seen[pos]++;
				if (k && strcmp(sh.names[k - 1], sh.names[k]) >= 0)
					FAILF("N=%ld I=%ld: not sorted", n, i);
			}
			bs_shard_free(&sh);
		}
		for (size_t pos = 0; pos < m; pos++)
			if (seen[pos] != 1)
				FAILF("N=%ld: '%s' in %d shards", n, sorted[pos], seen[pos]);
	}
}

static bool posix_match(const char *re, const char *s)
{
	regex_t r;
	bool ok;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB))
		return false;
	ok = regexec(&r, s, 0, NULL, 0) == 0;
	regfree(&r);
	return ok;
}

static void test_filter(void)
{
	struct bs_boundaries b = {.mode = BS_BOUND_GBENCH};
	const char *others[] = {"BM_a/8",     "BM_a/64", "BM_c/min_time:0x050",
				"BM_b<int>x", "xBM_m",	 "BM_q/real_time",
				"BM_a/8/9"};
	struct bs_shard sh = {.set = true, .index = 0, .count = 1};
	const char *names[] = {"BM_c/min_time:0.050", "BM_m", "BM_b<int>", "BM_(x)|y*"};
	char **all = copy_names(names, 4), *f;

	CHECK_INT_EQ(bs_shard_pick(&sh, all, 4), 0);
	bs_shard_names_free(all, 4);
	f = bs_shard_filter(&b, &sh);
	CHECK(f && !strncmp(f, "--benchmark_filter=^(", 21));
	if (f) {
		const char *re = f + strlen("--benchmark_filter=");

		CHECK(!strcmp(re, "^(BM_\\(x\\)\\|y\\*|BM_b<int>|BM_c/min_time:0\\.050|BM_m)$"));
		for (size_t i = 0; i < 4; i++)
			if (!posix_match(re, names[i]))
				FAILF("%s does not match '%s'", re, names[i]);
		for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
			if (posix_match(re, others[i]))
				FAILF("%s matches '%s'", re, others[i]);
	}
	free(f);
	b.mode = BS_BOUND_GO;
	f = bs_shard_filter(&b, &sh);
	CHECK(f && !strncmp(f, "-test.bench=^(BM_", 17));
	free(f);
	b.mode = BS_BOUND_CRITERION;
	f = bs_shard_filter(&b, &sh);
	CHECK(f && !strncmp(f, "^(BM_", 5));
	free(f);
	bs_shard_free(&sh);
	CHECK(bs_shard_filter(&b, &sh) == NULL); /* empty shard: no filter */
}

/* A stand-in harness: sh -c SCRIPT sh OPTION, OPTION being what the preset adds. */
static int list_with(enum bs_bound_mode mode, const char *script, char ***names, size_t *n,
		     char *err, size_t errlen)
{
	struct bs_boundaries b = {.mode = mode};
	char *argv[] = {"sh", "-c", (char *)script, "sh", NULL};

	return bs_shard_list(&b, argv, names, n, err, errlen);
}

static void test_list(void)
{
	char **names = NULL, err[512] = "";
	size_t n = 0;

	CHECK_INT_EQ(list_with(BS_BOUND_GBENCH,
			       "[ \"$1\" = --benchmark_list_tests=true ] || exit 9; "
			       "printf 'BM_b\\nBM_a/8\\n\\nBM_c\\n'",
			       &names, &n, err, sizeof(err)),
		     0);
	CHECK_INT_EQ(n, 3);
	if (n == 3)
		CHECK(!strcmp(names[0], "BM_b") && !strcmp(names[1], "BM_a/8") &&
		      !strcmp(names[2], "BM_c"));
	bs_shard_names_free(names, n);
	CHECK_INT_EQ(list_with(BS_BOUND_GO,
			       "[ \"$1\" = '-test.list=^Benchmark' ] || exit 9; "
			       "printf 'BenchmarkB\\nBenchmarkA\\nok  \\tx\\t0.1s\\n'",
			       &names, &n, err, sizeof(err)),
		     0);
	CHECK_INT_EQ(n, 2);
	bs_shard_names_free(names, n);
	CHECK_INT_EQ(list_with(BS_BOUND_CRITERION,
			       "[ \"$1\" = --list ] || exit 9; "
			       "printf 'grp/fn/8: bench\\nother: bench\\nWARNING: x\\n'",
			       &names, &n, err, sizeof(err)),
		     0);
	CHECK_INT_EQ(n, 2);
	if (n == 2)
		CHECK(!strcmp(names[0], "grp/fn/8") && !strcmp(names[1], "other"));
	bs_shard_names_free(names, n);
	/* a failing listing: one line naming the exit status */
	CHECK_INT_EQ(list_with(BS_BOUND_GBENCH, "exit 3", &names, &n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "exited with status 3") && !strchr(err, '\n'));
	/* presets that cannot list */
	CHECK_INT_EQ(list_with(BS_BOUND_CATCH2, "exit 0", &names, &n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "Catch2"));
	CHECK_INT_EQ(list_with(BS_BOUND_PROCESS, "exit 0", &names, &n, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "--preset gbench, go or criterion"));
}

/* as a command: list a harness that does not exist; 0 when refused */
static int list_missing(int argc, char **argv)
{
	struct bs_boundaries b = {.mode = BS_BOUND_GBENCH};
	char *harness[] = {"/nonexistent/harness", NULL}, **names = NULL, err[512];
	size_t n = 0;

	(void)argc;
	(void)argv;
	return bs_shard_list(&b, harness, &names, &n, err, sizeof(err)) == -EINVAL ? 0 : 1;
}

/* a harness that cannot run: its child's line names the command (run, duet) */
static void test_list_cannot_run(void)
{
	char out[300], err[300];
	const char *none[] = {NULL};

	fx_path(out, sizeof(out), "list.out");
	fx_path(err, sizeof(err), "list.err");
	CHECK_INT_EQ(cap_run(list_missing, "duet", none, out, err), 0);
	CHECK(!strcmp(cap_slurp(err), "benchscope duet: cannot run /nonexistent/harness: No such "
				      "file or directory\n"));
}

static void test_resolve(void)
{
	struct bs_boundaries b = {.mode = BS_BOUND_GBENCH};
	const struct bs_boundaries *bb[] = {&b, &b};
	char *a[] = {"sh", "-c", "printf 'BM_a\\nBM_b\\nBM_c\\n'", "sh", NULL};
	char *bv[] = {"sh", "-c", "printf 'BM_c\\nBM_d\\n'", "sh", NULL};
	char *none[] = {"sh", "-c", "true", "sh", NULL};
	char *const *cc[] = {a, bv}, *const * cn[] = {none};
	struct bs_shard sh = {.set = true, .index = 1, .count = 2};
	char err[512];

	/* duet: the union of A's and B's, a b c d; shard 1 of 2 is b, d */
	CHECK_INT_EQ(bs_shard_resolve(&sh, bb, cc, 2, err, sizeof(err)), 0);
	CHECK_INT_EQ(sh.n_listed, 4);
	CHECK_INT_EQ(sh.n_names, 2);
	if (sh.n_names == 2)
		CHECK(!strcmp(sh.names[0], "BM_b") && !strcmp(sh.names[1], "BM_d"));
	bs_shard_free(&sh);
	CHECK_INT_EQ(bs_shard_resolve(&sh, bb, cn, 1, err, sizeof(err)), -ENODATA);
	CHECK(strstr(err, "lists no benchmark"));
	/* N larger than the suite: an empty shard, not an error */
	sh.index = 7;
	sh.count = 8;
	CHECK_INT_EQ(bs_shard_resolve(&sh, bb, cc, 1, err, sizeof(err)), 0);
	CHECK_INT_EQ(sh.n_names, 0);
	CHECK_INT_EQ(sh.n_listed, 3);
	bs_shard_free(&sh);
}

static void test_context(void)
{
	struct bs_shard sh = {.set = true, .index = 2, .count = 4};
	const char *names[] = {"BM_x", "BM_y"};
	json_object *ctx = json_object_new_object();
	struct bs_run_context c;
	char **all = copy_names(names, 2), err[256];

	sh.index = 1;
	sh.count = 2;
	CHECK_INT_EQ(bs_shard_pick(&sh, all, 2), 0);
	bs_shard_names_free(all, 2);
	json_object_object_add(ctx, "shard", bs_shard_json(&sh));
	CHECK_INT_EQ(bs_run_context_decode(ctx, &c, err, sizeof(err)), 0);
	CHECK(c.shard.present && c.shard.index == 1 && c.shard.count == 2 && c.shard.listed == 2);
	CHECK_INT_EQ(c.shard.n_benchmarks, 1);
	if (c.shard.n_benchmarks == 1)
		CHECK(!strcmp(c.shard.benchmarks[0], "BM_y"));
	bs_run_context_free(&c);
	/* absent: not present, -1 */
	CHECK_INT_EQ(bs_run_context_decode(NULL, &c, err, sizeof(err)), 0);
	CHECK(!c.shard.present && c.shard.index == -1 && c.shard.benchmarks == NULL);
	bs_run_context_free(&c);
	/* index out of range: an error naming the key */
	json_object_object_add(json_object_object_get(ctx, "shard"), "index",
			       json_object_new_int(2));
	CHECK_INT_EQ(bs_run_context_decode(ctx, &c, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "shard.index"));
	json_object_put(ctx);
	bs_shard_free(&sh);
}

int main(void)
{
	RUN_TEST(test_parse);
	RUN_TEST(test_partition);
	RUN_TEST(test_filter);
	RUN_TEST(test_list);
	RUN_TEST(test_list_cannot_run);
	RUN_TEST(test_resolve);
	RUN_TEST(test_context);
	return test_summary("test_shard");
}
