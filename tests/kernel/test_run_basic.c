// SPDX-License-Identifier: MIT
/*
 * test_run_basic - `benchscope run` on the ground-truth harness iter_loop:
 * iteration counts, durations and blocked time known by construction,
 * several threads, the process preset, and every bad-input path.
 */
#include "ktest.h"

#define BENCHSCOPE kpath("benchscope")
#define ITER_LOOP  kpath("progs/iter_loop")

static char sym_iter[4200], sym_nosuch[4200];

/* --iter: 40 iterations of 2 ms CPU each; every one recorded, in order, >= 2 ms. */
static void test_iter_uprobe_counts_and_durations(void)
{
	const char *trace = ktmp("iter.trace");
	char *argv[] = {(char *)BENCHSCOPE, "run", "-q",	  "--iter",
			sym_iter,	    "-o",  (char *)trace, "--",
			(char *)ITER_LOOP,  "40",  "2000",	  NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t i, n_ok = 0;

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 40);
	for (i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];
		double d = dur_ns(it);

		CHECK_INT_EQ(it->index, i);
		CHECK(it->pid == it->tid);
		/* 2 ms of the thread's own CPU time: never shorter; on a loaded
		 * 2-vCPU VM it may be longer, by what the record says it lost */
		if (d >= 2000e3 && d - (double)it->runq_wait_ns - (double)it->irq_ns -
					   (double)it->softirq_ns - (double)it->steal_ns <
				       2000e3 + 1500e3)
			n_ok++;
		CHECK_INT_EQ(it->blocked_ns, 0);
		CHECK(!(it->flags & BS_ITER_F_INVOC));
	}
	/* allow a few iterations hit by effects no counter sees (host-side);
	 * an emulated vCPU is a host thread the host preempts far more */
	if (n_ok + 3 < ds->n_iters &&
	    ktest_relaxed("iterations within 1.5 ms of their own 2 ms of CPU time: half")) {
		fprintf(stderr, "    %zu of %zu iterations within 1.5 ms\n", n_ok, ds->n_iters);
		CHECK(2 * n_ok >= ds->n_iters);
	} else if (n_ok + 3 < ds->n_iters)
		FAILF("%zu of %zu iterations within 1.5 ms of their 2 ms of CPU time", n_ok,
		      ds->n_iters);
	bs_dataset_free(ds);
	unlink(trace);
}

/* --begin/--end on the same function's entry twice would nest; use entry and return
 * via --iter vs. a blocked-time ground truth: 20 x (1 ms CPU + 5 ms sleep). */
static void test_blocked_time_ground_truth(void)
{
	const char *trace = ktmp("sleep.trace");
	char *argv[] = {
	    (char *)BENCHSCOPE, "run", "-q",   "--iter", sym_iter, "-o", (char *)trace, "--",
	    (char *)ITER_LOOP,	"20",  "1000", "5000",	 NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t i, n_unseen = 0;
	int64_t rest_max, on_min;

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 20);
	rest_max =
	    ktest_relaxed("CPU time outside the work under 2 ms: 10 ms") ? 10000000 : 2000000;
	on_min = ktest_relaxed("on-CPU time at least 950 us: 800 us") ? 800000 : 950000;
	for (i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];

		/* nanosleep(5 ms) arms its timer before the thread switches
		 * out, and the timer may fire at its earliest expiry (the slack
		 * is an upper allowance): blocked time can be a little under
		 * 5 ms (once in a clean-clone run) */
		/* On the AMD/PVM VM's 6.18 kernel, beside a busy QEMU, about one
		 * iteration in 160 had blocked 0 ns with nvcsw 1: the kernel ran
		 * the thread again with no sched_switch event at all (tracefs's
		 * own sched_switch showed two switch-outs in a row). The record
		 * must then say so (unseen_switch, counted in END; kload checks
		 * the count); an unflagged record must hold the ground truth */
		bool unseen = it->flags & BS_ITER_F_UNSEEN_SWITCH;
		bool short_ok = it->blocked_ns < 4900000 && it->blocked_ns >= 2500000 &&
				it->end_ns - it->begin_ns >= 5000000 &&
				ktest_relaxed("a 5 ms sleep blocked at least 4.9 ms: 2.5 ms, in an "
					      "iteration of at least 5 ms (the path from arming "
					      "the timer to the switch-out is emulated: 4.90 ms "
					      "on 6.1, 4.03 ms on 6.12)");

		if (it->blocked_ns < 4900000)
			fprintf(
			    stderr,
			    "    iteration %zu: blocked %llu ns; duration %llu, preempted %llu, "
			    "run-queue %llu, nvcsw %llu, nivcsw %llu, migrations %llu, cpu %u->%u, "
			    "flags %#x\n",
			    i, (unsigned long long)it->blocked_ns,
			    (unsigned long long)(it->end_ns - it->begin_ns),
			    (unsigned long long)it->preempted_ns,
			    (unsigned long long)it->runq_wait_ns, (unsigned long long)it->nvcsw,
			    (unsigned long long)it->nivcsw, (unsigned long long)it->migrations,
			    it->cpu_begin, it->cpu_end, it->flags);
		CHECK(it->blocked_ns >= 4900000 || short_ok || unseen);
		n_unseen += unseen;
		CHECK(it->nvcsw >= 1);
		/* Off-CPU time (blocked and preempted) is outside the 1 ms of
		 * the thread's own CPU time the work takes (iter_loop): at most
		 * the duration less 950 us (the switches' and the CPU clock's
		 * stamps differ by microseconds: the rest was 6-44 us natively).
		 * The rest of the duration, less the IRQ, softirq and steal time
		 * of its slices, is the thread's CPU time outside the work (the
		 * probes' traps, nanosleep's system call): under 2 ms. Not a
		 * bound on the sleep's wake-up latency, which the host sets (a
		 * 5 ms sleep once blocked over 10 ms on an AMD EPYC/KVM VM). */
		int64_t dur = (int64_t)(it->end_ns - it->begin_ns);
		int64_t off = (int64_t)(it->blocked_ns + it->preempted_ns);
		int64_t rest =
		    dur - 1000000 - off - (int64_t)(it->irq_ns + it->softirq_ns + it->steal_ns);

		if (off + on_min > dur || rest > rest_max)
			fprintf(stderr,
				"    iteration %zu: duration %lld ns, off-CPU %lld, rest %lld (irq "
				"%llu, softirq %llu, steal %llu)\n",
				i, (long long)dur, (long long)off, (long long)rest,
				(unsigned long long)it->irq_ns, (unsigned long long)it->softirq_ns,
				(unsigned long long)it->steal_ns);
		CHECK(off + on_min <= dur);
		CHECK(unseen || rest <= rest_max);
	}
	/* a rare miss (at most one in 20 in 56 runs beside a vmtest), not a
	 * pattern: more than two in 20 is a regression of the handler */
	CHECK(n_unseen <= 2);
	bs_dataset_free(ds);
	unlink(trace);
}

/* Several threads: each iteration belongs to the thread that began it. */
static void test_threads(void)
{
	const char *trace = ktmp("threads.trace");
	char *argv[] = {
	    (char *)BENCHSCOPE, "run", "-q",  "--iter", sym_iter, "-o", (char *)trace, "--",
	    (char *)ITER_LOOP,	"15",  "500", "0",	"3",	  NULL};
	struct kresult r;
	struct bs_dataset *ds;
	uint32_t tids[8];
	size_t n_tids = 0, i, j, per[8] = {0};

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 45);
	for (i = 0; i < ds->n_iters; i++) {
		for (j = 0; j < n_tids && tids[j] != ds->iters[i].tid; j++)
			;
		if (j == n_tids && n_tids < 8)
			tids[n_tids++] = ds->iters[i].tid;
		if (j < 8)
			per[j]++;
		CHECK(ds->iters[i].pid == ds->iters[0].pid);
	}
	CHECK_INT_EQ(n_tids, 3);
	for (j = 0; j < n_tids; j++)
		CHECK_INT_EQ(per[j], 15);
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * A process ends while its threads are inside iterations (exit_group from
 * its main thread), 20 times: every one of those iterations ends with an
 * EXIT record, and each process has one EXIT record. The threads reach the
 * exit tracepoint in any order, after the process's count of live threads
 * reached 0: a thread that gets there after the one that sent the process's
 * EXIT must still find its iteration.
 */
static void test_exit_mid_iteration(void)
{
	const char *trace = ktmp("exitmid.trace");
	char script[4400];
	char *argv[] = {(char *)BENCHSCOPE, "run", "-q",      "--iter", sym_iter, "-o",
			(char *)trace,	    "--",  "/bin/sh", "-c",	script,	  NULL};
	struct kresult r;
	struct bs_dataset *ds;
	uint32_t pids[20];
	size_t n_pids = 0, per[20] = {0}, exits[20] = {0}, n_exit = 0;

	NEED_BPF();
	snprintf(script, sizeof(script),
		 "i=0; while [ $i -lt 20 ]; do BS_EXIT_AFTER_US=30000 %s 1000 100 200000 8; "
		 "i=$((i+1)); done",
		 ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	for (size_t i = 0; i < ds->n_iters; i++) {
		size_t j;

		for (j = 0; j < n_pids && pids[j] != ds->iters[i].pid; j++)
			;
		if (j == n_pids && n_pids < 20)
			pids[n_pids++] = ds->iters[i].pid;
		if (j < 20)
			per[j]++;
		n_exit += !!(ds->iters[i].flags & BS_ITER_F_EXIT);
	}
	for (size_t i = 0; i < ds->n_procs; i++)
		for (size_t j = 0; j < n_pids; j++)
			exits[j] +=
			    ds->procs[i].kind == BS_PROC_EXIT && ds->procs[i].pid == pids[j];
	/* 7 threads each begin one 200 ms iteration, and 30 ms later the
	 * process ends */
	CHECK_INT_EQ(n_pids, 20);
	CHECK_INT_EQ(ds->n_iters, 140);
	CHECK_INT_EQ(n_exit, 140);
	for (size_t j = 0; j < n_pids; j++) {
		if (per[j] != 7 || exits[j] != 1)
			FAILF("process %u: %zu iterations (7 expected), %zu EXIT records (1)",
			      pids[j], per[j], exits[j]);
	}
	bs_dataset_free(ds);
	unlink(trace);
}

/* --preset process: each child of the command is one iteration, exec to exit. */
static void test_process_preset(void)
{
	const char *trace = ktmp("proc.trace");
	char script[4400];
	char *argv[] = {(char *)BENCHSCOPE, "run", "-q",      "--preset", "process", "-o",
			(char *)trace,	    "--",  "/bin/sh", "-c",	  script,    NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t i;

	NEED_BPF();
	snprintf(script, sizeof(script), "for i in 1 2 3 4 5; do %s 1 3000; done", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 5);
	for (i = 0; i < ds->n_iters; i++) {
		CHECK(dur_ns(&ds->iters[i]) >= 3000e3);
		CHECK(ds->iters[i].flags & BS_ITER_F_EXIT);
		CHECK(i == 0 || ds->iters[i].pid != ds->iters[i - 1].pid);
	}
	CHECK(ds->n_procs >= 10); /* fork + exec + exit of each child, at least */
	bs_dataset_free(ds);
	unlink(trace);
}

/* Bad input: one-line error, non-zero exit, no crash. */
static void test_missing_symbol_names_closest(void)
{
	char *argv[] = {(char *)BENCHSCOPE,
			"run",
			"-q",
			"--iter",
			sym_nosuch,
			"-o",
			(char *)ktmp("x.trace"),
			"--",
			(char *)ITER_LOOP,
			"1",
			"1",
			NULL};
	struct kresult r;

	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "bs_iteration") != NULL);		 /* the closest match is named */
	CHECK(strchr(r.err, '\n') == r.err + strlen(r.err) - 1); /* one line */
}

static void test_missing_binary_and_library(void)
{
	char *a1[] = {(char *)BENCHSCOPE,     "run", "-q", "--iter", "x:y", "--",
		      "/nonexistent/harness", NULL};
	char *a2[] = {(char *)BENCHSCOPE, "run", "-q", "--iter", "libnosuchlib:fn", "--",
		      (char *)ITER_LOOP,  "1",	 "1",  NULL};
	char *a3[] = {(char *)BENCHSCOPE, "run", "-q", "--preset", "nosuch", "--",
		      (char *)ITER_LOOP,  NULL};
	char *a4[] = {(char *)BENCHSCOPE, "run", "-q", "--iter", "x:y", NULL};
	struct kresult r;

	krun(&r, a1);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "/nonexistent/harness") != NULL);
	krun(&r, a2);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "libnosuchlib") != NULL);
	CHECK(strstr(r.err, "libc") != NULL); /* says what it does load */
	krun(&r, a3);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "nosuch") != NULL);
	krun(&r, a4);
	CHECK_INT_EQ(r.exit_code, 2);
}

/* A probe that never fires: say so and what was attached; exit 3; trace kept. */
static void test_probe_never_fires(void)
{
	const char *trace = ktmp("never.trace");
	char *argv[] = {(char *)BENCHSCOPE, "run", "-q",	  "--iter",
			sym_iter,	    "-o",  (char *)trace, "--",
			(char *)ITER_LOOP,  "0",   "1",		  NULL};
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 3);
	CHECK(strstr(r.err, "never fired") != NULL);
	CHECK(strstr(r.err, "bs_iteration") != NULL);
	ds = kload(trace);
	if (ds) {
		CHECK_INT_EQ(ds->n_iters, 0);
		CHECK(ds->end != NULL);
		bs_dataset_free(ds);
	}
	unlink(trace);
}

/* The harness exits non-zero: reported, iterations kept, exit 4. */
static void test_harness_fails(void)
{
	const char *trace = ktmp("fail.trace");
	char *argv[] = {
	    (char *)BENCHSCOPE, "run", "-q",  "--iter", sym_iter, "-o", (char *)trace, "--",
	    (char *)ITER_LOOP,	"3",   "100", "0",	"1",	  "7",	NULL};
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 4);
	CHECK(strstr(r.err, "status 7") != NULL);
	ds = kload(trace);
	if (ds) {
		CHECK_INT_EQ(ds->n_iters, 3);
		bs_dataset_free(ds);
	}
	unlink(trace);
}

/* Run a long harness and send `sig` to benchscope 1.5 s after its trace
 * appears; returns the trace read back (NULL after a failed check). */
static struct bs_dataset *run_and_signal(int sig, const char *trace, struct kresult *r)
{
	char *argv[] = {(char *)BENCHSCOPE, "run",    "-q",	     "--iter",
			sym_iter,	    "-o",     (char *)trace, "--",
			(char *)ITER_LOOP,  "100000", "1000",	     NULL};

	krun_sig(r, argv, 1500, sig, trace);
	return kload(trace);
}

/* Ctrl-C: the harness is stopped, the trace flushed and closed, exit 130. */
static void test_interrupt(void)
{
	const char *trace = ktmp("int.trace");
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	ds = run_and_signal(SIGINT, trace, &r);
	CHECK_INT_EQ(r.exit_code, 130);
	if (ds) {
		CHECK(ds->n_iters > 10);
		CHECK(ds->end != NULL);
		CHECK(!ds->truncated);
		bs_dataset_free(ds);
	}
	unlink(trace);
}

/* SIGKILL of benchscope: the trace written so far is readable, in order. */
static void test_sigkill_leaves_readable_trace(void)
{
	const char *trace = ktmp("kill.trace");
	struct kresult r;
	struct bs_dataset *ds;
	size_t i;

	NEED_BPF();
	ds = run_and_signal(SIGKILL, trace, &r);
	CHECK_INT_EQ(r.exit_code, 128 + SIGKILL);
	if (ds) {
		/* at most the last 100 ms (one sync period) may be missing */
		CHECK(ds->n_iters > 10);
		CHECK(ds->end == NULL); /* the run did not finish */
		for (i = 0; i < ds->n_iters; i++)
			CHECK_INT_EQ(ds->iters[i].index, i);
		bs_dataset_free(ds);
	}
	unlink(trace);
}

int main(void)
{
	snprintf(sym_iter, sizeof(sym_iter), "%s:bs_iteration", ITER_LOOP);
	snprintf(sym_nosuch, sizeof(sym_nosuch), "%s:bs_iteratoin", ITER_LOOP);
	RUN_TEST(test_iter_uprobe_counts_and_durations);
	RUN_TEST(test_blocked_time_ground_truth);
	RUN_TEST(test_threads);
	RUN_TEST(test_exit_mid_iteration);
	RUN_TEST(test_process_preset);
	RUN_TEST(test_missing_symbol_names_closest);
	RUN_TEST(test_missing_binary_and_library);
	RUN_TEST(test_probe_never_fires);
	RUN_TEST(test_harness_fails);
	RUN_TEST(test_interrupt);
	RUN_TEST(test_sigkill_leaves_readable_trace);
	return test_summary("kernel-run-basic");
}
