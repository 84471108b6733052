// SPDX-License-Identifier: MIT
/* context.c - build the context block of a trace: the machine and the run, as measured now. */
#include "util/version.h"
#include "probe/context.h"
#include "probe/caps.h"
#include "trace/format.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static void cpu_model(char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			colon++;
			while (*colon == ' ' || *colon == '\t')
				colon++;
			colon[strcspn(colon, "\n")] = 0;
			snprintf(out, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

static json_object *num_or_null(double v)
{
	return isnan(v) ? NULL : json_object_new_double(round(v * 10) / 10);
}

char *bs_context_json(char *const argv[], const struct bs_boundaries *b,
		      const struct bs_probe_cost *cost, const char *user)
{
	json_object *o = json_object_new_object(), *cmd = json_object_new_array(), *bj, *pc;
	struct utsname u;
	char buf[512], host[256] = "";
	time_t now = time(NULL);
	struct tm tm;
	char *bjs, *s;

	json_object_object_add(o, "tool", json_object_new_string("benchscope"));
	json_object_object_add(o, "version", json_object_new_string(BS_VERSION));
	snprintf(buf, sizeof(buf), "%d.%d", BS_TRACE_VERSION_MAJOR, BS_TRACE_VERSION_MINOR);
	json_object_object_add(o, "trace_format", json_object_new_string(buf));
	if (!uname(&u)) {
		json_object_object_add(o, "kernel", json_object_new_string(u.release));
		json_object_object_add(o, "kernel_version", json_object_new_string(u.version));
		json_object_object_add(o, "machine", json_object_new_string(u.machine));
	}
	cpu_model(buf, sizeof(buf));
	json_object_object_add(o, "cpu_model", json_object_new_string(buf));
	json_object_object_add(o, "ncpus", json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
	{
		bool steal, sched_info;

		bs_caps_kernel_accounting(&steal, &sched_info);
		json_object_object_add(
		    o, "hypervisor",
		    json_object_new_string(bs_hypervisor_name(buf, sizeof(buf), false)));
		json_object_object_add(o, "steal_accounting", json_object_new_boolean(steal));
		json_object_object_add(o, "sched_info", json_object_new_boolean(sched_info));
	}
	if (!gethostname(host, sizeof(host) - 1))
		json_object_object_add(o, "hostname", json_object_new_string(host));
	json_object_object_add(o, "clock", json_object_new_string("CLOCK_MONOTONIC"));
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(o, "started_at", json_object_new_string(buf));
	for (; *argv; argv++)
		json_object_array_add(cmd, json_object_new_string(*argv));
	json_object_object_add(o, "command", cmd);
	if (user)
		json_object_object_add(o, "user", json_object_new_string(user));
	bjs = bs_boundaries_json(b);
	bj = bjs ? json_tokener_parse(bjs) : NULL;
	free(bjs);
	if (bj)
		json_object_object_add(o, "boundaries", bj);
	if (cost) {
		pc = json_object_new_object();
		json_object_object_add(pc, "begin", num_or_null(cost->begin_ns));
		json_object_object_add(pc, "end", num_or_null(cost->end_ns));
		json_object_object_add(pc, "per_iteration", num_or_null(cost->per_iteration_ns));
		json_object_object_add(pc, "method", json_object_new_string(cost->method));
		json_object_object_add(o, "probe_cost_ns", pc);
	}
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}
