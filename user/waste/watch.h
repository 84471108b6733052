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

enum bs_waste_source { BS_SRC_AUTO = 0, BS_SRC_SOFT = 1, BS_SRC_PMU = 2 };

/** "soft", "pmu", "auto". */
const char *bs_waste_source_name(enum bs_waste_source s);

/**
 * bs_waste_open_sampler - a sampling event on thread @tid (any CPU), user
 * mode only, disabled until a BPF program is attached (libbpf enables it).
 * BS_SRC_SOFT: PERF_COUNT_SW_TASK_CLOCK every @period ns of the thread's CPU
 * time. BS_SRC_PMU: the CPU's precise memory event (Intel "mem-loads" or
 * "mem-stores" from /sys/bus/event_source/devices/cpu/events, @loads picks
 * which) every @period events, precise_ip 2, PERF_SAMPLE_ADDR; -ENOENT when
 * this CPU has none (VMs, AMD without IBS support here).
 * Returns the fd or -errno.
 */
int bs_waste_open_sampler(pid_t tid, enum bs_waste_source src, uint64_t period, bool loads);

/** Change a sampler's period (ns or events). 0 or -errno. */
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
