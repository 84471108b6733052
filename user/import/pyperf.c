// SPDX-License-Identifier: MIT
/*
 * pyperf.c - pyperf JSON (format version 1.0: pyperf/_bench.py, doc/
 * api.rst "JSON format") to samples (formats.h).
 *
 * {"version": "1.0", "metadata": {...}, "benchmarks": [{"metadata":
 * {"name", "loops", ...}, "runs": [{"metadata": {...}, "warmups":
 * [[loops, value], ...], "values": [...]}]}]}: every run is a worker
 * process of its own (one synthetic process); a value is the time of one
 * inner iteration, seconds, over loops x inner_loops of them, so a sample
 * ran loops x inner_loops invocations in value x that. Warmups (and the
 * calibration runs, which hold warmups only) carry their own loops and are
 * flagged warmup. Metadata is looked up run, then benchmark, then file; the
 * file's metadata is the machine. Per-run metadata (dates, CPU frequency
 * and temperature, load) and benchmarks whose unit is not "second"
 * (byte, integer: track_memory) are dropped.
 */
#include "import/formats.h"

#include <stdio.h>

#include <errno.h>
#include <math.h>
#include <string.h>

/* metadata @key of the run, else the benchmark, else the file */
static json_object *meta(json_object *const m[3], const char *key)
{
	json_object *v;

	for (int i = 0; i < 3; i++)
		if (m[i] && json_object_object_get_ex(m[i], key, &v))
			return v;
	return NULL;
}

static int meta_count(struct bs_imp *imp, json_object *const m[3], const char *key, bool required,
		      const char *where, uint64_t *out)
{
	json_object *v = meta(m, key);
	int64_t x;

	if (!v) {
		*out = 1;
		return required ? bs_imp_bad(imp, "%s: no \"%s\" in its metadata", where, key) : 0;
	}
	if (!json_object_is_type(v, json_type_int) || (x = json_object_get_int64(v)) < 1)
		return bs_imp_bad(imp, "%s: \"%s\" is not a count >= 1", where, key);
	*out = (uint64_t)x;
	return 0;
}

static int add_value(struct bs_imp *imp, uint32_t proc, long bench, json_object *v, uint64_t loops,
		     uint64_t inner, bool warmup, const char *where)
{
	double s;

	if (!v ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return bs_imp_bad(imp, "%s is not a number", where);
	if (loops > (1ull << 62) / inner)
		return bs_imp_bad(imp, "%s: loops x inner_loops out of range", where);
	s = json_object_get_double(v);
	return bs_imp_sample(imp, proc, bench, s * 1e9 * (double)(loops * inner), loops * inner,
			     warmup, where);
}

static int run(struct bs_imp *imp, json_object *m[3], json_object *r, long bench, const char *name,
	       size_t k)
{
	json_object *warm = bs_imp_get(r, "warmups", json_type_array);
	json_object *vals = bs_imp_get(r, "values", json_type_array);
	uint32_t proc = bs_imp_proc(imp);
	char where[300];
	uint64_t loops, inner;
	int ret;

	m[0] = bs_imp_get(r, "metadata", json_type_object);
	snprintf(where, sizeof(where), "benchmark %.100s run %zu", name, k);
	if ((ret = meta_count(imp, m, "inner_loops", false, where, &inner)))
		return ret;
	for (size_t i = 0; warm && i < json_object_array_length(warm) && !ret; i++) {
		json_object *w = json_object_array_get_idx(warm, i), *l;

		snprintf(where, sizeof(where), "benchmark %.100s run %zu warmup %zu", name, k, i);
		/* json-c asserts an array: w's type first */
		if (!json_object_is_type(w, json_type_array) || json_object_array_length(w) != 2 ||
		    !json_object_is_type((l = json_object_array_get_idx(w, 0)), json_type_int) ||
		    json_object_get_int64(l) < 1)
			return bs_imp_bad(imp, "%s is not [loops, value]", where);
		ret = add_value(imp, proc, bench, json_object_array_get_idx(w, 1),
				(uint64_t)json_object_get_int64(l), inner, true, where);
	}
	if (ret || !vals)
		return ret;
	snprintf(where, sizeof(where), "benchmark %.100s run %zu", name, k);
	if ((ret = meta_count(imp, m, "loops", true, where, &loops)))
		return ret;
	for (size_t i = 0; i < json_object_array_length(vals) && !ret; i++) {
		snprintf(where, sizeof(where), "benchmark %.100s run %zu value %zu", name, k, i);
		ret = add_value(imp, proc, bench, json_object_array_get_idx(vals, i), loops, inner,
				false, where);
	}
	if (!ret && m[0])
		ret = bs_imp_drop(imp, "per-run metadata (date, duration, cpu_freq, load_avg...)");
	return ret;
}

static int benchmark(struct bs_imp *imp, json_object *common, json_object *b, size_t i)
{
	json_object *m[3] = {NULL, bs_imp_get(b, "metadata", json_type_object), common};
	json_object *runs = bs_imp_get(b, "runs", json_type_array), *v;
	const char *name, *unit;
	long bench;
	int ret = 0;

	if (!runs)
		return bs_imp_bad(imp, "benchmarks[%zu]: no \"runs\" array", i);
	v = meta(m, "name");
	if (!v || !json_object_is_type(v, json_type_string))
		return bs_imp_bad(imp, "benchmarks[%zu]: no \"name\" in its metadata", i);
	name = json_object_get_string(v);
	v = meta(m, "unit");
	unit = v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "second";
	if (strcmp(unit, "second"))
		return bs_imp_drop(imp, "%.100s: values in %.20s, not time", name, unit);
	if ((bench = bs_imp_bench(imp, name)) < 0)
		return (int)bench;
	for (size_t k = 0; k < json_object_array_length(runs) && !ret; k++)
		ret = run(imp, m, json_object_array_get_idx(runs, k), bench, name, k);
	return ret;
}

static void machine(struct bs_imp *imp, json_object *common)
{
	json_object *v;

	json_object_object_foreach(common, key, val)
	{
		json_object_object_add(imp->machine, key, json_object_get(val));
	}
	if ((v = bs_imp_get(common, "cpu_model_name", json_type_string)))
		json_object_object_add(imp->machine, "cpu_model", json_object_get(v));
	if ((v = bs_imp_get(common, "cpu_count", json_type_int)))
		json_object_object_add(imp->machine, "ncpus", json_object_get(v));
	if (!imp->tool_version && ((v = bs_imp_get(common, "pyperf_version", json_type_string)) ||
				   (v = bs_imp_get(common, "perf_version", json_type_string))))
		imp->tool_version = json_object_get(v);
}

int bs_import_pyperf(struct bs_imp *imp, const char *path)
{
	json_object *doc, *benches, *common, *ver;
	int ret;

	if ((ret = bs_imp_load_json(imp, path, &doc)))
		return ret;
	benches = bs_imp_get(doc, "benchmarks", json_type_array);
	ver = bs_imp_get(doc, "version", json_type_string);
	if (!benches || !ver) {
		json_object_put(doc);
		return bs_imp_bad(imp, "not pyperf JSON: no \"version\" and \"benchmarks\"");
	}
	if (strcmp(json_object_get_string(ver), "1.0")) {
		ret = bs_imp_bad(imp, "pyperf JSON format version %.20s (this reads 1.0)",
				 json_object_get_string(ver));
		json_object_put(doc);
		return ret;
	}
	common = bs_imp_get(doc, "metadata", json_type_object);
	if (common)
		machine(imp, common);
	for (size_t i = 0; i < json_object_array_length(benches) && !ret; i++)
		ret = benchmark(imp, common, json_object_array_get_idx(benches, i), i);
	json_object_put(doc);
	return ret;
}
