// SPDX-License-Identifier: MIT
/* calib_table.c - calibrate's table, JSON and exit status (see calib_table.h). */
#include "probe/calib_table.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/exit_status.h"
#include "util/table.h"

char *bs_calib_reason(const struct bs_calib_row *r, char *buf, size_t len)
{
	const char *e = r->why.err ? strerror(r->why.err) : "unknown error";

	if (r->why.attach)
		snprintf(buf, len, "the kernel does not attach it: %s", e);
	else if (r->why.err == ENOEXEC)
		snprintf(buf, len,
			 "benchscope's calibration targets are missing (a stripped build)");
	else
		snprintf(buf, len, "%s", e);
	return buf;
}

int bs_calib_print_table(FILE *f, const struct bs_calib_row *rows, size_t n, long calls,
			 long rounds)
{
	static const char *const head[2] = {"probe", "ns per hit"};
	static const int right[2] = {0, 1};
	struct bs_table_style st = {.indent = "  "};
	char(*val)[160] = calloc(n + 1, sizeof(*val));
	const char **cells = calloc(2 * n + 1, sizeof(*cells));
	int ret = 0;

	if (!val || !cells) {
		free(val);
		free(cells);
		return -ENOMEM;
	}
	fprintf(f, "cost of one probe hit (ns), median of %ld rounds of %ld hits:\n", rounds,
		calls);
	for (size_t i = 0; i < n; i++) {
		char why[128];

		if (isnan(rows[i].ns))
			snprintf(val[i], sizeof(val[i]), "not available (%s)",
				 bs_calib_reason(&rows[i], why, sizeof(why)));
		else
			snprintf(val[i], sizeof(val[i]), "%.1f", rows[i].ns);
		cells[2 * i] = rows[i].kind;
		cells[2 * i + 1] = val[i];
	}
	bs_table_print(f, head, cells, n, 2, right, &st);
	if (ferror(f))
		ret = -EIO;
	free(val);
	free(cells);
	return ret;
}

json_object *bs_calib_json(const struct bs_calib_row *rows, size_t n, long calls, long rounds)
{
	json_object *o = json_object_new_object(), *na = NULL;

	if (!o)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char why[128];

		json_object_object_add(
		    o, rows[i].kind, isnan(rows[i].ns) ? NULL : json_object_new_double(rows[i].ns));
		if (!isnan(rows[i].ns))
			continue;
		if (!na)
			na = json_object_new_object();
		json_object_object_add(
		    na, rows[i].kind,
		    json_object_new_string(bs_calib_reason(&rows[i], why, sizeof(why))));
	}
	json_object_object_add(o, "calls", json_object_new_int64(calls));
	json_object_object_add(o, "rounds", json_object_new_int64(rounds));
	if (na)
		json_object_object_add(o, "not_available", na);
	return o;
}

int bs_calib_status(const struct bs_calib_row *rows, size_t n, FILE *err)
{
	char line[512] = "", why[128];
	size_t o = 0;
	bool runtime = false, any = false;

	for (size_t i = 0; i < n; i++)
		if (isnan(rows[i].ns))
			runtime |= !rows[i].why.attach;
	for (size_t i = 0; i < n && o < sizeof(line); i++) {
		if (!isnan(rows[i].ns))
			continue;
		if (runtime && rows[i].why.attach)
			continue; /* the runtime error is the line's subject */
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s (%s)", any ? ", " : "",
				      rows[i].kind, bs_calib_reason(&rows[i], why, sizeof(why)));
		any = true;
	}
	if (!any)
		return BS_EXIT_OK;
	if (err)
		fprintf(err, "benchscope calibrate: %s: %s\n",
			runtime ? "could not measure" : "not available on this machine", line);
	return runtime ? BS_EXIT_RUNTIME : BS_EXIT_UNSUPPORTED;
}
