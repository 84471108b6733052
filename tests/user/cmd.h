/* SPDX-License-Identifier: MIT */
/*
 * cmd.h - helpers for tests that compare benchscope against system tools
 * (readelf, objdump, ldd, ldconfig, g++): run a shell command and read its
 * output; locate built example programs.
 */
#ifndef BENCHSCOPE_TEST_CMD_H
#define BENCHSCOPE_TEST_CMD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/** Run CMD with /bin/sh; its stdout (up to len-1 bytes) into buf. Returns the exit status or -1. */
static inline int cmd_output(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t used = 0;
	if (!p)
		return -1;
	buf[0] = '\0';
	while (used + 1 < len) {
		size_t got = fread(buf + used, 1, len - 1 - used, p);
		if (!got)
			break;
		used += got;
	}
	buf[used] = '\0';
	char sink[4096];
	while (fread(sink, 1, sizeof(sink), p) > 0)
		;
	int st = pclose(p);
	return st == -1 ? -1 : (st >> 8) & 0xff;
}

/** Path of a built example program: $BS_BUILD/progs/NAME (BS_BUILD defaults to "build"). */
static inline void prog_path(const char *name, char *out, size_t len)
{
	const char *b = getenv("BS_BUILD");
	snprintf(out, len, "%s/progs/%s", b && *b ? b : "build", name);
}

/** Make a fresh temporary directory into out ("" on failure). */
static inline void temp_dir(char *out, size_t len)
{
	snprintf(out, len, "/tmp/bs-test-XXXXXX");
	if (!mkdtemp(out))
		out[0] = '\0';
}

/** Remove the temporary directory DIR and its contents. */
static inline void temp_dir_remove(const char *dir)
{
	char cmd[4200], sink[16];
	if (!dir[0] || strncmp(dir, "/tmp/bs-test-", 13) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	cmd_output(cmd, sink, sizeof(sink));
}

#endif
