// SPDX-License-Identifier: MIT
/* data.c - a duet trace as per-benchmark, per-method runs (duet/data.h). */
#include "duet/data.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet/pidsets.h"
#include "duet/report.h"
#include "trace/bench_groups.h"

static const char *const duet_types[BS_DM_N] = {"seqn", "syncduet", "duet", "interleaved"};

const char *bs_dmethod_duet_type(enum bs_dmethod m)
{
	return m < BS_DM_N ? duet_types[m] : "?";
}

enum bs_duet_type bs_dmethod_type(enum bs_dmethod m)
{
	return m == BS_DM_ASYNC			   ? BS_DUET_ASYNC
	       : m == BS_DM_SYNC || m == BS_DM_ILV ? BS_DUET_SYNC
						   : BS_DUET_SEQUENTIAL;
}

struct bs_duet_run bs_drun_stats(const struct bs_drun *r)
{
	return (struct bs_duet_run){.a = r->side[0].iv,
				    .na = r->side[0].n,
				    .b = r->side[1].iv,
				    .nb = r->side[1].n,
				    .score_a = r->side[0].score,
				    .score_b = r->side[1].score};
}

/* ---- helpers ---------------------------------------------------------------- */

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* One ok run as read from its event, with its iterations per side. */
struct evrun {
	int run, index;
	enum bs_dmethod method;
	char order[3];
	int64_t start_ns, end_ns;
	uint32_t root[2];
	const char *label; /* per-run benchmark (imports) or NULL */
	const struct bs_iter_rec **it[2];
	size_t n[2], cap[2];
};

static int cmp_rec_begin(const void *x, const void *y)
{
	const struct bs_iter_rec *a = *(const struct bs_iter_rec *const *)x;
	const struct bs_iter_rec *b = *(const struct bs_iter_rec *const *)y;

	if (a->begin_ns != b->begin_ns)
		return a->begin_ns < b->begin_ns ? -1 : 1;
	return a->end_ns < b->end_ns ? -1 : a->end_ns > b->end_ns;
}

static int cmp_evrun(const void *x, const void *y)
{
	const struct evrun *a = x, *b = y;

	return (a->run > b->run) - (a->run < b->run);
}

static struct bs_dbench *bench_get(struct bs_duet_data *d, const char *name)
{
	struct bs_dbench *b;

	for (size_t i = 0; i < d->n_benches; i++)
		if (!strcmp(d->benches[i].name, name))
			return &d->benches[i];
	b = realloc(d->benches, (d->n_benches + 1) * sizeof(*b));
	if (!b)
		return NULL;
	d->benches = b;
	b = &d->benches[d->n_benches];
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	if (!b->name)
		return NULL;
	d->n_benches++;
	return b;
}

static void side_free(struct bs_dside *s)
{
	free(s->iv);
	free(s->score);
	free(s->rec);
}

/* Fill side @s from the records rec[0..n) whose group is @g (grp NULL: all). */
static int side_fill(struct bs_dside *s, uint32_t root, const struct bs_iter_rec **rec, size_t n,
		     const long *grp, long g, bool per_inv)
{
	size_t m = 0;

	s->pid = root;
	s->iv = malloc((n + 1) * sizeof(*s->iv));
	s->score = malloc((n + 1) * sizeof(*s->score));
	s->rec = malloc((n + 1) * sizeof(*s->rec));
	if (!s->iv || !s->score || !s->rec)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct bs_iter_rec *r = rec[i];
		double dur = (double)(r->end_ns - r->begin_ns);

		if (grp && grp[i] != g)
			continue;
		s->iv[m] = (struct bs_iter){(int64_t)r->begin_ns, (int64_t)r->end_ns};
		s->score[m] = per_inv && r->invocations ? dur / (double)r->invocations : dur;
		s->rec[m] = r;
		m++;
	}
	s->n = m;
	return 0;
}

/*
 * Keep the iterations of one side that can form a valid stats/ side: drop
 * incomplete ones (thread exit, end before begin) and, when threads
 * overlap, keep the thread of the first iteration. Returns how many dropped.
 */
static size_t side_clean(const struct bs_iter_rec **it, size_t *n)
{
	size_t m = 0, dropped = 0;
	bool overlap = false;

	for (size_t i = 0; i < *n; i++) {
		if ((it[i]->flags & BS_ITER_F_EXIT) || it[i]->end_ns < it[i]->begin_ns) {
			dropped++;
			continue;
		}
		it[m++] = it[i];
	}
	*n = m;
	if (m)
		qsort(it, m, sizeof(*it), cmp_rec_begin);
	for (size_t i = 1; i < m; i++)
		if (it[i]->begin_ns < it[i - 1]->end_ns)
			overlap = true;
	if (overlap && m) {
		uint32_t tid = it[0]->tid;
		size_t k = 0;
		uint64_t last_end = 0;

		for (size_t i = 0; i < m; i++) {
			if (it[i]->tid != tid || it[i]->begin_ns < last_end) {
				dropped++;
				continue;
			}
			last_end = it[i]->end_ns;
			it[k++] = it[i];
		}
		*n = k;
	}
	return dropped;
}

static bool side_has_invoc(const struct bs_iter_rec **it, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((it[i]->flags & BS_ITER_F_INVOC) && it[i]->invocations)
			return true;
	return false;
}

/* Benchmark groups of one side (bench_groups.h): grp[n] and names[n]
 * (allocated), returns the count or < 0. */
static long side_groups(const struct bs_dataset *ds, const struct bs_iter_rec **it, size_t n,
			long **grp, const char ***names, size_t *n_calib)
{
	long k;

	*grp = malloc((n + 1) * sizeof(**grp));
	*names = malloc((n + 1) * sizeof(**names));
	if (!*grp || !*names)
		return -ENOMEM;
	k = bs_bench_group(ds, it, n, *grp, *names);
	for (size_t i = 0; k >= 0 && i < n; i++)
		*n_calib += (*grp)[i] == BS_GBENCH_CALIBRATION;
	return k;
}

static int add_run_to_bench(struct bs_duet_data *d, const char *name, const struct evrun *e,
			    const struct bs_iter_rec **const it[2], const size_t n[2],
			    long *const grp[2], const long g[2], bool per_inv)
{
	struct bs_dbench *b = bench_get(d, name);
	struct bs_drun *r;
	int ret;

	if (!b)
		return -ENOMEM;
	r = realloc(b->runs[e->method], (b->n_runs[e->method] + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	b->runs[e->method] = r;
	r = &r[b->n_runs[e->method]++];
	memset(r, 0, sizeof(*r));
	r->run = e->run;
	r->index = e->index;
	r->method = e->method;
	memcpy(r->order, e->order, sizeof(r->order));
	r->start_ns = e->start_ns;
	r->end_ns = e->end_ns;
	b->per_invocation = per_inv;
	for (int s = 0; s < 2; s++) {
		if ((ret = side_fill(&r->side[s], e->root[s], it[s], n[s], grp[s], g[s], per_inv)))
			return ret;
		for (size_t i = 0; i < r->side[s].n; i++)
			d->n_no_time += !(r->side[s].score[i] > 0);
	}
	if (!r->start_ns && !r->end_ns) {
		for (int s = 0; s < 2; s++) {
			const struct bs_dside *x = &r->side[s];

			if (!x->n)
				continue;
			if (!r->start_ns || x->iv[0].start_ns < r->start_ns)
				r->start_ns = x->iv[0].start_ns;
			if (x->iv[x->n - 1].end_ns > r->end_ns)
				r->end_ns = x->iv[x->n - 1].end_ns;
		}
	}
	return 0;
}

/* Side B's group of side A's benchmark g: the same name where the harness
 * names its benchmarks, else the same position; -1 when B has none. */
static long match_group(long g, const char **const names[2], const long k[2])
{
	const char *nm = names[0] ? names[0][g] : NULL;

	if (!nm)
		return g < k[1] ? g : -1;
	for (long h = 0; h < k[1]; h++)
		if (names[1][h] && !strcmp(names[1][h], nm))
			return h;
	return -1;
}

/* Split one run into benchmarks and add it to each. */
static int place_run(const struct bs_dataset *ds, struct bs_duet_data *d, struct evrun *e)
{
	long *grp[2] = {NULL, NULL}, k[2] = {1, 1};
	const char **gname[2] = {NULL, NULL};
	bool inv = false;
	const char *label = e->label ? e->label : (d->benchmark[0] ? d->benchmark : "benchmark");
	const struct bs_iter_rec **const it[2] = {e->it[0], e->it[1]};
	char name[512];
	long matched = 0;
	int ret = 0;

	for (int s = 0; s < 2; s++) {
		d->n_unmatched += side_clean(e->it[s], &e->n[s]);
		inv |= side_has_invoc(e->it[s], e->n[s]);
	}
	/* a run labelled with its benchmark (imports) holds that benchmark only:
	 * scores per invocation where counts exist, no grouping */
	if (inv && e->label) {
		const long g0[2] = {0, 0};

		if (!e->n[0] || !e->n[1])
			return 0;
		ret = add_run_to_bench(d, label, e, it, e->n, grp, g0, true);
		if (!ret)
			d->methods[e->method] = true;
		return ret;
	}
	if (inv) {
		for (int s = 0; s < 2 && !ret; s++) {
			k[s] = side_groups(ds, e->it[s], e->n[s], &grp[s], &gname[s],
					   &d->n_calibration);
			if (k[s] < 0)
				ret = (int)k[s];
		}
	}
	for (long g = 0; !ret && g < k[0]; g++) {
		long gs[2] = {inv ? g : 0,
			      inv ? match_group(g, (const char **const *)gname, k) : 0};
		size_t cnt[2] = {0, 0};

		if (gs[1] < 0)
			continue;
		matched++;
		for (int s = 0; s < 2; s++)
			for (size_t i = 0; i < e->n[s]; i++)
				cnt[s] += !grp[s] || grp[s][i] == gs[s];
		if (!cnt[0] || !cnt[1])
			continue;
		if (inv && gname[0][g])
			snprintf(name, sizeof(name), "%s", gname[0][g]);
		else if (inv)
			snprintf(name, sizeof(name), "%s #%ld", label, g + 1);
		else
			snprintf(name, sizeof(name), "%s", label);
		ret = add_run_to_bench(d, name, e, it, e->n, grp, gs, inv);
		if (!ret)
			d->methods[e->method] = true;
	}
	if (!ret && inv && (matched != k[0] || matched != k[1]))
		d->n_bench_mismatch++;
	for (int s = 0; s < 2; s++) {
		free(grp[s]);
		free(gname[s]);
	}
	return ret;
}

/* One ok run from its decoded event. */
static void read_event(const struct bs_duet_run_event *x, struct evrun *e)
{
	memset(e, 0, sizeof(*e));
	e->run = x->run;
	e->method = x->method;
	e->index = x->index;
	memcpy(e->order, x->order, sizeof(e->order));
	e->start_ns = x->start_ns;
	e->end_ns = x->end_ns;
	if (e->end_ns < e->start_ns)
		e->start_ns = e->end_ns = 0;
	e->label = x->benchmark;
	for (int s = 0; s < 2; s++)
		e->root[s] = x->side[s].pid;
}

/* a failed run's reason: the event's, else the first side's "failed" */
static const char *failed_reason(const struct bs_duet_run_event *x)
{
	const char *r = x->reason;

	for (int s = 0; !r && s < 2; s++)
		r = x->side[s].failed;
	return r ? r : "failed (no reason given)";
}

static int push_iter(struct evrun *e, int s, const struct bs_iter_rec *r)
{
	if (e->n[s] == e->cap[s]) {
		size_t cap = e->cap[s] ? 2 * e->cap[s] : 64;
		const struct bs_iter_rec **p = realloc(e->it[s], cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		e->it[s] = p;
		e->cap[s] = cap;
	}
	e->it[s][e->n[s]++] = r;
	return 0;
}

int bs_duet_data_build(const struct bs_dataset *ds, struct bs_duet_data **out, char *err,
		       size_t errlen)
{
	struct bs_duet_blocks bl;
	struct bs_duet_data *d;
	struct evrun *ev = NULL;
	size_t n_ev = 0, n_events = 0;
	int ret = 0;

	*out = NULL;
	if (!bs_dataset_is_duet(ds))
		return fail(err, errlen,
			    "%s is not a duet trace (its context has no \"mode\": \"duet\")",
			    ds && ds->path ? ds->path : "the trace");
	ret = bs_duet_blocks_decode(ds, &bl, err, errlen);
	if (ret) {
		bs_duet_blocks_free(&bl);
		/* a bad block is a bad trace, as before the typed decode: -EINVAL */
		return ret == -EBADMSG ? -EINVAL : ret;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		bs_duet_blocks_free(&bl);
		return -ENOMEM;
	}
	d->ctx = bl.ctx;
	d->rechecks = bl.rechecks;
	d->n_rechecks = bl.n_rechecks;
	bl.rechecks = NULL;
	d->benchmark = strdup(d->ctx.benchmark ? d->ctx.benchmark : "");
	d->source = strdup(d->ctx.source ? d->ctx.source : "benchscope");
	d->aa = d->ctx.aa;
	d->min_overlap = d->ctx.min_overlap;
	if (!d->benchmark || !d->source) {
		ret = -ENOMEM;
		goto out;
	}
	if (bl.n_stops) {
		d->stops = malloc(bl.n_stops * sizeof(*d->stops));
		if (!d->stops) {
			ret = -ENOMEM;
			goto out;
		}
		memcpy(d->stops, bl.stops, bl.n_stops * sizeof(*d->stops));
		d->n_stops = bl.n_stops;
	}
	n_events = bl.n_runs;
	ev = calloc(n_events + 1, sizeof(*ev));
	if (!ev) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < bl.n_runs; i++) {
		const struct bs_duet_run_event *x = &bl.runs[i];

		d->runs_total++;
		if (!x->ok) {
			struct bs_dfailed *f = realloc(d->failed, (d->n_failed + 1) * sizeof(*f));

			if (!f) {
				ret = -ENOMEM;
				goto out;
			}
			d->failed = f;
			f[d->n_failed].run = x->run;
			f[d->n_failed].method = x->method;
			f[d->n_failed].reason = strdup(failed_reason(x));
			if (!f[d->n_failed++].reason) {
				ret = -ENOMEM;
				goto out;
			}
			continue;
		}
		read_event(x, &ev[n_ev++]);
	}
	d->runs_ok = n_ev;
	if (!d->runs_total) {
		ret = fail(err, errlen, "%s has no duet_run event (the duet did not record a run)",
			   ds->path ? ds->path : "the trace");
		goto out;
	}
	if (n_ev)
		qsort(ev, n_ev, sizeof(*ev), cmp_evrun);
	d->pidsets = calloc(n_ev + 1, sizeof(*d->pidsets));
	if (!d->pidsets) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < n_ev; k++, d->n_pidsets++) {
		d->pidsets[k].run = ev[k].run;
		d->pidsets[k].method = ev[k].method;
		d->pidsets[k].start_ns = ev[k].start_ns;
		d->pidsets[k].end_ns = ev[k].end_ns;
	}
	if ((ret = bs_dpids_index_init(d)))
		goto out;
	for (size_t k = 0; k < n_ev; k++)
		for (int sd = 0; sd < 2; sd++)
			if (ev[k].root[sd] && (ret = bs_dpids_add(d, k, sd, ev[k].root[sd])))
				goto out;
	if ((ret = bs_dpids_add_forks(d, ds)))
		goto out;
	/* iterations to sides: the run whose set holds the pid and whose span
	 * (when known) holds the begin */
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *r = &ds->iters[i];
		int sd;
		long k = bs_dpids_place(d, r->pid, (int64_t)r->begin_ns, &sd);

		if (k < 0) {
			d->n_unmatched++;
			continue;
		}
		if ((ret = push_iter(&ev[k], sd, r)))
			goto out;
	}
	for (size_t k = 0; k < n_ev; k++)
		if ((ret = place_run(ds, d, &ev[k])))
			goto out;
out:
	for (size_t k = 0; ev && k < n_events; k++) {
		free(ev[k].it[0]);
		free(ev[k].it[1]);
	}
	free(ev);
	bs_duet_blocks_free(&bl);
	if (ret) {
		if (ret == -ENOMEM)
			fail(err, errlen, "out of memory");
		bs_duet_data_free(d);
		return ret;
	}
	*out = d;
	return 0;
}

void bs_duet_data_free(struct bs_duet_data *d)
{
	if (!d)
		return;
	for (size_t b = 0; b < d->n_benches; b++) {
		for (int m = 0; m < BS_DM_N; m++) {
			for (size_t r = 0; r < d->benches[b].n_runs[m]; r++) {
				side_free(&d->benches[b].runs[m][r].side[0]);
				side_free(&d->benches[b].runs[m][r].side[1]);
			}
			free(d->benches[b].runs[m]);
		}
		free(d->benches[b].name);
	}
	free(d->benches);
	free(d->rechecks);
	for (size_t i = 0; i < d->n_failed; i++)
		free(d->failed[i].reason);
	free(d->failed);
	bs_dpids_free(d);
	free(d->stops);
	free(d->benchmark);
	free(d->source);
	free(d);
}
