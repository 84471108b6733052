// SPDX-License-Identifier: MIT
/* analysis.c - a fleet's benchmarks with machines as units, and its noise
 * table (analysis.h). */
#include "fleet/analysis.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet/analysis.h" /* bs_duet_method_model: the confound check of `report` */
#include "duet/data.h"
#include "report/summary.h" /* bs_iter_counted, bs_iter_ns_per_op */
#include "trace/bench_groups.h"
#include "util/json.h"

/* A growable array of T. */
#define VEC(T)                                                                                     \
	struct {                                                                                   \
		T *d;                                                                              \
		size_t n, cap;                                                                     \
	}
#define VEC_PUSH(v, val)                                                                           \
	((v).n == (v).cap && vec_grow((void **)&(v).d, &(v).cap, sizeof(*(v).d))                   \
	     ? -ENOMEM                                                                             \
	     : ((v).d[(v).n++] = (val), 0))

static int vec_grow(void **d, size_t *cap, size_t size)
{
	size_t ncap = *cap ? 2 * *cap : 64;
	void *nd = realloc(*d, ncap * size);

	if (!nd)
		return 1;
	*d = nd;
	*cap = ncap;
	return 0;
}

/* A duet member left out of a benchmark (its duet withholds the verdict). */
struct left_out {
	size_t member, runs, iters;
};

/* One benchmark's data over the fleet, appended member by member. */
struct bdata {
	VEC(double) x, y;   /* values (duet: A's), B's values */
	VEC(size_t) nx, ny; /* values per run */
	VEC(size_t) runs;   /* runs per member present */
	VEC(size_t) member; /* index of each member present */
	VEC(double) base;   /* mean of x per member present (speed) */
	size_t runs_before; /* runs when the current member began */
	size_t x_before, y_before;
	bool per_op;		   /* the current member's values are per invocation */
	VEC(bool) unit;		   /* per_op of each member present */
	size_t n_per_op, n_dur;	   /* members present of each unit */
	VEC(struct left_out) left; /* duet members left out, in fleet order */
	char left_why[256];	   /* the first one's reason */
};

struct acc {
	struct bs_fleet_analysis *a;
	struct bdata *bd; /* [a->n_benches] */
	gsl_rng *rng;
};

static long bench_index(struct acc *c, const char *name)
{
	struct bs_fleet_analysis *a = c->a;
	struct bs_fleet_bench *nb;
	struct bdata *nd;

	for (size_t i = 0; i < a->n_benches; i++)
		if (!strcmp(a->benches[i].name, name))
			return (long)i;
	nb = realloc(a->benches, (a->n_benches + 1) * sizeof(*nb));
	if (!nb)
		return -ENOMEM;
	a->benches = nb;
	nd = realloc(c->bd, (a->n_benches + 1) * sizeof(*nd));
	if (!nd)
		return -ENOMEM;
	c->bd = nd;
	memset(&nb[a->n_benches], 0, sizeof(*nb));
	memset(&nd[a->n_benches], 0, sizeof(*nd));
	nb[a->n_benches].name = strdup(name);
	if (!nb[a->n_benches].name)
		return -ENOMEM;
	return (long)a->n_benches++;
}

/* Begin and end one member's runs of benchmark @b. */
static void member_begin(struct bdata *d)
{
	d->runs_before = d->nx.n;
	d->x_before = d->x.n;
	d->y_before = d->y.n;
}

static int member_end(struct acc *c, long b, size_t m)
{
	struct bdata *d = &c->bd[b];
	size_t runs = d->nx.n - d->runs_before;
	double s = 0;

	if (!runs)
		return 0;
	for (size_t i = d->x_before; i < d->x.n; i++)
		s += d->x.d[i];
	if (VEC_PUSH(d->runs, runs) || VEC_PUSH(d->member, m) ||
	    VEC_PUSH(d->base, s / (double)(d->x.n - d->x_before)) || VEC_PUSH(d->unit, d->per_op))
		return -ENOMEM;
	if (d->per_op)
		d->n_per_op++;
	else
		d->n_dur++;
	return 0;
}

/* An iteration (its place @k in a benchmark's order) by process. */
struct pid_iter {
	uint32_t pid;
	size_t k;
};

/* A run: the process's iterations pid_iter[at .. at + n - 1], first at k. */
struct run_span {
	size_t first, at, n;
};

static int cmp_pid_iter(const void *p, const void *q)
{
	const struct pid_iter *a = p, *b = q;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->k > b->k) - (a->k < b->k);
}

static int cmp_run_first(const void *p, const void *q)
{
	const struct run_span *a = p, *b = q;

	return (a->first > b->first) - (a->first < b->first);
}

/* Run traces: counted iterations by benchmark, runs by process. */
static int add_run_member(struct acc *c, const struct bs_dataset *ds, size_t m)
{
	size_t n = 0, nit = ds->n_iters;
	const struct bs_iter_rec **ptr = malloc((nit + 1) * sizeof(*ptr));
	long *group = malloc((nit + 1) * sizeof(*group));
	const char **names = malloc((nit + 1) * sizeof(*names));
	size_t *order = malloc((nit + 1) * sizeof(*order));
	struct pid_iter *pk = malloc((nit + 1) * sizeof(*pk));
	struct run_span *span = malloc((nit + 1) * sizeof(*span));
	size_t *cnt = NULL;
	const char *kind;
	long nb;
	int ret = -ENOMEM;

	if (!ptr || !group || !names || !order || !pk || !span)
		goto out;
	for (size_t i = 0; i < nit; i++)
		if (bs_iter_counted(&ds->iters[i]))
			ptr[n++] = &ds->iters[i];
	/* benchmarks told apart where the report does (summary.h): the gbench
	 * preset, or names the harness gave */
	kind = ds->run_ctx.boundaries_kind;
	nb = n && (ds->n_benches || (kind && !strcmp(kind, "gbench")))
		 ? bs_bench_group(ds, ptr, n, group, names)
		 : 0;
	if (nb < 0) {
		ret = (int)nb;
		goto out;
	}
	if (nb == 0) { /* no benchmarks told apart: one, named by the program */
		nb = 1;
		names[0] = NULL;
		for (size_t i = 0; i < n; i++)
			group[i] = 0;
	}
	/* counting sort of the iterations by benchmark, trace order kept */
	cnt = calloc((size_t)nb + 1, sizeof(*cnt));
	if (!cnt)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (group[i] >= 0)
			cnt[group[i] + 1]++;
	for (long g = 0; g < nb; g++)
		cnt[g + 1] += cnt[g];
	for (size_t i = 0; i < n; i++)
		if (group[i] >= 0)
			order[cnt[group[i]]++] = i;
	for (long g = nb; g > 0; g--)
		cnt[g] = cnt[g - 1];
	cnt[0] = 0;
	for (long g = 0; g < nb; g++) {
		char label[BS_BENCH_NAME_LEN + 16];
		size_t lo = cnt[g], hi = cnt[g + 1];
		bool per_op = true;
		long b;

		if (lo == hi)
			continue;
		if (names[g])
			snprintf(label, sizeof(label), "%s", names[g]);
		else if (nb == 1)
			snprintf(label, sizeof(label), "(all iterations)");
		else if (ds->run_ctx.shard.present)
			/* unnamed (gbench 1.7 keeps no names): the k-th benchmark of
			 * one shard is not the k-th of another, never combine them */
			snprintf(label, sizeof(label), "shard %lld/%lld #%ld",
				 (long long)ds->run_ctx.shard.index,
				 (long long)ds->run_ctx.shard.count, g + 1);
		else
			snprintf(label, sizeof(label), "#%ld", g + 1);
		b = bench_index(c, label);
		if (b < 0) {
			ret = (int)b;
			goto out;
		}
		struct bdata *d = &c->bd[b];

		for (size_t k = lo; k < hi && per_op; k++)
			per_op = !isnan(bs_iter_ns_per_op(ptr[order[k]]));
		d->per_op = per_op;
		member_begin(d);
		/* runs: processes (any number: --preset process makes one an
		 * iteration), in order of first iteration, each in trace order */
		size_t np = 0;

		for (size_t k = lo; k < hi; k++)
			pk[k - lo] = (struct pid_iter){ptr[order[k]]->pid, k};
		qsort(pk, hi - lo, sizeof(*pk), cmp_pid_iter);
		for (size_t j = 0; j < hi - lo; j++) {
			if (j && pk[j].pid == pk[j - 1].pid) {
				span[np - 1].n++;
				continue;
			}
			span[np++] = (struct run_span){pk[j].k, j, 1};
		}
		qsort(span, np, sizeof(*span), cmp_run_first);
		for (size_t r = 0; r < np; r++) {
			for (size_t j = span[r].at; j < span[r].at + span[r].n; j++) {
				const struct bs_iter_rec *it = ptr[order[pk[j].k]];
				double v = per_op ? bs_iter_ns_per_op(it)
						  : (double)(it->end_ns - it->begin_ns);

				if (VEC_PUSH(d->x, v))
					goto out;
			}
			if (VEC_PUSH(d->nx, span[r].n))
				goto out;
		}
		if ((ret = member_end(c, b, m)))
			goto out;
	}
	ret = 0;
out:
	free(ptr);
	free(group);
	free(names);
	free(order);
	free(pk);
	free(span);
	free(cnt);
	return ret;
}

/* The iterations of a run's side of @n kept: the last n - n/2 with
 * drop_warmup_half (as the duet analysis drops them), else all. */
static size_t kept(const struct acc *c, size_t n)
{
	return c->a->drop_warmup_half ? n - n / 2 : n;
}

/* Duet traces: each benchmark's runs of the method, A in x and B in y. */
static int add_duet_member(struct acc *c, const struct bs_dataset *ds, size_t m, char *err,
			   size_t errlen)
{
	struct bs_duet_data *dd = NULL;
	struct bs_danalysis_opts mo = {0};
	char e[256];
	int ret = bs_duet_data_build(ds, &dd, e, sizeof(e));

	if (ret) {
		snprintf(err, errlen, "member %zu (%s): %s", m + 1, ds->path, e);
		return ret;
	}
	mo.drop_warmup_half = c->a->drop_warmup_half;
	(void)bs_danalysis_opts_fill(&mo, dd); /* report's defaults; in range from zeros */
	for (size_t i = 0; i < dd->n_benches && !ret; i++) {
		const struct bs_dbench *db = &dd->benches[i];
		int meth = -1;

		if (c->a->method) {
			meth = bs_dmethod_parse(c->a->method);
		} else {
			for (int k = BS_DM_N - 1; k >= 0 && meth < 0; k--) /* async first */
				if (db->n_runs[k])
					meth = k;
			if (meth >= 0)
				c->a->method = bs_dmethod_name((enum bs_dmethod)meth);
		}
		if (meth < 0 || !db->n_runs[meth])
			continue;
		long b = bench_index(c, db->name);

		if (b < 0) {
			ret = (int)b;
			break;
		}
		struct bdata *d = &c->bd[b];
		struct bs_dmres mr;

		/* the verdict `report` gives this member: left out when it
		 * withholds it for a confound */
		ret = bs_duet_method_model(db, (enum bs_dmethod)meth, SIZE_MAX, &mo, &mr);
		if (!ret && mr.model_err == BS_ECONFOUNDED) {
			struct left_out lo = {m, 0, 0};

			if (!d->left.n)
				bs_duet_model_err_text(&mr, d->left_why, sizeof(d->left_why));
			for (size_t r = 0; r < db->n_runs[meth]; r++) {
				const struct bs_drun *run = &db->runs[meth][r];
				size_t na = kept(c, run->side[0].n), nb = kept(c, run->side[1].n);

				lo.runs += na && nb;
				lo.iters += nb ? na : 0;
			}
			ret = VEC_PUSH(d->left, lo);
			bs_dmres_free(&mr);
			continue;
		}
		bs_dmres_free(&mr);
		if (ret)
			break;
		d->per_op = db->per_invocation;
		member_begin(d);
		for (size_t r = 0; r < db->n_runs[meth] && !ret; r++) {
			const struct bs_drun *run = &db->runs[meth][r];
			size_t n[2] = {kept(c, run->side[0].n), kept(c, run->side[1].n)};

			if (!n[0] || !n[1])
				continue;
			for (int s = 0; s < 2 && !ret; s++)
				for (size_t k = run->side[s].n - n[s]; k < run->side[s].n && !ret;
				     k++)
					ret = s ? VEC_PUSH(d->y, run->side[s].score[k])
						: VEC_PUSH(d->x, run->side[s].score[k]);
			if (!ret)
				ret = VEC_PUSH(d->nx, n[0]);
			if (!ret)
				ret = VEC_PUSH(d->ny, n[1]);
		}
		if (!ret)
			ret = member_end(c, b, m);
		if (ret)
			break;
	}
	bs_duet_data_free(dd);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return ret;
}

#define STR_(x) #x
#define STR(x)	STR_(x)

/* Why the interval @ci that bs_hierk_ci gave with @err cannot be shown;
 * NULL when it holds. */
static const char *interval_problem(int err, const struct bs_ci *ci)
{
	if (err)
		return bs_stats_strerror(err);
	if (!(ci->hi > ci->lo)) /* every resample the same: a width of 0 */
		return "no spread: every resample gave the same value";
	return NULL;
}

/* The intervals of benchmark @b: combined and per member. */
static int intervals(struct acc *c, size_t b)
{
	struct bs_fleet_bench *fb = &c->a->benches[b];
	struct bdata *d = &c->bd[b];
	struct bs_hierk_opts o = {0.95, BS_FLEET_RESAMPLES, BS_FLEET_LEAF_EXACT};
	bool two = c->a->duet;
	size_t run0 = 0, x0 = 0, y0 = 0;
	const char *why;

	fb->per_op = !d->n_dur;
	fb->mixed_units = d->n_per_op && d->n_dur;
	fb->members = d->member.n;
	fb->mds = NAN;
	fb->cell = calloc(c->a->n_machines, sizeof(*fb->cell));
	if (!fb->cell)
		return -ENOMEM;
	if (fb->mixed_units) {
		/* compare refuses these too: the scales differ by the invocations */
		snprintf(fb->withheld, sizeof(fb->withheld),
			 "members differ in unit: %zu with time per invocation, %zu with iteration "
			 "durations only (never pooled)",
			 d->n_per_op, d->n_dur);
	} else if (d->member.n < BS_FLEET_MIN_MACHINES) {
		snprintf(fb->withheld, sizeof(fb->withheld),
			 "a fleet interval needs at least %d machines (they are its units)",
			 BS_FLEET_MIN_MACHINES);
	} else {
		const size_t *const ch[2] = {d->runs.d, d->nx.d};
		struct bs_hierk h = {2,	     d->member.n,	  ch,
				     d->x.d, two ? d->y.d : NULL, two ? d->ny.d : NULL};

		fb->err = bs_hierk_ci(&h, &o, c->rng, &fb->combined);
		if (fb->err == BS_ENOMEM)
			return -ENOMEM;
		why = interval_problem(fb->err, &fb->combined);
		fb->has_ci = !why;
		if (why)
			snprintf(fb->withheld, sizeof(fb->withheld), "%s", why);
		else if (two)
			fb->mds = bs_ci_mds(&fb->combined, 0, 0);
	}
	for (size_t i = 0; i < d->member.n; i++) {
		struct bs_fleet_cell *cl = &fb->cell[d->member.d[i]];
		size_t runs = d->runs.d[i], nx = 0, ny = 0;

		for (size_t r = 0; r < runs; r++) {
			nx += d->nx.d[run0 + r];
			ny += two ? d->ny.d[run0 + r] : 0;
		}
		const size_t *const ch[1] = {d->nx.d + run0};
		struct bs_hierk h = {1,
				     runs,
				     ch,
				     d->x.d + x0,
				     two ? d->y.d + y0 : NULL,
				     two ? d->ny.d + run0 : NULL};

		cl->present = true;
		cl->per_op = d->unit.d[i];
		cl->runs = runs;
		cl->iters = nx;
		cl->mds = NAN;
		if (nx < BS_FLEET_MIN_VALUES || (two && ny < BS_FLEET_MIN_VALUES)) {
			cl->withheld = two ? "fewer than " STR(BS_FLEET_MIN_VALUES) " values a side"
					   : "fewer than " STR(BS_FLEET_MIN_VALUES) " iterations";
		} else {
			cl->err = bs_hierk_ci(&h, &o, c->rng, &cl->ci);
			if (cl->err == BS_ENOMEM)
				return -ENOMEM;
			cl->withheld = interval_problem(cl->err, &cl->ci);
			cl->has_ci = !cl->withheld;
			if (two && cl->has_ci)
				cl->mds = bs_ci_mds(&cl->ci, 0, 0);
		}
		run0 += runs;
		x0 += nx;
		y0 += ny;
	}
	fb->left_out = d->left.n;
	snprintf(fb->left_out_why, sizeof(fb->left_out_why), "%s", d->left_why);
	for (size_t i = 0; i < d->left.n; i++) {
		struct bs_fleet_cell *cl = &fb->cell[d->left.d[i].member];

		cl->present = cl->left_out = true;
		cl->runs = d->left.d[i].runs;
		cl->iters = d->left.d[i].iters;
		cl->mds = NAN;
		cl->withheld = "left out: its own duet analysis withholds the verdict (a confound)";
	}
	return 0;
}

static int cmp_d(const void *p, const void *q)
{
	double a = *(const double *)p, b = *(const double *)q;

	return (a > b) - (a < b);
}

/* median of v[0..n-1] (sorted in place), NaN if n == 0 */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The noise check of a duet CONTEXT: coupling of its most coupled CPU. */
static void noise_text(const struct bs_dataset *ds, struct bs_fleet_machine *mc)
{
	json_object *nc = bs_json_get(bs_json_get(ds->context, "duet"), "noise_check");
	json_object *cpus = bs_json_get(nc, "cpus");
	double worst = NAN;
	bool coupled = false;

	if (!nc)
		return;
	mc->has_noise = true;
	for (size_t i = 0;
	     json_object_is_type(cpus, json_type_array) && i < json_object_array_length(cpus);
	     i++) {
		json_object *cpu = json_object_array_get_idx(cpus, i);
		json_object *cp = bs_json_get(cpu, "coupling"), *cd = bs_json_get(cpu, "coupled");
		double v = cp ? json_object_get_double(cp) : NAN;

		if (!isnan(v) && (isnan(worst) || v > worst))
			worst = v;
		coupled |= cd && json_object_get_boolean(cd);
	}
	char ratio[32] = "n/a";

	if (!isnan(worst))
		snprintf(ratio, sizeof(ratio), "%.2f", worst);
	snprintf(mc->noise, sizeof(mc->noise), "%s (busy/alone %s), design %s",
		 coupled ? "vCPUs coupled" : "independent", ratio,
		 bs_json_str(bs_json_get(nc, "recommendation"), "design", "?"));
}

static void machine_figures(const struct bs_dataset *ds, struct bs_fleet_machine *mc)
{
	uint64_t wall = 0, pre = 0, steal = 0, mig = 0;

	snprintf(mc->hostname, sizeof(mc->hostname), "%s", ds->run_ctx.hostname ?: "?");
	snprintf(mc->cpu_model, sizeof(mc->cpu_model), "%s", ds->run_ctx.cpu_model ?: "?");
	/* a trace without the key (imports) does not say: "?", never "none" */
	snprintf(mc->hypervisor, sizeof(mc->hypervisor), "%s", ds->run_ctx.hypervisor ?: "?");
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *r = &ds->iters[i];

		if (!bs_iter_counted(r))
			continue;
		mc->iters++;
		wall += r->end_ns - r->begin_ns;
		pre += r->preempted_ns;
		steal += r->steal_ns;
		mig += r->migrations;
	}
	/* imported traces (CONTEXT "import", or an imported duet) carry no
	 * interference data: n/a rather than zeros; steal neither where the
	 * kernel had no steal accounting (CONTEXT steal_accounting false) */
	const char *src = bs_json_str(bs_json_get(ds->context, "duet"), "source", "");
	bool imported = bs_json_get(ds->context, "import") || !strncmp(src, "import", 6);

	mc->preempt_share = wall && !imported ? (double)pre / (double)wall : NAN;
	/* a kernel without steal accounting reads 0 steal: unknown, not 0 */
	mc->steal_share = wall && !imported && ds->run_ctx.steal_accounting != 0
			      ? (double)steal / (double)wall
			      : NAN;
	mc->migrations = mc->iters && !imported ? (double)mig / (double)mc->iters : NAN;
	noise_text(ds, mc);
}

/* Speeds, the outlier rule and its sentences. */
static int noise_table(struct acc *c)
{
	struct bs_fleet_analysis *a = c->a;
	size_t nm = a->n_machines;
	double *lsum = calloc(nm, sizeof(double)), *tmp = malloc((nm + 1) * sizeof(double));
	size_t *lcnt = calloc(nm, sizeof(size_t)), k = 0;
	double med, mad;

	if (!lsum || !tmp || !lcnt) {
		free(lsum);
		free(tmp);
		free(lcnt);
		return -ENOMEM;
	}
	for (size_t b = 0; b < a->n_benches; b++) {
		struct bdata *d = &c->bd[b];
		double fm;

		/* every member left out, or no median of two units */
		if (!d->base.n || a->benches[b].mixed_units)
			continue;
		memcpy(tmp, d->base.d, d->base.n * sizeof(double));
		fm = median(tmp, d->base.n);
		for (size_t i = 0; i < d->base.n && fm > 0; i++) {
			lsum[d->member.d[i]] += log(d->base.d[i] / fm);
			lcnt[d->member.d[i]]++;
		}
	}
	for (size_t m = 0; m < nm; m++) {
		a->machines[m].speed = lcnt[m] ? exp(lsum[m] / (double)lcnt[m]) : NAN;
		if (lcnt[m])
			tmp[k++] = log(a->machines[m].speed);
	}
	med = median(tmp, k);
	for (size_t m = 0, j = 0; m < nm; m++)
		if (lcnt[m])
			tmp[j++] = fabs(log(a->machines[m].speed) - med);
	mad = 1.4826 * median(tmp, k);
	a->speed_mad = mad;
	for (size_t m = 0; m < nm; m++) {
		struct bs_fleet_machine *mc = &a->machines[m];
		double dev = lcnt[m] ? log(mc->speed) - med : 0;
		char extra[160] = "";
		size_t at = 0;

		if (!lcnt[m] || fabs(dev) <= BS_FLEET_OUTLIER_MADS * mad ||
		    fabs(dev) <= log1p(BS_FLEET_OUTLIER_FLOOR))
			continue;
		mc->outlier = true;
		a->n_outliers++;
		if (mc->preempt_share >= 0.01)
			at += (size_t)snprintf(extra + at, sizeof(extra) - at,
					       "; %.1f %% of its time was preempted",
					       100 * mc->preempt_share);
		if (mc->steal_share >= 0.01 && at < sizeof(extra))
			at += (size_t)snprintf(extra + at, sizeof(extra) - at,
					       "; %.1f %% stolen by the hypervisor",
					       100 * mc->steal_share);
		if (mc->migrations >= 0.1 && at < sizeof(extra))
			at += (size_t)snprintf(extra + at, sizeof(extra) - at,
					       "; %.2f migrations per iteration", mc->migrations);
		if (mc->has_noise && !strncmp(mc->noise, "vCPUs coupled", 13) && at < sizeof(extra))
			snprintf(extra + at, sizeof(extra) - at, "; its vCPUs were coupled");
		char dist[64] = "MAD 0: at least half the members at the median";

		if (mad > 0)
			snprintf(dist, sizeof(dist), "%.1f MADs", fabs(dev) / mad);
		snprintf(mc->why, sizeof(mc->why),
			 "member %zu (%s) ran %.1f %% %s than the fleet median (%s)%s", m + 1,
			 mc->hostname, 100 * fabs(mc->speed - exp(med)) / exp(med),
			 dev > 0 ? "slower" : "faster", dist, extra);
	}
	free(lsum);
	free(tmp);
	free(lcnt);
	return 0;
}

void bs_fleet_verdict(const struct bs_ci *ci, char *buf, size_t len)
{
	double p = 100 * (ci->point - 1), lo = 100 * (ci->lo - 1), hi = 100 * (ci->hi - 1);

	if (ci->lo > 1)
		snprintf(buf, len, "B slower by %.2f %% [%.2f, %.2f]", p, lo, hi);
	else if (ci->hi < 1)
		snprintf(buf, len, "B faster by %.2f %% [%.2f, %.2f]", -p, -hi, -lo);
	else
		snprintf(buf, len, "no difference (%+.2f %% [%+.2f, %+.2f])", p, lo, hi);
}

static void acc_free(struct acc *c, size_t n_benches)
{
	if (!c)
		return;
	for (size_t b = 0; c->bd && b < n_benches; b++) {
		free(c->bd[b].x.d);
		free(c->bd[b].y.d);
		free(c->bd[b].nx.d);
		free(c->bd[b].ny.d);
		free(c->bd[b].runs.d);
		free(c->bd[b].member.d);
		free(c->bd[b].base.d);
		free(c->bd[b].left.d);
		free(c->bd[b].unit.d);
	}
	free(c->bd);
	gsl_rng_free(c->rng);
	free(c);
}

int bs_fleet_analysis_new(uint64_t seed, bool duet, struct bs_fleet_analysis **out)
{
	struct bs_fleet_analysis *a = calloc(1, sizeof(*a));
	struct acc *c = calloc(1, sizeof(*c));

	if (!a || !c || !(c->rng = gsl_rng_alloc(gsl_rng_mt19937))) {
		free(a);
		free(c);
		return -ENOMEM;
	}
	gsl_rng_set(c->rng, seed);
	c->a = a;
	a->acc = c;
	a->duet = duet;
	*out = a;
	return 0;
}

int bs_fleet_analysis_add(struct bs_fleet_analysis *a, const struct bs_dataset *ds, char *err,
			  size_t errlen)
{
	struct acc *c = a->acc;
	struct bs_fleet_machine *nm = realloc(a->machines, (a->n_machines + 1) * sizeof(*nm));
	size_t m = a->n_machines;
	int ret;

	if (!nm) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	a->machines = nm;
	memset(&nm[m], 0, sizeof(*nm));
	a->n_machines++;
	ret = a->duet ? add_duet_member(c, ds, m, err, errlen) : add_run_member(c, ds, m);
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	if (!ret)
		machine_figures(ds, &nm[m]);
	return ret;
}

int bs_fleet_analysis_finish(struct bs_fleet_analysis *a, const struct bs_fleet *f, char *err,
			     size_t errlen)
{
	struct acc *c = a->acc;
	int ret = 0;

	a->fleet = f;
	for (size_t b = 0; !ret && b < a->n_benches; b++)
		ret = intervals(c, b);
	if (!ret)
		ret = noise_table(c);
	if (ret)
		snprintf(err, errlen, "out of memory");
	acc_free(c, a->n_benches);
	a->acc = NULL;
	return ret;
}

int bs_fleet_analyze(const struct bs_fleet *f, uint64_t seed, struct bs_fleet_analysis **out,
		     char *err, size_t errlen)
{
	struct bs_fleet_analysis *a = NULL;
	int ret;

	if (!err)
		errlen = 0;
	ret = bs_fleet_analysis_new(seed, !strcmp(f->kind, "duet"), &a);
	for (size_t m = 0; !ret && m < f->n_members; m++)
		ret = bs_fleet_analysis_add(a, f->members[m].ds, err, errlen);
	if (!ret)
		ret = bs_fleet_analysis_finish(a, f, err, errlen);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		bs_fleet_analysis_free(a);
		return ret;
	}
	*out = a;
	return 0;
}

void bs_fleet_analysis_free(struct bs_fleet_analysis *a)
{
	if (!a)
		return;
	for (size_t b = 0; b < a->n_benches; b++) {
		free(a->benches[b].name);
		free(a->benches[b].cell);
	}
	free(a->benches);
	free(a->machines);
	acc_free(a->acc, a->n_benches);
	free(a);
}
