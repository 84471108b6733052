// SPDX-License-Identifier: MIT
/* report.c - contexts, trace records and renderers of `benchscope waste`. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/sparkline.h"
#include "util/table.h"
#include "waste/report.h"

/* ---- contexts ---------------------------------------------------------------- */

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int rehash(struct bs_waste_ctxtab *t, size_t hcap)
{
	uint32_t *h = calloc(hcap, sizeof(*h));
	size_t i;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		size_t j = fnv(t->s[i]) & (hcap - 1);

		while (h[j])
			j = (j + 1) & (hcap - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = hcap;
	return 0;
}

long bs_waste_ctx_intern(struct bs_waste_ctxtab *t, const char *frames, int *is_new)
{
	size_t j;
	char *dup;

	if (is_new)
		*is_new = 0;
	if ((t->n + 1) * 2 > t->hcap && rehash(t, t->hcap ? t->hcap * 2 : 256))
		return -ENOMEM;
	for (j = fnv(frames) & (t->hcap - 1); t->hash[j]; j = (j + 1) & (t->hcap - 1))
		if (!strcmp(t->s[t->hash[j] - 1], frames))
			return t->hash[j] - 1;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		char **ns = realloc(t->s, cap * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		t->s = ns;
		t->cap = cap;
	}
	dup = strdup(frames);
	if (!dup)
		return -ENOMEM;
	t->s[t->n] = dup;
	t->hash[j] = (uint32_t)t->n + 1;
	if (is_new)
		*is_new = 1;
	return (long)t->n++;
}

void bs_waste_ctx_free(struct bs_waste_ctxtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->s[i]);
	free(t->s);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}

void bs_waste_result_free(struct bs_waste_result *r)
{
	bs_waste_agg_free(&r->agg);
	bs_waste_ctx_free(&r->ctx);
	bs_waste_summary_free(&r->sum);
}

/* ---- trace --------------------------------------------------------------------- */

static int put_event(struct bs_trace_writer *w, json_object *o)
{
	int err =
	    bs_trace_write_event(w, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));

	json_object_put(o);
	return err;
}

int bs_waste_trace_ctx(struct bs_trace_writer *w, uint32_t id, const char *frames)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "waste", json_object_new_string("ctx"));
	json_object_object_add(o, "id", json_object_new_int64(id));
	json_object_object_add(o, "frames", json_object_new_string(frames));
	return put_event(w, o);
}

int bs_waste_trace_pair(struct bs_trace_writer *w, const struct bs_waste_outcome *o, uint32_t bytes,
			uint32_t ctx1, uint32_t ctx2, uint32_t tid, uint64_t ns)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "waste", json_object_new_string("pair"));
	json_object_object_add(j, "kind", json_object_new_string(bs_waste_kind_name(o->kind)));
	json_object_object_add(j, "wasteful", json_object_new_boolean(o->waste));
	json_object_object_add(j, "bytes", json_object_new_int64(bytes));
	json_object_object_add(j, "ctx1", json_object_new_int64(ctx1));
	json_object_object_add(j, "ctx2", json_object_new_int64(ctx2));
	json_object_object_add(j, "tid", json_object_new_int64(tid));
	json_object_object_add(j, "ns", json_object_new_uint64(ns));
	return put_event(w, j);
}

int bs_waste_trace_summary(struct bs_trace_writer *w, json_object *summary)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "waste", json_object_new_string("summary"));
	json_object_object_add(o, "summary", json_object_get(summary));
	return put_event(w, o);
}

/* context ids of the trace -> interned ids (-1: not defined yet) */
struct ctx_ids {
	long *v;
	size_t n;
};

static int load_ctx(struct bs_waste_result *r, const struct bs_waste_ctx_block *c,
		    struct ctx_ids *ids)
{
	long cid = bs_waste_ctx_intern(&r->ctx, c->frames, NULL);

	if (cid < 0)
		return (int)cid;
	if (c->id >= ids->n) {
		size_t n = (size_t)c->id * 2 + 16, i;
		long *ni = realloc(ids->v, n * sizeof(*ni));

		if (!ni)
			return -ENOMEM;
		for (i = ids->n; i < n; i++)
			ni[i] = -1;
		ids->v = ni;
		ids->n = n;
	}
	ids->v[c->id] = cid;
	return 0;
}

static int load_pair(struct bs_waste_result *r, const struct bs_waste_pair_block *p,
		     const struct ctx_ids *ids, char *err, size_t errlen)
{
	unsigned km = bs_waste_kinds_parse(p->kind);
	struct bs_waste_outcome out;

	if (!km || (km & (km - 1))) {
		snprintf(err, errlen, "a waste pair block: \"kind\" is not one kind (\"%s\")",
			 p->kind);
		return -EBADMSG;
	}
	if (p->ctx1 >= ids->n || ids->v[p->ctx1] < 0 || p->ctx2 >= ids->n || ids->v[p->ctx2] < 0) {
		snprintf(err, errlen, "a waste pair block: \"%s\" names no ctx block before it",
			 p->ctx1 >= ids->n || ids->v[p->ctx1] < 0 ? "ctx1" : "ctx2");
		return -EBADMSG;
	}
	out.kind = (enum bs_waste_kind)__builtin_ctz(km);
	out.waste = p->wasteful;
	return bs_waste_agg_add(&r->agg, &out, p->bytes, (uint32_t)ids->v[p->ctx1],
				(uint32_t)ids->v[p->ctx2]);
}

/* one EVENT block into @r: 0 (loaded or skipped) or -errno with @msg */
static int load_event(struct bs_waste_result *r, const void *payload, uint32_t len,
		      struct ctx_ids *ids, char *msg, size_t msglen)
{
	struct bs_waste_block b;
	int ret = bs_waste_block_decode(payload, len, &b, msg, msglen);

	if (ret <= 0)
		return ret;
	switch (b.type) {
	case BS_WBLK_CTX:
		ret = load_ctx(r, &b.u.ctx, ids);
		break;
	case BS_WBLK_PAIR:
		ret = load_pair(r, &b.u.pair, ids, msg, msglen);
		break;
	case BS_WBLK_SUMMARY: /* the last one counts */
		bs_waste_summary_free(&r->sum);
		r->sum = b.u.summary;
		memset(&b.u.summary, 0, sizeof(b.u.summary)); /* moved: r->sum owns it now */
		ret = 0;
		break;
	default:
		ret = 0;
		break;
	}
	if (ret == -ENOMEM)
		snprintf(msg, msglen, "%s", strerror(ENOMEM));
	bs_waste_block_free(&b);
	return ret;
}

int bs_waste_load_trace(const char *path, struct bs_waste_result *r, char *err, size_t errlen)
{
	struct bs_trace_reader *rd;
	const void *payload;
	uint32_t kind, len;
	struct ctx_ids ids = {NULL, 0};
	char msg[256];
	int ret, seen = 0;

	memset(r, 0, sizeof(*r));
	rd = bs_trace_open(path, err, errlen);
	if (!rd)
		return -errno ? -errno : -EIO;
	while ((ret = bs_trace_next(rd, &kind, &payload, &len, err, errlen)) == 1) {
		if (kind == BS_BLK_CONTEXT) {
			if (bs_waste_context_is_waste(payload, len))
				seen = 1;
		} else if (kind == BS_BLK_EVENT) {
			ret = load_event(r, payload, len, &ids, msg, sizeof(msg));
			if (ret) {
				snprintf(err, errlen, "%s: %s", path, msg);
				goto out;
			}
		}
	}
	if (ret < 0)
		goto out;
	if (!seen) {
		snprintf(err, errlen, "%s is not a trace of `benchscope waste`", path);
		ret = -EPROTO;
		goto out;
	}
	if (!r->sum.json)
		r->sum.json = json_object_new_object(); /* no summary: nothing known */
	if (bs_trace_truncated(rd)) {
		r->sum.truncated = true;
		json_object_object_add(r->sum.json, "truncated", json_object_new_boolean(1));
	}
	ret = 0;
out:
	free(ids.v);
	bs_trace_close_reader(rd);
	if (ret)
		bs_waste_result_free(r);
	return ret;
}

/* ---- renderers ----------------------------------------------------------------- */

static void fmt_pct(char *b, size_t n, double f)
{
	if (isnan(f))
		snprintf(b, n, "-");
	else
		snprintf(b, n, "%.2f %%", 100.0 * f);
}

static void fmt_time(char *b, size_t n, double ns)
{
	if (isnan(ns) || ns <= 0)
		snprintf(b, n, "-");
	else if (ns >= 1e9)
		snprintf(b, n, "%.3f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(b, n, "%.3f ms", ns / 1e6);
	else
		snprintf(b, n, "%.2f µs", ns / 1e3);
}

/* a measured cost: "not measured" for NaN, "not above the noise" where it is not above 0 */
static void fmt_cost(char *b, size_t n, double ns)
{
	if (isnan(ns))
		snprintf(b, n, "not measured");
	else if (ns <= 0)
		snprintf(b, n, "not above the noise");
	else
		fmt_time(b, n, ns);
}

static void print_stack(FILE *f, const char *label, const char *frames, int depth)
{
	const char *p = frames;
	int i = 0;

	while (p && *p && i < depth) {
		const char *e = strchr(p, ';');
		int len = e ? (int)(e - p) : (int)strlen(p);

		fprintf(f, "      %-7s %.*s\n", i ? "" : label, len, p);
		p = e ? e + 1 : NULL;
		i++;
	}
	if (p && *p)
		fprintf(f, "      %-7s ...\n", "");
}

static const char *or_unknown(const char *s)
{
	return s ? s : "?";
}

/* the run facts: "Waste profile" */
static void print_facts(FILE *f, const struct bs_waste_summary *s)
{
	char a[64], b[64];

	fprintf(f, "Waste profile\n");
	fprintf(f, "  command     %s\n", or_unknown(s->command));
	fmt_time(a, sizeof(a), s->period_ns);
	fmt_time(b, sizeof(b), s->final_period_ns);
	/* "pmu" and "soft": traces of earlier builds (PEBS, the timer) */
	if (s->source && (!strcmp(s->source, "pebs") || !strcmp(s->source, "pmu")))
		fprintf(f,
			"  source      pebs (Intel precise mem-loads with data addresses), period "
			"%" PRIu64 " events\n",
			s->period);
	else if (s->source && !strcmp(s->source, "ibs"))
		fprintf(
		    f,
		    "  source      ibs (AMD IBS op sampling with data addresses), period %" PRIu64
		    " ops\n",
		    s->period);
	else
		fprintf(f,
			"  source      timer (task-clock timer, instruction at the sampled ip "
			"decoded with capstone), period %s of CPU time (at the end %s)\n",
			a, b);
	fprintf(f, "  watchpoints %" PRId64 " per thread, %s; kinds %s\n", s->debug_registers,
		s->freeze ? "armed while the sampled thread was stopped at the sample"
			  : "armed after the sample (no stop: the first access is approximate)",
		or_unknown(s->kinds));
	fprintf(f,
		"  samples     %" PRIu64 " (user mode; %" PRIu64 " with a data access, %" PRIu64
		" armed, %" PRIu64 " dropped by the reservoir, %" PRIu64 " unreadable)\n",
		s->samples, s->samples_access, s->armed, s->reservoir_drops, s->unreadable);
	fprintf(f,
		"  pairs       %" PRIu64 " next accesses trapped; %" PRIu64
		" watchpoints replaced or still pending at exit; %" PRIu64 " not attributable\n",
		s->hits, s->unresolved, s->noself + s->stale_hits);
	fprintf(f, "  threads     %" PRIu64 " in %" PRIu64 " processes; %" PRIu64 " records lost\n",
		s->threads, s->processes, s->lost);
	if (s->threads_unfollowed || s->processes_unfollowed)
		fprintf(f,
			"  unfollowed  %" PRIu64
			" new threads (no slot or breakpoint for them) and %" PRIu64
			" forked processes (the process map was full): not profiled\n",
			s->threads_unfollowed, s->processes_unfollowed);
	if (s->stops_late)
		fprintf(
		    f,
		    "  late stops  %" PRIu64
		    " frozen samples dropped: their thread was not seen stopped in time (it ran "
		    "on past the sampled access)\n",
		    s->stops_late);
	if (s->sigtraps_program)
		fprintf(f,
			"  SIGTRAPs    %" PRIu64
			" generated for the program by the kernel (a trap no breakpoint "
			"claimed); the first: %s\n",
			s->sigtraps_program,
			s->first_sigtrap ? s->first_sigtrap : "not recorded (an older trace)");
	if (s->truncated)
		fprintf(f, "  trace       truncated: the report covers what was written\n");
}

/* the per-kind table: fraction, wasteful and resolved bytes, pairs */
static void print_kinds(FILE *f, const struct bs_waste_result *r)
{
	static const char *const header[] = {"kind", "fraction", "wasteful bytes", "resolved bytes",
					     "pairs"};
	static const int right[] = {0, 1, 1, 1, 1};
	static const struct bs_table_style style = {.indent = "  "};
	char num[BS_WK_N][4][32];
	const char *cells[BS_WK_N * 5];
	int k;

	for (k = 0; k < BS_WK_N; k++) {
		const struct bs_waste_total *t = &r->agg.total[k];
		const char **row = cells + k * 5;

		fmt_pct(num[k][0], sizeof(num[k][0]), bs_waste_agg_fraction(&r->agg, k));
		snprintf(num[k][1], sizeof(num[k][1]), "%" PRIu64, t->waste_bytes);
		snprintf(num[k][2], sizeof(num[k][2]), "%" PRIu64, t->resolved_bytes);
		snprintf(num[k][3], sizeof(num[k][3]), "%" PRIu64, t->resolved);
		row[0] = bs_waste_kind_name(k);
		row[1] = num[k][0];
		row[2] = num[k][1];
		row[3] = num[k][2];
		row[4] = num[k][3];
	}
	fprintf(f, "\nWaste (fraction of the sampled bytes whose next access was of the kind)\n");
	bs_table_print(f, header, cells, BS_WK_N, 5, right, &style);
}

/* a period in its unit: CPU time (timer), events (PEBS), ops (IBS) */
static void fmt_period(char *b, size_t n, double p, bool is_time, const char *unit)
{
	if (is_time)
		fmt_time(b, n, p);
	else
		snprintf(b, n, "%.0f %s", p, unit);
}

void bs_waste_period_slices(const struct bs_waste_period_step *st, size_t n, double end_ns,
			    double *v, size_t width)
{
	size_t k, i = 0;

	for (k = 0; k < width; k++) {
		double a = end_ns * (double)k / (double)width;
		double b = end_ns * (double)(k + 1) / (double)width, acc = 0, t = a;

		v[k] = NAN;
		if (!n || !(end_ns > 0))
			continue;
		/* the step in force at a: the last one that began at or before it */
		while (i + 1 < n && (double)st[i + 1].t_ns <= a)
			i++;
		for (size_t j = i; t < b; j++) {
			double until = j + 1 < n ? fmin(b, (double)st[j + 1].t_ns) : b;

			if (until > t)
				acc += log((double)(st[j].period ? st[j].period : 1)) * (until - t);
			t = fmax(t, until);
			if (j + 1 >= n)
				break;
		}
		v[k] = acc / (b - a);
	}
}

/* "overhead 3.80 % of a 5.0 % budget", then the period over the run as bars */
static void print_controller(FILE *f, const struct bs_waste_summary *s)
{
	const struct bs_waste_overhead *o = &s->overhead;
	bool is_time = !s->source || (strcmp(s->source, "pebs") && strcmp(s->source, "pmu") &&
				      strcmp(s->source, "ibs"));
	const char *unit = s->source && !strcmp(s->source, "ibs") ? "ops" : "events";
	double v[BS_WASTE_SPARK_WIDTH];
	char a[64], b[64], bars[BS_WASTE_SPARK_WIDTH * 3 + 1];
	size_t i;

	if (isnan(o->program_cpu_ns)) {
		fprintf(
		    f,
		    "  controller  overhead %.2f %% of a %.1f %% budget (estimated: traps x trap "
		    "cost + stops)\n",
		    o->estimated_pct, o->budget_pct);
	} else {
		fmt_time(a, sizeof(a), o->trap_cost_ns);
		fmt_time(b, sizeof(b), o->program_cpu_ns);
		fprintf(
		    f,
		    "  controller  overhead %.2f %% of a %.1f %% budget (measured: traps %s, each "
		    "CPU's at its own cost, against the program's %s of CPU time;",
		    o->estimated_pct, o->budget_pct, a, b);
		fmt_time(a, sizeof(a), o->stop_cost_ns);
		fmt_time(b, sizeof(b), o->run_ns);
		fprintf(f, " stopped %s of %s)\n", a, b);
	}
	if (!o->nperiods)
		return;
	fmt_period(a, sizeof(a), (double)o->periods[0].period, is_time, unit);
	fmt_period(b, sizeof(b), (double)o->periods[o->nperiods - 1].period, is_time, unit);
	bs_waste_period_slices(o->periods, o->nperiods, o->run_ns, v, BS_WASTE_SPARK_WIDTH);
	bs_sparkline(v, BS_WASTE_SPARK_WIDTH, bs_sparkline_utf8(f), bars, sizeof(bars));
	fprintf(f,
		"  period      %s at start, %s at the end, %zu change%s: |%s| (log scale, over the "
		"run)\n",
		a, b, o->nperiods - 1, o->nperiods == 2 ? "" : "s", bars);
	for (i = 1; i < o->nperiods && i <= 8; i++) {
		char t[64];

		fmt_time(t, sizeof(t), (double)o->periods[i].t_ns);
		fmt_period(a, sizeof(a), (double)o->periods[i].period, is_time, unit);
		fprintf(f, "              at %s: %s (window overhead %.2f %%)\n",
			o->periods[i].t_ns ? t : "0", a, o->periods[i].window_pct);
	}
	if (o->nperiods > 9)
		fprintf(f, "              ... %zu more changes (--json has them all)\n",
			o->nperiods - 9);
}

/* the overhead of the run, when the summary has it */
static void print_overhead(FILE *f, const struct bs_waste_summary *s)
{
	const struct bs_waste_overhead *o = &s->overhead;
	char a[64], b[64], c[64], handling[96];

	fprintf(f, "\nOverhead\n");
	fmt_time(a, sizeof(a), o->run_ns);
	fmt_time(b, sizeof(b), o->baseline_ns);
	if (!isnan(o->baseline_ns))
		fprintf(f, "  run time    %s with benchscope, %s without (x%.3f)\n", a, b,
			o->ratio);
	else
		fprintf(f, "  run time    %s with benchscope (no uninstrumented run)\n", a);
	fmt_cost(a, sizeof(a), o->trap_ns);
	fmt_cost(b, sizeof(b), o->sample_ns);
	if (o->handling_ns > 0 || isnan(o->handling_ns)) {
		fmt_cost(c, sizeof(c), o->handling_ns);
		snprintf(handling, sizeof(handling), "handling %s per sample", c);
	} else {
		snprintf(handling, sizeof(handling), "no sample stopped the program");
	}
	fprintf(f,
		"  costs here  %s per watchpoint trap, %s per stop of the program (both "
		"measured at start; %s)\n",
		a, b, handling);
	print_controller(f, s);
	if (o->maxrss_kib && !isnan(o->baseline_ns))
		fprintf(f,
			"  memory      peak RSS %" PRId64 " KiB with, %" PRId64
			" KiB without (VmHWM, read at least every 20 ms with, every 2 ms "
			"without); benchscope itself %" PRId64 " KiB\n",
			o->maxrss_kib, o->baseline_maxrss_kib, o->tool_maxrss_kib);
	else if (o->maxrss_kib)
		fprintf(f,
			"  memory      peak RSS %" PRId64 " KiB with (VmHWM, read at least every "
			"20 ms; no run without); benchscope itself %" PRId64 " KiB\n",
			o->maxrss_kib, o->tool_maxrss_kib);
}

void bs_waste_print(FILE *f, const struct bs_waste_result *r, int top, int depth)
{
	char a[64], c[64];
	size_t i;
	int shown = 0;

	print_facts(f, &r->sum);
	print_kinds(f, r);
	fprintf(f, "\nTop pairs (first access -> next access)\n");
	for (i = 0; i < r->agg.n && shown < top; i++, shown++) {
		const struct bs_waste_pair *p = &r->agg.pairs[i];
		const struct bs_waste_total *t = &r->agg.total[p->kind];

		fmt_pct(a, sizeof(a),
			t->resolved_bytes ? (double)p->bytes / t->resolved_bytes : NAN);
		fmt_pct(c, sizeof(c), t->waste_bytes ? (double)p->bytes / t->waste_bytes : NAN);
		fprintf(f,
			"  #%d %s: %s of sampled %s bytes (%s of its waste), %" PRIu64
			" pairs, %" PRIu64 " B\n",
			shown + 1, bs_waste_kind_name(p->kind), a, bs_waste_kind_name(p->kind), c,
			p->count, p->bytes);
		print_stack(f, "first", r->ctx.s[p->ctx1], depth);
		print_stack(f, "next", r->ctx.s[p->ctx2], depth);
	}
	if (!shown)
		fprintf(f, "  none found\n");
	if (r->sum.has_overhead)
		print_overhead(f, &r->sum);
}

static void folded_frames(FILE *f, const char *frames)
{
	/* stored leaf first; folded wants root first */
	const char *end = frames + strlen(frames), *p = end;
	int first = 1;

	while (p > frames) {
		const char *q = p;

		while (q > frames && q[-1] != ';')
			q--;
		fprintf(f, "%s%.*s", first ? "" : ";", (int)(p - q), q);
		first = 0;
		p = q > frames ? q - 1 : frames;
	}
}

void bs_waste_print_folded(FILE *f, const struct bs_waste_result *r)
{
	size_t i;

	for (i = 0; i < r->agg.n; i++) {
		const struct bs_waste_pair *p = &r->agg.pairs[i];

		fprintf(f, "%s;", bs_waste_kind_name(p->kind));
		folded_frames(f, r->ctx.s[p->ctx1]);
		fprintf(f, ";-- next --;");
		folded_frames(f, r->ctx.s[p->ctx2]);
		fprintf(f, " %" PRIu64 "\n", p->bytes);
	}
}

static json_object *frames_json(const char *frames)
{
	json_object *a = json_object_new_array();
	const char *p = frames;

	while (p && *p) {
		const char *e = strchr(p, ';');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		json_object_array_add(a, json_object_new_string_len(p, (int)len));
		p = e ? e + 1 : NULL;
	}
	return a;
}

json_object *bs_waste_json(const struct bs_waste_result *r, int top)
{
	json_object *o = json_object_new_object(), *kinds = json_object_new_object();
	json_object *pairs = json_object_new_array();
	size_t i;
	int k;

	json_object_object_add(o, "summary", json_object_get(r->sum.json));
	for (k = 0; k < BS_WK_N; k++) {
		const struct bs_waste_total *t = &r->agg.total[k];
		json_object *j = json_object_new_object();
		double fr = bs_waste_agg_fraction(&r->agg, k);

		json_object_object_add(j, "fraction",
				       isnan(fr) ? NULL : json_object_new_double(fr));
		json_object_object_add(j, "wasteful_bytes", json_object_new_uint64(t->waste_bytes));
		json_object_object_add(j, "resolved_bytes",
				       json_object_new_uint64(t->resolved_bytes));
		json_object_object_add(j, "wasteful_pairs", json_object_new_uint64(t->waste));
		json_object_object_add(j, "resolved_pairs", json_object_new_uint64(t->resolved));
		json_object_object_add(kinds, bs_waste_kind_name(k), j);
	}
	json_object_object_add(o, "kinds", kinds);
	for (i = 0; i < r->agg.n && (top < 0 || (int)i < top); i++) {
		const struct bs_waste_pair *p = &r->agg.pairs[i];
		const struct bs_waste_total *t = &r->agg.total[p->kind];
		json_object *j = json_object_new_object();

		json_object_object_add(j, "kind",
				       json_object_new_string(bs_waste_kind_name(p->kind)));
		json_object_object_add(j, "count", json_object_new_uint64(p->count));
		json_object_object_add(j, "bytes", json_object_new_uint64(p->bytes));
		json_object_object_add(
		    j, "fraction",
		    json_object_new_double(t->resolved_bytes ? (double)p->bytes / t->resolved_bytes
							     : 0));
		json_object_object_add(j, "first", frames_json(r->ctx.s[p->ctx1]));
		json_object_object_add(j, "next", frames_json(r->ctx.s[p->ctx2]));
		json_object_array_add(pairs, j);
	}
	json_object_object_add(o, "pairs", pairs);
	return o;
}
