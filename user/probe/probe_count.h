/* SPDX-License-Identifier: MIT */
/*
 * probe_count.h - `--probes 1|2|auto`: how many probes fire per iteration.
 *
 * Two (a begin and an end probe) work for every kind of boundaries. One
 * works where the harness keeps its own begin timestamp in memory on the
 * clock of bpf_ktime_get_ns: the end probe reads it and no begin trap
 * fires, which halves the traps (bpf/onep.bpf.h). Supported: --preset go
 * (testing.B.start, binary/gobench.h) and --preset gbench (the State's
 * ThreadTimer, binary/gbench.h), unless a duet method needs the begin
 * probe (sync and interleaved stop a side there).
 */
#ifndef BENCHSCOPE_PROBE_COUNT_H
#define BENCHSCOPE_PROBE_COUNT_H

#include <stdbool.h>
#include <stddef.h>

struct bs_boundaries;

/** The one-line error of a bad --probes value (a printf format with one %s). */
#define BS_PROBES_USAGE "--probes takes 1, 2 or auto, not '%s'"

/**
 * bs_probes_parse - parse --probes: "1", "2" or "auto" into *@req (1, 2;
 * 0 for auto). 0, or -EINVAL (*@req untouched).
 */
int bs_probes_parse(const char *s, int *req);

/**
 * bs_probes_choose - set b->probes (1 or 2) and b->probes_why for the
 * request @req (0 auto, 1, 2) on the resolved boundaries @b; @begin_needed:
 * the caller needs a begin probe (a duet's sync or interleaved method:
 * @who names it for messages, e.g. "--method sync"). auto takes 1 where it
 * is supported, else 2 with the reason in probes_why.
 * Returns 0, or -EINVAL with a one-line reason in err when 1 was asked for
 * and is not supported.
 */
int bs_probes_choose(struct bs_boundaries *b, int req, bool begin_needed, const char *who,
		     char *err, size_t errlen);

#endif
