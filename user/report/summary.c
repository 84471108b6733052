// SPDX-License-Identifier: MIT
/* summary.c - figures of a run from a dataset (see summary.h). */
#include "report/summary.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/bench_groups.h"
#include "trace/iter_set.h"
#include "util/units.h"

int bs_iter_counted(const struct bs_iter_rec *r)
{
	return !(r->flags & (BS_ITER_F_WARMUP | BS_ITER_F_AFTER_STOP)) && r->end_ns >= r->begin_ns;
}

double bs_iter_ns_per_op(const struct bs_iter_rec *r)
{
	if (!(r->flags & BS_ITER_F_INVOC) || r->invocations == 0 || r->end_ns < r->begin_ns)
		return NAN;
	return (double)(r->end_ns - r->begin_ns) / (double)r->invocations;
}

static void add_interference(struct bs_interference *t, const struct bs_iter_rec *r)
{
	t->wall_ns += r->end_ns - r->begin_ns;
	if (r->flags & BS_ITER_F_NO_INTF)
		return;
	t->n_measured++;
	t->preempted_ns += r->preempted_ns;
	t->blocked_ns += r->blocked_ns;
	t->runq_wait_ns += r->runq_wait_ns;
	t->irq_ns += r->irq_ns;
	t->softirq_ns += r->softirq_ns;
	t->steal_ns += r->steal_ns;
	t->sched_delay_ns += r->sched_delay_ns;
	t->nvcsw += r->nvcsw;
	t->nivcsw += r->nivcsw;
	t->migrations += r->migrations;
}

/* Summarise the iterations ds->iters[idx[0..n-1]]; @x is scratch of n doubles. */
static int summarize_group(const struct bs_dataset *ds, const size_t *idx, size_t n, double *x,
			   struct bs_group_summary *g)
{
	size_t with_invoc = 0;

	g->n_iters = n;
	g->bench = -1;
	g->first_begin_ns = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		const struct bs_iter_rec *r = &ds->iters[idx[i]];

		x[i] = (double)(r->end_ns - r->begin_ns);
		add_interference(&g->intf, r);
		if (r->begin_ns < g->first_begin_ns)
			g->first_begin_ns = r->begin_ns;
		if (r->end_ns > g->last_end_ns)
			g->last_end_ns = r->end_ns;
		with_invoc += !isnan(bs_iter_ns_per_op(r));
	}
	if (n == 0) {
		g->first_begin_ns = 0;
		return 0;
	}
	if (bs_summarize(x, n, &g->duration) == BS_ENOMEM)
		return -ENOMEM;
	g->has_duration = 1;
	if (with_invoc == n) {
		for (size_t i = 0; i < n; i++) {
			x[i] = bs_iter_ns_per_op(&ds->iters[idx[i]]);
			g->invocations += ds->iters[idx[i]].invocations;
		}
		if (bs_summarize(x, n, &g->per_op) == BS_ENOMEM)
			return -ENOMEM;
		g->has_per_op = 1;
	}
	return 0;
}

/* The process of iteration @i: pid << 32 | instance (a pid reused in the trace, proc_inst.h). */
static uint64_t proc_key(const struct bs_dataset *ds, size_t i)
{
	return (uint64_t)ds->iters[i].pid << 32 | bs_dataset_iter_instance(ds, &ds->iters[i]);
}

static int cmp_by_proc(const void *a, const void *b, void *dsp)
{
	const struct bs_dataset *ds = dsp;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	uint64_t pa = proc_key(ds, ia), pb = proc_key(ds, ib);

	if (pa != pb)
		return pa < pb ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

struct span {
	size_t start, n;
};

static int cmp_span_first(const void *a, const void *b, void *idx)
{
	size_t fa = ((size_t *)idx)[((const struct span *)a)->start];
	size_t fb = ((size_t *)idx)[((const struct span *)b)->start];

	return fa < fb ? -1 : fa > fb;
}

/* The command name of process (@pid, @inst), from its PROC records. */
static void proc_comm(const struct bs_dataset *ds, uint32_t pid, uint32_t inst, char *comm)
{
	int best = 0; /* EXEC beats FORK beats EXIT; the last of a kind wins */

	for (size_t i = 0; i < ds->n_procs; i++) {
		const struct bs_proc_rec *p = &ds->procs[i];
		int rank = p->kind == BS_PROC_EXEC ? 3 : p->kind == BS_PROC_FORK ? 2 : 1;

		if (p->pid == pid && rank >= best &&
		    bs_dataset_proc_instance(ds, pid, p->ts_ns) == inst) {
			best = rank;
			bs_comm_text(p->comm, BS_COMM_LEN - 1, comm);
		}
	}
}

static int summarize_procs(const struct bs_dataset *ds, size_t *idx, size_t n, double *x,
			   struct bs_run_summary *s)
{
	struct span *spans;
	size_t ns = 0;
	int ret = 0;

	qsort_r(idx, n, sizeof(*idx), cmp_by_proc, (void *)ds);
	spans = calloc(n ? n : 1, sizeof(*spans));
	if (!spans)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || proc_key(ds, idx[i]) != proc_key(ds, idx[i - 1]))
			spans[ns++].start = i;
		spans[ns - 1].n++;
	}
	qsort_r(spans, ns, sizeof(*spans), cmp_span_first, idx);
	s->procs = calloc(ns ? ns : 1, sizeof(*s->procs));
	if (!s->procs) {
		free(spans);
		return -ENOMEM;
	}
	s->n_procs = ns;
	for (size_t i = 0; i < ns && !ret; i++) {
		struct bs_group_summary *g = &s->procs[i];

		g->pid = ds->iters[idx[spans[i].start]].pid;
		g->inst = bs_dataset_iter_instance(ds, &ds->iters[idx[spans[i].start]]);
		proc_comm(ds, g->pid, g->inst, g->comm);
		ret = summarize_group(ds, idx + spans[i].start, spans[i].n, x, g);
	}
	free(spans);
	return ret;
}

/*
 * Benchmarks (bench_groups.h): classify the runs; drop calibration runs
 * from idx[0..*n) and summarise each benchmark's measurement runs. Nothing
 * is dropped when no benchmark is recognised (no invocation counts).
 */
static int summarize_benches(const struct bs_dataset *ds, size_t *idx, size_t *n, double *x,
			     struct bs_run_summary *s)
{
	size_t cap = ds->n_iters ? ds->n_iters : 1;
	long *grp = malloc(cap * sizeof(*grp));
	const struct bs_iter_rec **all = malloc(cap * sizeof(*all));
	const char **names = malloc(cap * sizeof(*names));
	size_t *bidx = malloc((*n ? *n : 1) * sizeof(*bidx));
	size_t kept = 0;
	long k = -ENOMEM;
	int ret = 0;

	if (grp && all && names) {
		for (size_t i = 0; i < ds->n_iters; i++)
			all[i] = &ds->iters[i];
		k = bs_bench_group(ds, all, ds->n_iters, grp, names);
	}
	if (k <= 0 || !bidx) {
		ret = k < 0 || !bidx ? (k < 0 ? (int)k : -ENOMEM) : 0;
		goto out;
	}
	for (size_t i = 0; i < *n; i++) {
		if (grp[idx[i]] == BS_GBENCH_CALIBRATION)
			s->n_calibration++;
		else
			idx[kept++] = idx[i];
	}
	*n = kept;
	s->benches = calloc((size_t)k, sizeof(*s->benches));
	if (!s->benches) {
		ret = -ENOMEM;
		goto out;
	}
	s->n_benches = (size_t)k;
	for (long b = 0; b < k && !ret; b++) {
		size_t m = 0;

		for (size_t i = 0; i < kept; i++)
			if (grp[idx[i]] == b)
				bidx[m++] = idx[i];
		ret = summarize_group(ds, bidx, m, x, &s->benches[b]);
		s->benches[b].bench = b;
		s->benches[b].name = names[b];
	}
out:
	free(grp);
	free(all);
	free(names);
	free(bidx);
	return ret;
}

static int cmp_interferer_tid(const void *a, const void *b)
{
	const struct bs_interferer_rec *x = a, *y = b;

	return x->interferer_tid < y->interferer_tid ? -1 : x->interferer_tid > y->interferer_tid;
}

static int cmp_top_ns(const void *a, const void *b)
{
	const struct bs_top_interferer *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* Sum interferer records over victims, per interferer thread, those of the
 * summarised iterations idx[0..n_idx) where the trace keeps them per
 * iteration (bs_charge_counts); keep top_n. */
static int summarize_interferers(const struct bs_dataset *ds, const size_t *idx, size_t n_idx,
				 size_t top_n, struct bs_run_summary *s)
{
	enum bs_charge_scope scope = bs_run_context_charge_scope(&ds->run_ctx);
	struct bs_iter_set kept = {0};
	struct bs_interferer_rec *v;
	struct bs_top_interferer *all;
	size_t n = 0, n_v = 0;

	if (!ds->n_interferers)
		return 0;
	v = malloc(ds->n_interferers * sizeof(*v));
	all = calloc(ds->n_interferers, sizeof(*all));
	if (!v || !all)
		goto nomem;
	for (size_t i = 0; scope == BS_CHARGES_ANALYSED && i < n_idx; i++)
		if (bs_iter_set_add(&kept, ds->iters[idx[i]].pid, ds->iters[idx[i]].index))
			goto nomem;
	bs_iter_set_seal(&kept);
	for (size_t i = 0; i < ds->n_interferers; i++)
		if (bs_charge_counts(&ds->interferers[i], scope, &kept))
			v[n_v++] = ds->interferers[i];
	bs_iter_set_free(&kept);
	qsort(v, n_v, sizeof(*v), cmp_interferer_tid);
	for (size_t i = 0; i < n_v; i++) {
		if (i == 0 || v[i].interferer_tid != v[i - 1].interferer_tid) {
			all[n].tid = v[i].interferer_tid;
			all[n].pid = v[i].interferer_pid;
			bs_comm_text(v[i].comm, BS_COMM_LEN - 1, all[n].comm);
			n++;
		}
		all[n - 1].ns += v[i].ns;
		s->interferer_ns += v[i].ns;
	}
	free(v);
	qsort(all, n, sizeof(*all), cmp_top_ns);
	for (size_t i = 0; i < n; i++)
		all[i].of_total =
		    s->interferer_ns ? (double)all[i].ns / (double)s->interferer_ns : NAN;
	s->n_interferers = n;
	s->n_top = n < top_n ? n : top_n;
	s->top = all;
	return 0;
nomem:
	free(v);
	free(all);
	bs_iter_set_free(&kept);
	return -ENOMEM;
}

static int warn(struct bs_run_summary *s, const char *fmt, ...)
{
	char **nw = realloc(s->warnings, (s->n_warnings + 1) * sizeof(*nw));
	va_list ap;
	int ret;

	if (!nw)
		return -ENOMEM;
	s->warnings = nw;
	va_start(ap, fmt);
	ret = vasprintf(&nw[s->n_warnings], fmt, ap);
	va_end(ap);
	if (ret < 0)
		return -ENOMEM;
	s->n_warnings++;
	return 0;
}

uint64_t bs_run_end_lost_total(const struct bs_run_end *e)
{
	uint64_t total = 0;

	for (size_t i = 0; i < e->n_lost; i++)
		/* records lost; not the map-full counters, which count failed
		 * inserts (retried, and counted again in iter_lost when a record
		 * was due): their own warnings say them */
		if (strstr(e->lost[i].name, "lost") && e->lost[i].value > 0)
			total += (uint64_t)e->lost[i].value;
	return total;
}

static void read_end(const struct bs_dataset *ds, struct bs_run_summary *s)
{
	const struct bs_run_end *e = &ds->run_end;

	s->has_lost = e->has_lost;
	s->lost_total = bs_run_end_lost_total(e);
}

static int add_warnings(const struct bs_dataset *ds, struct bs_run_summary *s)
{
	const struct bs_group_summary *o = &s->overall;
	size_t n_exit = 0, n_nested = 0, n_unseen = 0;
	char a[32], b[32], c[32];
	const struct bs_run_end *e = &ds->run_end;
	int ret = 0;

	for (size_t i = 0; i < ds->n_iters; i++) {
		/* a fork ended by the stopper ends its open iteration by the exit */
		n_exit += (ds->iters[i].flags & (BS_ITER_F_EXIT | BS_ITER_F_AFTER_STOP)) ==
			  BS_ITER_F_EXIT;
		n_nested += !!(ds->iters[i].flags & BS_ITER_F_NESTED);
		n_unseen += !!(ds->iters[i].flags & BS_ITER_F_UNSEEN_SWITCH);
	}
	if (s->n_iters_total == 0 && ds->run_ctx.shard.present && !ds->run_ctx.shard.n_benchmarks)
		ret |= warn(s, "an empty shard: none of the benchmarks the harness listed is its, "
			       "nothing was run");
	else if (s->n_iters_total == 0)
		ret |= warn(s, "no iteration was recorded: the boundary probes never fired");
	else if (o->n_iters == 0)
		ret |= warn(s,
			    "no iteration left to summarise: all %zu were warmup, calibration or "
			    "after the stop",
			    s->n_iters_total);
	if (s->perturbation > BS_PERTURBATION_WARN)
		ret |= warn(s,
			    "probe cost %s per iteration is %s of the median iteration (%s): "
			    "the measurement perturbs the harness; prefer a USDT or "
			    "process-level boundary",
			    bs_fmt_ns(s->probe_cost_ns, a, sizeof(a)),
			    bs_fmt_pct(s->perturbation, b, sizeof(b)),
			    bs_fmt_ns(o->duration.median, c, sizeof(c)));
	if (s->lost_total)
		ret |= warn(s, "%llu records were lost (see the lost counters)",
			    (unsigned long long)s->lost_total);
	if (s->n_invoc_flagged && !o->has_per_op)
		ret |= warn(s,
			    "time per invocation not reported: only %zu of %zu iterations carry "
			    "an invocation count",
			    s->n_invoc_flagged, o->n_iters);
	if (s->n_invoc_bad)
		ret |=
		    warn(s, "%zu iterations had an implausible invocation count", s->n_invoc_bad);
	if (n_exit)
		ret |= warn(s,
			    "%zu iterations were ended by their thread's exit, not by the "
			    "end probe",
			    n_exit);
	if (n_nested)
		ret |= warn(s, "%zu iterations began again before they ended (nested begin)",
			    n_nested);
	if (n_unseen)
		ret |= warn(s,
			    "%zu iterations had context switches the scheduler handler did not "
			    "see: their off-CPU time is undercounted (flag unseen_switch)",
			    n_unseen);
	if (!ds->run_end.present && !ds->truncated)
		ret |= warn(s, "the trace has no END block");
	if (e->status.signaled)
		ret |= warn(s, "the harness was killed by signal %d", (int)e->status.signal);
	else if (e->status.exited && (int)e->status.exit_code != 0)
		ret |= warn(s, "the harness exited with status %d", (int)e->status.exit_code);
	return ret ? -ENOMEM : 0;
}

/* Forks and stoppage (stop_run.h): CONTEXT "stop", fork and stop_decision events. */
static int summarize_stop(const struct bs_dataset *ds, struct bs_run_summary *s)
{
	struct bs_stop_summary *t = &s->stop;
	const struct bs_stop_config *cfg = &ds->run_ctx.stop;
	const struct bs_run_events *ev = &ds->run_ev;
	uint64_t ev_compute = 0;
	size_t n_failed = 0;
	char thr[32];
	int ret = 0;

	if (!cfg->present)
		return 0;
	t->present = 1;
	snprintf(t->criterion, sizeof(t->criterion), "%s", cfg->criterion ?: "?");
	t->threshold = cfg->threshold;
	t->window = cfg->window;
	t->wi_min = cfg->wi_min;
	t->wi_max = cfg->wi_max;
	t->mi = cfg->mi;
	t->f_min = cfg->f_min;
	t->f_max = cfg->f_max;
	for (size_t i = 0; i < ev->n_decisions; i++) {
		t->n_checkpoints++;
		ev_compute += ev->decisions[i].compute_ns;
		if (ev->decisions[i].fork_checkpoint)
			t->forks_stable = ev->decisions[i].stop;
	}
	t->forks = ev->forks;
	t->n_forks = ev->n_forks;
	for (size_t i = 0; i < t->n_forks; i++) {
		const struct bs_fork_event *f = &t->forks[i];

		t->n_short += f->is_short;
		t->warmup_mean += (double)f->warmup_iterations;
		if (strcmp(t->criterion, "none") && !f->is_short && !f->warmup_stable &&
		    f->warmup_iterations >= t->wi_max)
			t->n_warmup_bound++;
	}
	t->warmup_mean = t->n_forks ? t->warmup_mean / (double)t->n_forks : NAN;
	t->compute_ns = ds->run_end.stop.has_compute_ns ? ds->run_end.stop.compute_ns : ev_compute;
	if (ds->run_end.stop.has_wall_ns)
		t->wall_ns = ds->run_end.stop.wall_ns;
	else if (t->n_forks)
		t->wall_ns = t->forks[t->n_forks - 1].end_ns - t->forks[0].start_ns;
	t->compute_share = t->wall_ns ? (double)t->compute_ns / (double)t->wall_ns : NAN;
	t->fork_bound = strcmp(t->criterion, "none") && !t->forks_stable &&
			t->n_forks >= t->f_max && t->f_max > 0;
	snprintf(thr, sizeof(thr), "%g", t->threshold);
	if (t->fork_bound)
		ret |=
		    warn(s,
			 "fork stability not reached after %zu forks (f_max): the %s criterion "
			 "at threshold %s is unreachable for this benchmark; raise --forks MAX or "
			 "--threshold",
			 t->n_forks, t->criterion, thr);
	if (t->n_warmup_bound)
		ret |= warn(s,
			    "warmup stability not reached within %zu iterations (wi_max) in %zu of "
			    "%zu forks: the %s criterion at threshold %s is unreachable there",
			    t->wi_max, t->n_warmup_bound, t->n_forks, t->criterion, thr);
	for (size_t i = 0; i < t->n_forks; i++)
		if (t->forks[i].interrupted)
			ret |= warn(
			    s,
			    "fork %" PRIu64 " (pid %" PRIu64 ") was interrupted (Ctrl-C) after "
			    "%" PRIu64 " warmup and %" PRIu64 " measurement iterations",
			    t->forks[i].fork, t->forks[i].pid, t->forks[i].warmup_iterations,
			    t->forks[i].measurement_iterations);
		else if (t->forks[i].is_short)
			ret |= warn(s,
				    "fork %" PRIu64 " (pid %" PRIu64
				    ") ended short (%s) after %" PRIu64 " warmup and %" PRIu64
				    " measurement iterations (wanted >= %zu and "
				    "%zu): start the harness with more repetitions",
				    t->forks[i].fork, t->forks[i].pid, t->forks[i].ended_by,
				    t->forks[i].warmup_iterations,
				    t->forks[i].measurement_iterations, t->wi_min, t->mi);
	for (size_t i = 0; i < t->n_forks; i++) {
		const struct bs_fork_event *f = &t->forks[i];

		if (!strcmp(f->ended_by, "signal") && f->signal > 0) {
			n_failed++;
			ret |= warn(s,
				    "fork %" PRIu64 " (pid %" PRIu64
				    "): the harness was killed by signal %d, which benchscope did "
				    "not send",
				    f->fork, f->pid, (int)f->signal);
		} else if (!strcmp(f->ended_by, "signal")) {
			n_failed++;
			ret |= warn(s,
				    "fork %" PRIu64 " (pid %" PRIu64
				    ") was killed by a signal benchscope did not send",
				    f->fork, f->pid);
		} else if (!strcmp(f->ended_by, "exit") && f->exit_code > 0) {
			n_failed++;
			ret |= warn(s,
				    "fork %" PRIu64 " (pid %" PRIu64
				    "): the harness exited with status %d",
				    f->fork, f->pid, (int)f->exit_code);
		}
	}
	if (ds->run_end.stop.harness_failed && !n_failed)
		ret |= warn(s, "the harness failed in a fork the trace holds no event of (it "
			       "could not be started)");
	for (size_t i = 0; i < t->n_forks; i++)
		if (t->forks[i].killed)
			ret |=
			    warn(s,
				 "fork %" PRIu64 " (pid %" PRIu64 ") ignored SIGTERM: killed with "
				 "SIGKILL after the grace period",
				 t->forks[i].fork, t->forks[i].pid);
	return ret ? -ENOMEM : 0;
}

int bs_run_summarize(const struct bs_dataset *ds, size_t top_n, struct bs_run_summary *s)
{
	size_t *idx = NULL, n = 0;
	double *x = NULL;
	int ret;

	if (!ds || !s)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	s->n_iters_total = ds->n_iters;
	idx = malloc((ds->n_iters ? ds->n_iters : 1) * sizeof(*idx));
	x = malloc((ds->n_iters ? ds->n_iters : 1) * sizeof(*x));
	if (!idx || !x) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *r = &ds->iters[i];

		if (r->flags & BS_ITER_F_AFTER_STOP)
			s->n_after_stop++;
		else if (r->flags & BS_ITER_F_WARMUP)
			s->n_warmup++;
		else if (r->end_ns < r->begin_ns)
			s->n_invalid++;
		if (!bs_iter_counted(r))
			continue;
		idx[n++] = i;
		s->n_invoc_flagged += !!(r->flags & BS_ITER_F_INVOC);
		s->n_invoc_bad += !!(r->flags & BS_ITER_F_INVOC_BAD);
	}
	ret = 0;
	if (bs_dataset_has_benches(ds))
		ret = summarize_benches(ds, idx, &n, x, s);
	if (!ret)
		ret = summarize_group(ds, idx, n, x, &s->overall);
	if (!ret)
		ret = summarize_procs(ds, idx, n, x, s);
	if (!ret)
		ret = summarize_interferers(ds, idx, n, top_n, s);
	if (ret)
		goto out;
	s->probe_cost_ns = ds->run_ctx.probe_cost_per_iter_ns;
	s->perturbation = s->overall.has_duration && s->overall.duration.median > 0
			      ? s->probe_cost_ns / s->overall.duration.median
			      : NAN;
	read_end(ds, s);
	ret = summarize_stop(ds, s);
	if (!ret)
		ret = add_warnings(ds, s);
out:
	free(idx);
	free(x);
	if (ret)
		bs_run_summary_free(s);
	return ret;
}

void bs_run_summary_free(struct bs_run_summary *s)
{
	if (!s)
		return;
	free(s->procs);
	free(s->benches);
	free(s->top);
	for (size_t i = 0; i < s->n_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	memset(s, 0, sizeof(*s));
}
