// SPDX-License-Identifier: MIT
/* stop_run.c - forks under dynamic reconfiguration, observed live (see stop_run.h). */
#include "stop/stop_run.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "stop/calib_live.h"
#include "util/monotime.h"
#include "util/progress.h"
#include "probe/session.h"
#include "report/summary.h"

struct stop_run {
	struct bs_measure *m;
	const struct bs_stop_run_opts *o;
	struct bs_stop_fsm fsm;
	bool active;		   /**< a fork is running */
	bool want_stop;		   /**< its mi measurement iterations are done: end it */
	struct bs_calib_live live; /**< with a calibration rule: the fork's runs so far;
				    *   the last one is not decided yet */
	size_t n_calibration;	   /**< of the current fork */
	size_t n_after;		   /**< after-stop iterations of the current fork */
	int err;		   /**< first error inside the hook (-errno) */
	struct bs_progress prog;   /**< fork F of at most N, iterations, ETA */
};

json_object *bs_stop_plan_json(const struct bs_stop_plan *p, int grace_ms)
{
	json_object *o = json_object_new_object(), *w = json_object_new_array(),
		    *f = json_object_new_array();

	json_object_object_add(o, "criterion", json_object_new_string(bs_stop_crit_name(p->crit)));
	if (p->crit)
		json_object_object_add(o, "threshold",
				       json_object_new_double(bs_stop_plan_threshold(p)));
	json_object_object_add(o, "window", json_object_new_int64((int64_t)p->window));
	json_object_array_add(w, json_object_new_int64((int64_t)p->wi_min));
	json_object_array_add(w, json_object_new_int64((int64_t)p->wi_max));
	json_object_object_add(o, "warmup", w);
	json_object_object_add(o, "measure", json_object_new_int64((int64_t)p->mi));
	json_object_array_add(f, json_object_new_int64((int64_t)p->f_min));
	json_object_array_add(f, json_object_new_int64((int64_t)p->f_max));
	json_object_object_add(o, "forks", f);
	json_object_object_add(o, "seed", json_object_new_int64((int64_t)p->seed));
	json_object_object_add(o, "grace_ms", json_object_new_int(grace_ms));
	return o;
}

static void log_decision(struct stop_run *s, const struct bs_stop_decision *d)
{
	json_object *ev, *vals;

	if (!d->made)
		return;
	ev = json_object_new_object();
	vals = json_object_new_array();
	json_object_object_add(ev, "kind", json_object_new_string("stop_decision"));
	json_object_object_add(ev, "checkpoint",
			       json_object_new_string(d->fork_checkpoint ? "fork" : "warmup"));
	json_object_object_add(ev, "fork", json_object_new_int64((int64_t)d->fork));
	json_object_object_add(ev, "iteration", json_object_new_int64((int64_t)d->iteration));
	json_object_object_add(ev, "criterion",
			       json_object_new_string(bs_stop_crit_name(s->fsm.p.crit)));
	for (size_t i = 0; i < d->n_values; i++)
		json_object_array_add(
		    vals, isfinite(d->values[i]) ? json_object_new_double(d->values[i]) : NULL);
	json_object_object_add(ev, "values", vals);
	json_object_object_add(ev, "threshold", json_object_new_double(s->fsm.t));
	json_object_object_add(ev, "decision",
			       json_object_new_string(d->stable ? "stop" : "continue"));
	json_object_object_add(ev, "bound", json_object_new_boolean(d->bound));
	if (d->err)
		json_object_object_add(ev, "error",
				       json_object_new_string(bs_stats_strerror(d->err)));
	json_object_object_add(ev, "compute_ns", json_object_new_int64((int64_t)d->compute_ns));
	if (bs_measure_event(s->m, ev) && !s->err)
		s->err = -EIO;
	json_object_put(ev);
}

/* Feed one usable iteration value to the state machine; returns its phase. */
static int feed(struct stop_run *s, double v)
{
	struct bs_stop_decision d;
	int ph = bs_stop_fsm_iter(&s->fsm, v, &d);

	log_decision(s, &d);
	if (s->fsm.phase == BS_PHASE_AFTER)
		s->want_stop = true;
	return ph;
}

static double iter_value(const struct bs_iter_rec *r)
{
	double v = bs_iter_ns_per_op(r);

	if (isnan(v))
		v = r->end_ns >= r->begin_ns ? (double)(r->end_ns - r->begin_ns) : 0;
	return v;
}

/* Decide run i of the fork with the rule on the runs known so far: feed it
 * to the state machine, or count it as calibration. */
static void decide(struct stop_run *s, size_t i)
{
	if (bs_calib_live_calib(&s->live, i))
		s->n_calibration++;
	else if (s->fsm.phase != BS_PHASE_AFTER)
		feed(s, iter_value(&s->live.runs[i]));
}

static int on_iter(void *ctx, struct bs_iter_rec *r)
{
	struct stop_run *s = ctx;
	int ph;

	if (!s->active || s->fsm.phase == BS_PHASE_AFTER) {
		r->flags |= BS_ITER_F_AFTER_STOP;
		s->n_after++;
		return 0;
	}
	if (!s->o->calib) {
		ph = feed(s, iter_value(r));
		if (ph == BS_PHASE_WARMUP)
			r->flags |= BS_ITER_F_WARMUP;
		return 0;
	}
	/* the previous run is decided now that this one is known (the rule
	 * looks one run ahead at most): fed, or counted as calibration */
	if ((ph = bs_calib_live_push(&s->live, r))) {
		if (!s->err)
			s->err = ph;
		return ph;
	}
	if (s->live.n >= 2)
		decide(s, s->live.n - 2);
	if (s->fsm.phase == BS_PHASE_AFTER) {
		r->flags |= BS_ITER_F_AFTER_STOP;
		s->n_after++;
		return 0;
	}
	if (s->fsm.phase == BS_PHASE_WARMUP)
		r->flags |= BS_ITER_F_WARMUP;
	return 0;
}

static const char *ended_by(const struct bs_session *sess, bool stopped)
{
	if (stopped)
		return "stop";
	return WIFSIGNALED(sess->wait_status) ? "signal" : "exit";
}

static void log_fork(struct stop_run *s, const struct bs_session *sess, uint64_t t0, uint64_t t1,
		     bool stopped, bool interrupted, struct bs_stop_run_result *res)
{
	json_object *ev = json_object_new_object();
	const struct bs_stop_fsm *f = &s->fsm;
	bool sig = WIFSIGNALED(sess->wait_status);
	bool is_short = bs_stop_fsm_short(f);
	char line[256];

	json_object_object_add(ev, "kind", json_object_new_string("fork"));
	json_object_object_add(ev, "fork", json_object_new_int64((int64_t)f->fork));
	json_object_object_add(ev, "pid", json_object_new_int(sess->pid));
	json_object_object_add(ev, "start_ns", json_object_new_int64((int64_t)t0));
	json_object_object_add(ev, "end_ns", json_object_new_int64((int64_t)t1));
	json_object_object_add(ev, "warmup_iterations", json_object_new_int64((int64_t)f->wi));
	json_object_object_add(ev, "measurement_iterations", json_object_new_int64((int64_t)f->mi));
	json_object_object_add(ev, "warmup_stable", json_object_new_boolean(f->warmup_stable));
	json_object_object_add(ev, "short", json_object_new_boolean(is_short));
	/* benchscope sent SIGTERM: its mi iterations were done, or Ctrl-C */
	stopped = stopped || interrupted;
	json_object_object_add(ev, "ended_by", json_object_new_string(ended_by(sess, stopped)));
	if (stopped)
		json_object_object_add(
		    ev, "killed",
		    json_object_new_boolean(sig && WTERMSIG(sess->wait_status) == SIGKILL));
	else if (sig)
		json_object_object_add(ev, "signal",
				       json_object_new_int(WTERMSIG(sess->wait_status)));
	else
		json_object_object_add(ev, "exit_code",
				       json_object_new_int(WEXITSTATUS(sess->wait_status)));
	json_object_object_add(ev, "interrupted", json_object_new_boolean(interrupted));
	json_object_object_add(ev, "calibration_runs",
			       json_object_new_int64((int64_t)s->n_calibration));
	json_object_object_add(ev, "after_stop_iterations",
			       json_object_new_int64((int64_t)s->n_after));
	if (bs_measure_event(s->m, ev) && !s->err)
		s->err = -EIO;
	json_object_put(ev);
	if (!stopped && (sig || WEXITSTATUS(sess->wait_status))) {
		res->harness_failed = true;
		if (!res->failure[0]) {
			if (sig)
				snprintf(res->failure, sizeof(res->failure),
					 "fork %zu (pid %d) was killed by signal %d (%s)", f->fork,
					 (int)sess->pid, WTERMSIG(sess->wait_status),
					 strsignal(WTERMSIG(sess->wait_status)));
			else
				snprintf(res->failure, sizeof(res->failure),
					 "fork %zu (pid %d) exited with status %d", f->fork,
					 (int)sess->pid, WEXITSTATUS(sess->wait_status));
		}
	}
	/* on a terminal, or with -v; a log has the forks in the trace */
	if (s->o->quiet)
		return;
	snprintf(line, sizeof(line),
		 "benchscope run: fork %zu (pid %d): %zu warmup%s + %zu measurement "
		 "iterations%s, ended by %s%s",
		 f->fork, (int)sess->pid, f->wi,
		 f->p.crit ? (f->warmup_stable ? " (stable)" : " (not stable)") : "", f->mi,
		 is_short ? " (short)" : "", ended_by(sess, stopped || interrupted),
		 stopped && sig && WTERMSIG(sess->wait_status) == SIGKILL
		     ? " (SIGKILL after the grace period)"
		     : "");
	if (s->o->verbose)
		bs_progress_msg(&s->prog, "%s", line);
	else
		bs_progress_note(&s->prog, "%s", line);
}

/* Handle every record already in the ring buffer. */
static int drain(struct bs_measure *m)
{
	int n;

	do
		n = bs_measure_poll(m, 0);
	while (n > 0);
	return n < 0 ? n : 0;
}

/* One fork: spawn, follow, release, observe until done or exited. */
static int run_fork(struct stop_run *s, struct bs_stop_run_result *res, uint64_t *t_first,
		    char *err, size_t errlen)
{
	struct bs_session sess = {.pid = -1, .go_fd = -1, .err_fd = -1};
	struct bs_stop_decision d;
	uint64_t t0, t1;
	bool stopped = false, intr = false;
	int rc = 0, prc;

	if ((rc = bs_stop_fsm_fork_begin(&s->fsm)))
		return rc;
	s->want_stop = false;
	bs_calib_live_reset(&s->live);
	s->n_calibration = s->n_after = 0;
	if ((rc = bs_session_spawn(&sess, s->o->cmd, s->o->user, err, errlen))) {
		res->exec_failed = true;
		return rc;
	}
	if ((rc = bs_measure_follow(s->m, sess.pid))) {
		snprintf(err, errlen, "cannot follow the harness: %s", strerror(-rc));
		goto out;
	}
	res->forks++;
	s->active = true;
	t0 = bs_mono_ns();
	if (!*t_first)
		*t_first = t0;
	if ((rc = bs_session_release(&sess, err, errlen))) {
		res->exec_failed = true;
		s->active = false;
		goto out;
	}
	for (;;) {
		prc = bs_measure_poll(s->m, 10);
		if (prc < 0) {
			snprintf(err, errlen, "reading the ring buffer: %s", strerror(-prc));
			rc = prc;
			break;
		}
		if (s->want_stop) {
			stopped = true;
			bs_session_stop(&sess, s->o->grace_ms);
			break;
		}
		if (*s->o->interrupted) {
			intr = true;
			bs_session_stop(&sess, s->o->grace_ms);
			break;
		}
		if (bs_session_poll(&sess) == 1)
			break;
		bs_progress_text(&s->prog, s->fsm.fork - 1, s->fsm.p.f_max,
				 "fork %zu of at most %zu, %llu iterations", s->fsm.fork,
				 s->fsm.p.f_max, (unsigned long long)bs_measure_iters(s->m));
	}
	t1 = bs_mono_ns();
	if (!rc && (rc = drain(s->m)))
		snprintf(err, errlen, "reading the ring buffer: %s", strerror(-rc));
	/* the fork's last run: nothing follows it */
	if (s->o->calib && s->live.n && s->fsm.phase != BS_PHASE_AFTER && !intr)
		decide(s, s->live.n - 1);
	bs_calib_live_reset(&s->live);
	s->active = false;
	res->interrupted = intr;
	log_fork(s, &sess, t0, t1, stopped, intr, res);
	if (!intr && !rc) {
		if ((rc = bs_stop_fsm_fork_end(&s->fsm, &d)))
			snprintf(err, errlen, "out of memory");
		log_decision(s, &d);
	}
	if (!rc && s->err) {
		rc = s->err;
		snprintf(err, errlen, "writing the trace: %s", strerror(-rc));
	}
out:
	if (sess.pid > 0 && !sess.exited)
		bs_session_stop(&sess, s->o->grace_ms);
	bs_session_close(&sess);
	return rc;
}

int bs_stop_run(struct bs_measure *m, const struct bs_stop_run_opts *o,
		struct bs_stop_run_result *res, char *err, size_t errlen)
{
	struct stop_run s = {.m = m, .o = o};
	uint64_t t_first = 0;
	int rc;

	memset(res, 0, sizeof(*res));
	rc = bs_stop_fsm_init(&s.fsm, &o->plan);
	if (rc) {
		if (rc == -EINVAL)
			bs_stop_plan_check(&o->plan, err, errlen);
		else
			snprintf(err, errlen, "out of memory");
		return rc;
	}
	bs_calib_live_init(&s.live, o->calib);
	bs_progress_init(&s.prog, "forks", o->progress);
	bs_measure_set_hooks(m, on_iter, NULL, &s);
	while (!s.fsm.done && !res->interrupted) {
		rc = run_fork(&s, res, &t_first, err, errlen);
		if (rc)
			break;
		if (*o->interrupted)
			res->interrupted = true;
	}
	bs_progress_done(&s.prog);
	res->wall_ns = t_first ? (int64_t)(bs_mono_ns() - t_first) : 0;
	res->compute_ns = s.fsm.compute_ns;
	res->checkpoints = s.fsm.n_checkpoints;
	res->forks_stable = s.fsm.forks_stable;
	/* records that still arrive belong to no fork: flagged, then unhooked */
	s.active = false;
	drain(m);
	bs_measure_set_hooks(m, NULL, NULL, NULL);
	bs_stop_fsm_free(&s.fsm);
	bs_calib_live_free(&s.live);
	return rc;
}

json_object *bs_stop_run_end_json(const struct bs_stop_run_result *res)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "forks", json_object_new_int64((int64_t)res->forks));
	json_object_object_add(o, "forks_stable", json_object_new_boolean(res->forks_stable));
	json_object_object_add(o, "checkpoints", json_object_new_int64((int64_t)res->checkpoints));
	json_object_object_add(o, "compute_ns", json_object_new_int64((int64_t)res->compute_ns));
	json_object_object_add(o, "wall_ns", json_object_new_int64(res->wall_ns));
	json_object_object_add(o, "harness_failed", json_object_new_boolean(res->harness_failed));
	json_object_object_add(o, "interrupted", json_object_new_boolean(res->interrupted));
	return o;
}

int bs_stop_run_forks(struct bs_measure *m, const struct bs_stop_run_opts *o,
		      struct bs_stop_run_result *res, json_object **end)
{
	char err[2048];

	if (bs_stop_run(m, o, res, err, sizeof(err))) {
		if (res->exec_failed && bs_measure_iters(m) == 0) {
			fprintf(stderr, "benchscope run: %s\n", err);
			return 2;
		}
		if (res->exec_failed) {
			/* a later fork: the earlier ones' iterations are kept, with
			 * their END block, as after a failed harness (exit 4) */
			res->harness_failed = true;
			snprintf(res->failure, sizeof(res->failure),
				 "a later fork could not be started: %.470s", err);
		} else {
			fprintf(stderr, "benchscope run: %s\n", err);
		}
	}
	*end = json_object_new_object();
	json_object_object_add(*end, "stop", bs_stop_run_end_json(res));
	json_object_object_add(*end, "interrupted", json_object_new_boolean(res->interrupted));
	json_object_object_add(*end, "wall_ns", json_object_new_int64(res->wall_ns));
	return 0;
}
