/* SPDX-License-Identifier: MIT */
/*
 * calibrate.h - what one probe hit costs on this machine and kernel.
 *
 * Probe cost differs 20x between machines (`benchscope doctor` measured 9 us
 * per uprobe on Intel/KVM VMs and 18 us on AMD/PVM ones; ~0.3 us is
 * published for bare metal), so it is measured, not assumed: an
 * empty function (or USDT site) inside benchscope is called N times with a
 * do-nothing BPF program attached the same way as the iteration boundaries,
 * and N times without; the difference per call, median of several rounds,
 * is the perturbation the boundaries add to every iteration.
 */
#ifndef BENCHSCOPE_CALIBRATE_H
#define BENCHSCOPE_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/boundary.h"

struct bs_probes;
struct bs_progress;

/**
 * A progress line over the timed rounds of several kinds (calibrate,
 * doctor): each kind times @rounds loops unprobed and @rounds probed, so
 * total = kinds x rounds x 2.
 */
struct bs_calib_steps {
	struct bs_progress *line; /**< util/progress.h; NULL: none */
	uint64_t done, total;	  /**< timed rounds */
};

/** One timed round done: count it and redraw the line. NULL-safe. */
void bs_calib_step(struct bs_calib_steps *s);

struct bs_probe_cost {
	double begin_ns;	 /**< per hit of the begin site's kind */
	double end_ns;		 /**< per hit of the end site's kind */
	double per_iteration_ns; /**< both boundaries as attached, per iteration */
	int calls;		 /**< calls per round */
	int rounds;		 /**< rounds (the median is kept) */
	char method[160];
};

/**
 * Measure the cost of the probe kinds used by b, with the loaded object of p.
 * Returns 0 or -errno (cost unknown: fields are NAN).
 */
int bs_calibrate(struct bs_probes *p, const struct bs_boundaries *b, int calls, int rounds,
		 struct bs_probe_cost *out);

/** Why bs_calibrate_kind could not measure a kind. */
struct bs_calib_fail {
	bool attach; /**< the probe of that kind does not attach here: the machine (kernel)
		      *   lacks it; else a runtime error (memory, /proc/self/exe) */
	int err;     /**< its errno (positive), 0 if unknown */
};

/**
 * bs_calibrate_kind - per-call cost (ns) of one site kind alone (calibrate,
 * doctor). NAN when it cannot be measured, with the cause in *@why (may be
 * NULL; zeroed on success). Its 2 x @rounds timed rounds are counted in
 * @steps (may be NULL), all of them also when it stops early.
 */
double bs_calibrate_kind(struct bs_probes *p, enum bs_site_kind kind, int calls, int rounds,
			 struct bs_calib_fail *why, struct bs_calib_steps *steps);

#endif
