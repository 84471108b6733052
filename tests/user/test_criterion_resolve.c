// SPDX-License-Identifier: MIT
/*
 * test_criterion_resolve - `--preset criterion` without BPF: legacy Rust
 * symbol paths (against rustc's mangling rules), the probe sites of the
 * real criterion benchmark tests/progs/criterion_bench (against nm's symbol
 * table and llvm-dwarfdump's reading of the DWARF, two independent tools),
 * and the one-line errors of `benchscope run --preset criterion` on
 * binaries that cannot be measured (stripped, without debug info, not
 * criterion), exit status 2, before any BPF is loaded.
 */
#include <errno.h>

#include "binary/criterion.h"
#include "binary/rustsym.h"
#include "commands.h"
#include "cmd.h"
#include "cmd_capture.h"
#include "test.h"

static void check_path(const char *mangled, int want_rc, const char *want)
{
	char out[512];
	int rc = bs_rust_legacy_path(mangled, out, sizeof(out));

	if (rc != want_rc)
		FAILF("%s: rc %d, want %d", mangled, rc, want_rc);
	else if (!rc && strcmp(out, want))
		FAILF("%s: '%s', want '%s'", mangled, out, want);
}

static void test_legacy_paths(void)
{
	check_path("_ZN9criterion7bencher16Bencher$LT$M$GT$4iter17hac57268a9f8fac27E", 0,
		   "criterion::bencher::Bencher<M>::iter");
	check_path(
	    "_ZN106_$LT$criterion..routine..Function$LT$M$C$F$C$T$GT$$u20$as$u20$criterion.."
	    "routine..Routine$LT$M$C$T$GT$$GT$7warm_up17h1cd9f0a4e5f0dfbfE",
	    0,
	    "<criterion::routine::Function<M,F,T> as criterion::routine::Routine<M,T>>::warm_up");
	check_path("_ZN72_$LT$criterion..report..Reports$u20$as$u20$criterion..report..Report$GT$"
		   "15benchmark_start17h1234567890abcdefE",
		   0, "<criterion::report::Reports as criterion::report::Report>::benchmark_start");
	/* $RF$ $BP$ $u7b$ ..., a single '.', and LTO's promoted-local suffix */
	check_path(
	    "_ZN4core3ptr74drop_in_place$LT$$RF$mut$u20$$BP$const$u20$$u7b$$u7b$closure$u7d$$"
	    "u7d$$GT$17h0123456789abcdefE.llvm.1234",
	    0, "core::ptr::drop_in_place<&mut *const {{closure}}>");
	/* from nm of tests/progs/criterion_bench */
	check_path(
	    "_ZN102_$LT$$LP$ExtendA$C$ExtendB$RP$$u20$as$u20$core..iter..traits..collect.."
	    "Extend$LT$$LP$A$C$B$RP$$GT$$GT$6extend6extend28_$u7b$$u7b$closure$u7d$$u7d$"
	    "17h510d9c7ee92c0ab4E.llvm.17182439128986108180",
	    0,
	    "<(ExtendA,ExtendB) as core::iter::traits::collect::Extend<(A,B)>>::extend::extend::"
	    "{{closure}}");
	check_path("_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h0123456789abcdefE", 0,
		   "std::rt::lang_start::{{closure}}");
	check_path("_ZN1a3b.c17h0123456789abcdefE", 0, "a::b.c");
	/* not legacy Rust: C++ without a hash, a clone suffix, v0, C, bad escape */
	check_path("_ZN9benchmark5State16StartKeepRunningEv", -EINVAL, "");
	check_path("_ZN9criterion7bencher16Bencher$LT$M$GT$4iter17hac57268a9f8fac27E.cold", -EINVAL,
		   "");
	check_path("_RNvCs1234_5crate4main", -EINVAL, "");
	check_path("main", -EINVAL, "");
	check_path("_ZN3foo$ZZ$17h0123456789abcdefE", -EINVAL, "");
	check_path("_ZN99foo17h0123456789abcdefE", -EINVAL, ""); /* length past the end */
	{
		char small[8];
		CHECK_INT_EQ(bs_rust_legacy_path("_ZN9criterion7bencher17h0123456789abcdefE", small,
						 sizeof(small)),
			     -ENOSPC);
	}
}

/* Count of lines of `nm PATH` that are local text symbols containing pat. */
static int nm_local_count(const char *path, const char *pat)
{
	char cmd[8192], out[64];

	snprintf(cmd, sizeof(cmd), "nm '%s' | grep -F ' t ' | grep -cF '%s'", path, pat);
	if (cmd_output(cmd, out, sizeof(out)) < 0)
		return -1;
	return atoi(out);
}

/* The byte offset llvm-dwarfdump gives member `member` of the type named `type`, -1 if none. */
static long dwarfdump_member(const char *path, const char *type, const char *member)
{
	char cmd[8192], out[256];

	snprintf(cmd, sizeof(cmd),
		 "llvm-dwarfdump --name='%s' --show-children '%s' 2>/dev/null | grep -A4 "
		 "'DW_AT_name.*(\"%s\")' | grep -m1 -o 'DW_AT_data_member_location.*' | "
		 "grep -o '0x[0-9a-f]*'",
		 type, path, member);
	if (cmd_output(cmd, out, sizeof(out)) != 0 || !out[0])
		return -1;
	return strtol(out, NULL, 16);
}

static void test_sites_of_the_test_benchmark(void)
{
	static struct bs_crit_layout l;
	char path[4096], err[2048];
	size_t n_kind[6] = {0};
	long iters_off, full_off;
	int rc;

	prog_path("criterion_bench", path, sizeof(path));
	if (access(path, X_OK))
		SKIP("%s not built (make examples; needs cargo, rustc, librust-criterion-dev)",
		     path);
	rc = bs_criterion_resolve(path, &l, err, sizeof(err));
	if (rc) {
		FAILF("bs_criterion_resolve: %d: %s", rc, err);
		return;
	}
	for (size_t i = 0; i < l.n; i++)
		n_kind[l.sites[i].kind]++;
	/* two closures use b.iter, one b.iter_custom; a warm_up per closure */
	CHECK_INT_EQ(n_kind[BS_CRIT_ITER], nm_local_count(path, "Bencher$LT$M$GT$4iter17h"));
	CHECK_INT_EQ(n_kind[BS_CRIT_ITER], 2);
	CHECK_INT_EQ(n_kind[BS_CRIT_ITER_CUSTOM],
		     nm_local_count(path, "Bencher$LT$M$GT$11iter_custom17h"));
	CHECK_INT_EQ(n_kind[BS_CRIT_ITER_CUSTOM], 1);
	CHECK_INT_EQ(n_kind[BS_CRIT_WARM_UP], 3);
	CHECK_INT_EQ(n_kind[BS_CRIT_NAME], 2); /* benchmark_start and profile */
	CHECK_INT_EQ(l.n_iter, 3);
	CHECK_INT_EQ(l.n_name, 2);
	CHECK(l.note[0] == '\0');
	/* iteration sites first, each with its closure in its DWARF name */
	for (size_t i = 0; i < 3; i++)
		CHECK(strstr(l.sites[i].what, "{closure#") != NULL);
	iters_off = dwarfdump_member(path, "Bencher<criterion::measurement::WallTime>", "iters");
	full_off = dwarfdump_member(path, "BenchmarkId", "full_id");
	if (iters_off < 0 || full_off < 0)
		SKIP("llvm-dwarfdump could not read the layouts (llvm installed?)");
	for (size_t i = 0; i < l.n; i++) {
		const struct bs_crit_site *s = &l.sites[i];

		if (s->kind <= BS_CRIT_ITER_BATCHED_REF) {
			CHECK_INT_EQ(s->off_a, iters_off);
			CHECK_INT_EQ(s->arg, 0); /* &mut self */
		} else if (s->kind == BS_CRIT_NAME) {
			/* a String of 3 words: the pointer and the length inside it */
			CHECK(s->off_a >= full_off && s->off_a < full_off + 24);
			CHECK(s->off_b >= full_off && s->off_b < full_off + 24);
			CHECK(s->off_a != s->off_b);
			CHECK_INT_EQ(s->arg, 1); /* (&self, id: &BenchmarkId, ...) */
		}
	}
}

/* `benchscope run --preset criterion -- BIN --bench`: exit 2 and one line with `want`. */
static void expect_refused(const char *prog, const char *want)
{
	char path[4096], out[4096], err[8192];
	const char *o = "/tmp/bs-test-crit.out", *e = "/tmp/bs-test-crit.err";
	const char *args[] = {"--preset", "criterion", "-o",	  "/tmp/bs-test-crit.trace",
			      "--",	  path,	       "--bench", NULL};
	int rc;

	prog_path(prog, path, sizeof(path));
	if (access(path, X_OK))
		SKIP("%s not built (make examples)", path);
	rc = cap_run(cmd_run, "run", args, o, e);
	cmd_output("cat /tmp/bs-test-crit.err", err, sizeof(err));
	cmd_output("cat /tmp/bs-test-crit.out", out, sizeof(out));
	CHECK_INT_EQ(rc, 2);
	CHECK_INT_EQ(cap_count_lines(err), 1);
	CHECK(out[0] == '\0');
	if (!strstr(err, want))
		FAILF("stderr lacks '%s': %s", want, err);
	unlink(o);
	unlink(e);
	unlink("/tmp/bs-test-crit.trace");
}

static void test_refuses_stripped(void)
{
	expect_refused("criterion_bench_stripped", "has no symbol table (.symtab; stripped?)");
}

static void test_refuses_without_debug_info(void)
{
	expect_refused("criterion_bench_nodebug", "no DWARF debug information");
}

static void test_refuses_other_programs(void)
{
	expect_refused("gbench_example", "does not look like a criterion benchmark");
	expect_refused("gbench_example", "found ");
}

int main(void)
{
	RUN_TEST(test_legacy_paths);
	RUN_TEST(test_sites_of_the_test_benchmark);
	RUN_TEST(test_refuses_stripped);
	RUN_TEST(test_refuses_without_debug_info);
	RUN_TEST(test_refuses_other_programs);
	return test_summary("criterion-resolve");
}
