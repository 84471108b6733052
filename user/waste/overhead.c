// SPDX-License-Identifier: MIT
/* waste/overhead.c - trap cost, period controller, baseline run (see waste/overhead.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
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

/* ns per trap on the CPU this thread runs on: @n writes with breakpoint @fd
 * armed minus @n without, the best of 3; NaN when it cannot be armed. */
static double trap_cost_here(int fd, int n)
{
	uint64_t t0, best_on = UINT64_MAX, best_off = UINT64_MAX;
	int i, rep;

	for (rep = 0; rep < 3; rep++) {
		if (bs_waste_arm_bp(fd, (uint64_t)(uintptr_t)&calib_var, 8, BS_WATCH_W))
			return NAN;
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
	return best_on > best_off ? (double)(best_on - best_off) / n : 0;
}

/* CPUs measured one by one at most; the others are given the mean */
#define CALIB_MAX_CPUS 32

/*
 * The cost of one watchpoint trap with on_hit attached, on each CPU this
 * thread may run on (pinned to each in turn; a VM's vCPUs can differ by 2x):
 * w->trap_ns_cpu[], the mean returned. NaN and w->err when breakpoints do
 * not work here.
 */
double bs_waste_measure_trap_ns(struct bs_waste_run *w)
{
	LIBBPF_OPTS(bpf_perf_event_opts, o, .bpf_cookie = BS_WASTE_CALIB_SLOT);
	cpu_set_t all, one;
	struct bpf_link *l;
	double sum = 0, c;
	int fd, cpu, n = 0;

	for (cpu = 0; cpu < BS_WASTE_MAX_CPUS; cpu++)
		w->trap_ns_cpu[cpu] = NAN;
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
	if (sched_getaffinity(0, sizeof(all), &all))
		CPU_ZERO(&all);
	for (cpu = 0; cpu < BS_WASTE_MAX_CPUS && n < CALIB_MAX_CPUS; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		c = trap_cost_here(fd, 1000);
		if (isnan(c))
			break;
		w->trap_ns_cpu[cpu] = c;
		sum += c;
		n++;
	}
	if (CPU_COUNT(&all))
		sched_setaffinity(0, sizeof(all), &all);
	if (!n) { /* pinning refused: where it runs */
		c = trap_cost_here(fd, 1000);
		sum = c;
		n = isnan(c) ? 0 : 1;
	}
	bpf_link__destroy(l);
	close(fd);
	if (!n) {
		snprintf(w->err, sizeof(w->err),
			 "PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a breakpoint failed: %s",
			 strerror(errno));
		return NAN;
	}
	for (cpu = 0; cpu < BS_WASTE_MAX_CPUS; cpu++)
		if (isnan(w->trap_ns_cpu[cpu]))
			w->trap_ns_cpu[cpu] = sum / n;
	return sum / n;
}

/* ---- what the run costs the program, the period, the baseline --------------------- */

uint64_t bs_waste_thread_cpu_ns(pid_t pid, pid_t tid)
{
	char path[96];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

double bs_waste_account(struct bs_waste_run *w, uint64_t now, struct bs_waste_window *win)
{
	struct bs_waste_cost *c = &w->cost;
	struct waste_bpf__bss *b = w->skel->bss;
	double traps_ns = 0, stop = 0, cpu = 0, wall;
	uint64_t i;

	for (i = 0; i < BS_WASTE_MAX_CPUS; i++) {
		uint64_t n = b->cpu_traps[i];

		traps_ns += (double)(n - c->cpu_traps[i]) * w->trap_ns_cpu[i];
		c->cpu_traps[i] = n;
	}
	stop = (double)(w->c.stop_ns - c->stop_ns) +
	       (double)(w->c.stop_wakes - c->stop_wakes) * w->freeze_ns;
	c->stop_ns = w->c.stop_ns;
	c->stop_wakes = w->c.stop_wakes;
	for (i = 0; i < BS_WASTE_MAX_THREADS; i++) {
		struct bs_waste_thread *t = &w->th[i];
		uint64_t ns;

		if (!t->used)
			continue;
		ns = bs_waste_thread_cpu_ns(t->pid, t->tid);
		if (ns > t->cpu_ns)
			cpu += (double)(ns - t->cpu_ns);
		if (ns)
			t->cpu_ns = ns;
	}
	{
		uint64_t from = c->at_ns ? c->at_ns : w->t_start;

		wall = now > from ? (double)(now - from) : 0;
	}
	c->at_ns = now;
	/* the stops and the continues' estimated cost cannot have taken more
	 * of the program's time than went by (the estimate is a median of a
	 * few cycles at start, on a machine that may be loaded since) */
	if (stop > wall)
		stop = wall;
	c->trap_sum_ns += traps_ns;
	c->stop_sum_ns += stop;
	c->cpu_sum_ns += cpu;
	*win = (struct bs_waste_window){traps_ns, stop, cpu, wall};
	return bs_waste_cost_frac(traps_ns, stop, cpu, wall);
}

double bs_waste_cost_frac(double trap_ns, double stop_ns, double cpu_ns, double wall_ns)
{
	/* the traps ran on the program's threads, inside their CPU time; a
	 * CPU time under 1 ms (an idle window) counts as 1 ms */
	double work = fmax(cpu_ns - trap_ns, 1e6);

	return trap_ns / work + (wall_ns > 0 ? stop_ns / wall_ns : 0);
}

double bs_waste_program_cpu_ns(const struct bs_waste_run *w)
{
	return isnan(w->cmd_cpu_ns) ? w->cost.cpu_sum_ns : w->cmd_cpu_ns;
}

double bs_waste_estimated_pct(const struct bs_waste_run *w)
{
	return bs_waste_cost_frac(w->cost.trap_sum_ns, w->cost.stop_sum_ns,
				  bs_waste_program_cpu_ns(w), w->run_ns) *
	       100;
}

/* Lengthen (or shorten back) the period to keep the cost under the budget. */
void bs_waste_adapt(struct bs_waste_run *w)
{
	struct bs_waste_window *d = &w->cost.decide, win;
	uint64_t now = bs_mono_ns();
	double frac, budget = w->a->overhead_pct / 100, f;
	uint64_t np = w->period;
	int i;

	if (now - (w->cost.at_ns ? w->cost.at_ns : w->t_start) < 25000000ull)
		return;
	frac = bs_waste_account(w, now, &win);
	d->trap_ns += win.trap_ns;
	d->stop_ns += win.stop_ns;
	d->cpu_ns += win.cpu_ns;
	d->wall_ns += win.wall_ns;
	/* a decision every 100 ms, or at once on a 25 ms window twice over budget
	 * (the first windows of a short run, before the period settles) */
	if (d->wall_ns >= 1e8)
		frac = bs_waste_cost_frac(d->trap_ns, d->stop_ns, d->cpu_ns, d->wall_ns);
	else if (frac <= 2 * budget)
		return;
	memset(d, 0, sizeof(*d));
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
 * peak RSS read every 2 ms from its exec on. Before the exec the child is a
 * copy of benchscope, whose VmHWM is benchscope's (tens of MiB): a
 * close-on-exec pipe tells when the exec happened (or failed), and the
 * sampling starts there (the exec starts a new VmHWM). 0 or -errno.
 */
int bs_waste_baseline(char **cmd, double *ns, long *maxrss)
{
	uint64_t t0 = bs_mono_ns();
	int st, fds[2];
	char c;
	pid_t pid, r;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (pid == 0) {
		FILE *n = freopen("/dev/null", "w", stdout);

		(void)n;
		close(fds[0]);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	close(fds[1]);
	/* EOF once the exec closed the write end (or the child exited) */
	while (read(fds[0], &c, 1) < 0 && errno == EINTR)
		;
	close(fds[0]);
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
