/* SPDX-License-Identifier: MIT */
/*
 * ktest.h - helpers of the kernel-side tests: they run the real benchscope
 * binary on real harnesses (as root, with BPF) and read back the trace.
 * Without root or BTF they skip with the reason.
 */
#ifndef BENCHSCOPE_KTEST_H
#define BENCHSCOPE_KTEST_H

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <math.h>

#include "duet/data.h"
#include "probe/caps.h"
#include "trace/dataset.h"
#include "util/json.h"
#include "test.h"

/*
 * vmtest (vmtest/run) runs these tests in a QEMU guest whose init sets
 * BS_VMTEST to the accelerator, "kvm" or "tcg". There each test also prints
 * "PASS name (seconds)" so the host can report per test; otherwise RUN_TEST is
 * test.h's.
 */
static inline double ktest_now_(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void ktest_done_(double t0)
{
	if (getenv("BS_VMTEST") && !test_cur_failed_ && !test_cur_skipped_)
		fprintf(stderr, "PASS %s (%.1f s)\n", test_cur_name_, ktest_now_() - t0);
}

#undef RUN_TEST
#define RUN_TEST(fn)                                                                               \
	do {                                                                                       \
		double t0_ = ktest_now_();                                                         \
		test_begin_(#fn);                                                                  \
		fn();                                                                              \
		test_end_();                                                                       \
		ktest_done_(t0_);                                                                  \
	} while (0)

/*
 * Under TCG emulation every guest instruction, trap and context switch costs
 * tens of times what it costs on hardware, and the two vCPUs are host threads
 * that the host preempts. A test may relax a timing tolerance that cannot
 * hold there (never a functional check: loads, attaches, records arriving,
 * counts, the direction of the accounting), through ktest_relaxed(), which
 * says so on stderr.
 */
static inline int ktest_emulated(void)
{
	const char *v = getenv("BS_VMTEST");

	return v && !strcmp(v, "tcg");
}

/* True under emulation, after printing what is relaxed and why. */
static inline int ktest_relaxed(const char *what)
{
	if (!ktest_emulated())
		return 0;
	fprintf(stderr, "note: %s: %s: relaxed under TCG emulation (BS_VMTEST=tcg)\n",
		test_cur_name_, what);
	return 1;
}

/*
 * Why capability @id is lacking on this machine, by the probe `benchscope
 * doctor` and the subcommands use (caps.h), or NULL when it works. The
 * reason names what the probe found (e.g. "hardware watchpoints do not fire
 * on this machine: they open, but 0 of 1000 writes trapped (hypervisor:
 * PVM)"). vmtest runs the tests again where QEMU provides the capability.
 */
static inline const char *ktest_lacks(enum bs_cap_id id)
{
	static char why[512];
	struct bs_cap c;

	if (bs_cap_probe(id, &c) != BS_CAP_NO)
		return NULL;
	snprintf(why, sizeof(why), "%s: %s (benchscope doctor's probe)", bs_cap_info(id)->lacking,
		 c.figure);
	return why;
}

/*
 * Why BPF tests cannot run here, or NULL when they can: what every
 * subcommand that loads BPF needs (BTF, CAP_BPF, CAP_PERFMON, no lockdown),
 * by the same probes (caps.h bs_caps_bpf_tracing).
 */
static inline const char *ktest_unavailable(void)
{
	const char *why;

	for (size_t i = 0; i < 4; i++)
		if ((why = ktest_lacks(bs_caps_bpf_tracing[i])))
			return why;
	return NULL;
}

/*
 * Whether this machine can run BPF tracing by facts read apart from
 * benchscope's probes: root with the capabilities in effect (CAP_BPF and
 * CAP_PERFMON, or CAP_SYS_ADMIN: /proc/self/status CapEff), no seccomp
 * filter (a container's default one refuses bpf()), the kernel's BTF
 * readable, and no kernel lockdown (its securityfs file says "[none]", or
 * is absent with no lockdown= on the kernel command line). A skip for lack
 * of BPF on such a machine would hide an error of the probes, which then
 * fail the test instead.
 */
static inline bool ktest_bpf_plainly_there(void)
{
	unsigned long long cap = 0;
	int seccomp = -1;
	char buf[4096] = "";
	FILE *f;

	if (geteuid() != 0 || access("/sys/kernel/btf/vmlinux", R_OK))
		return false;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return false;
	while (fgets(buf, sizeof(buf), f)) {
		sscanf(buf, "CapEff: %llx", &cap);
		sscanf(buf, "Seccomp: %d", &seccomp);
	}
	fclose(f);
	if (seccomp != 0 || !((cap >> 21 & 1) || ((cap >> 38 & 1) && (cap >> 39 & 1))))
		return false;
	f = fopen("/sys/kernel/security/lockdown", "re");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
		return strstr(buf, "[none]") != NULL;
	}
	f = fopen("/proc/cmdline", "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strstr(buf, "lockdown=") == NULL;
}

/* Skip the current test unless BPF works (by benchscope's probes, checked
 * against ktest_bpf_plainly_there: a skip they would cause there fails). */
#define NEED_BPF()                                                                                 \
	do {                                                                                       \
		const char *why_ = ktest_unavailable();                                            \
		if (why_ && ktest_bpf_plainly_there()) {                                           \
			FAILF("benchscope's probes say: %s; yet this is root with the "            \
			      "capabilities, no seccomp, the kernel's BTF and no lockdown",        \
			      why_);                                                               \
			return;                                                                    \
		}                                                                                  \
		if (why_)                                                                          \
			SKIP("%s", why_);                                                          \
	} while (0)

/* Skip the current test unless BPF works and capability @id is there. */
#define NEED_CAP(id)                                                                               \
	do {                                                                                       \
		const char *lacks_;                                                                \
		NEED_BPF();                                                                        \
		lacks_ = ktest_lacks(id);                                                          \
		if (lacks_)                                                                        \
			SKIP("%s", lacks_);                                                        \
	} while (0)

static inline const char *ktest_build(void)
{
	const char *b = getenv("BS_BUILD");
	return b ? b : "build";
}

static inline int kcmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of v[0..n) (sorted in place); NaN when n is 0. */
static inline double kmedian(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), kcmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Path of a file in the build dir, in a static rotating buffer. */
static inline const char *kpath(const char *rel)
{
	static char bufs[8][4096];
	static int i;
	char *b = bufs[i++ % 8];

	snprintf(b, sizeof(bufs[0]), "%s/%s", ktest_build(), rel);
	return b;
}

/* A fresh temporary file name (not created). */
static inline const char *ktmp(const char *name)
{
	static char bufs[8][256];
	static int i;
	char *b = bufs[i++ % 8];

	snprintf(b, sizeof(bufs[0]), "/tmp/bs-ktest-%d-%s", (int)getpid(), name);
	unlink(b);
	return b;
}

struct kresult {
	int status;	 /* wait status of benchscope */
	int exit_code;	 /* WEXITSTATUS, or 128+signal */
	char out[65536]; /* stdout */
	char err[16384]; /* stderr */
};

static inline void slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : 0;

	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
	unlink(path);
}

/*
 * Run argv (NULL-terminated; argv[0] a path) with stdout/stderr captured.
 * kill_after_ms > 0: send `sig` to it that many ms after the file wait_path
 * exists (immediately if wait_path is NULL), or after 60 s at the latest.
 */
static inline int krun_sig(struct kresult *r, char *const argv[], int kill_after_ms, int sig,
			   const char *wait_path)
{
	const char *o = ktmp("stdout"), *e = ktmp("stderr");
	char op[256], ep[256];
	pid_t pid;

	snprintf(op, sizeof(op), "%s", o);
	snprintf(ep, sizeof(ep), "%s", e);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fo = open(op, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fe = open(ep, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fo, 1);
		dup2(fe, 2);
		execv(argv[0], argv);
		_exit(126);
	}
	if (kill_after_ms > 0) {
		for (int w = 0; wait_path && access(wait_path, F_OK) && w < 6000; w++)
			usleep(10000);
		usleep((useconds_t)kill_after_ms * 1000);
		kill(pid, sig);
	}
	waitpid(pid, &r->status, 0);
	r->exit_code = WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 128 + WTERMSIG(r->status);
	slurp(op, r->out, sizeof(r->out));
	slurp(ep, r->err, sizeof(r->err));
	return 0;
}

static inline int krun(struct kresult *r, char *const argv[])
{
	return krun_sig(r, argv, 0, 0, NULL);
}

/* Load a trace or fail the test; returns NULL on failure. */
/* Every record flagged unseen_switch (the scheduler handler missed a
 * switch of its thread) is printed, and the END's lost.switches_unseen
 * must cover them: a flag without its count is a lost number. */
static inline void kcheck_unseen_switches(const struct bs_dataset *ds, const char *trace)
{
	const struct bs_run_end *e = &ds->run_end;
	uint64_t counted = 0;
	size_t n = 0;

	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];

		if (!(it->flags & BS_ITER_F_UNSEEN_SWITCH))
			continue;
		n++;
		fprintf(stderr,
			"    NOTE %s: iteration %llu of tid %u flagged unseen_switch: nvcsw %llu, "
			"nivcsw %llu, blocked %llu ns, preempted %llu ns, duration %llu ns\n",
			trace, (unsigned long long)it->index, it->tid,
			(unsigned long long)it->nvcsw, (unsigned long long)it->nivcsw,
			(unsigned long long)it->blocked_ns, (unsigned long long)it->preempted_ns,
			(unsigned long long)(it->end_ns - it->begin_ns));
	}
	if (!n || !e->present)
		return;
	for (size_t i = 0; i < e->n_lost; i++)
		if (!strcmp(e->lost[i].name, "switches_unseen"))
			counted = (uint64_t)e->lost[i].value;
	CHECK(counted >= n);
}

/* For a failed kcheck_charges: per process, the time charged for its waits
 * and the run-queue wait of its iterations, and the largest charges. */
static inline void kprint_charges(const struct bs_dataset *ds)
{
	uint32_t pids[8] = {0};
	size_t top[5] = {0}, n_top = 0;

	for (size_t i = 0; i < ds->n_iters; i++)
		for (size_t k = 0; k < 8; k++)
			if (pids[k] == ds->iters[i].pid || !pids[k]) {
				pids[k] = ds->iters[i].pid;
				break;
			}
	for (size_t k = 0; k < 8 && pids[k]; k++) {
		double c = 0, w = 0;

		for (size_t i = 0; i < ds->n_interferers; i++)
			if (ds->interferers[i].victim_pid == pids[k])
				c += (double)ds->interferers[i].ns;
		for (size_t i = 0; i < ds->n_iters; i++)
			if (ds->iters[i].pid == pids[k])
				w += (double)ds->iters[i].runq_wait_ns;
		fprintf(stderr, "    pid %u: charged %.3f ms, wait %.3f ms\n", pids[k], c / 1e6,
			w / 1e6);
	}
	for (size_t i = 0; i < ds->n_interferers; i++) {
		size_t j;

		if (n_top < 5)
			j = n_top++;
		else if (ds->interferers[i].ns > ds->interferers[top[4]].ns)
			j = 4;
		else
			continue;
		for (; j > 0 && ds->interferers[top[j - 1]].ns < ds->interferers[i].ns; j--)
			top[j] = top[j - 1];
		top[j] = i;
	}
	for (size_t j = 0; j < n_top; j++) {
		const struct bs_interferer_rec *r = &ds->interferers[top[j]];

		fprintf(stderr, "    %.16s tid %u pid %u charged %.3f ms to pid %u\n", r->comm,
			r->interferer_tid, r->interferer_pid, (double)r->ns / 1e6, r->victim_pid);
	}
}

/*
 * The CPU time charged to interferers in @ds is the time others ran while
 * a thread waited in an iteration that has a record (the barrier's wait
 * and iterations without a record, such as Go's parent B, left out): at most the run-queue wait
 * summed over every iteration record (the same intervals, read at the same switches; a CPU's one
 * waiter slot can only miss some). Prints both, as @what.
 */
static inline void kcheck_charges(const struct bs_dataset *ds, const char *what)
{
	double charged = 0, wait = 0;
	bool over;

	for (size_t i = 0; i < ds->n_interferers; i++)
		charged += (double)ds->interferers[i].ns;
	for (size_t i = 0; i < ds->n_iters; i++)
		wait += (double)ds->iters[i].runq_wait_ns;
	fprintf(stderr, "    %s: charged %.3f ms, run-queue wait of every iteration %.3f ms\n",
		what, charged / 1e6, wait / 1e6);
	/* The CPU that charges reads its waiter slot before its clock, and the
	 * waiter's own CPU may clear the slot in between (it came on there): a
	 * charge can run past the wait by up to one program run (natively 10.03
	 * ms charged for 9.76 ms once; TCG 6.1: 263.5 for 254.0). Charging the
	 * barrier's or Go parents' waits gave 1.5-2.7x. */
	over = charged > 1.1 * wait + 1e6;
	if (over)
		kprint_charges(ds);
	/* Under TCG an interleaved Go A/A duet once charged one process of six
	 * 62.1 ms for 33.6 ms of wait, its own runtime thread the interferer:
	 * the wait of Main, Go's parent B, before its first child began, which
	 * was charged until charges came with their iteration's index */
	CHECK(!over);
}

static inline struct bs_dataset *kload(const char *trace)
{
	struct bs_dataset *ds = NULL;
	char err[512];

	if (bs_dataset_load(trace, &ds, err, sizeof(err))) {
		FAILF("cannot load %s: %s", trace, err);
		return NULL;
	}
	kcheck_unseen_switches(ds, trace);
	return ds;
}

/* Start progs/competitor (CPU-bound for up to `secs` seconds) pinned to CPU
 * `cpu`; its pid (-1: fork failed). End it with kreap. */
static inline pid_t kcompetitor(int cpu, const char *secs)
{
	pid_t pid = fork();

	if (pid == 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		execl(kpath("progs/competitor"), "competitor", secs, (char *)NULL);
		_exit(126);
	}
	return pid;
}

/* Kill and reap child `pid` (nothing when pid <= 0). */
static inline void kreap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Run benchscope (argv) expecting exit 0, and read back its trace;
 * NULL after a failed check. */
static inline struct bs_dataset *krun_ok(struct kresult *r, char *const argv[], const char *trace)
{
	krun(r, argv);
	CHECK_INT_EQ(r->exit_code, 0);
	if (r->exit_code)
		fprintf(stderr, "%s", r->err);
	return kload(trace);
}

/* Parse the JSON file @path, then remove it; NULL after a failed check. */
static inline json_object *kload_json(const char *path)
{
	json_object *o = json_object_from_file(path);

	if (!o)
		FAILF("cannot parse %s", path);
	unlink(path);
	return o;
}

/* Run benchscope (argv) expecting exit 0, and parse the JSON file it wrote
 * to @json (then removed); NULL after a failed check. */
static inline json_object *krun_json(struct kresult *r, char *const argv[], const char *json)
{
	krun(r, argv);
	CHECK_INT_EQ(r->exit_code, 0);
	if (r->exit_code)
		fprintf(stderr, "%s", r->err);
	return kload_json(json);
}

/* The duet model (duet/data.h) of a duet trace, which must hold @n_benches
 * benchmarks (0: any number); NULL after a failed check. Free it with
 * bs_duet_data_free. */
static inline struct bs_duet_data *kduet_model(const struct bs_dataset *ds, size_t n_benches)
{
	struct bs_duet_data *d = NULL;
	char err[512];

	if (bs_duet_data_build(ds, &d, err, sizeof(err))) {
		FAILF("duet data: %s", err);
		return NULL;
	}
	if (n_benches && d->n_benches != n_benches) {
		FAILF("%zu benchmarks, expected %zu", d->n_benches, n_benches);
		bs_duet_data_free(d);
		return NULL;
	}
	return d;
}

/*
 * Run benchscope (argv) expecting a usage error: exit status 2, @want on
 * stderr, which is exactly one line (its only '\n' at its end). A failed
 * check is reported with stderr.
 */
static inline void kexpect_usage(char *const argv[], const char *want)
{
	struct kresult r;
	const char *nl;

	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 2);
	nl = strchr(r.err, '\n');
	if (!nl || nl[1])
		FAILF("stderr is not one line: '%s'", r.err);
	if (!strstr(r.err, want))
		FAILF("stderr lacks '%s': %s", want, r.err);
}

/*
 * The events of a trace (ds->events) of kind @kind ("fork", "duet_run"),
 * in trace order: the first @max of them into out[] (out may be NULL when
 * max is 0). Returns how many there are in all, which may exceed @max.
 */
static inline size_t kevents(const struct bs_dataset *ds, const char *kind, json_object **out,
			     size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < json_object_array_length(ds->events); i++) {
		json_object *ev = json_object_array_get_idx(ds->events, i);

		if (!strcmp(json_object_get_string(bs_json_get(ev, "kind")) ?: "", kind)) {
			if (n < max)
				out[n] = ev;
			n++;
		}
	}
	return n;
}

/* The event of kind @kind number @nth (from 0) in trace order, or NULL. */
static inline json_object *knth_event(const struct bs_dataset *ds, const char *kind, size_t nth)
{
	for (size_t i = 0; i < json_object_array_length(ds->events); i++) {
		json_object *ev = json_object_array_get_idx(ds->events, i);

		if (!strcmp(json_object_get_string(bs_json_get(ev, "kind")) ?: "", kind) &&
		    nth-- == 0)
			return ev;
	}
	return NULL;
}

/* One result line of a Go benchmark binary, "BenchmarkX-4  1000  1234 ns/op". */
struct kgoline {
	char name[128]; /* without the -GOMAXPROCS suffix (testing.B's b.name) */
	long long n;	/* b.N */
	double ns_op;
};

/*
 * kparse_go - the result lines ("Benchmark... N T ns/op") of a Go
 * benchmark binary's output @out, in order, into g[0..max). Returns how
 * many were read (at most @max).
 */
static inline size_t kparse_go(const char *out, struct kgoline *g, size_t max)
{
	size_t k = 0;

	for (const char *p = out; p && *p && k < max; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char unit[16] = "";
		char *dash;

		if (strncmp(p, "Benchmark", 9) ||
		    sscanf(p, "%127s %lld %lf %15s", g[k].name, &g[k].n, &g[k].ns_op, unit) != 4 ||
		    strcmp(unit, "ns/op"))
			continue;
		/* Go appends -GOMAXPROCS when it is not 1 (testing.benchmarkName) */
		dash = strrchr(g[k].name, '-');
		if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1))
			*dash = 0;
		k++;
	}
	return k;
}

/*
 * kgb_repetition - element @b of the "benchmarks" array of Google
 * Benchmark's JSON output (--benchmark_out_format=json), when it is one
 * repetition (run_type "iteration"; false for an aggregate such as the
 * mean): *iters its iteration count, *real_ns its real_time in ns (its
 * time_unit applied: ns, us, ms or s), *run_name its run_name ("" when
 * absent; the text belongs to @b). Any of them may be NULL.
 */
static inline bool kgb_repetition(json_object *b, int64_t *iters, double *real_ns,
				  const char **run_name)
{
	const char *unit = bs_json_str(b, "time_unit", "ns");
	double scale = !strcmp(unit, "us")   ? 1e3
		       : !strcmp(unit, "ms") ? 1e6
		       : !strcmp(unit, "s")  ? 1e9
					     : 1;

	if (strcmp(bs_json_str(b, "run_type", ""), "iteration"))
		return false;
	if (iters)
		*iters = json_object_get_int64(bs_json_get(b, "iterations"));
	if (real_ns)
		*real_ns = json_object_get_double(bs_json_get(b, "real_time")) * scale;
	if (run_name)
		*run_name = bs_json_str(b, "run_name", "");
	return true;
}

static inline double dur_ns(const struct bs_iter_rec *r)
{
	return (double)(r->end_ns - r->begin_ns);
}

/* END's lost counter @name of @ds (0 when absent). */
static inline int64_t klost_count(const struct bs_dataset *ds, const char *name)
{
	for (size_t i = 0; i < ds->run_end.n_lost; i++)
		if (!strcmp(ds->run_end.lost[i].name, name))
			return ds->run_end.lost[i].value;
	return 0;
}

/* What a run recorded, for the reader of a failure about it (@label names
 * the run): its lost counters, warnings, benchmark names (BENCH records)
 * and iterations, each with the name it is given. */
static inline void kdump_run(const char *label, const struct bs_dataset *ds)
{
	char lost[512];

	fprintf(stderr, "    %s: %zu iterations, %zu benchmark names; END lost: %s\n", label,
		ds->n_iters, ds->n_benches, bs_run_end_lost_list(&ds->run_end, lost, sizeof(lost)));
	for (size_t i = 0; i < ds->run_end.n_warnings; i++)
		fprintf(stderr, "    warning: %s\n", ds->run_end.warnings[i]);
	for (size_t i = 0; i < ds->n_benches; i++)
		fprintf(stderr, "    name %zu: pid %u, tid %u, at %llu ns: '%s'\n", i,
			ds->benches[i].pid, ds->benches[i].tid,
			(unsigned long long)ds->benches[i].ts_ns, ds->benches[i].name);
	for (size_t i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *r = &ds->iters[i];
		const char *name = bs_dataset_bench_name(ds, r->pid, r->begin_ns);

		fprintf(
		    stderr,
		    "    iteration %zu: pid %u, tid %u, %llu invocations, begin %llu ns, %.0f ns, "
		    "flags 0x%x, '%s'\n",
		    i, r->pid, r->tid, (unsigned long long)r->invocations,
		    (unsigned long long)r->begin_ns, dur_ns(r), r->flags, name ? name : "");
	}
}

/*
 * Whether iteration @r's disagreement with the time it should take (the
 * harness's own time, or one known by construction), @diff_ns (either sign),
 * beyond the tolerance @tol_ns, is no more than the time the iteration's
 * record shows its thread disturbed (run-queue wait, blocked, IRQ, softirq,
 * steal): a thread preempted between our timestamp and the harness's own (or
 * inside a spin of known length) is the one way the two can differ by more,
 * and that preemption is in the record. The record holds the iteration's
 * whole disturbed time, inside the harness's own window too, so this bounds
 * an error of the probes by that time: one larger is not excused. One run,
 * no retry; the caller caps how many may be excused.
 */
static inline bool kexcused(const struct bs_iter_rec *r, double diff_ns, double tol_ns)
{
	double disturbed =
	    (double)(r->runq_wait_ns + r->blocked_ns + r->irq_ns + r->softirq_ns + r->steal_ns);

	return fabs(diff_ns) - tol_ns <= disturbed;
}

#endif
