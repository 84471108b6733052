// SPDX-License-Identifier: MIT
/* stop_fsm.c - Algorithm 1 of Laaber et al. 2020 fed one iteration at a time (see stop_fsm.h). */
#include "stop/stop_fsm.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats.h"
#include "util/monotime.h"

struct bs_stop_plan bs_stop_plan_default(int crit)
{
	struct bs_stop_plan p = {.crit = crit,
				 .window = BS_STOP_WINDOW,
				 .wi_min = 5,
				 .wi_max = 50,
				 .mi = 10,
				 .f_min = 2,
				 .f_max = 5,
				 .seed = 1};
	return p;
}

static const char *const crit_names[] = {"none", "cv", "rciw", "kld"};

const char *bs_stop_crit_name(int crit)
{
	return crit >= 0 && crit <= 3 ? crit_names[crit] : NULL;
}

int bs_stop_crit_parse(const char *s)
{
	for (int i = 0; s && i <= 3; i++)
		if (!strcmp(s, crit_names[i]))
			return i;
	return -1;
}

int bs_stop_threshold_parse(const char *s, double *out)
{
	char *e;
	double t = strtod(s, &e);

	if (e == s || *e || !isfinite(t) || t <= 0 || t > 1)
		return -EINVAL;
	*out = t;
	return 0;
}

double bs_stop_plan_threshold(const struct bs_stop_plan *p)
{
	if (p->threshold > 0)
		return p->threshold;
	switch (p->crit) {
	case BS_CRIT_CV:
		return BS_STOP_T_CV;
	case BS_CRIT_RCIW:
		return BS_STOP_T_RCIW;
	case BS_CRIT_KLD:
		return BS_STOP_T_KLD;
	}
	return 0;
}

int bs_stop_plan_check(const struct bs_stop_plan *p, char *err, size_t errlen)
{
	double t = bs_stop_plan_threshold(p);

	if (p->crit < 0 || p->crit > 3)
		snprintf(err, errlen, "unknown stoppage criterion (cv, rciw, kld or none)");
	else if (p->wi_min > p->wi_max)
		snprintf(err, errlen, "--warmup MIN:MAX needs MIN <= MAX (got %zu:%zu)", p->wi_min,
			 p->wi_max);
	else if (p->f_min > p->f_max)
		snprintf(err, errlen, "--forks MIN:MAX needs MIN <= MAX (got %zu:%zu)", p->f_min,
			 p->f_max);
	else if (p->f_min < 1)
		snprintf(err, errlen, "--forks needs at least one fork");
	else if (p->mi < 1)
		snprintf(err, errlen, "--measure needs at least one measurement iteration");
	else if (p->wi_max > BS_STOP_MAX_ITERS || p->mi > BS_STOP_MAX_ITERS)
		snprintf(err, errlen, "at most %d warmup and %d measurement iterations",
			 BS_STOP_MAX_ITERS, BS_STOP_MAX_ITERS);
	else if (p->f_max > BS_STOP_MAX_FORKS)
		snprintf(err, errlen, "at most %d forks", BS_STOP_MAX_FORKS);
	else if (p->window < 1)
		snprintf(err, errlen, "--window needs at least 1");
	else if ((p->crit == BS_CRIT_CV || p->crit == BS_CRIT_RCIW) && p->window < 2)
		snprintf(err, errlen,
			 "--stop %s needs --window >= 2 (got %zu): its stability test is the "
			 "range of >= 2 criterion values",
			 bs_stop_crit_name(p->crit), p->window);
	else if (p->crit && (p->threshold < 0 || !isfinite(t) || t <= 0 || t > 1 ||
			     (p->crit == BS_CRIT_KLD && t >= 1)))
		snprintf(err, errlen, "--threshold %g out of range for %s: %s", t,
			 bs_stop_crit_name(p->crit),
			 p->crit == BS_CRIT_KLD ? "a probability in (0, 1)"
						: "a variability range in (0, 1]");
	else
		return 0;
	return -EINVAL;
}

int bs_stop_fsm_init(struct bs_stop_fsm *f, const struct bs_stop_plan *p)
{
	char err[128];
	int e = 0;

	memset(f, 0, sizeof(*f));
	f->p = *p;
	if (!f->p.window)
		f->p.window = BS_STOP_WINDOW;
	if (bs_stop_plan_check(&f->p, err, sizeof(err)))
		return -EINVAL;
	f->t = bs_stop_plan_threshold(&f->p);
	if (f->p.crit) {
		struct bs_stop_cfg c = {.crit = (enum bs_criterion)f->p.crit,
					.threshold = f->t,
					.window = f->p.window,
					.seed = f->p.seed};

		f->st = bs_stopper_new(&c, &e);
		if (!f->st)
			return e == BS_ENOMEM ? -ENOMEM : -EINVAL;
	}
	f->vcap = (f->p.window > f->p.f_max ? f->p.window : f->p.f_max) + 1;
	f->vec = calloc(f->vcap, sizeof(double));
	f->mcap = f->p.mi;
	f->mx = calloc(f->mcap, sizeof(double));
	if (!f->vec || !f->mx) {
		bs_stop_fsm_free(f);
		return -ENOMEM;
	}
	return 0;
}

void bs_stop_fsm_free(struct bs_stop_fsm *f)
{
	if (!f)
		return;
	bs_stopper_free(f->st);
	free(f->vec);
	free(f->mx);
	memset(f, 0, sizeof(*f));
}

int bs_stop_fsm_fork_begin(struct bs_stop_fsm *f)
{
	if (f->done || f->fork >= f->p.f_max)
		return -EINVAL;
	f->fork++;
	f->wi = f->mi = 0;
	f->warmup_stable = 0;
	f->phase = f->p.wi_max ? BS_PHASE_WARMUP : BS_PHASE_MEASURE;
	if (f->st)
		bs_stopper_next_fork(f->st);
	return 0;
}

int bs_stop_fsm_short(const struct bs_stop_fsm *f)
{
	return f->phase != BS_PHASE_AFTER;
}

/*
 * Fill d with the decision made at a checkpoint of f (a fork checkpoint when
 * fork_cp, else a warmup one): e and stable as the stopper returned them, nv
 * values in f->vec (none on error, and never stable then). Counts the
 * checkpoint in f.
 */
static void decision_make(struct bs_stop_decision *d, struct bs_stop_fsm *f, int fork_cp, int e,
			  size_t nv, int stable)
{
	memset(d, 0, sizeof(*d));
	d->fork_checkpoint = fork_cp;
	d->fork = f->fork;
	d->iteration = f->wi + f->mi;
	d->values = f->vec;
	d->made = 1;
	d->err = e;
	d->n_values = e ? 0 : nv;
	d->stable = !e && stable;
	f->n_checkpoints++;
}

int bs_stop_fsm_iter(struct bs_stop_fsm *f, double v, struct bs_stop_decision *d)
{
	struct bs_stop_decision tmp;
	int phase = f->phase;

	if (!d)
		d = &tmp;
	memset(d, 0, sizeof(*d));
	if (phase == BS_PHASE_AFTER || !f->fork)
		return BS_PHASE_AFTER;
	if (phase == BS_PHASE_MEASURE) {
		f->mx[f->mi++] = v;
		if (f->mi >= f->p.mi)
			f->phase = BS_PHASE_AFTER;
		return phase;
	}
	f->wi++;
	if (f->st) {
		uint64_t t0 = bs_mono_ns();
		size_t nv = 0;
		int stable = 0, e;

		e = bs_stopper_warmup_add(f->st, &v, 1, &stable, f->vec, &nv);
		if (f->wi >= f->p.wi_min)
			decision_make(d, f, 0, e, nv, stable);
		d->compute_ns = bs_mono_ns() - t0;
		f->compute_ns += d->compute_ns;
		if (d->made && d->stable) {
			f->warmup_stable = 1;
			f->phase = BS_PHASE_MEASURE;
		}
	}
	if (f->phase == BS_PHASE_WARMUP && f->wi >= f->p.wi_max) {
		d->bound = d->made;
		f->phase = BS_PHASE_MEASURE;
	}
	return phase;
}

int bs_stop_fsm_fork_end(struct bs_stop_fsm *f, struct bs_stop_decision *d)
{
	struct bs_stop_decision tmp;

	if (!d)
		d = &tmp;
	memset(d, 0, sizeof(*d));
	if (!f->fork)
		return -EINVAL;
	if (f->st && f->mi) {
		uint64_t t0 = bs_mono_ns();
		size_t nv = 0;
		int stable = 0, e;

		e = bs_stopper_fork_add(f->st, f->mx, f->mi, NULL, &stable, f->vec, &nv);
		if (e == BS_ENOMEM)
			return -ENOMEM;
		if (f->fork >= f->p.f_min) {
			decision_make(d, f, 1, e, nv, stable);
			f->forks_stable = d->stable;
			if (d->stable)
				f->done = 1;
		}
		d->compute_ns = bs_mono_ns() - t0;
		f->compute_ns += d->compute_ns;
	}
	if (f->fork >= f->p.f_max) {
		d->bound = d->made && !d->stable;
		f->done = 1;
	}
	return 0;
}
