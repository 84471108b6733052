// SPDX-License-Identifier: MIT
/*
 * test_duet_place.c - the duet designs that cancel per-CPU speed
 * differences, on the ground-truth harness iter_loop: --crossover really
 * starts half the runs with the sides' CPUs exchanged, --swap-every
 * exchanges them within a run, and the interleaved method never runs an
 * iteration of A and one of B at the same time (both on one CPU, taking
 * turns). Judged from the trace's own records (cpu_begin, cpu_end,
 * timestamps).
 */
#include "test.h"

#include <string.h>
#include <unistd.h>

#include "duet/data.h"
#include "duet/noise.h"
#include "ktest.h"
#include "trace/duet_blocks.h"

#define BENCHSCOPE kpath("benchscope")
#define ITER_LOOP  kpath("progs/iter_loop")

static char cmd[4200], sym_iter[4200];

/* the duet model of a finished duet trace, or NULL (a failure is counted) */
static struct bs_duet_data *model_of(const struct bs_dataset *ds)
{
	struct bs_duet_data *d = NULL;
	char err[512];

	if (bs_duet_data_build(ds, &d, err, sizeof(err))) {
		FAILF("duet data: %s", err);
		return NULL;
	}
	if (d->n_benches != 1) {
		FAILF("%zu benchmarks, expected 1", d->n_benches);
		bs_duet_data_free(d);
		return NULL;
	}
	return d;
}

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
	d = model_of(ds);
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
	d = model_of(ds);
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

/*
 * The interleaved method: both sides on one CPU, A's iteration k, then
 * B's k, then A's k + 1: no iteration of A overlaps one of B in time, the
 * begins alternate A, B, A, B..., and every iteration ran on the same CPU.
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

	NEED_BPF();
	snprintf(cmd, sizeof(cmd), "%s 15 2000", ITER_LOOP);
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	d = model_of(ds);
	CHECK(d && d->benches[0].n_runs[BS_DM_ILV] == 2);
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
		/* A's k-th ends before B's k-th begins, which ends before A's k+1-th */
		for (size_t i = 0; i < a->n && i < b->n; i++) {
			CHECK(a->iv[i].end_ns <= b->iv[i].start_ns);
			if (i + 1 < a->n)
				CHECK(b->iv[i].end_ns <= a->iv[i + 1].start_ns);
		}
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

int main(void)
{
	snprintf(sym_iter, sizeof(sym_iter), "%s:bs_iteration", ITER_LOOP);
	RUN_TEST(test_crossover_swaps_cpus);
	RUN_TEST(test_swap_within_run);
	RUN_TEST(test_interleaved_never_together);
	return test_summary("duet-place");
}
