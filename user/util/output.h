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
 * bs_output_close - flush @f and close it; stdout is flushed, not closed.
 * Returns 0, or -errno of the first failure (a file is closed either way).
 */
int bs_output_close(FILE *f);

/**
 * bs_output_csv_field - write the text @s to @f as one CSV field: as is, or
 * in double quotes with quotes doubled when it holds a comma, a quote or a
 * line break (RFC 4180 section 2).
 */
void bs_output_csv_field(FILE *f, const char *s);

#endif
