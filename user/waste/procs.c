// SPDX-License-Identifier: MIT
/* waste/procs.c - the followed processes, by pid and start time (see waste/procs.h). */
#include "waste/procs.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bs_waste_stat_parse(const char *buf, char *state, uint64_t *start)
{
	const char *p = strrchr(buf, ')');
	unsigned long long st = 0;
	char c;

	/* after "comm)": state (field 3), then fields 4..21, start time (22) */
	if (!p || p[1] != ' ' || !p[2])
		return -1;
	c = p[2];
	if (start) {
		p += 3;
		for (int f = 4; f <= 21; f++) {
			p = strchr(p + 1, ' ');
			if (!p)
				return -1;
		}
		if (sscanf(p, " %llu", &st) != 1)
			return -1;
		*start = st;
	}
	*state = c;
	return 0;
}

int bs_waste_proc_stat(pid_t pid, char *state, uint64_t *start)
{
	char path[64], buf[1024];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT || errno == ESRCH ? -ESRCH : -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return bs_waste_stat_parse(buf, state, start) ? -ESRCH : 0;
}

int bs_waste_procs_add(struct bs_waste_procs *ps, pid_t pid)
{
	uint64_t start;
	char st;

	int rc = bs_waste_proc_stat(pid, &st, &start);

	if (rc)
		return rc;
	for (size_t i = 0; i < ps->n; i++)
		if (ps->p[i].pid == pid) {
			if (ps->p[i].start == start)
				return 0;
			ps->p[i].start = start; /* the pid names a new process now */
			return 1;
		}
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		struct bs_waste_proc *np = realloc(ps->p, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		ps->p = np;
		ps->cap = cap;
	}
	ps->p[ps->n++] = (struct bs_waste_proc){pid, start};
	return 1;
}

size_t bs_waste_procs_cont(struct bs_waste_procs *ps, bool only_stopped)
{
	size_t sent = 0, kept = 0;

	for (size_t i = 0; i < ps->n; i++) {
		uint64_t start = 0;
		char st = 0;
		int rc = bs_waste_proc_stat(ps->p[i].pid, &st, &start);

		if (rc == -ESRCH || (!rc && start != ps->p[i].start))
			continue; /* gone, or the pid is another process's: forgotten */
		ps->p[kept++] = ps->p[i];
		/* unreadable (no file descriptor left, say): kept, and continued
		 * when all are, as it was followed */
		if (rc && only_stopped)
			continue;
		if (only_stopped && st != 'T')
			continue;
		sent += !kill(ps->p[i].pid, SIGCONT);
	}
	ps->n = kept;
	return sent;
}

void bs_waste_procs_free(struct bs_waste_procs *ps)
{
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
