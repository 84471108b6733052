/* SPDX-License-Identifier: MIT */
/*
 * waste/threads.h - the threads and processes `benchscope waste` follows.
 * A followed thread has a sampler (on_sample of waste.bpf.c attached), up
 * to BS_WASTE_NREGS hardware breakpoints (on_hit attached, each with its
 * slot in the BPF map `slots`), the reservoir that picks the breakpoint a
 * sample re-arms (waste/class.h), and per breakpoint the first access it
 * waits to pair. Processes are remembered so that a frozen one is always
 * continued in the end (waste/freeze.h).
 *
 * Slots: breakpoint r of entry i of w->th is slot i * BS_WASTE_NREGS + r
 * (its bpf_cookie); the map's last slot is the calibration breakpoint's
 * (waste/overhead.h).
 */
#ifndef BENCHSCOPE_WASTE_THREADS_H
#define BENCHSCOPE_WASTE_THREADS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "benchscope/waste_record.h"
#include "waste/class.h"
#include "waste/decode.h"
#include "waste/profiler.h"

#define BS_WASTE_MAX_THREADS                                                                       \
	(BS_WASTE_MAX_SLOTS / BS_WASTE_NREGS - 1) /* last slot: calibration                        \
						   */
#define BS_WASTE_CALIB_SLOT (BS_WASTE_MAX_SLOTS - 1)

struct bpf_link;

/** The first access of a pair: what an armed breakpoint waits for. */
struct bs_waste_pending {
	bool on;
	uint32_t gen;
	enum bs_waste_watch watch;
	uint32_t wlen;
	uint64_t waddr;
	struct bs_waste_access acc;
	long ctx1;
	uint64_t ns; /* sample time */
};

/** A followed thread: an entry of w->th (used: taken). fds are -1 when closed. */
struct bs_waste_thread {
	pid_t tid, pid;
	bool used;
	int sfd;
	struct bpf_link *slink;
	int nbp;
	int bfd[BS_WASTE_NREGS];
	struct bpf_link *blink[BS_WASTE_NREGS];
	struct bs_waste_reservoir res;
	struct bs_waste_pending pend[BS_WASTE_NREGS];
	uint64_t cpu_ns; /* its CPU time at the last account (schedstat), ns */
};

/** bs_waste_find_thread - the followed thread @tid, or NULL. */
struct bs_waste_thread *bs_waste_find_thread(struct bs_waste_run *w, pid_t tid);

/** bs_waste_set_slot - write slot @key of the BPF map `slots` (errors ignored). */
void bs_waste_set_slot(struct bs_waste_run *w, uint32_t key, const struct bs_waste_slot *s);

/**
 * bs_waste_free_slot - disarm breakpoint @r of @t and free its slot (the
 * generation kept, so that a late hit is stale); a first access still
 * pending counts as unresolved; the register goes back to the reservoir.
 */
void bs_waste_free_slot(struct bs_waste_run *w, struct bs_waste_thread *t, int r);

/**
 * bs_waste_drop_thread - stop following @t: its slots freed, its
 * breakpoints and sampler detached and closed, the entry free again.
 */
void bs_waste_drop_thread(struct bs_waste_run *w, struct bs_waste_thread *t);

/**
 * bs_waste_add_thread - follow thread @tid of process @pid: --regs
 * breakpoints opened and attached (fewer when the thread's debug registers
 * are taken, by a debugger say; at least one), the process remembered, the
 * sampler opened (w->src, w->period) and attached. 0 (also when followed
 * already), or -errno with a one-line reason in w->err: -ENOSPC (more than
 * BS_WASTE_MAX_THREADS threads), -ESRCH (the thread is gone), -ENOMEM,
 * or what perf_event_open(2) or the attach returned.
 */
int bs_waste_add_thread(struct bs_waste_run *w, pid_t tid, pid_t pid);

/**
 * bs_waste_add_process - mark @pid followed in the BPF map `pids` (its new
 * tasks, execs and exits are reported) and add every thread of
 * /proc/PID/task; threads gone meanwhile are passed over. 0; -ESRCH when no
 * thread could be added; -errno of opendir(3) (-ENOENT: no such process);
 * or the error of bs_waste_add_thread (w->err says why).
 */
int bs_waste_add_process(struct bs_waste_run *w, pid_t pid);

#endif
