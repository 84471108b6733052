// SPDX-License-Identifier: MIT
/*
 * jmh.c - JMH JSON results (-rf json; JMH 1.x org.openjdk.jmh.results.
 * format.JSONResultFormat) to samples (formats.h).
 *
 * An array of benchmark runs; the benchmark is "benchmark" with its
 * "params" as "name(k=v,...)". primaryMetric.rawData[fork][iteration] is
 * the iteration's score in scoreUnit: in the time modes (avgt, ss; unit
 * "ns/op", "us/op", "ms/op", "s/op") the time of one operation. JMH keeps
 * no operation count per iteration, so each iteration is one sample of
 * one invocation taking its score (ns per invocation = the score). Sample
 * mode (rawDataHistogram[fork][iteration] of [time, count] bins): each bin
 * is one sample of count invocations taking time each. Each fork is one
 * synthetic process, named by the benchmark. Throughput scores (ops per
 * time) are not times and are dropped, so are secondary metrics (gc
 * profiler, percentiles), the score summaries and the warmup iterations,
 * which the file does not keep. "jvm", "jdkVersion", "vmName",
 * "vmVersion", "jvmArgs" are the machine.
 */
#include "import/formats.h"

#include <stdio.h>

#include <errno.h>
#include <math.h>
#include <string.h>

static const char *const jvm_keys[] = {"jvm", "jdkVersion", "vmName", "vmVersion", "jvmArgs"};

static int name_of(struct bs_imp *imp, json_object *e, size_t i, char *buf, size_t len)
{
	json_object *b = bs_imp_get(e, "benchmark", json_type_string);
	json_object *params = bs_imp_get(e, "params", json_type_object), *none = NULL;
	size_t pos;
	bool first = true;

	if (!b)
		return bs_imp_bad(imp, "[%zu]: no \"benchmark\"", i);
	pos = (size_t)snprintf(buf, len, "%s", json_object_get_string(b));
	if (!params)
		params = none = json_object_new_object();
	json_object_object_foreach(params, key, val)
	{
		if (pos < len)
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s=%s", first ? "(" : ",",
						key, json_object_get_string(val));
		first = false;
	}
	json_object_put(none);
	if (!first && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, ")");
	if (pos >= len)
		return bs_imp_bad(imp, "[%zu]: benchmark name and params longer than %zu bytes", i,
				  len - 1);
	return 0;
}

static int machine(struct bs_imp *imp, json_object *e)
{
	json_object *v;

	for (size_t k = 0; k < sizeof(jvm_keys) / sizeof(jvm_keys[0]); k++) {
		json_object *old;

		if (!json_object_object_get_ex(e, jvm_keys[k], &v))
			continue;
		if (!json_object_object_get_ex(imp->machine, jvm_keys[k], &old))
			json_object_object_add(imp->machine, jvm_keys[k], json_object_get(v));
		else if (!json_object_equal(old, v))
			return bs_imp_drop(imp, "JVMs other than the first one's facts (%s)",
					   jvm_keys[k]);
	}
	if (!imp->tool_version && (v = bs_imp_get(e, "jmhVersion", json_type_string)))
		imp->tool_version = json_object_get(v);
	return 0;
}

static bool is_num(json_object *v)
{
	return json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int);
}

/* sample mode: rawDataHistogram[fork][iteration] = [[time, count], ...] */
static int histogram(struct bs_imp *imp, json_object *h, long bench, double scale, const char *name)
{
	char where[400];
	int ret = 0;

	for (size_t f = 0; f < json_object_array_length(h) && !ret; f++) {
		json_object *its = json_object_array_get_idx(h, f);
		uint32_t proc = bs_imp_proc(imp);

		if (!json_object_is_type(its, json_type_array))
			return bs_imp_bad(imp, "%.200s: rawDataHistogram[%zu] is not an array",
					  name, f);
		for (size_t i = 0; i < json_object_array_length(its) && !ret; i++) {
			json_object *bins = json_object_array_get_idx(its, i);

			if (!json_object_is_type(bins, json_type_array))
				return bs_imp_bad(
				    imp, "%.200s: rawDataHistogram[%zu][%zu] is not an array", name,
				    f, i);
			for (size_t k = 0; k < json_object_array_length(bins) && !ret; k++) {
				json_object *bin = json_object_array_get_idx(bins, k), *t, *c;
				int64_t n;

				snprintf(where, sizeof(where),
					 "%.200s fork %zu iteration %zu bin %zu", name, f, i, k);
				/* json-c asserts an array: bin's type first */
				if (!json_object_is_type(bin, json_type_array) ||
				    !is_num((t = json_object_array_get_idx(bin, 0))) ||
				    !json_object_is_type((c = json_object_array_get_idx(bin, 1)),
							 json_type_int))
					return bs_imp_bad(imp, "%s is not [time, count]", where);
				if ((n = json_object_get_int64(c)) < 1)
					return bs_imp_bad(imp, "%s: count %lld < 1", where,
							  (long long)n);
				ret = bs_imp_sample(imp, proc, bench,
						    json_object_get_double(t) * scale * (double)n,
						    (uint64_t)n, false, where);
			}
		}
	}
	return ret;
}

static int raw(struct bs_imp *imp, json_object *raw, long bench, double scale, const char *name)
{
	char where[400];
	int ret = 0;

	for (size_t f = 0; f < json_object_array_length(raw) && !ret; f++) {
		json_object *its = json_object_array_get_idx(raw, f);
		uint32_t proc = bs_imp_proc(imp);

		if (!json_object_is_type(its, json_type_array))
			return bs_imp_bad(imp, "%.200s: rawData[%zu] is not an array", name, f);
		for (size_t i = 0; i < json_object_array_length(its) && !ret; i++) {
			json_object *v = json_object_array_get_idx(its, i);

			snprintf(where, sizeof(where), "%.200s fork %zu iteration %zu", name, f, i);
			if (!is_num(v))
				return bs_imp_bad(imp, "%s is not a number", where);
			ret = bs_imp_sample(imp, proc, bench, json_object_get_double(v) * scale, 1,
					    false, where);
		}
	}
	return ret;
}

static int entry(struct bs_imp *imp, json_object *e, size_t i)
{
	json_object *pm = bs_imp_get(e, "primaryMetric", json_type_object), *v, *data;
	char name[1024], unit[32];
	const char *mode;
	double scale;
	long bench;
	int ret;

	if (!json_object_is_type(e, json_type_object))
		return bs_imp_bad(imp, "[%zu] is not an object", i);
	if ((ret = name_of(imp, e, i, name, sizeof(name))) || (ret = machine(imp, e)))
		return ret;
	if (!pm || !(v = bs_imp_get(pm, "scoreUnit", json_type_string)))
		return bs_imp_bad(imp, "%.200s: no primaryMetric.scoreUnit", name);
	snprintf(unit, sizeof(unit), "%s", json_object_get_string(v));
	v = bs_imp_get(e, "mode", json_type_string);
	mode = v ? json_object_get_string(v) : "?";
	if (strlen(unit) < 4 || strcmp(unit + strlen(unit) - 3, "/op"))
		return bs_imp_drop(imp, "%s-mode scores in %s (not a time per operation)", mode,
				   unit);
	unit[strlen(unit) - 3] = 0;
	scale = bs_imp_unit_ns(unit);
	if (isnan(scale))
		return bs_imp_bad(imp, "%.200s: unknown scoreUnit %s/op", name, unit);
	if ((bench = bs_imp_bench(imp, name)) < 0)
		return (int)bench;
	if ((data = bs_imp_get(pm, "rawData", json_type_array))) {
		ret = raw(imp, data, bench, scale, name);
		if (!ret)
			ret = bs_imp_drop(imp, "operations per iteration (JMH keeps none): each "
					       "iteration is one invocation taking its score");
	} else if ((data = bs_imp_get(pm, "rawDataHistogram", json_type_array))) {
		ret = histogram(imp, data, bench, scale, name);
	} else {
		return bs_imp_bad(imp, "%.200s: no primaryMetric.rawData or rawDataHistogram",
				  name);
	}
	if (!ret && (v = bs_imp_get(e, "secondaryMetrics", json_type_object)) &&
	    json_object_object_length(v))
		ret = bs_imp_drop(imp, "secondary metrics (profilers, percentiles)");
	if (!ret && (v = bs_imp_get(e, "warmupIterations", json_type_int)) &&
	    json_object_get_int64(v) > 0)
		ret = bs_imp_drop(imp, "warm-up iterations (not in JMH's file)");
	if (!ret)
		ret = bs_imp_drop(imp, "score summaries (score, scoreError, scoreConfidence, "
				       "scorePercentiles: recomputable)");
	return ret;
}

int bs_import_jmh(struct bs_imp *imp, const char *path)
{
	json_object *doc;
	int ret;

	if ((ret = bs_imp_load_json(imp, path, &doc)))
		return ret;
	if (!json_object_is_type(doc, json_type_array)) {
		json_object_put(doc);
		return bs_imp_bad(imp, "not JMH JSON: not an array of benchmark results");
	}
	for (size_t i = 0; i < json_object_array_length(doc) && !ret; i++)
		ret = entry(imp, json_object_array_get_idx(doc, i), i);
	json_object_put(doc);
	return ret;
}
