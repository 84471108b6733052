// SPDX-License-Identifier: MIT
/*
 * gotest.c - `go test -bench` text output, the Go benchmark format that
 * benchstat reads (golang.org/x/perf/benchfmt; Go 1.19 testing/benchmark.go)
 * to samples (formats.h).
 *
 * A result line: "BenchmarkName-P <N> <value> <unit> [<value> <unit>...]":
 * N iterations at <value> ns/op, so the sample's time is N x ns/op (Go
 * printed ns/op rounded to a few digits: that is the precision the file
 * has). Each benchmark's results (one per -test.count) in one file are one
 * synthetic process. "key: value" configuration lines before the results
 * (goos, goarch, pkg, cpu) are the machine; every other metric (B/op,
 * allocs/op, MB/s, custom ones) is dropped, so are results with 0
 * iterations (a benchmark that skipped: Go prints "NaN ns/op").
 * The "-P" GOMAXPROCS suffix is cut from the name (the name `benchscope
 * run --preset go` records) when the whole file has one P; with several,
 * names keep it so that the settings stay apart.
 * A Benchmark line whose second field is not a number is output of the
 * benchmark (a log line), not a result; one whose second field starts
 * like a number but is not a decimal count (-7, 1e3, 0x10, past 2^64),
 * or whose values are not decimal numbers (0x10 ns/op), is bad input:
 * refused with its line, never read as another count or skipped.
 */
#include "import/formats.h"

#include <stdio.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_FIELDS 64

/* "BenchmarkX-4" -> 4, or 0 without a suffix */
static long procs_suffix(const char *name)
{
	const char *d = strrchr(name, '-');
	char *end;
	long p;

	if (!d || !isdigit((unsigned char)d[1]))
		return 0;
	p = strtol(d + 1, &end, 10);
	return *end ? 0 : p;
}

/* "key: value" (benchfmt: a lower-case key without spaces); other lines are ignored */
static int config_line(struct bs_imp *imp, char *line)
{
	char *colon = strchr(line, ':'), *v;
	json_object *old;

	if (!colon || colon == line)
		return 0;
	for (char *p = line; p < colon; p++)
		if (!islower((unsigned char)*p) && *p != '-' && !isdigit((unsigned char)*p))
			return 0;
	*colon = 0;
	for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
		;
	v[strcspn(v, "\r\n")] = 0;
	for (size_t n = strlen(v); n && (v[n - 1] == ' ' || v[n - 1] == '\t'); n--)
		v[n - 1] = 0;
	if ((old = bs_imp_get(imp->machine, line, json_type_string))) {
		if (strcmp(json_object_get_string(old), v))
			return bs_imp_drop(imp, "later values of '%.40s' (the first one is kept)",
					   line);
		return 0;
	}
	json_object_object_add(imp->machine, line, json_object_new_string(v));
	if (!strcmp(line, "cpu"))
		json_object_object_add(imp->machine, "cpu_model", json_object_new_string(v));
	return 0;
}

/* whether @t starts like a number ("12", "-7", "+3", ".5"): in a count's place, a bad count */
static bool numeric_start(const char *t)
{
	if (*t == '-' || *t == '+')
		t++;
	if (*t == '.')
		t++;
	return isdigit((unsigned char)*t);
}

/* the iteration count @t: decimal digits only (Go prints %d of an int), no overflow */
static int parse_count(const char *t, uint64_t *n)
{
	char *end;

	if (!isdigit((unsigned char)*t))
		return -EINVAL;
	errno = 0;
	*n = strtoull(t, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

/*
 * the value @t as Go's testing package prints one (%.Nf, %.Ng, or "NaN" of a
 * skipped benchmark's ns/op; benchfmt reads it with strconv.ParseFloat):
 * decimal with an optional exponent, or NaN/Inf; hexadecimal (which
 * strtod would take) and anything else is refused
 */
static int parse_value(const char *t, double *v)
{
	const char *p = t;
	char *end;
	bool digits = false;

	if (*p == '-' || *p == '+')
		p++;
	if (strcasecmp(p, "nan") && strcasecmp(p, "inf")) {
		for (; isdigit((unsigned char)*p); p++)
			digits = true;
		if (*p == '.')
			for (p++; isdigit((unsigned char)*p); p++)
				digits = true;
		if (!digits)
			return -EINVAL;
		if (*p == 'e' || *p == 'E') {
			p++;
			if (*p == '-' || *p == '+')
				p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			while (isdigit((unsigned char)*p))
				p++;
		}
		if (*p)
			return -EINVAL;
	}
	*v = strtod(t, &end);
	return *end ? -EINVAL : 0;
}

struct result {
	char *name;
	uint64_t n;
	double ns_op;
	size_t line;
};

/* a result line into *r (name allocated); 0 not a result line, 1 a result, <0 bad */
static int result_line(struct bs_imp *imp, char *line, size_t lineno, struct result *r)
{
	char *f[MAX_FIELDS], *save = NULL, *t;
	size_t nf = 0;
	bool has_ns = false, more = false;
	int ret = 0;

	for (t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (nf == MAX_FIELDS) {
			more = true; /* said below, if this is a result line */
			break;
		}
		f[nf++] = t;
	}
	/* benchfmt: "Benchmark" then an upper-case letter, digit or end; then N */
	if (nf < 2 || strncmp(f[0], "Benchmark", 9) ||
	    (f[0][9] && !isupper((unsigned char)f[0][9]) && !isdigit((unsigned char)f[0][9]) &&
	     f[0][9] != '_' && f[0][9] != '-' && f[0][9] != '/'))
		return 0;
	if (!numeric_start(f[1]))
		return 0; /* "BenchmarkX" followed by a log line: not a result */
	if (parse_count(f[1], &r->n))
		return bs_imp_bad(imp, "line %zu: bad iteration count '%.30s'", lineno, f[1]);
	if (more)
		return bs_imp_bad(imp, "line %zu: more than %d fields (%d metrics)", lineno,
				  MAX_FIELDS, MAX_FIELDS / 2 - 1);
	if (nf % 2)
		return bs_imp_bad(imp, "line %zu: a value without its unit", lineno);
	r->line = lineno;
	r->ns_op = NAN;
	for (size_t i = 2; i + 1 < nf && !ret; i += 2) {
		double v;

		if (parse_value(f[i], &v))
			return !strcmp(f[i + 1], "ns/op")
				   ? bs_imp_bad(imp, "line %zu: bad ns/op value '%.30s'", lineno,
						f[i])
				   : bs_imp_bad(imp, "line %zu: '%.30s' is not a number", lineno,
						f[i]);
		if (!strcmp(f[i + 1], "ns/op")) {
			r->ns_op = v;
			has_ns = true;
		} else {
			ret = bs_imp_drop(imp, "metric %.40s", f[i + 1]);
		}
	}
	if (ret)
		return ret;
	if (!has_ns)
		return bs_imp_drop(imp, "%.60s: a result without ns/op", f[0]) ?: 0;
	if (!(r->name = strdup(f[0])))
		return -ENOMEM;
	return 1;
}

int bs_import_gotest(struct bs_imp *imp, const char *path)
{
	FILE *fp = fopen(path, "r");
	struct result *res = NULL, r;
	size_t n = 0, lineno = 0, cap = 0;
	long procs = -1;
	char *line = NULL, where[300];
	size_t len = 0;
	int ret = 0;

	if (!fp) {
		ret = -errno;
		snprintf(imp->err, imp->errlen, "cannot read %s: %s", path, strerror(errno));
		return ret;
	}
	while (!ret && getline(&line, &len, fp) >= 0) {
		lineno++;
		memset(&r, 0, sizeof(r));
		if (strncmp(line, "Benchmark", 9)) {
			ret = config_line(imp, line);
			continue;
		}
		ret = result_line(imp, line, lineno, &r);
		if (ret <= 0)
			continue;
		ret = 0;
		if (n == cap) {
			struct result *p = realloc(res, (cap = cap ? 2 * cap : 64) * sizeof(*p));

			if (!p) {
				free(r.name);
				ret = -ENOMEM;
				break;
			}
			res = p;
		}
		res[n++] = r;
		if (procs != -2 && procs_suffix(r.name) != procs)
			procs = procs == -1 ? procs_suffix(r.name) : -2;
	}
	if (!ret && ferror(fp)) { /* getline's errno: EISDIR for a directory */
		int e = errno ? errno : EIO;

		snprintf(imp->err, imp->errlen, "cannot read %s: %s", path, strerror(e));
		ret = -e;
	}
	free(line);
	fclose(fp);
	if (!ret && !n && !imp->n)
		ret = bs_imp_bad(imp, "not `go test -bench` output: no Benchmark result line");
	for (size_t i = 0; i < n && !ret; i++) {
		long bench, proc;

		if (!res[i].n) {
			ret = bs_imp_drop(imp, "%.60s: a result with 0 iterations (skipped)",
					  res[i].name);
			continue;
		}
		snprintf(where, sizeof(where), "line %zu (%.100s)", res[i].line, res[i].name);
		/* the whole name, its "-P" cut (every name has one: procs_suffix); a name
		 * too long for a BENCH record is bs_imp_bench's to shorten */
		if (procs > 0)
			*strrchr(res[i].name, '-') = 0;
		if ((bench = bs_imp_bench(imp, res[i].name)) < 0 ||
		    (proc = bs_imp_bench_proc(imp, bench)) < 0) {
			ret = bench < 0 ? (int)bench : -ENOMEM;
			break;
		}
		ret = bs_imp_sample(imp, (uint32_t)proc, bench, res[i].ns_op * (double)res[i].n,
				    res[i].n, false, where);
	}
	if (!ret && procs > 0)
		json_object_object_add(imp->machine, "gomaxprocs", json_object_new_int64(procs));
	for (size_t i = 0; i < n; i++)
		free(res[i].name);
	free(res);
	return ret;
}
