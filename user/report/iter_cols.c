// SPDX-License-Identifier: MIT
/* iter_cols.c - per-iteration export columns (see iter_cols.h). */
#include "report/iter_cols.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "report/summary.h"

enum src { U32, U64, DURATION, NS_PER_OP, FLAGS };

struct col_def {
	struct bs_iter_col col;
	enum src src;
	size_t offset;
	bool probed; /* measured by the scheduler probes: absent under BS_ITER_F_NO_INTF */
};

#define REC(name, unit, doc, type)                                                                 \
	{                                                                                          \
		{#name, unit, doc}, type, offsetof(struct bs_iter_rec, name), false                \
	}
#define PROBED(name, unit, doc, type)                                                              \
	{                                                                                          \
		{#name, unit, doc}, type, offsetof(struct bs_iter_rec, name), true                 \
	}

static const struct col_def defs[] = {
    REC(index, "", "iteration index within its process, from 0", U64),
    REC(pid, "", "process (tgid)", U32),
    REC(tid, "", "thread that began the iteration", U32),
    PROBED(cpu_begin, "", "CPU at the begin boundary", U32),
    PROBED(cpu_end, "", "CPU at the end boundary", U32),
    REC(begin_ns, "ns", "begin timestamp, CLOCK_MONOTONIC", U64),
    REC(end_ns, "ns", "end timestamp, CLOCK_MONOTONIC", U64),
    {{"duration_ns", "ns", "end_ns - begin_ns"}, DURATION, 0, false},
    REC(invocations, "count", "invocations run by the iteration (0: unknown)", U64),
    {{"ns_per_op", "ns/op", "duration_ns / invocations; empty unless flag invoc"},
     NS_PER_OP,
     0,
     false},
    PROBED(preempted_ns, "ns", "off-CPU time that began with an involuntary switch", U64),
    PROBED(blocked_ns, "ns", "off-CPU time that began with a voluntary switch", U64),
    PROBED(runq_wait_ns, "ns", "runnable but not running", U64),
    PROBED(irq_ns, "ns", "hard-IRQ time on its CPU while it ran", U64),
    PROBED(softirq_ns, "ns", "softirq time on its CPU while it ran", U64),
    PROBED(steal_ns, "ns", "hypervisor steal time while it ran", U64),
    PROBED(sched_delay_ns, "ns", "kernel's sched_info run_delay delta", U64),
    PROBED(nvcsw, "count", "voluntary context switches", U32),
    PROBED(nivcsw, "count", "involuntary context switches", U32),
    PROBED(migrations, "count", "CPU migrations", U32),
    REC(probe, "", "boundary pair that delimited it (0: the first)", U32),
    REC(flags, "",
	"flags joined by '|': invoc, invoc_bad, spilled, exit, nested, warmup, after_stop, "
	"moved (Go: its goroutine ran on several threads; one probe: the thread was off CPU at "
	"the harness's begin), paused (the benchmark paused its timer inside it: Go's "
	"b.StopTimer, gbench's PauseTiming with one probe), harness_warmup (the harness ran it "
	"as warm-up: criterion's Routine::warm_up, an imported warm-up), begin_approx (one "
	"probe: the thread's switch history did not reach back to the begin; interference "
	"undercounted), synth_time, no_interference, unseen_switch (the scheduler handler "
	"missed a switch of the thread; off-CPU time undercounted)",
	FLAGS),
};

#undef REC
#undef PROBED
#define N_DEFS (sizeof(defs) / sizeof(defs[0]))

const struct bs_iter_col *bs_iter_cols(size_t *n)
{
	static struct bs_iter_col cols[N_DEFS];

	if (!cols[0].name)
		for (size_t i = 0; i < N_DEFS; i++)
			cols[i] = defs[i].col;
	*n = N_DEFS;
	return cols;
}

char *bs_iter_flag_names(uint32_t flags, char *buf, size_t len)
{
	static const char *names[] = {
	    "invoc",	    "invoc_bad",  "spilled",	     "exit",	     "nested",
	    "warmup",	    "after_stop", "moved",	     "paused",	     "harness_warmup",
	    "begin_approx", "synth_time", "no_interference", "unseen_switch"};
	size_t pos = 0;

	buf[0] = 0;
	for (unsigned b = 0; b < 32 && pos < len; b++) {
		if (!(flags & (1u << b)))
			continue;
		if (b < sizeof(names) / sizeof(names[0]))
			pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", pos ? "|" : "",
						names[b]);
		else
			pos += (size_t)snprintf(buf + pos, len - pos, "%s0x%x", pos ? "|" : "",
						1u << b);
	}
	return buf;
}

void bs_iter_col_value(size_t col, const struct bs_iter_rec *r, struct bs_col_val *v)
{
	const struct col_def *d = &defs[col < N_DEFS ? col : 0];
	const char *p = (const char *)r + d->offset;
	uint32_t u32;
	uint64_t u64;

	memset(v, 0, sizeof(*v));
	/* imported samples: the CPUs and the interference were not measured */
	v->present = !(d->probed && (r->flags & BS_ITER_F_NO_INTF));
	v->kind = BS_COL_UINT;
	switch (d->src) {
	case U32:
		memcpy(&u32, p, sizeof(u32));
		v->u = u32;
		break;
	case U64:
		memcpy(&u64, p, sizeof(u64));
		v->u = u64;
		break;
	case DURATION:
		v->u = r->end_ns >= r->begin_ns ? r->end_ns - r->begin_ns : 0;
		break;
	case NS_PER_OP:
		v->kind = BS_COL_FLOAT;
		v->d = bs_iter_ns_per_op(r);
		v->present = !isnan(v->d);
		break;
	case FLAGS:
		v->kind = BS_COL_TEXT;
		bs_iter_flag_names(r->flags, v->text, sizeof(v->text));
		break;
	}
}
