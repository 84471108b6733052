/* SPDX-License-Identifier: MIT */
/*
 * test_catch2.c - `--preset catch2` without BPF:
 *   - bs_catch2_calibration on run sequences shaped like Catch2's
 *     (estimation chains 1, 2, 4, ... then samples of one count; counts
 *     from traces of tests/progs/catch2_bench);
 *   - bs_catch2_resolve on the real Catch2 2.x program: its begin/end sites
 *     are exactly the out-of-line ChronometerModel::start()/finish() and
 *     every place DWARF says their bodies were inlined (read here with
 *     libdw, independently of the code under test, the way gdb sets a
 *     breakpoint on an inlined function), every site of an inline copy is a
 *     `call`, the model<Fun>::call functions are those nm lists, the
 *     Chronometer layout is checked against DWARF, and the benchmark-name
 *     sites are benchmarkPreparing and its inline copy;
 *   - bad input: a program that is not Catch2, a stripped copy, a copy
 *     without DWARF (still resolved, the layout from the header), a file
 *     that is not ELF, a missing file.
 */
#include "cmd.h"
#include "binary/catch2.h"
#include "trace/catch2_runs.h"
#include "test.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>

/* ---- bs_catch2_calibration ---------------------------------------------------------------- */

/* Run CALIB over iterations with counts inv[0..n) (0: no valid count), compare with want. */
static void check_calib(const unsigned long long *inv, const bool *want, size_t n)
{
	struct bs_iter_rec r[64];
	const struct bs_iter_rec *p[64];
	bool calib[64];

	for (size_t i = 0; i < n; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].type = BS_REC_ITER;
		r[i].tid = 7;
		r[i].index = i;
		r[i].invocations = inv[i];
		r[i].flags = inv[i] ? BS_ITER_F_INVOC : BS_ITER_F_INVOC_BAD;
		p[i] = &r[i];
		calib[i] = !want[i]; /* poison: every entry must be written */
	}
	bs_catch2_calibration(p, n, calib, NULL);
	for (size_t i = 0; i < n; i++) {
		CHECK_INT_EQ(calib[i], want[i]);
		if (calib[i] != want[i])
			fprintf(stderr, "  iteration %zu (%llu invocations)\n", i, inv[i]);
	}
}

#define CHECK_CALIB(inv, want)                                                                     \
	do {                                                                                       \
		_Static_assert(sizeof(inv) / sizeof(inv[0]) == sizeof(want) / sizeof(want[0]),     \
			       "lengths");                                                         \
		check_calib(inv, want, sizeof(inv) / sizeof(inv[0]));                              \
	} while (0)

/* "fnv1a 256 bytes" of catch2_bench: 16 estimation runs (1 .. 32768), 6 of its 20 samples of 247 */
static void test_calib_typical(void)
{
	static const unsigned long long inv[] = {1,   2,   4,	 8,    16,   32,   64,	  128,
						 256, 512, 1024, 2048, 4096, 8192, 16384, 32768,
						 247, 247, 247,	 247,  247,  247};
	static const bool want[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
				    1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};

	CHECK_CALIB(inv, want);
}

/* The samples have as many invocations as the last estimation run (ceil(...) can reach it):
 * that run is still estimation. Google Benchmark's rule would call it a measurement. */
static void test_calib_samples_equal_last_estimation(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 8, 8, 8, 8};
	static const bool want[] = {1, 1, 1, 1, 0, 0, 0};

	CHECK_CALIB(inv, want);
}

/* One invocation outlasts the warmup time ("sort 20000 ints" with a short warmup): a single
 * estimation run of 1, then samples of 1. */
static void test_calib_single_estimation(void)
{
	static const unsigned long long inv[] = {1, 1, 1, 1, 1};
	static const bool want[] = {1, 0, 0, 0, 0};

	CHECK_CALIB(inv, want);
}

/* The same benchmark run twice (a SECTION, a GENERATE): each run starts a chain again. */
static void test_calib_benchmark_again(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 3, 3, 3, 1, 2, 4, 8, 5, 5, 5};
	static const bool want[] = {1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0};

	CHECK_CALIB(inv, want);
}

/* ... and with one invocation per sample: 1 | 1 1 | 1 2 | 2 2: the 1 before the 2 began the
 * second chain. */
static void test_calib_again_after_samples_of_one(void)
{
	static const unsigned long long inv[] = {1, 1, 1, 1, 2, 2, 2};
	static const bool want[] = {1, 0, 0, 1, 1, 0, 0};

	CHECK_CALIB(inv, want);
}

/* An iteration without a valid count is never a measurement, and does not break the chain. */
static void test_calib_invalid_counts(void)
{
	static const unsigned long long inv[] = {1, 2, 0, 4, 8, 6, 0, 6, 6};
	static const bool want[] = {1, 1, 1, 1, 1, 0, 1, 0, 0};

	CHECK_CALIB(inv, want);
}

static void test_calib_empty_and_estimation_only(void)
{
	static const unsigned long long inv[] = {1, 2, 4, 8, 16};
	static const bool want[] = {1, 1, 1, 1, 1};

	bs_catch2_calibration(NULL, 0, NULL, NULL); /* nothing to do, nothing touched */
	CHECK_CALIB(inv, want);
}

/* ---- bs_catch2_resolve on the real program ------------------------------------------------ */

static char prog[PATH_MAX];

/* What DWARF says about one function: where its out-of-line copy and its inlined copies
 * begin (DW_AT_low_pc of the DW_TAG_subprogram, entry pc of each DW_TAG_inlined_subroutine). */
struct dwarf_sites {
	const char *linkage; /* mangled name */
	uint64_t outline;
	uint64_t inl[64];
	size_t n_inl;
};

static void walk(Dwarf_Die *die, struct dwarf_sites *w, size_t nw, int depth)
{
	Dwarf_Die child;

	do {
		int tag = dwarf_tag(die);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			Dwarf_Attribute a;
			const char *ln = NULL;
			Dwarf_Addr pc;

			if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a))
				ln = dwarf_formstring(&a);
			for (size_t i = 0; ln && i < nw; i++) {
				if (strcmp(ln, w[i].linkage))
					continue;
				if (tag == DW_TAG_subprogram && dwarf_lowpc(die, &pc) == 0)
					w[i].outline = pc;
				else if (tag == DW_TAG_inlined_subroutine && w[i].n_inl < 64 &&
					 dwarf_entrypc(die, &pc) == 0)
					w[i].inl[w[i].n_inl++] = pc;
			}
		}
		if (depth < 64 && dwarf_child(die, &child) == 0)
			walk(&child, w, nw, depth + 1);
	} while (dwarf_siblingof(die, die) == 0);
}

static int dwarf_collect(const char *path, struct dwarf_sites *w, size_t nw)
{
	int fd = open(path, O_RDONLY);
	Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	Dwarf_Off off = 0, next;
	size_t hsize;

	if (!dw) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &child) == 0)
			walk(&child, w, nw, 0);
		off = next;
	}
	dwarf_end(dw);
	close(fd);
	return 0;
}

static bool has_site(const struct bs_catch2_site *v, uint32_t n, uint64_t va, uint32_t kind)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i].vaddr == va && v[i].kind == kind)
			return true;
	return false;
}

/* Byte of PATH at file offset OFF, or -1. */
static int byte_at(const char *path, uint64_t off)
{
	unsigned char b;
	int fd = open(path, O_RDONLY);
	ssize_t r = fd >= 0 ? pread(fd, &b, 1, (off_t)off) : -1;

	if (fd >= 0)
		close(fd);
	return r == 1 ? b : -1;
}

#define START_SYM                                                                                  \
	"_ZN5Catch9Benchmark6Detail16ChronometerModelINSt6chrono3_V212steady_clockEE5startEv"
#define FINISH_SYM                                                                                 \
	"_ZN5Catch9Benchmark6Detail16ChronometerModelINSt6chrono3_V212steady_clockEE6finishEv"
#define PREP_SYM                                                                                   \
	"_ZN5Catch10RunContext18benchmarkPreparingERKNSt7__cxx1112basic_stringIcSt11char_"         \
	"traitsIcESaIcEEE"

static struct bs_catch2_plan plan; /* 30 KiB: not on the stack */

static void test_resolve_sites_agree_with_dwarf(void)
{
	struct dwarf_sites w[3] = {
	    {.linkage = START_SYM}, {.linkage = FINISH_SYM}, {.linkage = PREP_SYM}};
	char err[2048];
	int r;

	if (access(prog, R_OK))
		SKIP("%s not built (make examples; needs Debian's catch2)", prog);
	r = bs_catch2_resolve(prog, &plan, err, sizeof(err));
	CHECK_INT_EQ(r, 0);
	if (r) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK(!strcmp(plan.clock, "std::chrono::_V2::steady_clock"));
	CHECK(!strcmp(plan.layout, "DWARF"));
	CHECK_INT_EQ(plan.name_abi, BS_CATCH2_NAME_STDSTRING);
	CHECK(!strcmp(plan.name_path, plan.path));
	if (dwarf_collect(prog, w, 3)) {
		FAILF("libdw cannot read the DWARF of %s", prog);
		return;
	}
	/* g++ -O2 inlines a copy into each model<Fun>::call: the 3 BENCHMARKs and do_nothing */
	CHECK_INT_EQ(w[0].n_inl, 4);
	CHECK_INT_EQ(w[1].n_inl, 4);
	/* start(): the out-of-line entry and one site per inlined copy, no other */
	CHECK_INT_EQ(plan.n_begin, 1 + w[0].n_inl);
	CHECK_INT_EQ(plan.n_begin_inline, w[0].n_inl);
	CHECK(w[0].outline && has_site(plan.begin, plan.n_begin, w[0].outline, BS_CATCH2_ENTRY));
	for (size_t i = 0; i < w[0].n_inl; i++)
		CHECK(has_site(plan.begin, plan.n_begin, w[0].inl[i], BS_CATCH2_INLINE));
	CHECK_INT_EQ(plan.n_end, 1 + w[1].n_inl);
	CHECK_INT_EQ(plan.n_end_inline, w[1].n_inl);
	CHECK(w[1].outline && has_site(plan.end, plan.n_end, w[1].outline, BS_CATCH2_ENTRY));
	for (size_t i = 0; i < w[1].n_inl; i++)
		CHECK(has_site(plan.end, plan.n_end, w[1].inl[i], BS_CATCH2_INLINE));
	/* an inline site is a direct call (e8 rel32, of Clock::now()) */
	for (uint32_t i = 0; i < plan.n_begin; i++)
		if (plan.begin[i].kind == BS_CATCH2_INLINE)
			CHECK_INT_EQ(byte_at(prog, plan.begin[i].offset), 0xe8);
	for (uint32_t i = 0; i < plan.n_end; i++)
		if (plan.end[i].kind == BS_CATCH2_INLINE)
			CHECK_INT_EQ(byte_at(prog, plan.end[i].offset), 0xe8);
	/* benchmarkPreparing: its entry, and in its one inlined copy (in Benchmark::run) the
	 * reporter's indirect call (ff /2) a few instructions after DWARF's entry */
	CHECK_INT_EQ(w[2].n_inl, 1);
	CHECK_INT_EQ(plan.n_name, 1 + w[2].n_inl);
	CHECK_INT_EQ(plan.n_name_inline, w[2].n_inl);
	CHECK(has_site(plan.name, plan.n_name, w[2].outline, BS_CATCH2_ENTRY));
	for (uint32_t i = 0; i < plan.n_name; i++) {
		if (plan.name[i].kind != BS_CATCH2_INLINE)
			continue;
		CHECK(plan.name[i].vaddr > w[2].inl[0] && plan.name[i].vaddr - w[2].inl[0] < 32);
		CHECK_INT_EQ(byte_at(prog, plan.name[i].offset), 0xff);
	}
}

/* The model<Fun>::call functions are the ones nm lists (clones excluded). */
static void test_resolve_calls_agree_with_nm(void)
{
	char cmd[PATH_MAX + 256], out[4096], err[2048], *line, *save;
	size_t n = 0;

	if (access(prog, R_OK))
		SKIP("%s not built", prog);
	CHECK_INT_EQ(bs_catch2_resolve(prog, &plan, err, sizeof(err)), 0);
	snprintf(
	    cmd, sizeof(cmd),
	    "nm -C '%s' | grep 'BenchmarkFunction::model<.*>::call(Catch::Benchmark::Chronometer) "
	    "const$' | cut -d' ' -f1",
	    prog);
	CHECK_INT_EQ(cmd_output(cmd, out, sizeof(out)), 0);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t va = strtoull(line, NULL, 16);
		bool found = false;

		for (uint32_t i = 0; i < plan.n_call; i++)
			found |= plan.call[i].vaddr == va;
		CHECK(found);
		n++;
	}
	CHECK_INT_EQ(n, 4);
	CHECK_INT_EQ(plan.n_call, n);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void test_resolve_refuses_other_programs(void)
{
	char other[PATH_MAX], err[2048];

	prog_path("gbench_example", other, sizeof(other));
	if (access(other, R_OK))
		SKIP("%s not built", other);
	CHECK_INT_EQ(bs_catch2_resolve(other, &plan, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "does not look like a Catch2 test program with benchmarks") != NULL);
	CHECK(strstr(err, "found: 0 ChronometerModel<Clock>::start(), 0 finish(), 0 "
			  "BenchmarkFunction::model<Fun>::call(Chronometer), no "
			  "RunContext::benchmarkPreparing") != NULL);
	CHECK(strchr(err, '\n') == NULL);
	CHECK_INT_EQ(bs_catch2_resolve("/nonexistent/catch2", &plan, err, sizeof(err)), -ENOENT);
	CHECK_INT_EQ(bs_catch2_resolve("/etc/passwd", &plan, err, sizeof(err)), -ENOEXEC);
	CHECK(strstr(err, "not an ELF file") != NULL);
}

static void test_resolve_stripped_copies(void)
{
	char dir[64], cmd[PATH_MAX * 2 + 64], copy[128], out[64], err[2048];
	uint32_t n_begin;

	if (access(prog, R_OK))
		SKIP("%s not built", prog);
	temp_dir(dir, sizeof(dir));
	if (!*dir) {
		FAILF("no temporary directory");
		return;
	}
	/* all symbols gone: refused */
	snprintf(copy, sizeof(copy), "%s/stripped", dir);
	snprintf(cmd, sizeof(cmd), "strip -o '%s' '%s'", copy, prog);
	CHECK_INT_EQ(cmd_output(cmd, out, sizeof(out)), 0);
	CHECK_INT_EQ(bs_catch2_resolve(copy, &plan, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "has no symbol table (stripped?)") != NULL);
	/* debug info gone, symbols kept: resolved the same, the layout taken from the header */
	CHECK_INT_EQ(bs_catch2_resolve(prog, &plan, err, sizeof(err)), 0);
	n_begin = plan.n_begin;
	snprintf(copy, sizeof(copy), "%s/nodebug", dir);
	snprintf(cmd, sizeof(cmd), "strip --strip-debug -o '%s' '%s'", copy, prog);
	CHECK_INT_EQ(cmd_output(cmd, out, sizeof(out)), 0);
	CHECK_INT_EQ(bs_catch2_resolve(copy, &plan, err, sizeof(err)), 0);
	CHECK_INT_EQ(plan.n_begin, n_begin);
	CHECK(!strncmp(plan.layout, "header", 6));
	temp_dir_remove(dir);
}

int main(void)
{
	prog_path("catch2_bench", prog, sizeof(prog));
	RUN_TEST(test_calib_typical);
	RUN_TEST(test_calib_samples_equal_last_estimation);
	RUN_TEST(test_calib_single_estimation);
	RUN_TEST(test_calib_benchmark_again);
	RUN_TEST(test_calib_again_after_samples_of_one);
	RUN_TEST(test_calib_invalid_counts);
	RUN_TEST(test_calib_empty_and_estimation_only);
	RUN_TEST(test_resolve_sites_agree_with_dwarf);
	RUN_TEST(test_resolve_calls_agree_with_nm);
	RUN_TEST(test_resolve_refuses_other_programs);
	RUN_TEST(test_resolve_stripped_copies);
	return test_summary("catch2");
}
