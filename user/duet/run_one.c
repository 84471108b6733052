// SPDX-License-Identifier: MIT
/*
 * run_one.c - one run of a duet: both sides spawned held before exec,
 * followed as sides A and B of one measurement session, released together
 * (async, sync) or one after the other (seq), watched for exit, failure and
 * timeout, and described as a "duet_run" event (docs/duet-trace.md).
 */
#include "duet/run.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "probe/measure.h"
#include "util/monotime.h"

static int side_of_pid(const struct bs_duet_runres *res, uint32_t pid)
{
	int s;
	size_t i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < res->side[s].n_pids; i++)
			if ((uint32_t)res->side[s].pids[i] == pid)
				return s;
	return -1;
}

static int add_pid(struct bs_duet_side *sd, pid_t pid)
{
	if (sd->n_pids == sd->cap_pids) {
		size_t cap = sd->cap_pids ? sd->cap_pids * 2 : 8;
		pid_t *np = realloc(sd->pids, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		sd->pids = np;
		sd->cap_pids = cap;
	}
	sd->pids[sd->n_pids++] = pid;
	return 0;
}

int bs_duet_runres_on_iter(struct bs_duet_runres *res, const struct bs_iter_rec *r)
{
	int s = side_of_pid(res, r->pid);
	struct bs_duet_side *sd;

	if (s < 0)
		return 0;
	sd = &res->side[s];
	sd->n_iters++;
	return 0;
}

void bs_duet_runres_on_proc(struct bs_duet_runres *res, const struct bs_proc_rec *r)
{
	int s;

	if (r->kind == BS_PROC_FORK) {
		s = side_of_pid(res, r->ppid);
		if (s >= 0 && side_of_pid(res, r->pid) < 0)
			add_pid(&res->side[s], (pid_t)r->pid);
	} else if (r->kind == BS_PROC_EXIT) {
		for (s = 0; s < 2; s++)
			if (res->side[s].spawned && (uint32_t)res->side[s].sess.pid == r->pid)
				res->side[s].end_ns = r->ts_ns;
	}
}

static const char *side_name(int s)
{
	return s ? "B" : "A";
}

/* The exit of side s: its failure reason, "" when it exited 0. */
static void judge_exit(struct bs_duet_side *sd, int s)
{
	int st = sd->sess.wait_status;

	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	if (WIFSIGNALED(st))
		snprintf(sd->failed, sizeof(sd->failed), "%s was killed by signal %d (%s)",
			 side_name(s), WTERMSIG(st), strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st))
		snprintf(sd->failed, sizeof(sd->failed), "%s exited with status %d", side_name(s),
			 WEXITSTATUS(st));
}

static void stop_side(struct bs_duet_side *sd)
{
	if (sd->spawned && !sd->sess.exited) {
		bs_session_stop(&sd->sess, 1000);
		if (!sd->end_ns)
			sd->end_ns = bs_mono_ns();
	}
}

/* An unnamed temporary file for a side's stderr, or -1. */
static int tmp_fd(void)
{
	char path[] = "/tmp/benchscope-duet-XXXXXX";
	int fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0)
		return fd;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* Append the last non-empty line of the side's stderr to its failure. */
static void quote_stderr(struct bs_duet_side *sd)
{
	char buf[512], *line, *end;
	off_t size;
	ssize_t n;
	size_t len;

	if (sd->err_fd < 0 || !sd->failed[0] || (size = lseek(sd->err_fd, 0, SEEK_END)) <= 0)
		return;
	n = pread(sd->err_fd, buf, sizeof(buf) - 1,
		  size > (off_t)sizeof(buf) - 1 ? size - (off_t)sizeof(buf) + 1 : 0);
	if (n <= 0)
		return;
	buf[n] = 0;
	end = buf + n;
	while (end > buf && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		*--end = 0;
	line = strrchr(buf, '\n');
	line = line ? line + 1 : buf;
	if (!*line)
		return;
	len = strlen(sd->failed);
	snprintf(sd->failed + len, sizeof(sd->failed) - len, " (stderr: %.120s)", line);
}

static int spawn_side(const struct bs_duet_env *env, struct bs_duet_runres *res, int s)
{
	struct bs_duet_side *sd = &res->side[s];
	struct bs_spawn_opts so = {.user = env->user,
				   .cpus = sd->place,
				   .stdout_fd = env->stdout_fd,
				   .stdout_set = env->stdout_fd >= 0};
	char err[512];
	int rc;

	sd->err_fd = env->capture_stderr ? tmp_fd() : -1;
	so.stderr_fd = sd->err_fd;
	so.stderr_set = sd->err_fd >= 0;

	rc = bs_session_spawn_opts(&sd->sess, env->argv[s], &so, err, sizeof(err));
	if (rc) {
		snprintf(sd->failed, sizeof(sd->failed), "%s could not start: %.200s", side_name(s),
			 err);
		return rc;
	}
	sd->spawned = true;
	if (add_pid(sd, sd->sess.pid))
		return -ENOMEM;
	rc = bs_measure_follow_side(env->m, sd->sess.pid, s);
	if (rc) {
		snprintf(sd->failed, sizeof(sd->failed), "cannot follow %s: %s", side_name(s),
			 strerror(-rc));
		return rc;
	}
	return 0;
}

static int release_side(struct bs_duet_runres *res, int s)
{
	struct bs_duet_side *sd = &res->side[s];
	char err[512];
	int rc;

	sd->start_ns = bs_mono_ns();
	rc = bs_session_release(&sd->sess, err, sizeof(err));
	sd->released = true;
	if (rc) {
		snprintf(sd->failed, sizeof(sd->failed), "%s could not start: %.200s", side_name(s),
			 err);
		sd->end_ns = bs_mono_ns();
	}
	return rc;
}

/*
 * Follow the released sides in `mask` until each exited, one failed or
 * timed out, or the user interrupted. Returns 0, or -errno when reading the
 * ring buffer failed.
 */
/*
 * How long follow() may sleep: until the next CPU swap or side timeout,
 * at most BS_DUET_WAIT_MS. An exit record wakes it at once (the BPF side
 * forces a ring-buffer wake-up for it), and so do the iteration records
 * once enough are waiting; nothing else needs it sooner. Long waits keep
 * benchscope's own CPU time out of the measured sides' way.
 */
#define BS_DUET_WAIT_MS 250
static int wait_ms(const struct bs_duet_env *env, const struct bs_duet_runres *res, unsigned mask,
		   uint64_t next_swap)
{
	uint64_t now = bs_mono_ns(), until = now + BS_DUET_WAIT_MS * 1000000ull;

	if (next_swap && next_swap < until)
		until = next_swap;
	for (int s = 0; s < 2 && env->timeout_s > 0; s++) {
		const struct bs_duet_side *sd = &res->side[s];
		uint64_t t = sd->start_ns + (uint64_t)(env->timeout_s * 1e9);

		if ((mask & (1u << s)) && sd->released && !sd->sess.exited && t < until)
			until = t;
	}
	return until > now ? (int)((until - now + 999999) / 1000000) : 0;
}

/* crossover within the run: exchange the sides' CPU sets (both running) */
static void swap_sides(struct bs_duet_runres *res)
{
	const cpu_set_t *t = res->side[0].place;

	res->side[0].place = res->side[1].place;
	res->side[1].place = t;
	for (int s = 0; s < 2; s++)
		bs_duet_place_pids(res->side[s].pids, res->side[s].n_pids, res->side[s].place);
	res->swaps++;
}

static int follow(const struct bs_duet_env *env, struct bs_duet_runres *res, unsigned mask)
{
	bool sync = bs_duet_method_barrier(res->plan.method) != BS_BAR_OFF;
	uint64_t swap_ns = (uint64_t)(env->swap_every_s * 1e9), next_swap = 0;
	int s, prc;

	if (swap_ns && mask == 3u && res->side[0].place && res->side[1].place)
		next_swap = bs_mono_ns() + swap_ns;
	for (;;) {
		bool all_done = true, failed = false;
		uint64_t now;

		prc = bs_measure_poll(env->m, wait_ms(env, res, mask, next_swap));
		if (prc < 0)
			return prc;
		if (env->interrupted && *env->interrupted) {
			res->interrupted = true;
			return 0;
		}
		now = bs_mono_ns();
		for (s = 0; s < 2; s++) {
			struct bs_duet_side *sd = &res->side[s];

			if (!(mask & (1u << s)) || !sd->released)
				continue;
			if (!sd->sess.exited && bs_session_poll(&sd->sess) == 1) {
				if (!sd->end_ns)
					sd->end_ns = now;
				/* its records are in the ring buffer now: count them */
				bs_measure_poll(env->m, 0);
				judge_exit(sd, s);
				if (!sd->failed[0] && sd->n_iters == 0)
					snprintf(sd->failed, sizeof(sd->failed),
						 "%s exited without reaching its iteration probe",
						 side_name(s));
				/* a side waiting for it at the barrier must go on */
				if (sync)
					bs_barrier_force_release(&res->bar);
			}
			if (!sd->sess.exited && env->timeout_s > 0 &&
			    (double)(now - sd->start_ns) > env->timeout_s * 1e9) {
				bs_measure_poll(env->m, 0);
				if (sd->n_iters == 0)
					snprintf(sd->failed, sizeof(sd->failed),
						 "%s did not reach its iteration probe within %g s",
						 side_name(s), env->timeout_s);
				else
					snprintf(sd->failed, sizeof(sd->failed),
						 "%s ran longer than the timeout of %g s",
						 side_name(s), env->timeout_s);
				if (sync)
					bs_barrier_force_release(&res->bar);
				stop_side(sd);
			}
			if (sd->failed[0])
				failed = true;
			if (!sd->sess.exited)
				all_done = false;
		}
		if (failed || all_done)
			return 0;
		if (next_swap && now >= next_swap) {
			if (res->side[0].sess.exited || res->side[1].sess.exited) {
				next_swap = 0; /* one side alone: nothing to cancel */
			} else {
				swap_sides(res);
				next_swap = now + swap_ns;
			}
		}
		if (env->tick)
			env->tick(env->tick_ctx);
	}
}

/*
 * follow(), as SCHED_IDLE: while the sides run, this thread only waits and
 * takes in records; idle-class, it runs where a CPU would otherwise idle (a
 * side that exited leaves its CPU free) instead of preempting a side. Only
 * once the sides were released (the release writes their go pipes and
 * waits for their exec) and back to normal after, so no side inherits it
 * and nothing else waits for it. Not with --swap-every: exchanging the CPUs
 * on time is this thread's job, and with both CPUs busy an idle-class
 * thread may not run for a whole run.
 */
static int follow_idle(const struct bs_duet_env *env, struct bs_duet_runres *res, unsigned mask)
{
	struct sched_param sp = {0};
	bool idle = !(env->swap_every_s > 0) && !sched_setscheduler(0, SCHED_IDLE, &sp);
	int rc = follow(env, res, mask);

	if (idle)
		sched_setscheduler(0, SCHED_OTHER, &sp);
	return rc;
}

int bs_duet_run_one(const struct bs_duet_env *env, const struct bs_duet_plan *pl, int run,
		    struct bs_duet_runres *res)
{
	int first = pl->order ? 1 : 0, second = first ^ 1, s, rc = 0;
	int mode = bs_duet_method_barrier(pl->method);
	const struct bs_duet_cpus *place = pl->method == BS_DM_RUN_ILV ? env->ilv_cpus : env->cpus;
	pid_t pids[2];

	memset(res, 0, sizeof(*res));
	res->plan = *pl;
	res->run = run;
	for (s = 0; s < 2; s++) {
		res->side[s].sess.pid = -1;
		res->side[s].sess.go_fd = res->side[s].sess.err_fd = -1;
		res->side[s].err_fd = -1;
		if (place && place->set)
			res->side[s].place = &place->cpus[s ^ (pl->swap ? 1 : 0)];
	}
	/* both held before exec; seq releases the second when the first is done */
	for (s = 0; s < 2 && !rc; s++)
		rc = spawn_side(env, res, s ? second : first);
	if (rc)
		goto done;
	if (mode != BS_BAR_OFF) {
		pids[0] = res->side[0].sess.pid;
		pids[1] = res->side[1].sess.pid;
		bs_barrier_start(&res->bar, &env->m->probes, pids, env->rt, mode, first);
	}
	res->start_ns = bs_mono_ns();
	if (pl->method == BS_DM_RUN_SEQ) {
		if (release_side(res, first) == 0)
			rc = follow_idle(env, res, 1u << first);
		if (!rc && !res->interrupted && !res->side[first].failed[0] &&
		    release_side(res, second) == 0)
			rc = follow_idle(env, res, 1u << second);
	} else {
		if (release_side(res, first) == 0 && release_side(res, second) == 0)
			rc = follow_idle(env, res, 3u);
		else
			rc = follow(env, res, 3u); /* the one that started: stopped below */
	}
done:
	if (mode != BS_BAR_OFF)
		bs_barrier_force_release(&res->bar);
	/* whoever still runs is stopped: the other side failed, or interrupted */
	for (s = 0; s < 2; s++) {
		struct bs_duet_side *sd = &res->side[s];

		if (sd->spawned && !sd->sess.exited) {
			if (!sd->failed[0] && !res->interrupted) {
				if (res->side[s ^ 1].failed[0])
					snprintf(sd->failed, sizeof(sd->failed),
						 "stopped because %s failed", side_name(s ^ 1));
				else if (!sd->released)
					snprintf(sd->failed, sizeof(sd->failed), "not run");
			}
			stop_side(sd);
		}
		bs_session_close(&sd->sess);
	}
	/* every record of the run is in the ring buffers by now */
	bs_measure_poll(env->m, 0);
	if (mode != BS_BAR_OFF)
		bs_barrier_rt_attach(env->rt, NULL);
	/* the run ends when its last side ended (exit record, else seen exited) */
	res->end_ns =
	    res->side[0].end_ns > res->side[1].end_ns ? res->side[0].end_ns : res->side[1].end_ns;
	if (!res->end_ns)
		res->end_ns = bs_mono_ns();
	for (s = 0; s < 2; s++) {
		if (strncmp(res->side[s].failed, "stopped", 7))
			quote_stderr(&res->side[s]);
		if (res->side[s].err_fd >= 0)
			close(res->side[s].err_fd);
		res->side[s].err_fd = -1;
	}
	if (res->interrupted) {
		snprintf(res->reason, sizeof(res->reason), "interrupted");
	} else if (rc) {
		snprintf(res->reason, sizeof(res->reason), "measurement failed: %s", strerror(-rc));
	} else {
		for (s = 0; s < 2; s++) {
			int f = s ? second : first;

			/* the cause first: the side that failed on its own */
			if (res->side[f].failed[0] && strncmp(res->side[f].failed, "stopped", 7) &&
			    strcmp(res->side[f].failed, "not run")) {
				snprintf(res->reason, sizeof(res->reason), "%s",
					 res->side[f].failed);
				break;
			}
		}
	}
	res->ok = !res->reason[0];
	return rc;
}

static json_object *side_json(const struct bs_duet_side *sd)
{
	json_object *o = json_object_new_object();
	int st = sd->sess.wait_status;
	bool ex = sd->sess.exited;

	json_object_object_add(o, "pid", json_object_new_int(sd->spawned ? sd->sess.pid : 0));
	json_object_object_add(o, "start_ns", json_object_new_int64((int64_t)sd->start_ns));
	json_object_object_add(o, "end_ns", json_object_new_int64((int64_t)sd->end_ns));
	json_object_object_add(o, "exit_code",
			       ex && WIFEXITED(st) ? json_object_new_int(WEXITSTATUS(st)) : NULL);
	json_object_object_add(o, "signal",
			       ex && WIFSIGNALED(st) ? json_object_new_int(WTERMSIG(st)) : NULL);
	json_object_object_add(o, "failed",
			       sd->failed[0] ? json_object_new_string(sd->failed) : NULL);
	json_object_object_add(o, "iterations", json_object_new_int64((int64_t)sd->n_iters));
	return o;
}

json_object *bs_duet_runres_event(const struct bs_duet_runres *res, const struct bs_duet_cpus *cpus)
{
	json_object *ev = json_object_new_object(), *sides = json_object_new_object(), *c = NULL;

	json_object_object_add(ev, "kind", json_object_new_string("duet_run"));
	json_object_object_add(ev, "run", json_object_new_int(res->run));
	json_object_object_add(ev, "method",
			       json_object_new_string(bs_duet_method_name(res->plan.method)));
	json_object_object_add(ev, "index", json_object_new_int(res->plan.index));
	json_object_object_add(ev, "order", json_object_new_string(res->plan.order ? "BA" : "AB"));
	json_object_object_add(ev, "start_ns", json_object_new_int64((int64_t)res->start_ns));
	json_object_object_add(ev, "end_ns", json_object_new_int64((int64_t)res->end_ns));
	json_object_object_add(ev, "ok", json_object_new_boolean(res->ok));
	json_object_object_add(ev, "reason",
			       res->reason[0] ? json_object_new_string(res->reason) : NULL);
	json_object_object_add(sides, "A", side_json(&res->side[0]));
	json_object_object_add(sides, "B", side_json(&res->side[1]));
	json_object_object_add(ev, "sides", sides);
	if (cpus && cpus->set) {
		int sw = res->plan.swap ? 1 : 0;

		/* where each side started; swaps within the run exchange them */
		c = json_object_new_object();
		json_object_object_add(c, "A", json_object_new_string(cpus->text[sw]));
		json_object_object_add(c, "B", json_object_new_string(cpus->text[sw ^ 1]));
	}
	json_object_object_add(ev, "cpus", c);
	if (res->plan.swap)
		json_object_object_add(ev, "crossover", json_object_new_boolean(1));
	if (res->swaps)
		json_object_object_add(ev, "cpu_swaps", json_object_new_int((int)res->swaps));
	if (bs_duet_method_barrier(res->plan.method) != BS_BAR_OFF)
		json_object_object_add(ev, "barrier", bs_barrier_json(&res->bar));
	return ev;
}

void bs_duet_runres_free(struct bs_duet_runres *res)
{
	int s;

	for (s = 0; s < 2; s++) {
		bs_session_close(&res->side[s].sess);
		free(res->side[s].pids);
		res->side[s].pids = NULL;
	}
	bs_barrier_free(&res->bar);
}
