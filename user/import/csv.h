/* SPDX-License-Identifier: MIT */
/*
 * csv.h - a careful CSV record reader (RFC 4180): comma-separated
 * fields, double-quoted fields with "" for a quote and embedded commas or
 * line breaks, CRLF or LF line ends, a UTF-8 byte-order mark skipped at the
 * start. Blank lines are skipped. Used by `benchscope import`.
 */
#ifndef BENCHSCOPE_IMPORT_CSV_H
#define BENCHSCOPE_IMPORT_CSV_H

#include <stddef.h>
#include <stdio.h>

struct bs_csv_reader {
	FILE *f;
	size_t line;	  /**< line where the last record returned began (1-based) */
	size_t next_line; /**< line of the next character to read */
	char *buf;	  /**< field storage of the last record */
	size_t cap;
	char **fields; /**< the last record's fields (valid until the next call) */
	size_t fcap;
	int started;
};

/** Start reading @f (not owned). */
void bs_csv_init(struct bs_csv_reader *r, FILE *f);

/**
 * bs_csv_next - the next record: *fields[0..*n) NUL-terminated strings,
 * valid until the next call. Returns 1 (a record), 0 (end of file), or
 * -EINVAL with "line N: ..." in @err (a quote inside an unquoted field, text
 * after a closing quote, a quoted field still open at the end of the file,
 * a NUL byte), -ENOMEM, or -errno of a failed read (-EISDIR for a
 * directory; -EIO when errno gave no reason) with its strerror in @err.
 */
int bs_csv_next(struct bs_csv_reader *r, char ***fields, size_t *n, char *err, size_t errlen);

/** Free the reader's buffers (not the FILE). */
void bs_csv_free(struct bs_csv_reader *r);

#endif
