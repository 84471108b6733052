/* SPDX-License-Identifier: MIT */
/*
 * test_elfsym.c - function symbols, USDT notes, build ids and the gbench
 * preset, checked on real files against readelf/objdump/g++ (independent of
 * the code under test), plus garbage and truncated ELF input.
 */
#include "cmd.h"
#include "binary/elfsym.h"
#include "binary/gbench.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sys/stat.h>

#define LIBBENCH_LINK "/usr/lib/x86_64-linux-gnu/libbenchmark.so.1debian"

static char libbench[PATH_MAX]; /* canonical path of the installed libbenchmark, "" if absent */

/* Expected file offset of the .dynsym symbol SYM, computed with readelf alone. */
static int readelf_offset(const char *path, const char *sym, uint64_t *off)
{
	char cmd[2048], out[4096];
	uint64_t value, addr, shoff;
	unsigned ndx;
	snprintf(
	    cmd, sizeof(cmd),
	    "readelf -Ws --dyn-syms '%s' | awk '$8==\"%s\" && $7!=\"UND\" {print $2, $7; exit}'",
	    path, sym);
	if (cmd_output(cmd, out, sizeof(out)) || sscanf(out, "%" SCNx64 " %u", &value, &ndx) != 2)
		return -1;
	snprintf(cmd, sizeof(cmd),
		 "readelf -SW '%s' | sed -n 's/^ *\\[ *%u\\] *[^ ]* *[^ ]* *\\([0-9a-f]*\\) "
		 "*\\([0-9a-f]*\\).*/\\1 \\2/p'",
		 path, ndx);
	if (cmd_output(cmd, out, sizeof(out)) ||
	    sscanf(out, "%" SCNx64 " %" SCNx64, &addr, &shoff) != 2)
		return -1;
	*off = value - addr + shoff;
	return 0;
}

/* Byte of PATH at file offset OFF, or -1. */
static int byte_at(const char *path, uint64_t off)
{
	unsigned char b;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t r = pread(fd, &b, 1, (off_t)off);
	close(fd);
	return r == 1 ? b : -1;
}

static void test_func_mangled_and_demangled(void)
{
	static const char *const names[][3] = {
	    {BS_GBENCH_START_SYM, "benchmark::State::StartKeepRunning",
	     "benchmark::State::StartKeepRunning()"},
	    {BS_GBENCH_FINISH_SYM, "benchmark::State::FinishKeepRunning",
	     "benchmark::State::FinishKeepRunning( )"},
	};
	char err[2048], name[256];
	if (!*libbench)
		SKIP("%s not installed (libbenchmark-dev)", LIBBENCH_LINK);
	for (size_t i = 0; i < 2; i++) {
		uint64_t want, off, size;
		if (readelf_offset(libbench, names[i][0], &want))
			SKIP("readelf could not give the offset of %s", names[i][0]);
		for (size_t j = 0; j < 3; j++) {
			off = size = 0;
			int r = bs_elf_find_func(libbench, names[i][j], &off, &size, name,
						 sizeof(name), err, sizeof(err));
			CHECK_INT_EQ(r, 0);
			if (r)
				fprintf(stderr, "  %s: %s\n", names[i][j], err);
			CHECK_INT_EQ(off, want);
			CHECK(size > 0);
			CHECK(strcmp(name, names[i][0]) == 0);
		}
	}
}

static void test_func_closest_matches(void)
{
	char err[4096];
	uint64_t off;
	if (!*libbench)
		SKIP("libbenchmark not installed");
	CHECK_INT_EQ(
	    bs_elf_find_func(libbench, "StartKeepRuning", &off, NULL, NULL, 0, err, sizeof(err)),
	    -ENOENT);
	CHECK(strstr(err, "symbol 'StartKeepRuning' not found in ") != NULL);
	CHECK(strstr(err, "closest: benchmark::State::StartKeepRunning()") != NULL);
	CHECK_INT_EQ(bs_elf_find_func(libbench, "benchmark::State::FinishKeepRuning", &off, NULL,
				      NULL, 0, err, sizeof(err)),
		     -ENOENT);
	CHECK(strstr(err, "benchmark::State::FinishKeepRunning()") != NULL);
	/* Substring matches rank first. */
	CHECK_INT_EQ(
	    bs_elf_find_func(libbench, "KeepRunning", &off, NULL, NULL, 0, err, sizeof(err)),
	    -ENOENT);
	CHECK(strstr(err, "StartKeepRunning()") && strstr(err, "FinishKeepRunning()"));
}

static void test_func_overloads(void)
{
	char err[8192], name[256];
	uint64_t off;
	if (!*libbench)
		SKIP("libbenchmark not installed");
	/* Six overloads in 1.7.1: ambiguous without parameters, unique with them. */
	CHECK_INT_EQ(bs_elf_find_func(libbench, "benchmark::RunSpecifiedBenchmarks", &off, NULL,
				      NULL, 0, err, sizeof(err)),
		     -EINVAL);
	CHECK(strstr(err, "ambiguous") && strstr(err, "benchmark::RunSpecifiedBenchmarks()"));
	CHECK_INT_EQ(bs_elf_find_func(libbench, "benchmark::RunSpecifiedBenchmarks()", &off, NULL,
				      name, sizeof(name), err, sizeof(err)),
		     0);
	CHECK(strcmp(name, "_ZN9benchmark22RunSpecifiedBenchmarksEv") == 0);
}

static void test_func_c_symbol(void)
{
	char err[1024], name[64], path[PATH_MAX];
	uint64_t off, want;
	prog_path("usdt_loop", path, sizeof(path));
	if (access(path, R_OK))
		SKIP("%s not built (make examples)", path);
	/* main is in .symtab only (not exported). */
	CHECK_INT_EQ(
	    bs_elf_find_func(path, "main", &off, NULL, name, sizeof(name), err, sizeof(err)), 0);
	char cmd[PATH_MAX + 256], out[256];
	snprintf(cmd, sizeof(cmd), "nm '%s' | awk '$3==\"main\" {print $1}'", path);
	uint64_t value;
	if (cmd_output(cmd, out, sizeof(out)) == 0 && sscanf(out, "%" SCNx64, &value) == 1 &&
	    bs_elf_find_func(path, "main", &want, NULL, NULL, 0, err, sizeof(err)) == 0) {
		/* For a PIE whose text segment maps at its file offset, value == offset. */
		snprintf(cmd, sizeof(cmd),
			 "objdump -d --start-address=0x%" PRIx64 " --stop-address=0x%" PRIx64
			 " '%s' | grep -c '<main>:'",
			 value, value + 1, path);
		CHECK(cmd_output(cmd, out, sizeof(out)) == 0 && atoi(out) == 1);
	}
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

/* Copy the first LEN bytes of SRC to DST. */
static void copy_prefix(const char *src, const char *dst, size_t len)
{
	FILE *in = fopen(src, "rb");
	char *buf = malloc(len);
	if (in && buf) {
		size_t got = fread(buf, 1, len, in);
		write_file(dst, buf, got);
	}
	if (in)
		fclose(in);
	free(buf);
}

static void test_bad_input(void)
{
	char dir[64], p[256], err[1024], hex[128];
	uint64_t off;
	struct bs_usdt_note *v;
	size_t n;
	temp_dir(dir, sizeof(dir));
	if (!*dir)
		SKIP("mkdtemp failed");
	snprintf(p, sizeof(p), "%s/text", dir);
	write_file(p, "this is not an ELF file\n", 24);
	CHECK_INT_EQ(bs_elf_find_func(p, "main", &off, NULL, NULL, 0, err, sizeof(err)), -ENOEXEC);
	CHECK(strstr(err, "is not an ELF file") != NULL);
	CHECK_INT_EQ(bs_elf_list_usdt(p, &v, &n), -ENOEXEC);
	CHECK_INT_EQ(bs_elf_check_usdt(p, "a", "b", err, sizeof(err)), -ENOEXEC);
	CHECK_INT_EQ(bs_elf_build_id(p, hex, sizeof(hex)), -ENOEXEC);
	CHECK_INT_EQ(bs_elf_find_func(p, "", &off, NULL, NULL, 0, err, sizeof(err)), -EINVAL);
	CHECK_INT_EQ(
	    bs_elf_find_func("/nonexistent/file", "main", &off, NULL, NULL, 0, err, sizeof(err)),
	    -ENOENT);
	/* ELF magic followed by garbage. */
	unsigned char junk[4096];
	memcpy(junk, "\177ELF\2\1\1", 7);
	for (size_t i = 7; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 2654435761u >> 13);
	snprintf(p, sizeof(p), "%s/junk", dir);
	write_file(p, junk, sizeof(junk));
	CHECK(bs_elf_find_func(p, "main", &off, NULL, NULL, 0, err, sizeof(err)) < 0);
	CHECK(bs_elf_list_usdt(p, &v, &n) <= 0);
	free(n ? v : NULL);
	/* Truncated copies of real files: every prefix length must fail cleanly. */
	const char *srcs[] = {libbench, "/usr/bin/python3.11"};
	static const size_t cuts[] = {10, 64, 200, 4096, 65536, 300000};
	for (size_t s = 0; s < 2; s++) {
		if (!*srcs[s] || access(srcs[s], R_OK))
			continue;
		for (size_t c = 0; c < sizeof(cuts) / sizeof(cuts[0]); c++) {
			snprintf(p, sizeof(p), "%s/trunc", dir);
			copy_prefix(srcs[s], p, cuts[c]);
			int r = bs_elf_find_func(p, BS_GBENCH_START_SYM, &off, NULL, NULL, 0, err,
						 sizeof(err));
			CHECK(r == -ENOEXEC || r == -ENOENT);
			if (bs_elf_list_usdt(p, &v, &n) == 0)
				free(v);
			bs_elf_build_id(p, hex, sizeof(hex));
		}
	}
	temp_dir_remove(dir);
}

static void test_build_id(void)
{
	char cmd[PATH_MAX + 128], want[256], hex[128];
	if (!*libbench)
		SKIP("libbenchmark not installed");
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' | awk '/Build ID:/ {print $3; exit}'",
		 libbench);
	if (cmd_output(cmd, want, sizeof(want)) || !*want)
		SKIP("readelf shows no build id");
	want[strcspn(want, "\n")] = '\0';
	CHECK_INT_EQ(bs_elf_build_id(libbench, hex, sizeof(hex)), 0);
	CHECK(strcmp(hex, want) == 0);
	CHECK_INT_EQ(bs_elf_build_id(libbench, hex, 8), -ENOSPC);
}

/* Find provider:name in V; its index or -1. */
static long find_note(const struct bs_usdt_note *v, size_t n, const char *prov, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].provider, prov) && !strcmp(v[i].name, name))
			return (long)i;
	return -1;
}

static void test_usdt_loop_notes(void)
{
	char path[PATH_MAX], err[2048];
	struct bs_usdt_note *v;
	size_t n;
	prog_path("usdt_loop", path, sizeof(path));
	if (access(path, R_OK))
		SKIP("%s not built (make examples)", path);
	CHECK_INT_EQ(bs_elf_list_usdt(path, &v, &n), 0);
	CHECK_INT_EQ(n, 2);
	long b = find_note(v, n, "benchscope_test", "iter_begin");
	long e = find_note(v, n, "benchscope_test", "iter_end");
	CHECK(b >= 0 && e >= 0);
	if (b >= 0 && e >= 0) {
		/* sys/sdt.h places a one-byte nop (0x90) at each probe site. */
		CHECK_INT_EQ(byte_at(path, v[b].pc_offset), 0x90);
		CHECK_INT_EQ(byte_at(path, v[e].pc_offset), 0x90);
		CHECK(v[b].pc_offset < v[e].pc_offset);
		CHECK(strstr(v[b].args, "8@") != NULL); /* one 8-byte signed argument, i */
		CHECK_INT_EQ(v[b].sema_addr, 0);
	}
	free(v);
	CHECK_INT_EQ(bs_elf_check_usdt(path, "benchscope_test", "iter_end", err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_elf_check_usdt(path, "benchscope_test", "iter_begn", err, sizeof(err)),
		     -ENOENT);
	CHECK(strstr(err, "closest: benchscope_test:iter_begin") != NULL);
	if (*libbench) {
		CHECK_INT_EQ(bs_elf_check_usdt(libbench, "x", "y", err, sizeof(err)), -ENOENT);
		CHECK(strstr(err, "has no USDT probes") != NULL);
	}
}

static void test_python_usdt(void)
{
	const char *py = "/usr/bin/python3.11";
	char cmd[256], out[64], err[1024];
	struct bs_usdt_note *v;
	size_t n;
	if (access(py, R_OK))
		SKIP("%s not installed", py);
	snprintf(cmd, sizeof(cmd), "readelf -n %s | grep -c 'Provider: python'", py);
	if (cmd_output(cmd, out, sizeof(out)) != 0 || atoi(out) == 0)
		SKIP("%s has no python USDT probes (built without --with-dtrace)", py);
	CHECK_INT_EQ(bs_elf_list_usdt(py, &v, &n), 0);
	CHECK_INT_EQ(n, (size_t)atoi(out));
	long fe = find_note(v, n, "python", "function__entry");
	CHECK(fe >= 0);
	if (fe >= 0) {
		CHECK_INT_EQ(byte_at(py, v[fe].pc_offset), 0x90);
		CHECK(v[fe].sema_addr != 0); /* python guards its probes with semaphores */
	}
	free(v);
	CHECK_INT_EQ(bs_elf_check_usdt(py, "python", "gc__start", err, sizeof(err)), 0);
}

/* offsetof() values compiled against the installed header: "max started finished error". */
static int header_offsets(unsigned o[4])
{
	char dir[64], cmd[1024], out[256];
	temp_dir(dir, sizeof(dir));
	if (!*dir)
		return -1;
	snprintf(
	    cmd, sizeof(cmd),
	    "cd %s && printf '%%s\\n' '#define private public' '#include <benchmark/benchmark.h>' "
	    "'#include <cstddef>' '#include <cstdio>' 'using S = benchmark::State;' "
	    "'int main() { std::printf(\"%%zu %%zu %%zu %%zu\\\\n\", offsetof(S, max_iterations), "
	    "offsetof(S, started_), offsetof(S, finished_), offsetof(S, error_occurred_)); }' > "
	    "o.cc && "
	    "g++ -w -o o o.cc -lbenchmark 2>/dev/null && ./o",
	    dir);
	int r = cmd_output(cmd, out, sizeof(out));
	temp_dir_remove(dir);
	return r == 0 && sscanf(out, "%u %u %u %u", &o[0], &o[1], &o[2], &o[3]) == 4 ? 0 : -1;
}

static void test_gbench_layout(void)
{
	char exe[PATH_MAX], lib[PATH_MAX], err[2048], cmd[PATH_MAX + 256], dis[16384];
	uint64_t s, f, ws, wf;
	struct bs_gbench_layout l;
	unsigned o[4];
	prog_path("gbench_example", exe, sizeof(exe));
	if (!*libbench || access(exe, R_OK))
		SKIP("libbenchmark or %s missing (make examples)", exe);
	int r = bs_gbench_resolve(exe, lib, sizeof(lib), &s, &f, &l, err, sizeof(err));
	CHECK_INT_EQ(r, 0);
	if (r) {
		fprintf(stderr, "  %s\n", err);
		return;
	}
	CHECK(strcmp(lib, libbench) == 0);
	CHECK(strcmp(l.version, "1.7.1") == 0);
	CHECK(readelf_offset(lib, BS_GBENCH_START_SYM, &ws) == 0 && s == ws);
	CHECK(readelf_offset(lib, BS_GBENCH_FINISH_SYM, &wf) == 0 && f == wf);
	if (header_offsets(o) == 0) {
		CHECK_INT_EQ(l.off_max_iterations, o[0]);
		CHECK_INT_EQ(l.off_started, o[1]);
		CHECK_INT_EQ(l.off_finished, o[2]);
		CHECK_INT_EQ(l.off_error, o[3]);
	} else {
		FAILF("could not compile the offsetof() check with g++ and the installed header");
	}
	/* The compiled code reads the same fields: !started_ && !finished_, then max_iterations. */
	snprintf(cmd, sizeof(cmd),
		 "objdump -d --no-show-raw-insn --start-address=0x%" PRIx64
		 " --stop-address=0x%" PRIx64 " '%s'",
		 s, s + 0x200, lib);
	CHECK_INT_EQ(cmd_output(cmd, dis, sizeof(dis)), 0);
	char pat[64];
	snprintf(pat, sizeof(pat), "cmpb   $0x0,0x%x(%%rdi)", l.off_started);
	CHECK(strstr(dis, pat) != NULL);
	snprintf(pat, sizeof(pat), "cmpb   $0x0,0x%x(%%rdi)", l.off_finished);
	CHECK(strstr(dis, pat) != NULL);
	snprintf(pat, sizeof(pat), "mov    0x%x(%%r", l.off_max_iterations);
	CHECK(strstr(dis, pat) != NULL);
}

static void test_gbench_versions(void)
{
	char exe[PATH_MAX], dir[64], p[PATH_MAX], cmd[PATH_MAX * 3], out[64], lib[PATH_MAX],
	    err[2048], ver[32];
	uint64_t s, f;
	struct bs_gbench_layout l;
	prog_path("gbench_example", exe, sizeof(exe));
	if (!*libbench || access(exe, R_OK))
		SKIP("libbenchmark or %s missing (make examples)", exe);
	temp_dir(dir, sizeof(dir));
	/* A copy installed as another version: refused, not read at guessed offsets. */
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir a b && cp '%s' a/libbenchmark.so.1.8.0 && "
		 "ln -s libbenchmark.so.1.8.0 a/libbenchmark.so.1debian && cp '%s' "
		 "b/libbenchmark.so.1debian",
		 dir, libbench, libbench);
	if (!*dir || cmd_output(cmd, out, sizeof(out)))
		SKIP("could not prepare copies of libbenchmark");
	char *saved = getenv("LD_LIBRARY_PATH") ? strdup(getenv("LD_LIBRARY_PATH")) : NULL;
	snprintf(p, sizeof(p), "%s/a", dir);
	setenv("LD_LIBRARY_PATH", p, 1);
	CHECK_INT_EQ(bs_gbench_resolve(exe, lib, sizeof(lib), &s, &f, &l, err, sizeof(err)),
		     -ENOTSUP);
	CHECK(strstr(err, "libbenchmark 1.8.0 has no verified State layout (verified: 1.7.1)") !=
	      NULL);
	CHECK(strstr(err, "--begin/--end") != NULL);
	/* A copy whose name carries no version: recognised by its build-id. */
	snprintf(p, sizeof(p), "%s/b", dir);
	setenv("LD_LIBRARY_PATH", p, 1);
	CHECK_INT_EQ(bs_gbench_resolve(exe, lib, sizeof(lib), &s, &f, &l, err, sizeof(err)), 0);
	snprintf(p, sizeof(p), "%s/b/libbenchmark.so.1debian", dir);
	CHECK(strcmp(lib, p) == 0);
	CHECK_INT_EQ(bs_gbench_version(p, ver, sizeof(ver)), 0);
	CHECK(strcmp(ver, "1.7.1") == 0);
	if (saved)
		setenv("LD_LIBRARY_PATH", saved, 1);
	else
		unsetenv("LD_LIBRARY_PATH");
	free(saved);
	temp_dir_remove(dir);
	/* A program without Google Benchmark. */
	prog_path("usdt_loop", p, sizeof(p));
	if (!access(p, R_OK)) {
		CHECK_INT_EQ(bs_gbench_resolve(p, lib, sizeof(lib), &s, &f, &l, err, sizeof(err)),
			     -ENOENT);
		CHECK(strstr(err, "does not look like a Google Benchmark program") != NULL);
	}
}

int main(void)
{
	if (!realpath(LIBBENCH_LINK, libbench))
		libbench[0] = '\0';
	RUN_TEST(test_func_mangled_and_demangled);
	RUN_TEST(test_func_closest_matches);
	RUN_TEST(test_func_overloads);
	RUN_TEST(test_func_c_symbol);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_build_id);
	RUN_TEST(test_usdt_loop_notes);
	RUN_TEST(test_python_usdt);
	RUN_TEST(test_gbench_layout);
	RUN_TEST(test_gbench_versions);
	return test_summary("test_elfsym");
}
