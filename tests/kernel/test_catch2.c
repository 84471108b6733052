// SPDX-License-Identifier: MIT
/*
 * test_catch2 - `--preset catch2` on a real, unmodified Catch2 2.x test
 * program (tests/progs/catch2_bench.cc against Debian's catch.hpp, built
 * with g++ -O2, which devirtualises ChronometerModel::start()/finish()):
 *   - per benchmark, the samples (estimation runs told apart by
 *     bs_catch2_calibration) are as many as Catch2 took, each with the
 *     repeats Catch2 reports (`iterations`), and their mean time per
 *     invocation agrees with Catch2's within 3 %, sample for sample (Catch2's
 *     XML reporter gives the mean, the program's listener the samples);
 *   - the benchmark names read from the program are Catch2's;
 *   - bad input: a program that is not Catch2 and a stripped copy
 *     (progs/catch2_bench_stripped) are refused with one line on stderr and
 *     exit status 2;
 *   - an A/A duet of 3 runs gives every run's sides all three benchmarks,
 *     named, with their samples, and the duet pairs them by benchmark.
 */
#include <math.h>
#include <stdbool.h>

#include "duet/data.h"
#include "trace/catch2_runs.h"
#include "ktest.h"

#define BENCHSCOPE kpath("benchscope")
#define SAMPLES	   20
#define N_BENCH	   3
/* short runs: 20 samples, 20 ms of estimation, no bootstrap (the XML mean
 * is then the plain mean of the samples) */
#define C2_ARGS                                                                                    \
	"--benchmark-samples", "20", "--benchmark-warmup-time", "20", "--benchmark-no-analysis"

static const char *const names[N_BENCH] = {"fnv1a 256 bytes", "map 100 keys", "sort 20000 ints"};

/* Catch2's own figures for one benchmark: its XML reporter's, and the
 * samples its listener wrote (tests/progs/catch2_bench.cc). */
struct c2_result {
	char name[128];
	long samples, iterations;
	double mean_ns; /* XML: the mean of the samples, ns per invocation */
	double s[256];	/* the samples: (sample time - clock cost) / iterations, ns */
	size_t n_s;
	long s_iterations; /* the listener's BenchmarkInfo::iterations */
};

/* The value of attribute ATTR of the element starting at P (up to its '>'), or NULL. */
static const char *attr(const char *p, const char *attr_name, char *out, size_t outlen)
{
	const char *end = strchr(p, '>'), *a;
	char key[64];

	snprintf(key, sizeof(key), " %s=\"", attr_name);
	a = strstr(p, key);
	if (!a || !end || a > end)
		return NULL;
	a += strlen(key);
	snprintf(out, outlen, "%.*s", (int)(strchr(a, '"') ? strchr(a, '"') - a : 0), a);
	return out;
}

static void read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
}

/* Parse Catch2's XML report (every <BenchmarkResults> and its <mean>), then the
 * listener's samples (matched by name). Returns the number of benchmarks. */
static size_t parse_catch2(const char *xml_path, const char *tsv_path, struct c2_result *res,
			   size_t max)
{
	static char buf[1 << 20];
	const char *p = buf, *m;
	char v[256], *line, *save;
	size_t n = 0;

	read_file(xml_path, buf, sizeof(buf));
	while (n < max && (p = strstr(p, "<BenchmarkResults "))) {
		struct c2_result *r = &res[n];

		memset(r, 0, sizeof(*r));
		if (attr(p, "name", r->name, sizeof(r->name)) && attr(p, "samples", v, sizeof(v)))
			r->samples = atol(v);
		if (attr(p, "iterations", v, sizeof(v)))
			r->iterations = atol(v);
		m = strstr(p, "<mean ");
		if (m && attr(m, "value", v, sizeof(v)))
			r->mean_ns = atof(v);
		p++;
		n++;
	}
	read_file(tsv_path, buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t'), *f, *fs;

		if (!tab)
			continue;
		*tab = 0;
		for (size_t i = 0; i < n; i++) {
			if (strcmp(res[i].name, line))
				continue;
			res[i].s_iterations = strtol(tab + 1, &f, 10);
			for (f = strtok_r(f, "\t", &fs); f && res[i].n_s < 256;
			     f = strtok_r(NULL, "\t", &fs))
				res[i].s[res[i].n_s++] = atof(f);
		}
	}
	return n;
}

/* The iterations of process PID named NAME, in begin order (malloc'd, *n set). */
static const struct bs_iter_rec **named_iters(const struct bs_dataset *ds, uint32_t pid,
					      const char *name, size_t *n)
{
	const struct bs_iter_rec **v = calloc(ds->n_iters + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; v && i < ds->n_iters; i++) {
		const struct bs_iter_rec *r = &ds->iters[i];
		const char *b = bs_dataset_bench_name(ds, r->pid, r->begin_ns);

		if (r->pid == pid && b && !strcmp(b, name))
			v[(*n)++] = r;
	}
	/* the dataset is in trace order; a benchmark runs on one thread, so
	 * sort by begin only defensively (insertion sort, n small) */
	for (size_t i = 1; v && i < *n; i++)
		for (size_t j = i; j > 0 && v[j - 1]->begin_ns > v[j]->begin_ns; j--) {
			const struct bs_iter_rec *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v;
}

/* The samples of one benchmark: their count, repeats (0 when they differ), ns/op each. */
struct ours {
	size_t samples, estimation;
	uint64_t repeats;
	double s[256]; /* ns per invocation of each sample (the first 256) */
};

static struct ours measure_of(const struct bs_dataset *ds, uint32_t pid, const char *name)
{
	struct ours o = {0};
	size_t n;
	const struct bs_iter_rec **v = named_iters(ds, pid, name, &n);
	bool *calib = calloc(n + 1, sizeof(*calib));

	if (v && calib) {
		bs_catch2_calibration(v, n, calib, NULL);
		for (size_t i = 0; i < n; i++) {
			if (calib[i]) {
				o.estimation++;
				continue;
			}
			if (o.samples == 0)
				o.repeats = v[i]->invocations;
			else if (o.repeats != v[i]->invocations)
				o.repeats = 0;
			if (o.samples < 256)
				o.s[o.samples] = dur_ns(v[i]) / (double)v[i]->invocations;
			o.samples++;
		}
	}
	free(v);
	free(calib);
	return o;
}

/* The process that ran the benchmarks (the dataset's first iteration's). */
static uint32_t bench_pid(const struct bs_dataset *ds)
{
	return ds->n_iters ? ds->iters[0].pid : 0;
}

/*
 * Our samples against Catch2's, sample by sample (the same executions: the
 * i-th of each). A sample timed by both clocks differs only by what happens
 * between a probe's timestamp and the harness's clock read: the rest of the
 * probe's trap, ~1 us on this VM, most of it in the end probe's (Catch2
 * counts it, we do not). Two things make a sample differ by more, on one
 * side only: the end probe's ring-buffer wake-up (an irq_work self-IPI, ~10
 * us here, once per cfg_wakeup_bytes of records: the same sample of a run
 * every time, e.g. sample 11 of "fnv1a 256 bytes"), and a preemption on the
 * way back from a trap (one clock sees the time slice, the other does not).
 * Such a sample (more than DISTURBED apart) is counted, printed and left out
 * of both means; at most a third of them.
 */
#define DISTURBED 0.10
#define MEAN_TOL  0.03

/* Our samples of c against Catch2's; probe_ns: the run's measured probe
 * cost per iteration (ns) */
static void compare(const struct c2_result *c, const struct ours *o, double probe_ns)
{
	double sum_c = 0, sum_o = 0, all_c = 0, all_o = 0, mean_c, mean_o;
	size_t n = o->samples < c->n_s ? o->samples : c->n_s, kept = 0, disturbed = 0;

	CHECK_INT_EQ(o->samples, (size_t)c->samples);
	CHECK_INT_EQ(c->n_s, (size_t)c->samples);
	CHECK_INT_EQ(o->repeats, (uint64_t)c->iterations);
	CHECK_INT_EQ(c->s_iterations, c->iterations);
	CHECK(o->estimation >= 1);
	for (size_t i = 0; i < n && i < 256; i++) {
		all_c += c->s[i];
		all_o += o->s[i];
		if (fabs(o->s[i] - c->s[i]) > DISTURBED * c->s[i]) {
			fprintf(stderr,
				"      sample %zu disturbed at a boundary: %.1f vs %.1f ns/op\n", i,
				o->s[i], c->s[i]);
			disturbed++;
			continue;
		}
		sum_c += c->s[i];
		sum_o += o->s[i];
		kept++;
	}
	mean_c = kept ? sum_c / (double)kept : NAN;
	mean_o = kept ? sum_o / (double)kept : NAN;
	fprintf(stderr,
		"    %-16s %zu samples x %llu (Catch2: %ld x %ld); mean %.1f ns/op, Catch2's XML "
		"%.1f (%+.2f %%); %zu disturbed at a boundary, the other %zu: %.1f vs %.1f "
		"(%+.2f %%)\n",
		c->name, o->samples, (unsigned long long)o->repeats, c->samples, c->iterations,
		n ? all_o / (double)n : NAN, c->mean_ns,
		n ? 100 * (all_o / (double)n - c->mean_ns) / c->mean_ns : NAN, disturbed, kept,
		mean_o, mean_c, 100 * (mean_o - mean_c) / mean_c);
	/* the listener's samples are those whose mean Catch2 reported */
	CHECK(n && fabs(all_c / (double)n - c->mean_ns) <= 1e-3 * c->mean_ns);
	CHECK(disturbed * 3 <= n);
	/* under TCG a trap's way back costs several times more, and Catch2 counts
	 * the end probe's: the 6.1 guest gave -3.49 % and (with another task
	 * on one of the host's CPUs) -6.08 % on the ~135 us samples of "fnv1a
	 * 256 bytes". There the probe cost per
	 * invocation (the run's calibration over the repeats) is allowed on top
	 * (a timing tolerance; the counts above stay exact). */
	CHECK(
	    fabs(mean_o - mean_c) <= MEAN_TOL * mean_c ||
	    (probe_ns > 0 && o->repeats > 0 &&
	     fabs(mean_o - mean_c) <= MEAN_TOL * mean_c + probe_ns / (double)o->repeats &&
	     ktest_relaxed("samples within 3 % of Catch2's, plus the probe cost per invocation")));
}

static void test_samples_agree_with_catch2(void)
{
	const char *trace = ktmp("c2.trace"), *xml = ktmp("c2.xml"), *tsv = ktmp("c2.tsv");
	char *argv[] = {(char *)BENCHSCOPE,
			"run",
			"-q",
			"--preset",
			"catch2",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/catch2_bench"),
			"[!benchmark]",
			C2_ARGS,
			"-r",
			"xml",
			"-o",
			(char *)xml,
			NULL};
	static struct c2_result res[4];
	static struct ours o;
	struct kresult r;
	struct bs_dataset *ds;
	size_t n_res;

	NEED_BPF();
	setenv("BS_CATCH2_SAMPLES", tsv, 1);
	ds = krun_ok(&r, argv, trace);
	unsetenv("BS_CATCH2_SAMPLES");
	n_res = parse_catch2(xml, tsv, res, 4);
	CHECK_INT_EQ(n_res, N_BENCH);
	if (!ds || n_res != N_BENCH)
		goto out;
	CHECK(ds->n_benches >= N_BENCH);
	for (size_t i = 0; i < n_res; i++) {
		CHECK(!strcmp(res[i].name, names[i]));
		o = measure_of(ds, bench_pid(ds), res[i].name);
		compare(&res[i], &o, ds->run_ctx.probe_cost_per_iter_ns);
	}
out:
	bs_dataset_free(ds);
	unlink(trace);
	unlink(xml);
	unlink(tsv);
}

/*
 * run --stop: a fork of the Catch2 program, ended after 5 warmup and 10
 * measurement iterations (inside the first benchmark's 20 samples): its
 * estimation runs (the chain 1, 2, 4, ... before the samples) are counted
 * as calibration and never fed, so exactly the first 15 samples are warmup
 * and measurement.
 */
static void test_stop_leaves_out_estimation(void)
{
	const char *trace = ktmp("c2stop.trace");
	char *argv[] = {(char *)BENCHSCOPE,
			"run",
			"-q",
			"--preset",
			"catch2",
			"--stop",
			"none",
			"--forks",
			"1:1",
			"--warmup",
			"5:5",
			"--measure",
			"10",
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/catch2_bench"),
			"[!benchmark]",
			C2_ARGS,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	const struct bs_fork_event *f;
	size_t chain = 0, warm = 0, meas = 0;
	uint64_t expect = 1, k = 0;

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->run_ev.n_forks, 1);
	if (ds->run_ev.n_forks != 1)
		goto out;
	f = &ds->run_ev.forks[0];
	/* the trace: a doubling chain, then samples of one count k */
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];

		if (it->pid != f->pid || (it->flags & BS_ITER_F_AFTER_STOP))
			continue;
		if (!k && it->invocations == expect) {
			chain++;
			expect *= 2;
			CHECK(it->flags & BS_ITER_F_WARMUP); /* arrived in the warmup phase */
			continue;
		}
		if (!k)
			k = it->invocations;
		CHECK_INT_EQ(it->invocations, k);
		if (it->flags & BS_ITER_F_WARMUP)
			warm++;
		else
			meas++;
	}
	fprintf(stderr, "    %zu estimation runs, then samples of %llu\n", chain,
		(unsigned long long)k);
	CHECK(chain >= 2);
	CHECK_INT_EQ(f->calibration_runs, chain);
	CHECK_INT_EQ(f->warmup_iterations, 5);
	CHECK_INT_EQ(f->measurement_iterations, 10);
	CHECK_INT_EQ(warm, 5);
	CHECK_INT_EQ(meas, 10);
out:
	bs_dataset_free(ds);
	unlink(trace);
}

static void test_bad_input(void)
{
	const char *trace = ktmp("bad.trace"), *stripped = kpath("progs/catch2_bench_stripped");
	char *not_catch2[] = {(char *)BENCHSCOPE,
			      "run",
			      "--preset",
			      "catch2",
			      "-o",
			      (char *)trace,
			      "--",
			      (char *)kpath("progs/gbench_example"),
			      NULL};
	char *strip_run[] = {(char *)BENCHSCOPE, "run", "--preset",	  "catch2",	  "-o",
			     (char *)trace,	 "--",	(char *)stripped, "[!benchmark]", NULL};

	kexpect_usage(not_catch2, "does not look like a Catch2 test program with benchmarks");
	kexpect_usage(not_catch2, "found: 0 ChronometerModel<Clock>::start()");
	kexpect_usage(strip_run, "has no symbol table (stripped?)");
	unlink(trace);
}

static void test_duet_aa(void)
{
	const char *trace = ktmp("c2duet.trace");
	char cmd[4400];
	char *argv[] = {(char *)BENCHSCOPE, "duet", "-q", "--preset", "catch2", "--runs", "3", "-o",
			(char *)trace,	    "-A",   cmd,  "-B",	      cmd,	NULL};
	struct kresult r;
	struct bs_dataset *ds;
	struct bs_duet_data *d = NULL;
	uint32_t pids[16];
	size_t n_pids = 0;

	NEED_BPF();
	/* the tag is quoted: duet splits the command like a shell, and [!...] is a glob */
	snprintf(cmd, sizeof(cmd),
		 "%s '[!benchmark]' --benchmark-samples 20 --benchmark-warmup-time 20 "
		 "--benchmark-no-analysis",
		 kpath("progs/catch2_bench"));
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	for (size_t i = 0; i < ds->n_iters && n_pids < 16; i++) {
		size_t j;
		for (j = 0; j < n_pids && pids[j] != ds->iters[i].pid; j++)
			;
		if (j == n_pids)
			pids[n_pids++] = ds->iters[i].pid;
	}
	/* 3 runs x 2 sides, each process with all three benchmarks, named, sampled */
	CHECK_INT_EQ(n_pids, 6);
	for (size_t j = 0; j < n_pids; j++)
		for (size_t b = 0; b < N_BENCH; b++) {
			struct ours o = measure_of(ds, pids[j], names[b]);

			CHECK_INT_EQ(o.samples, SAMPLES);
			CHECK(o.repeats > 0);
			CHECK(o.estimation >= 1);
		}
	/* what the duet reports: the three benchmarks by name, each in the 3 runs,
	 * scored per invocation, its samples paired (no estimation run) */
	if ((d = kduet_model(ds, N_BENCH))) {
		for (size_t b = 0; b < d->n_benches && b < N_BENCH; b++) {
			size_t runs = 0;

			CHECK(!strcmp(d->benches[b].name, names[b]));
			CHECK(d->benches[b].per_invocation);
			for (int m = 0; m < BS_DM_N; m++) {
				runs += d->benches[b].n_runs[m];
				for (size_t k = 0; k < d->benches[b].n_runs[m]; k++)
					for (int side = 0; side < 2; side++)
						CHECK_INT_EQ(d->benches[b].runs[m][k].side[side].n,
							     SAMPLES);
			}
			CHECK_INT_EQ(runs, 3);
		}
		bs_duet_data_free(d);
	}
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	RUN_TEST(test_samples_agree_with_catch2);
	RUN_TEST(test_stop_leaves_out_estimation);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_duet_aa);
	return test_summary("kernel-catch2");
}
