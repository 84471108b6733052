/* SPDX-License-Identifier: MIT */
/*
 * context.h - the machine and run context stored in every trace: kernel,
 * CPU model and count, clock, tool version, command, boundaries, probe cost.
 */
#ifndef BENCHSCOPE_CONTEXT_H
#define BENCHSCOPE_CONTEXT_H

#include "probe/boundary.h"
#include "probe/calibrate.h"

/**
 * Build the context block as JSON text (malloc'd; NULL on ENOMEM).
 * @argv  the harness command (NULL-terminated)
 * @cost  measured probe cost, or NULL when not measured
 * @user  the user the harness runs as, or NULL
 */
char *bs_context_json(char *const argv[], const struct bs_boundaries *b,
		      const struct bs_probe_cost *cost, const char *user);

struct json_object;

/**
 * bs_context_degraded - what the recording machine lacked that makes some
 * figures read 0 (context keys "steal_accounting", "sched_info", from the
 * capability probes of caps.h), as one line in @buf; NULL when nothing is
 * lacking or the trace predates those keys.
 */
const char *bs_context_degraded(struct json_object *ctx, char *buf, size_t len);

#endif
