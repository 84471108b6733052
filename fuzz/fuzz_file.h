/* SPDX-License-Identifier: MIT */
/*
 * fuzz_file.h - hand a fuzz input to a parser whose API takes a path: the
 * bytes go to an anonymous memory file (memfd_create(2)) opened as
 * /proc/self/fd/N, so a harness leaves no file behind and needs no
 * writable directory. Header-only: every harness is one translation unit.
 */
#ifndef BENCHSCOPE_FUZZ_FILE_H
#define BENCHSCOPE_FUZZ_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/** A memory file and the path that opens it. */
struct fuzz_file {
	int fd;
	char path[48]; /**< "/proc/self/fd/N" */
};

/**
 * fuzz_file_open - an empty memory file named @name (for /proc listings
 * only). Aborts when the kernel refuses one: that is the harness's
 * environment failing, never the parser under test.
 */
static inline void fuzz_file_open(struct fuzz_file *f, const char *name)
{
	f->fd = memfd_create(name, MFD_CLOEXEC);
	if (f->fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
}

/** fuzz_file_write - append @len bytes of @data; aborts on a short write. */
static inline void fuzz_file_write(struct fuzz_file *f, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(f->fd, p, len);

		if (n <= 0) {
			perror("write memfd");
			abort();
		}
		p += n;
		len -= (size_t)n;
	}
}

/** fuzz_file_close - close the memory file (its memory goes with it). */
static inline void fuzz_file_close(struct fuzz_file *f)
{
	close(f->fd);
	f->fd = -1;
}

#endif
