// SPDX-License-Identifier: MIT
/*
 * test_noise.c - `benchscope noise` on this machine with a busy-loop
 * competitor pinned to the last CPU: the report names that CPU and the
 * competitor's comm among the other tasks that ran there, and not on the
 * others; where BPF works, from the kernel's accounting of the loops (the
 * competitor ran while the loop on its CPU waited, and that loop was
 * preempted for a good part of its time); the JSON is complete and the
 * text ends with a recommendation.
 */
#include "test.h"

#include <json-c/json.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktest.h"

#define BENCHSCOPE kpath("benchscope")

static void test_names_the_competitor(void)
{
	const char *json = ktmp("noise.json");
	char *argv[] = {(char *)BENCHSCOPE, "noise",	  "--duration", "3",
			"--json",	    (char *)json, NULL};
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int last = (int)ncpu - 1, found_on = -1, found_elsewhere = 0;
	const char *no_bpf = ktest_unavailable();
	struct kresult r;
	json_object *o, *cpus, *acct = NULL;
	pid_t comp;

	if (ncpu < 2)
		SKIP("needs 2 CPUs (this machine has %ld)", ncpu);
	comp = kcompetitor(last, "30");
	usleep(200000);
	krun(&r, argv);
	kreap(comp);
	CHECK_INT_EQ(r.exit_code, 0);
	CHECK(strstr(r.out, "recommendation: ") != NULL);
	o = kload_json(json);
	if (!o)
		return;
	CHECK(json_object_object_get_ex(o, "cpus", &cpus) &&
	      (long)json_object_array_length(cpus) == ncpu);
	/* the loops are accounted by BPF exactly where BPF works */
	json_object_object_get_ex(o, "accounting", &acct);
	CHECK(acct && !strcmp(json_object_get_string(acct), no_bpf ? "proc" : "bpf"));
	if (no_bpf)
		SKIP_JUDGEMENT(
		    "no BPF here (%s): other tasks from /proc, the loops' BPF accounting "
		    "not checked",
		    no_bpf);
	else
		CHECK(strstr(r.out, "ran while the loop waited") != NULL);
	for (size_t i = 0; cpus && i < json_object_array_length(cpus); i++) {
		json_object *c = json_object_array_get_idx(cpus, i), *tasks, *cpu;

		json_object_object_get_ex(c, "cpu", &cpu);
		json_object_object_get_ex(c, "other_tasks", &tasks);
		/* the loop on the competitor's CPU waited for it in the run queue
		 * (the kernel's run_delay; the two share the CPU about evenly) */
		if (json_object_get_int(cpu) == last && access("/proc/thread-self/schedstat", R_OK))
			SKIP_JUDGEMENT("no /proc/thread-self/schedstat: the loop's run-queue wait "
				       "not checked");
		else if (json_object_get_int(cpu) == last) {
			json_object *busy = NULL, *rq = NULL;

			json_object_object_get_ex(c, "busy", &busy);
			json_object_object_get_ex(busy, "runq_pct", &rq);
			fprintf(stderr, "    loop's run-queue wait on CPU %d: %.1f %%\n", last,
				json_object_get_double(rq));
			CHECK(rq && json_object_get_double(rq) >= 20);
		}
		if (json_object_get_int(cpu) == last && !no_bpf) {
			json_object *busy = NULL, *loop = NULL, *pre = NULL;

			json_object_object_get_ex(c, "busy", &busy);
			json_object_object_get_ex(busy, "loop", &loop);
			json_object_object_get_ex(loop, "preempted_pct", &pre);
			fprintf(stderr, "    loop preempted on CPU %d (BPF): %.1f %%\n", last,
				json_object_get_double(pre));
			CHECK(pre && json_object_get_double(pre) >= 20);
		}
		for (size_t k = 0; tasks && k < json_object_array_length(tasks); k++) {
			json_object *t = json_object_array_get_idx(tasks, k), *comm, *pct;

			json_object_object_get_ex(t, "comm", &comm);
			json_object_object_get_ex(t, "pct", &pct);
			if (strcmp(json_object_get_string(comm), "competitor"))
				continue;
			if (json_object_get_int(cpu) == last) {
				found_on = last;
				fprintf(stderr,
					"    competitor on CPU %d: %.1f %% of the busy phase\n",
					last, json_object_get_double(pct));
				CHECK(json_object_get_double(pct) >= 20);
			} else {
				found_elsewhere++;
			}
		}
	}
	CHECK_INT_EQ(found_on, last);
	CHECK_INT_EQ(found_elsewhere, 0);
	json_object_put(o);
	unlink(json);
}

static void test_bad_usage(void)
{
	char *bad_cpus[] = {(char *)BENCHSCOPE, "noise", "--cpus", "x", NULL};
	char *bad_dur[] = {(char *)BENCHSCOPE, "noise", "--duration", "0", NULL};
	char *no_cpu[] = {(char *)BENCHSCOPE, "noise", "--cpus", "1000", NULL};
	struct kresult r;

	krun(&r, bad_cpus);
	CHECK_INT_EQ(r.exit_code, 2);
	krun(&r, bad_dur);
	CHECK_INT_EQ(r.exit_code, 2);
	krun(&r, no_cpu);
	CHECK_INT_EQ(r.exit_code, 2);
	CHECK(strstr(r.err, "no CPU to check") != NULL);
}

int main(void)
{
	RUN_TEST(test_bad_usage);
	RUN_TEST(test_names_the_competitor);
	return test_summary("noise");
}
