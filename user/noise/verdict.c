// SPDX-License-Identifier: MIT
/* verdict.c - the noise check's statistics and design recommendation (noise/verdict.h). */
#include "noise/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats_desc.h"

const char *bs_noise_design_name(enum bs_noise_design d)
{
	static const char *const names[] = {"parallel", "one-cpu", "sequential"};

	return (unsigned)d < 3 ? names[d] : "?";
}

static int phase_stats(struct bs_noise_phase *p)
{
	struct bs_summary s;

	if (p->n < 2 || !p->ns)
		return -EINVAL;
	for (size_t i = 0; i < p->n; i++)
		if (!(p->ns[i] > 0))
			return -EINVAL;
	if (bs_summarize(p->ns, p->n, &s) || bs_quantile(p->ns, p->n, 0.95, &p->p95_ns))
		return -ENOMEM;
	p->median_ns = s.median;
	p->cv = s.cv;
	return 0;
}

/* how unsteady a CPU is: the larger p95 / median of its two phases */
static double spread(const struct bs_noise_cpu *c)
{
	return fmax(c->alone.p95_ns / c->alone.median_ns, c->busy.p95_ns / c->busy.median_ns);
}

/* the steadiest CPU: the smallest spread */
static size_t steadiest(const struct bs_noise_cpu *c, size_t n)
{
	size_t best = 0;

	for (size_t i = 1; i < n; i++)
		if (spread(&c[i]) < spread(&c[best]))
			best = i;
	return best;
}

int bs_noise_judge(struct bs_noise_cpu *cpus, size_t n, const char *hypervisor,
		   struct bs_noise_verdict *v)
{
	const struct bs_noise_pair *best = NULL;
	size_t k = 0;

	memset(v, 0, sizeof(*v));
	if (!cpus || !n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		struct bs_noise_cpu *c = &cpus[i];
		int e = phase_stats(&c->alone);

		if (e || (e = phase_stats(&c->busy)))
			return e;
		c->coupling = c->busy.median_ns / c->alone.median_ns;
		c->coupled = c->coupling >= BS_NOISE_COUPLED_RATIO;
		c->unsteady = c->alone.p95_ns / c->alone.median_ns >= BS_NOISE_UNSTEADY_RATIO ||
			      c->busy.p95_ns / c->busy.median_ns >= BS_NOISE_UNSTEADY_RATIO;
	}
	v->n_pairs = n * (n - 1) / 2;
	v->pairs = calloc(v->n_pairs + 1, sizeof(*v->pairs));
	if (!v->pairs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			struct bs_noise_pair *p = &v->pairs[k++];
			double a = cpus[i].busy.median_ns, b = cpus[j].busy.median_ns;

			p->i = i;
			p->j = j;
			p->speed_ratio = a > b ? a / b : b / a;
			p->independent = !cpus[i].coupled && !cpus[j].coupled;
			p->same_speed = p->speed_ratio < BS_NOISE_ASYM_RATIO;
			if (p->independent && p->same_speed && !cpus[i].unsteady &&
			    !cpus[j].unsteady && (!best || p->speed_ratio < best->speed_ratio))
				best = p;
		}
	if (n == 1) {
		v->design = BS_NOISE_SEQUENTIAL;
		v->cpu_a = v->cpu_b = cpus[0].cpu;
		snprintf(v->why, sizeof(v->why), "one CPU: the sides can only take turns on it");
	} else if (best && hypervisor) {
		size_t s = steadiest(cpus, n);

		v->design = BS_NOISE_ONE_CPU;
		v->held_back = true;
		v->held_a = cpus[best->i].cpu;
		v->held_b = cpus[best->j].cpu;
		v->cpu_a = v->cpu_b = cpus[s].cpu;
		snprintf(
		    v->why, sizeof(v->why),
		    "CPUs %d and %d ran at one speed (%.2fx) and independent during the check, "
		    "but under %s the host can slow one vCPU at any moment without the guest "
		    "seeing it; both sides on CPU %d, the steadiest, in turn",
		    v->held_a, v->held_b, best->speed_ratio, hypervisor, cpus[s].cpu);
	} else if (best) {
		v->design = BS_NOISE_PARALLEL;
		v->cpu_a = cpus[best->i].cpu;
		v->cpu_b = cpus[best->j].cpu;
		snprintf(v->why, sizeof(v->why),
			 "CPUs %d and %d run at the same speed (%.2fx) and neither slows when the "
			 "other is busy",
			 v->cpu_a, v->cpu_b, best->speed_ratio);
	} else {
		size_t s = steadiest(cpus, n);
		const struct bs_noise_pair *worst = &v->pairs[0];

		for (size_t i = 1; i < v->n_pairs; i++)
			if (v->pairs[i].speed_ratio > worst->speed_ratio)
				worst = &v->pairs[i];
		v->design = BS_NOISE_ONE_CPU;
		v->cpu_a = v->cpu_b = cpus[s].cpu;
		snprintf(v->why, sizeof(v->why),
			 "no pair of CPUs is both independent and steady at one speed (CPUs %d and "
			 "%d: %.2fx apart with all busy%s%s); both sides on CPU %d, the steadiest",
			 cpus[worst->i].cpu, cpus[worst->j].cpu, worst->speed_ratio,
			 worst->independent ? "" : ", coupled",
			 cpus[worst->i].unsteady || cpus[worst->j].unsteady ? ", unsteady" : "",
			 cpus[s].cpu);
	}
	return 0;
}

void bs_noise_verdict_free(struct bs_noise_verdict *v)
{
	free(v->pairs);
	memset(v, 0, sizeof(*v));
}
