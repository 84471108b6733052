// SPDX-License-Identifier: MIT
/* context.c - read what a trace's context block says of the recording machine. */
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "trace/context.h"
#include "util/json.h"

const char *bs_context_degraded(json_object *ctx, char *buf, size_t len)
{
	json_object *steal = bs_json_get(ctx, "steal_accounting"),
		    *si = bs_json_get(ctx, "sched_info");
	bool no_steal = steal && !json_object_get_boolean(steal),
	     no_si = si && !json_object_get_boolean(si);

	if (!no_steal && !no_si)
		return NULL;
	snprintf(buf, len, "%s%s%s",
		 no_steal ? "steal_ns reads 0 (kernel without steal accounting)" : "",
		 no_steal && no_si ? "; " : "",
		 no_si ? "sched_delay_ns reads 0 (kernel without sched_info)" : "");
	return buf;
}
