// SPDX-License-Identifier: MIT
/* calibrate.c - measure the per-hit cost of uprobes, uretprobes and USDT probes here. */
#include "probe/calibrate.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

#include "benchscope/record.h" /* struct bs_cpu_wait, named by the skeleton */
#include "benchscope.skel.h"
#include "benchscope/stats.h"
#include "binary/elfsym.h"
#include "probe/probes.h"
#include "util/monotime.h"
#include "util/progress.h"

/* Calibration targets: must stay real calls with a real entry. */
__attribute__((noinline, used)) void bs_calib_target_a(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void bs_calib_target_b(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void bs_calib_usdt_a(void)
{
	DTRACE_PROBE(benchscope, calib_a);
}

__attribute__((noinline, used)) void bs_calib_usdt_b(void)
{
	DTRACE_PROBE(benchscope, calib_b);
}

/* ns per loop step, calling the USDT or plain targets (a, and b if both). */
static double time_loop(int calls, bool usdt, bool both)
{
	double t0 = (double)bs_mono_ns();
	int i;

	for (i = 0; i < calls; i++) {
		if (usdt) {
			bs_calib_usdt_a();
			if (both)
				bs_calib_usdt_b();
		} else {
			bs_calib_target_a();
			if (both)
				bs_calib_target_b();
		}
	}
	return ((double)bs_mono_ns() - t0) / calls;
}

static struct bpf_link *attach_kind(struct bs_probes *p, const char *self, enum bs_site_kind kind,
				    bool second)
{
	struct bpf_program *prog;
	uint64_t off, size;
	char name[128], err[256];
	const char *fn = second ? "bs_calib_target_b" : "bs_calib_target_a";

	if (kind == BS_SITE_USDT) {
		prog = p->skel->progs.calib_usdt;
		return bpf_program__attach_usdt(prog, getpid(), self, "benchscope",
						second ? "calib_b" : "calib_a", NULL);
	}
	/* benchscope's own symbol missing (a stripped build): not the kernel's doing */
	if (bs_elf_find_func(self, fn, &off, &size, name, sizeof(name), err, sizeof(err))) {
		errno = ENOEXEC;
		return NULL;
	}
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = kind == BS_SITE_URETPROBE);
	prog = p->skel->progs.calib_probe;
	return bpf_program__attach_uprobe_opts(prog, getpid(), self, off, &uo);
}

/* Median of d[0..n-1] (stats/ bs_quantile); NAN when n < 1. */
static double median(const double *d, int n)
{
	double m;

	return bs_quantile(d, (size_t)n, 0.5, &m) ? NAN : m;
}

/*
 * Median probed minus median unprobed ns per loop step, over rounds, with the
 * probes of kinds k1 (on target a) and k2 (on target b, or on a as well when
 * same_fn, like --iter's uprobe + uretprobe; 0: none) attached. Attaching and
 * detaching uprobes costs milliseconds, so each is done once.
 */
void bs_calib_step(struct bs_calib_steps *s)
{
	if (!s)
		return;
	s->done++;
	if (s->line)
		bs_progress_update(s->line, s->done, s->total);
}

static double measure_why(struct bs_probes *p, enum bs_site_kind k1, enum bs_site_kind k2,
			  bool same_fn, int calls, int rounds, struct bs_calib_fail *why,
			  struct bs_calib_steps *steps)
{
	uint64_t end = steps ? steps->done + 2 * (uint64_t)(rounds > 0 ? rounds : 0) : 0;
	bool usdt = k1 == BS_SITE_USDT, both = k2 && !same_fn;
	struct bpf_link *l1 = NULL, *l2 = NULL;
	char self[PATH_MAX];
	double *base = NULL, *probed = NULL, res = NAN;
	struct bs_calib_fail fail = {false, 0};
	int r;

	if (rounds < 1 || calls < 1) {
		fail.err = EINVAL;
		goto out;
	}
	if (!realpath("/proc/self/exe", self)) {
		fail.err = errno;
		goto out;
	}
	base = calloc((size_t)rounds, sizeof(*base));
	probed = calloc((size_t)rounds, sizeof(*probed));
	if (!base || !probed) {
		fail.err = ENOMEM;
		goto out;
	}
	time_loop(calls / 10 + 1, usdt, both);
	for (r = 0; r < rounds; r++) {
		base[r] = time_loop(calls, usdt, both);
		bs_calib_step(steps);
	}
	l1 = attach_kind(p, self, k1, false);
	if (!l1 || (k2 && !(l2 = attach_kind(p, self, k2, !same_fn)))) {
		fail.err = errno;
		fail.attach = fail.err != ENOEXEC && fail.err != ENOMEM;
		goto out;
	}
	time_loop(calls / 10 + 1, usdt, both); /* let the kernel optimise the sites */
	for (r = 0; r < rounds; r++) {
		probed[r] = time_loop(calls, usdt, both);
		bs_calib_step(steps);
	}
	res = median(probed, rounds) - median(base, rounds);
	if (res < 0)
		res = 0;
out:
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	free(base);
	free(probed);
	if (steps && steps->done < end) { /* stopped early: its rounds count as done */
		steps->done = end - 1;
		bs_calib_step(steps);
	}
	if (why)
		*why = fail;
	return res;
}

static double measure(struct bs_probes *p, enum bs_site_kind k1, enum bs_site_kind k2, bool same_fn,
		      int calls, int rounds)
{
	return measure_why(p, k1, k2, same_fn, calls, rounds, NULL, NULL);
}

double bs_calibrate_kind(struct bs_probes *p, enum bs_site_kind kind, int calls, int rounds,
			 struct bs_calib_fail *why, struct bs_calib_steps *steps)
{
	return measure_why(p, kind, 0, false, calls, rounds, why, steps);
}

int bs_calibrate(struct bs_probes *p, const struct bs_boundaries *b, int calls, int rounds,
		 struct bs_probe_cost *out)
{
	bool same_fn;

	memset(out, 0, sizeof(*out));
	out->calls = calls;
	out->rounds = rounds;
	out->begin_ns = out->end_ns = out->per_iteration_ns = NAN;
	if (b->mode == BS_BOUND_PROCESS) {
		out->begin_ns = out->end_ns = out->per_iteration_ns = 0;
		snprintf(out->method, sizeof(out->method),
			 "exec/exit tracepoints: no trap in the harness; see bpf_stats");
		return 0;
	}
	if (b->mode == BS_BOUND_LINES) {
		out->begin_ns = out->end_ns = out->per_iteration_ns = 0;
		snprintf(out->method, sizeof(out->method),
			 "the write system calls (tp_btf/sys_enter): no trap; see bpf_stats "
			 "(line_sys_enter)");
		return 0;
	}
	if (b->mode != BS_BOUND_PAIR && b->mode != BS_BOUND_GBENCH && b->mode != BS_BOUND_CATCH2 &&
	    b->mode != BS_BOUND_GO && b->mode != BS_BOUND_CRITERION)
		return -EINVAL; /* go: two uprobes delimit the iteration (begin, end) */
	if (b->probes == 1) {	/* only the end probe fires (probe/probe_count.h) */
		out->begin_ns = 0;
		out->end_ns = measure(p, b->end.kind, 0, false, calls, rounds);
		out->per_iteration_ns = out->end_ns;
		snprintf(
		    out->method, sizeof(out->method),
		    "%d calls of an empty probed function in benchscope minus unprobed, median "
		    "of %d rounds; one probe per iteration (no begin trap)",
		    calls, rounds);
		return isnan(out->per_iteration_ns) ? -EIO : 0;
	}
	/* USDT and function probes do not mix in one calibration loop: measure
	 * each kind alone and add them then. */
	if ((b->begin.kind == BS_SITE_USDT) != (b->end.kind == BS_SITE_USDT)) {
		out->begin_ns = measure(p, b->begin.kind, 0, false, calls, rounds);
		out->end_ns = measure(p, b->end.kind, 0, false, calls, rounds);
		out->per_iteration_ns = out->begin_ns + out->end_ns;
	} else {
		same_fn = b->end.kind == BS_SITE_URETPROBE;
		out->begin_ns = measure(p, b->begin.kind, 0, false, calls, rounds);
		out->end_ns = measure(p, b->end.kind, 0, false, calls, rounds);
		out->per_iteration_ns =
		    measure(p, b->begin.kind, b->end.kind, same_fn, calls, rounds);
	}
	snprintf(out->method, sizeof(out->method),
		 "%d calls of an empty probed function in benchscope minus unprobed, median of %d "
		 "rounds",
		 calls, rounds);
	return isnan(out->per_iteration_ns) ? -EIO : 0;
}
