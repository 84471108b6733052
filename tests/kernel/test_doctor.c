// SPDX-License-Identifier: MIT
/*
 * test_doctor - `benchscope doctor` against checks of its own, written here
 * independently of benchscope's probes (caps.c): a hardware watchpoint
 * opened directly on a variable and written 1000 times, the kernel's
 * configuration file, sysfs and /proc; and the one exit-status table that
 * every subcommand's --help prints (exit_status.h).
 */
#include <json-c/json.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "util/exit_status.h"
#include "ktest.h"

#define BENCHSCOPE kpath("benchscope")

static volatile long target;

/* Writes of 1000 trapped by a watchpoint opened as perf(1) would (not as waste does). */
static long long independent_watchpoint_count(void)
{
	struct perf_event_attr a;
	long long c = -1;
	int fd, i;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (unsigned long)&target;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	for (i = 0; i < 1000; i++)
		target = i;
	if (read(fd, &c, sizeof(c)) != sizeof(c))
		c = -1;
	close(fd);
	return c;
}

/* The kernel's CONFIG_@name as 'y', 'n' (unset) or 0 (no config file readable). */
static char kconfig(const char *name)
{
	char path[300], line[512], want[128];
	struct utsname u;
	gzFile g;
	char found = 'n';

	snprintf(want, sizeof(want), "CONFIG_%s=", name);
	g = gzopen("/proc/config.gz", "rb");
	if (!g && !uname(&u)) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		g = gzopen(path, "rb"); /* reads plain files too */
	}
	if (!g)
		return 0;
	while (gzgets(g, line, sizeof(line)))
		if (!strncmp(line, want, strlen(want)))
			found = line[strlen(want)];
	gzclose(g);
	return found;
}

static json_object *cap(json_object *doc, const char *key)
{
	json_object *cs = NULL, *c = NULL;

	json_object_object_get_ex(doc, "capabilities", &cs);
	json_object_object_get_ex(cs, key, &c);
	if (!c)
		FAILF("doctor JSON has no capability '%s'", key);
	return c;
}

static const char *cstate(json_object *doc, const char *key)
{
	json_object *c = cap(doc, key), *s = NULL;

	json_object_object_get_ex(c, "state", &s);
	return s ? json_object_get_string(s) : "";
}

static const char *cfigure(json_object *doc, const char *key)
{
	json_object *c = cap(doc, key), *s = NULL;

	json_object_object_get_ex(c, "figure", &s);
	return s ? json_object_get_string(s) : "";
}

static double cvalue(json_object *doc, const char *key)
{
	json_object *c = cap(doc, key), *v = NULL;

	json_object_object_get_ex(c, "value", &v);
	return v ? json_object_get_double(v) : NAN;
}

/* "Hypervisor detected: X" from the kernel log into @out, or false. */
static bool klog_hypervisor(char *out, size_t len)
{
	static char buf[1 << 20];
	int n = klogctl(3, buf, sizeof(buf) - 1);
	char *p;

	if (n <= 0)
		return false;
	buf[n] = 0;
	p = strstr(buf, "Hypervisor detected: ");
	if (!p)
		return false;
	p += strlen("Hypervisor detected: ");
	snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

static bool cpuinfo_has_flag(const char *flag)
{
	char line[4096], want[64];
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;

	if (!f)
		return false;
	snprintf(want, sizeof(want), " %s ", flag);
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			line[strcspn(line, "\n")] = ' '; /* the last flag ends with a space too */
			found = strstr(line, want) != NULL;
		}
	fclose(f);
	return found;
}

/*
 * doctor --json agrees with the independent checks: watchpoints fire
 * exactly where a directly opened one counts the writes; BTF, steal
 * accounting (the kernel's config), IBS, PEBS events and schedstats as
 * sysfs and /proc show them; the hypervisor named as the kernel names it;
 * probe costs measured; exit 0 exactly when run and duet can work.
 */
static void test_doctor_matches_independent_checks(void)
{
	const char *json = ktmp("doctor.json");
	char *argv[] = {(char *)BENCHSCOPE, "doctor", "--json", (char *)json, "--calls", "500",
			"--rounds",	    "3",      NULL};
	static struct kresult r;
	json_object *doc, *ok = NULL;
	long long count;
	char hv[128], steal;

	NEED_BPF();
	krun(&r, argv);
	doc = json_object_from_file(json);
	if (!doc) {
		FAILF("no doctor JSON (exit %d): %s", r.exit_code, r.err);
		return;
	}
	json_object_object_get_ex(doc, "run_and_duet_ok", &ok);
	CHECK(ok != NULL);
	CHECK_INT_EQ(r.exit_code, json_object_get_boolean(ok) ? 0 : 6);
	CHECK(json_object_get_boolean(ok)); /* root with BTF: run and duet work */

	count = independent_watchpoint_count();
	fprintf(stderr,
		"    watchpoints: doctor \"%s\" (%s); a directly opened one counted %lld of 1000\n",
		cstate(doc, "watchpoints"), cfigure(doc, "watchpoints"), count);
	CHECK(!strcmp(cstate(doc, "watchpoints"), count > 0 ? "yes" : "no"));
	if (count > 0)
		CHECK_NEAR(cvalue(doc, "watchpoints"), (double)count, 0, 0);

	CHECK(!strcmp(cstate(doc, "btf"), access("/sys/kernel/btf/vmlinux", R_OK) ? "no" : "yes"));
	CHECK(!strcmp(cstate(doc, "cap_bpf"), "yes"));
	CHECK(!strcmp(cstate(doc, "cap_perfmon"), "yes"));
	steal = kconfig("PARAVIRT_TIME_ACCOUNTING");
	if (steal)
		CHECK(!strcmp(cstate(doc, "steal_accounting"), steal == 'y' ? "yes" : "no"));
	else
		SKIP_JUDGEMENT("no kernel config readable: steal accounting not cross-checked");
	if (access("/sys/bus/event_source/devices/ibs_op", F_OK))
		CHECK(!strcmp(cstate(doc, "ibs_op"), "no"));
	if (access("/sys/bus/event_source/devices/cpu/events/mem-loads", F_OK))
		CHECK(!strcmp(cstate(doc, "pebs"), "no"));
	{
		/* the source `waste --source auto` would use: PEBS, else IBS, else the timer */
		json_object *ws = json_object_object_get(doc, "waste_source");
		const char *pick = json_object_get_string(json_object_object_get(ws, "auto"));
		bool pebs = !strcmp(cstate(doc, "pebs"), "yes"),
		     ibs = !strcmp(cstate(doc, "ibs_op"), "yes");

		CHECK(pick && !strcmp(pick, pebs ? "pebs" : ibs ? "ibs" : "timer"));
		CHECK((json_object_object_get(ws, "pebs") == NULL) == pebs);
		CHECK((json_object_object_get(ws, "ibs") == NULL) == ibs);
		if (!ibs && access("/sys/bus/event_source/devices/ibs_op", F_OK))
			CHECK(!strcmp(json_object_get_string(json_object_object_get(ws, "ibs")),
				      "no ibs_op PMU"));
	}
	if (access("/proc/sys/kernel/sched_schedstats", F_OK))
		CHECK(strstr(cfigure(doc, "schedstats"), "not in this kernel") != NULL);

	if (klog_hypervisor(hv, sizeof(hv)))
		CHECK(strstr(cfigure(doc, "hypervisor"), hv) == cfigure(doc, "hypervisor"));
	else if (cpuinfo_has_flag("hypervisor"))
		CHECK(strstr(cfigure(doc, "hypervisor"), "bare metal") == NULL);
	else
		CHECK(strstr(cfigure(doc, "hypervisor"), "bare metal") != NULL);

	CHECK(!strcmp(cstate(doc, "bpf_programs"), "yes"));
	CHECK(!strcmp(cstate(doc, "ringbuf"), "yes"));
	CHECK(cvalue(doc, "uprobe") > 0);
	CHECK(cvalue(doc, "usdt") > 0);
	CHECK(cvalue(doc, "uretprobe") > 0);
	json_object_put(doc);
	unlink(json);
}

/* The table: one line per feature, with what depends on it, and waste's fate. */
static void test_doctor_table(void)
{
	char *argv[] = {(char *)BENCHSCOPE, "doctor", "--calls", "200", "--rounds", "1", NULL};
	static struct kresult r;

	NEED_BPF();
	krun(&r, argv);
	CHECK_INT_EQ(r.exit_code, 0);
	for (int i = 0; i < BS_CAP_N; i++)
		CHECK(strstr(r.out, bs_cap_info((enum bs_cap_id)i)->label) != NULL);
	CHECK(strstr(r.out, "[waste]") != NULL);
	CHECK(strstr(r.out, "run and duet: everything they need works here") != NULL);
	CHECK((strstr(r.out, "waste: refused here") != NULL) ==
	      (ktest_lacks(BS_CAP_WATCHPOINTS) != NULL));
	CHECK(strstr(r.out, "\nwaste --source auto: ") != NULL);
	CHECK(strstr(r.out, " + watchpoints would be used; PEBS: ") != NULL);
	/* a --json file that cannot be written: one line, exit 1 (json-c's own
	 * message repeated the path and ended in a blank line) */
	{
		char *bad[] = {(char *)BENCHSCOPE,
			       "doctor",
			       "--calls",
			       "200",
			       "--rounds",
			       "1",
			       "--json",
			       "/nonexistent-dir/d.json",
			       NULL};
		int lines = 0;

		krun(&r, bad);
		CHECK_INT_EQ(r.exit_code, 1);
		for (const char *c = r.err; *c; c++)
			lines += *c == '\n';
		CHECK_INT_EQ(lines, 1);
		CHECK(strstr(r.err, "benchscope doctor: cannot write /nonexistent-dir/d.json: No "
				    "such file or directory\n") != NULL);
	}
}

/* Whitespace folded to single spaces (argp reflows its help text). */
static void fold(const char *in, char *out, size_t len)
{
	size_t n = 0;
	bool sp = false;

	for (; *in && n + 1 < len; in++) {
		if (*in == ' ' || *in == '\n' || *in == '\t') {
			sp = n > 0;
			continue;
		}
		if (sp)
			out[n++] = ' ';
		sp = false;
		out[n++] = *in;
	}
	out[n] = 0;
}

/*
 * Every subcommand's --help prints the one exit-status table, and an unknown
 * option is bad usage (2) everywhere. Needs no BPF.
 */
static void test_exit_status_table_everywhere(void)
{
	static const char *const cmds[] = {"run",    "duet",	  "report", "import",
					   "replay", "calibrate", "waste",  "doctor"};
	static char want[1024], got[sizeof(((struct kresult *)0)->out)];
	static struct kresult r;

	fold(BS_EXIT_STATUS_HELP, want, sizeof(want));
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char *help[] = {(char *)BENCHSCOPE, (char *)cmds[i], "--help", NULL};
		char *bad[] = {(char *)BENCHSCOPE, (char *)cmds[i], "--no-such-option", NULL};

		krun(&r, help);
		CHECK_INT_EQ(r.exit_code, 0);
		fold(r.out, got, sizeof(got));
		if (!strstr(got, want))
			FAILF("benchscope %s --help lacks the exit-status table", cmds[i]);
		krun(&r, bad);
		if (r.exit_code != BS_EXIT_USAGE)
			FAILF("benchscope %s --no-such-option: exit %d, want 2", cmds[i],
			      r.exit_code);
	}
}

int main(void)
{
	RUN_TEST(test_doctor_matches_independent_checks);
	RUN_TEST(test_doctor_table);
	RUN_TEST(test_exit_status_table_everywhere);
	return test_summary("test_doctor");
}
