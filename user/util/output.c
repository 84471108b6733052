// SPDX-License-Identifier: MIT
/* output.c - a named output file or stdout for "-" (see output.h). */
#include "util/output.h"

#include <errno.h>
#include <string.h>

bool bs_output_is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

const char *bs_output_name(const char *path)
{
	return bs_output_is_stdout(path) ? "to stdout" : path;
}

FILE *bs_output_open(const char *path, char *err, size_t errlen)
{
	FILE *f = bs_output_is_stdout(path) ? stdout : fopen(path, "w");
	int e = errno;

	if (!f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		errno = e;
	}
	return f;
}

int bs_output_close(FILE *f)
{
	int ret = 0;

	if (fflush(f))
		ret = -errno;
	if (f != stdout && fclose(f) && !ret)
		ret = -errno;
	return ret;
}

void bs_output_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
