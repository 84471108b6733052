// SPDX-License-Identifier: MIT
/*
 * test_run_more - USDT boundaries, --user, --begin/--end on two functions,
 * and the report reproduced from the trace alone.
 */
#include <pwd.h>

#include "ktest.h"

/*
 * Run usdt_loop (@count iterations busy-spinning 500 us of wall time each)
 * with -q, from its USDT probe @begin to @end (iter_begin, iter_end), into
 * @trace: the dataset, or NULL (a failure, counted).
 */
static struct bs_dataset *run_usdt_loop(struct kresult *r, const char *trace, const char *begin,
					const char *end, const char *count)
{
	char b[4200], e[4200];
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--begin",
			b,
			"--end",
			e,
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/usdt_loop"),
			(char *)count,
			"500",
			NULL};

	snprintf(b, sizeof(b), "usdt:%s:benchscope_test:%s", kpath("progs/usdt_loop"), begin);
	snprintf(e, sizeof(e), "usdt:%s:benchscope_test:%s", kpath("progs/usdt_loop"), end);
	return krun_ok(r, argv, trace);
}

/* USDT: 100 iterations busy-spinning 500 us of wall time each. */
static void test_usdt_boundaries(void)
{
	const char *trace = ktmp("usdt.trace");
	struct kresult r;
	struct bs_dataset *ds;
	size_t i, n_ok = 0;

	NEED_BPF();
	ds = run_usdt_loop(&r, trace, "iter_begin", "iter_end", "100");
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 100);
	for (i = 0; i < ds->n_iters; i++) {
		double d = dur_ns(&ds->iters[i]);

		CHECK(d >= 500e3); /* the spin lasts 500 us of wall time, probes outside it */
		if (kexcused(&ds->iters[i], d - 500e3, 100e3))
			n_ok++;
	}
	/* a USDT probe costs about a microsecond here: almost every iteration
	 * is within 100 us of 500 us, beyond the time its record shows it
	 * preempted (a loaded machine stretches many; the host, unseen, a few).
	 * Under TCG the host deschedules the vCPU threads unseen by the guest. */
	if (!ktest_relaxed("iterations within 100 us of 500 us: no bound")) {
		CHECK(n_ok >= 95);
		if (n_ok < 95)
			fprintf(stderr, "    %zu of 100 within 100 us\n", n_ok);
	} else
		fprintf(stderr, "note: %zu of 100 within 100 us\n", n_ok);
	bs_dataset_free(ds);
	unlink(trace);
}

/* The END's warnings go to stderr, once each, also with -q (no table, which
 * shows them too). Begin and end the wrong way round: the first end probe
 * hits with no iteration open. */
static void test_warnings_on_stderr(void)
{
	const char *trace = ktmp("quiet.trace");
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	ds = run_usdt_loop(&r, trace, "iter_end", "iter_begin", "10");
	if (!ds)
		return;
	CHECK(ds->n_iters > 0);
	{
		const char *w =
		    strstr(r.err, "benchscope run: warning: 1 end probes hit without an "
				  "open iteration");

		CHECK(w != NULL);
		CHECK(w && !strstr(w + 40, "end probes hit without")); /* once */
	}
	CHECK(r.out[0] == 0); /* no table */
	bs_dataset_free(ds);
	unlink(trace);
}

/* A misspelled USDT probe names the right one. */
static void test_usdt_missing_names_closest(void)
{
	char b[4200], e[4200];
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--begin",
			b,
			"--end",
			e,
			"-o",
			(char *)ktmp("x.trace"),
			"--",
			(char *)kpath("progs/usdt_loop"),
			"1",
			"1",
			NULL};
	struct kresult r;

	snprintf(b, sizeof(b), "usdt:%s:benchscope_test:iter_begn", kpath("progs/usdt_loop"));
	snprintf(e, sizeof(e), "usdt:%s:benchscope_test:iter_end", kpath("progs/usdt_loop"));
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "iter_begin") != NULL);
}

/* --user: the harness runs without privileges, the tool keeps them. */
static void test_user(void)
{
	const char *trace = ktmp("user.trace"), *idfile = ktmp("uid");
	char script[600];
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--user",
			"nobody",
			"--preset",
			"process",
			"-o",
			(char *)trace,
			"--",
			"/bin/sh",
			"-c",
			script,
			NULL};
	struct passwd *pw = getpwnam("nobody");
	struct kresult r;
	struct bs_dataset *ds;
	char got[64] = "";
	FILE *f;

	NEED_BPF();
	if (!pw)
		SKIP("no user 'nobody' on this machine");
	snprintf(script, sizeof(script), "/usr/bin/id -u > %s", idfile);
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 0);
	f = fopen(idfile, "r");
	CHECK(f != NULL);
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = 0;
		fclose(f);
	}
	CHECK_INT_EQ(atol(got), pw->pw_uid);
	ds = kload(trace); /* written by the tool, still privileged */
	if (ds) {
		CHECK_INT_EQ(ds->n_iters, 1); /* the id process */
		bs_dataset_free(ds);
	}
	unlink(idfile);
	unlink(trace);
	{
		char *bad[] = {(char *)kpath("benchscope"),
			       "run",
			       "-q",
			       "--user",
			       "no-such-user-x",
			       "--preset",
			       "process",
			       "--",
			       "/bin/true",
			       NULL};
		krun(&r, bad);
		CHECK_INT_EQ(r.exit_code, 2);
		CHECK(strstr(r.err, "no-such-user-x") != NULL);
	}
}

/* --begin/--end on two functions (entry of bs_iteration to entry of itself
 * again would nest; the harness's main loop has one probed function, so use
 * the entry of bs_iteration as begin and the entry of nanosleep in libc as end:
 * the iteration is the CPU work only). */
static void test_begin_end_two_functions(void)
{
	const char *trace = ktmp("be.trace");
	char b[4200], e[64] = "libc:nanosleep";
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--begin",
			b,
			"--end",
			e,
			"-o",
			(char *)trace,
			"--",
			(char *)kpath("progs/iter_loop"),
			"10",
			"1000",
			"3000",
			NULL};
	struct kresult r;
	struct bs_dataset *ds;
	size_t i;
	int relaxed;

	NEED_BPF();
	snprintf(b, sizeof(b), "%s:bs_iteration", kpath("progs/iter_loop"));
	ds = krun_ok(&r, argv, trace);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_iters, 10);
	/* under TCG, host preemption stretches the 1 ms unseen */
	relaxed = ktest_relaxed("duration less the time others took < 3.5 ms");
	for (i = 0; i < ds->n_iters; i++) {
		const struct bs_iter_rec *it = &ds->iters[i];
		double lost =
		    (double)(it->runq_wait_ns + it->irq_ns + it->softirq_ns + it->steal_ns);

		/* 1 ms of CPU, and not the 3 ms sleep that follows: that would
		 * be a voluntary switch, blocked time and 4 ms or more. Less
		 * the time others took the CPU (a native run once took over
		 * 2.5 ms in all on a shared VM), not even a vCPU the host
		 * slows 2x unseen gets there. */
		CHECK(dur_ns(it) >= 1000e3);
		CHECK_INT_EQ(it->nvcsw, 0);
		CHECK_INT_EQ(it->blocked_ns, 0);
		if (!relaxed)
			CHECK(dur_ns(it) - lost < 3500e3);
	}
	bs_dataset_free(ds);
	unlink(trace);
}

/* `report` on the trace prints exactly what `run` printed. */
static void test_report_reproduces_run(void)
{
	const char *trace = ktmp("rep.trace");
	char sym[4200];
	char *argv[] = {
	    (char *)kpath("benchscope"),      "run", "--iter", sym, "-o", (char *)trace, "--",
	    (char *)kpath("progs/iter_loop"), "20",  "300",    NULL};
	char *rep[] = {(char *)kpath("benchscope"), "report", (char *)trace, NULL};
	static struct kresult r1, r2;
	const char *o1, *o2;

	NEED_BPF();
	snprintf(sym, sizeof(sym), "%s:bs_iteration", kpath("progs/iter_loop"));
	krun(&r1, argv);
	CHECK_INT_EQ(r1.exit_code, 0);
	krun(&r2, rep);
	CHECK_INT_EQ(r2.exit_code, 0);
	/* the harness prints nothing; the report starts at "benchscope:" */
	o1 = strstr(r1.out, "benchscope:");
	o2 = strstr(r2.out, "benchscope:");
	CHECK(o1 && o2);
	if (o1 && o2)
		CHECK(!strcmp(o1, o2));
	unlink(trace);
}

/* Without privileges: refused (6) in one line that names what is missing. */
static void test_unprivileged(void)
{
	char *argv[] = {"/usr/bin/setpriv",
			"--reuid=65534",
			"--regid=65534",
			"--clear-groups",
			"--inh-caps=-all",
			(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"process",
			"-o",
			"/tmp/bs-ktest-unpriv.trace",
			"--",
			"/bin/true",
			NULL};
	struct kresult r;

	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK))
		SKIP("needs root and setpriv (util-linux) to drop privileges");
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 6);
	CHECK(strstr(r.err, "CAP_BPF") != NULL);
	CHECK(strstr(r.err, "CAP_PERFMON") != NULL);
	CHECK(strchr(r.err, '\n') == r.err + strlen(r.err) - 1);
}

/*
 * With CAP_BPF and CAP_PERFMON alone (root's other capabilities dropped):
 * the process preset, which needs no uprobe, measures (each child of the
 * command an iteration); a uprobe boundary
 * either measures too, where the kernel takes CAP_PERFMON for uprobes, or
 * is refused before anything runs (6, one line naming CAP_SYS_ADMIN) where
 * it wants CAP_SYS_ADMIN (kernels since mid-2025), never a failed attach
 * (exit 1) half-way.
 */
static void test_bpf_and_perfmon_only(void)
{
	const char *trace = ktmp("caps.trace");
	char sym[4200], script[4400];
	char *process[] = {"/usr/bin/setpriv",
			   "--inh-caps=-all,+bpf,+perfmon",
			   "--bounding-set=-all,+bpf,+perfmon",
			   (char *)kpath("benchscope"),
			   "run",
			   "-q",
			   "--preset",
			   "process",
			   "-o",
			   (char *)trace,
			   "--",
			   "/bin/sh",
			   "-c",
			   script,
			   NULL};
	char *uprobe[] = {"/usr/bin/setpriv",
			  "--inh-caps=-all,+bpf,+perfmon",
			  "--bounding-set=-all,+bpf,+perfmon",
			  (char *)kpath("benchscope"),
			  "run",
			  "-q",
			  "--iter",
			  sym,
			  "-o",
			  (char *)trace,
			  "--",
			  (char *)kpath("progs/iter_loop"),
			  "5",
			  "1000",
			  NULL};
	struct bs_dataset *ds;
	struct kresult r;

	if (geteuid() != 0 || access("/usr/bin/setpriv", X_OK))
		SKIP("needs root and setpriv (util-linux) to drop privileges");
	snprintf(sym, sizeof(sym), "%s:bs_iteration", kpath("progs/iter_loop"));
	snprintf(script, sizeof(script), "for i in 1 2 3; do %s 1 1000; done",
		 kpath("progs/iter_loop"));
	krun(&r, process);
	CHECK_INT_EQ(r.exit_code, 0);
	ds = r.exit_code ? NULL : kload(trace);
	CHECK(ds && ds->n_iters == 3);
	bs_dataset_free(ds);
	unlink(trace);
	krun(&r, uprobe);
	if (r.exit_code == 6) {
		CHECK(strstr(r.err, "CAP_SYS_ADMIN") != NULL);
		CHECK(strchr(r.err, '\n') == r.err + strlen(r.err) - 1);
		fprintf(stderr, "    uprobes refused without CAP_SYS_ADMIN: %s", r.err);
	} else {
		CHECK_INT_EQ(r.exit_code, 0);
		ds = r.exit_code ? NULL : kload(trace);
		CHECK(ds && ds->n_iters == 5);
		bs_dataset_free(ds);
		fprintf(stderr, "    uprobes taken with CAP_PERFMON on this kernel\n");
	}
	unlink(trace);
}

/* The harness dies by a signal: reported, iterations kept, exit 4. */
static void test_harness_killed_by_signal(void)
{
	const char *trace = ktmp("sig.trace");
	char script[4400];
	char *argv[] = {(char *)kpath("benchscope"),
			"run",
			"-q",
			"--preset",
			"process",
			"-o",
			(char *)trace,
			"--",
			"/bin/sh",
			"-c",
			script,
			NULL};
	struct kresult r;
	struct bs_dataset *ds;

	NEED_BPF();
	snprintf(script, sizeof(script), "%s 1 1000; %s 1 1000; kill -SEGV $$",
		 kpath("progs/iter_loop"), kpath("progs/iter_loop"));
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 4);
	CHECK(strstr(r.err, "signal 11") != NULL);
	ds = kload(trace);
	if (ds) {
		CHECK_INT_EQ(ds->n_iters, 2);
		bs_dataset_free(ds);
	}
	unlink(trace);
}

/* The disk fills up part-way (a 32 KiB file-size limit stands in for it):
 * one line says how many of the iterations received the trace holds, that
 * many are read back, and the exit status is 1. */
static void test_trace_disk_full(void)
{
	const char *trace = ktmp("full.trace");
	char script[13000], n_text[64];
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct bs_dataset *ds;
	struct kresult r;
	const char *line;

	NEED_BPF();
	snprintf(script, sizeof(script),
		 "trap '' XFSZ; ulimit -f 32; exec %s run -q --begin "
		 "usdt:%s:benchscope_test:iter_begin --end usdt:%s:benchscope_test:iter_end "
		 "-o %s -- %s 5000 0",
		 kpath("benchscope"), kpath("progs/usdt_loop"), kpath("progs/usdt_loop"), trace,
		 kpath("progs/usdt_loop"));
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 1);
	line = strstr(r.err, "could not be written in full (File too large): it holds ");
	CHECK(line != NULL);
	ds = kload(trace);
	if (!ds || !line)
		goto out;
	CHECK(ds->truncated);
	CHECK(ds->n_iters > 0 && ds->n_iters < 5000);
	snprintf(n_text, sizeof(n_text), "it holds %zu of the 5000 iterations received",
		 ds->n_iters);
	CHECK(strstr(r.err, n_text) != NULL);
	if (!strstr(r.err, n_text))
		fprintf(stderr, "    stderr: %s", r.err);
out:
	bs_dataset_free(ds);
	unlink(trace);
}

int main(void)
{
	RUN_TEST(test_trace_disk_full);
	RUN_TEST(test_warnings_on_stderr);
	RUN_TEST(test_unprivileged);
	RUN_TEST(test_bpf_and_perfmon_only);
	RUN_TEST(test_harness_killed_by_signal);
	RUN_TEST(test_usdt_boundaries);
	RUN_TEST(test_usdt_missing_names_closest);
	RUN_TEST(test_user);
	RUN_TEST(test_begin_end_two_functions);
	RUN_TEST(test_report_reproduces_run);
	return test_summary("kernel-run-more");
}
