/* SPDX-License-Identifier: MIT */
/*
 * options.h - the options of `benchscope duet` as given: the two commands
 * (-A, -B), the iteration boundaries (one set, or --probe-A/--probe-B),
 * the runs (--method, --runs, --schedule, --stop-ci, ...), the analysis
 * and outputs, the measurement. Checked and turned into what the runs need
 * by setup.h.
 */
#ifndef BENCHSCOPE_DUET_OPTIONS_H
#define BENCHSCOPE_DUET_OPTIONS_H

#include <argp.h>
#include <stdbool.h>

#include "probe/lines.h"
#include "probe/shard.h"

/** Iteration boundaries as options (run's --iter, --begin, --end, --preset), or NULL. */
struct bs_duet_probe_opts {
	const char *iter, *begin, *end, *preset;
};

/** The options as given (defaults: see bs_duet_argp). */
struct bs_duet_args {
	struct bs_duet_probe_opts common;  /**< --iter, --begin, --end, --preset */
	struct bs_duet_probe_opts side[2]; /**< each side's, filled by bs_duet_setup */
	const char *probe_text[2];	   /**< --probe-A, --probe-B: 'OPTS', or NULL */
	struct bs_lines_spec lines;	   /**< --line, --begin-line/--end-line, ... (both sides) */
	const char *shard_text;		   /**< --shard as given */
	struct bs_shard shard;		   /**< --shard I/N (probe/shard.h), from shard_text */
	const char *cmd[2];		   /**< -A, -B: the commands, not yet split */
	const char *methods, *runs, *schedule, *cpus, *name, *user;
	const char *trace, *json, *csv, *md, *plot; /**< outputs, "-" for stdout */
	long seed, ringbuf_mib, resamples;
	double timeout_s;    /**< s; a side running longer fails its run */
	double min_overlap;  /**< async pairing threshold; 0: the default 0.4 */
	double fail_pct;     /**< --fail-on-regression, % (when have_fail) */
	double stop_ci;	     /**< --stop-ci relative width; 0: not given */
	double swap_every_s; /**< --swap-every: CPU swaps within runs, s; 0: none */
	double noise_s;	     /**< --noise-check: the noise check before the runs, s; 0: none */
	long noise_every;    /**< --noise-every: check again after every N rounds; 0: never */
	int probes;	     /**< --probes: 0 auto, 1, 2 (probe/probe_count.h) */
	bool crossover;	     /**< --crossover: half the runs start with the CPUs swapped */
	bool barrier_user;   /**< --barrier-release user: never continue sides from BPF */
	bool have_fail, quiet, verbose, no_interferers, no_calibrate, harness_output, no_mds;
};

/**
 * bs_duet_argp - the parser of duet's options into a struct bs_duet_args
 * (argp_parse's input), with duet's help. Defaults, set at ARGP_KEY_INIT:
 * trace "benchscope-duet.trace", seed 1, ring buffer 16 MiB, timeout
 * 600 s, noise check 2 s, the rest 0 or NULL (methods NULL: auto). A bad value, an argument, or a
 * missing -A or -B is an argp_error ("--schedule takes rmit or fixed, not 'x'").
 */
extern const struct argp bs_duet_argp;

#endif
