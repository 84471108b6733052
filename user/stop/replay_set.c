// SPDX-License-Identifier: MIT
/* replay_set.c - load, replay and total a set of traces (see replay_set.h). */
#include "stop/replay_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/dataset.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static void total_add(struct bs_replay_total *t, const struct bs_replay_result *r)
{
	if (r->aa_err) {
		t->left_out++;
		return;
	}
	t->t_static += r->t_static_ns;
	t->t_dyn += r->t_dyn_ns;
	t->compute += (double)r->compute_ns;
	t->n++;
	t->same += r->aa_same;
	for (int k = 0; k < 3; k++)
		t->below[k] += r->change_rate < (k + 1) / 100.0;
	t->cr_sum += r->change_rate;
	t->cr_sq += r->change_rate * r->change_rate;
	t->warm_sum += r->warmup_mean;
	t->forks_sum += (double)r->forks_used;
}

/* One line on stderr: @path is truncated, and what of it is replayed. */
static void warn_truncated(const char *path, const struct bs_dataset *ds,
			   const struct bs_replay_trace *t)
{
	size_t n = 0;
	char txt[128];

	for (size_t f = 0; f < t->n_forks; f++)
		n += t->forks[f].n;
	fprintf(stderr,
		"benchscope replay: warning: %s is %s (its writer did not finish it); replaying "
		"the %zu complete fork%s it holds, %zu usable iteration%s\n",
		path, bs_dataset_truncation_text(ds, txt, sizeof(txt)), t->n_forks,
		t->n_forks == 1 ? "" : "s", n, n == 1 ? "" : "s");
}

int bs_replay_set_run(struct bs_replay_set *s, char *err, size_t errlen)
{
	char why[1024];
	int nt = s->n_traces;
	size_t n = (size_t)nt * s->n_crits; /* replays: trace by trace, criterion by criterion */

	s->tr = calloc((size_t)nt, sizeof(*s->tr));
	s->rows = calloc((size_t)nt * s->n_crits, sizeof(*s->rows));
	if (!s->tr || !s->rows) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < nt; i++) {
		struct bs_dataset *ds = NULL;
		int e = bs_dataset_load(s->paths[i], &ds, why, sizeof(why));

		if (!e && ds->truncated && !ds->run_ev.n_forks) {
			char t[128];

			snprintf(why, sizeof(why),
				 "the trace is %s and no complete fork (its writer did not finish "
				 "it): nothing to replay",
				 bs_dataset_truncation_text(ds, t, sizeof(t)));
			e = -ENODATA;
		}
		if (!e) {
			e = bs_replay_load(ds, &s->tr[i], why, sizeof(why));
			if (!e && ds->truncated)
				warn_truncated(s->paths[i], ds, &s->tr[i]);
			if (!e && bs_replay_check(s->tr[i].forks, s->tr[i].n_forks, &s->st, why,
						  sizeof(why)))
				e = -EINVAL;
		}
		bs_dataset_free(ds);
		if (e) {
			snprintf(err, errlen, "%s: %s", s->paths[i], why);
			return e;
		}
	}
	for (size_t k = 0; k < n; k++) {
		size_t i = k / s->n_crits, c = k % s->n_crits;
		struct bs_stop_plan p = s->plan;
		struct bs_replay_row *r = &s->rows[k];
		int e;

		p.crit = s->crits[c];
		r->name = base_name(s->paths[i]);
		snprintf(why, sizeof(why), "%s, %s", r->name, bs_stop_crit_name(p.crit));
		bs_steps_step(s->steps, k, n, why);
		e = bs_replay_run(s->tr[i].forks, s->tr[i].n_forks, &p, &s->st, s->level,
				  (size_t)s->resamples, s->seed, &r->r);
		if (e) {
			bs_steps_step(s->steps, n, n, NULL);
			snprintf(err, errlen, "%s: %s", s->paths[i],
				 e == -ENOMEM ? "out of memory" : "cannot replay");
			return e;
		}
		r->ok = 1;
		total_add(&s->tot[c], &r->r);
	}
	bs_steps_step(s->steps, n, n, NULL);
	return 0;
}

void bs_replay_set_free(struct bs_replay_set *s)
{
	for (int i = 0; s->tr && i < s->n_traces; i++)
		bs_replay_trace_free(&s->tr[i]);
	for (size_t i = 0; s->rows && i < (size_t)s->n_traces * s->n_crits; i++)
		bs_replay_result_free(&s->rows[i].r);
	free(s->tr);
	free(s->rows);
	s->tr = NULL;
	s->rows = NULL;
}
