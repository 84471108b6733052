/* SPDX-License-Identifier: MIT */
/*
 * replay_load.h - the recorded forks of a trace, as replay_core.h wants them.
 *
 * Forks are the EVENT blocks of kind "fork" (stop_run.h), in trace order; an
 * iteration belongs to the fork whose [start_ns, end_ns] holds it. Usable
 * iterations: not flagged after_stop, end >= begin, and, for harnesses
 * that calibrate, not a calibration run (bench_groups.h, decided on the
 * whole trace). The warmup flags of the recording are ignored: replay
 * decides warmup itself. Value: ns per invocation when the iteration has an
 * invocation count, else its duration (ns). Cost of ending after usable
 * iteration i: the end of that iteration - or, for harnesses that
 * calibrate, of the next run of the fork, since live the run is classified
 * only when the next one arrives - minus the fork's start.
 */
#ifndef BENCHSCOPE_REPLAY_LOAD_H
#define BENCHSCOPE_REPLAY_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "trace/dataset.h"
#include "stop/replay_core.h"

struct bs_replay_trace {
	struct bs_replay_fork *forks;
	size_t n_forks;
	int calibrates;	   /**< the harness calibrates (trace/bench_groups.h) */
	size_t n_excluded; /**< iterations not usable (calibration, after_stop, invalid) */
	double *vbuf;	   /**< storage behind forks[].v */
	uint64_t *cbuf;	   /**< storage behind forks[].cost_ns */
};

/**
 * bs_replay_load - the forks of ds. Returns 0; -EINVAL with a one-line
 * reason in err when the trace holds no fork event (not recorded with
 * `run --forks` / `--stop`); -ENOMEM.
 */
int bs_replay_load(const struct bs_dataset *ds, struct bs_replay_trace *t, char *err,
		   size_t errlen);

/** Free what t holds and zero it, not t itself; NULL is a no-op, and so is
 * a zeroed or already freed t. */
void bs_replay_trace_free(struct bs_replay_trace *t);

#endif
