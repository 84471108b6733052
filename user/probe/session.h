/* SPDX-License-Identifier: MIT */
/*
 * session.h - start the harness held before exec, release it, wait for it.
 *
 * The child is forked at once but blocks before execvp() until
 * bs_session_release(), so that every probe is attached before the harness
 * runs its first instruction (no iteration missed). Exec failures in the
 * child are reported back to the parent through a close-on-exec pipe.
 */
#ifndef BENCHSCOPE_SESSION_H
#define BENCHSCOPE_SESSION_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

struct bs_session {
	pid_t pid;	 /**< the harness (same pid before and after exec) */
	int go_fd;	 /**< write end: one byte releases the child */
	int err_fd;	 /**< read end: errno of a failed exec, or EOF on success */
	bool exited;	 /**< waited for */
	int wait_status; /**< wait(2) status once exited */
};

/** The one-line error of --user naming no user (run, duet; one %s: the name). */
#define BS_USER_USAGE "--user names no user of this machine: '%s'"

/**
 * bs_session_user_known - whether @user names a user of this machine
 * (getpwnam_r): checked when run's and duet's options are read, before any
 * probe is loaded or trace created, and again when the harness is spawned.
 */
bool bs_session_user_known(const char *user);

/**
 * Fork the harness and hold it before exec.
 * @argv   NULL-terminated command, argv[0] resolved through PATH by execvp
 * @user   run the harness as this user (initgroups/setgid/setuid), or NULL
 * Returns 0, or -errno with a one-line reason in err (e.g. unknown user).
 */
int bs_session_spawn(struct bs_session *s, char *const argv[], const char *user, char *err,
		     size_t errlen);

/** How to start the harness (bs_session_spawn_opts); zero fields: defaults. */
struct bs_spawn_opts {
	const char *user;      /**< run as this user, or NULL */
	const cpu_set_t *cpus; /**< CPU affinity set in the child before exec
				*   (sched_setaffinity), or NULL: inherited */
	int stdout_fd;	       /**< dup2'ed onto the child's stdout; < 0: inherited.
				*   Use stdout_set, since 0 is a valid fd */
	bool stdout_set;
	int stderr_fd; /**< dup2'ed onto the child's stderr if stderr_set */
	bool stderr_set;
};

/**
 * bs_session_spawn_opts - bs_session_spawn with placement and output
 * options. A failing sched_setaffinity in the child is reported by
 * bs_session_release like a failed exec. Returns 0 or -errno with a reason.
 */
int bs_session_spawn_opts(struct bs_session *s, char *const argv[], const struct bs_spawn_opts *o,
			  char *err, size_t errlen);

/**
 * Let the held child exec. Returns 0 once exec succeeded, or -errno of the
 * failed exec (the child has then exited with status 127) with a reason in err.
 */
int bs_session_release(struct bs_session *s, char *err, size_t errlen);

/** Non-blocking wait: 1 if the harness has exited (status in s), 0 if not, -errno. */
int bs_session_poll(struct bs_session *s);

/**
 * Stop the harness: SIGTERM (and SIGCONT, should it be stopped, e.g. at a
 * sync-duet barrier), then SIGKILL after grace_ms; waits for it.
 * Safe to call when it already exited. Returns 0 or -errno.
 */
int bs_session_stop(struct bs_session *s, int grace_ms);

/** Close descriptors (does not signal the child). */
void bs_session_close(struct bs_session *s);

#endif
