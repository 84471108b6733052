/* SPDX-License-Identifier: MIT */
/*
 * gbench.c - locate Google Benchmark's State hooks and the verified State layout.
 *
 * How the version is detected (robust to packaging, strict about layout):
 *  1. The installed file name. CMake installs the library as
 *     libbenchmark.so.MAJOR.MINOR.PATCH and points the soname link
 *     (Debian: libbenchmark.so.1debian) at it, so the realpath's suffix is
 *     the upstream version.
 *  2. Otherwise (a renamed copy, a static link) the GNU build-id, looked
 *     up in the table of builds verified below.
 *  3. Whatever the source, the layout is used only when the file also has
 *     the API marker of that State generation: 1.7.x exports
 *     State::SkipWithError(char const*); 1.8.0 changed it to take
 *     std::string const& and replaced error_occurred_ by skipped_, moving the
 *     fields the preset reads. A file claiming 1.7.1 without the marker is
 *     refused rather than read at the wrong offsets.
 *
 * Verified layouts (x86-64). 1.7.1 (Debian 12 libbenchmark1debian 1.7.1-1,
 * build-id 8e17bc1282a65d3f090d6bac0cd20a74c4b84cf6): offsetof() from
 * /usr/include/benchmark/benchmark.h gives total_iterations_ 0,
 * batch_leftover_ 8, max_iterations 16, started_ 24, finished_ 25,
 * error_occurred_ 26 (sizeof(State) 144); the disassembly of
 * StartKeepRunning agrees: cmpb $0,0x18(%rdi) and 0x19(%rdi) (the
 * !started_ && !finished_ check), movb $1,0x18 (started_ = true),
 * cmpb $0,0x1a (error_occurred_) then mov 0x10(%rbp),%rax stored to 0(%rbp)
 * (total_iterations_ = max_iterations). tests/user/test_elfsym.c re-checks
 * the offsets against a program compiled with the installed header.
 * One probe per iteration: offsetof(State, timer_) is 120 (g++
 * -fno-access-control with the installed header); ResumeTiming's
 * disassembly loads timer_ with mov 0x78(%rbx),%rbp, sets running_ with
 * movb $1,0x1(%rbp), calls steady_clock::now(), divides by 1e9 and stores
 * start_real_time_ with movsd %xmm0,0x8(%rbp) (start_cpu_time_ at 0x10);
 * real_time_used_ follows at 0x18 (src/thread_timer.h).
 */
#include "binary/gbench.h"

#include "binary/elfsym.h"
#include "binary/libpath.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct verified {
	struct bs_gbench_layout layout;
	const char *marker;	  /* mangled symbol that this State generation exports */
	const char *build_ids[4]; /* verified builds, for files whose name carries no version */
};

static const struct verified verified_layouts[] = {
    {{"1.7.1", 16, 24, 25, 26, 120, 8, 24},
     "_ZN9benchmark5State13SkipWithErrorEPKc",
     {"8e17bc1282a65d3f090d6bac0cd20a74c4b84cf6"}},
};
#define N_VERIFIED (sizeof(verified_layouts) / sizeof(verified_layouts[0]))

/* "libbenchmark.so.1.7.1" -> "1.7.1"; 0 when NAME does not have that form. */
static int version_from_name(const char *name, char *ver, size_t verlen)
{
	static const char prefix[] = "libbenchmark.so.";
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	const char *v = name + sizeof(prefix) - 1;
	int dots = 0;
	for (const char *p = v; *p; p++) {
		if (*p == '.' && p > v && p[-1] != '.')
			dots++;
		else if (!isdigit((unsigned char)*p))
			return 0;
	}
	if (dots != 2 || v[strlen(v) - 1] == '.')
		return 0;
	return (size_t)snprintf(ver, verlen, "%s", v) < verlen;
}

int bs_gbench_version(const char *path, char *ver, size_t verlen)
{
	char real[PATH_MAX], bid[256];
	if (verlen)
		ver[0] = '\0';
	if (!realpath(path, real))
		return -errno;
	const char *base = strrchr(real, '/');
	if (version_from_name(base ? base + 1 : real, ver, verlen))
		return 0;
	int ret = bs_elf_build_id(real, bid, sizeof(bid));
	if (ret)
		return ret;
	for (size_t i = 0; i < N_VERIFIED && *bid; i++)
		for (size_t j = 0; j < 4 && verified_layouts[i].build_ids[j]; j++)
			if (strcmp(bid, verified_layouts[i].build_ids[j]) == 0) {
				snprintf(ver, verlen, "%s", verified_layouts[i].layout.version);
				return 0;
			}
	return 0;
}

/* Find libbenchmark for EXE: EXE itself if it defines StartKeepRunning, else its loaded library. */
static int find_library(const char *exe, char *lib, size_t liblen, char *err, size_t errlen)
{
	char why[1024];
	uint64_t off;
	if (bs_elf_find_func(exe, BS_GBENCH_START_SYM, &off, NULL, NULL, 0, why, sizeof(why)) ==
	    0) {
		if (!realpath(exe, lib) && (size_t)snprintf(lib, liblen, "%s", exe) >= liblen)
			return -ENAMETOOLONG;
		return 0;
	}
	int ret = bs_resolve_binary(exe, "libbenchmark", lib, liblen, why, sizeof(why));
	if (ret)
		snprintf(err, errlen,
			 "--preset gbench: %s does not look like a Google Benchmark program: %s",
			 exe, why);
	return ret;
}

int bs_gbench_resolve(const char *exe, char *lib_path, size_t lib_len, uint64_t *off_start,
		      uint64_t *off_finish, struct bs_gbench_layout *layout, char *err,
		      size_t errlen)
{
	char lib[PATH_MAX], ver[64], why[2048];
	uint64_t size, probe;
	int ret = find_library(exe, lib, sizeof(lib), err, errlen);
	if (ret)
		return ret;
	if ((ret = bs_elf_find_func(lib, BS_GBENCH_START_SYM, off_start, &size, NULL, 0, why,
				    sizeof(why))) ||
	    (ret = bs_elf_find_func(lib, BS_GBENCH_FINISH_SYM, off_finish, &size, NULL, 0, why,
				    sizeof(why)))) {
		snprintf(err, errlen, "--preset gbench: %s", why);
		return ret;
	}
	if ((size_t)snprintf(lib_path, lib_len, "%s", lib) >= lib_len)
		return -ENAMETOOLONG;
	if ((ret = bs_gbench_version(lib, ver, sizeof(ver)))) {
		snprintf(err, errlen, "--preset gbench: cannot read %s: %s", lib, strerror(-ret));
		return ret;
	}
	for (size_t i = 0; *ver && i < N_VERIFIED; i++) {
		const struct verified *v = &verified_layouts[i];
		if (strcmp(ver, v->layout.version) != 0)
			continue;
		if (bs_elf_find_func(lib, v->marker, &probe, NULL, NULL, 0, why, sizeof(why)) != 0)
			break; /* named like a verified version, but not that State generation */
		*layout = v->layout;
		return 0;
	}
	size_t used = (size_t)snprintf(
	    err, errlen,
	    "libbenchmark %s has no verified State layout (verified:", *ver ? ver : lib);
	for (size_t i = 0; i < N_VERIFIED && used < errlen; i++)
		used += (size_t)snprintf(err + used, errlen - used, "%s %s", i ? "," : "",
					 verified_layouts[i].layout.version);
	if (used < errlen)
		snprintf(
		    err + used, errlen - used,
		    "); run with --begin/--end on the same functions and no invocation counts, "
		    "or verify the layout for this version and add it to user/binary/gbench.c");
	return -ENOTSUP;
}
