/* SPDX-License-Identifier: MIT */
/*
 * test_libpath.c - command and library resolution checked against the
 * shell (command -v), the dynamic loader itself (ldd) and ldconfig -p, on
 * real programs, plus RPATH/RUNPATH/$ORIGIN programs built on the fly.
 */
#include "cmd.h"
#include "binary/ldcache.h"
#include "binary/libpath.h"
#include "test.h"

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

/* Canonical path ldd reports for the library NAME of EXE (env prefix ENV may be ""); 0 or -1. */
static int ldd_path(const char *env, const char *exe, const char *name, char *out, size_t len)
{
	char cmd[PATH_MAX * 2], buf[PATH_MAX];
	snprintf(cmd, sizeof(cmd), "%s ldd '%s' | awk '$1==\"%s\" && $2==\"=>\" {print $3; exit}'",
		 env, exe, name);
	if (cmd_output(cmd, buf, sizeof(buf)) || !*buf)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return realpath(buf, out) && strlen(out) < len ? 0 : -1;
}

static void test_which(void)
{
	char out[PATH_MAX], want[PATH_MAX], dir[64], p[PATH_MAX];
	if (cmd_output("command -v sh", want, sizeof(want)) || !*want)
		SKIP("the shell cannot find sh");
	want[strcspn(want, "\n")] = '\0';
	CHECK_INT_EQ(bs_which("sh", out, sizeof(out)), 0);
	CHECK(strcmp(out, want) == 0);
	CHECK_INT_EQ(bs_which("/bin/sh", out, sizeof(out)), 0);
	CHECK(strcmp(out, "/bin/sh") == 0);
	CHECK_INT_EQ(bs_which("no-such-command-benchscope", out, sizeof(out)), -ENOENT);
	CHECK_INT_EQ(bs_which("./no-such-file", out, sizeof(out)), -ENOENT);
	CHECK_INT_EQ(bs_which("", out, sizeof(out)), -ENOENT);
	CHECK_INT_EQ(bs_which("sh", out, 3), -ENAMETOOLONG);
	/* A non-executable match is EACCES (like execvp) unless an executable one follows. */
	temp_dir(dir, sizeof(dir));
	if (!*dir)
		SKIP("mkdtemp failed");
	snprintf(p, sizeof(p), "%s/harness", dir);
	FILE *f = fopen(p, "w");
	if (f)
		fclose(f);
	char *saved = strdup(getenv("PATH") ? getenv("PATH") : "");
	setenv("PATH", dir, 1);
	CHECK_INT_EQ(bs_which("harness", out, sizeof(out)), -EACCES);
	chmod(p, 0755);
	CHECK_INT_EQ(bs_which("harness", out, sizeof(out)), 0);
	CHECK(strcmp(out, p) == 0);
	setenv("PATH", saved, 1);
	free(saved);
	temp_dir_remove(dir);
}

static void test_gbench_spellings(void)
{
	static const char *const spellings[] = {"libbenchmark", "benchmark",
						"libbenchmark.so.1debian", "libbenchmark.so",
						"libbenchmark.so.1.7.1"};
	char exe[PATH_MAX], want[PATH_MAX], out[PATH_MAX], err[2048];
	prog_path("gbench_example", exe, sizeof(exe));
	if (access(exe, R_OK))
		SKIP("%s not built (make examples)", exe);
	if (ldd_path("", exe, "libbenchmark.so.1debian", want, sizeof(want)))
		SKIP("ldd does not show libbenchmark.so.1debian for %s", exe);
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		out[0] = '\0';
		CHECK_INT_EQ(
		    bs_resolve_binary(exe, spellings[i], out, sizeof(out), err, sizeof(err)), 0);
		if (strcmp(out, want) != 0)
			FAILF("'%s' resolved to '%s', ldd says '%s' (%s)", spellings[i], out, want,
			      err);
	}
}

static void test_libc_and_self(void)
{
	char exe[PATH_MAX], want[PATH_MAX], out[PATH_MAX], err[2048];
	prog_path("usdt_loop", exe, sizeof(exe));
	if (access(exe, R_OK))
		SKIP("%s not built (make examples)", exe);
	if (ldd_path("", exe, "libc.so.6", want, sizeof(want)))
		SKIP("ldd does not show libc.so.6");
	const char *names[] = {"libc", "c", "libc.so.6", "libc.so"};
	for (size_t i = 0; i < 4; i++) {
		CHECK_INT_EQ(bs_resolve_binary(exe, names[i], out, sizeof(out), err, sizeof(err)),
			     0);
		CHECK(strcmp(out, want) == 0);
	}
	/* BIN equal to the program's basename is the program. */
	CHECK_INT_EQ(bs_resolve_binary(exe, "usdt_loop", out, sizeof(out), err, sizeof(err)), 0);
	CHECK(realpath(exe, want) && strcmp(out, want) == 0);
	/* A path is taken as is. */
	CHECK_INT_EQ(bs_resolve_binary(exe, "/bin/sh", out, sizeof(out), err, sizeof(err)), 0);
	CHECK(realpath("/bin/sh", want) && strcmp(out, want) == 0);
	CHECK_INT_EQ(bs_resolve_binary(exe, "./no/such/lib.so", out, sizeof(out), err, sizeof(err)),
		     -ENOENT);
	CHECK(strstr(err, "no/such/lib.so") != NULL);
}

static void test_not_loaded(void)
{
	char exe[PATH_MAX], out[PATH_MAX], err[2048];
	prog_path("gbench_example", exe, sizeof(exe));
	if (access(exe, R_OK))
		SKIP("%s not built (make examples)", exe);
	CHECK_INT_EQ(bs_resolve_binary(exe, "libfoo", out, sizeof(out), err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "library 'libfoo' is not among the libraries") != NULL);
	CHECK(strstr(err, "(it loads: libbenchmark.so.1debian, libstdc++.so.6") != NULL);
	CHECK(strstr(err, "libc.so.6") != NULL);
	/* "benchmark_main" must not match libbenchmark by prefix. */
	CHECK_INT_EQ(bs_resolve_binary(exe, "benchmark_main", out, sizeof(out), err, sizeof(err)),
		     -ENOENT);
	CHECK_INT_EQ(
	    bs_resolve_binary("/nonexistent/prog", "libc", out, sizeof(out), err, sizeof(err)),
	    -ENOENT);
	CHECK_INT_EQ(bs_resolve_binary("/etc/hostname", "libc", out, sizeof(out), err, sizeof(err)),
		     -ENOEXEC);
}

/* The closure equals the set of files ldd lists (vDSO aside). */
static void test_needed_libs_match_ldd(void)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 128], buf[8192];
	char **v;
	size_t n;
	prog_path("gbench_example", exe, sizeof(exe));
	if (access(exe, R_OK))
		SKIP("%s not built (make examples)", exe);
	snprintf(
	    cmd, sizeof(cmd),
	    "ldd '%s' | awk '$2==\"=>\" {print $3} $1 ~ /^\\// {print $1}' | xargs -r realpath",
	    exe);
	if (cmd_output(cmd, buf, sizeof(buf)) || !*buf)
		SKIP("ldd failed");
	CHECK_INT_EQ(bs_needed_libs(exe, &v, &n), 0);
	size_t lines = 0;
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		lines++;
		int found = 0;
		for (size_t i = 0; i < n; i++)
			found |= strcmp(v[i], line) == 0;
		if (!found)
			FAILF("ldd lists %s, bs_needed_libs does not", line);
	}
	CHECK_INT_EQ(n, lines);
	bs_free_strv(v, n);
}

/* Build a library and programs that find it through RPATH / RUNPATH with $ORIGIN. */
static void test_rpath_runpath_origin(void)
{
	char dir[64], cmd[4096], out[PATH_MAX], want[PATH_MAX], err[2048], exe[PATH_MAX];
	temp_dir(dir, sizeof(dir));
	if (!*dir)
		SKIP("mkdtemp failed");
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p lib bin other && echo 'int bs_demo(void){return 7;}' > l.c && "
		 "cc -shared -fPIC -Wl,-soname,libbsdemo.so.1 -o lib/libbsdemo.so.1.0.0 l.c && "
		 "ln -s libbsdemo.so.1.0.0 lib/libbsdemo.so.1 && ln -s libbsdemo.so.1 "
		 "lib/libbsdemo.so && "
		 "cp lib/libbsdemo.so.1.0.0 other/libbsdemo.so.1 && "
		 "echo 'int bs_demo(void); int main(void){return bs_demo()-7;}' > m.c && "
		 "cc -o bin/runpath m.c -Llib -lbsdemo "
		 "-Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib' && "
		 "cc -o bin/rpath m.c -Llib -lbsdemo "
		 "-Wl,--disable-new-dtags,-rpath,'${ORIGIN}/../lib' && "
		 "bin/runpath && bin/rpath",
		 dir);
	if (cmd_output(cmd, out, sizeof(out))) {
		temp_dir_remove(dir);
		SKIP("cannot build the RPATH/RUNPATH programs with cc");
	}
	char *saved = getenv("LD_LIBRARY_PATH") ? strdup(getenv("LD_LIBRARY_PATH")) : NULL;
	unsetenv("LD_LIBRARY_PATH");
	snprintf(want, sizeof(want), "%s/lib/libbsdemo.so.1.0.0", dir);
	const char *progs[] = {"runpath", "rpath"};
	for (size_t i = 0; i < 2; i++) {
		snprintf(exe, sizeof(exe), "%s/bin/%s", dir, progs[i]);
		CHECK_INT_EQ(bs_resolve_binary(exe, "bsdemo", out, sizeof(out), err, sizeof(err)),
			     0);
		CHECK(strcmp(out, want) == 0);
	}
	/* LD_LIBRARY_PATH comes after DT_RPATH but before DT_RUNPATH, as ldd shows. */
	snprintf(cmd, sizeof(cmd), "%s/other", dir);
	setenv("LD_LIBRARY_PATH", cmd, 1);
	char ldd_want[PATH_MAX], env[256];
	snprintf(env, sizeof(env), "LD_LIBRARY_PATH=%s/other", dir);
	for (size_t i = 0; i < 2; i++) {
		snprintf(exe, sizeof(exe), "%s/bin/%s", dir, progs[i]);
		CHECK_INT_EQ(
		    bs_resolve_binary(exe, "libbsdemo.so.1", out, sizeof(out), err, sizeof(err)),
		    0);
		if (ldd_path(env, exe, "libbsdemo.so.1", ldd_want, sizeof(ldd_want)) == 0 &&
		    strcmp(out, ldd_want))
			FAILF("%s: resolved %s, ldd says %s", progs[i], out, ldd_want);
	}
	snprintf(want, sizeof(want), "%s/other/libbsdemo.so.1", dir);
	snprintf(exe, sizeof(exe), "%s/bin/runpath", dir);
	CHECK(bs_resolve_binary(exe, "bsdemo", out, sizeof(out), err, sizeof(err)) == 0 &&
	      !strcmp(out, want));
	if (saved)
		setenv("LD_LIBRARY_PATH", saved, 1);
	else
		unsetenv("LD_LIBRARY_PATH");
	free(saved);
	/* Not found by the loader: say so. */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/lib %s/other", dir, dir);
	cmd_output(cmd, out, sizeof(out));
	CHECK_INT_EQ(bs_resolve_binary(exe, "bsdemo", out, sizeof(out), err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "needed by") && strstr(err, "would not find it"));
	temp_dir_remove(dir);
}

static void test_script_interpreter(void)
{
	char dir[64], p[PATH_MAX], out[PATH_MAX], want[PATH_MAX], err[2048];
	if (access("/usr/bin/python3.11", X_OK))
		SKIP("/usr/bin/python3.11 not installed");
	temp_dir(dir, sizeof(dir));
	if (!*dir)
		SKIP("mkdtemp failed");
	snprintf(p, sizeof(p), "%s/harness.py", dir);
	FILE *f = fopen(p, "w");
	if (!f)
		SKIP("cannot write %s", p);
	fputs("#!/usr/bin/python3.11 -u\nprint('bench')\n", f);
	fclose(f);
	CHECK_INT_EQ(bs_resolve_binary(p, "python3.11", out, sizeof(out), err, sizeof(err)), 0);
	CHECK(realpath("/usr/bin/python3.11", want) && strcmp(out, want) == 0);
	if (ldd_path("", "/usr/bin/python3.11", "libm.so.6", want, sizeof(want)) == 0) {
		CHECK_INT_EQ(bs_resolve_binary(p, "libm", out, sizeof(out), err, sizeof(err)), 0);
		CHECK(strcmp(out, want) == 0);
	}
	temp_dir_remove(dir);
}

static void test_ldcache_matches_ldconfig(void)
{
	struct bs_ldcache c;
	char buf[256];
	if (cmd_output("/sbin/ldconfig -p | head -1 | awk '{print $1}'", buf, sizeof(buf)) || !*buf)
		SKIP("ldconfig -p unavailable");
	int n = atoi(buf);
	if (bs_ldcache_load(&c, "/etc/ld.so.cache"))
		SKIP("/etc/ld.so.cache unreadable");
	CHECK_INT_EQ(c.n, n);
	/* Every entry ldconfig prints is in the parsed cache with the same path. */
	FILE *p = popen("/sbin/ldconfig -p", "r");
	char line[4096];
	size_t checked = 0;
	while (p && fgets(line, sizeof(line), p)) {
		char name[512], path[2048];
		if (sscanf(line, " %511s (%*[^)]) => %2047s", name, path) != 2)
			continue;
		int found = 0;
		for (size_t i = 0; i < c.n && !found; i++)
			found = !strcmp(c.v[i].name, name) && !strcmp(c.v[i].path, path);
		if (!found)
			FAILF("ldconfig -p lists %s => %s, the parser does not", name, path);
		checked++;
	}
	if (p)
		pclose(p);
	CHECK_INT_EQ(checked, c.n);
	bs_ldcache_free(&c);
	/* Garbage and truncated caches are rejected without reading out of bounds. */
	unsigned char junk[64] = "glibc-ld.so.cache1.1";
	memset(junk + 20, 0xff, sizeof(junk) - 20);
	CHECK_INT_EQ(bs_ldcache_parse(&c, junk, sizeof(junk)), -EINVAL);
	CHECK_INT_EQ(bs_ldcache_parse(&c, (const unsigned char *)"ld.so-1.7.0", 11), -EINVAL);
	CHECK_INT_EQ(bs_ldcache_load(&c, "/etc/hostname"), -EINVAL);
}

int main(void)
{
	RUN_TEST(test_which);
	RUN_TEST(test_gbench_spellings);
	RUN_TEST(test_libc_and_self);
	RUN_TEST(test_not_loaded);
	RUN_TEST(test_needed_libs_match_ldd);
	RUN_TEST(test_rpath_runpath_origin);
	RUN_TEST(test_script_interpreter);
	RUN_TEST(test_ldcache_matches_ldconfig);
	return test_summary("test_libpath");
}
