/* SPDX-License-Identifier: MIT */
/*
 * pty_term.h - a pseudo-terminal for the tests of the progress line: the slave
 * as a FILE* (and by name, for a child's stderr), the master to read what
 * reached the "terminal".
 */
#ifndef BENCHSCOPE_TESTS_PTY_TERM_H
#define BENCHSCOPE_TESTS_PTY_TERM_H

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <unistd.h>

struct pty {
	int master;
	FILE *slave;
	char name[4096]; /**< the slave's path (/dev/pts/N) */
};

/** Open a pseudo-terminal into @t. Returns 0, or -1 when there is none. */
static inline int pty_open(struct pty *t)
{
	int s;

	if (openpty(&t->master, &s, t->name, NULL, NULL))
		return -1;
	fcntl(t->master, F_SETFL, O_NONBLOCK);
	t->slave = fdopen(s, "w");
	return t->slave ? 0 : -1;
}

/** What reached the terminal since the last call ("" if nothing), in a
 *  static buffer of 64 KiB that the next call overwrites. */
static inline const char *pty_read(struct pty *t)
{
	static char buf[65536];
	size_t n = 0;
	struct pollfd pf = {t->master, POLLIN, 0};

	fflush(t->slave);
	while (n < sizeof(buf) - 1 && poll(&pf, 1, 50) > 0) {
		ssize_t r = read(t->master, buf + n, sizeof(buf) - 1 - n);

		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = 0;
	return buf;
}

static inline void pty_close(struct pty *t)
{
	fclose(t->slave);
	close(t->master);
}

#endif
