// SPDX-License-Identifier: MIT
/*
 * caps.c - the capability probes that need no BPF object of ours: kernel,
 * privileges, hypervisor, CPU, hardware watchpoints, PMU address sampling,
 * steal and scheduler statistics (caps.h).
 */
#include "probe/caps.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "binary/elfsym.h"
#include "util/exit_status.h"
#include "waste/watch.h"

static const struct bs_cap_info infos[BS_CAP_N] = {
    [BS_CAP_KERNEL] = {"kernel", "kernel", "", false, ""},
    [BS_CAP_BTF] = {"btf", "kernel BTF", "run, duet, calibrate, waste", true, "no kernel BTF"},
    [BS_CAP_PRIV_BPF] = {"cap_bpf", "CAP_BPF", "run, duet, calibrate, waste", true, "no CAP_BPF"},
    [BS_CAP_PRIV_PERFMON] = {"cap_perfmon", "CAP_PERFMON", "run, duet, calibrate, waste", true,
			     "no CAP_PERFMON"},
    [BS_CAP_PRIV_UPROBE] = {"uprobe_privilege", "uprobes allowed",
			    "run, duet (but --line and --preset process), calibrate", true,
			    "the kernel refuses uprobes to this process"},
    [BS_CAP_PARANOID] = {"perf_event_paranoid", "perf_event_paranoid", "", false, ""},
    [BS_CAP_UNPRIV_BPF] = {"unprivileged_bpf_disabled", "unprivileged_bpf_disabled", "", false, ""},
    [BS_CAP_LOCKDOWN] = {"lockdown", "lockdown allows BPF tracing", "run, duet, calibrate, waste",
			 true, "kernel lockdown forbids BPF tracing"},
    [BS_CAP_HYPERVISOR] = {"hypervisor", "hypervisor", "", false, ""},
    [BS_CAP_CPU] = {"cpu", "CPU", "", false, ""},
    [BS_CAP_BPF_LOAD] = {"bpf_programs", "BPF programs load and attach", "run, duet, calibrate",
			 true, "BPF programs do not load"},
    [BS_CAP_RINGBUF] = {"ringbuf", "BPF ring buffer", "run, duet, waste", true,
			"no BPF ring buffer"},
    [BS_CAP_TASK_STORAGE] = {"task_storage", "BPF task storage", "", false, ""},
    [BS_CAP_UPROBE] = {"uprobe", "uprobe hit", "run --iter/--begin/--end, gbench", true,
		       "uprobes do not work"},
    [BS_CAP_URETPROBE] = {"uretprobe", "uretprobe hit", "run --iter, criterion", false,
			  "uretprobes do not work"},
    [BS_CAP_USDT] = {"usdt", "USDT hit", "run --begin usdt:...", false, "USDT probes do not work"},
    [BS_CAP_URETPROBE_SYSCALL] = {"uretprobe_syscall", "uretprobe syscall", "", false, ""},
    [BS_CAP_UPROBE_NOP5] = {"uprobe_nop5", "nop5 uprobe optimisation", "", false, ""},
    [BS_CAP_WATCHPOINTS] = {"watchpoints", "hardware watchpoints fire", "waste", false,
			    "hardware watchpoints do not fire on this machine"},
    [BS_CAP_PEBS] = {"pebs", "Intel PEBS address sampling", "waste --source pebs", false,
		     "no precise memory-access sampling"},
    [BS_CAP_IBS] = {"ibs_op", "AMD IBS op sampling", "waste --source ibs", false,
		    "no IBS op sampling"},
    [BS_CAP_STEAL] = {"steal_accounting", "steal accounting", "run/duet steal_ns (0 without it)",
		      false, "no steal accounting"},
    [BS_CAP_STEAL_MOVING] = {"steal_moving", "steal clock moving", "", false, ""},
    [BS_CAP_SCHED_INFO] = {"sched_info", "sched_info run_delay", "run/duet sched_delay_ns", false,
			   "no sched_info"},
    [BS_CAP_SCHEDSTATS] = {"schedstats", "schedstats", "", false, ""},
};

const struct bs_cap_info *bs_cap_info(enum bs_cap_id id)
{
	return &infos[(unsigned)id < BS_CAP_N ? id : 0];
}

static enum bs_cap_state set(struct bs_cap *c, enum bs_cap_state s, double v, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static enum bs_cap_state set(struct bs_cap *c, enum bs_cap_state s, double v, const char *fmt, ...)
{
	va_list ap;

	c->state = s;
	c->value = v;
	va_start(ap, fmt);
	vsnprintf(c->figure, sizeof(c->figure), fmt, ap);
	va_end(ap);
	return s;
}

/* The first line of a small file, without its newline; -errno when unreadable. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* ---- privileges ------------------------------------------------------------------- */

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_cap(int cap)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

static enum bs_cap_state probe_priv(struct bs_cap *c, int cap, const char *name)
{
	if (has_cap(cap))
		return set(c, BS_CAP_YES, NAN, "in the effective set");
	if (has_cap(CAP_SYS_ADMIN))
		return set(c, BS_CAP_YES, NAN, "through CAP_SYS_ADMIN");
	return set(c, BS_CAP_NO, NAN, "run as root, or grant %s", name);
}

/*
 * Whether the kernel lets this process open a uprobe: the uprobe PMU's
 * event init wants CAP_SYS_ADMIN on kernels since mid-2025 ("perf: Revert
 * to requiring CAP_SYS_ADMIN for uprobes", also in the stable series) and
 * CAP_PERFMON on those from 5.8 before it. Without CAP_SYS_ADMIN the kernel
 * is asked: a disabled uprobe event on this program's calibration target,
 * opened and closed at once (it never fires).
 */
static enum bs_cap_state probe_uprobe_priv(struct bs_cap *c)
{
	struct perf_event_attr attr;
	char type[32], self[4096], name[128], err[256];
	uint64_t off, size;
	ssize_t n;
	int fd;

	if (has_cap(CAP_SYS_ADMIN))
		return set(c, BS_CAP_YES, NAN, "CAP_SYS_ADMIN in the effective set");
	if (read_line("/sys/bus/event_source/devices/uprobe/type", type, sizeof(type)))
		return set(c, BS_CAP_UNKNOWN, NAN, "no uprobe PMU to ask");
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return set(c, BS_CAP_UNKNOWN, NAN, "cannot read /proc/self/exe");
	self[n] = 0;
	if (bs_elf_find_func(self, "bs_calib_target_a", &off, &size, name, sizeof(name), err,
			     sizeof(err)))
		return set(c, BS_CAP_UNKNOWN, NAN, "no site to try: %.120s", err);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (uint32_t)strtoul(type, NULL, 10);
	attr.config1 = (uint64_t)(uintptr_t)self;
	attr.config2 = off;
	attr.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, getpid(), -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		return set(c, BS_CAP_YES, NAN, "with CAP_PERFMON on this kernel");
	}
	if (errno == EACCES || errno == EPERM)
		return set(c, BS_CAP_NO, NAN,
			   "this kernel wants CAP_SYS_ADMIN for uprobes and USDT (%s)",
			   strerror(errno));
	return set(c, BS_CAP_UNKNOWN, NAN, "the trial uprobe failed: %s", strerror(errno));
}

static enum bs_cap_state probe_sysctl(struct bs_cap *c, const char *path)
{
	char buf[64];

	if (read_line(path, buf, sizeof(buf)))
		return set(c, BS_CAP_UNKNOWN, NAN, "unreadable (%s)", path);
	return set(c, BS_CAP_INFO, strtod(buf, NULL), "%s", buf);
}

static enum bs_cap_state probe_lockdown(struct bs_cap *c)
{
	char buf[128], *sel;

	if (read_line("/sys/kernel/security/lockdown", buf, sizeof(buf)))
		return set(c, BS_CAP_YES, NAN, "no lockdown (securityfs has none)");
	sel = strchr(buf, '[');
	if (sel && !strncmp(sel, "[confidentiality]", 17))
		return set(c, BS_CAP_NO, NAN,
			   "lockdown=confidentiality forbids BPF reads of kernel memory");
	return set(c, BS_CAP_YES, NAN, "%s", buf);
}

/* ---- hypervisor and CPU -------------------------------------------------------------- */

/* "Hypervisor detected: X" in the kernel log (root; the boot lines may have rotated out). */
static bool hypervisor_from_klog(char *out, size_t len)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf, *p;
	bool found = false;

	if (n <= 0)
		return false;
	buf = malloc((size_t)n + 1);
	if (!buf)
		return false;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n > 0) {
		buf[n] = 0;
		p = strstr(buf, "Hypervisor detected: ");
		if (p) {
			p += strlen("Hypervisor detected: ");
			snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
			found = true;
		}
	}
	free(buf);
	return found;
}

static const char *signature_name(const char *sig)
{
	static const struct {
		const char *sig, *name;
	} known[] = {
	    {"KVMKVMKVM", "KVM"},	  {"Microsoft Hv", "Hyper-V"},
	    {"VMwareVMware", "VMware"},	  {"XenVMMXenVMM", "Xen"},
	    {"TCGTCGTCGTCG", "QEMU TCG"}, {"bhyve bhyve ", "bhyve"},
	    {"ACRNACRNACRN", "ACRN"},	  {"VBoxVBoxVBox", "VirtualBox"},
	    {"QNXQVMBSQG", "QNX"},	  {" lrpepyh  vr", "Parallels"},
	    {"LinuxPVMPVM", "PVM"},
	};
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strncmp(sig, known[i].sig, strlen(known[i].sig)))
			return known[i].name;
	return NULL;
}

static bool firecracker_cmdline(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/cmdline", "re");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strstr(buf, "firecracker") != NULL;
}

const char *bs_hypervisor_name(char *buf, size_t len, bool detail)
{
	unsigned a, b, c, d;
	char sig[13] = {0}, kern[64];
	const char *name;
	bool fc = firecracker_cmdline();

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31))) {
		snprintf(buf, len, "none (bare metal)");
		return buf;
	}
	__cpuid(0x40000000, a, b, c, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	name = signature_name(sig);
	if (hypervisor_from_klog(kern, sizeof(kern)))
		snprintf(buf, len, "%s%s%s%s%s", kern, fc ? ", Firecracker" : "",
			 detail ? " (kernel log; CPUID signature \"" : "", detail ? sig : "",
			 detail ? "\")" : "");
	else if (name)
		snprintf(buf, len, "%s%s%s", name, fc ? ", Firecracker" : "",
			 detail ? " (CPUID signature)" : "");
	else
		snprintf(buf, len, "unknown (CPUID signature \"%s\")", sig);
	return buf;
}

const char *bs_hypervisor_guest(char *buf, size_t len)
{
	unsigned a, b, c, d;

	__cpuid(1, a, b, c, d);
	return c & (1u << 31) ? bs_hypervisor_name(buf, len, false) : NULL;
}

static void cpuinfo_field(const char *key, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512], *colon;

	snprintf(out, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (colon && !strncmp(line, key, strlen(key))) {
			colon++;
			colon += strspn(colon, " \t");
			colon[strcspn(colon, "\n")] = 0;
			snprintf(out, len, "%s", colon);
			break;
		}
	}
	fclose(f);
}

static enum bs_cap_state probe_cpu(struct bs_cap *c)
{
	char vendor[64], model[160], smt[32];
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	cpuinfo_field("vendor_id", vendor, sizeof(vendor));
	cpuinfo_field("model name", model, sizeof(model));
	if (read_line("/sys/devices/system/cpu/smt/active", smt, sizeof(smt)))
		snprintf(smt, sizeof(smt), "unknown");
	else
		snprintf(smt, sizeof(smt), "%s", !strcmp(smt, "1") ? "on" : "off");
	return set(c, BS_CAP_INFO, (double)n, "%s, %s, %ld CPUs, SMT %s", vendor, model, n, smt);
}

/* ---- perf events ---------------------------------------------------------------------- */

static volatile unsigned long watched;

/*
 * A watchpoint opened and armed as `waste` arms one (bs_waste_open_bp,
 * bs_waste_arm_bp), on this thread, and 1000 writes to it: every write must
 * be counted.
 */
static enum bs_cap_state probe_watchpoints(struct bs_cap *c)
{
	long long count = 0;
	int fd, err, i;
	char hv[160];

	fd = bs_waste_open_bp(0);
	if (fd < 0)
		return set(c, BS_CAP_NO, 0, "a breakpoint event does not open: %s", strerror(-fd));
	err = bs_waste_arm_bp(fd, (unsigned long)(uintptr_t)&watched, sizeof(watched), 2);
	if (err) {
		close(fd);
		return set(c, BS_CAP_NO, 0, "arming a breakpoint fails: %s", strerror(-err));
	}
	for (i = 0; i < 1000; i++)
		watched = (unsigned long)i;
	bs_waste_disarm_bp(fd);
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		count = -1;
	close(fd);
	if (count == 1000)
		return set(c, BS_CAP_YES, 1000, "1000 of 1000 writes trapped");
	bs_hypervisor_name(hv, sizeof(hv), false);
	return set(c, BS_CAP_NO, (double)count,
		   "they open, but %lld of 1000 writes trapped (hypervisor: %s)", count, hv);
}

/* PEBS and IBS: a sampler opened as `waste --source pebs|ibs` opens it. */
static enum bs_cap_state probe_pebs(struct bs_cap *c)
{
	struct bs_waste_sources s;

	bs_waste_sources_probe(&s);
	if (!s.pebs_err)
		return set(c, BS_CAP_YES, NAN, "cpu/mem-loads opens with precise_ip 2");
	return set(c, BS_CAP_NO, NAN, "%s", s.pebs_why);
}

static enum bs_cap_state probe_ibs(struct bs_cap *c)
{
	struct bs_waste_sources s;
	char buf[32];

	bs_waste_sources_probe(&s);
	if (!s.ibs_err && !read_line("/sys/bus/event_source/devices/ibs_op/type", buf, sizeof(buf)))
		return set(c, BS_CAP_YES, NAN, "ibs_op (PMU type %s) opens with PERF_SAMPLE_RAW",
			   buf);
	return set(c, BS_CAP_NO, NAN, "%s", s.ibs_err ? s.ibs_why : "ibs_op has no type");
}

/* ---- kernel configuration seen through BTF ------------------------------------------ */

/* Whether struct @s of kernel BTF @btf has member @m. */
static bool btf_has_member(const struct btf *btf, const char *s, const char *m)
{
	const struct btf_type *t;
	const struct btf_member *mem;
	int id, i;

	id = btf__find_by_name_kind(btf, s, BTF_KIND_STRUCT);
	if (id <= 0)
		return false;
	t = btf__type_by_id(btf, id);
	mem = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, mem[i].name_off), m))
			return true;
	return false;
}

/* The capability @id (BS_CAP_STEAL or BS_CAP_SCHED_INFO) from kernel BTF @btf. */
static enum bs_cap_state kernel_field(const struct btf *btf, enum bs_cap_id id, struct bs_cap *c)
{
	if (!btf)
		return set(c, BS_CAP_UNKNOWN, NAN, "no kernel BTF to look in");
	if (id == BS_CAP_STEAL)
		return btf_has_member(btf, "rq", "prev_steal_time_rq")
			   ? set(c, BS_CAP_YES, NAN, "the run queue has a steal clock")
			   : set(c, BS_CAP_NO, NAN,
				 "steal_ns reads 0 (kernel without "
				 "CONFIG_PARAVIRT_TIME_ACCOUNTING)");
	return btf_has_member(btf, "task_struct", "sched_info")
		   ? set(c, BS_CAP_YES, NAN, "task_struct has sched_info")
		   : set(c, BS_CAP_NO, NAN,
			 "sched_delay_ns reads 0 (kernel without CONFIG_SCHED_INFO)");
}

void bs_caps_kernel_accounting(bool *steal, bool *sched_info)
{
	struct btf *btf = btf__load_vmlinux_btf(); /* ~50 ms: loaded once for both */
	struct bs_cap c;

	*steal = kernel_field(btf, BS_CAP_STEAL, &c) == BS_CAP_YES;
	*sched_info = kernel_field(btf, BS_CAP_SCHED_INFO, &c) == BS_CAP_YES;
	btf__free(btf);
}

/* Sum of the steal column of /proc/stat's "cpu" line (USER_HZ ticks); -1 when unreadable. */
static long long steal_ticks(void)
{
	unsigned long long v[8];
	char line[512];
	FILE *f = fopen("/proc/stat", "re");
	int n = 0;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	return n == 8 ? (long long)v[7] : -1;
}

static enum bs_cap_state probe_steal_moving(struct bs_cap *c)
{
	long long s0 = steal_ticks(), s1;

	usleep(500000);
	s1 = steal_ticks();
	if (s0 < 0 || s1 < 0)
		return set(c, BS_CAP_UNKNOWN, NAN, "/proc/stat unreadable");
	if (s1 > s0)
		return set(c, BS_CAP_INFO, (double)(s1 - s0), "moving (%lld ticks in 0.5 s)",
			   s1 - s0);
	return set(c, BS_CAP_INFO, 0,
		   "not moving now (0 in 0.5 s: a host may still slow a vCPU unseen)");
}

/* Whether the running kernel has symbol @name (/proc/kallsyms; root sees it). */
static int kallsyms_has(const char *name)
{
	char line[512], *sym;
	FILE *f = fopen("/proc/kallsyms", "re");
	int found = 0;

	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof(line), f)) {
		sym = strrchr(line, ' ');
		if (sym) {
			sym++;
			sym[strcspn(sym, "\n\t")] = 0;
			found = !strcmp(sym, name);
		}
	}
	fclose(f);
	return found;
}

static enum bs_cap_state probe_ksym(struct bs_cap *c, const char *sym, const char *yes,
				    const char *no)
{
	int r = kallsyms_has(sym);

	if (r < 0)
		return set(c, BS_CAP_UNKNOWN, NAN, "/proc/kallsyms unreadable");
	return r ? set(c, BS_CAP_YES, NAN, "%s", yes) : set(c, BS_CAP_NO, NAN, "%s", no);
}

/*
 * The length of the nop at a USDT site of this program (its calibration
 * site benchscope:calib_a): 1 for sys/sdt.h's one-byte nop, 5 for a nop5,
 * 0 when unknown. The kernel's uprobe optimisation applies to nop5 only.
 */
static int usdt_site_nop_len(void)
{
	struct bs_usdt_note *notes = NULL;
	unsigned char b[5];
	size_t n = 0, i;
	int len = 0, fd;

	if (bs_elf_list_usdt("/proc/self/exe", &notes, &n))
		return 0;
	for (i = 0; i < n; i++)
		if (!strcmp(notes[i].provider, "benchscope") && !strcmp(notes[i].name, "calib_a"))
			break;
	fd = i < n ? open("/proc/self/exe", O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0 && pread(fd, b, sizeof(b), (off_t)notes[i].pc_offset) == (ssize_t)sizeof(b))
		len = b[0] == 0x90 ? 1 : !memcmp(b, "\x0f\x1f\x44\x00\x00", 5) ? 5 : 0;
	if (fd >= 0)
		close(fd);
	free(notes);
	return len;
}

static enum bs_cap_state probe_nop5(struct bs_cap *c)
{
	int r = kallsyms_has("__x64_sys_uprobe"), len;

	if (r < 0)
		return set(c, BS_CAP_UNKNOWN, NAN, "/proc/kallsyms unreadable");
	if (!r)
		return set(c, BS_CAP_NO, NAN, "not in this kernel: every uprobe hit is a trap");
	len = usdt_site_nop_len();
	return set(c, BS_CAP_YES, NAN, "in the kernel; %s",
		   len == 1   ? "not in use for USDT sites of sys/sdt.h (a 1-byte nop)"
		   : len == 5 ? "USDT sites here are 5-byte nops: in use"
			      : "applies to 5-byte nop sites only");
}

enum bs_cap_state bs_cap_probe(enum bs_cap_id id, struct bs_cap *c)
{
	struct utsname u;
	char buf[192];

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->value = NAN;
	switch (id) {
	case BS_CAP_KERNEL:
		if (uname(&u))
			return set(c, BS_CAP_UNKNOWN, NAN, "uname: %s", strerror(errno));
		return set(c, BS_CAP_INFO, NAN, "%s %s", u.release, u.machine);
	case BS_CAP_BTF:
		return access("/sys/kernel/btf/vmlinux", R_OK)
			   ? set(c, BS_CAP_NO, NAN,
				 "/sys/kernel/btf/vmlinux missing (CONFIG_DEBUG_INFO_BTF)")
			   : set(c, BS_CAP_YES, NAN, "/sys/kernel/btf/vmlinux");
	case BS_CAP_PRIV_BPF:
		return probe_priv(c, CAP_BPF, "CAP_BPF");
	case BS_CAP_PRIV_PERFMON:
		return probe_priv(c, CAP_PERFMON, "CAP_PERFMON");
	case BS_CAP_PRIV_UPROBE:
		return probe_uprobe_priv(c);
	case BS_CAP_PARANOID:
		return probe_sysctl(c, "/proc/sys/kernel/perf_event_paranoid");
	case BS_CAP_UNPRIV_BPF:
		return probe_sysctl(c, "/proc/sys/kernel/unprivileged_bpf_disabled");
	case BS_CAP_LOCKDOWN:
		return probe_lockdown(c);
	case BS_CAP_HYPERVISOR:
		return set(c, BS_CAP_INFO, NAN, "%s", bs_hypervisor_name(buf, sizeof(buf), true));
	case BS_CAP_CPU:
		return probe_cpu(c);
	case BS_CAP_URETPROBE_SYSCALL:
		return probe_ksym(c, "__x64_sys_uretprobe",
				  "a uretprobe returns through a syscall, not a trap",
				  "a uretprobe returns through a trap");
	case BS_CAP_UPROBE_NOP5:
		return probe_nop5(c);
	case BS_CAP_WATCHPOINTS:
		return probe_watchpoints(c);
	case BS_CAP_PEBS:
		return probe_pebs(c);
	case BS_CAP_IBS:
		return probe_ibs(c);
	case BS_CAP_STEAL:
	case BS_CAP_SCHED_INFO: {
		struct btf *btf = btf__load_vmlinux_btf();
		enum bs_cap_state r = kernel_field(btf, id, c);

		btf__free(btf);
		return r;
	}
	case BS_CAP_STEAL_MOVING:
		return probe_steal_moving(c);
	case BS_CAP_SCHEDSTATS:
		if (read_line("/proc/sys/kernel/sched_schedstats", buf, sizeof(buf)))
			return set(c, BS_CAP_INFO, NAN, "not in this kernel (CONFIG_SCHEDSTATS)");
		return set(c, BS_CAP_INFO, strtod(buf, NULL), "%s",
			   !strcmp(buf, "1") ? "on" : "off");
	default:
		return set(c, BS_CAP_UNKNOWN, NAN, "not probed (needs kernel BTF and privileges)");
	}
}

const enum bs_cap_id bs_caps_bpf_tracing[4] = {BS_CAP_BTF, BS_CAP_PRIV_BPF, BS_CAP_PRIV_PERFMON,
					       BS_CAP_LOCKDOWN};

int bs_caps_require(const char *cmd, const enum bs_cap_id *ids, size_t n)
{
	struct bs_cap c;
	char line[1024] = "";
	size_t i, len = 0, lacking = 0;

	for (i = 0; i < n; i++) {
		if (bs_cap_probe(ids[i], &c) != BS_CAP_NO)
			continue;
		lacking++;
		len += (size_t)snprintf(line + len, len < sizeof(line) ? sizeof(line) - len : 0,
					"%s%s: %s", lacking > 1 ? "; " : "",
					bs_cap_info(ids[i])->lacking, c.figure);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
	}
	if (!lacking)
		return 0;
	fprintf(stderr, "benchscope %s: %s; %s needs %s (see benchscope doctor)\n", cmd, line, cmd,
		lacking > 1 ? "them" : "it");
	return BS_EXIT_UNSUPPORTED;
}
