// SPDX-License-Identifier: MIT
/*
 * shard_list.c - ask a harness for its benchmarks (shard.h): run it once
 * with its preset's listing option and read the names it prints.
 *
 *   gbench     CMD --benchmark_list_tests=true   one name a line
 *   go         CMD -test.list=^Benchmark         one top-level name a line
 *   criterion  CMD --list                        "ID: bench" lines
 */
#include "probe/shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/diag.h"

/* Listings longer than this are refused (a harness that never stops). */
#define LIST_MAX_BYTES (64u << 20)

bool bs_shard_can_list(const struct bs_boundaries *b, char *why, size_t len)
{
	switch (b->mode) {
	case BS_BOUND_GBENCH:
	case BS_BOUND_GO:
	case BS_BOUND_CRITERION:
		return true;
	case BS_BOUND_CATCH2:
		snprintf(
		    why, len,
		    "--shard needs a harness that lists its benchmarks and runs a chosen few: "
		    "Catch2 2.x selects test cases, not the BENCHMARKs inside one (use "
		    "--preset gbench, go or criterion, or split the Catch2 test cases by hand)");
		return false;
	default:
		snprintf(
		    why, len,
		    "--shard needs a harness that lists its benchmarks: --preset gbench, go or "
		    "criterion");
		return false;
	}
}

static const char *list_option(const struct bs_boundaries *b)
{
	return b->mode == BS_BOUND_GBENCH ? "--benchmark_list_tests=true"
	       : b->mode == BS_BOUND_GO	  ? "-test.list=^Benchmark"
					  : "--list";
}

/* Run argv + opt with stdout into a malloc'd NUL-terminated buffer. */
static int capture(char *const argv[], const char *opt, char **out, char *err, size_t errlen)
{
	size_t n = 0, cap = 0, len = 0;
	char **full, *buf = NULL;
	int fd[2], status;
	ssize_t r;
	pid_t pid;

	while (argv[n])
		n++;
	full = calloc(n + 2, sizeof(*full));
	if (!full || pipe(fd)) {
		free(full);
		snprintf(err, errlen, "cannot list the benchmarks: %s", strerror(errno));
		return -EINVAL;
	}
	memcpy(full, argv, n * sizeof(*full));
	full[n] = (char *)opt;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execvp(full[0], full);
		bs_diag("cannot run %s: %s", full[0], strerror(errno));
		_exit(127);
	}
	free(full);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		snprintf(err, errlen, "cannot list the benchmarks: fork: %s", strerror(errno));
		return -EINVAL;
	}
	for (;;) {
		if (cap - len < 4096) {
			char *nb =
			    len < LIST_MAX_BYTES ? realloc(buf, cap ? 2 * cap : 65536) : NULL;

			if (!nb)
				break;
			buf = nb;
			cap = cap ? 2 * cap : 65536;
		}
		r = read(fd[0], buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf || !WIFEXITED(status) || WEXITSTATUS(status)) {
		free(buf);
		snprintf(err, errlen, "cannot list the benchmarks: '%s %s' %s %d", argv[0], opt,
			 WIFEXITED(status) ? "exited with status" : "was killed by signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -EINVAL;
	}
	buf[len] = 0;
	*out = buf;
	return 0;
}

/* The benchmark a listed line names, or NULL for a line that names none. */
static char *line_name(const struct bs_boundaries *b, char *line)
{
	size_t len = strlen(line);
	static const char crit[] = ": bench";

	while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
		line[--len] = 0;
	if (!len)
		return NULL;
	if (b->mode == BS_BOUND_CRITERION) {
		if (len <= sizeof(crit) - 1 || strcmp(line + len - (sizeof(crit) - 1), crit))
			return NULL;
		line[len - (sizeof(crit) - 1)] = 0;
	}
	if (b->mode == BS_BOUND_GO && strncmp(line, "Benchmark", 9))
		return NULL;
	return line;
}

int bs_shard_list(const struct bs_boundaries *b, char *const argv[], char ***names, size_t *n_names,
		  char *err, size_t errlen)
{
	char *buf, *line, *save = NULL, **v = NULL;
	size_t n = 0, cap = 0;

	*names = NULL;
	*n_names = 0;
	if (!bs_shard_can_list(b, err, errlen))
		return -EINVAL;
	if (capture(argv, list_option(b), &buf, err, errlen))
		return -EINVAL;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *name = line_name(b, line);

		if (!name)
			continue;
		if (n == cap) {
			char **nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!nv)
				goto nomem;
			v = nv;
		}
		if (!(v[n] = strdup(name)))
			goto nomem;
		n++;
	}
	free(buf);
	*names = v;
	*n_names = n;
	return 0;
nomem:
	free(buf);
	bs_shard_names_free(v, n);
	snprintf(err, errlen, "cannot list the benchmarks: out of memory");
	return -EINVAL;
}

int bs_shard_resolve(struct bs_shard *sh, const struct bs_boundaries *const b[],
		     char *const *const argv[], int n, char *err, size_t errlen)
{
	char **all = NULL, **one;
	size_t n_all = 0, n_one;
	int k, rc = 0;

	for (k = 0; k < n; k++) {
		char **grown;

		if (bs_shard_list(b[k], argv[k], &one, &n_one, err, errlen)) {
			rc = -EINVAL;
			break;
		}
		grown = realloc(all, (n_all + n_one + 1) * sizeof(*all));
		if (!grown) {
			bs_shard_names_free(one, n_one);
			snprintf(err, errlen, "out of memory");
			rc = -ENOMEM;
			break;
		}
		all = grown;
		if (n_one)
			memcpy(all + n_all, one, n_one * sizeof(*one));
		n_all += n_one;
		free(one);
	}
	if (!rc && n_all == 0) {
		snprintf(err, errlen,
			 "--shard: the harness lists no benchmark ('%s %s' printed none): nothing "
			 "to split",
			 argv[0][0], list_option(b[0]));
		rc = -ENODATA;
	}
	if (!rc && bs_shard_pick(sh, all, n_all)) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
	}
	bs_shard_names_free(all, n_all);
	return rc;
}
