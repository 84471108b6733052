// SPDX-License-Identifier: MIT
/* probe_count.c - --probes 1|2|auto (see probe_count.h). */
#include "probe/probe_count.h"

#include "probe/boundary.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int bs_probes_parse(const char *s, int *req)
{
	if (!strcmp(s, "1") || !strcmp(s, "2"))
		*req = s[0] - '0';
	else if (!strcmp(s, "auto"))
		*req = 0;
	else
		return -EINVAL;
	return 0;
}

/* Why one probe per iteration cannot be used with b ("" when it can). */
static void why_not(const struct bs_boundaries *b, bool begin_needed, const char *who, char *why,
		    size_t len)
{
	if (b->mode != BS_BOUND_GO && b->mode != BS_BOUND_GBENCH)
		snprintf(why, len,
			 "only --preset go and gbench keep their begin timestamp where the end "
			 "probe can read it (testing.B.start, the State's timer); %s boundaries "
			 "need a begin probe",
			 bs_boundaries_kind(b));
	else if (b->mode == BS_BOUND_GBENCH && !b->layout.off_timer)
		snprintf(why, len,
			 "--preset gbench: the timer's layout of libbenchmark %s is not verified",
			 b->layout.version ? b->layout.version : "?");
	else if (b->mode == BS_BOUND_GO && b->go_layout.one_probe_why[0])
		snprintf(why, len, "--preset go: %s", b->go_layout.one_probe_why);
	else if (begin_needed)
		snprintf(why, len, "%s stops a side at its begin probe", who ? who : "this method");
	else
		why[0] = '\0';
}

int bs_probes_choose(struct bs_boundaries *b, int req, bool begin_needed, const char *who,
		     char *err, size_t errlen)
{
	char why[sizeof(b->probes_why)];

	why_not(b, begin_needed, who, why, sizeof(why));
	b->probes_why[0] = '\0';
	if (req == 1 && why[0]) {
		snprintf(err, errlen, "--probes 1: %s", why);
		return -EINVAL;
	}
	if (req == 2) {
		b->probes = 2;
		snprintf(b->probes_why, sizeof(b->probes_why), "--probes 2");
		return 0;
	}
	b->probes = why[0] ? 2 : 1;
	snprintf(b->probes_why, sizeof(b->probes_why), "%s%s", req ? "--probes 1" : "auto",
		 why[0] ? ": " : "");
	if (why[0])
		snprintf(b->probes_why + strlen(b->probes_why),
			 sizeof(b->probes_why) - strlen(b->probes_why), "%s", why);
	return 0;
}
