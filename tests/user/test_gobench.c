/* SPDX-License-Identifier: MIT */
/*
 * test_gobench.c - what --preset go finds in a Go test binary, checked
 * against independent sources: the probe sites against objdump's
 * disassembly and readelf's section table, testing.B's offsets against
 * reflect in the Go program itself (its TestLayout), the Go version
 * against `go version`; the build-info and TLS scanners on synthetic
 * bytes; and bad input (no DWARF, stripped, not Go, garbage).
 */
#include "cmd.h"
#include "binary/gobench.h"
#include "test.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>

static char gobin[PATH_MAX], nodwarf[PATH_MAX], stripped[PATH_MAX];

static void test_version_header(void)
{
	unsigned char d[64] = "\xff Go buildinf:";
	char v[32];

	d[14] = 8;
	d[15] = 2; /* version inline */
	d[32] = 8;
	memcpy(d + 33, "go1.19.8", 8);
	CHECK_INT_EQ(bs_go_version(d, sizeof(d), v, sizeof(v)), 0);
	CHECK(!strcmp(v, "go1.19.8"));
	d[32] = 60; /* longer than the data */
	CHECK_INT_EQ(bs_go_version(d, sizeof(d), v, sizeof(v)), -EINVAL);
	d[15] = 0; /* before Go 1.18: behind a pointer, unknown here */
	CHECK_INT_EQ(bs_go_version(d, sizeof(d), v, sizeof(v)), 0);
	CHECK(!strcmp(v, ""));
	d[1] = 'X';
	CHECK_INT_EQ(bs_go_version(d, sizeof(d), v, sizeof(v)), -EINVAL);
	CHECK_INT_EQ(bs_go_version(d, 10, v, sizeof(v)), -EINVAL);
}

/* n copies of `mov r14, fs:[disp]` separated by other bytes */
static size_t put_movs(unsigned char *p, int n, int32_t disp)
{
	static const unsigned char mov[5] = {0x64, 0x4c, 0x8b, 0x34, 0x25};
	size_t at = 0;

	for (int i = 0; i < n; i++) {
		memcpy(p + at, mov, 5);
		memcpy(p + at + 5, &disp, 4);
		p[at + 9] = 0x90;
		at += 10;
	}
	return at;
}

static void test_tls_scan(void)
{
	unsigned char t[400];
	int32_t d = 0;
	size_t n;

	memset(t, 0xcc, sizeof(t));
	n = put_movs(t, 10, -8);
	put_movs(t + n, 1, -16); /* 10 of 11 agree: over 90 % */
	CHECK_INT_EQ(bs_go_find_tls_g(t, sizeof(t), &d), 0);
	CHECK_INT_EQ(d, -8);
	put_movs(t + n, 2, -16); /* 10 of 12: too few agree */
	CHECK_INT_EQ(bs_go_find_tls_g(t, sizeof(t), &d), -ENOENT);
	memset(t, 0xcc, sizeof(t));
	put_movs(t, 3, -8); /* too few at all */
	CHECK_INT_EQ(bs_go_find_tls_g(t, sizeof(t), &d), -ENOENT);
	CHECK_INT_EQ(bs_go_find_tls_g(t, 5, &d), -ENOENT);
}

/* File offset of vaddr in PATH, from readelf's section table. */
static int readelf_vaddr_offset(const char *path, uint64_t vaddr, uint64_t *off)
{
	char cmd[PATH_MAX + 256], out[16384], *line, *save = NULL;

	snprintf(cmd, sizeof(cmd), "readelf -SW '%s' | sed -n 's/^ *\\[ *[0-9]*\\] *//p'", path);
	if (cmd_output(cmd, out, sizeof(out)))
		return -1;
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128], type[64];
		uint64_t addr, soff, size;

		if (sscanf(line, "%127s %63s %" SCNx64 " %" SCNx64 " %" SCNx64, name, type, &addr,
			   &soff, &size) == 5 &&
		    !strcmp(type, "PROGBITS") && addr && vaddr >= addr && vaddr < addr + size) {
			*off = vaddr - addr + soff;
			return 0;
		}
	}
	return -1;
}

/* Address of the first call of CALLEE in function FN, as objdump disassembles it. */
static int objdump_call(const char *path, const char *fn, const char *callee, uint64_t *vaddr)
{
	char cmd[PATH_MAX + 512], out[256];

	snprintf(cmd, sizeof(cmd),
		 "objdump -d --no-show-raw-insn '--disassemble=%s' '%s' | "
		 "grep -F 'call' | grep -F '<%s>' | head -n 1 | sed 's/^ *\\([0-9a-f]*\\):.*/\\1/'",
		 fn, path, callee);
	if (cmd_output(cmd, out, sizeof(out)) || sscanf(out, "%" SCNx64, vaddr) != 1)
		return -1;
	return 0;
}

static void test_sites_and_layout(void)
{
	struct bs_go_sites s;
	struct bs_go_layout l;
	char err[1024], out[4096], cmd[PATH_MAX + 128];
	uint64_t va, off;
	unsigned n, name, has_sub, timer_on, start, duration, wall, ext;

	if (access(gobin, X_OK))
		SKIP("%s is not built (make examples)", gobin);
	CHECK_INT_EQ(bs_go_resolve(gobin, &s, &l, err, sizeof(err)), 0);
	if (test_cur_failed_) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	/* the sites, from objdump */
	if (objdump_call(gobin, BS_GO_RUNN_SYM, BS_GO_STOP_SYM, &va) ||
	    readelf_vaddr_offset(gobin, va, &off))
		SKIP("objdump/readelf cannot read %s", gobin);
	CHECK_INT_EQ(s.stop_call, off);
	CHECK(!objdump_call(gobin, BS_GO_START_SYM, BS_GO_NOW_SYM, &va) &&
	      !readelf_vaddr_offset(gobin, va, &off));
	CHECK_INT_EQ(s.start_now, off);
	CHECK(!objdump_call(gobin, BS_GO_RESET_SYM, BS_GO_NOW_SYM, &va) &&
	      !readelf_vaddr_offset(gobin, va, &off));
	CHECK_INT_EQ(s.reset_now, off);
	snprintf(cmd, sizeof(cmd),
		 "readelf -sW '%s' | awk '$8 == \"" BS_GO_RUNN_SYM "\" {print $2}'", gobin);
	CHECK(!cmd_output(cmd, out, sizeof(out)) && sscanf(out, "%" SCNx64, &va) == 1 &&
	      !readelf_vaddr_offset(gobin, va, &off));
	CHECK_INT_EQ(s.runn, off);
	snprintf(cmd, sizeof(cmd),
		 "readelf -sW '%s' | awk '$8 == \"" BS_GO_GOEXIT_SYM "\" {print $2}'", gobin);
	CHECK(!cmd_output(cmd, out, sizeof(out)) && sscanf(out, "%" SCNx64, &va) == 1 &&
	      !readelf_vaddr_offset(gobin, va, &off));
	CHECK_INT_EQ(s.goexit, off);
	/* the layout, from reflect in the program */
	snprintf(cmd, sizeof(cmd), "'%s' -test.run='^TestLayout$' -test.v", gobin);
	CHECK(!cmd_output(cmd, out, sizeof(out)));
	CHECK(strstr(out, "layout ") &&
	      sscanf(strstr(out, "layout "),
		     "layout N=%u name=%u hasSub=%u timerOn=%u start=%u duration=%u wall=%u ext=%u",
		     &n, &name, &has_sub, &timer_on, &start, &duration, &wall, &ext) == 8);
	CHECK_INT_EQ(l.off_n, n);
	CHECK_INT_EQ(l.off_name, name);
	CHECK_INT_EQ(l.off_has_sub, has_sub);
	CHECK_INT_EQ(l.off_timer_on, timer_on);
	/* one probe per iteration: b.start, b.duration, time.Time, time.startNano */
	CHECK(!l.one_probe_why[0]);
	CHECK_INT_EQ(l.off_start, start);
	CHECK_INT_EQ(l.off_duration, duration);
	CHECK_INT_EQ(l.tm_wall, wall);
	CHECK_INT_EQ(l.tm_ext, ext);
	snprintf(cmd, sizeof(cmd),
		 "readelf -sW '%s' | awk '$8 == \"" BS_GO_START_NANO_SYM "\" {print $2}'", gobin);
	CHECK(!cmd_output(cmd, out, sizeof(out)) && sscanf(out, "%" SCNx64, &va) == 1);
	CHECK_INT_EQ(l.start_nano_vaddr, va);
	CHECK(!objdump_call(gobin, BS_GO_RUNN_SYM, BS_GO_STOP_SYM, &va));
	CHECK_INT_EQ(l.stop_call_vaddr, va);
	CHECK_INT_EQ(l.str_ptr, 0); /* Go's string header: pointer, then length */
	CHECK_INT_EQ(l.str_len, 8);
	/* internally linked linux/amd64: g lives at -8(FS) (runtime/go_tls.h) */
	CHECK_INT_EQ(l.tls_g, -8);
	/* the version, from the go tool when there is one */
	snprintf(cmd, sizeof(cmd), "go version '%s' 2>/dev/null | sed 's/.*: //'", gobin);
	if (!cmd_output(cmd, out, sizeof(out)) && out[0]) {
		out[strcspn(out, "\n")] = 0;
		CHECK(!strcmp(l.go_version, out));
	}
}

static void test_bad_input(void)
{
	struct bs_go_sites s;
	struct bs_go_layout l;
	char err[1024], garbage[] = "/tmp/bs-test-gobench-XXXXXX";
	int fd;

	if (access(gobin, X_OK))
		SKIP("%s is not built (make examples)", gobin);
	CHECK_INT_EQ(bs_go_resolve(nodwarf, &s, &l, err, sizeof(err)), -ENODATA);
	CHECK(strstr(err, "no DWARF") && strstr(err, "-ldflags=-w") &&
	      strstr(err, BS_GO_RUNN_SYM) && strstr(err, "go1."));
	CHECK_INT_EQ(bs_go_resolve(stripped, &s, &l, err, sizeof(err)), -ENOENT);
	CHECK(strstr(err, "stripped of its symbol table") && strstr(err, "of its DWARF") &&
	      strstr(err, "a Go program (go1."));
	CHECK(!strchr(err, '\n'));
	CHECK_INT_EQ(bs_go_resolve("/proc/self/exe", &s, &l, err, sizeof(err)), -ENOEXEC);
	CHECK(strstr(err, "is not a Go program"));
	CHECK_INT_EQ(bs_go_resolve("/nonexistent/x.test", &s, &l, err, sizeof(err)), -ENOENT);
	fd = mkstemp(garbage);
	CHECK(fd >= 0 && write(fd,
			       "\x7f"
			       "ELFgarbage",
			       11) == 11);
	close(fd);
	CHECK_INT_EQ(bs_go_resolve(garbage, &s, &l, err, sizeof(err)), -ENOEXEC);
	unlink(garbage);
}

int main(void)
{
	prog_path("gobench.test", gobin, sizeof(gobin));
	prog_path("gobench_nodwarf.test", nodwarf, sizeof(nodwarf));
	prog_path("gobench_stripped.test", stripped, sizeof(stripped));
	RUN_TEST(test_version_header);
	RUN_TEST(test_tls_scan);
	RUN_TEST(test_sites_and_layout);
	RUN_TEST(test_bad_input);
	return test_summary("gobench");
}
