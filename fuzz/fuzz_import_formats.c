// SPDX-License-Identifier: MIT
/*
 * fuzz_import_formats.c - libFuzzer harness of the run-trace formats of
 * `benchscope import --format F` (user/import/formats.h: gbench, hyperfine,
 * criterion, go, pyperf, jmh), one harness for all so that `make test`
 * runs one more fuzzer, not six.
 *
 * Input: one selector byte, then the file. The byte modulo the number of
 * formats picks the format in the order of `formats` below (a seed starts
 * with the ASCII digit '0'..'5': '0' is 48, 48 % 6 == 0). The importer is
 * the one `--format NAME` runs (bs_import_format_find), driven as
 * user/cmd/import.c drives it: bs_imp_init, bs_imp_source, the importer,
 * bs_imp_write, the dropped-items line, bs_imp_free. It may refuse the file
 * with a message; whatever it allocated must be freed either way (the
 * leak checker runs at exit). When it accepts it, the trace must load and
 * summarise as a run holding exactly its samples: their count, warmup
 * flags, summed times and invocations (fuzz_check.h).
 *
 * bs_imp_write writes "TRACE.part" and renames it, and criterion reads a
 * directory, so input and trace are real files in a private temporary
 * directory (removed at exit): the input at the format's path in it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import/formats.h"

#include "fuzz_check.h"

/* --format name; where the input goes and what the importer is given (under the directory) */
static const struct {
	const char *name;
	const char *file;
	const char *arg;
} formats[] = {
    {"gbench", "in.json", "in.json"},
    {"hyperfine", "in.json", "in.json"},
    /* criterion's layout: the directory, searched for <benchmark>/new/sample.json */
    {"criterion", "crit/bench/new/sample.json", "crit"},
    {"go", "in.txt", "in.txt"},
    {"pyperf", "in.json", "in.json"},
    {"jmh", "in.json", "in.json"},
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

static char dir[64];

static void join(char *buf, size_t len, const char *rel)
{
	if ((size_t)snprintf(buf, len, "%s/%s", dir, rel) >= len)
		abort();
}

static void cleanup(void)
{
	static const char *const files[] = {"in.json", "in.txt", "crit/bench/new/sample.json",
					    "out.trace", "out.trace.part"};
	static const char *const dirs[] = {"crit/bench/new", "crit/bench", "crit", ""};
	char p[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		join(p, sizeof(p), files[i]);
		unlink(p);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		join(p, sizeof(p), dirs[i]);
		rmdir(p);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char p[256];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "%s/fuzz-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		abort();
	}
	join(p, sizeof(p), "crit");
	if (mkdir(p, 0700))
		abort();
	join(p, sizeof(p), "crit/bench");
	if (mkdir(p, 0700))
		abort();
	join(p, sizeof(p), "crit/bench/new");
	if (mkdir(p, 0700))
		abort();
	atexit(cleanup);
	for (size_t i = 0; i < N_FORMATS; i++)
		if (!bs_import_format_find(formats[i].name))
			abort(); /* the table above names a format `import` does not have */
	return 0;
}

static void write_input(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror(path);
		abort();
	}
}

/* what the accepted samples add up to, for fuzz_check_trace */
static struct fuzz_expect expect(const struct bs_imp *imp)
{
	struct fuzz_expect e = {.iters = imp->n};

	for (size_t i = 0; i < imp->n; i++) {
		e.warmup += imp->s[i].warmup;
		e.ns += imp->s[i].ns;
		e.invoc += imp->s[i].invocations;
	}
	return e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct bs_import_format *f;
	char in[256], arg[256], out[256], err[600], dropped[4096], who[64];
	struct bs_imp imp;
	size_t k;
	int ret;

	if (!size)
		return 0;
	k = data[0] % N_FORMATS;
	f = bs_import_format_find(formats[k].name);
	join(in, sizeof(in), formats[k].file);
	join(arg, sizeof(arg), formats[k].arg);
	join(out, sizeof(out), "out.trace");
	write_input(in, data + 1, size - 1);
	err[0] = 0;
	bs_imp_init(&imp, f->name, f->tool, err, sizeof(err));
	if (!(ret = bs_imp_source(&imp, arg)))
		ret = f->read(&imp, arg);
	if (!ret)
		ret = bs_imp_write(&imp, out);
	if (!ret) {
		struct fuzz_expect e = expect(&imp);

		bs_imp_dropped_line(&imp, dropped, sizeof(dropped));
		snprintf(who, sizeof(who), "import --format %s", f->name);
		fuzz_check_trace(who, out, &e);
	} else {
		/* refused: one line for the user, no trace or part of one left */
		if (!err[0] && ret != -ENOMEM) {
			fprintf(stderr, "import --format %s refused (%d) without a message\n",
				f->name, ret);
			abort();
		}
		join(arg, sizeof(arg), "out.trace.part");
		if (!access(out, F_OK) || !access(arg, F_OK)) {
			fprintf(stderr, "import --format %s refused but left %s\n", f->name,
				access(out, F_OK) ? arg : out);
			abort();
		}
	}
	bs_imp_free(&imp);
	unlink(in);
	unlink(out);
	return 0;
}
