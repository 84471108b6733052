// SPDX-License-Identifier: MIT
/*
 * test_catch2 - `--preset catch2` on a real, unmodified Catch2 2.x test
 * program (tests/progs/catch2_bench.cc against Debian's catch.hpp, built
 * with g++ -O2, which devirtualises ChronometerModel::start()/finish()):
 *   - per benchmark, the samples (estimation runs told apart by
 *     bs_catch2_calibration) are as many as Catch2 took, each with the
 *     repeats Catch2 reports (`iterations`), and their mean time per
 *     invocation agrees with the mean Catch2's XML reporter gives within 3 %;
 *   - the benchmark names read from the program are Catch2's;
 *   - bad input: a program that is not Catch2 and a stripped copy are
 *     refused with one line on stderr and exit status 2;
 *   - an A/A duet of 3 runs gives every run's sides all three benchmarks,
 *     named, with their samples.
 */
#include <math.h>
#include <stdbool.h>

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

/* Catch2's own figures for one benchmark, from its XML reporter. */
struct c2_result {
	char name[128];
	long samples, iterations;
	double mean_ns; /* per invocation: (sample time - clock cost) / iterations, averaged */
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

/* Parse Catch2's XML report: every <BenchmarkResults> and the <mean> inside it. */
static size_t parse_xml(const char *path, struct c2_result *res, size_t max)
{
	static char xml[1 << 20];
	const char *p = xml, *m;
	char v[256];
	size_t n = 0;
	int fd = open(path, O_RDONLY);
	ssize_t len = fd >= 0 ? read(fd, xml, sizeof(xml) - 1) : -1;

	if (fd >= 0)
		close(fd);
	xml[len > 0 ? len : 0] = 0;
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

/* The samples of one benchmark: their count, repeats (0 when they differ) and mean ns/op. */
struct ours {
	size_t samples, estimation;
	uint64_t repeats;
	double mean_ns;
};

static struct ours measure_of(const struct bs_dataset *ds, uint32_t pid, const char *name)
{
	struct ours o = {0};
	size_t n;
	const struct bs_iter_rec **v = named_iters(ds, pid, name, &n);
	bool *calib = calloc(n + 1, sizeof(*calib));
	double sum = 0;

	if (v && calib) {
		bs_catch2_calibration(v, n, calib);
		for (size_t i = 0; i < n; i++) {
			if (calib[i]) {
				o.estimation++;
				continue;
			}
			if (o.samples == 0)
				o.repeats = v[i]->invocations;
			else if (o.repeats != v[i]->invocations)
				o.repeats = 0;
			sum += dur_ns(v[i]) / (double)v[i]->invocations;
			o.samples++;
		}
	}
	o.mean_ns = o.samples ? sum / (double)o.samples : NAN;
	free(v);
	free(calib);
	return o;
}

/* The process that ran the benchmarks (the dataset's first iteration's). */
static uint32_t bench_pid(const struct bs_dataset *ds)
{
	return ds->n_iters ? ds->iters[0].pid : 0;
}

static void test_samples_agree_with_catch2(void)
{
	const char *trace = ktmp("c2.trace"), *xml = ktmp("c2.xml");
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
	struct c2_result res[8];
	struct kresult r;
	struct bs_dataset *ds;
	size_t n_res;

	NEED_BPF();
	ds = krun_ok(&r, argv, trace);
	n_res = parse_xml(xml, res, 8);
	CHECK_INT_EQ(n_res, N_BENCH);
	if (!ds || n_res != N_BENCH)
		goto out;
	CHECK(ds->n_benches >= N_BENCH);
	for (size_t i = 0; i < n_res; i++) {
		struct ours o = measure_of(ds, bench_pid(ds), res[i].name);
		double dev = fabs(o.mean_ns - res[i].mean_ns) / res[i].mean_ns;

		CHECK(!strcmp(res[i].name, names[i]));
		fprintf(stderr,
			"    %-16s Catch2: %ld samples x %ld, mean %.1f ns/op; benchscope: %zu "
			"estimation runs, %zu samples x %llu, mean %.1f ns/op (%+.2f %%)\n",
			res[i].name, res[i].samples, res[i].iterations, res[i].mean_ns,
			o.estimation, o.samples, (unsigned long long)o.repeats, o.mean_ns,
			100 * (o.mean_ns - res[i].mean_ns) / res[i].mean_ns);
		CHECK_INT_EQ(o.samples, (size_t)res[i].samples);
		CHECK_INT_EQ(o.repeats, (uint64_t)res[i].iterations);
		CHECK(o.estimation >= 1);
		CHECK(dev <= 0.03);
	}
out:
	bs_dataset_free(ds);
	unlink(trace);
	unlink(xml);
}

/* Exit status 2 and exactly one line on stderr containing WANT. */
static void check_refused(char *const argv[], const char *want)
{
	struct kresult r;
	char *nl;

	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 2);
	nl = strchr(r.err, '\n');
	CHECK(nl && nl[1] == '\0');
	CHECK(strstr(r.err, want) != NULL);
	if (!strstr(r.err, want))
		fprintf(stderr, "    stderr: %s", r.err);
}

static void test_bad_input(void)
{
	const char *trace = ktmp("bad.trace"), *stripped = ktmp("catch2_stripped");
	char cmd[8192];
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

	check_refused(not_catch2, "does not look like a Catch2 test program with benchmarks");
	check_refused(not_catch2, "found: 0 ChronometerModel<Clock>::start()");
	snprintf(cmd, sizeof(cmd), "strip -o '%s' '%s'", stripped, kpath("progs/catch2_bench"));
	if (system(cmd) != 0) {
		FAILF("strip failed: %s", cmd);
		return;
	}
	check_refused(strip_run, "has no symbol table (stripped?)");
	unlink(stripped);
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
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	RUN_TEST(test_samples_agree_with_catch2);
	RUN_TEST(test_bad_input);
	RUN_TEST(test_duet_aa);
	return test_summary("kernel-catch2");
}
