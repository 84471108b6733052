// SPDX-License-Identifier: MIT
/*
 * probe_task_storage - is BPF task-local storage usable from the program
 * types benchscope's thread state lives in (uprobe: created at iteration
 * begin; tp_btf/sched_switch: looked up for prev and next) on this kernel?
 *
 * 1. Each program of task_storage.bpf.c is loaded on its own (autoload off
 *    for the others): a rejection is reported with the verifier's reason.
 * 2. All are loaded and attached; this process calls a probed function N
 *    times with a sleep after each (a voluntary switch each), while a second
 *    thread makes more switches. The uprobe must have created the entry and
 *    counted every call, the switch program must have found it at every
 *    switch of this process (no NULL from the storage lock), and user space
 *    must read it back through a pidfd.
 * 3. Prints the average run time per call of the task-storage and of the
 *    hash-based switch programs (BPF_STATS_RUN_TIME; meaningless under TCG).
 *
 * Output: PASS/SKIP/FAIL lines, INFO lines, and the closing line
 * "probe-task-storage: N passed, N failed, N skipped". A kernel without the
 * feature is a SKIP with the reason, not a failure.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "task_storage.skel.h"

#define CALLS 200

static int n_pass, n_fail, n_skip;
static char libbpf_log[65536];

static int log_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(libbpf_log);

	if (level == LIBBPF_DEBUG)
		return 0;
	if (len < sizeof(libbpf_log) - 1)
		vsnprintf(libbpf_log + len, sizeof(libbpf_log) - len, fmt, ap);
	return 0;
}

/* The verifier's reason: the last lines of the load log, as INFO lines. */
static void print_reason(const char *what)
{
	char *s = strstr(libbpf_log, "-- BEGIN PROG LOAD LOG --"), *e, *line;
	int n = 0;

	if (!s)
		s = libbpf_log;
	else if ((e = strstr(s, "-- END PROG LOAD LOG --")))
		*e = 0;
	/* at most the last 8 lines */
	for (line = s + strlen(s); line > s && n < 9; line--)
		if (*line == '\n')
			n++;
	for (line = strtok(line, "\n"); line; line = strtok(NULL, "\n"))
		printf("INFO %s: %s\n", what, line);
}

__attribute__((noinline)) void bs_tls_target(int i)
{
	asm volatile("" ::"r"(i) : "memory");
}

struct tstate {
	__u64 uprobe_hits, switch_out, switch_in;
};

struct counts {
	unsigned long long seen_out, null_out, seen_in, null_in, uprobe_null;
};

static void snap(struct task_storage_bpf *skel, struct counts *c)
{
	c->seen_out = skel->bss->seen_out;
	c->null_out = skel->bss->null_out;
	c->seen_in = skel->bss->seen_in;
	c->null_in = skel->bss->null_in;
	c->uprobe_null = skel->bss->uprobe_null;
}

static volatile int stop;
static int tstore_fd = -1, pidfd = -1;
static unsigned long long reads;

/* Sleeps and wakes beside the main thread (more switches). */
static void *churn(void *arg)
{
	(void)arg;
	while (!stop)
		usleep(100);
	return NULL;
}

/* Reads the main thread's storage from user space, on the CPU in arg. */
static void *reader(void *arg)
{
	struct tstate v;

	pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), arg);
	while (!stop) {
		bpf_map_lookup_elem(tstore_fd, &pidfd, &v);
		reads++;
	}
	return NULL;
}

/* n calls of the probed function, each followed by a short sleep. */
static void sleep_loop(int n)
{
	for (int i = 0; i < n; i++) {
		bs_tls_target(i);
		usleep(200);
	}
}

/* Load only program `name`; 0 when the kernel accepts it. */
static int load_alone(const char *name)
{
	struct task_storage_bpf *skel = task_storage_bpf__open();
	struct bpf_program *prog;
	int rc;

	if (!skel)
		return -errno;
	bpf_object__for_each_program (prog, skel->obj)
		bpf_program__set_autoload(prog, !strcmp(bpf_program__name(prog), name));
	libbpf_log[0] = 0;
	rc = task_storage_bpf__load(skel);
	task_storage_bpf__destroy(skel);
	return rc;
}

static double per_run_ns(struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) || !info.run_cnt)
		return -1;
	return (double)info.run_time_ns / (double)info.run_cnt;
}

int main(void)
{
	static const char *progs[] = {"tls_uprobe", "tls_switch", "tls_switch_hash"};
	struct task_storage_bpf *skel = NULL;
	struct bpf_link *lu = NULL, *ls = NULL, *lh = NULL;
	char self[PATH_MAX];
	int ok[3], i, stats_fd;
	struct counts q, base;
	pthread_t th;

	libbpf_set_print(log_fn);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("SKIP task_storage: not root\n");
		n_skip++;
		goto out;
	}
	/* 1. each program type on its own */
	for (i = 0; i < 3; i++) {
		ok[i] = load_alone(progs[i]) == 0;
		if (ok[i]) {
			printf("PASS load/%s\n", progs[i]);
			n_pass++;
		} else if (i == 2) {
			printf("FAIL load/%s: a plain hash lookup in tp_btf/sched_switch is "
			       "rejected\n",
			       progs[i]);
			print_reason(progs[i]);
			n_fail++;
		} else {
			printf("SKIP load/%s: task storage rejected in this program type\n",
			       progs[i]);
			print_reason(progs[i]);
			n_skip++;
		}
	}
	if (!ok[0] || !ok[1]) {
		printf("INFO verdict: task-local storage is NOT usable here from %s%s%s\n",
		       ok[0] ? "" : "uprobe", !ok[0] && !ok[1] ? " and " : "",
		       ok[1] ? "" : "tp_btf");
		goto out;
	}

	/* 2. both attached, on this process */
	skel = task_storage_bpf__open();
	if (!skel) {
		printf("FAIL use: cannot open the object\n");
		n_fail++;
		goto out;
	}
	skel->rodata->target_tid = (__u32)gettid();
	if (task_storage_bpf__load(skel)) {
		printf("FAIL use: loading all programs together failed\n");
		print_reason("all");
		n_fail++;
		goto out;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (!realpath("/proc/self/exe", self)) {
		printf("FAIL use: realpath(/proc/self/exe): %s\n", strerror(errno));
		n_fail++;
		goto out;
	}
	{
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .func_name = "bs_tls_target");
		lu =
		    bpf_program__attach_uprobe_opts(skel->progs.tls_uprobe, getpid(), self, 0, &uo);
	}
	ls = bpf_program__attach(skel->progs.tls_switch);
	lh = bpf_program__attach(skel->progs.tls_switch_hash);
	if (!lu || !ls || !lh) {
		printf("FAIL attach: uprobe %s, tp_btf %s, hash %s\n", lu ? "ok" : "failed",
		       ls ? "ok" : "failed", lh ? "ok" : "failed");
		n_fail++;
		goto out;
	}
	printf("PASS attach (uprobe and tp_btf/sched_switch)\n");
	n_pass++;
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	tstore_fd = bpf_map__fd(skel->maps.tstore);

	/* quiet: only this thread and one that sleeps-wakes beside it; counted
	 * from the first call on (the uprobe creates the entry there) */
	bs_tls_target(-1);
	snap(skel, &base);
	pthread_create(&th, NULL, churn, NULL);
	sleep_loop(CALLS - 1);
	stop = 1;
	pthread_join(th, NULL);
	snap(skel, &q);
	q.seen_out -= base.seen_out;
	q.null_out -= base.null_out;
	q.seen_in -= base.seen_in;
	q.null_in -= base.null_in;
	{
		struct tstate v = {0, 0, 0};
		int rc = pidfd >= 0 ? bpf_map_lookup_elem(tstore_fd, &pidfd, &v) : -1;

		printf("INFO quiet: uprobe_hits %llu of %d; switches out %llu (no storage %llu), "
		       "in %llu "
		       "(no storage %llu); uprobe NULLs %llu\n",
		       (unsigned long long)v.uprobe_hits, CALLS, q.seen_out, q.null_out, q.seen_in,
		       q.null_in, q.uprobe_null);
		if (rc) {
			printf("FAIL use: reading the main thread's storage through a pidfd: %s\n",
			       strerror(errno));
			n_fail++;
		} else if (v.uprobe_hits != CALLS || q.uprobe_null) {
			printf("FAIL use: the uprobe created/updated the entry %llu times of %d "
			       "(%llu NULL)\n",
			       (unsigned long long)v.uprobe_hits, CALLS, q.uprobe_null);
			n_fail++;
		} else if (q.seen_out < CALLS / 2 || q.null_out || q.null_in) {
			printf("FAIL use: sched_switch: %llu switches out, %llu + %llu without the "
			       "entry\n",
			       q.seen_out, q.null_out, q.null_in);
			n_fail++;
		} else {
			printf("PASS use (created in the uprobe, found in sched_switch as prev and "
			       "next at "
			       "every switch, read from user space)\n");
			n_pass++;
		}
	}

	/*
	 * contended: a thread on the same CPU reads the storage from user space
	 * in a loop (the syscall holds the per-CPU storage lock with migration,
	 * not preemption, disabled), so this thread's switch-in can land while
	 * the lock is held there.
	 */
	{
		cpu_set_t set;
		struct counts c;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		snap(skel, &q);
		stop = 0;
		pthread_create(&th, NULL, reader, &set);
		sleep_loop(CALLS * 5);
		stop = 1;
		pthread_join(th, NULL);
		snap(skel, &c);
		printf(
		    "INFO contended (a thread on the same CPU reading the storage in a loop, %llu "
		    "reads): switch-ins %llu, without the entry %llu (%.1f %%); switch-outs %llu, "
		    "without %llu\n",
		    reads, c.seen_in - q.seen_in, c.null_in - q.null_in,
		    c.seen_in > q.seen_in
			? 100.0 * (double)(c.null_in - q.null_in) / (double)(c.seen_in - q.seen_in)
			: 0.0,
		    c.seen_out - q.seen_out, c.null_out - q.null_out);
		if (c.null_in > q.null_in || c.null_out > q.null_out)
			printf("INFO verdict: usable from uprobe and tp_btf, BUT a lookup in "
			       "sched_switch "
			       "returns NULL while the CPU's task-storage lock is held (here: by a "
			       "user-space map read); on_switch would lose those switches\n");
		else
			printf(
			    "INFO verdict: usable from uprobe and tp_btf; no lookup failed, also "
			    "under a concurrent user-space reader\n");
	}
	if (stats_fd >= 0) {
		printf("INFO sched_switch run time per call: task storage %.0f ns, hash %.0f ns "
		       "(both lookups for prev and next; not representative under TCG)\n",
		       per_run_ns(skel->progs.tls_switch), per_run_ns(skel->progs.tls_switch_hash));
		close(stats_fd);
	}
out:
	bpf_link__destroy(lu);
	bpf_link__destroy(ls);
	bpf_link__destroy(lh);
	if (pidfd >= 0)
		close(pidfd);
	task_storage_bpf__destroy(skel);
	printf("probe-task-storage: %d passed, %d failed, %d skipped\n", n_pass, n_fail, n_skip);
	return n_fail ? 1 : 0;
}
