// SPDX-License-Identifier: MIT
/* test_import_csv.c - the CSV record reader of `benchscope import`
 * (import/csv.h): quoting, line ends, BOM, blank lines, errors with lines. */
#include "test.h"

#include <errno.h>

#include "import/csv.h"

/* records of @text joined as "a|b;c|d;" (one ';' per record); the return
 * code of the last call in *rc and its message in err */
static const char *parse(const char *text, int *rc, char *err, size_t errlen, size_t *last_line)
{
	static char out[1024];
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct bs_csv_reader r;
	char **fl;
	size_t n;

	out[0] = 0;
	err[0] = 0;
	bs_csv_init(&r, f);
	while ((*rc = bs_csv_next(&r, &fl, &n, err, errlen)) == 1) {
		for (size_t i = 0; i < n; i++) {
			strncat(out, fl[i], sizeof(out) - strlen(out) - 2);
			strcat(out, i + 1 < n ? "|" : ";");
		}
		*last_line = r.line;
	}
	bs_csv_free(&r);
	fclose(f);
	return out;
}

static void test_records(void)
{
	char err[200];
	size_t line = 0;
	int rc;

	CHECK(!strcmp(parse("a,b,c\n1,2,3\n", &rc, err, sizeof(err), &line), "a|b|c;1|2|3;"));
	CHECK_INT_EQ(rc, 0);
	CHECK_INT_EQ(line, 2);
	/* quotes, doubled quotes, commas and a line break inside quotes, CRLF,
	 * a BOM, a blank line, no final newline, empty fields */
	CHECK(!strcmp(
	    parse(
		"\xEF\xBB\xBFh1,h2\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n\r\n\"two\nlines\",\n,\nlast,1",
		&rc, err, sizeof(err), &line),
	    "h1|h2;x,y|say \"hi\";two\nlines|;|;last|1;"));
	CHECK_INT_EQ(rc, 0);
	CHECK_INT_EQ(line, 7);
	CHECK(!strcmp(parse("", &rc, err, sizeof(err), &line), ""));
	CHECK_INT_EQ(rc, 0);
}

static void test_errors(void)
{
	char err[200];
	size_t line = 0;
	int rc;

	parse("a,b\n1,\"open\n2,3\n", &rc, err, sizeof(err), &line);
	CHECK_INT_EQ(rc, -EINVAL);
	CHECK(strstr(err, "line 2: a quoted field is not closed") != NULL);
	parse("a,b\n1,x\"y\n", &rc, err, sizeof(err), &line);
	CHECK_INT_EQ(rc, -EINVAL);
	CHECK(strstr(err, "line 2: a quote inside unquoted field 2") != NULL);
	parse("a,b\n\"x\"y,1\n", &rc, err, sizeof(err), &line);
	CHECK_INT_EQ(rc, -EINVAL);
	CHECK(strstr(err, "line 2: text after the closing quote") != NULL);
	CHECK(!strchr(err, '\n'));
}

/* a read error (a directory opened as the file): its errno and reason, never an unset message */
static void test_read_error(void)
{
	FILE *f = fopen("/tmp", "r");
	struct bs_csv_reader r;
	char err[200] = "unset", **fl;
	size_t n;

	if (!f)
		SKIP("fopen(/tmp): %s", strerror(errno));
	bs_csv_init(&r, f);
	CHECK_INT_EQ(bs_csv_next(&r, &fl, &n, err, sizeof(err)), -EISDIR);
	CHECK(!strcmp(err, "Is a directory"));
	bs_csv_free(&r);
	fclose(f);
}

int main(void)
{
	RUN_TEST(test_records);
	RUN_TEST(test_errors);
	RUN_TEST(test_read_error);
	return test_summary("test_import_csv");
}
