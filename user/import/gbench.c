// SPDX-License-Identifier: MIT
/*
 * gbench.c - Google Benchmark JSON (--benchmark_out_format=json, library
 * 1.7: benchmark/src/json_reporter.cc) to samples (formats.h).
 *
 * Every row of run_type "iteration" is one repetition: `iterations`
 * invocations taking real_time (per iteration, in time_unit) each, so the
 * sample's time is real_time x iterations. The repetitions of one
 * benchmark (one run_name) in one file are one synthetic process.
 * Aggregate rows (mean, median, stddev, cv, BigO, RMS), cpu_time, user
 * counters and labels are dropped; rows with error_occurred too. The
 * "context" object is the machine.
 */
#include "import/formats.h"

#include <stdio.h>

#include <errno.h>
#include <math.h>
#include <string.h>

/* row keys the importer reads or knows to carry nothing more */
static const char *const known_keys[] = {
    "name",
    "family_index",
    "per_family_instance_index",
    "run_name",
    "run_type",
    "repetitions",
    "repetition_index",
    "threads",
    "iterations",
    "real_time",
    "cpu_time",
    "time_unit",
    "aggregate_name",
    "aggregate_unit",
    "error_occurred",
    "error_message",
    "label",
};

static bool known(const char *key)
{
	for (size_t i = 0; i < sizeof(known_keys) / sizeof(known_keys[0]); i++)
		if (!strcmp(key, known_keys[i]))
			return true;
	return false;
}

static int machine(struct bs_imp *imp, json_object *ctx)
{
	json_object *v;

	if (!ctx)
		return bs_imp_drop(imp, "no \"context\" object: nothing about the machine");
	json_object_object_foreach(ctx, key, val)
	{
		if (!strcmp(key, "library_version"))
			continue;
		json_object_object_add(imp->machine, key, json_object_get(val));
	}
	if ((v = bs_imp_get(ctx, "host_name", json_type_string)))
		json_object_object_add(imp->machine, "hostname", json_object_get(v));
	if ((v = bs_imp_get(ctx, "num_cpus", json_type_int)))
		json_object_object_add(imp->machine, "ncpus", json_object_get(v));
	if ((v = bs_imp_get(ctx, "library_version", json_type_string)) && !imp->tool_version)
		imp->tool_version = json_object_get(v);
	return 0;
}

static int row(struct bs_imp *imp, json_object *b, size_t i, size_t *n_aggr)
{
	const char *name, *type, *unit;
	char where[160];
	double iters, t, scale;
	json_object *v;
	long bench, proc;
	int ret;

	if (!json_object_is_type(b, json_type_object))
		return bs_imp_bad(imp, "benchmarks[%zu] is not an object", i);
	if (!(v = bs_imp_get(b, "name", json_type_string)))
		return bs_imp_bad(imp, "benchmarks[%zu]: no \"name\"", i);
	name = json_object_get_string(v);
	snprintf(where, sizeof(where), "benchmark %.100s (row %zu)", name, i);
	v = bs_imp_get(b, "run_type", json_type_string);
	type = v ? json_object_get_string(v) : "iteration";
	if (!strcmp(type, "aggregate")) {
		v = bs_imp_get(b, "aggregate_name", json_type_string);
		++*n_aggr;
		return bs_imp_drop(imp, "aggregate rows '%s' (recomputable from the repetitions)",
				   v ? json_object_get_string(v) : "?");
	}
	if (strcmp(type, "iteration"))
		return bs_imp_bad(imp, "%s: unknown run_type '%.40s'", where, type);
	if ((v = bs_imp_get(b, "error_occurred", json_type_boolean)) &&
	    json_object_get_boolean(v)) {
		v = bs_imp_get(b, "error_message", json_type_string);
		return bs_imp_drop(imp, "%.100s: a repetition that failed (%.100s)", name,
				   v ? json_object_get_string(v) : "error_occurred");
	}
	if ((v = bs_imp_get(b, "run_name", json_type_string)))
		name = json_object_get_string(v);
	v = bs_imp_get(b, "time_unit", json_type_string);
	unit = v ? json_object_get_string(v) : "ns";
	scale = bs_imp_unit_ns(unit);
	if (isnan(scale))
		return bs_imp_bad(imp, "%s: unknown time_unit '%.20s'", where, unit);
	if ((ret = bs_imp_num(imp, b, "iterations", where, &iters)) ||
	    (ret = bs_imp_num(imp, b, "real_time", where, &t)))
		return ret;
	if (!(iters >= 1 && iters <= 0x1p62 && iters == floor(iters)))
		return bs_imp_bad(imp, "%s: iterations %g is not a count >= 1", where, iters);
	if ((bench = bs_imp_bench(imp, name)) < 0)
		return (int)bench;
	if ((proc = bs_imp_bench_proc(imp, bench)) < 0)
		return (int)proc;
	if ((ret = bs_imp_sample(imp, (uint32_t)proc, bench, t * scale * iters, (uint64_t)iters,
				 false, where)))
		return ret;
	if (bs_imp_get(b, "cpu_time", json_type_double) || bs_imp_get(b, "cpu_time", json_type_int))
		ret = bs_imp_drop(imp, "cpu_time of every repetition");
	if (!ret && (v = bs_imp_get(b, "threads", json_type_int)) && json_object_get_int64(v) > 1)
		ret = bs_imp_drop(imp,
				  "%.100s: %lld threads: one sample per repetition, the threads' "
				  "mean time",
				  name, (long long)json_object_get_int64(v));
	json_object_object_foreach(b, key, val)
	{
		(void)val;
		if (!ret && !known(key))
			ret = bs_imp_drop(imp, "user counter '%.60s'", key);
	}
	if (!ret && bs_imp_get(b, "label", json_type_string))
		ret = bs_imp_drop(imp, "labels (SetLabel)");
	return ret;
}

int bs_import_gbench(struct bs_imp *imp, const char *path)
{
	json_object *doc, *rows;
	size_t n_aggr = 0, before = imp->n;
	int ret;

	if ((ret = bs_imp_load_json(imp, path, &doc)))
		return ret;
	rows = bs_imp_get(doc, "benchmarks", json_type_array);
	if (!rows) {
		json_object_put(doc);
		return bs_imp_bad(imp, "not Google Benchmark JSON: no \"benchmarks\" array");
	}
	ret = machine(imp, bs_imp_get(doc, "context", json_type_object));
	for (size_t i = 0; !ret && i < json_object_array_length(rows); i++)
		ret = row(imp, json_object_array_get_idx(rows, i), i, &n_aggr);
	json_object_put(doc);
	if (!ret && imp->n == before && n_aggr)
		return bs_imp_bad(imp,
				  "only aggregate rows, no repetition: run the benchmark without "
				  "--benchmark_report_aggregates_only");
	return ret;
}
