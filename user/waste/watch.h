/* SPDX-License-Identifier: MIT */
/*
 * watch.h - the perf events of `benchscope waste`: per-thread address
 * samplers (software task-clock timer, or precise PMU memory events) and
 * per-thread hardware breakpoints re-armed in place with
 * PERF_EVENT_IOC_MODIFY_ATTRIBUTES. Thin wrappers over perf_event_open(2);
 * every function returns a descriptor or 0 on success, -errno on failure.
 * Also the watchpoint geometry: the aligned piece of an access that one
 * breakpoint can watch (bs_waste_watch_range).
 */
#ifndef BENCHSCOPE_WASTE_WATCH_H
#define BENCHSCOPE_WASTE_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * Where the addresses of sampled accesses come from. BS_SRC_PMU (--source
 * pmu) asks for a PMU without naming it: PEBS where it opens, else IBS.
 */
enum bs_waste_source {
	BS_SRC_AUTO = 0,  /**< the first of PEBS, IBS, timer that opens here */
	BS_SRC_TIMER = 1, /**< task-clock timer + the instruction decoded (capstone) */
	BS_SRC_PEBS = 2,  /**< Intel precise mem-loads / mem-stores with the data address */
	BS_SRC_IBS = 3,	  /**< AMD IBS op sampling (ibs_op PMU) with the data address */
	BS_SRC_PMU = 4,	  /**< PEBS or IBS, whichever opens (never the timer) */
};

/** "timer", "pebs", "ibs", "pmu", "auto" (the --source words; "timer" was "soft"). */
const char *bs_waste_source_name(enum bs_waste_source s);

/** The --source word @s (also "soft" for the timer) as a source; -1 when unknown. */
int bs_waste_source_parse(const char *s);

/** Whether samples of source @s carry the PMU's data address (PEBS, IBS). */
static inline bool bs_waste_source_is_pmu(enum bs_waste_source s)
{
	return s == BS_SRC_PEBS || s == BS_SRC_IBS || s == BS_SRC_PMU;
}

/**
 * What this machine offers `waste --source`: each PMU source's open
 * attempt (0 or -errno) and a one-line reason for a failure, filled by
 * bs_waste_sources_probe().
 */
struct bs_waste_sources {
	int pebs_err, ibs_err; /**< 0: opens here; -errno otherwise */
	char pebs_why[96], ibs_why[96];
};

/**
 * bs_waste_sources_probe - try to open a PEBS and an IBS sampler on the
 * calling thread (closed again) and fill @s: "cpu/mem-loads does not open:
 * ENOENT", "no ibs_op PMU", ...
 */
void bs_waste_sources_probe(struct bs_waste_sources *s);

/**
 * bs_waste_source_pick - the source @want resolves to on a machine with
 * @s: a PMU source itself when it opens; BS_SRC_PMU: PEBS, else IBS;
 * BS_SRC_AUTO: PEBS, else IBS, else the timer. Returns -1 when @want
 * (PEBS, IBS or PMU) does not open. Pure.
 */
int bs_waste_source_pick(enum bs_waste_source want, const struct bs_waste_sources *s);

/**
 * bs_waste_sources_explain - one line on what `--source auto` would use
 * and why: "auto: timer + watchpoints would be used; PEBS: no
 * (cpu/mem-loads does not open: ENOENT); IBS: no (no ibs_op PMU)". Pure.
 */
void bs_waste_sources_explain(const struct bs_waste_sources *s, char *buf, size_t len);

/**
 * bs_waste_open_sampler - a sampling event on thread @tid (any CPU), user
 * mode only, disabled until a BPF program is attached (libbpf enables it).
 * BS_SRC_TIMER: PERF_COUNT_SW_TASK_CLOCK every @period ns of the thread's
 * CPU time. BS_SRC_PEBS: the CPU's precise memory event (Intel "mem-loads"
 * or "mem-stores" from /sys/bus/event_source/devices/cpu/events, @loads
 * picks which) every @period events, precise_ip 2, PERF_SAMPLE_ADDR;
 * -ENOENT when this CPU has none (VMs, AMD). BS_SRC_IBS: the ibs_op PMU
 * (type from /sys/bus/event_source/devices/ibs_op/type; -ENOENT without
 * it) counting dispatched ops where its format has cnt_ctl (else cycles),
 * every @period rounded by bs_waste_ibs_period() (waste/ibs.h),
 * PERF_SAMPLE_ADDR (the kernel, 6.1 and later, fills it from
 * IBS_DC_LINADDR when DcLinAddrValid; the raw registers are not asked for:
 * the BPF program does not read them); user mode only through the kernel's
 * software filter (config2 swfilt) where it has one, else all modes (the
 * BPF program drops kernel samples). @loads is ignored: IBS tags any op,
 * and ops without a memory operand are dropped when their instruction is
 * decoded. Returns the fd or -errno.
 */
int bs_waste_open_sampler(pid_t tid, enum bs_waste_source src, uint64_t period, bool loads);

/** Change a sampler's period (ns or events; IBS: as rounded by bs_waste_ibs_period). 0 or -errno.
 */
int bs_waste_set_period(int fd, uint64_t period);

/**
 * bs_waste_open_bp - a hardware breakpoint event on thread @tid, user mode,
 * one sample per hit, initially on a harmless address and disabled.
 * Returns the fd; -ENOSPC when the thread's debug registers are taken,
 * -ENOENT/-EOPNOTSUPP without breakpoint support, -EACCES/-EPERM without
 * privileges, -ESRCH when the thread is gone.
 */
int bs_waste_open_bp(pid_t tid);

/**
 * bs_waste_arm_bp - re-arm breakpoint @fd on [@addr, @addr + @len) (len 1,
 * 2, 4 or 8, addr aligned to it) for @type (2: writes, 3: reads and
 * writes), enabled, through PERF_EVENT_IOC_MODIFY_ATTRIBUTES. 0 or -errno
 * (-EINVAL: an address or length the hardware cannot watch).
 */
int bs_waste_arm_bp(int fd, uint64_t addr, uint32_t len, int type);

/** Disarm (disable) breakpoint @fd. 0 or -errno. */
int bs_waste_disarm_bp(int fd);

/**
 * bs_waste_watch_range - the range a watchpoint can cover for an access of
 * @size bytes at @addr: x86 breakpoints watch 1, 2, 4 or 8 bytes aligned to
 * their length. Picks the longest aligned length within the access, starting
 * at @addr. Writes *waddr, *wlen; returns *wlen (0 for size 0).
 */
uint32_t bs_waste_watch_range(uint64_t addr, uint32_t size, uint64_t *waddr, uint32_t *wlen);

/**
 * bs_waste_read_mem - read @len bytes at @addr of process @pid
 * (process_vm_readv). 0, or -EFAULT (unmapped), -ESRCH (gone), -errno.
 */
int bs_waste_read_mem(pid_t pid, uint64_t addr, void *buf, size_t len);

#endif
