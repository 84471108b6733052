// SPDX-License-Identifier: MIT
/* run_trace.c - imported samples to a single-side run trace (run_trace.h). */
#include "import/run_trace.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "benchscope/record.h"
#include "trace/trace.h"
#include "util/output.h"
#include "util/version.h"

/* sub-ns residuals below this are float noise of a whole-ns value, not dropped digits */
#define RESIDUAL_NOISE_NS 1e-3

void bs_imp_init(struct bs_imp *imp, const char *format, const char *tool, char *err, size_t errlen)
{
	memset(imp, 0, sizeof(*imp));
	imp->format = format;
	imp->tool = tool;
	imp->machine = json_object_new_object();
	imp->sources = json_object_new_array();
	imp->err = err;
	imp->errlen = errlen;
	imp->path = "";
}

void bs_imp_free(struct bs_imp *imp)
{
	if (!imp)
		return;
	json_object_put(imp->tool_version);
	json_object_put(imp->machine);
	json_object_put(imp->sources);
	json_object_put(imp->long_names);
	for (size_t i = 0; i < imp->n_drops; i++)
		free(imp->drops[i].text);
	free(imp->drops);
	for (size_t i = 0; i < imp->n_benches; i++) {
		free(imp->benches[i]);
		free(imp->full[i]);
	}
	free(imp->benches);
	free(imp->full);
	free(imp->bench_proc);
	free(imp->s);
	memset(imp, 0, sizeof(*imp));
}

int bs_imp_bad(struct bs_imp *imp, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(imp->err, imp->errlen, "%s: %s", imp->path, msg);
	return -EINVAL;
}

int bs_imp_source(struct bs_imp *imp, const char *path)
{
	imp->path = path;
	/* each file is a process of its own: a benchmark's repetitions there too */
	for (size_t i = 0; i < imp->n_benches; i++)
		imp->bench_proc[i] = -1;
	if (!imp->sources || !imp->machine)
		return -ENOMEM;
	return json_object_array_add(imp->sources, json_object_new_string(path)) ? -ENOMEM : 0;
}

uint32_t bs_imp_proc(struct bs_imp *imp)
{
	return imp->n_procs++;
}

/* the index of the benchmark whose BENCH name is @shown, or -1 */
static long shown_as(const struct bs_imp *imp, const char *shown)
{
	for (size_t i = 0; i < imp->n_benches; i++)
		if (!strcmp(imp->benches[i], shown))
			return (long)i;
	return -1;
}

long bs_imp_bench(struct bs_imp *imp, const char *name)
{
	char shrt[BS_BENCH_NAME_LEN], **b, **full;
	bool too_long = strlen(name) >= BS_BENCH_NAME_LEN;
	size_t n = imp->n_benches;
	long *bp;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(imp->full[i] ? imp->full[i] : imp->benches[i], name))
			return (long)i;
	if (!*name)
		return bs_imp_bad(imp, "empty benchmark name");
	if (!(b = realloc(imp->benches, (n + 1) * sizeof(*b))))
		return -ENOMEM;
	imp->benches = b;
	if (!(full = realloc(imp->full, (n + 1) * sizeof(*full))))
		return -ENOMEM;
	imp->full = full;
	if (!(bp = realloc(imp->bench_proc, (n + 1) * sizeof(*bp))))
		return -ENOMEM;
	imp->bench_proc = bp;
	bp[n] = -1;
	full[n] = NULL;
	if (!too_long && shown_as(imp, name) < 0) {
		if (!(b[n] = strdup(name)))
			return -ENOMEM;
		return (long)imp->n_benches++;
	}
	/* a BENCH record keeps 103 bytes (or the name is another's "~N"): a short
	 * unique name, the full one in CONTEXT */
	for (size_t k = n; k == n || shown_as(imp, shrt) >= 0; k++)
		snprintf(shrt, sizeof(shrt), "%.*s~%zu", BS_BENCH_NAME_LEN - 12, name, k);
	if (!imp->long_names && !(imp->long_names = json_object_new_object()))
		return -ENOMEM;
	if (!(b[n] = strdup(shrt)) || !(full[n] = strdup(name))) {
		free(b[n]);
		return -ENOMEM;
	}
	imp->n_benches++;
	json_object_object_add(imp->long_names, shrt, json_object_new_string(name));
	if (bs_imp_drop(imp,
			too_long ? "benchmark names longer than %d bytes: shortened (\"~N\"), the "
				   "full ones in CONTEXT import.names"
				 : "benchmark names equal to another's shortened name (%d bytes "
				   "kept): renamed \"~N\", the full ones in CONTEXT import.names",
			BS_BENCH_NAME_LEN - 1))
		return -ENOMEM;
	return (long)n;
}

long bs_imp_bench_proc(struct bs_imp *imp, long bench)
{
	if ((size_t)bench >= imp->n_benches)
		return -EINVAL;
	if (imp->bench_proc[bench] < 0)
		imp->bench_proc[bench] = bs_imp_proc(imp);
	return imp->bench_proc[bench];
}

double bs_imp_unit_ns(const char *unit)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {{"ns", 1},	  {"us", 1e3}, {"\xc2\xb5s", 1e3},
		     {"ms", 1e6}, {"s", 1e9},  {"second", 1e9}};

	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].name))
			return units[i].ns;
	return NAN;
}

int bs_imp_sample(struct bs_imp *imp, uint32_t proc, long bench, double ns, uint64_t invocations,
		  bool warmup, const char *what)
{
	struct bs_imp_sample *s;
	double r;

	if (isnan(ns))
		return bs_imp_bad(imp, "%s: time is NaN", what);
	if (!(ns >= 0))
		return bs_imp_bad(imp, "%s: negative time %g ns", what, ns);
	if (!(ns < 0x1p62))
		return bs_imp_bad(imp, "%s: time out of range (%g ns)", what, ns);
	if (!invocations)
		return bs_imp_bad(imp, "%s: no invocation", what);
	if (imp->n == imp->cap) {
		size_t cap = imp->cap ? 2 * imp->cap : 256;

		if (!(s = realloc(imp->s, cap * sizeof(*s))))
			return -ENOMEM;
		imp->s = s;
		imp->cap = cap;
	}
	r = nearbyint(ns);
	/* no harness times a whole iteration at 0 ns: a misread or a wrong unit */
	if (r == 0)
		return bs_imp_bad(imp, "%s: time %g ns rounds to 0 ns", what, ns);
	if (fabs(ns - r) > RESIDUAL_NOISE_NS) {
		imp->n_rounded++;
		if (fabs(ns - r) > imp->max_residual)
			imp->max_residual = fabs(ns - r);
	}
	imp->s[imp->n++] = (struct bs_imp_sample){
	    .proc = proc,
	    .bench = (uint32_t)bench,
	    .ns = (uint64_t)r,
	    .invocations = invocations,
	    .warmup = warmup,
	};
	return 0;
}

int bs_imp_drop(struct bs_imp *imp, const char *fmt, ...)
{
	struct bs_imp_drop *d;
	char *text;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	for (size_t i = 0; i < imp->n_drops; i++)
		if (!strcmp(imp->drops[i].text, text)) {
			imp->drops[i].count++;
			free(text);
			return 0;
		}
	d = realloc(imp->drops, (imp->n_drops + 1) * sizeof(*d));
	if (!d) {
		free(text);
		return -ENOMEM;
	}
	imp->drops = d;
	d[imp->n_drops++] = (struct bs_imp_drop){text, 1};
	return 0;
}

/* the rounding, as one more dropped item (added once, before the list is read) */
static int drop_rounding(struct bs_imp *imp)
{
	if (!imp->n_rounded)
		return 0;
	return bs_imp_drop(imp,
			   "sub-nanosecond digits of %zu sample times (rounded to the nearest ns, "
			   "by at most %.3f ns)",
			   imp->n_rounded, imp->max_residual);
}

static json_object *dropped_json(const struct bs_imp *imp)
{
	json_object *a = json_object_new_array();
	char buf[600];

	for (size_t i = 0; i < imp->n_drops; i++) {
		if (imp->drops[i].count > 1)
			snprintf(buf, sizeof(buf), "%s (%zux)", imp->drops[i].text,
				 imp->drops[i].count);
		else
			snprintf(buf, sizeof(buf), "%s", imp->drops[i].text);
		json_object_array_add(a, json_object_new_string(buf));
	}
	return a;
}

const char *bs_imp_dropped_line(const struct bs_imp *imp, char *buf, size_t len)
{
	size_t pos = 0;

	if (!imp->n_drops || !len)
		return NULL;
	buf[0] = 0;
	for (size_t i = 0; i < imp->n_drops && pos < len; i++) {
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", i ? "; " : "",
					imp->drops[i].text);
		if (imp->drops[i].count > 1 && pos < len)
			pos +=
			    (size_t)snprintf(buf + pos, len - pos, " (%zux)", imp->drops[i].count);
	}
	return buf;
}

static void copy_fact(json_object *ctx, const char *key, json_object *machine, const char *from,
		      json_type t)
{
	json_object *v;

	if (json_object_object_get_ex(machine, from, &v) && json_object_is_type(v, t))
		json_object_object_add(ctx, key, json_object_get(v));
}

static char *context_json(struct bs_imp *imp)
{
	json_object *c = json_object_new_object(), *b = json_object_new_object();
	json_object *im = json_object_new_object(), *cmd;
	char *s;

	json_object_object_add(c, "tool", json_object_new_string("benchscope"));
	json_object_object_add(c, "version", json_object_new_string(BS_VERSION));
	json_object_object_add(
	    c, "clock", json_object_new_string("synthetic: imported samples laid end to end"));
	/* the machine facts with a CONTEXT key of their own, as the file says them */
	copy_fact(c, "hostname", imp->machine, "hostname", json_type_string);
	copy_fact(c, "cpu_model", imp->machine, "cpu_model", json_type_string);
	copy_fact(c, "ncpus", imp->machine, "ncpus", json_type_int);
	/* what made the trace: the report's title */
	cmd = json_object_new_array();
	json_object_array_add(cmd, json_object_new_string("benchscope"));
	json_object_array_add(cmd, json_object_new_string("import"));
	json_object_array_add(cmd, json_object_new_string("--format"));
	json_object_array_add(cmd, json_object_new_string(imp->format));
	for (size_t i = 0; i < json_object_array_length(imp->sources); i++)
		json_object_array_add(cmd,
				      json_object_get(json_object_array_get_idx(imp->sources, i)));
	json_object_object_add(c, "command", cmd);
	json_object_object_add(b, "kind", json_object_new_string("import"));
	json_object_object_add(b, "begin", json_object_new_string(imp->format));
	json_object_object_add(b, "end", json_object_new_string(imp->format));
	json_object_object_add(c, "boundaries", b);
	json_object_object_add(im, "format", json_object_new_string(imp->format));
	json_object_object_add(im, "tool", json_object_new_string(imp->tool));
	json_object_object_add(im, "tool_version", json_object_get(imp->tool_version));
	json_object_object_add(im, "sources", json_object_get(imp->sources));
	json_object_object_add(im, "machine", json_object_get(imp->machine));
	json_object_object_add(
	    im, "timestamps",
	    json_object_new_string("synthetic: each process's samples laid end to end; only "
				   "durations are measured (flag synth_time)"));
	json_object_object_add(im, "interference", json_object_new_string("absent"));
	json_object_object_add(im, "samples", json_object_new_int64((int64_t)imp->n));
	json_object_object_add(im, "processes", json_object_new_int64(imp->n_procs));
	json_object_object_add(im, "dropped", dropped_json(imp));
	json_object_object_add(im, "names", json_object_get(imp->long_names));
	json_object_object_add(c, "import", im);
	s = strdup(json_object_to_json_string_ext(c, JSON_C_TO_STRING_PLAIN));
	json_object_put(c);
	return s;
}

static int write_fork(struct bs_trace_writer *w, uint32_t proc, uint64_t t0, uint64_t t1,
		      uint64_t n_warm, uint64_t n_meas)
{
	json_object *ev = json_object_new_object();
	int ret;

	json_object_object_add(ev, "kind", json_object_new_string("fork"));
	json_object_object_add(ev, "fork", json_object_new_int64((int64_t)proc + 1));
	json_object_object_add(ev, "pid", json_object_new_int64(BS_IMPORT_PID_BASE + proc));
	json_object_object_add(ev, "start_ns", json_object_new_int64((int64_t)t0));
	json_object_object_add(ev, "end_ns", json_object_new_int64((int64_t)t1));
	json_object_object_add(ev, "warmup_iterations", json_object_new_int64((int64_t)n_warm));
	json_object_object_add(ev, "measurement_iterations",
			       json_object_new_int64((int64_t)n_meas));
	json_object_object_add(ev, "warmup_stable", json_object_new_boolean(0));
	json_object_object_add(ev, "short", json_object_new_boolean(0));
	json_object_object_add(ev, "ended_by", json_object_new_string("exit"));
	json_object_object_add(ev, "imported", json_object_new_boolean(1));
	ret = bs_trace_write_event(w, json_object_to_json_string_ext(ev, JSON_C_TO_STRING_PLAIN));
	json_object_put(ev);
	return ret;
}

static int write_bench(struct bs_trace_writer *w, uint32_t pid, const char *name, uint64_t ts)
{
	struct bs_bench_rec b = {.type = BS_REC_BENCH, .pid = pid, .tid = pid, .ts_ns = ts};

	b.name_len = (uint32_t)strlen(name);
	snprintf(b.name, sizeof(b.name), "%s", name);
	return bs_trace_write_bench(w, &b);
}

/* the records of process @p, laid end to end from *t */
static int write_proc(struct bs_imp *imp, struct bs_trace_writer *w, uint32_t p, uint64_t *t)
{
	uint32_t pid = BS_IMPORT_PID_BASE + p;
	uint64_t t0 = *t, index = 0, n_warm = 0;
	long last_bench = -1;
	int ret = 0;

	for (size_t i = 0; i < imp->n && !ret; i++) {
		const struct bs_imp_sample *s = &imp->s[i];
		struct bs_iter_rec r = {.type = BS_REC_ITER};

		if (s->proc != p)
			continue;
		if ((long)s->bench != last_bench) {
			last_bench = (long)s->bench;
			if ((ret = write_bench(w, pid, imp->benches[s->bench], *t)))
				break;
		}
		r.flags = BS_ITER_F_INVOC | BS_ITER_F_SYNTH_TIME | BS_ITER_F_NO_INTF;
		if (s->warmup) {
			r.flags |= BS_ITER_F_WARMUP | BS_ITER_F_HARNESS_WARMUP;
			n_warm++;
		}
		r.index = index++;
		r.pid = r.tid = pid;
		r.begin_ns = *t;
		r.end_ns = *t + s->ns;
		r.invocations = s->invocations;
		*t = r.end_ns;
		ret = bs_trace_write_iter(w, &r);
	}
	if (!ret && index)
		ret = write_fork(w, p, t0, *t, n_warm, index - n_warm);
	return ret;
}

static int write_all(struct bs_imp *imp, const char *path)
{
	char *ctx = context_json(imp), end[200];
	struct bs_trace_writer *w;
	uint64_t t = BS_IMPORT_T0_NS;
	int ret = 0;

	if (!ctx)
		return -ENOMEM;
	w = bs_trace_create(path, ctx, imp->err, imp->errlen);
	free(ctx);
	if (!w)
		return errno ? -errno : -EIO;
	for (uint32_t p = 0; p < imp->n_procs && !ret; p++)
		ret = write_proc(imp, w, p, &t);
	snprintf(end, sizeof(end), "{\"imported\": true, \"samples\": %zu, \"processes\": %u}",
		 imp->n, imp->n_procs);
	if (!ret)
		ret = bs_trace_write_end(w, end);
	if (bs_trace_close(w) && !ret)
		ret = -EIO;
	return ret;
}

int bs_imp_write(struct bs_imp *imp, const char *path)
{
	char *part = NULL;
	uint64_t total = 0;
	int ret;

	/* written aside and renamed over @path: never over a device or directory */
	if ((ret = bs_output_check_replaceable(path, imp->err, imp->errlen)))
		return ret;
	if (!imp->n) {
		snprintf(imp->err, imp->errlen, "%s: no sample benchscope can represent",
			 imp->path);
		return -EINVAL;
	}
	for (size_t i = 0; i < imp->n; i++) {
		total += imp->s[i].ns;
		if (total > (1ull << 62)) {
			snprintf(imp->err, imp->errlen,
				 "%s: the samples' times add up past 2^62 ns", imp->path);
			return -EINVAL;
		}
	}
	if ((ret = drop_rounding(imp)))
		return ret;
	if (asprintf(&part, "%s.part", path) < 0)
		return -ENOMEM;
	ret = write_all(imp, part);
	if (!ret && rename(part, path))
		ret = -errno;
	if (ret) {
		unlink(part);
		snprintf(imp->err, imp->errlen, "cannot write %s: %s", path,
			 ret == -ENOMEM ? "out of memory" : strerror(-ret));
	}
	free(part);
	return ret;
}

int bs_imp_load_json(struct bs_imp *imp, const char *path, json_object **out)
{
	gzFile gz = gzopen(path, "rb");
	json_tokener *tok;
	json_object *o = NULL;
	char buf[65536];
	size_t total = 0;
	int n, ret = 0;

	*out = NULL;
	if (!gz) {
		ret = errno ? -errno : -ENOMEM;
		snprintf(imp->err, imp->errlen, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	if (!tok) {
		gzclose(gz);
		return -ENOMEM;
	}
	errno = 0;
	while (!o && (n = gzread(gz, buf, sizeof(buf))) > 0) {
		enum json_tokener_error e;

		total += (size_t)n;
		o = json_tokener_parse_ex(tok, buf, n);
		e = json_tokener_get_error(tok);
		if (!o && e != json_tokener_continue) {
			ret =
			    bs_imp_bad(imp, "not JSON: %s at byte %zu", json_tokener_error_desc(e),
				       total - (size_t)n + json_tokener_get_parse_end(tok));
			break;
		}
	}
	if (!ret && n < 0) {
		/* a failed read keeps its errno (EISDIR); bad gzip data is bad input */
		int read_errno = errno ? errno : EIO, e;
		const char *msg = gzerror(gz, &e);

		ret = e == Z_ERRNO ? -read_errno : -EINVAL;
		snprintf(imp->err, imp->errlen, "cannot read %s: %s", path,
			 e == Z_ERRNO ? strerror(read_errno) : msg);
	} else if (!ret && !o) {
		/* every format's document is an object or an array: it never closed */
		ret = total ? bs_imp_bad(imp,
					 "not JSON: the document ends early (truncated?) at "
					 "byte %zu",
					 total)
			    : bs_imp_bad(imp, "empty file");
	}
	json_tokener_free(tok);
	gzclose(gz);
	if (ret) {
		json_object_put(o);
		return ret;
	}
	*out = o;
	return 0;
}

json_object *bs_imp_get(json_object *o, const char *key, json_type t)
{
	json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, t))
		return NULL;
	return v;
}

int bs_imp_num(struct bs_imp *imp, json_object *o, const char *key, const char *where, double *v)
{
	json_object *x;

	if (!o || !json_object_object_get_ex(o, key, &x) ||
	    !(json_object_is_type(x, json_type_int) || json_object_is_type(x, json_type_double)))
		return bs_imp_bad(imp, "%s: no number \"%s\"", where, key);
	*v = json_object_get_double(x);
	return 0;
}
