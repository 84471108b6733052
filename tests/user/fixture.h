/* SPDX-License-Identifier: MIT */
/*
 * fixture.h - helpers shared by the user/ tests: a scratch directory and
 * deterministic records whose every field can be recomputed from an index.
 */
#ifndef BENCHSCOPE_TESTS_FIXTURE_H
#define BENCHSCOPE_TESTS_FIXTURE_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchscope/record.h"

static char fx_dir[256];
static pid_t fx_dir_owner;

static inline int fx_rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

/* at exit of the process that made it: the scratch directory and its
 * files (BS_TEST_KEEP=1 keeps them to look at); a forked child that exits
 * leaves it to its parent */
static inline void fx_tmpdir_remove(void)
{
	const char *keep = getenv("BS_TEST_KEEP");

	if (!fx_dir[0] || getpid() != fx_dir_owner)
		return;
	if (keep && *keep && strcmp(keep, "0")) {
		fprintf(stderr, "scratch files kept in %s\n", fx_dir);
		return;
	}
	nftw(fx_dir, fx_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/** A fresh directory under $TMPDIR (or /tmp), removed with its files when
 *  the test program exits; path in a static buffer. */
static inline const char *fx_tmpdir(void)
{
	if (!fx_dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(fx_dir, sizeof(fx_dir), "%s/bs-test-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(fx_dir)) {
			perror("mkdtemp");
			exit(2);
		}
		fx_dir_owner = getpid();
		atexit(fx_tmpdir_remove);
	}
	return fx_dir;
}

/** "<tmpdir>/<name>" in @buf. */
static inline const char *fx_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", fx_tmpdir(), name);
	return buf;
}

/** Iteration i of a synthetic run: every field a function of i. */
static inline struct bs_iter_rec fx_iter(unsigned i)
{
	struct bs_iter_rec r;

	memset(&r, 0, sizeof(r));
	r.type = BS_REC_ITER;
	r.flags = i % 3 == 0 ? BS_ITER_F_SPILLED : 0;
	r.index = i;
	r.pid = 1000 + i % 2;
	r.tid = 2000 + i % 4;
	r.cpu_begin = i % 8;
	r.cpu_end = (i + 1) % 8;
	r.begin_ns = 1000000000ull + (unsigned long long)i * 10000;
	r.end_ns = r.begin_ns + 5000 + i % 7;
	r.invocations = 100 + i;
	r.preempted_ns = i * 3;
	r.blocked_ns = i * 5;
	r.runq_wait_ns = i * 7;
	r.irq_ns = i * 11;
	r.softirq_ns = i * 13;
	r.steal_ns = i * 17;
	r.sched_delay_ns = i * 19;
	r.nvcsw = i % 5;
	r.nivcsw = i % 6;
	r.migrations = i % 2;
	r.probe = i % 3;
	return r;
}

/** A BENCH record: thread `pid` of process `pid` names benchmark `name`
 * (cut to the record's 103 bytes) from `ts` (ns) on. */
static inline struct bs_bench_rec fx_bench(uint32_t pid, uint64_t ts, const char *name)
{
	struct bs_bench_rec b;

	memset(&b, 0, sizeof(b));
	b.type = BS_REC_BENCH;
	b.pid = b.tid = pid;
	b.ts_ns = ts;
	b.name_len = (uint32_t)strlen(name);
	snprintf(b.name, sizeof(b.name), "%s", name);
	return b;
}

static inline long fx_file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

/** Copy the first @len bytes of @src to @dst; 0 on success. */
static inline int fx_copy_prefix(const char *src, const char *dst, long len)
{
	FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
	int ret = 0;
	char buf[4096];

	if (!in || !out)
		ret = -1;
	while (!ret && len > 0) {
		size_t want = len < (long)sizeof(buf) ? (size_t)len : sizeof(buf);
		size_t got = fread(buf, 1, want, in);

		if (!got || fwrite(buf, 1, got, out) != got)
			ret = -1;
		len -= (long)got;
	}
	if (in)
		fclose(in);
	if (out && fclose(out))
		ret = -1;
	return ret;
}

/** Remove the scratch directory and its files (best effort). */
static inline void fx_cleanup(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx_tmpdir());
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", fx_tmpdir());
}

#endif
