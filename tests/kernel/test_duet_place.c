// SPDX-License-Identifier: MIT
/*
 * test_duet_place.c - the duet designs that cancel per-CPU speed
 * differences, on the ground-truth harness iter_loop: --crossover really
 * starts half the runs with the sides' CPUs exchanged, --swap-every
 * exchanges them within a run, and the interleaved method never runs an
 * iteration of A and one of B at the same time (both on one CPU, taking
 * turns), and --method auto follows the noise check's recommendation.
 * Judged from the trace's own records (cpu_begin, cpu_end, timestamps).
 */
#include "test.h"

#include <string.h>
#include <unistd.h>

#include "benchscope/stats_desc.h"
#include "duet/data.h"
#include "duet/noise.h"
#include "ktest.h"
#include "probe/caps.h"
#include "trace/duet_blocks.h"

#define BENCHSCOPE kpath("benchscope")
#define ITER_LOOP  kpath("progs/iter_loop")

static char cmd[4200], sym_iter[4200];

/* the one CPU side s of run r ran every iteration on, or -1 (it moved) */
static int side_cpu(const struct bs_drun *r, int s)
{
	int cpu = -1;

	for (size_t i = 0; i < r->side[s].n; i++) {
		const struct bs_iter_rec *it = r->side[s].rec[i];

		if (it->cpu_begin != it->cpu_end || (cpu >= 0 && (int)it->cpu_begin != cpu))
			return -1;
		cpu = (int)it->cpu_begin;
	}
	return cpu;
}

/*
 * --crossover with A=0,B=1 over 4 runs: two runs place A on CPU 0 and B on
 * CPU 1, two the other way round, and every iteration ran where its run's
 * placement put it; the duet_run events say which runs were exchanged.
 */
static void test_crossover_swaps_cpus(void)
{
	const char *trace = ktmp("cross.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"async",
			"--runs",
			"4",
			"--cpus",
			"A=0,B=1",
			"--crossover",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_duet_data *d;
	int swapped = 0, straight = 0;

	NEED_BPF();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs 2 CPUs (this machine has %ld)", sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(cmd, sizeof(cmd), "%s 10 2000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	d = kduet_model(ds, 1);
	for (size_t k = 0; d && k < d->benches[0].n_runs[BS_DM_ASYNC]; k++) {
		const struct bs_drun *run = &d->benches[0].runs[BS_DM_ASYNC][k];
		int ca = side_cpu(run, 0), cb = side_cpu(run, 1);

		CHECK_INT_EQ((int)run->side[0].n, 10);
		CHECK_INT_EQ((int)run->side[1].n, 10);
		if (ca == 0 && cb == 1)
			straight++;
		else if (ca == 1 && cb == 0)
			swapped++;
		else
			FAILF("run %d: A on CPU %d, B on CPU %d (-1: moved)", run->run, ca, cb);
	}
	CHECK_INT_EQ(straight, 2);
	CHECK_INT_EQ(swapped, 2);
	{
		struct bs_duet_blocks bl;
		char err[512];
		int marked = 0;

		CHECK_INT_EQ(bs_duet_blocks_decode(ds, &bl, err, sizeof(err)), 0);
		for (size_t i = 0; i < bl.n_runs; i++)
			marked += bl.runs[i].crossover;
		CHECK_INT_EQ(marked, 2);
		bs_duet_blocks_free(&bl);
	}
	bs_duet_data_free(d);
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * --swap-every 100 ms on a run of about 0.6 s of iterations per side: the
 * sides exchange CPUs within the run (cpu_swaps in its event), and each
 * side has iterations on both CPUs.
 */
static void test_swap_within_run(void)
{
	const char *trace = ktmp("swap.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"async",
			"--runs",
			"1",
			"--cpus",
			"A=0,B=1",
			"--swap-every",
			"100",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_duet_data *d;

	NEED_BPF();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP("needs 2 CPUs (this machine has %ld)", sysconf(_SC_NPROCESSORS_ONLN));
	snprintf(cmd, sizeof(cmd), "%s 60 10000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	d = kduet_model(ds, 1);
	if (d && d->benches[0].n_runs[BS_DM_ASYNC] == 1) {
		const struct bs_drun *run = &d->benches[0].runs[BS_DM_ASYNC][0];
		struct bs_duet_blocks bl;
		char err[512];

		CHECK_INT_EQ(bs_duet_blocks_decode(ds, &bl, err, sizeof(err)), 0);
		CHECK(bl.n_runs == 1 && bl.runs[0].cpu_swaps >= 2);
		bs_duet_blocks_free(&bl);
		for (int s = 0; s < 2; s++) {
			size_t on[2] = {0, 0};

			for (size_t i = 0; i < run->side[s].n; i++) {
				const struct bs_iter_rec *it = run->side[s].rec[i];

				if (it->cpu_begin == it->cpu_end && it->cpu_begin < 2)
					on[it->cpu_begin]++;
			}
			if (!on[0] || !on[1])
				FAILF("side %c: %zu iterations on CPU 0, %zu on CPU 1", "AB"[s],
				      on[0], on[1]);
		}
	} else {
		FAILF("expected one async run");
	}
	bs_duet_data_free(d);
	bs_dataset_free(ds);
	unlink(trace);
}

/* median duration of one side's iterations in a run, ns */
static double median_duration(const struct bs_dside *s)
{
	double *x = malloc((s->n + 1) * sizeof(*x)), m = 0;

	for (size_t i = 0; x && i < s->n; i++)
		x[i] = (double)(s->iv[i].end_ns - s->iv[i].start_ns);
	if (x && s->n && bs_quantile(x, s->n, 0.5, &m))
		m = 0;
	free(x);
	return m;
}

/*
 * The interleaved method: both sides on one CPU, the leader's iteration k
 * (A in the runs whose order is AB, B in the BA runs), then the other's k,
 * then the leader's k + 1: no iteration of A overlaps one of B in time, the
 * begins alternate, and every iteration ran on the same CPU.
 * With a CPU left over, benchscope keeps its own threads there (END
 * benchscope_cpus), so it takes no time from either side.
 */
static void test_interleaved_never_together(void)
{
	const char *trace = ktmp("ilv.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--method",
			"interleaved",
			"--runs",
			"2",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_duet_data *d;
	int n_ba = 0;

	NEED_BPF();
	snprintf(cmd, sizeof(cmd), "%s 15 2000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	d = kduet_model(ds, 1);
	CHECK(d && d->benches[0].n_runs[BS_DM_ILV] == 2);
	/* the two runs' orders are balanced: one AB, one BA */
	for (size_t k = 0; d && k < d->benches[0].n_runs[BS_DM_ILV]; k++) {
		const struct bs_drun *run = &d->benches[0].runs[BS_DM_ILV][k];
		const struct bs_dside *a = &run->side[0], *b = &run->side[1];
		size_t overlaps = 0;

		CHECK_INT_EQ((int)a->n, 15);
		CHECK_INT_EQ((int)b->n, 15);
		CHECK(side_cpu(run, 0) >= 0 && side_cpu(run, 0) == side_cpu(run, 1));
		for (size_t i = 0; i < a->n; i++)
			for (size_t j = 0; j < b->n; j++)
				overlaps += a->iv[i].start_ns < b->iv[j].end_ns &&
					    b->iv[j].start_ns < a->iv[i].end_ns;
		CHECK_INT_EQ((int)overlaps, 0);
		/* the run's order leads each turn: in BA runs B's k-th ends before
		 * A's k-th begins, which ends before B's k+1-th; likewise in AB */
		if (!strcmp(run->order, "BA")) {
			a = &run->side[1];
			b = &run->side[0];
			n_ba++;
		} else {
			CHECK(!strcmp(run->order, "AB"));
		}
		for (size_t i = 0; i < a->n && i < b->n; i++) {
			CHECK(a->iv[i].end_ns <= b->iv[i].start_ns);
			if (i + 1 < a->n)
				CHECK(b->iv[i].end_ns <= a->iv[i + 1].start_ns);
		}
	}
	CHECK_INT_EQ(n_ba, d ? 1 : 0);
	/* every stop was released, once; the hand-over (the waiting side's
	 * re-stamped begin minus the end that let it go) is far shorter than an
	 * iteration (when the sides' waits were confused it was one iteration) */
	for (size_t e = 0; ds && e < json_object_array_length(ds->events); e++) {
		json_object *ev = json_object_array_get_idx(ds->events, e);
		json_object *bar = bs_json_get(ev, "barrier"), *sk = bs_json_get(bar, "skew_ns");
		double med_dur = d ? median_duration(&d->benches[0].runs[BS_DM_ILV][0].side[0]) : 0;
		size_t n_sk = sk ? json_object_array_length(sk) : 0, n_small = 0;

		if (!bar)
			continue;
		CHECK_INT_EQ(json_object_get_int64(bs_json_get(bar, "released")),
			     json_object_get_int64(bs_json_get(bar, "stops")));
		for (size_t k = 0; k < n_sk; k++)
			n_small += (double)json_object_get_int64(json_object_array_get_idx(sk, k)) <
				   med_dur / 2;
		/* a timed figure: under TCG the host deschedules the vCPU threads
		 * unseen by the guest (4 of 28 under half an iteration once, with
		 * the host busy); the native run keeps the check */
		if (n_sk && 2 * n_small < n_sk &&
		    !ktest_relaxed("hand-over under half an iteration: printed, not checked"))
			FAILF("hand-over: %zu of %zu under half an iteration (%.0f ns)", n_small,
			      n_sk, med_dur / 2);
		else if (n_sk && 2 * n_small < n_sk)
			fprintf(stderr, "note: hand-over: %zu of %zu under half an iteration\n",
				n_small, n_sk);
	}
	if (d && sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		struct bs_duet_noise *n = NULL;

		CHECK(bs_json_get(ds->end, "benchscope_cpus") != NULL);
		CHECK_INT_EQ(bs_duet_noise_build(ds, d, &n), 0);
		if (n && (n->self_ns[0] || n->self_ns[1]))
			FAILF("benchscope took %llu ns from A and %llu ns from B",
			      (unsigned long long)n->self_ns[0], (unsigned long long)n->self_ns[1]);
		bs_duet_noise_free(n);
	}
	bs_duet_data_free(d);
	bs_dataset_free(ds);
	unlink(trace);
}

/*
 * --method auto (the default): the noise check before the runs picks the
 * design, and the runs follow it. The trace's CONTEXT holds the check and
 * the choice; a recommendation of two CPUs ("parallel") must give async
 * runs pinned to those CPUs, exchanged in one of the two runs; any other
 * must give interleaved runs whose every iteration ran on the recommended
 * CPU; on a virtual machine it is never "parallel". --noise-every 1
 * repeats the check between the two rounds: one noise_check event, before
 * run 1, which the report prints.
 */
static void test_auto_design(void)
{
	const char *trace = ktmp("auto.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"duet",
			"-q",
			"--no-calibrate",
			"--iter",
			sym_iter,
			"--noise-check",
			"1",
			"--noise-every",
			"1",
			"--runs",
			"2",
			"-o",
			(char *)trace,
			"-A",
			cmd,
			"-B",
			cmd,
			NULL};
	char *report[] = {(char *)BENCHSCOPE, "report", (char *)trace, NULL};
	struct kresult r;
	struct bs_duet_blocks bl;
	struct bs_dataset *ds;
	struct bs_duet_data *d;
	char err[512];

	NEED_BPF();
	snprintf(cmd, sizeof(cmd), "%s 6 2000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	if (bs_duet_blocks_decode(ds, &bl, err, sizeof(err))) {
		FAILF("decode: %s", err);
		bs_duet_blocks_free(&bl);
		bs_dataset_free(ds);
		return;
	}
	CHECK(bl.ctx.picked_by && !strcmp(bl.ctx.picked_by, "auto"));
	CHECK(bl.ctx.design_why && bl.ctx.noise.present);
	CHECK_INT_EQ((int)bl.n_rechecks, 1);
	if (bl.n_rechecks == 1)
		CHECK_INT_EQ(bl.rechecks[0].before_run, 1);
	d = kduet_model(ds, 1);
	if (d && bl.ctx.noise.present) {
		bool parallel = !strcmp(bl.ctx.noise.design, "parallel");
		char hv[64];

		/* a VM's host can slow a vCPU unseen: never parallel there */
		if (bs_hypervisor_guest(hv, sizeof(hv)))
			CHECK(!parallel);
		enum bs_dmethod m = parallel ? BS_DM_ASYNC : BS_DM_ILV;
		int crossed = 0;

		CHECK_INT_EQ((int)d->benches[0].n_runs[m], 2);
		CHECK_INT_EQ((int)bl.n_runs, 2);
		for (size_t k = 0; k < d->benches[0].n_runs[m]; k++) {
			const struct bs_drun *run = &d->benches[0].runs[m][k];
			int want_a = (int)bl.ctx.noise.cpu_a, want_b = (int)bl.ctx.noise.cpu_b;

			if (parallel && bl.runs[k].crossover) {
				crossed++;
				want_a = (int)bl.ctx.noise.cpu_b;
				want_b = (int)bl.ctx.noise.cpu_a;
			}
			CHECK_INT_EQ(side_cpu(run, 0), want_a);
			CHECK_INT_EQ(side_cpu(run, 1), want_b);
		}
		if (parallel)
			CHECK_INT_EQ(crossed, 1);
	}
	krun(&r, report);
	CHECK_INT_EQ(r.exit_code, 0);
	CHECK(strstr(r.out, "design      --method auto, from a 1.0 s noise check: ") != NULL);
	CHECK(strstr(r.out, "re-check    before run 1: ") != NULL);
	bs_duet_data_free(d);
	bs_duet_blocks_free(&bl);
	bs_dataset_free(ds);
	unlink(trace);
}

/* What auto cannot take: one line on stderr, exit 2, before any run. */
static void test_auto_bad_input(void)
{
	static const char *const bad[][3] = {
	    {"--method", "auto,seq", "auto picks one design: alone"},
	    {"--crossover", NULL, "--crossover places the sides of a design you choose"},
	    {"--noise-check", "0", "--method auto picks the design from the noise check"},
	    {"--noise-check", "0.1", "--noise-check takes 0 or seconds in [0.5, 3600]"},
	};
	struct kresult r;

	NEED_BPF();
	snprintf(cmd, sizeof(cmd), "%s 2 2000", ITER_LOOP);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[13] = {(char *)BENCHSCOPE,	     "duet", "--iter", sym_iter, "-o",
				  (char *)ktmp("bad.trace"), "-A",   cmd,      "-B",	 cmd};
		int k = 10;

		argv[k++] = (char *)bad[i][0];
		if (bad[i][1])
			argv[k++] = (char *)bad[i][1];
		argv[k] = NULL;
		krun(&r, argv);
		CHECK_INT_EQ(r.exit_code, 2);
		if (!strstr(r.err, bad[i][2]))
			FAILF("%s %s: stderr lacks \"%s\": %s", bad[i][0],
			      bad[i][1] ? bad[i][1] : "", bad[i][2], r.err);
	}
}

int main(void)
{
	snprintf(sym_iter, sizeof(sym_iter), "%s:bs_iteration", ITER_LOOP);
	RUN_TEST(test_crossover_swaps_cpus);
	RUN_TEST(test_swap_within_run);
	RUN_TEST(test_interleaved_never_together);
	RUN_TEST(test_auto_design);
	RUN_TEST(test_auto_bad_input);
	return test_summary("duet-place");
}
