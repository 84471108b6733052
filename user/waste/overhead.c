// SPDX-License-Identifier: MIT
/* waste/overhead.c - trap cost, period controller, baseline run (see waste/overhead.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "util/monotime.h"
#include "waste.skel.h"
#include "waste/ibs.h"
#include "waste/overhead.h"
#include "waste/threads.h"
#include "waste/watch.h"

/* ---- calibration ---------------------------------------------------------------- */

static volatile uint64_t calib_var;

/*
 * The cost of one watchpoint trap with on_hit attached, measured on this
 * thread: 2000 writes with the breakpoint armed minus 2000 without. NaN
 * and w->err when breakpoints do not work here.
 */
double bs_waste_measure_trap_ns(struct bs_waste_run *w)
{
	LIBBPF_OPTS(bpf_perf_event_opts, o, .bpf_cookie = BS_WASTE_CALIB_SLOT);
	struct bpf_link *l;
	int fd, i, rep;
	uint64_t t0, best_on = UINT64_MAX, best_off = UINT64_MAX;
	const int n = 2000;

	fd = bs_waste_open_bp(0);
	if (fd < 0) {
		snprintf(w->err, sizeof(w->err), "no hardware breakpoints: %s%s", strerror(-fd),
			 fd == -EACCES || fd == -EPERM ? " (needs root or CAP_PERFMON)" : "");
		return NAN;
	}
	l = bpf_program__attach_perf_event_opts(w->skel->progs.on_hit, fd, &o);
	if (!l) {
		snprintf(w->err, sizeof(w->err), "cannot attach BPF to a breakpoint: %s",
			 strerror(errno));
		close(fd);
		return NAN;
	}
	for (rep = 0; rep < 3; rep++) {
		if (bs_waste_arm_bp(fd, (uint64_t)(uintptr_t)&calib_var, 8, BS_WATCH_W)) {
			snprintf(w->err, sizeof(w->err),
				 "PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a breakpoint failed: %s",
				 strerror(errno));
			bpf_link__destroy(l);
			close(fd);
			return NAN;
		}
		t0 = bs_mono_ns();
		for (i = 0; i < n; i++)
			calib_var = (uint64_t)i;
		t0 = bs_mono_ns() - t0;
		best_on = t0 < best_on ? t0 : best_on;
		bs_waste_disarm_bp(fd);
		t0 = bs_mono_ns();
		for (i = 0; i < n; i++)
			calib_var = (uint64_t)i;
		t0 = bs_mono_ns() - t0;
		best_off = t0 < best_off ? t0 : best_off;
	}
	bpf_link__destroy(l);
	close(fd);
	return best_on > best_off ? (double)(best_on - best_off) / n : 0;
}

/* ---- the period, the baseline ---------------------------------------------------- */

/* Lengthen (or shorten back) the period to keep the cost under the budget. */
void bs_waste_adapt(struct bs_waste_run *w, double trap_ns, double freeze_ns, uint64_t *last_ns,
		    uint64_t *last_traps, uint64_t *last_stop, uint64_t *last_stop_ns)
{
	uint64_t now = bs_mono_ns(), traps, dt;
	double cost, frac, budget = w->a->overhead_pct / 100, f;
	uint64_t np = w->period;
	int i;

	dt = now - *last_ns;
	if (dt < 100000000ull)
		return;
	traps = w->skel->bss->n_hits + w->skel->bss->n_self + w->skel->bss->n_extra +
		w->skel->bss->n_stale;
	/* a frozen sample costs the program its handling time (sample to SIGCONT,
	 * measured per sample) plus being woken again (measured at start) */
	cost = (double)(traps - *last_traps) * trap_ns + (double)(w->c.stop_ns - *last_stop_ns) +
	       (double)(w->c.stops - *last_stop) * freeze_ns;
	frac = cost / (double)dt;
	if (frac > budget) {
		f = fmin(8.0, frac / budget * 1.25);
		np = (uint64_t)((double)w->period * f);
	} else if (frac < budget / 3 && w->period > w->period0) {
		np = (uint64_t)fmax((double)w->period0, (double)w->period / 1.5);
	}
	if (w->src == BS_SRC_IBS)
		np = bs_waste_ibs_period(np);
	if (np != w->period) {
		w->period = np;
		bs_waste_note_period(w, now, np, frac * 100);
		for (i = 0; i < BS_WASTE_MAX_THREADS; i++)
			if (w->th[i].used && w->th[i].sfd >= 0)
				bs_waste_set_period(w->th[i].sfd, np);
	}
	*last_ns = now;
	*last_traps = traps;
	*last_stop = w->c.stops;
	*last_stop_ns = w->c.stop_ns;
}

void bs_waste_note_period(struct bs_waste_run *w, uint64_t now_ns, uint64_t period,
			  double window_pct)
{
	if (!w->steps)
		w->steps = calloc(BS_WASTE_MAX_STEPS, sizeof(*w->steps));
	if (!w->steps || w->nsteps >= BS_WASTE_MAX_STEPS) {
		w->steps_dropped++;
		return;
	}
	w->steps[w->nsteps++] = (struct bs_waste_period_step){
	    .t_ns = now_ns > w->t_start ? now_ns - w->t_start : 0,
	    .period = period,
	    .window_pct = window_pct,
	};
}

/* Peak RSS (VmHWM, KiB) of @pid so far, or 0. */
long bs_waste_read_hwm(pid_t pid)
{
	char path[64], line[256];
	long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6)) {
			v = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * Run CMD once without benchscope (stdout to /dev/null): wall ns, and its
 * peak RSS read every 20 ms as for the instrumented run. 0 or -errno.
 */
int bs_waste_baseline(char **cmd, double *ns, long *maxrss)
{
	uint64_t t0 = bs_mono_ns();
	int st;
	pid_t pid = fork(), r;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		FILE *n = freopen("/dev/null", "w", stdout);

		(void)n;
		execvp(cmd[0], cmd);
		_exit(127);
	}
	*maxrss = 0;
	while ((r = waitpid(pid, &st, WNOHANG)) == 0) {
		long h = bs_waste_read_hwm(pid);
		struct timespec ts = {0, 2000000};

		if (h > *maxrss)
			*maxrss = h;
		nanosleep(&ts, NULL);
	}
	if (r < 0)
		return -errno;
	*ns = (double)(bs_mono_ns() - t0);
	return 0;
}
