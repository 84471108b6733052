// SPDX-License-Identifier: MIT
/* check.c - the noise check's measurement (noise/check.h). */
#include "noise/check.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "noise/kacct.h"
#include "util/monotime.h"
#include "util/progress.h"

#define LOOP_TARGET_NS 2e6 /* one sample: about 2 ms of arithmetic */

/* the calibrated loop: n rounds of dependent integer arithmetic */
static uint64_t spin(uint64_t n)
{
	volatile uint64_t x = 1;

	for (uint64_t i = 0; i < n; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

/* One loop process's results, in memory shared with benchscope. */
struct shared_loop {
	size_t n, cap; /* loop times in ns[] */
	double runq_pct;
	int err; /* errno of a failure in the loop process */
	double ns[];
};

struct worker {
	pid_t pid;
	int cpu;
	struct shared_loop *sh;
	size_t bytes;
};

/* the calling thread's run-queue wait so far, ns: the kernel's run_delay,
 * the second field of /proc/thread-self/schedstat; 0 when unreadable */
static uint64_t runq_wait_ns(void)
{
	unsigned long long run = 0, wait = 0;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%llu %llu", &run, &wait) != 2)
		wait = 0;
	fclose(f);
	return wait;
}

/* The loop process: pinned to its CPU, loops until @until_ns, then exits. */
static void loop_process(struct shared_loop *sh, int cpu, uint64_t rounds, uint64_t until_ns)
{
	cpu_set_t one;
	uint64_t wait0, start;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		sh->err = errno;
		_exit(1);
	}
	wait0 = runq_wait_ns();
	start = bs_mono_ns();
	for (;;) {
		uint64_t t0 = bs_mono_ns(), t1;

		bs_noise_loop_begin();
		spin(rounds);
		bs_noise_loop_end();
		t1 = bs_mono_ns();
		if (sh->n < sh->cap)
			sh->ns[sh->n++] = (double)(t1 - t0);
		if (t1 >= until_ns || sh->n == sh->cap) {
			sh->runq_pct =
			    100.0 * (double)(runq_wait_ns() - wait0) / (double)(t1 - start);
			_exit(0);
		}
	}
}

/* per CPU: irq, softirq, steal (USER_HZ ticks) from /proc/stat, LOC ticks */
struct cpu_acct {
	unsigned long long irq, softirq, steal, loc;
};

static void read_acct(struct cpu_acct *a, int ncpu)
{
	char line[4096];
	FILE *f = fopen("/proc/stat", "re");

	memset(a, 0, (size_t)ncpu * sizeof(*a));
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long v[8] = {0};
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 &&
		    cpu >= 0 && cpu < ncpu) {
			a[cpu].irq = v[5];
			a[cpu].softirq = v[6];
			a[cpu].steal = v[7];
		}
	}
	if (f)
		fclose(f);
	f = fopen("/proc/interrupts", "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p == ' ')
			p++;
		if (strncmp(p, "LOC:", 4))
			continue;
		p += 4;
		for (int c = 0; c < ncpu; c++)
			a[c].loc = strtoull(p, &p, 10);
	}
	if (f)
		fclose(f);
}

/* the phase's accounting of CPU c from two snapshots over wall_ns */
static void acct_phase(struct bs_noise_phase *ph, const struct cpu_acct *b,
		       const struct cpu_acct *e, int c, double wall_ns)
{
	double tick_ns = 1e9 / (double)sysconf(_SC_CLK_TCK);

	ph->irq_pct = 100.0 * (double)(e[c].irq - b[c].irq) * tick_ns / wall_ns;
	ph->softirq_pct = 100.0 * (double)(e[c].softirq - b[c].softirq) * tick_ns / wall_ns;
	ph->steal_pct = 100.0 * (double)(e[c].steal - b[c].steal) * tick_ns / wall_ns;
	ph->ticks_per_s = (double)(e[c].loc - b[c].loc) / (wall_ns / 1e9);
}

/* every thread's CPU time (utime + stime, ticks) and last CPU, from /proc */
struct task_time {
	int pid, tid, cpu;
	unsigned long long ticks;
	char comm[17];
};

static size_t read_tasks(struct task_time **out)
{
	struct task_time *t = NULL;
	size_t n = 0, cap = 0;
	DIR *d = opendir("/proc"), *td;
	struct dirent *p, *q;

	while (d && (p = readdir(d))) {
		char path[300];
		int pid = atoi(p->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task", pid);
		td = opendir(path);
		while (td && (q = readdir(td))) {
			char line[1024], *r;
			int tid = atoi(q->d_name);
			unsigned long long ut, st;
			FILE *f;

			if (tid <= 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
			f = fopen(path, "re");
			if (!f)
				continue;
			if (!fgets(line, sizeof(line), f) || !(r = strrchr(line, ')'))) {
				fclose(f);
				continue;
			}
			fclose(f);
			if (n == cap) {
				struct task_time *nt =
				    realloc(t, (cap = cap ? 2 * cap : 512) * sizeof(*t));

				if (!nt)
					break;
				t = nt;
			}
			memset(&t[n], 0, sizeof(t[n]));
			/* after "(comm)": state ppid ... utime (14) stime (15) ... processor (39)
			 */
			{
				char *c = strchr(line, '(');
				size_t len = c ? (size_t)(r - c - 1) : 0;
				int cpu = -1, field = 3;
				char *s = r + 2, *save = NULL, *tok;

				memcpy(t[n].comm, c ? c + 1 : "", len < 16 ? len : 16);
				ut = st = 0;
				for (tok = strtok_r(s, " ", &save); tok;
				     tok = strtok_r(NULL, " ", &save)) {
					if (field == 14)
						ut = strtoull(tok, NULL, 10);
					else if (field == 15)
						st = strtoull(tok, NULL, 10);
					else if (field == 39)
						cpu = atoi(tok);
					field++;
				}
				t[n].pid = pid;
				t[n].tid = tid;
				t[n].cpu = cpu;
				t[n].ticks = ut + st;
			}
			n++;
		}
		if (td)
			closedir(td);
	}
	if (d)
		closedir(d);
	*out = t;
	return n;
}

/* the other tasks that ran during the busy phase, onto the CPU they last ran on */
static void attribute_tasks(struct bs_noise_result *r, const struct task_time *b, size_t nb,
			    const struct task_time *e, size_t ne, double wall_ns)
{
	double tick_ns = 1e9 / (double)sysconf(_SC_CLK_TCK);
	int self = getpid();

	for (size_t i = 0; i < ne; i++) {
		unsigned long long before = 0;
		double pct;

		if (e[i].pid == self)
			continue;
		for (size_t j = 0; j < nb; j++)
			if (b[j].tid == e[i].tid) {
				before = b[j].ticks;
				break;
			}
		pct = 100.0 * (double)(e[i].ticks - before) * tick_ns / wall_ns;
		if (!(pct >= 0.5))
			continue;
		for (size_t c = 0; c < r->n; c++) {
			struct bs_noise_cpu *cc = &r->cpus[c];
			size_t k;

			if (cc->cpu != e[i].cpu)
				continue;
			/* insertion into the top BS_NOISE_MAX_TASKS, largest first */
			for (k = cc->n_tasks; k > 0 && cc->tasks[k - 1].pct < pct; k--)
				if (k < BS_NOISE_MAX_TASKS)
					cc->tasks[k] = cc->tasks[k - 1];
			if (k < BS_NOISE_MAX_TASKS) {
				cc->tasks[k] = (struct bs_noise_task){.pid = e[i].pid, .pct = pct};
				memcpy(cc->tasks[k].comm, e[i].comm, sizeof(cc->tasks[k].comm));
				if (cc->n_tasks < BS_NOISE_MAX_TASKS)
					cc->n_tasks++;
			}
		}
	}
}

/* interferers of one busy-phase loop process, onto its CPU's task list */
struct intf_ctx {
	struct bs_noise_cpu *cpu;
	pid_t victim;
	double wall_ns;
};

static int add_interferer(void *ctx, const struct bs_interferer_rec *r)
{
	struct intf_ctx *x = ctx;
	struct bs_noise_cpu *cc = x->cpu;
	double pct = 100.0 * (double)r->ns / x->wall_ns;
	size_t k;

	if ((pid_t)r->victim_pid != x->victim || !(pct > 0))
		return 0;
	/* insertion into the top BS_NOISE_MAX_TASKS, largest first */
	for (k = cc->n_tasks; k > 0 && cc->tasks[k - 1].pct < pct; k--)
		if (k < BS_NOISE_MAX_TASKS)
			cc->tasks[k] = cc->tasks[k - 1];
	if (k < BS_NOISE_MAX_TASKS) {
		cc->tasks[k] = (struct bs_noise_task){.pid = (int)r->interferer_pid, .pct = pct};
		memcpy(cc->tasks[k].comm, r->comm, BS_COMM_LEN);
		cc->tasks[k].comm[BS_COMM_LEN] = '\0';
		if (cc->n_tasks < BS_NOISE_MAX_TASKS)
			cc->n_tasks++;
	}
	return 0;
}

/* what BPF accounted to the loop process of worker w, into phase ph (and,
 * for the busy phase, the tasks that took its CPU meanwhile) */
static void kacct_phase(struct bs_noise_kacct *k, const struct worker *w, struct bs_noise_phase *ph,
			struct bs_noise_cpu *cpu, bool busy, double wall_ns)
{
	const struct bs_kacct_sum *s = bs_noise_kacct_sum(k, w->pid);

	if (!s || !s->wall_ns)
		return;
	ph->kacct = true;
	ph->loop_irq_pct = 100.0 * (double)s->irq_ns / (double)s->wall_ns;
	ph->loop_softirq_pct = 100.0 * (double)s->softirq_ns / (double)s->wall_ns;
	ph->loop_steal_pct = 100.0 * (double)s->steal_ns / (double)s->wall_ns;
	ph->loop_preempted_pct = 100.0 * (double)s->preempted_ns / (double)s->wall_ns;
	if (busy) {
		struct intf_ctx x = {cpu, w->pid, wall_ns};

		cpu->n_tasks = 0;
		bs_noise_kacct_interferers(k, add_interferer, &x);
	}
}

/* start the loop process of worker w; 0 or -errno */
static int start_loop(struct worker *w, uint64_t rounds, uint64_t until, char *err, size_t errlen)
{
	size_t cap = (size_t)((until - bs_mono_ns()) / (LOOP_TARGET_NS / 8)) + 64;

	w->bytes = sizeof(*w->sh) + cap * sizeof(double);
	w->sh = mmap(NULL, w->bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->sh == MAP_FAILED) {
		w->sh = NULL;
		snprintf(err, errlen, "cannot map the loop's results: %s", strerror(errno));
		return -ENOMEM;
	}
	w->sh->cap = cap;
	fflush(NULL);
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;

		snprintf(err, errlen, "cannot start a loop process: %s", strerror(e));
		return -e;
	}
	if (w->pid == 0)
		loop_process(w->sh, w->cpu, rounds, until);
	return 0;
}

/* run loops on cpus[idx[0..k)] until `until`, showing progress */
static int run_phase(struct bs_noise_result *r, struct bs_noise_kacct *ka, const size_t *idx,
		     size_t k, bool busy, uint64_t rounds, uint64_t until, struct bs_progress *prog,
		     uint64_t t0, uint64_t total_ns, char *err, size_t errlen)
{
	struct worker *w = calloc(k ? k : 1, sizeof(*w));
	uint64_t start = bs_mono_ns();
	int rc = 0;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < k && !rc; i++) {
		w[i].cpu = r->cpus[idx[i]].cpu;
		rc = start_loop(&w[i], rounds, until, err, errlen);
	}
	while (!rc && bs_mono_ns() < until) {
		struct timespec ts = {0, 250000000};

		nanosleep(&ts, NULL);
		bs_progress_update(prog, (bs_mono_ns() - t0) / 1000000, total_ns / 1000000);
	}
	for (size_t i = 0; i < k; i++) {
		struct bs_noise_cpu *c = &r->cpus[idx[i]];
		struct bs_noise_phase *ph = busy ? &c->busy : &c->alone;
		int st = 0;

		if (w[i].pid > 0)
			while (waitpid(w[i].pid, &st, 0) < 0 && errno == EINTR)
				;
		if (!w[i].sh)
			continue;
		if (w[i].pid > 0 && !rc && (w[i].sh->err || !WIFEXITED(st) || WEXITSTATUS(st))) {
			rc = -(w[i].sh->err ? w[i].sh->err : ECHILD);
			snprintf(err, errlen, "loop on CPU %d: %s", w[i].cpu,
				 w[i].sh->err ? strerror(w[i].sh->err) : "the loop process failed");
		}
		if (!rc) {
			double *ns = realloc(ph->ns, (ph->n + w[i].sh->n + 1) * sizeof(*ns));

			if (!ns) {
				rc = -ENOMEM;
				snprintf(err, errlen, "out of memory");
			} else {
				memcpy(ns + ph->n, w[i].sh->ns, w[i].sh->n * sizeof(*ns));
				ph->ns = ns;
				ph->n += w[i].sh->n;
				ph->runq_pct = w[i].sh->runq_pct;
			}
		}
		munmap(w[i].sh, w[i].bytes);
	}
	if (!rc && ka->on && !bs_noise_kacct_drain(ka))
		for (size_t i = 0; i < k; i++) {
			struct bs_noise_cpu *c = &r->cpus[idx[i]];

			kacct_phase(ka, &w[i], busy ? &c->busy : &c->alone, c, busy,
				    (double)(bs_mono_ns() - start));
		}
	free(w);
	return rc;
}

int bs_noise_check(const struct bs_noise_opts *o, struct bs_noise_result *out, char *err,
		   size_t errlen)
{
	double dur = o && o->duration_s > 0 ? o->duration_s : 6;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct cpu_acct *a0 = NULL, *a1 = NULL;
	struct task_time *tb = NULL, *te = NULL;
	size_t *idx = NULL, ntb, nte;
	struct bs_noise_kacct ka;
	struct bs_progress prog;
	cpu_set_t allowed, one;
	uint64_t rounds = 100000, t0, total, until, per;
	double best = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&ka, 0, sizeof(ka));
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(err, errlen, "sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	if (o && o->cpus_set)
		CPU_AND(&allowed, &allowed, &o->cpus);
	out->cpus = calloc((size_t)CPU_COUNT(&allowed) + 1, sizeof(*out->cpus));
	idx = calloc((size_t)CPU_COUNT(&allowed) + 1, sizeof(*idx));
	a0 = calloc((size_t)ncpu + 1, sizeof(*a0));
	a1 = calloc((size_t)ncpu + 1, sizeof(*a1));
	if (!out->cpus || !idx || !a0 || !a1) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed) && c < ncpu) {
			idx[out->n] = out->n;
			out->cpus[out->n++].cpu = c;
		}
	if (!out->n) {
		snprintf(err, errlen, "no CPU to check (--cpus names none benchscope may use)");
		rc = -EINVAL;
		goto out;
	}
	/* calibrate on the first CPU: rounds for about LOOP_TARGET_NS at the
	 * fastest rate seen (a preempted attempt only looks slower) */
	CPU_ZERO(&one);
	CPU_SET(out->cpus[0].cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	for (int i = 0; i < 5; i++) {
		uint64_t s = bs_mono_ns();
		double per_round;

		spin(rounds);
		per_round = (double)(bs_mono_ns() - s + 1) / (double)rounds;
		if (!i || per_round < best)
			best = per_round;
		rounds = (uint64_t)(LOOP_TARGET_NS / best);
		if (rounds < 1000)
			rounds = 1000;
	}
	out->loop_ns = best * (double)rounds;
	sched_setaffinity(0, sizeof(allowed), &allowed);
	out->duration_s = dur;
	/* the kernel's accounting of the loops, where BPF may be used; the loop
	 * processes are benchscope's children, so tracking it tracks them */
	if (!bs_noise_kacct_open(&ka, o->verbose, out->kacct_why, sizeof(out->kacct_why)) &&
	    bs_noise_kacct_track(&ka, getpid())) {
		snprintf(out->kacct_why, sizeof(out->kacct_why), "cannot follow the loops");
		bs_noise_kacct_close(&ka);
	}
	out->kacct = ka.on;
	total = (uint64_t)(dur * 1e9);
	per = total / 2 / out->n;
	bs_progress_init(&prog, "ms of the noise check", o && o->progress);
	t0 = bs_mono_ns();
	for (size_t i = 0; i < out->n && !rc; i++) {
		uint64_t s = bs_mono_ns();

		read_acct(a0, (int)ncpu);
		until = s + per;
		rc = run_phase(out, &ka, &idx[i], 1, false, rounds, until, &prog, t0, total, err,
			       errlen);
		read_acct(a1, (int)ncpu);
		acct_phase(&out->cpus[i].alone, a0, a1, out->cpus[i].cpu,
			   (double)(bs_mono_ns() - s));
	}
	if (!rc) {
		uint64_t s = bs_mono_ns();

		ntb = read_tasks(&tb);
		read_acct(a0, (int)ncpu);
		until = s + total / 2;
		rc = run_phase(out, &ka, idx, out->n, true, rounds, until, &prog, t0, total, err,
			       errlen);
		read_acct(a1, (int)ncpu);
		nte = read_tasks(&te);
		for (size_t i = 0; i < out->n; i++)
			acct_phase(&out->cpus[i].busy, a0, a1, out->cpus[i].cpu,
				   (double)(bs_mono_ns() - s));
		if (!ka.on) /* else the interferers BPF saw, set by run_phase */
			attribute_tasks(out, tb, ntb, te, nte, (double)(bs_mono_ns() - s));
		out->kacct_lost = ka.lost;
	}
	bs_progress_done(&prog);
out:
	bs_noise_kacct_close(&ka);
	free(idx);
	free(a0);
	free(a1);
	free(tb);
	free(te);
	return rc;
}

void bs_noise_result_free(struct bs_noise_result *r)
{
	for (size_t i = 0; r->cpus && i < r->n; i++) {
		free(r->cpus[i].alone.ns);
		free(r->cpus[i].busy.ns);
	}
	free(r->cpus);
	memset(r, 0, sizeof(*r));
}
