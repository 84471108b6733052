/* SPDX-License-Identifier: MIT */
/*
 * context.h - build the machine and run context stored in every trace:
 * kernel, CPU model and count, hypervisor and kernel accounting (caps.h),
 * clock, tool version, command, boundaries, probe cost. Read back by
 * trace/context.h and the renderers.
 */
#ifndef BENCHSCOPE_PROBE_CONTEXT_H
#define BENCHSCOPE_PROBE_CONTEXT_H

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

#endif
