// SPDX-License-Identifier: MIT
/*
 * hyperfine.c - `hyperfine --export-json` (hyperfine 1.15: src/export/
 * json.rs) to samples (formats.h).
 *
 * Each element of "results" is one command (the benchmark, named by its
 * command line); each entry of its "times" (seconds) is one run of the
 * command: a process of its own, one invocation. user and system times,
 * the summary figures (mean, stddev, median, min, max), exit codes and
 * parameters are dropped. hyperfine keeps no warmup time in the file.
 */
#include "import/formats.h"

#include <stdio.h>

#include <errno.h>
#include <string.h>

static int result(struct bs_imp *imp, json_object *r, size_t i)
{
	json_object *times, *v, *codes;
	const char *cmd;
	char where[200];
	size_t n_fail = 0;
	long bench;
	int ret = 0;

	if (!json_object_is_type(r, json_type_object))
		return bs_imp_bad(imp, "results[%zu] is not an object", i);
	if (!(v = bs_imp_get(r, "command", json_type_string)))
		return bs_imp_bad(imp, "results[%zu]: no \"command\"", i);
	cmd = json_object_get_string(v);
	if (!(times = bs_imp_get(r, "times", json_type_array)))
		return bs_imp_bad(imp, "results[%zu] (%.60s): no \"times\" array", i, cmd);
	if ((bench = bs_imp_bench(imp, cmd)) < 0)
		return (int)bench;
	codes = bs_imp_get(r, "exit_codes", json_type_array);
	for (size_t k = 0; k < json_object_array_length(times) && !ret; k++) {
		json_object *t = json_object_array_get_idx(times, k), *c;

		snprintf(where, sizeof(where), "results[%zu] (%.60s) times[%zu]", i, cmd, k);
		if (!json_object_is_type(t, json_type_double) &&
		    !json_object_is_type(t, json_type_int))
			return bs_imp_bad(imp, "%s is not a number", where);
		ret = bs_imp_sample(imp, bs_imp_proc(imp), bench, json_object_get_double(t) * 1e9,
				    1, false, where);
		c = codes ? json_object_array_get_idx(codes, k) : NULL;
		n_fail += c && json_object_is_type(c, json_type_int) && json_object_get_int(c);
	}
	if (!ret &&
	    (bs_imp_get(r, "user", json_type_double) || bs_imp_get(r, "system", json_type_double)))
		ret = bs_imp_drop(imp, "user and system CPU times (per command, not per run)");
	if (!ret && bs_imp_get(r, "mean", json_type_double))
		ret = bs_imp_drop(imp, "the summary figures mean, stddev, median, min, max "
				       "(recomputable from the times)");
	if (!ret && codes)
		ret = n_fail ? bs_imp_drop(imp,
					   "%.60s: %zu runs exited non-zero (kept; exit codes "
					   "not represented)",
					   cmd, n_fail)
			     : bs_imp_drop(imp, "exit codes (all 0)");
	if (!ret && (v = bs_imp_get(r, "parameters", json_type_object)) &&
	    json_object_object_length(v))
		ret = bs_imp_drop(imp, "parameters (the command line names the benchmark)");
	return ret;
}

int bs_import_hyperfine(struct bs_imp *imp, const char *path)
{
	json_object *doc, *results;
	int ret;

	if ((ret = bs_imp_load_json(imp, path, &doc)))
		return ret;
	results = bs_imp_get(doc, "results", json_type_array);
	if (!results) {
		json_object_put(doc);
		return bs_imp_bad(imp, "not hyperfine JSON: no \"results\" array");
	}
	for (size_t i = 0; !ret && i < json_object_array_length(results); i++)
		ret = result(imp, json_object_array_get_idx(results, i), i);
	json_object_put(doc);
	return ret;
}
