/* SPDX-License-Identifier: MIT */
/*
 * stop_run.h - `benchscope run --stop ...`: forks of an unmodified harness
 * under dynamic reconfiguration (Laaber et al. 2020 Algorithm 1),
 * observed live in one measurement session (one trace for all forks).
 *
 * Each fork is a fresh process of the harness (started held before exec,
 * like a single run). Its iterations are fed, as they arrive, to the state
 * machine of stop_fsm.h; warmup iterations get BS_ITER_F_WARMUP in the
 * trace. Once its mi measurement iterations are done the fork is ended
 * (SIGTERM, SIGKILL after the grace period); iterations that still arrive
 * get BS_ITER_F_AFTER_STOP and no analysis counts them. After each fork the
 * fork checkpoint decides whether another one is started.
 *
 * Harnesses that calibrate (the presets with a calibration rule,
 * bench_groups.h: Google Benchmark and Go size their runs by time, Catch2
 * estimates): the rule decides a run from the fork's runs up to the next
 * one, so live a run is fed to the state machine only when the next run
 * arrives (or the fork's process exits). Calibration runs are never fed;
 * those arriving during the warmup phase carry the warmup flag as well.
 *
 * Trace events (EVENT blocks, docs/json-schema.md "Stoppage"):
 *   {"kind":"stop_decision","checkpoint":"warmup"|"fork","fork":i,
 *    "iteration":j,"criterion":c,"values":[...],"threshold":t,
 *    "decision":"stop"|"continue","bound":bool,"compute_ns":n}
 *   {"kind":"fork","fork":i,"pid":p,"start_ns","end_ns","warmup_iterations",
 *    "measurement_iterations","warmup_stable","short",
 *    "ended_by":"stop"|"exit"|"signal", ...}
 * and the CONTEXT member "stop" (the configuration), the END member "stop".
 */
#ifndef BENCHSCOPE_STOP_RUN_H
#define BENCHSCOPE_STOP_RUN_H

#include <json-c/json.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "probe/measure.h"
#include "trace/bench_groups.h"
#include "stop/stop_fsm.h"

struct bs_stop_run_opts {
	struct bs_stop_plan plan;
	char *const *cmd;    /**< the harness command, NULL-terminated */
	const char *user;    /**< run it as this user, or NULL */
	int grace_ms;	     /**< SIGTERM -> SIGKILL delay */
	bs_calib_rule calib; /**< the harness's calibration rule (bench_groups.h): its calibration
			      *   runs are left out; NULL: every iteration counts */
	bool quiet;	     /**< no per-fork line on stderr */
	bool verbose;	     /**< the per-fork line also when stderr is not a terminal */
	bool progress;	     /**< the live line (util/progress.h: only on a terminal; the
			      *   caller decides with bs_progress_beside_harness and -q) */
	volatile sig_atomic_t *interrupted; /**< set by the caller's signal handler */
};

struct bs_stop_run_result {
	size_t forks;	     /**< forks started */
	bool interrupted;    /**< stopped by *interrupted */
	bool exec_failed;    /**< the harness could not be started (usage error) */
	bool harness_failed; /**< a fork exited non-zero or died of a signal benchscope did not send
			      */
	bool forks_stable;   /**< the last fork checkpoint said stable */
	int64_t wall_ns;     /**< first fork's release to the last fork's end */
	uint64_t compute_ns; /**< checkpoint computation, summed */
	size_t checkpoints;
	char failure[512]; /**< what failed, one line ("" if nothing) */
};

/** The CONTEXT member "stop" describing plan (caller owns it). */
json_object *bs_stop_plan_json(const struct bs_stop_plan *p, int grace_ms);

/**
 * bs_stop_run - run the forks of o->plan inside the open session m (hooks
 * are set and left set). Returns 0 when the forks ran (check res for
 * failures and interruption), -errno on a runtime error with a reason in err.
 */
int bs_stop_run(struct bs_measure *m, const struct bs_stop_run_opts *o,
		struct bs_stop_run_result *res, char *err, size_t errlen);

/** The END member "stop" of a result (caller owns it). */
json_object *bs_stop_run_end_json(const struct bs_stop_run_result *res);

/**
 * bs_stop_run_forks - bs_stop_run for `benchscope run`, its error printed
 * as one line "benchscope run: ...". Returns 0 with *end a new END block
 * holding "stop" (bs_stop_run_end_json), "interrupted" and "wall_ns" for
 * bs_measure_finish, also after a runtime error; or 2 (no END block) when
 * the harness could not be started before any iteration was recorded. A
 * later fork that cannot be started ends the forks with res->harness_failed
 * and res->failure set (not printed), so that the iterations kept get their
 * END block and report.
 */
int bs_stop_run_forks(struct bs_measure *m, const struct bs_stop_run_opts *o,
		      struct bs_stop_run_result *res, json_object **end);

#endif
