/* SPDX-License-Identifier: MIT */
/*
 * output.h - the one output sink of the subcommands: an export goes to a
 * named file, or to stdout when the name is "-". Open, write, close; the
 * caller words its error line with the text these functions give.
 */
#ifndef BENCHSCOPE_OUTPUT_H
#define BENCHSCOPE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** bs_output_is_stdout - whether @path names stdout ("-"); false for NULL. */
bool bs_output_is_stdout(const char *path);

/**
 * bs_output_name - how an error line names the output @path: "to stdout"
 * for "-", else @path itself ("cannot write %s").
 */
const char *bs_output_name(const char *path);

/**
 * bs_output_open - open the output @path for writing: stdout for "-", else
 * the file @path, created or truncated.
 * Returns the stream, or NULL with errno set and one line
 * "cannot write PATH: REASON" (strerror) in @err.
 */
FILE *bs_output_open(const char *path, char *err, size_t errlen);

/**
 * bs_output_check_replaceable - whether the output @path may be replaced by a
 * file written aside and renamed over it (a trace, a fleet): @path does not
 * exist, or it is a regular file (a symbolic link is judged by what it
 * names). A directory, device, FIFO or socket is refused: the rename would
 * put a regular file in its place (as root, `-o /dev/null` would replace
 * /dev/null). Call it before the work whose result is renamed there.
 * Returns 0; -EINVAL with "cannot write PATH: a character device, not a
 * regular file (it is not replaced)" in @err; or -errno of stat() other
 * than ENOENT (ENOTDIR, ENAMETOOLONG, EACCES, ELOOP) with "cannot write
 * PATH: REASON" (strerror).
 */
int bs_output_check_replaceable(const char *path, char *err, size_t errlen);

/**
 * bs_output_close - flush @f and close it; stdout is flushed, not closed.
 * Returns 0, or -errno of the first failure (-EIO when only the stream's
 * error flag tells of an earlier failed write); a file is closed either way.
 */
int bs_output_close(FILE *f);

/**
 * bs_output_flush_stdout - after a report was written to stdout (a table,
 * or an export to "-"): flush stdout and check that all of it got there,
 * by fflush and then the stream's error flag (a failed write while the
 * report was being written, by an automatic flush, leaves only the flag).
 * Returns 0, or -errno (-EIO when only the flag tells) with "cannot write
 * the report to stdout: REASON" in @err (REASON strerror, or "a write
 * failed" when only the flag tells). The caller prints it ("benchscope
 * CMD: ...") and exits 1 (BS_EXIT_RUNTIME).
 */
int bs_output_flush_stdout(char *err, size_t errlen);

/**
 * bs_output_csv_field - write the text @s to @f as one CSV field: as is, or
 * in double quotes with quotes doubled when it holds a comma, a quote or a
 * line break (RFC 4180 section 2).
 */
void bs_output_csv_field(FILE *f, const char *s);

#endif
