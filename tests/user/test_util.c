// SPDX-License-Identifier: MIT
/* test_util.c - the shared helpers of user/util: bs_parse_range and
 * bs_parse_u64 (cli.h), the
 * output sink (output.h), the json-c accessors (json.h) and the stderr
 * line naming the command (diag.h). */
#include <errno.h>
#include <json-c/json.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "test.h"
#include "fixture.h"
#include "cmd_capture.h"
#include "util/diag.h"
#include "util/cli.h"
#include "util/exit_status.h"
#include "util/json.h"
#include "util/output.h"

static void test_parse_range(void)
{
	long v[3] = {-7, -7, -7};

	CHECK_INT_EQ(bs_parse_range("5:50", 2, 0, 100, v), 0);
	CHECK_INT_EQ(v[0], 5);
	CHECK_INT_EQ(v[1], 50);
	CHECK_INT_EQ(bs_parse_range("50:5", 2, 0, 100, v), 0); /* order is the caller's */
	CHECK_INT_EQ(v[0], 50);
	CHECK_INT_EQ(bs_parse_range("50:50:5", 3, 0, 100, v), 0);
	CHECK_INT_EQ(v[2], 5);
	CHECK_INT_EQ(bs_parse_range("7", 1, 1, 100, v), 0);
	CHECK_INT_EQ(v[0], 7);
	v[0] = v[1] = -7;
	/* shape: exactly n fields, none empty, no garbage */
	const char *bad[] = {"5", "5:", ":5", "5::50", "5:50:", "5:x", "a:5", "5:5:5", "", " :5"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_INT_EQ(bs_parse_range(bad[i], 2, 0, 100, v), -EINVAL);
	CHECK_INT_EQ(bs_parse_range(NULL, 2, 0, 100, v), -EINVAL);
	CHECK_INT_EQ(bs_parse_range("5:101", 2, 0, 100, v), -ERANGE);
	CHECK_INT_EQ(bs_parse_range("0:3", 2, 1, 100, v), -ERANGE);
	CHECK_INT_EQ(v[0], -7); /* untouched on error */
	CHECK_INT_EQ(v[1], -7);
}

/* the whole unsigned 64-bit range; '-' refused (strtoull would wrap it) */
static void test_parse_u64(void)
{
	uint64_t v = 7;

	CHECK_INT_EQ(bs_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	CHECK(v == UINT64_MAX);
	CHECK_INT_EQ(bs_parse_u64("0", 0, 10, &v), 0);
	CHECK(v == 0);
	v = 7;
	CHECK_INT_EQ(bs_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
	CHECK_INT_EQ(bs_parse_u64("11", 0, 10, &v), -ERANGE);
	CHECK_INT_EQ(bs_parse_u64("0", 1, 10, &v), -ERANGE);
	const char *bad[] = {"-1", "-0", "", "5x", "x", " "};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_INT_EQ(bs_parse_u64(bad[i], 0, UINT64_MAX, &v), -EINVAL);
	CHECK_INT_EQ(bs_parse_u64(NULL, 0, 10, &v), -EINVAL);
	CHECK(v == 7); /* untouched on error */
}

static void test_output(void)
{
	char path[300], err[400], buf[64] = "";
	FILE *f;

	CHECK(bs_output_is_stdout("-"));
	CHECK(!bs_output_is_stdout(NULL));
	CHECK(!bs_output_is_stdout("-x"));
	CHECK(!strcmp(bs_output_name("-"), "to stdout"));
	CHECK(!strcmp(bs_output_name("a.json"), "a.json"));
	CHECK(bs_output_open("-", err, sizeof(err)) == stdout);
	f = bs_output_open(fx_path(path, sizeof(path), "out.txt"), err, sizeof(err));
	CHECK(f != NULL);
	if (f) {
		fputs("hello\n", f);
		CHECK_INT_EQ(bs_output_close(f), 0);
	}
	f = fopen(path, "r");
	CHECK(f && fgets(buf, sizeof(buf), f) && !strcmp(buf, "hello\n"));
	if (f)
		fclose(f);
	errno = 0;
	CHECK(bs_output_open("/nonexistent/dir/x.json", err, sizeof(err)) == NULL);
	CHECK_INT_EQ(errno, ENOENT);
	CHECK(!strcmp(err, "cannot write /nonexistent/dir/x.json: No such file or directory"));
	f = fopen("/dev/full", "w");
	if (f) {
		fputs("x", f);
		CHECK_INT_EQ(bs_output_close(f), -ENOSPC);
	}
	/* a write that failed by an automatic flush leaves only the error flag */
	f = fopen("/dev/full", "w");
	if (f) {
		static char big[1 << 16];

		memset(big, 'x', sizeof(big));
		fwrite(big, 1, sizeof(big), f);
		CHECK(bs_output_close(f) < 0);
	}
}

/* an output renamed over its path: a regular file or nothing, never a device, directory or FIFO */
static void test_output_replaceable(void)
{
	char path[300], err[400];
	struct stat st;

	CHECK_INT_EQ(bs_output_check_replaceable(fx_path(path, sizeof(path), "none.trace"), err,
						 sizeof(err)),
		     0);
	fclose(fopen(path, "w"));
	CHECK_INT_EQ(bs_output_check_replaceable(path, err, sizeof(err)), 0);
	unlink(path);
	CHECK_INT_EQ(mkfifo(fx_path(path, sizeof(path), "fifo"), 0600), 0);
	CHECK_INT_EQ(bs_output_check_replaceable(path, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "/fifo: a FIFO, not a regular file (it is not replaced)") != NULL);
	unlink(path);
	CHECK_INT_EQ(mkdir(fx_path(path, sizeof(path), "adir"), 0700), 0);
	CHECK_INT_EQ(bs_output_check_replaceable(path, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "/adir: a directory, not a regular file") != NULL);
	rmdir(path);
	CHECK_INT_EQ(bs_output_check_replaceable("/nonexistent/dir/x.trace", err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_output_check_replaceable("/etc/passwd/x", err, sizeof(err)), -ENOTDIR);
	CHECK(!strcmp(err, "cannot write /etc/passwd/x: Not a directory"));
	/* a fake /dev/null (made here, removed after) */
	if (mknod(fx_path(path, sizeof(path), "fakenull"), S_IFCHR | 0600, makedev(1, 3)))
		SKIP("mknod: %s (a device node needs root)", strerror(errno));
	CHECK_INT_EQ(bs_output_check_replaceable(path, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "/fakenull: a character device, not a regular file") != NULL);
	CHECK(!stat(path, &st) && S_ISCHR(st.st_mode));
	unlink(path);
}

/* a path the user named that cannot be read or created: 2; a failed read or write: 1 */
static void test_exit_of_errno(void)
{
	const int usage[] = {EINVAL,	   EPROTO, EBADMSG, ENOENT, ENOTDIR, EISDIR,
			     ENAMETOOLONG, ELOOP,  EACCES,  EPERM,  EROFS,   EEXIST};
	const int runtime[] = {ENOMEM, EIO, ENOSPC, EDQUOT, EFBIG, EPIPE};

	for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
		CHECK_INT_EQ(bs_exit_of_errno(-usage[i]), BS_EXIT_USAGE);
		CHECK_INT_EQ(bs_exit_of_errno(usage[i]), BS_EXIT_USAGE);
	}
	for (size_t i = 0; i < sizeof(runtime) / sizeof(runtime[0]); i++)
		CHECK_INT_EQ(bs_exit_of_errno(-runtime[i]), BS_EXIT_RUNTIME);
}

static void test_json(void)
{
	json_object *o = json_tokener_parse("{\"s\": \"text\", \"i\": 42, \"d\": 2.9, \"neg\": -3, "
					    "\"b\": true, \"arr\": [1]}");

	CHECK(o != NULL);
	CHECK(bs_json_get(o, "s") != NULL);
	CHECK(bs_json_get(o, "none") == NULL);
	CHECK(bs_json_get(NULL, "s") == NULL);
	CHECK(bs_json_get(bs_json_get(o, "arr"), "s") == NULL); /* not an object */
	CHECK(!strcmp(bs_json_text(o, "s", "n/a"), "text"));
	CHECK(!strcmp(bs_json_text(o, "i", "n/a"), "42"));
	CHECK(!strcmp(bs_json_text(o, "none", "n/a"), "n/a"));
	CHECK(!strcmp(bs_json_str(o, "s", "def"), "text"));
	CHECK(!strcmp(bs_json_str(o, "i", "def"), "def"));
	CHECK(bs_json_str(o, "none", NULL) == NULL);
	CHECK_INT_EQ(bs_json_int(o, "i", -1), 42);
	CHECK_INT_EQ(bs_json_int(o, "d", -1), 2);
	CHECK_INT_EQ(bs_json_int(o, "s", -1), -1);
	CHECK_INT_EQ(bs_json_int(o, "b", -1), -1);
	CHECK_INT_EQ(bs_json_int(o, "none", -1), -1);
	CHECK_INT_EQ(bs_json_count(bs_json_get(o, "i")), 42);
	CHECK_INT_EQ(bs_json_count(bs_json_get(o, "neg")), 0);
	CHECK_INT_EQ(bs_json_count(NULL), 0);
	json_object_put(o);
}

/* a command that says one line and one warning through bs_diag */
static int say_twice(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	bs_diag("cannot write %s: %s", "x.json", "No such file or directory");
	bs_diag("warning: %d of %d", 1, 2);
	return 0;
}

/* the line names the command set (cap_run sets it as main.c does), else "benchscope: " */
static void test_diag(void)
{
	char out[300], err[300];
	const char *none[] = {NULL};

	fx_path(out, sizeof(out), "diag.out");
	fx_path(err, sizeof(err), "diag.err");
	CHECK_INT_EQ(cap_run(say_twice, "report", none, out, err), 0);
	CHECK(!strcmp(cap_slurp(err), "benchscope report: cannot write x.json: No such file or "
				      "directory\nbenchscope report: warning: 1 of 2\n"));
	CHECK(bs_diag_command() == NULL); /* set in cap_run's child only */
	bs_diag_set_command("duet");
	CHECK(!strcmp(bs_diag_command(), "duet"));
	bs_diag_set_command(NULL);
	CHECK_INT_EQ(cap_run(say_twice, NULL, none, out, err), 0);
	CHECK(!strncmp(cap_slurp(err), "benchscope: cannot write x.json: ", 33));
}

int main(void)
{
	RUN_TEST(test_parse_range);
	RUN_TEST(test_parse_u64);
	RUN_TEST(test_output);
	RUN_TEST(test_output_replaceable);
	RUN_TEST(test_exit_of_errno);
	RUN_TEST(test_json);
	RUN_TEST(test_diag);
	fx_cleanup();
	return test_summary("test_util");
}
