// SPDX-License-Identifier: MIT
/*
 * fuzz_probe_site.c - libFuzzer harness of the probe-site parser
 * (probe/boundary.c): `--iter BIN:SYMBOL`, `--begin/--end` sites
 * (BIN:SYMBOL, usdt:BIN:PROVIDER:NAME, a library name as BIN) and
 * `--preset NAME`, as `run` and `duet` parse them, then their resolution
 * against one fixed program: BIN as that program's basename or a library of
 * its DT_NEEDED closure (binary/libpath.c), SYMBOL through the symbol
 * tables, demangling and closest-match suggestions (binary/elfsym.c,
 * symmatch.c), USDT notes.
 *
 * Input: text lines "iter=SPEC", "begin=SPEC", "end=SPEC", "preset=NAME"
 * (the last of a key counts; other lines are ignored), e.g.
 * "begin=usdt:usdt_loop:bs:begin\nend=usdt:usdt_loop:bs:end".
 * The program is $BS_FUZZ_PROBE_EXE (an absolute path; fuzz/fuzz.mk sets
 * tests/progs/usdt_loop); without it only the parser runs. A BIN holding
 * '/' is a path the user names, opened as is: resolution is skipped for it,
 * so that the harness opens no file the input chooses.
 * Any input may be refused; none may crash, leak or trip a sanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/boundary.h"

static const char *probe_exe;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	probe_exe = getenv("BS_FUZZ_PROBE_EXE");
	if (probe_exe && probe_exe[0] != '/')
		probe_exe = NULL;
	return 0;
}

/* The value of the last line "KEY=..." of @text (lines NUL-terminated in place), or NULL. */
static const char *option(char *const *lines, size_t n, const char *key)
{
	size_t kl = strlen(key);
	const char *v = NULL;

	for (size_t i = 0; i < n; i++)
		if (!strncmp(lines[i], key, kl) && lines[i][kl] == '=')
			v = lines[i] + kl + 1;
	return v;
}

static int resolvable(const struct bs_site *s)
{
	return s->kind && !strchr(s->bin, '/');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bs_boundaries b; /* 10s of KiB: off the stack */
	char *text, *lines[64], err[1024];
	size_t n = 0;

	if (size > 4096)
		return 0;
	text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *p = text; p && n < 64; n++) {
		lines[n] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	if (bs_boundaries_parse(&b, option(lines, n, "iter"), option(lines, n, "begin"),
				option(lines, n, "end"), option(lines, n, "preset"), err,
				sizeof(err)) == 0) {
		char *json;

		if (probe_exe && b.mode == BS_BOUND_PAIR && resolvable(&b.begin) &&
		    resolvable(&b.end))
			bs_boundaries_resolve(&b, probe_exe, err, sizeof(err));
		json = bs_boundaries_json(&b);
		free(json);
	}
	free(text);
	return 0;
}
