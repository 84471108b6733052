/* SPDX-License-Identifier: MIT */
/*
 * cmd_capture.h - run a subcommand's entry point (cmd_report, cmd_import...)
 * in a child process with its stdout and stderr sent to files, for the
 * command-line tests.
 */
#ifndef BENCHSCOPE_TESTS_CMD_CAPTURE_H
#define BENCHSCOPE_TESTS_CMD_CAPTURE_H

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/diag.h"

#define CAP_MAX_ARGS 23

/**
 * Run cmd(argc, argv) in a forked child with argv = {name, args...} (args
 * NULL-terminated, at most CAP_MAX_ARGS of them), its stdout written to
 * out_path and its stderr to err_path (both truncated first). Returns the
 * child's exit status, or -1 if it could not run or did not exit normally.
 * The child names the command @name as main.c does (bs_diag_set_command).
 */
static inline int cap_run(int (*cmd)(int, char **), const char *name, const char *const *args,
			  const char *out_path, const char *err_path)
{
	char *argv[CAP_MAX_ARGS + 2];
	int argc = 0, status;
	pid_t pid;

	argv[argc++] = (char *)name;
	for (; *args && argc <= CAP_MAX_ARGS; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(99);
		bs_diag_set_command(name);
		int rc = cmd(argc, argv);

		fflush(NULL);
		_exit(rc);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/**
 * cap_slurp - the contents of the file @path (its first 64 KiB - 1 bytes),
 * NUL-terminated, in a static buffer that the next call overwrites; ""
 * when it cannot be opened.
 */
static inline char *cap_slurp(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n = 0;

	buf[0] = 0;
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

/**
 * cap_full - "/dev/full" as a stdout for cap_run (every write to it fails
 * with ENOSPC; opening it replaces nothing), or NULL where it is missing.
 */
static inline const char *cap_full(void)
{
	return access("/dev/full", W_OK) ? NULL : "/dev/full";
}

/** Number of newline characters in s. */
static inline int cap_count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#endif
