// SPDX-License-Identifier: MIT
/* duet.c - duet CSV data to a duet trace (import/duet.h). */
#include "util/version.h"
#include "import/duet.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "benchscope/record.h"
#include "duet/data.h"
#include "import/csv.h"
#include "trace/trace.h"
#include "util/output.h"

enum col {
	C_BENCH,
	C_TYPE,
	C_RUNID,
	C_PAIR,
	C_ITER,
	C_START,
	C_END,
	C_TIME,
	C_EPOCH_MS,
	C_SUITE,
	C_ORDER,
	C_INVOC,
	/* interference, in struct order */
	C_PREEMPTED,
	C_RUNQ,
	C_BLOCKED,
	C_IRQ,
	C_SOFTIRQ,
	C_STEAL,
	C_SCHED_DELAY,
	C_NVCSW,
	C_NIVCSW,
	C_MIGR,
	C_N
};

/* column names, aliases separated by '|' (first one found wins) */
static const char *const col_names[C_N] = {
    [C_BENCH] = "benchmark",
    [C_TYPE] = "type",
    [C_RUNID] = "runid|run_id|run",
    [C_PAIR] = "pair",
    [C_ITER] = "iteration",
    [C_START] = "iteration_start_ns|start_ns",
    [C_END] = "iteration_end_ns|end_ns",
    [C_TIME] = "iteration_time_ns|time_ns|iteration_duration_ns",
    [C_EPOCH_MS] = "epoch_start_ms",
    [C_SUITE] = "suite",
    [C_ORDER] = "order|duet_order",
    [C_INVOC] = "invocations",
    [C_PREEMPTED] = "preempted_ns",
    [C_RUNQ] = "runq_wait_ns",
    [C_BLOCKED] = "blocked_ns",
    [C_IRQ] = "irq_ns",
    [C_SOFTIRQ] = "softirq_ns",
    [C_STEAL] = "steal_ns",
    [C_SCHED_DELAY] = "sched_delay_ns",
    [C_NVCSW] = "nvcsw",
    [C_NIVCSW] = "nivcsw",
    [C_MIGR] = "migrations",
};

struct row {
	size_t line;
	int bench;  /* index into the benchmark names */
	int method; /* enum bs_dmethod */
	long runid;
	int side;  /* 0 A, 1 B */
	long iter; /* iteration index (file order when absent) */
	int64_t start, end, dur, epoch_ms;
	char order[3];
	struct bs_iter_rec rec; /* invocations and interference fields */
};

struct grp {
	int bench, method;
	long runid;
	int64_t first; /* earliest start */
	int run;
	char order[3];
	struct row **side[2];
	size_t n[2];
};

struct imp {
	const char *path;
	char *err;
	size_t errlen;
	int col[C_N];
	bool renaissance;
	struct row *rows;
	size_t n_rows, cap_rows;
	char **benches;
	size_t n_benches;
	char *suite;
	struct grp *g;
	size_t n_g;
};

__attribute__((format(printf, 3, 4))) static int bad(struct imp *im, size_t line, const char *fmt,
						     ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(im->err, im->errlen, "%s:%zu: %s", im->path, line, msg);
	else
		snprintf(im->err, im->errlen, "%s: %s", im->path, msg);
	return -EINVAL;
}

static int find_col(char **h, size_t n, const char *names)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", names);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
		for (size_t i = 0; i < n; i++)
			if (!strcmp(h[i], tok))
				return (int)i;
	return -1;
}

static int parse_i64(const char *s, int64_t *v)
{
	char *end;
	long long x;
	double d;

	while (*s == ' ')
		s++;
	if (!*s)
		return -1;
	/* decimal digits only: no hex ("0x10"), no "nan" or "inf", nothing after but spaces */
	if (s[strspn(s, "0123456789+-.eE ")])
		return -1;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (!errno && end != s && !end[strspn(end, " ")]) {
		*v = x;
		return 0;
	}
	/* pandas may write integers as floats ("1.6e+18", "123.0") */
	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || end[strspn(end, " ")] || !(d >= -9.2e18 && d <= 9.2e18) ||
	    d != (double)(int64_t)d)
		return -1;
	*v = (int64_t)d;
	return 0;
}

static int bench_index(struct imp *im, const char *name)
{
	char **b;

	for (size_t i = 0; i < im->n_benches; i++)
		if (!strcmp(im->benches[i], name))
			return (int)i;
	b = realloc(im->benches, (im->n_benches + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	im->benches = b;
	b[im->n_benches] = strdup(name);
	if (!b[im->n_benches])
		return -ENOMEM;
	return (int)im->n_benches++;
}

static const char *fld(struct imp *im, char **f, enum col c)
{
	return im->col[c] >= 0 ? f[im->col[c]] : NULL;
}

static int num_field(struct imp *im, char **f, enum col c, size_t line, int64_t *v, bool required)
{
	const char *s = fld(im, f, c);
	char name[64];

	snprintf(name, sizeof(name), "%s", col_names[c]);
	name[strcspn(name, "|")] = 0;
	if (!s || (!*s && !required)) {
		if (required)
			return bad(im, line, "no %s value", name);
		*v = 0;
		return 0;
	}
	if (parse_i64(s, v) && strcasestr(s, "nan"))
		return bad(im, line, "%s is NaN: a missing measurement cannot be imported", name);
	if (parse_i64(s, v))
		return bad(im, line, "%s is not an integer: '%.40s'", name, s);
	return 0;
}

static int read_row(struct imp *im, char **f, size_t nf, size_t line, size_t ncol)
{
	struct row r = {.line = line};
	const char *s;
	int64_t v;
	int ret;

	if (nf != ncol)
		return bad(im, line, "%zu fields, the header has %zu", nf, ncol);
	s = fld(im, f, C_BENCH);
	if (!*s)
		return bad(im, line, "empty benchmark");
	if ((ret = bench_index(im, s)) < 0)
		return ret;
	r.bench = ret;
	s = fld(im, f, C_TYPE);
	r.method = s ? bs_dmethod_parse(s) : BS_DM_ASYNC;
	if (r.method < 0)
		return bad(im, line, "unknown type '%.40s' (seqn, syncduet or duet)", s);
	if ((ret = num_field(im, f, C_RUNID, line, &v, true)))
		return ret;
	if (v < 0 || v > INT_MAX)
		return bad(im, line, "run id out of range: %" PRId64, v);
	r.runid = (long)v;
	s = fld(im, f, C_PAIR);
	if (strcmp(s, "A") && strcmp(s, "B"))
		return bad(im, line, "pair is '%.40s', not A or B", s);
	r.side = s[0] == 'B';
	if (im->col[C_ITER] >= 0) {
		if ((ret = num_field(im, f, C_ITER, line, &v, true)))
			return ret;
		if (v < 0)
			return bad(im, line, "negative iteration %" PRId64, v);
		r.iter = (long)v;
	} else {
		r.iter = (long)im->n_rows; /* file order */
	}
	if (im->renaissance) {
		if ((ret = num_field(im, f, C_EPOCH_MS, line, &r.epoch_ms, true)) ||
		    (ret = num_field(im, f, C_TIME, line, &r.dur, true)))
			return ret;
		if (r.epoch_ms < 0 || r.epoch_ms > INT64_MAX / 2000000)
			return bad(im, line, "epoch_start_ms out of range: %" PRId64, r.epoch_ms);
	} else {
		if ((ret = num_field(im, f, C_START, line, &r.start, true)))
			return ret;
		/* the trace's timestamps are unsigned */
		if (r.start < 0)
			return bad(im, line, "negative iteration start %" PRId64, r.start);
		if (im->col[C_END] >= 0) {
			if ((ret = num_field(im, f, C_END, line, &r.end, true)))
				return ret;
			if (r.end < 0)
				return bad(im, line, "negative iteration end %" PRId64, r.end);
			r.dur = r.end - r.start;
		} else {
			if ((ret = num_field(im, f, C_TIME, line, &r.dur, true)))
				return ret;
			if (r.dur > INT64_MAX - r.start)
				return bad(im, line, "iteration times overflow");
			r.end = r.start + r.dur;
		}
	}
	if (r.dur < 0)
		return bad(im, line, "the iteration ends before it starts");
	if (!r.dur)
		return bad(im, line, "the iteration lasts 0 ns: it has no score to compare");
	s = fld(im, f, C_ORDER);
	if (s && (!strcmp(s, "AB") || !strcmp(s, "BA")))
		memcpy(r.order, s, 3);
	if ((ret = num_field(im, f, C_INVOC, line, &v, false)))
		return ret;
	if (v < 0)
		return bad(im, line, "negative invocations");
	r.rec.invocations = (uint64_t)v;
	for (int c = C_PREEMPTED; c <= C_MIGR; c++) {
		if ((ret = num_field(im, f, (enum col)c, line, &v, false)))
			return ret;
		if (v < 0 || (c >= C_NVCSW && v > UINT32_MAX))
			return bad(im, line, "%s out of range: %" PRId64, col_names[c], v);
		switch (c) {
		case C_PREEMPTED:
			r.rec.preempted_ns = (uint64_t)v;
			break;
		case C_RUNQ:
			r.rec.runq_wait_ns = (uint64_t)v;
			break;
		case C_BLOCKED:
			r.rec.blocked_ns = (uint64_t)v;
			break;
		case C_IRQ:
			r.rec.irq_ns = (uint64_t)v;
			break;
		case C_SOFTIRQ:
			r.rec.softirq_ns = (uint64_t)v;
			break;
		case C_STEAL:
			r.rec.steal_ns = (uint64_t)v;
			break;
		case C_SCHED_DELAY:
			r.rec.sched_delay_ns = (uint64_t)v;
			break;
		case C_NVCSW:
			r.rec.nvcsw = (uint32_t)v;
			break;
		case C_NIVCSW:
			r.rec.nivcsw = (uint32_t)v;
			break;
		default:
			r.rec.migrations = (uint32_t)v;
			break;
		}
	}
	if (!im->suite && (s = fld(im, f, C_SUITE)) && *s && !(im->suite = strdup(s)))
		return -ENOMEM;
	if (im->n_rows == im->cap_rows) {
		size_t cap = im->cap_rows ? 2 * im->cap_rows : 256;
		struct row *p = realloc(im->rows, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		im->rows = p;
		im->cap_rows = cap;
	}
	im->rows[im->n_rows++] = r;
	return 0;
}

/* an error @ret of bs_csv_next (its message in im->err, without the file):
 * "FILE: line N: ..." (-EINVAL), or "cannot read FILE: REASON" for a
 * failed read (its -errno kept: -EISDIR for a directory) */
static int csv_error(struct imp *im, int ret)
{
	char m[300];

	if (ret == -ENOMEM)
		return ret;
	snprintf(m, sizeof(m), "%s", im->err);
	if (ret == -EINVAL)
		return bad(im, 0, "%s", m);
	snprintf(im->err, im->errlen, "cannot read %s: %s", im->path, m);
	return ret;
}

static int read_file(struct imp *im, FILE *fp)
{
	struct bs_csv_reader rd;
	char **f, **hdr = NULL;
	size_t nf, ncol = 0;
	int ret;

	bs_csv_init(&rd, fp);
	ret = bs_csv_next(&rd, &f, &nf, im->err, im->errlen);
	if (ret <= 0) {
		bs_csv_free(&rd);
		return ret ? csv_error(im, ret) : bad(im, 0, "empty file (no header)");
	}
	ncol = nf;
	hdr = malloc(nf * sizeof(*hdr));
	if (!hdr) {
		bs_csv_free(&rd);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nf; i++)
		hdr[i] = f[i];
	for (int c = 0; c < C_N; c++)
		im->col[c] = find_col(hdr, nf, col_names[c]);
	free(hdr);
	if (im->col[C_BENCH] < 0 || im->col[C_RUNID] < 0 || im->col[C_PAIR] < 0) {
		bs_csv_free(&rd);
		return bad(
		    im, 1,
		    "not duet data: the header needs benchmark, runid (or run) and pair columns");
	}
	if (im->col[C_START] < 0) {
		if (im->col[C_EPOCH_MS] < 0 || im->col[C_TIME] < 0) {
			bs_csv_free(&rd);
			return bad(
			    im, 1,
			    "no iteration times: the header needs iteration_start_ns (or start_ns) "
			    "with iteration_end_ns or iteration_time_ns, or epoch_start_ms with "
			    "iteration_time_ns");
		}
		im->renaissance = true;
	} else if (im->col[C_END] < 0 && im->col[C_TIME] < 0) {
		bs_csv_free(&rd);
		return bad(im, 1, "iteration_start_ns needs iteration_end_ns or iteration_time_ns");
	}
	while ((ret = bs_csv_next(&rd, &f, &nf, im->err, im->errlen)) == 1)
		if ((ret = read_row(im, f, nf, rd.line, ncol)))
			break;
	bs_csv_free(&rd);
	/* read_row's errors name the file already, bs_csv_next's do not */
	if (ret < 0 && (ret != -EINVAL || strncmp(im->err, im->path, strlen(im->path))))
		return csv_error(im, ret);
	if (ret < 0)
		return ret;
	if (!im->n_rows)
		return bad(im, 0, "no data row");
	return 0;
}

static int cmp_row_iter(const void *x, const void *y)
{
	const struct row *a = *(const struct row *const *)x, *b = *(const struct row *const *)y;

	return (a->iter > b->iter) - (a->iter < b->iter);
}

static int cmp_grp(const void *x, const void *y)
{
	const struct grp *a = x, *b = y;

	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	if (a->bench != b->bench)
		return a->bench - b->bench;
	if (a->method != b->method)
		return a->method - b->method;
	return (a->runid > b->runid) - (a->runid < b->runid);
}

/* rows to runs: group, order each side, rebuild Renaissance timestamps, check */
static int build_groups(struct imp *im)
{
	for (size_t i = 0; i < im->n_rows; i++) {
		struct row *r = &im->rows[i];
		struct grp *g = NULL;
		struct row **p;

		for (size_t k = 0; k < im->n_g; k++)
			if (im->g[k].bench == r->bench && im->g[k].method == r->method &&
			    im->g[k].runid == r->runid) {
				g = &im->g[k];
				break;
			}
		if (!g) {
			g = realloc(im->g, (im->n_g + 1) * sizeof(*g));
			if (!g)
				return -ENOMEM;
			im->g = g;
			g = &g[im->n_g++];
			memset(g, 0, sizeof(*g));
			g->bench = r->bench;
			g->method = r->method;
			g->runid = r->runid;
		}
		if (r->order[0] && !g->order[0])
			memcpy(g->order, r->order, 3);
		p = realloc(g->side[r->side], (g->n[r->side] + 1) * sizeof(*p));
		if (!p)
			return -ENOMEM;
		g->side[r->side] = p;
		p[g->n[r->side]++] = r;
	}
	for (size_t k = 0; k < im->n_g; k++) {
		struct grp *g = &im->g[k];

		g->first = INT64_MAX;
		for (int s = 0; s < 2; s++) {
			struct row **it = g->side[s];
			int64_t t;

			if (g->n[s])
				qsort(it, g->n[s], sizeof(*it), cmp_row_iter);
			for (size_t i = 1; i < g->n[s]; i++)
				if (it[i]->iter == it[i - 1]->iter)
					return bad(im, it[i]->line,
						   "iteration %ld of run %ld side %c appears twice "
						   "(first on line %zu)",
						   it[i]->iter, g->runid, s ? 'B' : 'A',
						   it[i - 1]->line);
			if (im->renaissance && g->n[s]) {
				t = it[0]->epoch_ms * 1000000;
				for (size_t i = 0; i < g->n[s]; i++) {
					if (it[i]->epoch_ms != it[0]->epoch_ms)
						return bad(
						    im, it[i]->line,
						    "epoch_start_ms differs within run %ld side %c",
						    g->runid, s ? 'B' : 'A');
					if (it[i]->dur > INT64_MAX - t)
						return bad(im, it[i]->line,
							   "iteration times overflow");
					it[i]->start = t;
					it[i]->end = t + it[i]->dur;
					t = it[i]->end;
				}
			}
			for (size_t i = 0; i < g->n[s]; i++) {
				if (i && it[i]->start < it[i - 1]->end)
					return bad(im, it[i]->line,
						   "iteration %ld of run %ld side %c starts before "
						   "iteration %ld ends",
						   it[i]->iter, g->runid, s ? 'B' : 'A',
						   it[i - 1]->iter);
				if (it[i]->start < g->first)
					g->first = it[i]->start;
			}
		}
	}
	qsort(im->g, im->n_g, sizeof(*im->g), cmp_grp);
	for (size_t k = 0; k < im->n_g; k++)
		im->g[k].run = (int)k;
	return 0;
}

static char *context_json(struct imp *im, const struct bs_import_opts *o)
{
	json_object *c = json_object_new_object(), *d = json_object_new_object();
	json_object *methods = json_object_new_array(), *cmds = json_object_new_object();
	size_t per[BS_DM_N] = {0}, maxper = 0;
	bool seen[BS_DM_N] = {false};
	const char *label = o && o->benchmark	 ? o->benchmark
			    : im->n_benches == 1 ? im->benches[0]
						 : "";
	char *s;

	json_object_object_add(c, "tool", json_object_new_string("benchscope"));
	json_object_object_add(c, "version", json_object_new_string(BS_VERSION));
	json_object_object_add(c, "mode", json_object_new_string("duet"));
	json_object_object_add(c, "clock", json_object_new_string("as in the imported file"));
	json_object_object_add(c, "imported_from", json_object_new_string(im->path));
	json_object_object_add(
	    d, "source",
	    json_object_new_string(im->renaissance ? "import:renaissance-csv" : "import:duet-csv"));
	json_object_object_add(d, "benchmark", json_object_new_string(label));
	json_object_object_add(d, "suite", im->suite ? json_object_new_string(im->suite) : NULL);
	json_object_object_add(cmds, "A", NULL);
	json_object_object_add(cmds, "B", NULL);
	json_object_object_add(d, "commands", cmds);
	json_object_object_add(d, "aa", json_object_new_boolean(o && o->aa));
	for (size_t k = 0; k < im->n_g; k++) {
		int m = im->g[k].method;

		if (!seen[m]) {
			seen[m] = true;
			json_object_array_add(methods, json_object_new_string(bs_dmethod_name(m)));
		}
		if (++per[m] > maxper)
			maxper = per[m];
	}
	json_object_object_add(d, "methods", methods);
	json_object_object_add(d, "runs_per_method", json_object_new_int64((int64_t)maxper));
	json_object_object_add(d, "schedule", NULL);
	json_object_object_add(d, "seed", NULL);
	json_object_object_add(d, "cpus", NULL);
	json_object_object_add(d, "smt_siblings", json_object_new_array());
	json_object_object_add(d, "min_overlap", json_object_new_double(0.4));
	json_object_object_add(d, "timeout_s", NULL);
	json_object_object_add(c, "duet", d);
	s = strdup(json_object_to_json_string_ext(c, JSON_C_TO_STRING_PLAIN));
	json_object_put(c);
	return s;
}

static char *event_json(struct imp *im, const struct grp *g)
{
	json_object *e = json_object_new_object(), *sides = json_object_new_object();
	int64_t s0 = INT64_MAX, e0 = INT64_MIN;
	char *s;

	for (int sd = 0; sd < 2; sd++) {
		json_object *x = json_object_new_object();
		int64_t a = g->n[sd] ? g->side[sd][0]->start : 0;
		int64_t b = g->n[sd] ? g->side[sd][g->n[sd] - 1]->end : 0;

		if (g->n[sd]) {
			s0 = a < s0 ? a : s0;
			e0 = b > e0 ? b : e0;
		}
		json_object_object_add(x, "pid",
				       json_object_new_int64(BS_IMPORT_PID_BASE + 2 * g->run + sd));
		json_object_object_add(x, "start_ns", json_object_new_int64(a));
		json_object_object_add(x, "end_ns", json_object_new_int64(b));
		json_object_object_add(x, "exit_code", NULL);
		json_object_object_add(x, "signal", NULL);
		json_object_object_add(x, "failed", NULL);
		json_object_object_add(sides, sd ? "B" : "A", x);
	}
	json_object_object_add(e, "kind", json_object_new_string("duet_run"));
	json_object_object_add(e, "run", json_object_new_int(g->run));
	json_object_object_add(e, "method", json_object_new_string(bs_dmethod_name(g->method)));
	json_object_object_add(e, "index", json_object_new_int64(g->runid));
	json_object_object_add(e, "order", g->order[0] ? json_object_new_string(g->order) : NULL);
	json_object_object_add(e, "start_ns", json_object_new_int64(s0 == INT64_MAX ? 0 : s0));
	json_object_object_add(e, "end_ns", json_object_new_int64(e0 == INT64_MIN ? 0 : e0));
	json_object_object_add(e, "ok", json_object_new_boolean(1));
	json_object_object_add(e, "reason", NULL);
	json_object_object_add(e, "sides", sides);
	json_object_object_add(e, "cpus", NULL);
	json_object_object_add(e, "benchmark", json_object_new_string(im->benches[g->bench]));
	s = strdup(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
	json_object_put(e);
	return s;
}

static int write_trace(struct imp *im, const char *trace_path, const struct bs_import_opts *o)
{
	char *ctx = context_json(im, o), *ev, end[256];
	struct bs_trace_writer *w;
	int ret = 0;

	if (!ctx)
		return -ENOMEM;
	w = bs_trace_create(trace_path, ctx, im->err, im->errlen);
	free(ctx);
	if (!w)
		return errno ? -errno : -EIO;
	for (size_t k = 0; k < im->n_g && !ret; k++) {
		const struct grp *g = &im->g[k];

		for (int s = 0; s < 2 && !ret; s++)
			for (size_t i = 0; i < g->n[s] && !ret; i++) {
				struct bs_iter_rec r = g->side[s][i]->rec;

				r.type = BS_REC_ITER;
				r.flags = r.invocations ? BS_ITER_F_INVOC : 0;
				r.index = i;
				r.pid = r.tid =
				    BS_IMPORT_PID_BASE + 2 * (unsigned)g->run + (unsigned)s;
				r.begin_ns = (uint64_t)g->side[s][i]->start;
				r.end_ns = (uint64_t)g->side[s][i]->end;
				ret = bs_trace_write_iter(w, &r);
			}
		if (ret)
			break;
		ev = event_json(im, g);
		ret = ev ? bs_trace_write_event(w, ev) : -ENOMEM;
		free(ev);
	}
	snprintf(end, sizeof(end),
		 "{\"status_runs\": {\"total\": %zu, \"ok\": %zu, \"failed\": 0}, \"interrupted\": "
		 "false, \"imported_rows\": %zu}",
		 im->n_g, im->n_g, im->n_rows);
	if (!ret)
		ret = bs_trace_write_end(w, end);
	if (bs_trace_close(w) && !ret)
		ret = -EIO;
	if (ret)
		snprintf(im->err, im->errlen, "cannot write %s: %s", trace_path, strerror(-ret));
	return ret;
}

int bs_import_duet_csv(const char *csv_path, const char *trace_path, const struct bs_import_opts *o,
		       struct bs_import_result *res, char *err, size_t errlen)
{
	struct imp im = {.path = csv_path, .err = err, .errlen = errlen};
	FILE *fp;
	int ret;

	/* written aside and renamed over @trace_path: never over a device or directory */
	if ((ret = bs_output_check_replaceable(trace_path, err, errlen)))
		return ret;
	fp = fopen(csv_path, "r");
	if (!fp) {
		ret = -errno;
		snprintf(err, errlen, "cannot read %s: %s", csv_path, strerror(errno));
		return ret;
	}
	ret = read_file(&im, fp);
	fclose(fp);
	if (!ret)
		ret = build_groups(&im);
	if (!ret) {
		/* written aside and renamed: a failed write leaves no partial trace */
		char *part = NULL;

		if (asprintf(&part, "%s.part", trace_path) < 0)
			ret = -ENOMEM;
		else if (!(ret = write_trace(&im, part, o)) && rename(part, trace_path)) {
			ret = -errno;
			snprintf(err, errlen, "cannot write %s: %s", trace_path, strerror(errno));
		}
		if (ret && part)
			unlink(part);
		free(part);
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (!ret && res) {
		res->layout = im.renaissance ? "renaissance" : "processed";
		res->rows = im.n_rows;
		res->runs = im.n_g;
		res->benchmarks = im.n_benches;
	}
	for (size_t k = 0; k < im.n_g; k++) {
		free(im.g[k].side[0]);
		free(im.g[k].side[1]);
	}
	free(im.g);
	for (size_t i = 0; i < im.n_benches; i++)
		free(im.benches[i]);
	free(im.benches);
	free(im.rows);
	free(im.suite);
	return ret;
}
