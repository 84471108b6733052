// SPDX-License-Identifier: MIT
/* session.c - the harness process: spawn held before exec, release, wait. */
#include "probe/session.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct target_user {
	uid_t uid;
	gid_t gid;
	char name[256];
	char home[4096];
};

static int lookup_user(const char *user, struct target_user *tu, char *err, size_t errlen)
{
	struct passwd pw, *res = NULL;
	char buf[16384];
	int rc = getpwnam_r(user, &pw, buf, sizeof(buf), &res);

	if (rc || !res) {
		snprintf(err, errlen, "unknown user '%s'", user);
		return -ENOENT;
	}
	tu->uid = pw.pw_uid;
	tu->gid = pw.pw_gid;
	snprintf(tu->name, sizeof(tu->name), "%s", pw.pw_name);
	snprintf(tu->home, sizeof(tu->home), "%s", pw.pw_dir);
	return 0;
}

bool bs_session_user_known(const char *user)
{
	struct target_user tu;
	char err[64];

	return user && lookup_user(user, &tu, err, sizeof(err)) == 0;
}

/* In the child: drop to the target user. Returns 0 or errno. */
static int become_user(const struct target_user *tu)
{
	if (initgroups(tu->name, tu->gid) || setgid(tu->gid) || setuid(tu->uid))
		return errno;
	if (setuid(0) == 0) /* privileges must be gone for good */
		return EPERM;
	setenv("HOME", tu->home, 1);
	setenv("USER", tu->name, 1);
	setenv("LOGNAME", tu->name, 1);
	return 0;
}

int bs_session_spawn(struct bs_session *s, char *const argv[], const char *user, char *err,
		     size_t errlen)
{
	struct bs_spawn_opts o = {.user = user};

	return bs_session_spawn_opts(s, argv, &o, err, errlen);
}

int bs_session_spawn_opts(struct bs_session *s, char *const argv[], const struct bs_spawn_opts *o,
			  char *err, size_t errlen)
{
	const char *user = o->user;
	struct target_user tu;
	int go[2], ex[2], rc;
	pid_t pid, parent;

	memset(s, 0, sizeof(*s));
	s->pid = -1;
	s->go_fd = s->err_fd = -1;
	if (user && (rc = lookup_user(user, &tu, err, errlen)))
		return rc;
	if (pipe2(go, O_CLOEXEC) || pipe2(ex, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -errno;
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(go[0]), close(go[1]), close(ex[0]), close(ex[1]);
		return rc;
	}
	if (pid == 0) {
		char c;
		int e = 0;

		close(go[1]);
		close(ex[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		/* held here until every probe is attached */
		if (read(go[0], &c, 1) != 1)
			_exit(127); /* the tool went away: do not run unobserved */
		if (o->stdout_set && o->stdout_fd >= 0 && dup2(o->stdout_fd, STDOUT_FILENO) < 0)
			e = errno;
		if (!e && o->stderr_set && o->stderr_fd >= 0 &&
		    dup2(o->stderr_fd, STDERR_FILENO) < 0)
			e = errno;
		if (!e && o->cpus && sched_setaffinity(0, sizeof(*o->cpus), o->cpus))
			e = errno;
		if (!e && user)
			e = become_user(&tu);
		/* after the credentials change, which clears it: the harness
		 * must not outlive a killed benchscope unobserved */
		if (!e && prctl(PR_SET_PDEATHSIG, SIGTERM) == 0 && getppid() != parent)
			_exit(127);
		if (!e) {
			execvp(argv[0], argv);
			e = errno;
		}
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	s->pid = pid;
	s->go_fd = go[1];
	s->err_fd = ex[0];
	return 0;
}

int bs_session_release(struct bs_session *s, char *err, size_t errlen)
{
	char c = 'g';
	int e = 0;
	ssize_t n;

	if (write(s->go_fd, &c, 1) != 1) {
		snprintf(err, errlen, "cannot release the harness: %s", strerror(errno));
		return -errno;
	}
	close(s->go_fd);
	s->go_fd = -1;
	do
		n = read(s->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(s->err_fd);
	s->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		snprintf(err, errlen, "cannot execute the harness: %s", strerror(e));
		waitpid(s->pid, &s->wait_status, 0);
		s->exited = true;
		return -e;
	}
	return 0;
}

int bs_session_poll(struct bs_session *s)
{
	pid_t r;

	if (s->exited)
		return 1;
	r = waitpid(s->pid, &s->wait_status, WNOHANG);
	if (r < 0)
		return errno == EINTR ? 0 : -errno;
	if (r == 0)
		return 0;
	s->exited = true;
	return 1;
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

int bs_session_stop(struct bs_session *s, int grace_ms)
{
	int waited = 0;

	if (s->pid <= 0 || s->exited)
		return 0;
	kill(s->pid, SIGTERM);
	kill(s->pid, SIGCONT);
	while (waited < grace_ms) {
		if (bs_session_poll(s) == 1)
			return 0;
		sleep_ms(10);
		waited += 10;
	}
	kill(s->pid, SIGKILL);
	if (waitpid(s->pid, &s->wait_status, 0) < 0)
		return -errno;
	s->exited = true;
	return 0;
}

void bs_session_close(struct bs_session *s)
{
	if (s->go_fd >= 0)
		close(s->go_fd);
	if (s->err_fd >= 0)
		close(s->err_fd);
	s->go_fd = s->err_fd = -1;
}
