// SPDX-License-Identifier: MIT
/* report_doc.c - content of the human report (see report_doc.h). */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/context.h"
#include "report/lines_check.h"
#include "report/report_doc.h"
#include "util/units.h"

#define MAX_PROC_ROWS 20

/* A string of a block, "n/a" when absent. */
static const char *na(const char *s)
{
	return s ? s : "n/a";
}

/* The harness command line (CONTEXT "command", words joined by spaces), "n/a" when absent. */
static char *command_line(const struct bs_run_context *c)
{
	size_t len = 1;
	char *s;

	if (!c->command)
		return strdup("n/a");
	for (size_t i = 0; i < c->n_command; i++)
		len += strlen(c->command[i]) + 1;
	s = calloc(1, len);
	for (size_t i = 0; s && i < c->n_command; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, c->command[i]);
	}
	return s;
}

/* "shard       I/N: k of M benchmarks (names...)", the names cut at ~200 characters. */
static void shard_line(struct bs_doc *doc, const struct bs_shard_info *sh)
{
	char names[256] = "";
	size_t used = 0, i;

	for (i = 0; i < sh->n_benchmarks && used < 200; i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
					 sh->benchmarks[i]);
	if (used >= sizeof(names))
		used = sizeof(names) - 1;
	if (i < sh->n_benchmarks)
		snprintf(names + used, sizeof(names) - used, ", ...");
	bs_doc_line(doc, "shard       %" PRId64 "/%" PRId64 ": %zu of %" PRId64 " benchmarks%s%s%s",
		    sh->index, sh->count, sh->n_benchmarks, sh->listed,
		    sh->n_benchmarks ? " (" : "", names, sh->n_benchmarks ? ")" : "");
}

static void run_section(struct bs_doc *doc, const struct bs_dataset *ds,
			const struct bs_run_summary *s)
{
	const struct bs_run_context *c = &ds->run_ctx;
	char t1[160], t2[32], t3[32], ncpus[24];

	bs_doc_text(doc, "Run");
	bs_doc_line(doc, "trace       %s%s", ds->path ? ds->path : "n/a",
		    ds->truncated ? " (truncated: its writer did not finish it)" : "");
	bs_doc_line(doc, "boundaries  %s: begin %s, end %s", na(c->boundaries_kind),
		    na(c->boundaries_begin), na(c->boundaries_end));
	if (c->probes > 0)
		bs_doc_line(doc, "probes      %" PRId64 " per iteration (%s)", c->probes,
			    na(c->probes_choice));
	if (c->ncpus >= 0)
		snprintf(ncpus, sizeof(ncpus), "%" PRId64, c->ncpus);
	bs_doc_line(doc, "machine     %s, kernel %s, %s, %s CPUs%s%s", na(c->hostname),
		    na(c->kernel), na(c->cpu_model), c->ncpus >= 0 ? ncpus : "n/a",
		    c->hypervisor ? ", hypervisor " : "", c->hypervisor ? c->hypervisor : "");
	if (bs_run_context_degraded(c, t1, sizeof(t1)))
		bs_doc_line(doc, "degraded    %s", t1);
	bs_doc_line(doc, "clock       %s, started %s", na(c->clock), na(c->started_at));
	if (c->shard.present)
		shard_line(doc, &c->shard);
	if (c->has_probe_cost)
		bs_doc_line(doc, "probe cost  %s per iteration (begin %s, end %s; %s)",
			    bs_fmt_ns(s->probe_cost_ns, t1, sizeof(t1)),
			    bs_fmt_ns(c->probe_cost_begin_ns, t2, sizeof(t2)),
			    bs_fmt_ns(c->probe_cost_end_ns, t3, sizeof(t3)),
			    na(c->probe_cost_method));
	else
		bs_doc_line(doc, "probe cost  n/a");
	bs_doc_line(doc, "tool        %s %s, trace format %u.%u", na(c->tool), na(c->version),
		    ds->version >> 16, ds->version & 0xffff);
}

/* Cells of one statistics row: n, mean, sd, CV, median, min, max, trim mean. */
static void stats_row(struct bs_doc *doc, const char *label, const struct bs_summary *m)
{
	char c[8][32];
	const char *cells[9] = {label, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]};

	snprintf(c[0], sizeof(c[0]), "%zu", m->n);
	bs_fmt_ns(m->mean, c[1], sizeof(c[1]));
	bs_fmt_ns(m->sd, c[2], sizeof(c[2]));
	bs_fmt_pct(m->cv, c[3], sizeof(c[3]));
	bs_fmt_ns(m->median, c[4], sizeof(c[4]));
	bs_fmt_ns(m->min, c[5], sizeof(c[5]));
	bs_fmt_ns(m->max, c[6], sizeof(c[6]));
	bs_fmt_ns(m->mean_trimmed, c[7], sizeof(c[7]));
	bs_doc_row(doc, cells);
}

static void iterations_section(struct bs_doc *doc, const struct bs_run_summary *s)
{
	const struct bs_group_summary *o = &s->overall;
	char title[96];

	snprintf(title, sizeof(title), "Iterations: %zu in %zu process%s", o->n_iters, s->n_procs,
		 s->n_procs == 1 ? "" : "es");
	if (!o->has_duration) {
		bs_doc_text(doc, title);
		bs_doc_line(doc, "no iteration to summarise");
		return;
	}
	bs_doc_table(doc, title, "\t>n\t>mean\t>sd\t>CV\t>median\t>min\t>max\t>trim mean");
	stats_row(doc, "duration", &o->duration);
	if (o->has_per_op) {
		stats_row(doc, "time/op", &o->per_op);
		bs_doc_note(doc,
			    "time/op = duration / invocations (%" PRIu64 " invocations); "
			    "trim mean = mean without the fastest and the slowest",
			    o->invocations);
	} else {
		bs_doc_note(doc, "trim mean = mean without the fastest and the slowest");
	}
}

static void procs_section(struct bs_doc *doc, const struct bs_run_summary *s)
{
	size_t shown = s->n_procs < MAX_PROC_ROWS ? s->n_procs : MAX_PROC_ROWS;

	if (s->n_procs < 2 || s->n_procs == s->overall.n_iters)
		return; /* one process, or one iteration per process */
	bs_doc_table(doc, "Per process", "pid\tcomm\t>n\t>mean\t>CV\t>median\t>min\t>time/op");
	for (size_t i = 0; i < shown; i++) {
		const struct bs_group_summary *g = &s->procs[i];
		char c[7][32];
		const char *cells[8] = {c[0], g->comm, c[1], c[2], c[3], c[4], c[5], c[6]};

		if (g->inst) /* a later process that reused the pid: pid/instance */
			snprintf(c[0], sizeof(c[0]), "%" PRIu32 "/%" PRIu32, g->pid, g->inst);
		else
			snprintf(c[0], sizeof(c[0]), "%" PRIu32, g->pid);
		snprintf(c[1], sizeof(c[1]), "%zu", g->n_iters);
		bs_fmt_ns(g->duration.mean, c[2], sizeof(c[2]));
		bs_fmt_pct(g->duration.cv, c[3], sizeof(c[3]));
		bs_fmt_ns(g->duration.median, c[4], sizeof(c[4]));
		bs_fmt_ns(g->duration.min, c[5], sizeof(c[5]));
		bs_fmt_ns(g->has_per_op ? g->per_op.mean : NAN, c[6], sizeof(c[6]));
		bs_doc_row(doc, cells);
	}
	if (shown < s->n_procs)
		bs_doc_note(doc, "%zu more processes in the JSON export", s->n_procs - shown);
}

static void benches_section(struct bs_doc *doc, const struct bs_run_summary *s, bool imported)
{
	bool named = false;

	if (!s->n_benches)
		return;
	for (size_t i = 0; i < s->n_benches; i++)
		named |= s->benches[i].name != NULL;
	bs_doc_table(doc,
		     named ? "Per benchmark (the harness's measurement runs, in run order)"
			   : "Per benchmark (Google Benchmark repetitions, in run order)",
		     "benchmark\t>runs\t>invocations/run\t>time/op\t>sd\t>CV\t>median\t>min\t>max");
	for (size_t i = 0; i < s->n_benches; i++) {
		const struct bs_group_summary *g = &s->benches[i];
		char c[9][BS_BENCH_NAME_LEN + 8];
		const char *cells[9] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]};

		if (g->name)
			snprintf(c[0], sizeof(c[0]), "%s", g->name);
		else
			snprintf(c[0], sizeof(c[0]), "#%zu", i + 1);
		snprintf(c[1], sizeof(c[1]), "%zu", g->n_iters);
		snprintf(c[2], sizeof(c[2]), "%" PRIu64,
			 g->n_iters ? g->invocations / g->n_iters : 0);
		bs_fmt_ns(g->has_per_op ? g->per_op.mean : NAN, c[3], sizeof(c[3]));
		bs_fmt_ns(g->has_per_op ? g->per_op.sd : NAN, c[4], sizeof(c[4]));
		bs_fmt_pct(g->has_per_op ? g->per_op.cv : NAN, c[5], sizeof(c[5]));
		bs_fmt_ns(g->has_per_op ? g->per_op.median : NAN, c[6], sizeof(c[6]));
		bs_fmt_ns(g->has_per_op ? g->per_op.min : NAN, c[7], sizeof(c[7]));
		bs_fmt_ns(g->has_per_op ? g->per_op.max : NAN, c[8], sizeof(c[8]));
		bs_doc_row(doc, cells);
	}
	if (named && imported)
		bs_doc_note(doc, "time/op statistics over the samples of each benchmark, as named "
				 "in the imported file; its warm-up samples are left out");
	else if (named)
		bs_doc_note(doc, "time/op statistics over the measurement runs of each benchmark, "
				 "named by the harness; its calibration runs are left out");
	else
		bs_doc_note(doc,
			    "time/op statistics over the repetitions of each benchmark; benchmarks "
			    "are told apart by their invocation count, so two consecutive "
			    "benchmarks with the same fixed count merge");
}

static void time_row(struct bs_doc *doc, const char *label, uint64_t ns,
		     const struct bs_interference *t, size_t n)
{
	char c[3][32];
	const char *cells[4] = {label, c[0], c[1], c[2]};

	bs_fmt_ns((double)ns, c[0], sizeof(c[0]));
	bs_fmt_pct(t->wall_ns ? (double)ns / (double)t->wall_ns : NAN, c[1], sizeof(c[1]));
	bs_fmt_ns(n ? (double)ns / (double)n : NAN, c[2], sizeof(c[2]));
	bs_doc_row(doc, cells);
}

static void count_row(struct bs_doc *doc, const char *label, uint64_t count, size_t n)
{
	char c[2][32];
	const char *cells[4] = {label, c[0], "", c[1]};

	snprintf(c[0], sizeof(c[0]), "%" PRIu64, count);
	if (n)
		snprintf(c[1], sizeof(c[1]), "%.2f", (double)count / (double)n);
	else
		snprintf(c[1], sizeof(c[1]), "n/a");
	bs_doc_row(doc, cells);
}

static void interference_section(struct bs_doc *doc, const struct bs_run_summary *s)
{
	const struct bs_interference *t = &s->overall.intf;
	size_t n = s->overall.n_iters;
	char title[128], w[32];

	if (n && !t->n_measured) {
		bs_doc_text(doc, "Interference");
		bs_doc_line(doc, "not measured: the samples were imported from another tool's "
				 "results (flag no_interference)");
		return;
	}
	snprintf(title, sizeof(title), "Interference (sum over %zu iterations, wall time %s)", n,
		 bs_fmt_ns((double)t->wall_ns, w, sizeof(w)));
	bs_doc_table(doc, title, "\t>total\t>share\t>per iteration");
	time_row(doc, "preempted", t->preempted_ns, t, n);
	time_row(doc, "blocked", t->blocked_ns, t, n);
	time_row(doc, "run-queue wait", t->runq_wait_ns, t, n);
	time_row(doc, "hard IRQ", t->irq_ns, t, n);
	time_row(doc, "softirq", t->softirq_ns, t, n);
	time_row(doc, "steal", t->steal_ns, t, n);
	time_row(doc, "sched delay (kernel)", t->sched_delay_ns, t, n);
	count_row(doc, "voluntary switches", t->nvcsw, n);
	count_row(doc, "involuntary switches", t->nivcsw, n);
	count_row(doc, "migrations", t->migrations, n);
	bs_doc_note(doc, "share = total / summed wall time of the iterations; run-queue wait "
			 "includes preempted");
}

static void interferers_section(struct bs_doc *doc, const struct bs_dataset *ds,
				const struct bs_run_summary *s)
{
	enum bs_charge_scope scope = bs_run_context_charge_scope(&ds->run_ctx);
	char title[128], tot[32], left[256];

	snprintf(title, sizeof(title), "Top interferers (%zu of %zu threads, %s in all)", s->n_top,
		 s->n_interferers, bs_fmt_ns((double)s->interferer_ns, tot, sizeof(tot)));
	if (!s->n_top) {
		bs_doc_text(doc, "Top interferers");
		if (s->n_interferers)
			bs_doc_line(doc, "%zu threads, %s in all (none listed: --top 0)",
				    s->n_interferers, tot);
		else
			bs_doc_line(doc, "none recorded");
		if (*bs_run_end_unrecorded_text(&ds->run_end, ds->run_ctx.boundaries_kind, left,
						sizeof(left)))
			bs_doc_line(doc, "%s", left);
		return;
	}
	bs_doc_table(doc, title, "comm\t>pid\t>tid\t>time\t>of all");
	for (size_t i = 0; i < s->n_top; i++) {
		const struct bs_top_interferer *x = &s->top[i];
		char c[4][32];
		const char *cells[5] = {x->comm, c[0], c[1], c[2], c[3]};

		snprintf(c[0], sizeof(c[0]), "%" PRIu32, x->pid);
		snprintf(c[1], sizeof(c[1]), "%" PRIu32, x->tid);
		bs_fmt_ns((double)x->ns, c[2], sizeof(c[2]));
		bs_fmt_pct(x->of_total, c[3], sizeof(c[3]));
		bs_doc_row(doc, cells);
	}
	bs_run_end_unrecorded_text(&ds->run_end, ds->run_ctx.boundaries_kind, left, sizeof(left));
	bs_doc_note(doc,
		    "time = CPU time the thread took while a thread of a measured process "
		    "waited to run, %s; of all = its part of the time in all%s%s",
		    bs_charge_scope_text(scope), *left ? "; " : "", left);
}

static void records_section(struct bs_doc *doc, const struct bs_dataset *ds,
			    const struct bs_run_summary *s)
{
	const struct bs_run_end *e = &ds->run_end;
	char list[1024];

	bs_doc_text(doc, "Records");
	bs_doc_line(doc,
		    "%zu iterations, %zu process events, %zu interferer records, %zu events in %zu "
		    "blocks",
		    ds->n_iters, ds->n_procs, ds->n_interferers, ds->run_ev.n_events, ds->n_blocks);
	if (!s->has_lost) {
		bs_doc_line(doc, "lost: n/a (%s)",
			    e->present ? "no lost counters in END" : "no END block");
		return;
	}
	bs_doc_line(doc, "lost: %" PRIu64 " (%s)", s->lost_total,
		    bs_run_end_lost_list(e, list, sizeof(list)));
	if (e->has_foreign_hits)
		bs_doc_line(doc,
			    "probe hits in other processes running the probed binary: %" PRIu64
			    " (not measured; in the BPF programs' runs below)",
			    e->foreign_hits);
}

static void bpf_section(struct bs_doc *doc, const struct bs_dataset *ds)
{
	const struct bs_run_end *e = &ds->run_end;

	if (!e->n_bpf_stats) {
		bs_doc_text(doc, "BPF programs");
		bs_doc_line(doc, "run time: n/a");
		return;
	}
	bs_doc_table(doc, "BPF programs (BPF_STATS_RUN_TIME)", "program\t>runs\t>total\t>per run");
	for (size_t i = 0; i < e->n_bpf_stats; i++) {
		const struct bs_end_bpf_prog *p = &e->bpf_stats[i];
		/* a missing run time reads as 0 per run, as it always has */
		double ns = isnan(p->run_time_ns) ? 0 : p->run_time_ns;
		char c[3][32];
		const char *cells[4] = {na(p->prog), c[0], c[1], c[2]};

		snprintf(c[0], sizeof(c[0]), "%" PRId64, p->run_cnt);
		bs_fmt_ns(p->run_time_ns, c[1], sizeof(c[1]));
		bs_fmt_ns(p->run_cnt > 0 ? ns / (double)p->run_cnt : NAN, c[2], sizeof(c[2]));
		bs_doc_row(doc, cells);
	}
}

static void harness_section(struct bs_doc *doc, const struct bs_dataset *ds)
{
	const struct bs_run_end *e = &ds->run_end;
	char w[32], pid[24];

	if (e->status.has_pid)
		snprintf(pid, sizeof(pid), "%" PRId64, e->status.pid);
	else
		snprintf(pid, sizeof(pid), "n/a");
	bs_doc_text(doc, "Harness");
	if (!e->status.present && e->stop.present)
		bs_doc_line(doc, "%d forks (see the fork table)", (int)e->stop.forks);
	else if (!e->status.present)
		bs_doc_line(doc, "status: n/a");
	else if (e->status.signaled)
		bs_doc_line(doc, "pid %s killed by signal %d (%s)", pid, (int)e->status.signal,
			    strsignal((int)e->status.signal));
	else if (e->status.exited)
		bs_doc_line(doc, "pid %s exited with status %d", pid, (int)e->status.exit_code);
	else
		bs_doc_line(doc, "pid %s: still running or unknown", pid);
	if (e->interrupted)
		bs_doc_line(doc, "interrupted (Ctrl-C): the harness was stopped");
	bs_doc_line(doc, "wall time of the run: %s", bs_fmt_ns(e->wall_ns, w, sizeof(w)));
}

/* Forks and dynamic reconfiguration (stop_run.h; Laaber et al. 2020 §4). */
static void stop_section(struct bs_doc *doc, const struct bs_run_summary *s)
{
	const struct bs_stop_summary *t = &s->stop;
	char a[32], b[32], c[32], title[128];
	int none = !strcmp(t->criterion, "none");

	if (!t->present)
		return;
	bs_doc_text(doc, none ? "Forks (fixed configuration)"
			      : "Stoppage (dynamic reconfiguration, Laaber et al. 2020)");
	if (none)
		bs_doc_line(doc,
			    "configuration: %zu warmup + %zu measurement iterations x %zu forks",
			    t->wi_max, t->mi, t->f_max);
	else
		bs_doc_line(doc,
			    "criterion %s, threshold %g, window %zu; warmup %zu:%zu, measure %zu, "
			    "forks %zu:%zu",
			    t->criterion, t->threshold, t->window, t->wi_min, t->wi_max, t->mi,
			    t->f_min, t->f_max);
	if (!none) {
		bs_doc_line(doc, "forks used: %zu of %zu:%zu; fork stability %s", t->n_forks,
			    t->f_min, t->f_max,
			    t->forks_stable ? "reached"
			    : t->fork_bound ? "NOT reached (f_max hit: criterion unreachable)"
					    : "not reached");
		bs_doc_line(
		    doc,
		    "warmup stability reached in %zu of %zu forks (mean %.1f warmup iterations)",
		    t->n_forks - t->n_warmup_bound - t->n_short, t->n_forks, t->warmup_mean);
		bs_doc_line(doc, "checkpoints: %zu, computation %s = %s of the run (%s)",
			    t->n_checkpoints, bs_fmt_ns((double)t->compute_ns, a, sizeof(a)),
			    bs_fmt_pct(t->compute_share, b, sizeof(b)),
			    bs_fmt_ns((double)t->wall_ns, c, sizeof(c)));
	} else {
		bs_doc_line(doc, "forks run: %zu; run time %s", t->n_forks,
			    bs_fmt_ns((double)t->wall_ns, c, sizeof(c)));
	}
	if (!t->n_forks)
		return;
	snprintf(title, sizeof(title), "Per fork");
	bs_doc_table(doc, title,
		     "fork\t>pid\t>warmup\twarmup stable\t>measurement\tshort\tended by\t>time");
	for (size_t i = 0; i < t->n_forks; i++) {
		const struct bs_fork_event *f = &t->forks[i];
		char cells[8][32];
		const char *cp[8];

		snprintf(cells[0], 32, "%" PRIu64, f->fork);
		snprintf(cells[1], 32, "%" PRIu64, f->pid);
		snprintf(cells[2], 32, "%" PRIu64, f->warmup_iterations);
		snprintf(cells[3], 32, "%s",
			 none		    ? "n/a"
			 : f->warmup_stable ? "yes"
			 : f->is_short	    ? "no (short)"
					    : "no (wi_max)");
		snprintf(cells[4], 32, "%" PRIu64, f->measurement_iterations);
		snprintf(cells[5], 32, "%s", f->is_short ? "yes" : "no");
		if (!strcmp(f->ended_by, "exit") && f->exit_code > 0)
			snprintf(cells[6], 32, "exit %d", (int)f->exit_code);
		else if (!strcmp(f->ended_by, "signal") && f->signal > 0)
			snprintf(cells[6], 32, "signal %d", (int)f->signal);
		else
			snprintf(cells[6], 32, "%s%s", f->ended_by, f->killed ? " (SIGKILL)" : "");
		bs_fmt_ns(f->end_ns >= f->start_ns ? (double)(f->end_ns - f->start_ns) : NAN,
			  cells[7], 32);
		for (int k = 0; k < 8; k++)
			cp[k] = cells[k];
		bs_doc_row(doc, cp);
	}
}

static void removed_section(struct bs_doc *doc, const struct bs_run_summary *s)
{
	bs_doc_text(doc, "Removed");
	if (s->n_after_stop)
		bs_doc_line(doc,
			    "%zu iterations excluded: arrived after their fork was ended (flag "
			    "after_stop)",
			    s->n_after_stop);
	if (!s->n_warmup && !s->n_invalid && !s->n_calibration && !s->n_after_stop)
		bs_doc_line(doc, "nothing removed (%zu of %zu iterations summarised)",
			    s->overall.n_iters, s->n_iters_total);
	if (s->n_calibration)
		bs_doc_line(doc,
			    "%zu calibration runs of the harness excluded (the harness sizing its "
			    "runs or warming up before it measures)",
			    s->n_calibration);
	if (s->n_warmup)
		bs_doc_line(doc, "%zu warmup iterations excluded (flag warmup)", s->n_warmup);
	if (s->n_invalid)
		bs_doc_line(doc, "%zu iterations excluded: end before begin", s->n_invalid);
}

static void warnings_section(struct bs_doc *doc, const struct bs_dataset *ds,
			     const struct bs_run_summary *s)
{
	const struct bs_run_end *e = &ds->run_end;
	const struct bs_run_events *ev = &ds->run_ev;

	if (!s->n_warnings && !e->n_warnings && !ev->n_warnings)
		return;
	bs_doc_text(doc, "Warnings");
	for (size_t i = 0; i < s->n_warnings; i++)
		bs_doc_line(doc, "%s", s->warnings[i]);
	for (size_t i = 0; i < e->n_warnings; i++)
		bs_doc_line(doc, "%s", e->warnings[i]);
	for (size_t i = 0; i < ev->n_warnings; i++)
		bs_doc_line(doc, "%s", ev->warnings[i]);
}

struct bs_doc *bs_report_doc_build(const struct bs_dataset *ds, const struct bs_run_summary *s)
{
	char *cmd = command_line(&ds->run_ctx), *title = NULL;
	struct bs_doc *doc;

	if (!cmd || asprintf(&title, "benchscope: %s", cmd) < 0)
		title = NULL;
	free(cmd);
	doc = title ? bs_doc_new(title) : NULL;
	free(title);
	if (!doc)
		return NULL;
	run_section(doc, ds, s);
	iterations_section(doc, s);
	benches_section(doc, s, !strcmp(na(ds->run_ctx.boundaries_kind), "import"));
	bs_lines_check_doc(doc, ds);
	procs_section(doc, s);
	interference_section(doc, s);
	interferers_section(doc, ds, s);
	records_section(doc, ds, s);
	bpf_section(doc, ds);
	harness_section(doc, ds);
	stop_section(doc, s);
	removed_section(doc, s);
	warnings_section(doc, ds, s);
	if (doc->oom) {
		bs_doc_free(doc);
		return NULL;
	}
	return doc;
}
