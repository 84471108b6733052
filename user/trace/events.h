/* SPDX-License-Identifier: MIT */
/*
 * events.h - a trace's EVENT blocks of a single or forked run decoded once
 * into typed records, each kind in trace order: "fork" and "stop_decision"
 * (written by stop/stop_run.c; keys in docs/json-schema.md, "fork" and
 * "decision"), "warning" and "note" ({"kind", "text"}).
 *
 * Events of other kinds (duet runs, the waste profiler's) or without a
 * "kind" are left to their own readers. In a fork or stop_decision event the
 * keys its writer always writes are required; a missing one, or any key of
 * another type than the schema's, is an error.
 */
#ifndef BENCHSCOPE_EVENTS_H
#define BENCHSCOPE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/** EVENT kind "fork": one fork of `run --stop` / `--forks`. */
struct bs_fork_event {
	uint64_t fork;			 /**< from 1 (required) */
	uint64_t pid;			 /**< its process (required) */
	uint64_t start_ns, end_ns;	 /**< its release and its end, ns monotonic (required) */
	uint64_t warmup_iterations;	 /**< warmup iterations used (required) */
	uint64_t measurement_iterations; /**< measurement iterations (required) */
	bool warmup_stable;		 /**< warmup ended by the criterion (required) */
	bool is_short;			 /**< "short": ended before wi_min or mi (required) */
	const char *ended_by;		 /**< "stop", "exit" or "signal" (required) */
	bool killed;			 /**< SIGKILL after the grace period; false if absent */
	int64_t exit_code;		 /**< "exit_code" of a fork that exited by itself
					  *   (ended_by "exit"); -1 if absent */
	int64_t signal;			 /**< "signal" that ended a fork benchscope did not
					  *   stop (ended_by "signal"); 0 if absent */
	bool interrupted;		 /**< ended by Ctrl-C; false if absent */
	uint64_t calibration_runs;	 /**< the harness's calibration runs; 0 if absent */
	uint64_t after_stop_iterations;	 /**< iterations after the stop; 0 if absent */
};

/** EVENT kind "stop_decision": one checkpoint of the stoppage criterion. */
struct bs_stop_decision_event {
	bool fork_checkpoint;	  /**< "checkpoint": "fork" (true) or "warmup" (false) */
	uint64_t fork;		  /**< fork, from 1 */
	uint64_t iteration;	  /**< iteration of the fork it follows */
	const char *criterion;	  /**< "cv", "rciw", "kld" */
	size_t n_values;	  /**< length of "values" (the warmup or fork vector) */
	double threshold;	  /**< t */
	bool stop;		  /**< "decision": "stop" (true) or "continue" (false) */
	bool bound;		  /**< wi_max / f_max reached */
	const char *error;	  /**< why the criterion could not be computed; NULL if absent */
	uint64_t compute_ns;	  /**< time to compute this checkpoint, ns */
	struct json_object *json; /**< the event as written, for the JSON export's verbatim copy */
};

/** The run's events by kind, each array in trace order. */
struct bs_run_events {
	size_t n_events;	     /**< EVENT blocks of every kind */
	struct bs_fork_event *forks; /**< n_forks */
	size_t n_forks;
	struct bs_stop_decision_event *decisions; /**< n_decisions */
	size_t n_decisions;
	const char **warnings; /**< n_warnings texts of "warning" events */
	size_t n_warnings;
	const char **notes; /**< n_notes texts of "note" events */
	size_t n_notes;
	size_t cap_forks, cap_decisions, cap_warnings, cap_notes; /* allocated lengths */
};

/**
 * bs_run_events_add - decode the EVENT object @ev (block number @block, from
 * 1, for messages) and append it to its kind's array in *evs (zeroed before
 * the first call); other kinds are skipped. The strings and @ev itself stay
 * owned by the caller's JSON. Returns 0, -ENOMEM, or -EBADMSG with a one-line
 * message in @err naming the block and the key.
 */
int bs_run_events_add(struct bs_run_events *evs, struct json_object *ev, size_t block, char *err,
		      size_t errlen);

/** Free the arrays of *evs (NULL-safe); *evs is zeroed. */
void bs_run_events_free(struct bs_run_events *evs);

#endif
