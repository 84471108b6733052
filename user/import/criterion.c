// SPDX-License-Identifier: MIT
/*
 * criterion.c - criterion.rs results (0.3: src/fs.rs, src/report.rs) to
 * samples (formats.h).
 *
 * Input: a directory (target/criterion, or CRITERION_HOME), searched for
 * every <benchmark>/new/sample.json, or such sample.json files themselves.
 * sample.json {"sampling_mode", "iters": [...], "times": [...]}: sample k
 * ran iters[k] invocations in times[k] ns. The benchmark's name is
 * benchmark.json's "full_id" beside it (else the directory's path); each
 * sample.json is one synthetic process. estimates.json beside it (mean,
 * median, std_dev, median_abs_dev, slope with their confidence intervals)
 * is recomputable from the samples and dropped, as are the base/ and
 * change/ directories of an earlier run. criterion keeps no warm-up
 * sample in its files.
 */
#include "import/formats.h"

#include <stdio.h>

#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct found {
	char **paths;
	size_t n;
	int err;
};

static struct found *walk_found; /* nftw has no user pointer */

static int walk_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t len = strlen(path);
	char **p;

	(void)st;
	(void)ftw;
	if (type != FTW_F || len < 16 || strcmp(path + len - 16, "/new/sample.json"))
		return 0;
	p = realloc(walk_found->paths, (walk_found->n + 1) * sizeof(*p));
	if (!p || !(p[walk_found->n] = strdup(path))) {
		if (p)
			walk_found->paths = p;
		walk_found->err = -ENOMEM;
		return 1;
	}
	walk_found->paths = p;
	walk_found->n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the file @name beside sample.json (@dir: its directory) as JSON, or NULL */
static json_object *beside(struct bs_imp *imp, const char *dir, const char *name)
{
	char p[4096];
	json_object *o = NULL;
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (stat(p, &st))
		return NULL;
	if (bs_imp_load_json(imp, p, &o))
		return NULL;
	bs_imp_source(imp, p);
	return o;
}

/* the benchmark's name: benchmark.json's full_id, else the directory above new/ */
static int bench_name(struct bs_imp *imp, const char *dir, char *buf, size_t len)
{
	json_object *b = beside(imp, dir, "benchmark.json"), *v;
	char tmp[4096], *up;

	if ((v = bs_imp_get(b, "full_id", json_type_string))) {
		snprintf(buf, len, "%s", json_object_get_string(v));
		json_object_put(b);
		return 0;
	}
	json_object_put(b);
	snprintf(tmp, sizeof(tmp), "%s", dir);
	up = dirname(tmp); /* <benchmark>/new -> <benchmark> */
	snprintf(buf, len, "%s", up);
	return bs_imp_drop(imp, "no benchmark.json: benchmarks named by their directory");
}

static int one_sample_file(struct bs_imp *imp, const char *path)
{
	json_object *doc, *iters, *times, *est;
	char tmp[4200], dir[4096], name[512], where[600];
	struct stat st;
	long bench, proc;
	size_t n;
	int ret;

	if ((ret = bs_imp_source(imp, path)) || (ret = bs_imp_load_json(imp, path, &doc)))
		return ret;
	iters = bs_imp_get(doc, "iters", json_type_array);
	times = bs_imp_get(doc, "times", json_type_array);
	if (!iters || !times) {
		json_object_put(doc);
		return bs_imp_bad(imp, "not a criterion sample.json: no \"iters\" and \"times\" "
				       "arrays");
	}
	n = json_object_array_length(iters);
	if (n != json_object_array_length(times)) {
		/* the message before the put: times is doc's */
		ret =
		    bs_imp_bad(imp, "%zu iters but %zu times", n, json_object_array_length(times));
		json_object_put(doc);
		return ret;
	}
	snprintf(tmp, sizeof(tmp), "%s", path);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if ((ret = bench_name(imp, dir, name, sizeof(name)))) {
		json_object_put(doc);
		return ret;
	}
	imp->path = path;
	if ((bench = bs_imp_bench(imp, name)) < 0 || (proc = bs_imp_bench_proc(imp, bench)) < 0) {
		json_object_put(doc);
		return bench < 0 ? (int)bench : -ENOMEM;
	}
	for (size_t k = 0; k < n && !ret; k++) {
		json_object *i = json_object_array_get_idx(iters, k);
		json_object *t = json_object_array_get_idx(times, k);
		double it = json_object_get_double(i);

		snprintf(where, sizeof(where), "%.200s sample %zu", name, k);
		if (!(json_object_is_type(i, json_type_double) ||
		      json_object_is_type(i, json_type_int)) ||
		    !(json_object_is_type(t, json_type_double) ||
		      json_object_is_type(t, json_type_int)))
			ret = bs_imp_bad(imp, "%s: iters and times must be numbers", where);
		else if (!(it >= 1 && it <= 0x1p62 && it == floor(it)))
			ret = bs_imp_bad(imp, "%s: iters %g is not a count >= 1", where, it);
		else
			ret = bs_imp_sample(imp, (uint32_t)proc, bench, json_object_get_double(t),
					    (uint64_t)it, false, where);
	}
	json_object_put(doc);
	if (!ret && (est = beside(imp, dir, "estimates.json"))) {
		ret = bs_imp_drop(imp, "criterion's estimates.json (mean, median, std_dev, "
				       "median_abs_dev, slope and their intervals: recomputable "
				       "from the samples)");
		json_object_put(est);
	}
	if (!ret && (est = beside(imp, dir, "tukey.json"))) {
		ret = bs_imp_drop(imp, "criterion's tukey.json (outlier fences: recomputable)");
		json_object_put(est);
	}
	snprintf(tmp, sizeof(tmp), "%s/../base/sample.json", dir);
	if (!ret && !stat(tmp, &st))
		ret = bs_imp_drop(imp, "criterion's base/ (the previous run's copy; not imported)");
	imp->path = path;
	return ret;
}

int bs_import_criterion(struct bs_imp *imp, const char *path)
{
	struct found f = {0};
	struct stat st;
	int ret = 0;

	if (stat(path, &st)) {
		ret = -errno;
		snprintf(imp->err, imp->errlen, "cannot read %s: %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISDIR(st.st_mode))
		return one_sample_file(imp, path);
	walk_found = &f;
	if (nftw(path, walk_one, 16, FTW_PHYS) < 0 && !f.err)
		f.err = -errno;
	walk_found = NULL;
	if (f.err) {
		snprintf(imp->err, imp->errlen, "cannot read %s: %s", path, strerror(-f.err));
		ret = f.err;
	} else if (!f.n) {
		imp->path = path;
		ret = bs_imp_bad(imp, "no <benchmark>/new/sample.json under it");
	}
	if (f.n)
		qsort(f.paths, f.n, sizeof(*f.paths), cmp_str);
	for (size_t i = 0; i < f.n && !ret; i++)
		ret = one_sample_file(imp, f.paths[i]);
	for (size_t i = 0; i < f.n; i++)
		free(f.paths[i]);
	free(f.paths);
	return ret;
}
