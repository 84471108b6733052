// SPDX-License-Identifier: MIT
/* render_table.c - the duet report as aligned text or Markdown (duet/render.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "duet/render.h"
#include "report/summary.h"
#include "util/table.h"
#include "util/units.h"

#define TMAXC 16

/* A small table: cells as strings, printed aligned or as a Markdown table. */
struct tab {
	int ncol;
	char **cells; /* rows * ncol */
	size_t rows;
};

static void tab_add(struct tab *t, ...)
{
	va_list ap;
	char **c = realloc(t->cells, (t->rows + 1) * t->ncol * sizeof(*c));

	if (!c)
		return;
	t->cells = c;
	va_start(ap, t);
	for (int i = 0; i < t->ncol; i++) {
		const char *s = va_arg(ap, const char *);

		c[t->rows * t->ncol + i] = strdup(s ? s : "");
	}
	va_end(ap);
	t->rows++;
}

/* Print and empty @t: its first row is the header; column 0 left-aligned, the rest right. */
static void tab_print(FILE *f, struct tab *t, bool md, const char *indent)
{
	static const int right[TMAXC] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	const struct bs_table_style style = {.indent = indent, .md = md};

	if (t->rows)
		bs_table_print(f, (const char *const *)t->cells,
			       (const char *const *)t->cells + t->ncol, t->rows - 1,
			       (size_t)t->ncol, right, &style);
	for (size_t i = 0; i < t->rows * t->ncol; i++)
		free(t->cells[i]);
	free(t->cells);
	t->cells = NULL;
	t->rows = 0;
}

static void heading(FILE *f, bool md, const char *text)
{
	if (md)
		fprintf(f, "\n## %s\n\n", text);
	else
		fprintf(f, "\n%s\n", text);
}

static char *pctf(double ratio, char *buf, size_t len)
{
	if (isnan(ratio))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f %%", ratio * 100);
	return buf;
}

static char *score_fmt(double v, bool per_inv, char *buf, size_t len)
{
	char t[40];

	bs_fmt_ns(v, t, sizeof(t));
	snprintf(buf, len, "%s%s", t, per_inv ? "/op" : "");
	return buf;
}

static char *mds_fmt(const struct bs_dmres *r, char *buf, size_t len)
{
	if (!r->has_mds || r->model_err)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f %%", r->model.mds * 100);
	return buf;
}

/* the model's CPU terms, e.g. "cpu1 1.62x", or why there is none */
static char *terms_fmt(const struct bs_dmres *r, char *buf, size_t len)
{
	const struct bs_dmodel_result *m = &r->model;
	size_t off = 0;

	if (r->model_err == BS_ECONFOUNDED)
		return snprintf(buf, len, "confounded"), buf;
	if (!m->n_terms)
		return snprintf(buf, len, "-"), buf;
	buf[0] = 0;
	for (size_t j = 0; j < m->n_terms && off < len; j++)
		off += (size_t)snprintf(buf + off, len - off, "%scpu%d %.2fx", j ? ", " : "",
					m->term_cpu[j], exp(m->term_effect[j]));
	return buf;
}

/* one vCPU slower than the other, from the model's CPU term and the runs
 * that show it beyond their noise, with what the guest accounted over the
 * same runs */
static void cpu_line(FILE *f, const struct bs_duet_ctx *c, int m, const struct bs_dmres *r, bool md)
{
	const struct bs_dcpudiag *d = &r->cpu;
	uint64_t busy = 0, lost = 0, steal = 0;

	if (!d->checked)
		return;
	for (int s = 0; s < 2 && c->n; s++) {
		busy += c->n->method[m][s].busy_ns;
		lost += c->n->method[m][s].lost_ns;
		steal += c->n->method[m][s].steal_ns;
	}
	fputs(md ? "- " : "  ", f);
	switch (d->contention) {
	case BS_DCONT_NONE:
		fprintf(f, "CPUs (%s): CPU %d vs CPU %d %.2fx [%.2f, %.2f] ", bs_dmethod_name(m),
			d->slow_cpu, d->fast_cpu, d->ratio, d->ratio_lo, d->ratio_hi);
		if (d->ratio_lo > 1)
			fprintf(f,
				"(a steady difference below the %.1fx called hidden host "
				"contention; the verdict's CPU term removes it)",
				BS_DUET_CPU_SLOW_RATIO);
		else if (d->n_slowed)
			fprintf(f,
				"(not called hidden host contention: %zu of the %zu runs with the "
				"sides apart >= %.1fx beyond their noise, but the term's interval "
				"holds 1 and none departs from it by %.1fx)",
				d->n_slowed, d->n_apart, BS_DUET_CPU_SLOW_RATIO,
				BS_DUET_CPU_SLOW_RATIO);
		else
			fprintf(f,
				"(no hidden host contention: no run of the %zu with the sides "
				"apart >= %.1fx beyond its noise)",
				d->n_apart, BS_DUET_CPU_SLOW_RATIO);
		if (d->n_unpaired)
			fprintf(f, "; runs without pairs, in none of this: %zu", d->n_unpaired);
		fputc('\n', f);
		return;
	case BS_DCONT_STEADY:
		fprintf(f,
			"hidden host contention (%s): vCPU %d ran %.2fx [%.2f, %.2f] slower than "
			"vCPU %d over the %zu runs with the sides apart (>= %.1fx beyond its noise "
			"in %zu of them)",
			bs_dmethod_name(m), d->slow_cpu, d->ratio, d->ratio_lo, d->ratio_hi,
			d->fast_cpu, d->n_apart, BS_DUET_CPU_SLOW_RATIO, d->n_slowed);
		break;
	case BS_DCONT_INTERMITTENT:
		fprintf(f,
			"hidden host contention (%s), intermittent: in %zu of the %zu runs with "
			"the sides apart one vCPU ran >= %.1fx slower than the other (up to "
			"%.2fx), beyond their noise and unlike the duet as a whole, CPU %d vs "
			"CPU %d %.2fx [%.2f, %.2f]",
			bs_dmethod_name(m), d->n_departed, d->n_apart, BS_DUET_CPU_SLOW_RATIO,
			d->max_run_ratio, d->slow_cpu, d->fast_cpu, d->ratio, d->ratio_lo,
			d->ratio_hi);
		break;
	}
	if (d->n_unpaired)
		fprintf(f, "; runs without pairs, in none of this: %zu", d->n_unpaired);
	fprintf(f,
		"; the guest accounted %.1f %% steal and %.1f %% lost time, so the host slowed "
		"the vCPU. %s\n",
		busy ? 100.0 * (double)steal / (double)busy : 0,
		busy ? 100.0 * (double)lost / (double)busy : 0,
		d->contention == BS_DCONT_STEADY
		    ? "The verdict's CPU term removes it."
		    : "The CPU term cannot remove a difference that came and went: it widens "
		      "the verdict's interval.");
}

/* "about 12 runs" or "more than 10000 runs" */
static void runs_text(size_t n, char *buf, size_t len)
{
	if (n)
		snprintf(buf, len, "about %zu runs", n);
	else
		snprintf(buf, len, "more than %d runs", BS_DUET_RUNS_FOR_MAX);
}

/* where the run-to-run spread comes from, and what would narrow it */
static void spread_line(FILE *f, int m, const struct bs_dmres *r, bool md)
{
	const struct bs_dmodel_spread *s = &r->spread;
	char n1[40], n2[40];

	if (!r->has_spread)
		return;
	runs_text(r->runs_for[0], n1, sizeof(n1));
	runs_text(r->runs_for[1], n2, sizeof(n2));
	fprintf(f,
		md ? "- spread (%s): runs differ by %.2f %% (sd of ln B/A); their iterations "
		     "explain %.2f %%, %.2f %% comes with each run%s; an MDS of 1 %% needs %s, "
		     "2 %% %s\n"
		   : "  spread (%s): runs differ by %.2f %% (sd of ln B/A); their iterations "
		     "explain %.2f %%, %.2f %% comes with each run%s; an MDS of 1 %% needs %s, "
		     "2 %% %s\n",
		bs_dmethod_name(m), 100 * r->model.resid_sd, 100 * s->within_sd, 100 * s->run_sd,
		s->run_sd > s->within_sd ? " (more runs narrow it, longer runs do not)" : "", n1,
		n2);
}

static void bench_block(FILE *f, const struct bs_duet_ctx *c, const struct bs_dbres *br, bool md)
{
	struct tab t = {.ncol = 13};
	const struct bs_dbench *b = br->bench;
	char h[600];

	snprintf(h, sizeof(h), "Benchmark %s (score: %s)", b->name,
		 b->per_invocation ? "time per invocation" : "iteration duration");
	heading(f, md, h);
	tab_add(&t, "method", "runs", "pairs", "mean A", "mean B", "B vs A", "95 % CI",
		"rel CI width", "MDS", "lag-1 r", "CPU term", "speedup", "overlap");
	for (int m = 0; m < BS_DM_N; m++) {
		const struct bs_dmres *r = &br->m[m];
		char runs[24], pairs[24], ma[48], mb[48], d[32], ci[48], w[24], mc[24], r1[24],
		    ct[96], sp[24], ov[24];

		if (!r->present)
			continue;
		snprintf(runs, sizeof(runs), "%zu", r->n_runs);
		snprintf(pairs, sizeof(pairs), "%zu", r->res.n_pairs);
		if (r->err && r->err != BS_ETOOFEW && r->err != BS_EZEROVAR && r->err != BS_ETIED) {
			tab_add(&t, bs_dmethod_name(m), runs, "-", "-", "-", "-", "-", "-", "-",
				"-", "-", "-", "-");
			continue;
		}
		score_fmt(r->res.mean_a, b->per_invocation, ma, sizeof(ma));
		score_fmt(r->res.mean_b, b->per_invocation, mb, sizeof(mb));
		if (r->has_verdict) {
			snprintf(d, sizeof(d), "%+.2f %%", r->v.pct);
			snprintf(ci, sizeof(ci), "[%.2f, %.2f] %%", r->v.lo_pct, r->v.hi_pct);
			pctf(exp(r->model.hi) - exp(r->model.lo), w, sizeof(w));
		} else {
			double rel = r->res.mean_b / r->res.mean_a - 1;

			if (r->res.mean_a > 0 && isfinite(rel))
				snprintf(d, sizeof(d), "%+.2f %%", rel * 100);
			else
				snprintf(d, sizeof(d), "n/a");
			snprintf(ci, sizeof(ci), "-");
			snprintf(w, sizeof(w), "-");
		}
		if (isnan(r->lag1))
			snprintf(r1, sizeof(r1), "-");
		else
			snprintf(r1, sizeof(r1), "%.2f", r->lag1);
		if (isnan(r->speedup))
			snprintf(sp, sizeof(sp), "-");
		else
			snprintf(sp, sizeof(sp), "%.2fx", r->speedup);
		if (m == BS_DM_ASYNC)
			pctf(r->res.rel_overlap_time, ov, sizeof(ov));
		else
			snprintf(ov, sizeof(ov), "-");
		tab_add(&t, bs_dmethod_name(m), runs, pairs, ma, mb, d, ci, w,
			mds_fmt(r, mc, sizeof(mc)), r1, terms_fmt(r, ct, sizeof(ct)), sp, ov);
	}
	tab_print(f, &t, md, "  ");
	if (md)
		fputc('\n', f);
	for (int m = BS_DM_N - 1; m >= 0; m--) {
		const struct bs_dmres *r = &br->m[m];
		const char *tag = m == br->primary ? "verdict" : "also";

		if (!r->present)
			continue;
		if (r->has_verdict) {
			fprintf(f, md ? "- **%s** (%s): %s\n" : "  %s (%s): %s\n", tag,
				bs_dmethod_name(m), r->verdict);
		} else {
			char why[300];

			bs_duet_model_err_text(r, why, sizeof(why));
			fprintf(f,
				md ? "- **%s** (%s): no verdict: %s\n"
				   : "  %s (%s): no verdict: %s\n",
				tag, bs_dmethod_name(m), why);
		}
	}
	for (int m = BS_DM_N - 1; m >= 0; m--)
		if (br->m[m].present)
			cpu_line(f, c, m, &br->m[m], md);
	for (int m = BS_DM_N - 1; m >= 0; m--)
		if (br->m[m].present)
			spread_line(f, m, &br->m[m], md);
	if (c->d->aa && br->primary >= 0 && br->m[br->primary].has_verdict &&
	    br->m[br->primary].v.kind != BS_VERDICT_NO_DIFFERENCE)
		fprintf(f, md ? "- A/A test: this difference is a false alarm of the setup\n"
			      : "  A/A test: this difference is a false alarm of the setup\n");
}

/* "x (p %)": ns and its part of `all` */
static char *ns_part(uint64_t ns, uint64_t all, char *buf, size_t len)
{
	char t[32], p[24];

	snprintf(buf, len, "%s (%s)", bs_fmt_ns((double)ns, t, sizeof(t)),
		 pctf(all ? (double)ns / (double)all : NAN, p, sizeof(p)));
	return buf;
}

/* who took the CPU while a side waited: the interferer charges, split among
 * themselves (over the charge scope, noise.h), and what the list leaves out */
static void charges_block(FILE *f, const struct bs_duet_ctx *c, bool md)
{
	const struct bs_duet_noise *n = c->n;
	struct tab t = {.ncol = 6};
	char b[5][64], left[256];

	fprintf(f,
		md ? "\nCPU time taken while a side waited to run (interferer charges, %s)\n\n"
		   : "  CPU time taken while a side waited to run (interferer charges, %s)\n",
		bs_charge_scope_text(n->scope));
	bs_run_end_unrecorded_text(&c->ds->run_end, c->ds->run_ctx.boundaries_kind, left,
				   sizeof(left));
	if (!n->charged_ns) {
		fprintf(f, md ? "None charged.\n" : "    none charged\n");
		if (*left)
			fprintf(f, md ? "\n%s.\n" : "    %s\n", left);
		return;
	}
	tab_add(&t, "method", "side", "charged", "by other side", "by own side",
		"by third parties");
	for (int m = 0; m < BS_DM_N; m++)
		for (int s = 0; s < 2; s++) {
			const struct bs_dnoise_side *x = &n->method[m][s];
			uint64_t all = x->by_other_ns + x->by_own_ns + x->by_third_ns;

			if (!x->n_iters)
				continue;
			tab_add(&t, bs_dmethod_name(m), s ? "B" : "A",
				bs_fmt_ns((double)all, b[0], 64),
				ns_part(x->by_other_ns, all, b[1], 64),
				ns_part(x->by_own_ns, all, b[2], 64),
				ns_part(x->by_third_ns, all, b[3], 64));
		}
	tab_print(f, &t, md, "    ");
	if (*left)
		fprintf(f, md ? "\n%s.\n" : "    %s\n", left);
	if (md)
		fputc('\n', f);
}

static void noise_block(FILE *f, const struct bs_duet_ctx *c, bool md)
{
	const struct bs_duet_noise *n = c->n;
	struct tab t = {.ncol = 10};
	char b[16][48];
	size_t shown = 0;

	heading(f, md,
		"Noise (sums over the analysed iterations; lost = run-queue wait + irq + "
		"softirq + steal)");
	if (!n->has_interference) {
		fprintf(f, md ? "No interference recorded%s.\n" : "  no interference recorded%s\n",
			strncmp(c->d->source, "import", 6) ? "" : " (imported data carry none)");
		return;
	}
	tab_add(&t, "method", "side", "iters", "busy", "lost", "share", "run-queue", "irq",
		"softirq", "steal");
	for (int m = 0; m < BS_DM_N; m++)
		for (int s = 0; s < 2; s++) {
			const struct bs_dnoise_side *x = &n->method[m][s];

			if (!x->n_iters)
				continue;
			snprintf(b[0], 48, "%zu", x->n_iters);
			tab_add(&t, bs_dmethod_name(m), s ? "B" : "A", b[0],
				bs_fmt_ns((double)x->busy_ns, b[1], 48),
				bs_fmt_ns((double)x->lost_ns, b[2], 48),
				pctf(x->busy_ns ? (double)x->lost_ns / (double)x->busy_ns : 0, b[3],
				     48),
				bs_fmt_ns((double)x->runq_wait_ns, b[4], 48),
				bs_fmt_ns((double)x->irq_ns, b[5], 48),
				bs_fmt_ns((double)x->softirq_ns, b[6], 48),
				bs_fmt_ns((double)x->steal_ns, b[7], 48));
		}
	tab_print(f, &t, md, "  ");
	if (md)
		fputc('\n', f);
	charges_block(f, c, md);
	size_t nasym = 0;

	for (int m = 0; m < BS_DM_N; m++)
		nasym += n->n_asymmetric[m];
	fprintf(f,
		md ? "\nAsymmetric runs (one side lost >= 2x the other's share and >= %.0f point "
		     "more): %zu of %zu\n\n"
		   : "  asymmetric runs (one side lost >= 2x the other's share and >= %.0f point "
		     "more): %zu of %zu\n",
		BS_DUET_ASYM_MIN_PP, nasym, n->n_runs);
	if (nasym) {
		t.ncol = 6;
		tab_add(&t, "run", "method", "share A", "share B", "A - B", "imbalance");
		for (size_t i = 0; i < n->n_runs; i++) {
			const struct bs_dnoise_run *r = &n->runs[i];

			if (!r->asymmetric)
				continue;
			snprintf(b[0], 48, "%d", r->run);
			snprintf(b[3], 48, "%+.2f pp", r->asym_pp);
			snprintf(b[4], 48, "%.2f", r->imbalance);
			tab_add(&t, b[0], bs_dmethod_name(r->method), pctf(r->share[0], b[1], 48),
				pctf(r->share[1], b[2], 48), b[3], b[4]);
		}
		tab_print(f, &t, md, "    ");
	}
	fprintf(f,
		md ? "\nbenchscope itself took %s from A and %s from B: %s of the time charged\n"
		   : "  benchscope itself took %s from A and %s from B: %s of the time charged\n",
		bs_fmt_ns((double)n->self_ns[0], b[10], 48),
		bs_fmt_ns((double)n->self_ns[1], b[11], 48),
		pctf(bs_duet_noise_self_share(n), b[12], 48));
	if (n->n_third) {
		fprintf(f, md ? "\nTop third-party tasks\n\n" : "  top third-party tasks\n");
		t.ncol = 4;
		tab_add(&t, "comm", "pid", "from A", "from B");
		for (size_t i = 0; i < n->n_third && shown < 5; i++, shown++) {
			char comm[BS_COMM_LEN + 1];

			snprintf(b[0], 48, "%u", n->third[i].pid);
			tab_add(&t, bs_comm_text(n->third[i].comm, BS_COMM_LEN, comm), b[0],
				bs_fmt_ns((double)n->third[i].ns[0], b[1], 48),
				bs_fmt_ns((double)n->third[i].ns[1], b[2], 48));
		}
		tab_print(f, &t, md, "    ");
	}
}

/* the boundaries' kind in the trace's context (A's, where the sides have
 * their own) and how many probes an iteration took, as the run report
 * says them; nothing for imports, which record no probes */
static void boundaries_line(FILE *f, const struct bs_run_context *rc, bool md)
{
	if (!rc->boundaries_kind || rc->probes <= 0)
		return;
	fprintf(f,
		md ? "- boundaries: %s, %" PRId64 " probe%s per iteration (%s)\n"
		   : "  boundaries  %s, %" PRId64 " probe%s per iteration (%s)\n",
		rc->boundaries_kind, rc->probes, rc->probes == 1 ? "" : "s",
		rc->probes_choice ? rc->probes_choice : "not recorded");
}

/* how the design was chosen, what the noise checks recommended */
static void design_lines(FILE *f, const struct bs_duet_data *d, bool md)
{
	const struct bs_duet_context *c = &d->ctx;
	const struct bs_duet_noise_rec *n = &c->noise;

	if (c->picked_by && !strcmp(c->picked_by, "auto") && c->design_why)
		fprintf(f,
			md ? "- design: --method auto, from a %.1f s noise check: %s\n"
			   : "  design      --method auto, from a %.1f s noise check: %s\n",
			n->duration_s, c->design_why);
	else if (n->present)
		fprintf(
		    f,
		    md ? "- design: %s, as given; the %.1f s noise check recommends %s: %s\n"
		       : "  design      %s, as given; the %.1f s noise check recommends %s: %s\n",
		    c->design_methods ? c->design_methods : "(not recorded)", n->duration_s,
		    n->design, n->why);
	for (size_t i = 0; i < d->n_rechecks; i++) {
		const struct bs_duet_noise_event *e = &d->rechecks[i];

		fprintf(f,
			md ? "- noise check before run %d: %s: %s\n"
			   : "  re-check    before run %d: %s: %s\n",
			e->before_run, e->rec.design, e->rec.why);
	}
}

/*
 * What the run recorded of its own failings, as the run report shows them:
 * the lost-record counters of END when records were lost, END's warnings
 * and the warning events.
 */
static void records_lines(FILE *f, const struct bs_dataset *ds, bool md)
{
	const struct bs_run_end *e = &ds->run_end;
	char list[1024];

	if (bs_run_end_lost_total(e) > 0)
		fprintf(f,
			md ? "- lost: %" PRIu64 " records (%s)\n"
			   : "  lost        %" PRIu64 " records (%s)\n",
			bs_run_end_lost_total(e), bs_run_end_lost_list(e, list, sizeof(list)));
	for (size_t i = 0; i < e->n_warnings; i++)
		fprintf(f, md ? "- warning: %s\n" : "  warning     %s\n", e->warnings[i]);
	for (size_t i = 0; i < ds->run_ev.n_warnings; i++)
		fprintf(f, md ? "- warning: %s\n" : "  warning     %s\n", ds->run_ev.warnings[i]);
}

/* the regression gate (--fail-on-regression, given or recorded) and its result */
static void gate_line(FILE *f, const struct bs_duet_ctx *c, bool md)
{
	const struct bs_duet_outcome *o = c->oc;

	if (!o || !o->gate)
		return;
	if (o->regressed)
		fprintf(f,
			md ? "- regression: gate %g %%: REGRESSION: %s\n"
			   : "  regression  gate %g %%: REGRESSION: %s\n",
			o->gate_pct, o->regression);
	else
		fprintf(f,
			md ? "- regression: gate %g %%: passed (no headline verdict has B slower "
			     "by more than %g %% with the CI excluding it)\n"
			   : "  regression  gate %g %%: passed (no headline verdict has B slower "
			     "by more than %g %% with the CI excluding it)\n",
			o->gate_pct, o->gate_pct);
}

/*
 * The --stop-ci rule: its last recorded decision, and whether every recorded
 * decision is what the trace gives again (ctx->stops).
 */
static void stop_line(FILE *f, const struct bs_duet_ctx *c, bool md)
{
	const struct bs_duet_data *d = c->d;
	const struct bs_duet_stop_event *last;
	size_t n_model = 0, n_differ = 0, first = 0, n_undecided = 0;

	if (!d->n_stops || !c->stops)
		return;
	last = &d->stops[d->n_stops - 1];
	for (size_t i = 0; i < d->n_stops; i++) {
		n_undecided += !d->stops[i].decided;
		if (!d->stops[i].has_model || !d->stops[i].decided)
			continue;
		n_model++;
		if (!bs_dstop_same(&c->stops[i], &d->stops[i]) && !n_differ++)
			first = i;
	}
	fprintf(f,
		md ? "- stop-ci: width %g on %s, at least %" PRIu64 " runs: %s after run %d (%s)\n"
		   : "  stop-ci     width %g on %s, at least %" PRIu64 " runs: %s after run %d "
		     "(%s)\n",
		last->threshold, bs_dmethod_name(last->method), last->min_runs,
		last->stop ? "stopped" : "went on", last->after_run,
		last->reason ? last->reason : "no reason recorded");
	if (n_undecided)
		fprintf(f,
			md ? "- stop-ci: %zu checks reached no decision when recorded (not "
			     "re-decided)\n"
			   : "  stop-ci     %zu checks reached no decision when recorded (not "
			     "re-decided)\n",
			n_undecided);
	if (n_model + n_undecided < d->n_stops)
		fprintf(f,
			md ? "- stop-ci: %zu decisions recorded on the bootstrap CI of an older "
			     "benchscope (not re-decided)\n"
			   : "  stop-ci     %zu decisions recorded on the bootstrap CI of an older "
			     "benchscope (not re-decided)\n",
			d->n_stops - n_model - n_undecided);
	if (!n_model)
		return;
	if (!n_differ) {
		fprintf(f,
			md ? "- stop-ci: the %zu decisions re-decided from this trace agree\n"
			   : "  stop-ci     the %zu decisions re-decided from this trace agree\n",
			n_model);
		return;
	}
	fprintf(f,
		md ? "- warning: %zu of %zu stop-ci decisions differ when re-decided from this "
		     "trace (after run %d: recorded %s at width %.6g, now %s at %.6g)\n"
		   : "  warning     %zu of %zu stop-ci decisions differ when re-decided from this "
		     "trace (after run %d: recorded %s at width %.6g, now %s at %.6g)\n",
		n_differ, n_model, d->stops[first].after_run,
		d->stops[first].stop ? "stop" : "continue", d->stops[first].width,
		c->stops[first].stop ? "stop" : "continue", c->stops[first].width);
}

int bs_duet_render_table(FILE *f, const struct bs_duet_ctx *c, bool md)
{
	const struct bs_duet_data *d = c->d;
	const struct bs_duet_analysis *a = c->a;
	size_t per[BS_DM_N] = {0};
	char ilv[48] = "";

	for (size_t b = 0; b < d->n_benches; b++)
		for (int m = 0; m < BS_DM_N; m++)
			if (d->benches[b].n_runs[m] > per[m])
				per[m] = d->benches[b].n_runs[m];
	if (md)
		fprintf(f, "# Duet report: %s\n\n", d->benchmark[0] ? d->benchmark : "benchmark");
	else
		fprintf(f, "Duet %s%s\n", d->benchmark[0] ? d->benchmark : "benchmark",
			d->aa ? "  (A/A test: A and B are the same command)" : "");
	fprintf(f, md ? "- source: %s\n" : "  source      %s\n", d->source);
	{
		const struct bs_duet_context *ctx = &d->ctx;

		/* a member missing beside the kernel prints as printf prints NULL */
		if (ctx->kernel) {
			char ncpus[24];

			snprintf(ncpus, sizeof(ncpus), "%" PRId64, ctx->ncpus);
			fprintf(f,
				md ? "- machine: kernel %s, %s, %s CPUs, hypervisor %s\n"
				   : "  machine     kernel %s, %s, %s CPUs, hypervisor %s\n",
				ctx->kernel, ctx->cpu_model ? ctx->cpu_model : "(null)",
				ctx->has_ncpus ? ncpus : "(null)",
				ctx->hypervisor ? ctx->hypervisor : "not recorded");
		}
		if (ctx->degraded[0])
			fprintf(f, md ? "- degraded: %s\n" : "  degraded    %s\n", ctx->degraded);
	}
	boundaries_line(f, &c->ds->run_ctx, md);
	if (md && d->aa)
		fprintf(f, "- A/A test: A and B are the same command\n");
	if (per[BS_DM_ILV])
		snprintf(ilv, sizeof(ilv), ", interleaved %zu", per[BS_DM_ILV]);
	fprintf(f,
		md ? "- runs: %zu of %zu used (seq %zu, sync %zu, async %zu%s); %zu failed\n"
		   : "  runs        %zu of %zu used (seq %zu, sync %zu, async %zu%s); %zu failed\n",
		d->runs_ok, d->runs_total, per[BS_DM_SEQ], per[BS_DM_SYNC], per[BS_DM_ASYNC], ilv,
		d->n_failed);
	design_lines(f, d, md);
	fprintf(
	    f,
	    md ? "- pairing: seq, sync and interleaved pair iteration j with j; async pairs "
		 "overlap_rate > %g%s\n"
	       : "  pairing     seq, sync, interleaved: iteration j with j; async: overlap_rate > "
		 "%g%s\n",
	    a->opts.min_overlap,
	    a->opts.drop_warmup_half ? "; first half of each run dropped" : "");
	fprintf(
	    f,
	    md ? "- verdict: one ratio of 20 %% trimmed mean paired scores per run, a version "
		 "term and %s, Student t interval; MDS: the A/A-equivalent\n"
	       : "  verdict     one ratio of 20 %% trimmed mean paired scores per run, a version "
		 "term and %s, Student t interval; MDS: the A/A-equivalent\n",
	    a->opts.no_cpu ? "no CPU terms" : "a term per CPU the sides ran on");
	if (d->n_calibration)
		fprintf(f,
			md ? "- %zu calibration runs of the harness excluded\n"
			   : "  removed     %zu calibration runs of the harness\n",
			d->n_calibration);
	if (d->n_unmatched)
		fprintf(f,
			md ? "- %zu iterations outside the runs used (failed runs, incomplete)\n"
			   : "  left out    %zu iterations outside the runs used (failed runs, "
			     "incomplete)\n",
			d->n_unmatched);
	if (d->n_no_time)
		fprintf(
		    f,
		    md ? "- %zu iterations of 0 ns: no score, the verdict leaves their pairs out "
			 "(the comparison tests keep them)\n"
		       : "  left out    %zu iterations of 0 ns: no score, the verdict leaves their "
			 "pairs out (the comparison tests keep them)\n",
		    d->n_no_time);
	if (d->n_bench_mismatch)
		fprintf(
		    f,
		    md ? "- warning: %zu runs where A and B ran a different number of benchmarks\n"
		       : "  warning     %zu runs where A and B ran a different number of "
			 "benchmarks\n",
		    d->n_bench_mismatch);
	for (size_t i = 0; i < d->n_failed; i++)
		fprintf(f, md ? "- failed run %d (%s): %s\n" : "  failed      run %d (%s): %s\n",
			d->failed[i].run, bs_dmethod_name(d->failed[i].method),
			d->failed[i].reason);
	records_lines(f, c->ds, md);
	stop_line(f, c, md);
	gate_line(f, c, md);
	for (size_t b = 0; b < a->n; b++)
		bench_block(f, c, &a->b[b], md);
	if (!a->n)
		fprintf(f, "\n  no benchmark has a run with iterations on both sides\n");
	noise_block(f, c, md);
	return ferror(f) ? -EIO : 0;
}
