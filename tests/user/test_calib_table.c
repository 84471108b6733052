// SPDX-License-Identifier: MIT
/* test_calib_table.c - what `benchscope calibrate` prints (probe/calib_table.h):
 * a probe kind that could not be measured is "not available (REASON)" in the
 * table and null with its reason in JSON, never "nan"; the exit status is 6
 * when the kernel does not attach the kind, 1 for a runtime error, with one
 * line on stderr. */
#include <errno.h>
#include <math.h>

#include "test.h"
#include "probe/calib_table.h"
#include "util/json.h"

static char *render(const struct bs_calib_row *rows, size_t n)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	CHECK(bs_calib_print_table(f, rows, n, 20000, 5) == 0);
	fclose(f);
	return buf;
}

static int status(const struct bs_calib_row *rows, size_t n, char *line, size_t len)
{
	FILE *f = fmemopen(line, len, "w");
	int st = bs_calib_status(rows, n, f);

	fclose(f);
	return st;
}

static void test_not_available(void)
{
	struct bs_calib_row rows[3] = {{"uprobe", 9012.5, {false, 0}},
				       {"uretprobe", 15000.0, {false, 0}},
				       {"usdt", NAN, {true, EOPNOTSUPP}}};
	char line[512] = "";
	const char *t = render(rows, 3);
	json_object *j, *v;

	CHECK(strstr(t, "nan") == NULL);
	CHECK(strstr(t, "9012.5") != NULL);
	CHECK(strstr(t, "not available (the kernel does not attach it: ") != NULL);
	CHECK_INT_EQ(status(rows, 3, line, sizeof(line)), 6);
	CHECK(!strncmp(line, "benchscope calibrate: not available on this machine: usdt (", 59));
	CHECK(strchr(line, '\n') == strrchr(line, '\n'));
	j = bs_calib_json(rows, 3, 20000, 5);
	CHECK(j && json_object_object_get_ex(j, "usdt", &v) && v == NULL);
	CHECK(bs_json_get(bs_json_get(j, "not_available"), "usdt") != NULL);
	CHECK(bs_json_get(j, "uprobe") != NULL);
	json_object_put(j);
	/* every kind measured: 0, nothing said, no not_available */
	rows[2].ns = 8000;
	CHECK_INT_EQ(status(rows, 3, line, sizeof(line)), 0);
	j = bs_calib_json(rows, 3, 20000, 5);
	CHECK(bs_json_get(j, "not_available") == NULL);
	json_object_put(j);
	/* a runtime error is not a missing capability */
	rows[0] = (struct bs_calib_row){"uprobe", NAN, {false, ENOMEM}};
	CHECK_INT_EQ(status(rows, 3, line, sizeof(line)), 1);
	CHECK(strstr(line, "could not measure: uprobe (") != NULL);
	CHECK(strstr(render(rows, 3), "not available (") != NULL);
}

int main(void)
{
	RUN_TEST(test_not_available);
	return test_summary("test_calib_table");
}
