// SPDX-License-Identifier: MIT
/* render.c - the noise check's report (noise/render.h). */
#include "noise/render.h"

#include <stdlib.h>
#include <string.h>

#include "util/table.h"

#define NCOL 12

void bs_noise_render_text(FILE *f, const struct bs_noise_result *r,
			  const struct bs_noise_verdict *v)
{
	static const char *const head[NCOL] = {"cpu",	   "alone",    "alone p95", "all busy",
					       "coupling", "busy p95", "run-queue", "irq",
					       "softirq",  "steal",    "ticks/s",   "verdict"};
	static const int right[NCOL] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
	struct bs_table_style st = {.indent = "  "};
	char(*cell)[48] = calloc(r->n * NCOL + 1, sizeof(*cell));
	const char **cells = calloc(r->n * NCOL + 1, sizeof(*cells));

	fprintf(f,
		"Noise check: a %.2f ms loop on each CPU alone, then on all %zu at once (%.0f s)\n",
		r->loop_ns / 1e6, r->n, r->duration_s);
	if (!cell || !cells) {
		free(cell);
		free(cells);
		return;
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct bs_noise_cpu *c = &r->cpus[i];
		char(*x)[48] = &cell[i * NCOL];

		snprintf(x[0], 48, "%d", c->cpu);
		snprintf(x[1], 48, "%.3f ms", c->alone.median_ns / 1e6);
		snprintf(x[2], 48, "%.2fx", c->alone.p95_ns / c->alone.median_ns);
		snprintf(x[3], 48, "%.3f ms", c->busy.median_ns / 1e6);
		snprintf(x[4], 48, "%.2fx", c->coupling);
		snprintf(x[5], 48, "%.2fx", c->busy.p95_ns / c->busy.median_ns);
		snprintf(x[6], 48, "%.2f %%", c->busy.runq_pct);
		snprintf(x[7], 48, "%.2f %%", c->busy.irq_pct);
		snprintf(x[8], 48, "%.2f %%", c->busy.softirq_pct);
		snprintf(x[9], 48, "%.2f %%", c->busy.steal_pct);
		snprintf(x[10], 48, "%.0f", c->busy.ticks_per_s);
		snprintf(x[11], 48, "%s%s", c->coupled ? "coupled" : "independent",
			 c->unsteady ? ", unsteady" : "");
		for (size_t k = 0; k < NCOL; k++)
			cells[i * NCOL + k] = x[k];
	}
	bs_table_print(f, head, cells, r->n, NCOL, right, &st);
	free(cell);
	free(cells);
	fprintf(f, "  (alone, all busy: median loop time; p95: 95 %% quantile / median; "
		   "coupling: all busy / alone; run-queue: the loop's wait for the CPU, irq, "
		   "softirq, steal: %% of the all-busy phase)\n");
	for (size_t i = 0; i < v->n_pairs; i++) {
		const struct bs_noise_pair *p = &v->pairs[i];

		fprintf(f, "  CPUs %d and %d: %s, %s (%.2fx apart with all busy)\n",
			r->cpus[p->i].cpu, r->cpus[p->j].cpu,
			p->independent ? "independent" : "coupled",
			p->same_speed ? "same speed" : "different speeds", p->speed_ratio);
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct bs_noise_phase *b = &r->cpus[i].busy;

		if (b->kacct)
			fprintf(f,
				"  CPU %d, the kernel's accounting of the loop (BPF), all busy: "
				"preempted %.2f %%, irq %.2f %%, softirq %.2f %%, steal %.2f %% of "
				"its time\n",
				r->cpus[i].cpu, b->loop_preempted_pct, b->loop_irq_pct,
				b->loop_softirq_pct, b->loop_steal_pct);
		for (size_t k = 0; k < r->cpus[i].n_tasks; k++) {
			const struct bs_noise_task *t = &r->cpus[i].tasks[k];

			if (r->kacct)
				fprintf(f,
					"  CPU %d: %s (pid %d) ran while the loop waited, %.1f %% "
					"of the time\n",
					r->cpus[i].cpu, t->comm, t->pid, t->pct);
			else
				fprintf(f,
					"  other task on CPU %d: %s (pid %d) %.1f %% of the time\n",
					r->cpus[i].cpu, t->comm, t->pid, t->pct);
		}
	}
	if (!r->kacct)
		fprintf(f,
			"  (no BPF accounting of the loops: %s; other tasks are those that used "
			"CPU time meanwhile, from /proc)\n",
			r->kacct_why[0] ? r->kacct_why : "not available");
	else if (r->kacct_lost)
		fprintf(f, "  (%llu loop records lost: the BPF figures miss them)\n",
			(unsigned long long)r->kacct_lost);
	if (v->design == BS_NOISE_PARALLEL)
		fprintf(f,
			"  recommendation: a parallel duet on CPUs %d and %d (--cpus A=%d,B=%d "
			"--crossover): %s\n",
			v->cpu_a, v->cpu_b, v->cpu_a, v->cpu_b, v->why);
	else
		fprintf(f,
			"  recommendation: both sides on CPU %d (--method interleaved --cpus "
			"A=%d,B=%d): %s\n",
			v->cpu_a, v->cpu_a, v->cpu_a, v->why);
	if (v->held_back)
		fprintf(f,
			"  (to run the sides in parallel anyway, twice as fast: --method async "
			"--crossover --cpus A=%d,B=%d)\n",
			v->held_a, v->held_b);
}

static json_object *phase_json(const struct bs_noise_phase *p)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "samples", json_object_new_int64((int64_t)p->n));
	json_object_object_add(o, "median_ns", json_object_new_double(p->median_ns));
	json_object_object_add(o, "p95_ns", json_object_new_double(p->p95_ns));
	json_object_object_add(o, "cv", json_object_new_double(p->cv));
	json_object_object_add(o, "runq_pct", json_object_new_double(p->runq_pct));
	json_object_object_add(o, "irq_pct", json_object_new_double(p->irq_pct));
	json_object_object_add(o, "softirq_pct", json_object_new_double(p->softirq_pct));
	json_object_object_add(o, "steal_pct", json_object_new_double(p->steal_pct));
	json_object_object_add(o, "ticks_per_s", json_object_new_double(p->ticks_per_s));
	if (p->kacct) {
		json_object *l = json_object_new_object();

		json_object_object_add(l, "preempted_pct",
				       json_object_new_double(p->loop_preempted_pct));
		json_object_object_add(l, "irq_pct", json_object_new_double(p->loop_irq_pct));
		json_object_object_add(l, "softirq_pct",
				       json_object_new_double(p->loop_softirq_pct));
		json_object_object_add(l, "steal_pct", json_object_new_double(p->loop_steal_pct));
		json_object_object_add(o, "loop", l);
	}
	return o;
}

json_object *bs_noise_render_json(const struct bs_noise_result *r, const struct bs_noise_verdict *v)
{
	json_object *o = json_object_new_object(), *cpus = json_object_new_array(),
		    *pairs = json_object_new_array(), *rec = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "kind", json_object_new_string("noise_check"));
	json_object_object_add(o, "loop_ns", json_object_new_double(r->loop_ns));
	json_object_object_add(o, "duration_s", json_object_new_double(r->duration_s));
	json_object_object_add(o, "accounting", json_object_new_string(r->kacct ? "bpf" : "proc"));
	if (!r->kacct)
		json_object_object_add(o, "accounting_why", json_object_new_string(r->kacct_why));
	else
		json_object_object_add(o, "accounting_lost",
				       json_object_new_int64((int64_t)r->kacct_lost));
	for (size_t i = 0; i < r->n; i++) {
		const struct bs_noise_cpu *c = &r->cpus[i];
		json_object *x = json_object_new_object(), *tasks = json_object_new_array();

		json_object_object_add(x, "cpu", json_object_new_int(c->cpu));
		json_object_object_add(x, "alone", phase_json(&c->alone));
		json_object_object_add(x, "busy", phase_json(&c->busy));
		json_object_object_add(x, "coupling", json_object_new_double(c->coupling));
		json_object_object_add(x, "coupled", json_object_new_boolean(c->coupled));
		json_object_object_add(x, "unsteady", json_object_new_boolean(c->unsteady));
		for (size_t k = 0; k < c->n_tasks; k++) {
			json_object *t = json_object_new_object();

			json_object_object_add(t, "comm", json_object_new_string(c->tasks[k].comm));
			json_object_object_add(t, "pid", json_object_new_int(c->tasks[k].pid));
			json_object_object_add(t, "pct", json_object_new_double(c->tasks[k].pct));
			json_object_array_add(tasks, t);
		}
		json_object_object_add(x, "other_tasks", tasks);
		json_object_array_add(cpus, x);
	}
	json_object_object_add(o, "cpus", cpus);
	for (size_t i = 0; i < v->n_pairs; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(x, "cpus", json_object_new_array_ext(2));
		json_object_array_add(json_object_object_get(x, "cpus"),
				      json_object_new_int(r->cpus[v->pairs[i].i].cpu));
		json_object_array_add(json_object_object_get(x, "cpus"),
				      json_object_new_int(r->cpus[v->pairs[i].j].cpu));
		json_object_object_add(x, "speed_ratio",
				       json_object_new_double(v->pairs[i].speed_ratio));
		json_object_object_add(x, "independent",
				       json_object_new_boolean(v->pairs[i].independent));
		json_object_object_add(x, "same_speed",
				       json_object_new_boolean(v->pairs[i].same_speed));
		json_object_array_add(pairs, x);
	}
	json_object_object_add(o, "pairs", pairs);
	json_object_object_add(rec, "design",
			       json_object_new_string(bs_noise_design_name(v->design)));
	json_object_object_add(rec, "cpu_a", json_object_new_int(v->cpu_a));
	json_object_object_add(rec, "cpu_b", json_object_new_int(v->cpu_b));
	json_object_object_add(rec, "why", json_object_new_string(v->why));
	json_object_object_add(rec, "parallel_held_back", json_object_new_boolean(v->held_back));
	json_object_object_add(o, "recommendation", rec);
	return o;
}
