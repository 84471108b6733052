/* SPDX-License-Identifier: MIT */
/*
 * run_once.h - `benchscope run` without forks: the harness run once inside
 * an open measurement session (measure.h), from its start, held before
 * exec, to its exit, with a live count of the iterations on stderr
 * (progress.h). Forked runs are stop_run.h.
 */
#ifndef BENCHSCOPE_RUN_ONCE_H
#define BENCHSCOPE_RUN_ONCE_H

#include <json-c/json.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "probe/measure.h"
#include "probe/session.h"

/** The one run of the harness. */
struct bs_run_once {
	struct bs_session sess; /**< the harness; pid -1 until it is started */
	bool interrupted;	/**< *interrupted stopped it while it ran */
};

/** bs_run_once_init - no harness yet (bs_run_once_close is then a no-op). */
void bs_run_once_init(struct bs_run_once *r);

/**
 * bs_run_once - start @cmd (NULL-terminated; as @user, or NULL) held before
 * exec, follow it in @m, release it, and stream its records into the trace
 * until it exits, or until *interrupted is set (then it is stopped:
 * SIGTERM, SIGKILL after 2 s). Meanwhile a live line counts the
 * iterations when @progress (util/progress.h: only on a terminal; the
 * caller decides with bs_progress_beside_harness and -q).
 * Returns 0 with *end a new END block holding "status" (pid, exited,
 * exit_code, signaled, signal), "interrupted" and "wall_ns" (release to
 * exit, ns) for bs_measure_finish; this also when the release failed
 * (exec failed: its line is printed, the harness has exited with 127).
 * Else no END block, and the exit status after one line "benchscope run:
 * ..." on stderr: 2 the harness could not be started (e.g. an unknown
 * user), 1 it could not be followed, 130 interrupted before its release.
 */
int bs_run_once(struct bs_run_once *r, struct bs_measure *m, char *const *cmd, const char *user,
		bool progress, volatile sig_atomic_t *interrupted, json_object **end);

/**
 * bs_run_once_failed - whether the harness exited with a non-zero status
 * or was killed by a signal; if so, say so on stderr in one line, with the
 * @iters iterations kept in @trace.
 */
bool bs_run_once_failed(const struct bs_run_once *r, uint64_t iters, const char *trace);

/** bs_run_once_close - stop the harness if it still runs (2 s grace) and close its descriptors. */
void bs_run_once_close(struct bs_run_once *r);

#endif
