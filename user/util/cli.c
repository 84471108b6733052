// SPDX-License-Identifier: MIT
/* cli.c - number parsing and usage errors for command-line options. */
#include "util/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bs_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int bs_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s || !isfinite(v))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int bs_parse_range(const char *s, int n, long min, long max, long *out)
{
	long v[8];
	int i, rc;

	if (!s || n < 1 || n > 8)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const char *end = i + 1 < n ? strchr(s, ':') : s + strlen(s);
		char field[64];

		if (!end || (size_t)(end - s) >= sizeof(field))
			return -EINVAL;
		memcpy(field, s, (size_t)(end - s));
		field[end - s] = 0;
		rc = bs_parse_long(field, min, max, &v[i]);
		if (rc)
			return rc;
		s = end + 1;
	}
	memcpy(out, v, (size_t)n * sizeof(*v));
	return 0;
}

int bs_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "benchscope %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see benchscope %s --help)\n", cmd);
	return 2;
}
