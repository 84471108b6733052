// SPDX-License-Identifier: MIT
/* replay_core.c - dynamic reconfiguration replayed on recorded forks (see replay_core.h). */
#include "stop/replay_core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "benchscope/stats.h"

int bs_replay_check(const struct bs_replay_fork *forks, size_t n_forks,
		    const struct bs_replay_static *st, char *err, size_t errlen)
{
	if (!st->f || !st->mi) {
		snprintf(err, errlen,
			 "--static needs at least one fork and one measurement iteration");
		return -EINVAL;
	}
	if (n_forks < st->f) {
		snprintf(err, errlen,
			 "the trace holds %zu forks; the static configuration needs %zu (record "
			 "with run --stop none --forks %zu:%zu, or give --static WI:MI:F)",
			 n_forks, st->f, st->f, st->f);
		return -EINVAL;
	}
	for (size_t i = 0; i < st->f; i++)
		if (forks[i].n < st->wi + st->mi) {
			snprintf(err, errlen,
				 "fork %zu holds %zu usable iterations; the static configuration "
				 "needs %zu (%zu warmup + %zu measurement)",
				 i + 1, forks[i].n, st->wi + st->mi, st->wi, st->mi);
			return -EINVAL;
		}
	return 0;
}

void bs_replay_result_free(struct bs_replay_result *r)
{
	if (!r)
		return;
	free(r->warmup);
	free(r->measure);
	free(r->warmup_stable);
	r->warmup = r->measure = NULL;
	r->warmup_stable = NULL;
}

/* Gather the values of fork ranges [off[i], off[i] + cnt[i]) into a hierarchical sample. */
static int gather(const struct bs_replay_fork *forks, size_t nf, const size_t *off,
		  const size_t *cnt, double **x, size_t **n_iters, struct bs_hier *h)
{
	size_t total = 0, k = 0, used = 0;

	for (size_t i = 0; i < nf; i++)
		total += cnt[i];
	*x = malloc((total ? total : 1) * sizeof(double));
	*n_iters = malloc((nf ? nf : 1) * sizeof(size_t));
	if (!*x || !*n_iters)
		return -ENOMEM;
	for (size_t i = 0; i < nf; i++) {
		if (!cnt[i])
			continue;
		memcpy(*x + k, forks[i].v + off[i], cnt[i] * sizeof(double));
		k += cnt[i];
		(*n_iters)[used++] = cnt[i];
	}
	h->x = *x;
	h->n_forks = used;
	h->n_iters = *n_iters;
	h->n_invs = NULL;
	return 0;
}

int bs_replay_run(const struct bs_replay_fork *forks, size_t n_forks,
		  const struct bs_stop_plan *plan, const struct bs_replay_static *st, double level,
		  size_t resamples, uint64_t seed, struct bs_replay_result *out)
{
	struct bs_stop_fsm fsm;
	struct bs_hier hs, hd;
	double *xs = NULL, *xd = NULL;
	size_t *ns = NULL, *nd = NULL, *off_s = NULL, *cnt_s = NULL, *off_d = NULL;
	size_t nf_dyn = plan->f_max < n_forks ? plan->f_max : n_forks;
	gsl_rng *rng = NULL;
	char err[256];
	int rc;

	memset(out, 0, sizeof(*out));
	out->crit = plan->crit;
	if (!plan->crit || bs_replay_check(forks, n_forks, st, err, sizeof(err)))
		return -EINVAL;
	if ((rc = bs_stop_fsm_init(&fsm, plan)))
		return rc;
	out->warmup = calloc(nf_dyn + 1, sizeof(size_t));
	out->measure = calloc(nf_dyn + 1, sizeof(size_t));
	out->warmup_stable = calloc(nf_dyn + 1, sizeof(int));
	off_d = calloc(nf_dyn + 1, sizeof(size_t));
	off_s = calloc(st->f, sizeof(size_t));
	cnt_s = calloc(st->f, sizeof(size_t));
	if (!out->warmup || !out->measure || !out->warmup_stable || !off_d || !off_s || !cnt_s) {
		rc = -ENOMEM;
		goto out;
	}
	/* dynamic: Algorithm 1 over the recorded forks, in order */
	for (size_t f = 0; f < nf_dyn && !fsm.done; f++) {
		size_t i = 0, used;

		bs_stop_fsm_fork_begin(&fsm);
		while (i < forks[f].n && fsm.phase != BS_PHASE_AFTER)
			bs_stop_fsm_iter(&fsm, forks[f].v[i++], NULL);
		used = i;
		out->warmup[f] = fsm.wi;
		out->measure[f] = fsm.mi;
		off_d[f] = fsm.wi;
		out->warmup_stable[f] = fsm.warmup_stable;
		out->n_warmup_stable += fsm.warmup_stable;
		out->n_short += bs_stop_fsm_short(&fsm);
		out->warmup_mean += (double)fsm.wi;
		out->t_dyn_ns += used ? (double)forks[f].cost_ns[used - 1] : 0;
		out->forks_used++;
		if ((rc = bs_stop_fsm_fork_end(&fsm, NULL)))
			goto out;
	}
	out->warmup_mean /= (double)(out->forks_used ? out->forks_used : 1);
	out->forks_stable = fsm.forks_stable;
	out->fork_bound = !fsm.forks_stable && out->forks_used >= plan->f_max;
	out->n_checkpoints = fsm.n_checkpoints;
	out->compute_ns = fsm.compute_ns;
	out->t_dyn_ns += (double)fsm.compute_ns;
	/* static: WI warmup + MI measurement iterations of the first F forks */
	for (size_t f = 0; f < st->f; f++) {
		off_s[f] = st->wi;
		cnt_s[f] = st->mi;
		out->t_static_ns += (double)forks[f].cost_ns[st->wi + st->mi - 1];
	}
	out->saved = out->t_static_ns > 0 ? 1 - out->t_dyn_ns / out->t_static_ns : NAN;
	if ((rc = gather(forks, st->f, off_s, cnt_s, &xs, &ns, &hs)) ||
	    (rc = gather(forks, out->forks_used, off_d, out->measure, &xd, &nd, &hd)))
		goto out;
	out->mean_static = hs.n_forks ? bs_mean(xs, bs_hier_count(&hs)) : NAN;
	out->mean_dyn = hd.n_forks ? bs_mean(xd, bs_hier_count(&hd)) : NAN;
	out->change_rate = fabs(out->mean_dyn / out->mean_static - 1);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng) {
		rc = -ENOMEM;
		goto out;
	}
	gsl_rng_set(rng, (unsigned long)seed);
	out->aa_err =
	    hd.n_forks ? bs_hier_ratio_ci(&hs, &hd, level, resamples, rng, &out->aa) : BS_EEMPTY;
	out->aa_same = !out->aa_err && out->aa.lo <= 1 && out->aa.hi >= 1;
	rc = out->aa_err == BS_ENOMEM ? -ENOMEM : 0;
out:
	if (rng)
		gsl_rng_free(rng);
	free(xs);
	free(xd);
	free(ns);
	free(nd);
	free(off_s);
	free(cnt_s);
	free(off_d);
	bs_stop_fsm_free(&fsm);
	if (rc)
		bs_replay_result_free(out);
	return rc;
}
