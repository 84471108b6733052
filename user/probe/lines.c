// SPDX-License-Identifier: MIT
/* lines.c - output-line boundaries: regexes, line splitting, segments -> iterations. */
#include "probe/lines.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const role_opt[BS_LROLE_N] = {"--line", "--begin-line", "--end-line",
						 "--name-line"};
static const char *const role_name[BS_LROLE_N] = {"line", "begin", "end", "name"};
static const char *const group_name[BS_LGROUP_N] = {"score", "unit", "invocations", "name"};

#define LINE_KEEP  4096 /* bytes of one line kept for matching */
#define EVENT_TEXT 200	/* bytes of a matched line stored in its EVENT */
#define MAX_SUB	   16	/* subexpressions read per match */

bool bs_lines_spec_given(const struct bs_lines_spec *s)
{
	return s && (s->line || s->begin_line || s->end_line || s->name_line || s->score_unit);
}

/* ---- regexes ------------------------------------------------------------- */

int bs_line_regex_compile(struct bs_line_regex *r, const char *src, const char *opt, char *err,
			  size_t errlen)
{
	size_t n = strlen(src), i = 0, o = 0;
	int ngroup = 0, g, rc;
	bool in_bracket = false;
	char *out;

	memset(r, 0, sizeof(*r));
	if (!n) {
		snprintf(err, errlen, "%s: empty regex", opt);
		return -EINVAL;
	}
	out = malloc(n + 1);
	r->src = strdup(src);
	if (!out || !r->src) {
		free(out);
		free(r->src);
		r->src = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* (?<NAME> becomes (, remembering which subexpression NAME is; every
	 * unescaped ( outside a bracket expression opens one (POSIX numbering) */
	while (i < n) {
		char c = src[i];

		if (in_bracket) {
			if (c == '[' && i + 1 < n &&
			    (src[i + 1] == ':' || src[i + 1] == '.' || src[i + 1] == '=')) {
				const char *close =
				    strstr(src + i + 2, (char[]){src[i + 1], ']', 0});
				size_t len = close ? (size_t)(close - (src + i)) + 2 : n - i;

				memcpy(out + o, src + i, len);
				o += len;
				i += len;
				continue;
			}
			if (c == ']')
				in_bracket = false;
			out[o++] = src[i++];
			continue;
		}
		if (c == '\\' && i + 1 < n) {
			out[o++] = src[i++];
			out[o++] = src[i++];
			continue;
		}
		if (c == '[') {
			out[o++] = src[i++];
			if (i < n && src[i] == '^')
				out[o++] = src[i++];
			if (i < n && src[i] == ']')
				out[o++] = src[i++];
			in_bracket = true;
			continue;
		}
		if (c == '(') {
			ngroup++;
			out[o++] = src[i++];
			if (i < n && src[i] == '?') {
				const char *end;
				size_t len;

				if (i + 1 >= n || src[i + 1] != '<' ||
				    !(end = strchr(src + i + 2, '>'))) {
					snprintf(
					    err, errlen,
					    "%s: bad regex '%s': only named groups (?<NAME>...) "
					    "may follow '(' with '?' (POSIX extended regex)",
					    opt, src);
					goto fail;
				}
				len = (size_t)(end - (src + i + 2));
				for (g = 0; g < BS_LGROUP_N; g++)
					if (strlen(group_name[g]) == len &&
					    !strncmp(group_name[g], src + i + 2, len))
						break;
				if (g == BS_LGROUP_N) {
					snprintf(
					    err, errlen,
					    "%s: unknown group name '%.*s' in '%s' (known: score, "
					    "unit, invocations, name)",
					    opt, (int)len, src + i + 2, src);
					goto fail;
				}
				if (r->group[g]) {
					snprintf(err, errlen,
						 "%s: the group (?<%s>...) appears twice in '%s'",
						 opt, group_name[g], src);
					goto fail;
				}
				r->group[g] = ngroup;
				i = (size_t)(end - src) + 1;
			}
			continue;
		}
		out[o++] = src[i++];
	}
	out[o] = 0;
	rc = regcomp(&r->re, out, REG_EXTENDED);
	if (rc) {
		char msg[160];

		regerror(rc, &r->re, msg, sizeof(msg));
		snprintf(err, errlen, "%s: bad regex '%s': %s", opt, src, msg);
		goto fail;
	}
	if (ngroup >= MAX_SUB) {
		regfree(&r->re);
		snprintf(err, errlen, "%s: '%s' has %d groups; at most %d are read", opt, src,
			 ngroup, MAX_SUB - 1);
		goto fail;
	}
	free(out);
	r->present = true;
	return 0;
fail:
	free(out);
	free(r->src);
	r->src = NULL;
	return -EINVAL;
}

void bs_line_regex_free(struct bs_line_regex *r)
{
	if (!r)
		return;
	if (r->present)
		regfree(&r->re);
	free(r->src);
	memset(r, 0, sizeof(*r));
}

int bs_line_unit_parse(const char *text, size_t len, double *ns, bool *per_op)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {{"s", 1e9},       {"sec", 1e9},  {"secs", 1e9},  {"second", 1e9},
		     {"seconds", 1e9}, {"ms", 1e6},   {"msec", 1e6},  {"msecs", 1e6},
		     {"us", 1e3},      {"usec", 1e3}, {"usecs", 1e3}, {"\xc2\xb5s", 1e3},
		     {"ns", 1},	       {"nsec", 1},   {"nsecs", 1}};
	size_t i, base = len;

	*per_op = false;
	while (base && (text[base - 1] == ' ' || text[base - 1] == '\t'))
		base--;
	len = base;
	if (len > 3 && !strncmp(text + len - 3, "/op", 3)) {
		*per_op = true;
		base = len - 3;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strlen(units[i].name) == base && !strncmp(units[i].name, text, base)) {
			*ns = units[i].ns;
			return 0;
		}
	return -EINVAL;
}

int bs_lines_cfg_init(struct bs_lines_cfg *cfg, const struct bs_lines_spec *spec, char *err,
		      size_t errlen)
{
	const char *src[BS_LROLE_N] = {spec->line, spec->begin_line, spec->end_line,
				       spec->name_line};
	int i, rc;

	memset(cfg, 0, sizeof(*cfg));
	if (spec->line && (spec->begin_line || spec->end_line)) {
		snprintf(err, errlen, "give --line, or --begin-line with --end-line, not both");
		return -EINVAL;
	}
	if (!spec->line && (!spec->begin_line || !spec->end_line)) {
		snprintf(err, errlen,
			 spec->begin_line || spec->end_line
			     ? "--begin-line and --end-line go together (or give one --line REGEX "
			       "for the end of each iteration)"
			     : "--name-line and --score-unit need --line, or --begin-line with "
			       "--end-line");
		return -EINVAL;
	}
	for (i = 0; i < BS_LROLE_N; i++) {
		if (!src[i])
			continue;
		rc = bs_line_regex_compile(&cfg->rx[i], src[i], role_opt[i], err, errlen);
		if (rc) {
			bs_lines_cfg_free(cfg);
			return rc;
		}
	}
	if (cfg->rx[BS_LROLE_NAME].present && !cfg->rx[BS_LROLE_NAME].group[BS_LGROUP_NAME]) {
		snprintf(err, errlen,
			 "--name-line: '%s' has no (?<name>...) group to take the benchmark's name "
			 "from",
			 spec->name_line);
		bs_lines_cfg_free(cfg);
		return -EINVAL;
	}
	if (spec->score_unit) {
		if (bs_line_unit_parse(spec->score_unit, strlen(spec->score_unit), &cfg->unit_ns,
				       &cfg->unit_per_op)) {
			snprintf(err, errlen,
				 "--score-unit: unknown unit '%s' (s, ms, us, ns, each optionally "
				 "with /op)",
				 spec->score_unit);
			bs_lines_cfg_free(cfg);
			return -EINVAL;
		}
		cfg->unit_src = strdup(spec->score_unit);
	}
	return 0;
}

void bs_lines_cfg_free(struct bs_lines_cfg *cfg)
{
	int i;

	if (!cfg)
		return;
	for (i = 0; i < BS_LROLE_N; i++)
		bs_line_regex_free(&cfg->rx[i]);
	free(cfg->unit_src);
	memset(cfg, 0, sizeof(*cfg));
}

json_object *bs_lines_cfg_json(const struct bs_lines_cfg *cfg)
{
	json_object *o = json_object_new_object();
	char buf[1200];
	int i;

	json_object_object_add(o, "kind", json_object_new_string("lines"));
	if (cfg->rx[BS_LROLE_LINE].present) {
		snprintf(buf, sizeof(buf),
			 "the previous match of --line '%s' (the first only begins)",
			 cfg->rx[BS_LROLE_LINE].src);
		json_object_object_add(o, "begin", json_object_new_string(buf));
		snprintf(buf, sizeof(buf), "write of a line matching --line '%s'",
			 cfg->rx[BS_LROLE_LINE].src);
		json_object_object_add(o, "end", json_object_new_string(buf));
	} else {
		snprintf(buf, sizeof(buf), "write of a line matching --begin-line '%s'",
			 cfg->rx[BS_LROLE_BEGIN].src);
		json_object_object_add(o, "begin", json_object_new_string(buf));
		snprintf(buf, sizeof(buf), "write of a line matching --end-line '%s'",
			 cfg->rx[BS_LROLE_END].src);
		json_object_object_add(o, "end", json_object_new_string(buf));
	}
	for (i = 0; i < BS_LROLE_N; i++)
		if (cfg->rx[i].present) {
			snprintf(buf, sizeof(buf), "%s_regex", role_name[i]);
			json_object_object_add(o, buf, json_object_new_string(cfg->rx[i].src));
		}
	if (cfg->unit_src)
		json_object_object_add(o, "score_unit", json_object_new_string(cfg->unit_src));
	json_object_object_add(o, "regex_syntax",
			       json_object_new_string("POSIX extended, (?<NAME>...) groups"));
	json_object_object_add(
	    o, "writes",
	    json_object_new_string("sys_enter of write, pwrite64, writev, pwritev, pwritev2 to the "
				   "files of fd 1 and 2"));
	return o;
}

/* ---- the matcher ---------------------------------------------------------- */

struct capture {
	bool has_score, has_unit, has_inv, has_name;
	double score;
	uint64_t inv;
	char unit[24];
	char name[BS_BENCH_NAME_LEN];
};

struct lthread {
	uint32_t pid, tid;
	uint64_t acc_from; /* summing segments that begin at or after this; 0: not */
	uint64_t covered_ns;
	struct bs_iter_rec acc;
};

struct lstream {
	uint32_t pid, fd;
	char buf[LINE_KEEP + 1];
	size_t len;
	unsigned matched; /* roles that matched the current line */
	bool counted;	  /* the current line was counted in stats.lines */
	bool cut;	  /* the current line has more bytes than buf keeps */
};

struct lproc {
	uint32_t pid;
	bool open;
	uint64_t begin_ns;
	uint32_t begin_tid, begin_cpu;
	uint64_t n_iters;
	struct capture cap; /* of the begin line */
};

struct bs_lines {
	const struct bs_lines_cfg *cfg;
	struct bs_lines_out out;
	struct lthread *th;
	size_t n_th, cap_th;
	struct lstream *st;
	size_t n_st, cap_st;
	struct lproc *pr;
	size_t n_pr, cap_pr;
	uint64_t exited_open; /* iterations open when their process exited */
	struct bs_lines_stats stats;
};

struct bs_lines *bs_lines_new(const struct bs_lines_cfg *cfg, const struct bs_lines_out *out)
{
	struct bs_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->cfg = cfg;
	l->out = *out;
	return l;
}

void bs_lines_free(struct bs_lines *l)
{
	if (!l)
		return;
	free(l->th);
	free(l->st);
	free(l->pr);
	free(l);
}

/* Grow *arr (of *cap elements of size sz) to hold n + 1. */
static int grow(void **arr, size_t *cap, size_t n, size_t sz)
{
	void *p;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	p = realloc(*arr, nc * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = nc;
	return 0;
}

static struct lthread *thread_of(struct bs_lines *l, uint32_t pid, uint32_t tid)
{
	size_t i;

	for (i = 0; i < l->n_th; i++)
		if (l->th[i].tid == tid && l->th[i].pid == pid)
			return &l->th[i];
	if (grow((void **)&l->th, &l->cap_th, l->n_th, sizeof(*l->th)))
		return NULL;
	memset(&l->th[l->n_th], 0, sizeof(*l->th));
	l->th[l->n_th].pid = pid;
	l->th[l->n_th].tid = tid;
	return &l->th[l->n_th++];
}

static struct lstream *stream_of(struct bs_lines *l, uint32_t pid, uint32_t fd)
{
	size_t i;

	for (i = 0; i < l->n_st; i++)
		if (l->st[i].pid == pid && l->st[i].fd == fd)
			return &l->st[i];
	if (grow((void **)&l->st, &l->cap_st, l->n_st, sizeof(*l->st)))
		return NULL;
	memset(&l->st[l->n_st], 0, sizeof(*l->st));
	l->st[l->n_st].pid = pid;
	l->st[l->n_st].fd = fd;
	return &l->st[l->n_st++];
}

static struct lproc *proc_of(struct bs_lines *l, uint32_t pid)
{
	size_t i;

	for (i = 0; i < l->n_pr; i++)
		if (l->pr[i].pid == pid)
			return &l->pr[i];
	if (grow((void **)&l->pr, &l->cap_pr, l->n_pr, sizeof(*l->pr)))
		return NULL;
	memset(&l->pr[l->n_pr], 0, sizeof(*l->pr));
	l->pr[l->n_pr].pid = pid;
	return &l->pr[l->n_pr++];
}

void bs_lines_segment(struct bs_lines *l, const struct bs_iter_rec *seg)
{
	struct lthread *t = thread_of(l, seg->pid, seg->tid);
	struct bs_iter_rec *a;

	if (!t || !t->acc_from || seg->begin_ns < t->acc_from || seg->end_ns < seg->begin_ns)
		return;
	a = &t->acc;
	a->preempted_ns += seg->preempted_ns;
	a->blocked_ns += seg->blocked_ns;
	a->runq_wait_ns += seg->runq_wait_ns;
	a->irq_ns += seg->irq_ns;
	a->softirq_ns += seg->softirq_ns;
	a->steal_ns += seg->steal_ns;
	a->sched_delay_ns += seg->sched_delay_ns;
	a->nvcsw += seg->nvcsw;
	a->nivcsw += seg->nivcsw;
	a->migrations += seg->migrations;
	a->flags |= seg->flags & BS_ITER_F_SPILLED;
	t->covered_ns += seg->end_ns - seg->begin_ns;
}

/* Start summing thread (pid, tid)'s segments from ts. */
static void acc_start(struct bs_lines *l, uint32_t pid, uint32_t tid, uint64_t ts)
{
	struct lthread *t = thread_of(l, pid, tid);

	if (!t)
		return;
	memset(&t->acc, 0, sizeof(t->acc));
	t->covered_ns = 0;
	t->acc_from = ts;
}

static void sub_text(const char *line, const regmatch_t *m, char *out, size_t outlen)
{
	size_t len = (size_t)(m->rm_eo - m->rm_so);

	if (len >= outlen)
		len = outlen - 1;
	memcpy(out, line + m->rm_so, len);
	out[len] = 0;
}

/* The named groups of a match. */
static void capture(struct bs_lines *l, const struct bs_line_regex *rx, const char *line,
		    const regmatch_t *pm, struct capture *c)
{
	char buf[64], *end;
	int g;

	memset(c, 0, sizeof(*c));
	if ((g = rx->group[BS_LGROUP_SCORE]) && pm[g].rm_so >= 0) {
		sub_text(line, &pm[g], buf, sizeof(buf));
		c->score = strtod(buf, &end);
		while (*end == ' ' || *end == '\t')
			end++;
		if (end != buf && !*end && isfinite(c->score))
			c->has_score = true;
		else
			l->stats.bad_numbers++;
	}
	if ((g = rx->group[BS_LGROUP_UNIT]) && pm[g].rm_so >= 0) {
		sub_text(line, &pm[g], c->unit, sizeof(c->unit));
		c->has_unit = c->unit[0] != 0;
	}
	if ((g = rx->group[BS_LGROUP_INVOCATIONS]) && pm[g].rm_so >= 0) {
		double v;

		sub_text(line, &pm[g], buf, sizeof(buf));
		v = strtod(buf, &end);
		while (*end == ' ' || *end == '\t')
			end++;
		if (end != buf && !*end && isfinite(v) && v >= 1 && v < 1e18) {
			c->inv = (uint64_t)llround(v);
			c->has_inv = true;
		} else {
			l->stats.bad_numbers++;
		}
	}
	if ((g = rx->group[BS_LGROUP_NAME]) && pm[g].rm_so >= 0) {
		sub_text(line, &pm[g], c->name, sizeof(c->name));
		c->has_name = c->name[0] != 0;
	}
}

static void bench_emit(struct bs_lines *l, const struct bs_line_rec *w, const char *name,
		       uint64_t ts)
{
	struct bs_bench_rec b;

	if (!l->out.bench)
		return;
	memset(&b, 0, sizeof(b));
	b.type = BS_REC_BENCH;
	b.pid = w->pid;
	b.tid = w->tid;
	b.name_len = (uint32_t)strlen(name);
	b.ts_ns = ts;
	snprintf(b.name, sizeof(b.name), "%s", name);
	l->out.bench(l->out.ctx, &b);
}

/* The score of a capture in ns as the harness printed it (per invocation
 * when *per_op), or NaN when its unit is unknown. */
static double score_ns(const struct bs_lines *l, const struct capture *c, bool *per_op)
{
	double ns;

	*per_op = false;
	if (!c->has_score)
		return NAN;
	if (c->has_unit) {
		if (bs_line_unit_parse(c->unit, strlen(c->unit), &ns, per_op))
			return NAN;
		return c->score * ns;
	}
	if (l->cfg->unit_ns > 0) {
		*per_op = l->cfg->unit_per_op;
		return c->score * l->cfg->unit_ns;
	}
	return NAN;
}

static json_object *line_event(const struct bs_line_rec *w, enum bs_line_role role,
			       const char *text)
{
	json_object *ev = json_object_new_object();
	char t[EVENT_TEXT + 1];

	size_t n = strnlen(text, EVENT_TEXT);

	memcpy(t, text, n);
	t[n] = 0;
	json_object_object_add(ev, "kind", json_object_new_string("line"));
	json_object_object_add(ev, "role", json_object_new_string(role_name[role]));
	json_object_object_add(ev, "pid", json_object_new_int64(w->pid));
	json_object_object_add(ev, "tid", json_object_new_int64(w->tid));
	json_object_object_add(ev, "fd", json_object_new_int64(w->fd));
	json_object_object_add(ev, "ts_ns", json_object_new_int64((int64_t)w->ts_ns));
	json_object_object_add(ev, "text", json_object_new_string(t));
	return ev;
}

static void event_captures(const struct bs_lines *l, json_object *ev, const struct capture *c)
{
	bool per_op;
	double ns = score_ns(l, c, &per_op);

	if (c->has_score) {
		json_object_object_add(ev, "score", json_object_new_double(c->score));
		if (c->has_unit || l->cfg->unit_src)
			json_object_object_add(
			    ev, "unit",
			    json_object_new_string(c->has_unit ? c->unit : l->cfg->unit_src));
		if (!isnan(ns)) {
			json_object_object_add(ev, "score_ns", json_object_new_double(ns));
			json_object_object_add(ev, "per_op", json_object_new_boolean(per_op));
		}
	}
	if (c->has_inv)
		json_object_object_add(ev, "invocations", json_object_new_int64((int64_t)c->inv));
	if (c->has_name)
		json_object_object_add(ev, "name", json_object_new_string(c->name));
}

/* Open an iteration of p at write w. */
static void iter_begin(struct bs_lines *l, struct lproc *p, const struct bs_line_rec *w,
		       const struct capture *c)
{
	if (p->open)
		l->stats.restarted++;
	p->open = true;
	p->begin_ns = w->ts_ns;
	p->begin_tid = w->tid;
	p->begin_cpu = w->cpu;
	p->cap = *c;
	acc_start(l, w->pid, w->tid, w->ts_ns);
}

/* Close p's open iteration at write w; its index, or -1 when dropped. */
static int64_t iter_end(struct bs_lines *l, struct lproc *p, const struct bs_line_rec *w,
			const struct capture *c, json_object *ev)
{
	struct lthread *t = thread_of(l, p->pid, p->begin_tid);
	struct bs_iter_rec r;
	struct capture m = p->cap;
	int64_t idx;

	/* the end line's groups override the begin line's */
	if (c->has_score) {
		m.has_score = true;
		m.score = c->score;
		m.has_unit = c->has_unit;
		memcpy(m.unit, c->unit, sizeof(m.unit));
	}
	if (c->has_inv) {
		m.has_inv = true;
		m.inv = c->inv;
	}
	p->open = false;
	memset(&r, 0, sizeof(r));
	if (t && t->acc_from == p->begin_ns)
		r = t->acc;
	if (!t || t->acc_from != p->begin_ns || w->tid != p->begin_tid ||
	    t->covered_ns != w->ts_ns - p->begin_ns)
		l->stats.partial++;
	if (t)
		t->acc_from = 0;
	event_captures(l, ev, &m);
	json_object_object_add(ev, "begin_ns", json_object_new_int64((int64_t)p->begin_ns));
	if (w->ts_ns <= p->begin_ns) {
		l->stats.zero_length++;
		json_object_object_add(ev, "zero_length", json_object_new_boolean(1));
		return -1;
	}
	r.type = BS_REC_ITER;
	r.flags &= BS_ITER_F_SPILLED;
	r.index = p->n_iters++;
	r.pid = p->pid;
	r.tid = p->begin_tid;
	r.cpu_begin = p->begin_cpu;
	r.cpu_end = w->cpu;
	r.begin_ns = p->begin_ns;
	r.end_ns = w->ts_ns;
	if (m.has_inv) {
		r.invocations = m.inv;
		r.flags |= BS_ITER_F_INVOC;
	}
	idx = (int64_t)r.index;
	json_object_object_add(ev, "iteration", json_object_new_int64(idx));
	l->stats.iterations++;
	if (l->out.iter)
		l->out.iter(l->out.ctx, &r);
	return idx;
}

static void on_match(struct bs_lines *l, enum bs_line_role role, struct lstream *s,
		     const struct bs_line_rec *w, const regmatch_t *pm)
{
	struct lproc *p = proc_of(l, w->pid);
	struct capture c;
	json_object *ev;
	uint64_t ended_begin = 0;

	if (!p)
		return;
	capture(l, &l->cfg->rx[role], s->buf, pm, &c);
	l->stats.matches[role]++;
	ev = line_event(w, role, s->buf);
	switch (role) {
	case BS_LROLE_NAME:
		event_captures(l, ev, &c);
		break;
	case BS_LROLE_BEGIN:
		iter_begin(l, p, w, &c);
		event_captures(l, ev, &c);
		json_object_object_add(ev, "iteration", json_object_new_int64((int64_t)p->n_iters));
		break;
	case BS_LROLE_END:
		if (!p->open) {
			l->stats.end_without_begin++;
			event_captures(l, ev, &c);
			break;
		}
		ended_begin = p->begin_ns;
		iter_end(l, p, w, &c, ev);
		break;
	default: /* --line */
		if (p->open) {
			ended_begin = p->begin_ns;
			iter_end(l, p, w, &c, ev);
		} else {
			event_captures(l, ev, &c);
		}
		iter_begin(l, p, w, &(struct capture){0});
		break;
	}
	/* a name on a begin or name line names what follows; on an end line,
	 * the iteration it ended */
	if (c.has_name)
		bench_emit(l, w, c.name, ended_begin ? ended_begin : w->ts_ns);
	if (l->out.event)
		l->out.event(l->out.ctx, ev);
	json_object_put(ev);
}

/* Match the line of s so far (complete: its newline arrived). */
static void match_line(struct bs_lines *l, struct lstream *s, const struct bs_line_rec *w,
		       bool complete)
{
	static const enum bs_line_role order[] = {BS_LROLE_NAME, BS_LROLE_END, BS_LROLE_BEGIN,
						  BS_LROLE_LINE};
	regmatch_t pm[MAX_SUB];
	size_t i;

	s->buf[s->len] = 0;
	if (!s->counted) {
		s->counted = true;
		l->stats.lines++;
	}
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum bs_line_role role = order[i];

		if (!l->cfg->rx[role].present || (s->matched & (1u << role)))
			continue;
		if (regexec(&l->cfg->rx[role].re, s->buf, MAX_SUB, pm, complete ? 0 : REG_NOTEOL))
			continue;
		s->matched |= 1u << role;
		on_match(l, role, s, w, pm);
	}
}

static void line_reset(struct lstream *s)
{
	s->len = 0;
	s->matched = 0;
	s->counted = false;
	s->cut = false;
}

void bs_lines_write(struct bs_lines *l, const struct bs_line_rec *w)
{
	struct lstream *s = stream_of(l, w->pid, w->fd);
	size_t n = w->data_len < BS_LINE_DATA_LEN ? w->data_len : BS_LINE_DATA_LEN, i = 0, j, k;

	l->stats.writes++;
	if (!s)
		return;
	while (i < n) {
		for (j = i; j < n && w->data[j] != '\n'; j++)
			;
		/* bytes i..j belong to the current line (NUL bytes end what regexec sees) */
		for (k = i; k < j && s->len < LINE_KEEP; k++)
			s->buf[s->len++] = w->data[k];
		s->cut |= k < j;
		if (j < n) {
			l->stats.long_lines += s->cut;
			if (s->len && s->buf[s->len - 1] == '\r')
				s->len--;
			match_line(l, s, w, true);
			if (!l->stats.first_line[0]) {
				size_t fl = strnlen(s->buf, sizeof(l->stats.first_line) - 1);

				memcpy(l->stats.first_line, s->buf, fl);
				l->stats.first_line[fl] = 0;
			}
			line_reset(s);
			i = j + 1;
		} else {
			if (j > i)
				match_line(l, s, w, false);
			i = j;
		}
	}
	if (w->len > w->data_len) {
		/* the rest of the write is unknown: the line it leaves open is dropped */
		l->stats.truncated++;
		line_reset(s);
	}
}

void bs_lines_proc_exit(struct bs_lines *l, uint32_t pid)
{
	size_t i, k;

	for (i = 0; i < l->n_pr; i++)
		if (l->pr[i].pid == pid && l->pr[i].open) {
			l->exited_open += !l->cfg->rx[BS_LROLE_LINE].present;
			l->pr[i].open = false; /* its index goes on: (pid, index) stays unique */
		}
	for (i = k = 0; i < l->n_st; i++)
		if (l->st[i].pid != pid)
			l->st[k++] = l->st[i];
	l->n_st = k;
	for (i = k = 0; i < l->n_th; i++)
		if (l->th[i].pid != pid)
			l->th[k++] = l->th[i];
	l->n_th = k;
}

int bs_lines_finish(struct bs_lines *l, json_object *warnings, struct bs_lines_stats *st)
{
	struct bs_lines_stats *x = &l->stats;
	char buf[1024];
	size_t i;
	int n = 0, r;

#define WARN(...)                                                                                  \
	do {                                                                                       \
		snprintf(buf, sizeof(buf), __VA_ARGS__);                                           \
		if (warnings)                                                                      \
			json_object_array_add(warnings, json_object_new_string(buf));              \
		n++;                                                                               \
	} while (0)

	x->unfinished = l->exited_open;
	for (i = 0; i < l->n_pr; i++)
		if (l->pr[i].open && !l->cfg->rx[BS_LROLE_LINE].present)
			x->unfinished++;
	for (r = 0; r < BS_LROLE_N; r++) {
		if (!l->cfg->rx[r].present || x->matches[r])
			continue;
		if (!x->lines)
			WARN("%s '%s' matched no line: the harness wrote no line to its stdout or "
			     "stderr (%llu writes)",
			     role_opt[r], l->cfg->rx[r].src, (unsigned long long)x->writes);
		else
			WARN("%s '%s' matched none of the %llu lines the harness wrote to its "
			     "stdout "
			     "and stderr (the first: '%s')",
			     role_opt[r], l->cfg->rx[r].src, (unsigned long long)x->lines,
			     x->first_line);
	}
	if (x->zero_length)
		WARN(
		    "%llu iterations were dropped: their begin and end lines came in one write, so "
		    "the harness buffers its output (its stdout is not a terminal?); make it "
		    "line-buffered (python3 -u or PYTHONUNBUFFERED=1, stdbuf -oL for C stdio)",
		    (unsigned long long)x->zero_length);
	if (x->truncated)
		WARN("%llu writes were longer than %d bytes: only their first %d bytes were "
		     "matched, and the line each left unfinished was dropped",
		     (unsigned long long)x->truncated, BS_LINE_DATA_LEN, BS_LINE_DATA_LEN);
	if (x->long_lines)
		WARN("%llu lines were longer than %d bytes: the regexes saw their first %d bytes "
		     "only",
		     (unsigned long long)x->long_lines, LINE_KEEP, LINE_KEEP);
	if (x->end_without_begin)
		WARN("%llu lines matched --end-line with no iteration open (no --begin-line "
		     "match before them)",
		     (unsigned long long)x->end_without_begin);
	if (x->restarted)
		WARN("%llu lines matched --begin-line while an iteration was open: it was "
		     "restarted there",
		     (unsigned long long)x->restarted);
	if (x->unfinished)
		WARN("%llu iterations began (--begin-line) and never ended",
		     (unsigned long long)x->unfinished);
	if (x->partial)
		WARN("%llu iterations are not covered exactly by their thread's accounting "
		     "(ended by another thread than the one that began them, or records lost): "
		     "their interference fields are partial",
		     (unsigned long long)x->partial);
	if (x->bad_numbers)
		WARN("%llu (?<score>) or (?<invocations>) groups matched text that is not a "
		     "number",
		     (unsigned long long)x->bad_numbers);
#undef WARN
	if (st)
		*st = *x;
	return n;
}

json_object *bs_lines_stats_json(const struct bs_lines_stats *st)
{
	json_object *o = json_object_new_object(), *m = json_object_new_object();
	int r;

#define ADD(k, v) json_object_object_add(o, k, json_object_new_int64((int64_t)(v)))
	ADD("writes", st->writes);
	ADD("truncated_writes", st->truncated);
	ADD("lines", st->lines);
	ADD("iterations", st->iterations);
	ADD("zero_length", st->zero_length);
	ADD("end_without_begin", st->end_without_begin);
	ADD("restarted", st->restarted);
	ADD("unfinished", st->unfinished);
	ADD("partial", st->partial);
	ADD("bad_numbers", st->bad_numbers);
	ADD("long_lines", st->long_lines);
#undef ADD
	for (r = 0; r < BS_LROLE_N; r++)
		json_object_object_add(m, role_name[r],
				       json_object_new_int64((int64_t)st->matches[r]));
	json_object_object_add(o, "matches", m);
	return o;
}
