/* SPDX-License-Identifier: MIT */
/*
 * calib_table.h - what `benchscope calibrate` prints from its measurements:
 * the table (or JSON) of the cost of one probe hit per kind, a kind that
 * could not be measured said as "not available (REASON)", never as a
 * number, and the exit status with its one line on stderr.
 */
#ifndef BENCHSCOPE_CALIB_TABLE_H
#define BENCHSCOPE_CALIB_TABLE_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>

#include "probe/calibrate.h"

/** One probe kind's measurement. */
struct bs_calib_row {
	const char *kind;	  /**< "uprobe", "uretprobe", "usdt" */
	double ns;		  /**< per hit, ns; NAN: not measured, see why */
	struct bs_calib_fail why; /**< the cause when ns is NAN */
};

/**
 * bs_calib_reason - why @r was not measured, in a few words, into @buf:
 * "the kernel does not attach it: Operation not supported" (the machine
 * lacks it), else the runtime error ("out of memory"). Returns @buf.
 */
char *bs_calib_reason(const struct bs_calib_row *r, char *buf, size_t len);

/**
 * bs_calib_print_table - the title line ("cost of one probe hit (ns),
 * median of ROUNDS rounds of CALLS hits:") and one row per kind: its cost
 * ("12.3") or "not available (REASON)". Returns 0 or -EIO.
 */
int bs_calib_print_table(FILE *f, const struct bs_calib_row *rows, size_t n, long calls,
			 long rounds);

/**
 * bs_calib_json - {"uprobe": ns or null, ..., "calls", "rounds",
 * "not_available": {"usdt": "REASON", ...}} (not_available only when a
 * kind was not measured). NULL when out of memory.
 */
json_object *bs_calib_json(const struct bs_calib_row *rows, size_t n, long calls, long rounds);

/**
 * bs_calib_status - the exit status of @rows, with one line on @err (may be
 * NULL) when not 0: 0 every kind measured; 6 (BS_EXIT_UNSUPPORTED) when
 * what failed is only kinds the kernel does not attach here ("benchscope
 * calibrate: not available on this machine: usdt (REASON)"); 1
 * (BS_EXIT_RUNTIME) when a kind failed for a runtime error.
 */
int bs_calib_status(const struct bs_calib_row *rows, size_t n, FILE *err);

#endif
