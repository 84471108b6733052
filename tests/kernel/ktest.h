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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "duet/data.h"
#include "probe/caps.h"
#include "trace/dataset.h"
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

#define NEED_BPF()                                                                                 \
	do {                                                                                       \
		const char *why_ = ktest_unavailable();                                            \
		if (why_)                                                                          \
			SKIP("%s", why_);                                                          \
	} while (0)

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

/* Skip the current test unless BPF works and capability @id is there. */
#define NEED_CAP(id)                                                                               \
	do {                                                                                       \
		const char *why_ = ktest_unavailable();                                            \
		if (!why_)                                                                         \
			why_ = ktest_lacks(id);                                                    \
		if (why_)                                                                          \
			SKIP("%s", why_);                                                          \
	} while (0)

static inline const char *ktest_build(void)
{
	const char *b = getenv("BS_BUILD");
	return b ? b : "build";
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
static inline struct bs_dataset *kload(const char *trace)
{
	struct bs_dataset *ds = NULL;
	char err[512];

	if (bs_dataset_load(trace, &ds, err, sizeof(err))) {
		FAILF("cannot load %s: %s", trace, err);
		return NULL;
	}
	return ds;
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

static inline double dur_ns(const struct bs_iter_rec *r)
{
	return (double)(r->end_ns - r->begin_ns);
}

#endif
