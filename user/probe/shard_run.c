// SPDX-License-Identifier: MIT
/* shard_run.c - `--shard` at a command's start: list, pick, filter or write the empty trace
 * (shard.h). */
#include "probe/shard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe/measure.h"
#include "util/exit_status.h"

int bs_shard_begin(const char *what, struct bs_shard *sh, const struct bs_boundaries *const b[],
		   char *const *const argv[], int n, struct bs_measure_opts *o, char **filter,
		   int *exit_status)
{
	char err[1024] = "";
	json_object *end;
	int rc;

	*filter = NULL;
	rc = bs_shard_resolve(sh, b, argv, n, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "benchscope %s: %s\n", what, err);
		*exit_status = rc == -ENODATA  ? BS_EXIT_NO_DATA
			       : rc == -EINVAL ? BS_EXIT_USAGE
					       : BS_EXIT_RUNTIME;
		return -1;
	}
	json_object_object_add(o->context_extra, "shard", bs_shard_json(sh));
	if (sh->n_names) {
		*filter = bs_shard_filter(b[0], sh);
		if (*filter)
			return 0;
		fprintf(stderr, "benchscope %s: out of memory\n", what);
		*exit_status = BS_EXIT_RUNTIME;
		return -1;
	}
	end = json_object_new_object();
	json_object_object_add(end, "shard_empty", json_object_new_boolean(1));
	if (bs_measure_write_empty(o, end, err, sizeof(err))) {
		fprintf(stderr, "benchscope %s: %s\n", what, err);
		*exit_status = BS_EXIT_RUNTIME;
	} else {
		fprintf(stderr,
			"benchscope %s: shard %ld/%ld has no benchmark (the harness lists %zu, "
			"fewer than %ld shards): nothing measured, %s holds the empty shard\n",
			what, sh->index, sh->count, sh->n_listed, sh->count, o->trace_path);
		*exit_status = BS_EXIT_OK;
	}
	json_object_put(end);
	return -1;
}
