// SPDX-License-Identifier: MIT
/* report.c - contexts, trace records and renderers of `benchscope waste`. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
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
	json_object_put(r->summary);
	r->summary = NULL;
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

static int load_event(struct bs_waste_result *r, json_object *o, long **ids, size_t *nids)
{
	json_object *v;
	const char *what;

	if (!json_object_object_get_ex(o, "waste", &v))
		return 0;
	what = json_object_get_string(v);
	if (!strcmp(what, "ctx")) {
		json_object *id, *fr;
		long cid;
		int64_t tid;

		if (!json_object_object_get_ex(o, "id", &id) ||
		    !json_object_object_get_ex(o, "frames", &fr))
			return -EBADMSG;
		tid = json_object_get_int64(id);
		cid = bs_waste_ctx_intern(&r->ctx, json_object_get_string(fr), NULL);
		if (cid < 0)
			return (int)cid;
		if (tid < 0 || tid > (1 << 26))
			return -EBADMSG;
		if ((size_t)tid >= *nids) {
			size_t n = (size_t)tid * 2 + 16, i;
			long *ni = realloc(*ids, n * sizeof(*ni));

			if (!ni)
				return -ENOMEM;
			for (i = *nids; i < n; i++)
				ni[i] = -1;
			*ids = ni;
			*nids = n;
		}
		(*ids)[tid] = cid;
	} else if (!strcmp(what, "pair")) {
		json_object *k, *wf, *b, *c1, *c2;
		struct bs_waste_outcome out;
		int64_t a1, a2;
		unsigned km;

		if (!json_object_object_get_ex(o, "kind", &k) ||
		    !json_object_object_get_ex(o, "wasteful", &wf) ||
		    !json_object_object_get_ex(o, "bytes", &b) ||
		    !json_object_object_get_ex(o, "ctx1", &c1) ||
		    !json_object_object_get_ex(o, "ctx2", &c2))
			return -EBADMSG;
		km = bs_waste_kinds_parse(json_object_get_string(k));
		a1 = json_object_get_int64(c1);
		a2 = json_object_get_int64(c2);
		if (!km || km == BS_WK_ALL || a1 < 0 || a2 < 0 || (size_t)a1 >= *nids ||
		    (size_t)a2 >= *nids || (*ids)[a1] < 0 || (*ids)[a2] < 0)
			return -EBADMSG;
		out.kind = (enum bs_waste_kind)__builtin_ctz(km);
		out.waste = json_object_get_boolean(wf);
		return bs_waste_agg_add(&r->agg, &out, (uint32_t)json_object_get_int64(b),
					(uint32_t)(*ids)[a1], (uint32_t)(*ids)[a2]);
	} else if (!strcmp(what, "summary")) {
		json_object *s;

		if (!json_object_object_get_ex(o, "summary", &s))
			return -EBADMSG;
		json_object_put(r->summary);
		r->summary = json_object_get(s);
	}
	return 0;
}

int bs_waste_load_trace(const char *path, struct bs_waste_result *r, char *err, size_t errlen)
{
	struct bs_trace_reader *rd;
	const void *payload;
	uint32_t kind, len;
	long *ids = NULL;
	size_t nids = 0;
	int ret, seen = 0;

	memset(r, 0, sizeof(*r));
	rd = bs_trace_open(path, err, errlen);
	if (!rd)
		return -errno ? -errno : -EIO;
	while ((ret = bs_trace_next(rd, &kind, &payload, &len, err, errlen)) == 1) {
		json_object *o;
		json_tokener *tok;

		if (kind != BS_BLK_EVENT && kind != BS_BLK_CONTEXT)
			continue;
		tok = json_tokener_new();
		o = tok ? json_tokener_parse_ex(tok, payload, (int)len) : NULL;
		json_tokener_free(tok);
		if (!o)
			continue;
		if (kind == BS_BLK_CONTEXT) {
			json_object *t;

			if (json_object_object_get_ex(o, "tool", &t) &&
			    !strcmp(json_object_get_string(t), "waste"))
				seen = 1;
		} else {
			ret = load_event(r, o, &ids, &nids);
			if (ret) {
				json_object_put(o);
				snprintf(err, errlen, "%s: a waste record is malformed (%s)", path,
					 strerror(-ret));
				goto out;
			}
		}
		json_object_put(o);
	}
	if (ret < 0)
		goto out;
	if (!seen) {
		snprintf(err, errlen, "%s is not a trace of `benchscope waste`", path);
		ret = -EPROTO;
		goto out;
	}
	if (!r->summary)
		r->summary = json_object_new_object();
	if (bs_trace_truncated(rd))
		json_object_object_add(r->summary, "truncated", json_object_new_boolean(1));
	ret = 0;
out:
	free(ids);
	bs_trace_close_reader(rd);
	if (ret)
		bs_waste_result_free(r);
	return ret;
}

/* ---- renderers ----------------------------------------------------------------- */

static const char *sget(json_object *o, const char *k, const char *dflt)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : dflt;
}

static double dget(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) && v ? json_object_get_double(v) : NAN;
}

static int64_t iget(json_object *o, const char *k)
{
	json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : 0;
}

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

void bs_waste_print(FILE *f, const struct bs_waste_result *r, int top, int depth)
{
	json_object *s = r->summary;
	char a[64], b[64], c[64];
	int k;
	size_t i;
	int shown = 0;

	fprintf(f, "Waste profile\n");
	fprintf(f, "  command     %s\n", sget(s, "command", "?"));
	fmt_time(a, sizeof(a), dget(s, "period_ns"));
	fmt_time(b, sizeof(b), dget(s, "final_period_ns"));
	if (!strcmp(sget(s, "source", "soft"), "pmu"))
		fprintf(f,
			"  source      pmu (precise memory events with data addresses), period %s "
			"events\n",
			sget(s, "period", "?"));
	else
		fprintf(f,
			"  source      soft (task-clock timer, instruction at the sampled ip "
			"decoded with capstone), period %s of CPU time (at the end %s)\n",
			a, b);
	fprintf(
	    f, "  watchpoints %" PRId64 " per thread, %s; kinds %s\n", iget(s, "debug_registers"),
	    iget(s, "freeze") ? "armed while the sampled thread was stopped at the sample"
			      : "armed after the sample (no stop: the first access is approximate)",
	    sget(s, "kinds", "?"));
	fprintf(f,
		"  samples     %" PRId64 " (user mode; %" PRId64 " with a data access, %" PRId64
		" armed, %" PRId64 " dropped by the reservoir, %" PRId64 " unreadable)\n",
		iget(s, "samples"), iget(s, "samples_access"), iget(s, "armed"),
		iget(s, "reservoir_drops"), iget(s, "unreadable"));
	fprintf(f,
		"  pairs       %" PRId64 " next accesses trapped; %" PRId64
		" watchpoints replaced or still pending at exit; %" PRId64 " not attributable\n",
		iget(s, "hits"), iget(s, "unresolved"), iget(s, "noself") + iget(s, "stale_hits"));
	fprintf(f, "  threads     %" PRId64 " in %" PRId64 " processes; %" PRId64 " records lost\n",
		iget(s, "threads"), iget(s, "processes"), iget(s, "lost"));
	if (iget(s, "truncated"))
		fprintf(f, "  trace       truncated: the report covers what was written\n");

	fprintf(f, "\nWaste (fraction of the sampled bytes whose next access was of the kind)\n");
	fprintf(f, "  %-13s %9s %14s %16s %8s\n", "kind", "fraction", "wasteful bytes",
		"resolved bytes", "pairs");
	for (k = 0; k < BS_WK_N; k++) {
		const struct bs_waste_total *t = &r->agg.total[k];

		fmt_pct(a, sizeof(a), bs_waste_agg_fraction(&r->agg, k));
		fprintf(f, "  %-13s %9s %14" PRIu64 " %16" PRIu64 " %8" PRIu64 "\n",
			bs_waste_kind_name(k), a, t->waste_bytes, t->resolved_bytes, t->resolved);
	}
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
	if (json_object_object_get_ex(s, "overhead", NULL)) {
		json_object *o = json_object_object_get(s, "overhead");

		fprintf(f, "\nOverhead\n");
		fmt_time(a, sizeof(a), dget(o, "run_ns"));
		fmt_time(b, sizeof(b), dget(o, "baseline_ns"));
		if (!isnan(dget(o, "baseline_ns")))
			fprintf(f, "  run time    %s with benchscope, %s without (x%.3f)\n", a, b,
				dget(o, "ratio"));
		else
			fprintf(f, "  run time    %s with benchscope (no uninstrumented run)\n", a);
		fmt_time(a, sizeof(a), dget(o, "trap_ns"));
		fmt_time(b, sizeof(b), dget(o, "sample_ns"));
		fmt_time(c, sizeof(c), dget(o, "handling_ns"));
		fprintf(f,
			"  costs here  %s per watchpoint trap, %s per stop of the program (both "
			"measured at start; handling %s per sample), budget %.1f %%, estimated "
			"%.2f %%\n",
			a, b, c, dget(o, "budget_pct"), dget(o, "estimated_pct"));
		if (iget(o, "maxrss_kib"))
			fprintf(f,
				"  memory      peak RSS %" PRId64 " KiB with, %" PRId64
				" KiB without (sampled every 20 ms); benchscope itself %" PRId64
				" KiB\n",
				iget(o, "maxrss_kib"), iget(o, "baseline_maxrss_kib"),
				iget(o, "tool_maxrss_kib"));
	}
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

	json_object_object_add(o, "summary", json_object_get(r->summary));
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
