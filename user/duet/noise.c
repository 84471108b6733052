// SPDX-License-Identifier: MIT
/* noise.c - noise diagnosis of a duet (duet/noise.h). */
#include "duet/noise.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/iter_set.h"

uint64_t bs_duet_iter_lost_ns(const struct bs_iter_rec *r)
{
	return r->runq_wait_ns + r->irq_ns + r->softirq_ns + r->steal_ns;
}

static int cmp_run(const void *x, const void *y)
{
	const struct bs_dnoise_run *a = x, *b = y;

	return (a->run > b->run) - (a->run < b->run);
}

static int cmp_task(const void *x, const void *y)
{
	const struct bs_dnoise_task *a = x, *b = y;
	uint64_t ta = a->ns[0] + a->ns[1], tb = b->ns[0] + b->ns[1];

	if (ta != tb)
		return ta > tb ? -1 : 1;
	return (a->pid > b->pid) - (a->pid < b->pid);
}

const struct bs_dnoise_run *bs_duet_noise_run(const struct bs_duet_noise *n, int run)
{
	for (size_t i = 0; i < n->n_runs; i++)
		if (n->runs[i].run == run)
			return &n->runs[i];
	return NULL;
}

static struct bs_dnoise_run *run_get(struct bs_duet_noise *n, int run, enum bs_dmethod m)
{
	struct bs_dnoise_run *r;

	for (size_t i = 0; i < n->n_runs; i++)
		if (n->runs[i].run == run)
			return &n->runs[i];
	r = realloc(n->runs, (n->n_runs + 1) * sizeof(*r));
	if (!r)
		return NULL;
	n->runs = r;
	r = &r[n->n_runs++];
	memset(r, 0, sizeof(*r));
	r->run = run;
	r->method = m;
	return r;
}

static void add_iter(struct bs_dnoise_side *s, const struct bs_iter_rec *r)
{
	s->n_iters++;
	s->busy_ns += r->end_ns - r->begin_ns;
	s->lost_ns += bs_duet_iter_lost_ns(r);
	s->preempted_ns += r->preempted_ns;
	s->runq_wait_ns += r->runq_wait_ns;
	s->blocked_ns += r->blocked_ns;
	s->irq_ns += r->irq_ns;
	s->softirq_ns += r->softirq_ns;
	s->steal_ns += r->steal_ns;
	s->nivcsw += r->nivcsw;
	s->migrations += r->migrations;
}

static void add_side(struct bs_dnoise_side *to, const struct bs_dnoise_side *s)
{
	to->n_iters += s->n_iters;
	to->busy_ns += s->busy_ns;
	to->lost_ns += s->lost_ns;
	to->preempted_ns += s->preempted_ns;
	to->runq_wait_ns += s->runq_wait_ns;
	to->blocked_ns += s->blocked_ns;
	to->irq_ns += s->irq_ns;
	to->softirq_ns += s->softirq_ns;
	to->steal_ns += s->steal_ns;
	to->nivcsw += s->nivcsw;
	to->migrations += s->migrations;
	to->by_other_ns += s->by_other_ns;
	to->by_own_ns += s->by_own_ns;
	to->by_third_ns += s->by_third_ns;
}

static int add_third(struct bs_duet_noise *n, const struct bs_interferer_rec *r, int side)
{
	struct bs_dnoise_task *t;

	for (size_t i = 0; i < n->n_third; i++)
		if (n->third[i].pid == r->interferer_pid &&
		    !strncmp(n->third[i].comm, r->comm, BS_COMM_LEN)) {
			n->third[i].ns[side] += r->ns;
			return 0;
		}
	t = realloc(n->third, (n->n_third + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	n->third = t;
	t = &t[n->n_third++];
	memset(t, 0, sizeof(*t));
	memcpy(t->comm, r->comm, BS_COMM_LEN);
	t->pid = r->interferer_pid;
	t->ns[side] = r->ns;
	return 0;
}

int bs_duet_noise_build(const struct bs_dataset *ds, const struct bs_duet_data *d,
			struct bs_duet_noise **out)
{
	struct bs_duet_noise *n = calloc(1, sizeof(*n));
	struct bs_iter_set kept = {0};

	*out = NULL;
	if (!n)
		return -ENOMEM;
	n->scope = bs_run_context_charge_scope(&ds->run_ctx);
	for (size_t b = 0; b < d->n_benches; b++)
		for (int m = 0; m < BS_DM_N; m++)
			for (size_t k = 0; k < d->benches[b].n_runs[m]; k++) {
				const struct bs_drun *dr = &d->benches[b].runs[m][k];
				struct bs_dnoise_run *r = run_get(n, dr->run, dr->method);

				if (!r)
					goto nomem;
				for (int s = 0; s < 2; s++)
					for (size_t i = 0; i < dr->side[s].n; i++) {
						const struct bs_iter_rec *it = dr->side[s].rec[i];

						add_iter(&r->side[s], it);
						if (n->scope == BS_CHARGES_ANALYSED &&
						    bs_iter_set_add(&kept, it->pid, it->index))
							goto nomem;
					}
			}
	bs_iter_set_seal(&kept);
	for (size_t i = 0; i < ds->n_interferers; i++) {
		const struct bs_interferer_rec *ir = &ds->interferers[i];
		int by, side, run = bs_duet_data_run_of_pid(d, ir->victim_pid, &side);
		struct bs_dnoise_run *r;

		if (run < 0 || !bs_charge_counts(ir, n->scope, &kept))
			continue;
		r = (struct bs_dnoise_run *)bs_duet_noise_run(n, run);
		if (!r)
			continue; /* a run with no analysed iteration */
		if (ir->ns)
			n->has_interference = true;
		n->charged_ns += ir->ns;
		by = bs_duet_data_side_of(d, run, ir->interferer_pid);
		if (by == 1 - side) {
			r->side[side].by_other_ns += ir->ns;
		} else if (by == side) {
			r->side[side].by_own_ns += ir->ns;
		} else {
			r->side[side].by_third_ns += ir->ns;
			if (!strncmp(ir->comm, BS_DUET_SELF_COMM, BS_COMM_LEN))
				n->self_ns[side] += ir->ns;
			if (add_third(n, ir, side))
				goto nomem;
		}
	}
	if (n->n_runs)
		qsort(n->runs, n->n_runs, sizeof(*n->runs), cmp_run);
	if (n->n_third)
		qsort(n->third, n->n_third, sizeof(*n->third), cmp_task);
	for (size_t i = 0; i < n->n_runs; i++) {
		struct bs_dnoise_run *r = &n->runs[i];
		double sum;

		for (int s = 0; s < 2; s++) {
			r->share[s] = r->side[s].busy_ns
					  ? (double)r->side[s].lost_ns / (double)r->side[s].busy_ns
					  : 0;
			if (r->side[s].lost_ns)
				n->has_interference = true;
			n->busy_ns += r->side[s].busy_ns;
			add_side(&n->method[r->method][s], &r->side[s]);
		}
		sum = r->share[0] + r->share[1];
		r->asym_pp = (r->share[0] - r->share[1]) * 100;
		r->imbalance = sum > 0 ? fabs(r->share[0] - r->share[1]) / sum : 0;
		r->asymmetric = fabs(r->asym_pp) >= BS_DUET_ASYM_MIN_PP &&
				r->imbalance >= BS_DUET_ASYM_MIN_IMBALANCE - 1e-12;
		n->n_asymmetric[r->method] += r->asymmetric;
	}
	bs_iter_set_free(&kept);
	*out = n;
	return 0;
nomem:
	bs_iter_set_free(&kept);
	bs_duet_noise_free(n);
	return -ENOMEM;
}

void bs_duet_noise_free(struct bs_duet_noise *n)
{
	if (!n)
		return;
	free(n->runs);
	free(n->third);
	free(n);
}

double bs_duet_noise_self_share(const struct bs_duet_noise *n)
{
	return n->charged_ns ? (double)(n->self_ns[0] + n->self_ns[1]) / (double)n->charged_ns
			     : NAN;
}
