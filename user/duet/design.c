// SPDX-License-Identifier: MIT
/* design.c - the duet's noise check and --method auto (duet/design.h). */
#include "duet/design.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "noise/render.h"
#include "probe/caps.h"

/* the methods as text, "async" or "async, seq" */
static void methods_text(const struct bs_duet_setup *s, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < s->n_methods && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
					bs_duet_method_name(s->methods[i]));
}

/* --method auto: the verdict's design becomes the duet's */
static void pick(struct bs_duet_setup *s, struct bs_duet_design *d)
{
	const struct bs_noise_verdict *v = &d->verdict;

	s->n_methods = 1;
	if (v->design == BS_NOISE_PARALLEL) {
		s->methods[0] = BS_DM_RUN_ASYNC;
		s->crossover = true;
		bs_duet_cpus_pair(v->cpu_a, v->cpu_b, &s->cpus);
		snprintf(d->why, sizeof(d->why),
			 "async on CPUs %d and %d, exchanged in half the runs (--crossover): %s",
			 v->cpu_a, v->cpu_b, v->why);
	} else {
		s->methods[0] = BS_DM_RUN_ILV;
		s->crossover = false;
		memset(&s->cpus, 0, sizeof(s->cpus));
		bs_duet_cpus_pair(v->cpu_a, v->cpu_a, &s->ilv_cpus);
		snprintf(d->why, sizeof(d->why), "interleaved on CPU %d: %s", v->cpu_a, v->why);
	}
	d->picked = true;
}

/* the check with d->opts into d->noise / d->verdict */
static int check(struct bs_duet_design *d, char *err, size_t errlen)
{
	int rc = bs_noise_check(&d->opts, &d->noise, err, errlen);
	char hv[64];

	if (rc)
		return rc;
	if (bs_noise_judge(d->noise.cpus, d->noise.n, bs_hypervisor_guest(hv, sizeof(hv)),
			   &d->verdict)) {
		snprintf(err, errlen,
			 "the noise check got too few loop samples to judge (give a "
			 "longer --noise-check)");
		return -EINVAL;
	}
	return 0;
}

int bs_duet_design_check(const struct bs_duet_args *a, struct bs_duet_setup *s,
			 struct bs_duet_design *d, char *err, size_t errlen)
{
	char why[256];
	int rc;

	memset(d, 0, sizeof(*d));
	err[0] = 0;
	if (a->noise_s <= 0)
		return 0; /* bs_duet_setup refused auto without a check */
	d->opts.duration_s = a->noise_s;
	d->opts.progress = !a->quiet;
	d->opts.cpus_set = true;
	if (s->cpus.set) {
		CPU_OR(&d->opts.cpus, &s->cpus.cpus[0], &s->cpus.cpus[1]);
	} else if (sched_getaffinity(0, sizeof(d->opts.cpus), &d->opts.cpus)) {
		rc = -errno;
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		return rc;
	}
	rc = check(d, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "noise check: %s", why);
		return rc;
	}
	d->checked = true;
	if (!s->auto_pick)
		return 0;
	pick(s, d);
	return bs_duet_setup_plan(a, s, err, errlen);
}

void bs_duet_design_json(const struct bs_duet_design *d, const struct bs_duet_setup *s,
			 json_object *duet)
{
	json_object *o = json_object_new_object();
	char m[64];

	methods_text(s, m, sizeof(m));
	json_object_object_add(o, "picked_by",
			       json_object_new_string(d->picked ? "auto" : "option"));
	json_object_object_add(o, "methods", json_object_new_string(m));
	json_object_object_add(o, "why", d->picked ? json_object_new_string(d->why) : NULL);
	json_object_object_add(duet, "design", o);
	if (d->checked)
		json_object_object_add(duet, "noise_check",
				       bs_noise_render_json(&d->noise, &d->verdict));
}

json_object *bs_duet_design_recheck(const struct bs_duet_design *d, size_t before_run, char *err,
				    size_t errlen)
{
	struct bs_duet_design again;
	json_object *ev = NULL;
	cpu_set_t mine, wide;
	bool moved = false;

	memset(&again, 0, sizeof(again));
	again.opts = d->opts; /* its progress line too: the runs' line is cleared meanwhile */
	/* benchscope may keep off the sides' CPUs meanwhile: the check needs them */
	if (sched_getaffinity(0, sizeof(mine), &mine) == 0) {
		CPU_OR(&wide, &mine, &d->opts.cpus);
		moved = !CPU_EQUAL(&wide, &mine) && sched_setaffinity(0, sizeof(wide), &wide) == 0;
	}
	if (check(&again, err, errlen) == 0) {
		ev = json_object_new_object();
		json_object_object_add(ev, "kind", json_object_new_string("noise_check"));
		json_object_object_add(ev, "before_run",
				       json_object_new_int64((int64_t)before_run));
		json_object_object_add(ev, "check",
				       bs_noise_render_json(&again.noise, &again.verdict));
	}
	if (moved)
		sched_setaffinity(0, sizeof(mine), &mine);
	bs_duet_design_free(&again);
	return ev;
}

void bs_duet_design_free(struct bs_duet_design *d)
{
	bs_noise_verdict_free(&d->verdict);
	bs_noise_result_free(&d->noise);
}
