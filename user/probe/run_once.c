// SPDX-License-Identifier: MIT
/* run_once.c - one run of the harness in a measurement session (see run_once.h). */
#include "probe/run_once.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "util/monotime.h"
#include "util/progress.h"

void bs_run_once_init(struct bs_run_once *r)
{
	memset(r, 0, sizeof(*r));
	r->sess = (struct bs_session){.pid = -1, .go_fd = -1, .err_fd = -1};
}

/* The harness's exit status, for the END block. */
static json_object *status_json(const struct bs_session *s)
{
	json_object *st = json_object_new_object();
	bool ex = s->exited && WIFEXITED(s->wait_status),
	     sig = s->exited && WIFSIGNALED(s->wait_status);

	json_object_object_add(st, "pid", json_object_new_int(s->pid));
	json_object_object_add(st, "exited", json_object_new_boolean(ex));
	if (ex)
		json_object_object_add(st, "exit_code",
				       json_object_new_int(WEXITSTATUS(s->wait_status)));
	json_object_object_add(st, "signaled", json_object_new_boolean(sig));
	if (sig)
		json_object_object_add(st, "signal", json_object_new_int(WTERMSIG(s->wait_status)));
	return st;
}

int bs_run_once(struct bs_run_once *r, struct bs_measure *m, char *const *cmd, const char *user,
		bool progress, volatile sig_atomic_t *interrupted, json_object **end)
{
	struct bs_session *sess = &r->sess;
	struct bs_progress prog;
	char err[2048];
	double t_start, t_end;
	int prc;

	if (bs_session_spawn(sess, cmd, user, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err);
		return 2;
	}
	if (bs_measure_follow(m, sess->pid)) {
		fprintf(stderr, "benchscope run: cannot follow the harness: %s\n", strerror(errno));
		return 1;
	}
	t_start = (double)bs_mono_ns();
	if (*interrupted) {
		fprintf(stderr, "benchscope run: interrupted before the harness started\n");
		return 130;
	}
	if (bs_session_release(sess, err, sizeof(err))) {
		fprintf(stderr, "benchscope run: %s\n", err); /* the END block still follows */
		goto finish;
	}
	bs_progress_init(&prog, "iterations", progress);
	for (;;) {
		prc = bs_measure_poll(m, 50);
		if (prc < 0) {
			bs_progress_msg(&prog, "benchscope run: reading the ring buffer: %s",
					strerror(-prc));
			break;
		}
		if (*interrupted) {
			r->interrupted = true;
			bs_session_stop(sess, 2000);
			break;
		}
		if (bs_session_poll(sess) == 1)
			break;
		bs_progress_update(&prog, bs_measure_iters(m), 0);
	}
	bs_progress_done(&prog);
finish:
	t_end = (double)bs_mono_ns();
	*end = json_object_new_object();
	json_object_object_add(*end, "status", status_json(sess));
	json_object_object_add(*end, "interrupted", json_object_new_boolean(r->interrupted));
	json_object_object_add(*end, "wall_ns", json_object_new_int64((int64_t)(t_end - t_start)));
	return 0;
}

bool bs_run_once_failed(const struct bs_run_once *r, uint64_t iters, const char *trace)
{
	const struct bs_session *s = &r->sess;

	if (!(s->exited && (!WIFEXITED(s->wait_status) || WEXITSTATUS(s->wait_status))))
		return false;
	if (WIFSIGNALED(s->wait_status))
		fprintf(stderr,
			"benchscope run: the harness was killed by signal %d (%s); %llu "
			"iterations kept in %s\n",
			WTERMSIG(s->wait_status), strsignal(WTERMSIG(s->wait_status)),
			(unsigned long long)iters, trace);
	else
		fprintf(stderr,
			"benchscope run: the harness exited with status %d; %llu "
			"iterations kept in %s\n",
			WEXITSTATUS(s->wait_status), (unsigned long long)iters, trace);
	return true;
}

void bs_run_once_close(struct bs_run_once *r)
{
	if (r->sess.pid > 0 && !r->sess.exited)
		bs_session_stop(&r->sess, 2000);
	bs_session_close(&r->sess);
}
