// SPDX-License-Identifier: MIT
/*
 * stop.c - stoppage criteria of dynamic reconfiguration (Laaber et al. 2020 §4.2,
 * Algorithm 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "benchscope/stats_desc.h"
#include "benchscope/stats_kde.h"
#include "benchscope/stats_stop.h"
#include "stats_internal.h"

struct cfgv {
	enum bs_criterion crit;
	double t, level;
	size_t window, resamples, grid;
	int keep;
};

static int resolve(const struct bs_stop_cfg *c, struct cfgv *v)
{
	if (!c)
		return BS_EINVAL;
	v->crit = c->crit;
	switch (c->crit) {
	case BS_CRIT_CV:
		v->t = BS_STOP_T_CV;
		break;
	case BS_CRIT_RCIW:
		v->t = BS_STOP_T_RCIW;
		break;
	case BS_CRIT_KLD:
		v->t = BS_STOP_T_KLD;
		break;
	default:
		return BS_EINVAL;
	}
	if (c->threshold)
		v->t = c->threshold;
	v->window = c->window ? c->window : BS_STOP_WINDOW;
	v->level = c->rciw_level ? c->rciw_level : BS_STOP_RCIW_LEVEL;
	v->resamples = c->rciw_resamples ? c->rciw_resamples : BS_STOP_RCIW_RESAMPLES;
	v->grid = c->kld_grid ? c->kld_grid : BS_KLD_GRID;
	v->keep = c->kld_keep_outliers;
	if (!isfinite(v->t) || !(v->level > 0 && v->level < 1) || v->grid < 2)
		return BS_EINVAL;
	return BS_OK;
}

int bs_stable_var(const double *v, size_t n, double t, int *stable)
{
	int err = bs_check_finite(v, n);
	double lo, hi;

	if (err)
		return err;
	if (!stable)
		return BS_EINVAL;
	if (n < 2) {
		/* one value has no range: nothing says it would stay put */
		*stable = 0;
		return BS_OK;
	}
	lo = hi = v[0];
	for (size_t i = 1; i < n; i++) {
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	*stable = hi - lo <= t;
	return BS_OK;
}

int bs_stable_prob(const double *v, size_t n, double t, int *stable)
{
	int err = bs_check_finite(v, n);

	if (err)
		return err;
	if (!stable)
		return BS_EINVAL;
	*stable = bs_mean(v, n) > t;
	return BS_OK;
}

int bs_stop_stable(const struct bs_stop_cfg *cfg, const double *v, size_t n, int *stable)
{
	struct cfgv c;
	int err = resolve(cfg, &c);

	if (err)
		return err;
	return c.crit == BS_CRIT_KLD ? bs_stable_prob(v, n, c.t, stable)
				     : bs_stable_var(v, n, c.t, stable);
}

static int cv_of(const double *x, size_t n, double *cv)
{
	double var, m;
	int err = bs_sample_var(x, n, &var);

	if (err)
		return err;
	m = bs_mean(x, n);
	if (m == 0)
		return BS_EINVAL;
	*cv = sqrt(var) / m;
	return BS_OK;
}

static int criterion(const struct cfgv *c, const struct bs_hier *m, gsl_rng *rng, double *value)
{
	size_t n = bs_hier_count(m);

	if (!n)
		return m && m->n_forks ? BS_EINVAL : BS_EEMPTY;
	if (c->crit == BS_CRIT_CV)
		return cv_of(m->x, n, value);
	if (c->crit == BS_CRIT_RCIW) {
		/* one value has no CI (as CV: BS_ETOOFEW); constant data: the interval is a
		 * point, RCIW 0 */
		if (n < 2)
			return BS_ETOOFEW;
		return bs_hier_rciw(m, c->level, c->resamples, rng, value, NULL);
	}
	return BS_EINVAL;
}

int bs_stop_criterion(const struct bs_stop_cfg *cfg, const struct bs_hier *m, gsl_rng *rng,
		      double *value)
{
	struct cfgv c;
	int err = resolve(cfg, &c);

	if (err)
		return err;
	if (!value || (c.crit == BS_CRIT_RCIW && !rng))
		return BS_EINVAL;
	return criterion(&c, m, rng, value);
}

/* copy of x without the values outside the Tukey fences */
static int tukey_filter(const double *x, size_t n, double **out, size_t *nout)
{
	double *k = malloc(n * sizeof(*k));
	int err;

	if (!k)
		return BS_ENOMEM;
	err = bs_outliers(x, n, BS_OUTLIER_TUKEY, 1.5, k, NULL, nout, NULL, NULL, NULL);
	if (err) {
		free(k);
		return err;
	}
	*out = k;
	return BS_OK;
}

static int kld(const struct cfgv *c, const double *d1, size_t n1, const double *d2, size_t n2,
	       double *p)
{
	struct bs_kld r;
	double *f1 = NULL, *f2 = NULL;
	size_t m1 = n1, m2 = n2;
	int err;

	if (!c->keep) {
		if ((err = tukey_filter(d1, n1, &f1, &m1)))
			return err;
		if ((err = tukey_filter(d2, n2, &f2, &m2))) {
			free(f1);
			return err;
		}
		d1 = f1;
		d2 = f2;
	}
	err = bs_kld_prob(d1, m1, d2, m2, c->grid, &r);
	if (!err)
		*p = r.p;
	free(f1);
	free(f2);
	return err;
}

int bs_stop_kld(const struct bs_stop_cfg *cfg, const double *d1, size_t n1, const double *d2,
		size_t n2, double *p)
{
	struct cfgv c;
	int err = resolve(cfg, &c);

	if (err)
		return err;
	if (!p)
		return BS_EINVAL;
	if ((err = bs_check_durations(d1, n1)) || (err = bs_check_durations(d2, n2)))
		return err;
	return kld(&c, d1, n1, d2, n2, p);
}

/* offset of iteration i (0-based) in a one-fork sample */
static size_t iter_off(const struct bs_hier *h, size_t i)
{
	size_t o = 0;

	if (!h->n_invs)
		return i;
	for (size_t j = 0; j < i; j++)
		o += h->n_invs[j];
	return o;
}

static int warmup_vector(const struct cfgv *c, const struct bs_hier *it, size_t upto, gsl_rng *rng,
			 double *v)
{
	size_t s = upto - c->window - 1; /* i' (0-based) */
	size_t base = iter_off(it, s);
	int err;

	for (size_t e = 0; e < c->window; e++) {
		size_t x = s + 1 + e; /* last iteration included (0-based) */
		size_t end = iter_off(it, x + 1);

		if (c->crit == BS_CRIT_KLD) {
			size_t mid = iter_off(it, x);

			err = kld(c, it->x + base, mid - base, it->x + base, end - base, &v[e]);
		} else {
			size_t cnt = x - s + 1;
			struct bs_hier h = {
			    .x = it->x + base,
			    .n_forks = 1,
			    .n_iters = &cnt,
			    .n_invs = it->n_invs ? it->n_invs + s : NULL,
			};

			err = criterion(c, &h, rng, &v[e]);
		}
		if (err)
			return err;
	}
	return BS_OK;
}

/* The durations of h: BS_EINVAL if it holds none, else bs_check_durations(). */
static int check_hier_durations(const struct bs_hier *h)
{
	size_t n = bs_hier_count(h);

	return n ? bs_check_durations(h->x, n) : BS_EINVAL;
}

int bs_warmup_vector(const struct bs_stop_cfg *cfg, const struct bs_hier *it, size_t upto,
		     gsl_rng *rng, double *v)
{
	struct cfgv c;
	int err = resolve(cfg, &c);

	if (err)
		return err;
	if (!it || !v || it->n_forks != 1 || !it->n_iters || (c.crit == BS_CRIT_RCIW && !rng))
		return BS_EINVAL;
	if (upto > it->n_iters[0])
		return BS_EINVAL;
	if (upto <= c.window)
		return BS_ETOOFEW;
	if ((err = check_hier_durations(it)))
		return err;
	return warmup_vector(&c, it, upto, rng, v);
}

/* values of forks [0, f) */
static size_t fork_values(const struct bs_hier *m, size_t f)
{
	size_t it = 0, o = 0;

	for (size_t i = 0; i < f; i++)
		it += m->n_iters[i];
	if (!m->n_invs)
		return it;
	for (size_t i = 0; i < it; i++)
		o += m->n_invs[i];
	return o;
}

int bs_fork_vector(const struct bs_stop_cfg *cfg, const struct bs_hier *m, gsl_rng *rng, double *v,
		   size_t *nv)
{
	struct cfgv c;
	int err = resolve(cfg, &c);

	if (err)
		return err;
	if (!m || !v || !nv || (c.crit == BS_CRIT_RCIW && !rng))
		return BS_EINVAL;
	if (!m->n_forks)
		return BS_EEMPTY;
	if ((err = check_hier_durations(m)))
		return err;
	if (c.crit == BS_CRIT_KLD) {
		if (m->n_forks < 2)
			return BS_ETOOFEW;
		for (size_t x = 2; x <= m->n_forks; x++) {
			err = kld(&c, m->x, fork_values(m, x - 1), m->x, fork_values(m, x),
				  &v[x - 2]);
			if (err)
				return err;
		}
		*nv = m->n_forks - 1;
		return BS_OK;
	}
	for (size_t x = 1; x <= m->n_forks; x++) {
		struct bs_hier h = *m;

		h.n_forks = x;
		err = criterion(&c, &h, rng, &v[x - 1]);
		if (err)
			return err;
	}
	*nv = m->n_forks;
	return BS_OK;
}

/* ---- incremental ---------------------------------------------------- */

struct dvec {
	double *d;
	size_t n, cap;
};

struct zvec {
	size_t *d;
	size_t n, cap;
};

static int dvec_push(struct dvec *v, const double *x, size_t n)
{
	if (v->n + n > v->cap) {
		size_t cap = v->cap ? v->cap : 64;
		double *d;

		while (cap < v->n + n)
			cap *= 2;
		d = realloc(v->d, cap * sizeof(*d));
		if (!d)
			return BS_ENOMEM;
		v->d = d;
		v->cap = cap;
	}
	memcpy(v->d + v->n, x, n * sizeof(*x));
	v->n += n;
	return BS_OK;
}

static int zvec_push(struct zvec *v, size_t x)
{
	if (v->n + 1 > v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;
		size_t *d = realloc(v->d, cap * sizeof(*d));

		if (!d)
			return BS_ENOMEM;
		v->d = d;
		v->cap = cap;
	}
	v->d[v->n++] = x;
	return BS_OK;
}

struct bs_stopper {
	struct cfgv c;
	gsl_rng *rng;
	/* warmup window: the last window + 1 iterations */
	struct dvec wx;
	struct zvec wn;
	double *wvec;
	/* measurements of all forks */
	struct dvec mx;
	struct zvec m_iters, m_invs;
	struct dvec fvec;
	double cnt, mean, m2; /* running moments (Chan et al. merge) */
};

struct bs_stopper *bs_stopper_new(const struct bs_stop_cfg *cfg, int *err)
{
	struct bs_stopper *st = calloc(1, sizeof(*st));
	int e;

	if (!st) {
		e = BS_ENOMEM;
		goto fail;
	}
	e = resolve(cfg, &st->c);
	if (e)
		goto fail;
	st->wvec = calloc(st->c.window, sizeof(double));
	st->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!st->wvec || !st->rng) {
		e = BS_ENOMEM;
		goto fail;
	}
	gsl_rng_set(st->rng, (unsigned long)cfg->seed);
	if (err)
		*err = BS_OK;
	return st;
fail:
	bs_stopper_free(st);
	if (err)
		*err = e;
	return NULL;
}

void bs_stopper_free(struct bs_stopper *st)
{
	if (!st)
		return;
	if (st->rng)
		gsl_rng_free(st->rng);
	free(st->wx.d);
	free(st->wn.d);
	free(st->wvec);
	free(st->mx.d);
	free(st->m_iters.d);
	free(st->m_invs.d);
	free(st->fvec.d);
	free(st);
}

void bs_stopper_next_fork(struct bs_stopper *st)
{
	if (!st)
		return;
	st->wx.n = 0;
	st->wn.n = 0;
}

int bs_stopper_warmup_add(struct bs_stopper *st, const double *inv, size_t n, int *stable,
			  double *vec, size_t *nvec)
{
	int err;

	if (!st || !stable)
		return BS_EINVAL;
	if ((err = bs_check_durations(inv, n)))
		return err;
	if (st->wn.n == st->c.window + 1) {
		/* slide: drop the oldest iteration */
		size_t drop = st->wn.d[0];

		memmove(st->wx.d, st->wx.d + drop, (st->wx.n - drop) * sizeof(double));
		st->wx.n -= drop;
		memmove(st->wn.d, st->wn.d + 1, st->c.window * sizeof(size_t));
		st->wn.n--;
	}
	if ((err = dvec_push(&st->wx, inv, n)) || (err = zvec_push(&st->wn, n)))
		return err;
	*stable = 0;
	if (nvec)
		*nvec = 0;
	if (st->wn.n < st->c.window + 1)
		return BS_OK;
	size_t cnt = st->wn.n;
	struct bs_hier h = {st->wx.d, 1, &cnt, st->wn.d};

	err = warmup_vector(&st->c, &h, cnt, st->rng, st->wvec);
	if (err)
		return err;
	if (vec)
		memcpy(vec, st->wvec, st->c.window * sizeof(double));
	if (nvec)
		*nvec = st->c.window;
	return st->c.crit == BS_CRIT_KLD ? bs_stable_prob(st->wvec, st->c.window, st->c.t, stable)
					 : bs_stable_var(st->wvec, st->c.window, st->c.t, stable);
}

int bs_stopper_fork_add(struct bs_stopper *st, const double *x, size_t n_iters,
			const size_t *n_invs, int *stable, double *vec, size_t *nvec)
{
	size_t nv = 0, before;
	double e = 0;
	int err;

	if (!st || !stable || !x)
		return BS_EINVAL;
	if (!n_iters)
		return BS_EEMPTY;
	for (size_t i = 0; i < n_iters; i++) {
		size_t k = n_invs ? n_invs[i] : 1;

		if (!k)
			return BS_EINVAL;
		nv += k;
	}
	if ((err = bs_check_durations(x, nv)))
		return err;
	before = st->mx.n;
	if ((err = dvec_push(&st->mx, x, nv)) || (err = zvec_push(&st->m_iters, n_iters)))
		return err;
	for (size_t i = 0; i < n_iters; i++)
		if ((err = zvec_push(&st->m_invs, n_invs ? n_invs[i] : 1)))
			return err;
	/* merge the new fork's moments into the running ones */
	double nb = (double)nv, mb = bs_mean(x, nv), m2b = 0;

	for (size_t i = 0; i < nv; i++)
		m2b += (x[i] - mb) * (x[i] - mb);
	double na = st->cnt, d = mb - st->mean, nn = na + nb;

	st->mean += d * nb / nn;
	st->m2 += m2b + d * d * na * nb / nn;
	st->cnt = nn;

	struct bs_hier h = {st->mx.d, st->m_iters.n, st->m_iters.d, st->m_invs.d};
	*stable = 0;
	if (nvec)
		*nvec = 0;
	switch (st->c.crit) {
	case BS_CRIT_CV:
		if (st->cnt < 2 || st->mean == 0)
			return st->cnt < 2 ? BS_ETOOFEW : BS_EINVAL;
		e = sqrt(st->m2 / (st->cnt - 1)) / st->mean;
		break;
	case BS_CRIT_RCIW:
		err = criterion(&st->c, &h, st->rng, &e);
		break;
	case BS_CRIT_KLD:
		if (st->m_iters.n < 2)
			return BS_OK;
		err = kld(&st->c, st->mx.d, before, st->mx.d, st->mx.n, &e);
		break;
	}
	if (err)
		return err;
	if ((err = dvec_push(&st->fvec, &e, 1)))
		return err;
	if (vec)
		memcpy(vec, st->fvec.d, st->fvec.n * sizeof(double));
	if (nvec)
		*nvec = st->fvec.n;
	return st->c.crit == BS_CRIT_KLD ? bs_stable_prob(st->fvec.d, st->fvec.n, st->c.t, stable)
					 : bs_stable_var(st->fvec.d, st->fvec.n, st->c.t, stable);
}
