// SPDX-License-Identifier: MIT
/*
 * test_gbench - `--preset gbench` on a real, unmodified Google Benchmark
 * program (tests/progs/gbench_example.cc against Debian's libbenchmark):
 * every repetition's duration measured from the kernel agrees with Google
 * Benchmark's own real_time x iterations within 2 %, and the invocation
 * count read from benchmark::State equals its `iterations`.
 */
#include <json-c/json.h>

#include "ktest.h"
#include "report/summary.h"

/*
 * One measured run, every repetition against Google Benchmark's own time,
 * within 2 %. A thread preempted right at a boundary (after our timestamp,
 * before the harness's own) is the one way the two clocks can differ by
 * more; on a shared 2-vCPU VM that happens once in a while, and the
 * iteration's record then shows the preemption: such a repetition is
 * excused (kexcused, printed), at most a quarter of them. Under QEMU TCG the
 * host can stall the guest's vCPU thread for milliseconds there, unseen: a
 * 6.1 guest once had 67.5 against 73.9 ms, and 78.3 against 85.3 ms on the
 * run after, so there each repetition may be 10 % off; the median ratio,
 * which one stall does not move but an error of the probes would, must be
 * within 2 % always.
 */
static void test_repetitions_agree_with_gbench_json(void)
{
	const char *trace = ktmp("gb.trace"), *gbjson = ktmp("gb.json");
	char outarg[300];
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"gbench",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gbench_example"),
			"--benchmark_repetitions=4",
			"--benchmark_min_time=0.05",
			outarg,
			"--benchmark_out_format=json",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	json_object *root, *benches;
	size_t i, cursor = 0, matched = 0, n, excused = 0;
	double ratio[64], med;

	NEED_BPF();
	snprintf(outarg, sizeof(outarg), "--benchmark_out=%s", gbjson);
	ds = krun_ok(&r, argv, trace);
	root = json_object_from_file(gbjson);
	if (!ds || !root) {
		FAILF("no trace or no Google Benchmark JSON (%s)", r.err);
		goto out;
	}
	CHECK(json_object_object_get_ex(root, "benchmarks", &benches));
	n = json_object_array_length(benches);
	for (i = 0; i < n; i++) {
		double real_ns, want;
		int64_t iters;

		if (!kgb_repetition(json_object_array_get_idx(benches, i), &iters, &real_ns, NULL))
			continue; /* aggregates (mean, median, ...) */
		want = real_ns * (double)iters;
		/* the next run in the trace with that invocation count */
		while (cursor < ds->n_iters && ds->iters[cursor].invocations != (uint64_t)iters)
			cursor++;
		if (cursor == ds->n_iters) {
			FAILF("no run with %lld invocations in the trace", (long long)iters);
			break;
		}
		CHECK(ds->iters[cursor].flags & BS_ITER_F_INVOC);
		if (matched < 64)
			ratio[matched] = dur_ns(&ds->iters[cursor]) / want;
		if (fabs(dur_ns(&ds->iters[cursor]) - want) > 0.02 * want &&
		    !(fabs(dur_ns(&ds->iters[cursor]) - want) <= 0.10 * want &&
		      ktest_relaxed("repetitions within 2 % of Google Benchmark's own time: "
				    "10 %, the median within 2 %"))) {
			const struct bs_iter_rec *it = &ds->iters[cursor];
			bool ok = kexcused(it, dur_ns(it) - want, 0.02 * want);

			excused += ok;
			if (!ok)
				FAILF("run %zu: benchscope %.0f ns, Google Benchmark %.0f ns, "
				      "disturbed %llu ns",
				      cursor, dur_ns(it), want,
				      (unsigned long long)(it->runq_wait_ns + it->blocked_ns));
			else
				fprintf(
				    stderr,
				    "    run %zu: benchscope %.0f ns, Google Benchmark %.0f ns: "
				    "excused, its record shows %llu ns of run-queue wait and "
				    "%llu ns blocked\n",
				    cursor, dur_ns(it), want, (unsigned long long)it->runq_wait_ns,
				    (unsigned long long)it->blocked_ns);
		}
		matched++;
		cursor++;
	}
	CHECK_INT_EQ(matched, 3 * 4); /* 3 benchmarks x 4 repetitions */
	if (excused > matched / 4)
		FAILF("%zu of %zu repetitions excused by a preemption: more than a quarter",
		      excused, matched);
	med = kmedian(ratio, matched < 64 ? matched : 64);
	if (!(fabs(med - 1) < 0.02))
		FAILF("median ratio to Google Benchmark's own time %.4f", med);
out:
	if (root)
		json_object_put(root);
	bs_dataset_free(ds);
	unlink(trace);
	unlink(gbjson);
}

/*
 * Charges per iteration (--probes 2): the harness and a competitor share one
 * CPU, so Google Benchmark's calibration runs wait as its measured runs do.
 * The report's interferers (scope "analysed") sum the charges of the runs it
 * analyses only: their run-queue wait, within 5 % + 1 ms both ways (the two
 * are read at the same switches: 462.871 ms each natively). Before, they
 * covered the calibration runs too: 514.2 ms charged in that run.
 */
static void test_charges_of_analysed_runs(void)
{
	const char *trace = ktmp("gbcharges.trace");
	char cpu[8];
	char *argv[] = {"/usr/bin/taskset",
			"-c",
			cpu,
			(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"gbench",
			"--probes",
			"2",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/gbench_example"),
			"--benchmark_repetitions=2",
			"--benchmark_min_time=0.05",
			NULL};
	struct bs_run_summary s;
	struct kresult r;
	struct bs_dataset *ds;
	double all = 0, wait, charged;
	pid_t comp;

	NEED_BPF();
	snprintf(cpu, sizeof(cpu), "%d", (int)sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0);
	comp = kcompetitor(atoi(cpu), "60");
	usleep(100000);
	ds = krun_ok(&r, argv, trace);
	kreap(comp);
	if (!ds)
		return;
	CHECK(ds->run_ctx.charges_by_iteration);
	CHECK_INT_EQ(bs_run_context_charge_scope(&ds->run_ctx), BS_CHARGES_ANALYSED);
	kcheck_charges(ds, "every run, calibration included");
	if (bs_run_summarize(ds, 5, &s)) {
		FAILF("cannot summarise %s", trace);
		bs_dataset_free(ds);
		return;
	}
	for (size_t i = 0; i < ds->n_interferers; i++)
		all += (double)ds->interferers[i].ns;
	wait = (double)s.overall.intf.runq_wait_ns;
	charged = (double)s.interferer_ns;
	fprintf(stderr,
		"    analysed runs: charged %.3f ms, run-queue wait %.3f ms; every run: "
		"charged %.3f ms (%zu calibration runs)\n",
		charged / 1e6, wait / 1e6, all / 1e6, s.n_calibration);
	CHECK(s.n_calibration > 0);
	CHECK(wait > 0);
	CHECK(charged <= 1.05 * wait + 1e6);
	CHECK(charged >= 0.95 * wait - 1e6);
	bs_run_summary_free(&s);
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	RUN_TEST(test_repetitions_agree_with_gbench_json);
	RUN_TEST(test_charges_of_analysed_runs);
	return test_summary("kernel-gbench");
}
