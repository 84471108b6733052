// SPDX-License-Identifier: MIT
/* output.c - a named output file or stdout for "-" (see output.h). */
#include "util/output.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

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

/* what st_mode is, for the line refusing it */
static const char *kind_of(mode_t m)
{
	return S_ISDIR(m)    ? "a directory"
	       : S_ISCHR(m)  ? "a character device"
	       : S_ISBLK(m)  ? "a block device"
	       : S_ISFIFO(m) ? "a FIFO"
	       : S_ISSOCK(m) ? "a socket"
			     : "a special file";
}

int bs_output_check_replaceable(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (!err)
		errlen = 0;
	if (stat(path, &st)) {
		int e = errno;

		if (e == ENOENT)
			return 0;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	snprintf(err, errlen, "cannot write %s: %s, not a regular file (it is not replaced)", path,
		 kind_of(st.st_mode));
	return -EINVAL;
}

int bs_output_close(FILE *f)
{
	int ret = 0;

	if (fflush(f))
		ret = -errno;
	else if (ferror(f))
		ret = -EIO;
	if (f != stdout && fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int bs_output_flush_stdout(char *err, size_t errlen)
{
	int e = 0;

	errno = 0;
	if (fflush(stdout))
		e = errno ? errno : EIO;
	if (e)
		snprintf(err, errlen, "cannot write the report to stdout: %s", strerror(e));
	else if (ferror(stdout))
		snprintf(err, errlen, "cannot write the report to stdout: a write failed");
	return e ? -e : ferror(stdout) ? -EIO : 0;
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
