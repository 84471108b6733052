// SPDX-License-Identifier: MIT
/*
 * test_interference - interference accounting against ground truth.
 *
 * The harness (iter_loop: each iteration burns a fixed amount of its own CPU
 * time) is pinned to one CPU. With a CPU-bound competitor pinned to the same
 * CPU, CFS gives each about half the CPU, so about half of every iteration's
 * wall time is run-queue wait; the competitor must be the top interferer.
 * Without it, run-queue wait is near zero; with five, each competitor is
 * charged about a fifth of the wait. Our run-queue wait must agree
 * with the kernel's own accounting of the same thread (run_delay from
 * /proc/thread-self/schedstat, which iter_loop writes before and after its
 * iterations).
 */
#include <stdbool.h>

#include "ktest.h"

static int pick_cpu(void)
{
	return (int)sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0;
}

#define MAX_COMPETITORS 5

/* Run iter_loop under benchscope pinned to cpu, with n_comp competitors
 * pinned there too (their pids in comp_pids, if given). */
static struct bs_dataset *run_pinned(int n_comp, const char *ss_file, pid_t *comp_pids)
{
	const char *trace = ktmp(n_comp > 1    ? "crowded.trace"
				 : n_comp == 1 ? "contended.trace"
					       : "alone.trace");
	char sym[4200], cpu[8], ssenv[300];
	char *argv[] = {"/usr/bin/taskset",
			"-c",
			cpu,
			(char *)kpath("benchscope"),
			"run",
			"-q",
			"--iter",
			sym,
			"-o",
			(char *)trace,
			"--",
			"/usr/bin/env",
			ssenv,
			(char *)kpath("progs/iter_loop"),
			"30",
			"20000",
			NULL};
	pid_t cp[MAX_COMPETITORS];
	struct bs_dataset *ds;
	struct kresult r;
	int k;

	snprintf(cpu, sizeof(cpu), "%d", pick_cpu());
	snprintf(sym, sizeof(sym), "%s:bs_iteration", kpath("progs/iter_loop"));
	snprintf(ssenv, sizeof(ssenv), "BS_SCHEDSTAT=%s", ss_file);
	for (k = 0; k < n_comp && k < MAX_COMPETITORS; k++) {
		cp[k] = kcompetitor(pick_cpu(), "60");
		if (comp_pids)
			comp_pids[k] = cp[k];
	}
	if (n_comp)
		usleep(100000);
	krun(&r, argv);
	for (k = 0; k < n_comp && k < MAX_COMPETITORS; k++)
		kreap(cp[k]);
	if (r.exit_code) {
		FAILF("benchscope exited %d: %s", r.exit_code, r.err);
		return NULL;
	}
	ds = kload(trace);
	unlink(trace);
	return ds;
}

static void read_schedstat(const char *file, double *run_delay_ns)
{
	unsigned long long e0 = 0, d0 = 0, p0 = 0, e1 = 0, d1 = 0, p1 = 0;
	FILE *f = fopen(file, "r");

	*run_delay_ns = -1;
	if (!f)
		return;
	if (fscanf(f, "%llu %llu %llu %llu %llu %llu", &e0, &d0, &p0, &e1, &d1, &p1) == 6)
		*run_delay_ns = (double)(d1 - d0);
	fclose(f);
	unlink(file);
}

/* Summed wall time, run-queue wait and preempted time of all iterations (ns). */
static void sum_iters(const struct bs_dataset *ds, double *wall, double *runq, double *pre)
{
	size_t i;

	*wall = *runq = *pre = 0;
	for (i = 0; i < ds->n_iters; i++) {
		*wall += dur_ns(&ds->iters[i]);
		*runq += (double)ds->iters[i].runq_wait_ns;
		*pre += (double)ds->iters[i].preempted_ns;
	}
}

/*
 * Time whose waits benchscope does not account (ns): between the iterations
 * (from the first begin to the last end, minus the iterations' durations),
 * plus the whole of any iteration flagged unseen_switch (a switch of it was
 * missed, so its run-queue wait is an undercount). The kernel's run_delay
 * covers all of it (the harness reads its schedstat before the first and
 * after the last iteration).
 */
static double gap_ns(const struct bs_dataset *ds)
{
	uint64_t first = UINT64_MAX, last = 0;
	double busy = 0;

	for (size_t i = 0; i < ds->n_iters; i++) {
		first = ds->iters[i].begin_ns < first ? ds->iters[i].begin_ns : first;
		last = ds->iters[i].end_ns > last ? ds->iters[i].end_ns : last;
		if (!(ds->iters[i].flags & BS_ITER_F_UNSEEN_SWITCH))
			busy += dur_ns(&ds->iters[i]);
	}
	return ds->n_iters ? (double)(last - first) - busy : 0;
}

/*
 * The charges to interferers partition the run-queue wait: every switch on
 * the CPU while the harness waits charges the task that ran until then.
 * Within 3 % (the idle task is never charged), never more. Not asserted
 * when a switch of the harness went unseen (BS_ITER_F_UNSEEN_SWITCH: its
 * wait and the charges no longer match; said in a NOTE).
 */
static void check_charges_conserved(const struct bs_dataset *ds, double runq)
{
	double all_ns = 0;
	size_t i, flagged = 0;

	for (i = 0; i < ds->n_iters; i++)
		flagged += !!(ds->iters[i].flags & BS_ITER_F_UNSEEN_SWITCH);
	for (i = 0; i < ds->n_interferers; i++)
		all_ns += (double)ds->interferers[i].ns;
	if (flagged) {
		SKIP_JUDGEMENT("charges against the wait not checked: %zu iterations flagged "
			       "unseen_switch",
			       flagged);
		return;
	}
	CHECK(all_ns <= 1.01 * runq && all_ns >= 0.97 * runq);
	if (!(all_ns <= 1.01 * runq && all_ns >= 0.97 * runq))
		fprintf(stderr, "charged %.0f ns, run-queue wait %.0f ns\n", all_ns, runq);
}

static void test_competitor_takes_half(void)
{
	const char *ss = ktmp("ss-contended");
	struct bs_dataset *ds;
	double wall, runq, pre, kernel_delay, top_ns = 0;
	const char *top = "";
	uint32_t top_pid = 0;
	pid_t comp;
	size_t i;

	NEED_BPF();
	ds = run_pinned(1, ss, &comp);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 30);
	sum_iters(ds, &wall, &runq, &pre);
	/* CFS shares one CPU between two CPU-bound tasks about equally; other
	 * tasks on a shared VM take a little more: accept 35 % to 65 %. */
	CHECK(runq / wall > 0.35 && runq / wall < 0.65);
	if (!(runq / wall > 0.35 && runq / wall < 0.65))
		fprintf(stderr, "runq share %.3f\n", runq / wall);
	/* a CPU-bound harness never sleeps: all its waiting is preemption */
	CHECK_NEAR(pre, runq, 0, 0.02);
	for (i = 0; i < ds->n_interferers; i++)
		if ((double)ds->interferers[i].ns > top_ns) {
			top_ns = (double)ds->interferers[i].ns;
			top = ds->interferers[i].comm;
			top_pid = ds->interferers[i].interferer_pid;
		}
	check_charges_conserved(ds, runq);
	CHECK(!strcmp(top, "competitor"));
	CHECK_INT_EQ(top_pid, comp);
	/* the competitor's charged time is most of the wait */
	CHECK(top_ns > 0.8 * runq);
	/* agreement with the kernel's accounting: schedstat's run_delay over
	 * the harness's span holds the iterations' wait (ours) plus the wait
	 * in the gaps between them, where the competitor takes its share too.
	 * Gaps are a few ms natively, tens of ms under QEMU TCG (probe traps
	 * are emulated), so the bound is [runq, runq + gaps], 5 % either way
	 * and 2 ms for the reads just outside the first and last iteration. */
	read_schedstat(ss, &kernel_delay);
	CHECK(kernel_delay > 0);
	CHECK(kernel_delay >= 0.95 * runq && kernel_delay <= 1.05 * (runq + gap_ns(ds)) + 2e6);
	if (!(kernel_delay >= 0.95 * runq && kernel_delay <= 1.05 * (runq + gap_ns(ds)) + 2e6))
		fprintf(stderr, "kernel run_delay %.0f ns, runq %.0f ns, gaps %.0f ns\n",
			kernel_delay, runq, gap_ns(ds));
	bs_dataset_free(ds);
}

static void test_alone_near_zero(void)
{
	const char *ss = ktmp("ss-alone");
	struct bs_dataset *ds;
	double wall, runq, pre, kernel_delay;

	NEED_BPF();
	ds = run_pinned(0, ss, NULL);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 30);
	sum_iters(ds, &wall, &runq, &pre);
	/* kernel threads and the tool itself may run briefly: < 5 % */
	CHECK(runq / wall < 0.05);
	read_schedstat(ss, &kernel_delay);
	CHECK(kernel_delay >= 0);
	/*
	 * The iterations' waits are part of the kernel's (within 2 ms + 10 %
	 * for accounting granularity); the kernel's may exceed them by at most
	 * the time between iterations, where benchscope does not look (on
	 * hardware microseconds; under TCG, where each probe hit takes about a
	 * millisecond, several: 17.8 ms against 12.1 ms was seen on 6.1). Under
	 * TCG the kernel also counts the waits between its reads and the first
	 * begin and last end, each behind an emulated trap: 21.3 ms against
	 * 13.6 ms in the iterations and 3.5 ms between them was seen on 6.1, so
	 * there the bound gets 5 ms more for those two edges.
	 */
	fprintf(stderr,
		"    alone: run-queue wait %.0f us in iterations, %.0f us by the kernel, "
		"%.0f us between iterations\n",
		runq / 1e3, kernel_delay / 1e3, gap_ns(ds) / 1e3);
	CHECK(runq <= kernel_delay + 2e6 + 0.10 * kernel_delay);
	if (kernel_delay > runq + gap_ns(ds) + 2e6 + 0.10 * runq + (ktest_emulated() ? 5e6 : 0))
		FAILF("kernel run_delay %.0f ns exceeds the iterations' run-queue wait %.0f ns "
		      "by more than the %.0f ns between iterations",
		      kernel_delay, runq, gap_ns(ds));
	bs_dataset_free(ds);
}

/*
 * Five competitors on the harness's CPU: CFS runs them in turn, more of them
 * than a CPU keeps pending pairs (BS_WAIT_PEND), so charges keep going through
 * the ring buffer as slots are reused. Time is conserved: the charges add up
 * to the wait (within 3 %, never more), and each competitor gets about a
 * fifth of it.
 */
static void test_five_competitors_share(void)
{
	const char *ss = ktmp("ss-crowded");
	pid_t comp[MAX_COMPETITORS] = {0};
	double wall, runq, pre, all_ns = 0, mine[MAX_COMPETITORS] = {0};
	struct bs_dataset *ds;
	size_t i;
	int k;

	NEED_BPF();
	ds = run_pinned(MAX_COMPETITORS, ss, comp);
	unlink(ss);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 30);
	sum_iters(ds, &wall, &runq, &pre);
	/* six CPU-bound tasks share the CPU: about 5/6 of the wall is waiting */
	CHECK(runq / wall > 0.70 && runq / wall < 0.92);
	for (i = 0; i < ds->n_interferers; i++) {
		const struct bs_interferer_rec *r = &ds->interferers[i];

		all_ns += (double)r->ns;
		for (k = 0; k < MAX_COMPETITORS; k++)
			if (r->interferer_pid == (uint32_t)comp[k]) {
				mine[k] += (double)r->ns;
				CHECK(!strcmp(r->comm, "competitor"));
			}
	}
	check_charges_conserved(ds, runq);
	for (k = 0, wall = 0; k < MAX_COMPETITORS; k++) {
		CHECK(mine[k] > 0.10 * runq && mine[k] < 0.35 * runq);
		if (!(mine[k] > 0.10 * runq && mine[k] < 0.35 * runq))
			fprintf(stderr, "competitor %d: %.0f ns of %.0f ns waited\n", k, mine[k],
				runq);
		wall += mine[k];
	}
	CHECK(wall > 0.8 * runq);
	fprintf(stderr,
		"    five competitors: %.1f %% of the wait charged to them (%.1f %% in all)\n",
		100 * wall / runq, 100 * all_ns / runq);
	bs_dataset_free(ds);
}

int main(void)
{
	RUN_TEST(test_competitor_takes_half);
	RUN_TEST(test_alone_near_zero);
	RUN_TEST(test_five_competitors_share);
	return test_summary("kernel-interference");
}
