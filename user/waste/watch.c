// SPDX-License-Identifier: MIT
/* watch.c - samplers and breakpoints (perf_event_open). */
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "waste/ibs.h"
#include "waste/watch.h"

#ifndef PERF_EVENT_IOC_MODIFY_ATTRIBUTES
#define PERF_EVENT_IOC_MODIFY_ATTRIBUTES _IOW('$', 11, struct perf_event_attr *)
#endif

/* The address a disarmed breakpoint points at (never accessed: page 0). */
#define PARK_ADDR 0x8ull

static const char *const source_names[] = {
    [BS_SRC_AUTO] = "auto", [BS_SRC_TIMER] = "timer", [BS_SRC_PEBS] = "pebs",
    [BS_SRC_IBS] = "ibs",   [BS_SRC_PMU] = "pmu",
};

const char *bs_waste_source_name(enum bs_waste_source s)
{
	return (unsigned)s < sizeof(source_names) / sizeof(source_names[0]) ? source_names[s]
									    : "auto";
}

int bs_waste_source_parse(const char *s)
{
	unsigned i;

	if (!strcmp(s, "soft"))
		return BS_SRC_TIMER;
	for (i = 0; i < sizeof(source_names) / sizeof(source_names[0]); i++)
		if (!strcmp(s, source_names[i]))
			return (int)i;
	return -1;
}

static int perf_open(struct perf_event_attr *a, pid_t tid)
{
	int fd = (int)syscall(SYS_perf_event_open, a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Parse "event=0xcd,umask=0x1,ldlat=3" of a sysfs event into config/config1. */
static int pmu_event(const char *name, uint64_t *config, uint64_t *config1, uint32_t *type)
{
	char path[256], buf[256], *tok, *save = NULL;
	FILE *f;
	unsigned long long ev = 0, umask = 0, ldlat = 0;

	f = fopen("/sys/bus/event_source/devices/cpu/type", "re");
	if (!f)
		return -ENOENT;
	if (fscanf(f, "%u", type) != 1) {
		fclose(f);
		return -ENOENT;
	}
	fclose(f);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/cpu/events/%s", name);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -ENOENT;
	}
	fclose(f);
	for (tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		if (!strncmp(tok, "event=", 6))
			ev = strtoull(tok + 6, NULL, 0);
		else if (!strncmp(tok, "umask=", 6))
			umask = strtoull(tok + 6, NULL, 0);
		else if (!strncmp(tok, "ldlat=", 6))
			ldlat = strtoull(tok + 6, NULL, 0);
	}
	*config = ev | umask << 8;
	*config1 = ldlat;
	return 0;
}

/* The ibs_op PMU's type and whether its format has cnt_ctl; -ENOENT without it. */
static int ibs_op_pmu(uint32_t *type, bool *cnt_ctl)
{
	FILE *f = fopen("/sys/bus/event_source/devices/ibs_op/type", "re");
	int ok;

	if (!f)
		return -ENOENT;
	ok = fscanf(f, "%u", type) == 1;
	fclose(f);
	*cnt_ctl = access("/sys/bus/event_source/devices/ibs_op/format/cnt_ctl", F_OK) == 0;
	return ok ? 0 : -ENOENT;
}

static int open_ibs(struct perf_event_attr *a, pid_t tid)
{
	bool cnt_ctl;
	int err = ibs_op_pmu(&a->type, &cnt_ctl), fd;

	if (err)
		return err;
	a->config = cnt_ctl ? BS_IBS_OP_CNT_CTL : 0;
	a->sample_period = bs_waste_ibs_period(a->sample_period);
	a->sample_type |= PERF_SAMPLE_ADDR;
	/* the software filter (config2 bit 0, "swfilt") is what lets ibs_op take
	 * exclude_kernel; kernels without it refuse exclude_* with EINVAL */
	a->config2 = 1;
	fd = perf_open(a, tid);
	if (fd != -EINVAL)
		return fd;
	a->config2 = 0;
	a->exclude_kernel = 0;
	a->exclude_hv = 0;
	return perf_open(a, tid);
}

int bs_waste_open_sampler(pid_t tid, enum bs_waste_source src, uint64_t period, bool loads)
{
	struct perf_event_attr a;
	int err;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	if (src == BS_SRC_IBS)
		return open_ibs(&a, tid);
	if (src == BS_SRC_PEBS) {
		uint64_t c = 0, c1 = 0;

		err = pmu_event(loads ? "mem-loads" : "mem-stores", &c, &c1, &a.type);
		if (err)
			return err;
		a.config = c;
		a.config1 = c1;
		a.precise_ip = 2;
		a.sample_type |= PERF_SAMPLE_ADDR;
	} else {
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_TASK_CLOCK;
	}
	return perf_open(&a, tid);
}

void bs_waste_sources_probe(struct bs_waste_sources *s)
{
	int fd;

	memset(s, 0, sizeof(*s));
	fd = bs_waste_open_sampler(0, BS_SRC_PEBS, 100000, true);
	if (fd >= 0)
		close(fd);
	s->pebs_err = fd < 0 ? fd : 0;
	if (fd < 0)
		snprintf(s->pebs_why, sizeof(s->pebs_why), "cpu/mem-loads does not open: %s",
			 strerrorname_np(-fd) ? strerrorname_np(-fd) : strerror(-fd));
	fd = bs_waste_open_sampler(0, BS_SRC_IBS, 100000, true);
	if (fd >= 0)
		close(fd);
	s->ibs_err = fd < 0 ? fd : 0;
	if (fd == -ENOENT)
		snprintf(s->ibs_why, sizeof(s->ibs_why), "no ibs_op PMU");
	else if (fd < 0)
		snprintf(s->ibs_why, sizeof(s->ibs_why), "ibs_op does not open: %s",
			 strerrorname_np(-fd) ? strerrorname_np(-fd) : strerror(-fd));
}

int bs_waste_source_pick(enum bs_waste_source want, const struct bs_waste_sources *s)
{
	switch (want) {
	case BS_SRC_TIMER:
		return BS_SRC_TIMER;
	case BS_SRC_PEBS:
		return s->pebs_err ? -1 : BS_SRC_PEBS;
	case BS_SRC_IBS:
		return s->ibs_err ? -1 : BS_SRC_IBS;
	case BS_SRC_PMU:
		return !s->pebs_err ? BS_SRC_PEBS : !s->ibs_err ? BS_SRC_IBS : -1;
	default:
		return !s->pebs_err ? BS_SRC_PEBS : !s->ibs_err ? BS_SRC_IBS : BS_SRC_TIMER;
	}
}

void bs_waste_sources_explain(const struct bs_waste_sources *s, char *buf, size_t len)
{
	int src = bs_waste_source_pick(BS_SRC_AUTO, s);

	snprintf(buf, len, "auto: %s + watchpoints would be used; PEBS: %s%s%s; IBS: %s%s%s",
		 bs_waste_source_name((enum bs_waste_source)src), s->pebs_err ? "no (" : "yes",
		 s->pebs_err ? s->pebs_why : "", s->pebs_err ? ")" : "",
		 s->ibs_err ? "no (" : "yes", s->ibs_err ? s->ibs_why : "", s->ibs_err ? ")" : "");
}

int bs_waste_set_period(int fd, uint64_t period)
{
	return ioctl(fd, PERF_EVENT_IOC_PERIOD, &period) ? -errno : 0;
}

static void bp_attr(struct perf_event_attr *a, uint64_t addr, uint32_t len, int type, bool disabled)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_type = (uint32_t)type;
	a->bp_addr = addr;
	a->bp_len = len;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->disabled = disabled;
}

int bs_waste_open_bp(pid_t tid)
{
	struct perf_event_attr a;

	bp_attr(&a, PARK_ADDR, HW_BREAKPOINT_LEN_1, HW_BREAKPOINT_W, true);
	return perf_open(&a, tid);
}

int bs_waste_arm_bp(int fd, uint64_t addr, uint32_t len, int type)
{
	struct perf_event_attr a;

	if ((len != 1 && len != 2 && len != 4 && len != 8) || (addr & (len - 1)))
		return -EINVAL;
	bp_attr(&a, addr, len, type, false);
	if (ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a))
		return -errno;
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) ? -errno : 0;
}

int bs_waste_disarm_bp(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) ? -errno : 0;
}

uint32_t bs_waste_watch_range(uint64_t addr, uint32_t size, uint64_t *waddr, uint32_t *wlen)
{
	uint32_t len;

	for (len = 8; len > 1; len /= 2)
		if (len <= size && !(addr & (len - 1)))
			break;
	if (!size)
		len = 0;
	*waddr = addr;
	*wlen = len;
	return len;
}

int bs_waste_read_mem(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = {buf, len}, r = {(void *)(uintptr_t)addr, len};
	ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);

	if (n == (ssize_t)len)
		return 0;
	return n < 0 ? -errno : -EFAULT;
}
