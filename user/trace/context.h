/* SPDX-License-Identifier: MIT */
/*
 * context.h - what a trace's context block says of the recording machine
 * (the block is built by probe/context.h; its keys in docs/json-schema.md).
 */
#ifndef BENCHSCOPE_CONTEXT_H
#define BENCHSCOPE_CONTEXT_H

#include <stddef.h>

struct json_object;

/**
 * bs_context_degraded - what the recording machine lacked that makes some
 * figures read 0 (context keys "steal_accounting", "sched_info", from the
 * capability probes of caps.h), as one line in @buf; NULL when nothing is
 * lacking or the trace predates those keys.
 */
const char *bs_context_degraded(struct json_object *ctx, char *buf, size_t len);

#endif
