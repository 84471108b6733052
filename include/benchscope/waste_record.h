/* SPDX-License-Identifier: MIT */
/*
 * waste_record.h - records and shared state of `benchscope waste` between
 * bpf/waste.bpf.c and user space (included by both).
 *
 * Ring-buffer records start with a u32 `type` (enum bs_waste_rec_type).
 * The watchpoint slots live in an array map indexed by slot id (the BPF
 * cookie of each breakpoint perf event): user space writes a slot before it
 * re-arms the breakpoint, the breakpoint program advances its state.
 */
#ifndef BENCHSCOPE_WASTE_REC_H
#define BENCHSCOPE_WASTE_REC_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define BS_WASTE_STACK	   16	/* user stack frames kept per access */
#define BS_WASTE_INSN	   16	/* instruction bytes read at the sampled ip */
#define BS_WASTE_MAX_SLOTS 4096 /* watchpoint slots (4 per thread) */
#define BS_WASTE_MAX_CPUS  256	/* traps counted per CPU (CPU ids taken modulo) */

enum bs_waste_rec_type {
	BS_WREC_SAMPLE = 1, /**< struct bs_waste_sample: an address sample */
	BS_WREC_HIT = 2,    /**< struct bs_waste_hit: the next access to a watched address */
	BS_WREC_TASK = 3,   /**< struct bs_waste_task: fork, exec, exit of a followed task */
	BS_WREC_TRAP = 4,   /**< struct bs_waste_trap: a SIGTRAP the kernel generated */
};

/** bs_waste_task.what */
enum bs_waste_task_what {
	BS_WTASK_NEW = 1,  /**< a new thread or process (clone/fork) */
	BS_WTASK_EXEC = 2, /**< the process exec'd: its address space is new */
	BS_WTASK_EXIT = 3, /**< the thread exited */
};

/** x86-64 user registers of a sample, in pt_regs order (what capstone needs). */
struct bs_waste_regs {
	__u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, ip, sp, fs_base,
	    flags;
};

/**
 * One timer (soft) or PMU sample of a thread running user code.
 * addr: the data address the PMU gave (0 for the soft source, where user
 * space decodes insn[] with regs). ns: CLOCK_MONOTONIC.
 */
struct bs_waste_sample {
	__u32 type; /**< BS_WREC_SAMPLE */
	__u32 tid;
	__u32 pid;
	__u32 nstack; /**< valid entries of stack[] */
	__u64 ns;
	__u64 addr;
	__u32 frozen; /**< 1: the thread group was sent SIGSTOP at this ip (user space continues it)
		       */
	__u32 insn_ok; /**< 1: insn[] was read */
	struct bs_waste_regs regs;
	__u8 insn[BS_WASTE_INSN];
	__u64 stack[BS_WASTE_STACK];
};

/** bs_waste_hit.flags */
enum bs_waste_hit_flags {
	BS_WHIT_NOSELF = 1u << 0,  /**< the sampled access itself was not seen trapping first */
	BS_WHIT_NOVALUE = 1u << 1, /**< the value could not be read at the trap (unmapped) */
};

/**
 * The first access that trapped on a watched address after the sampled
 * access. ip: the trap ip (x86 data breakpoints trap after the access, so
 * this is the instruction after the one that accessed). old: the value after
 * the sampled access (or at arming); val: the value after this access.
 */
struct bs_waste_hit {
	__u32 type; /**< BS_WREC_HIT */
	__u32 slot;
	__u32 gen; /**< slot generation this hit belongs to */
	__u32 tid;
	__u32 pid;
	__u32 flags;  /**< enum bs_waste_hit_flags */
	__u32 nstack; /**< valid entries of stack[] */
	__u32 pad;
	__u64 ns;
	__u64 addr;
	__u64 ip;
	__u64 old;
	__u64 val;
	__u8 code[BS_WASTE_INSN]; /**< the BS_WASTE_INSN bytes before ip (zero if unreadable) */
	__u64 stack[BS_WASTE_STACK];
};

/** A task event of the followed tree. */
struct bs_waste_task {
	__u32 type; /**< BS_WREC_TASK */
	__u32 what; /**< enum bs_waste_task_what */
	__u32 tid;
	__u32 pid;
	__u64 ns;
};

/**
 * A SIGTRAP generated for a followed process or for benchscope itself
 * (tracepoint signal_generate). On x86 a debug trap whose DR6 bit no
 * installed breakpoint claims is sent as TRAP_HWBKPT, one with an empty DR6
 * as TRAP_BRKPT, a single step as TRAP_TRACE, an int3 as SI_KERNEL; kill()
 * and tgkill() give si_code <= 0.
 */
struct bs_waste_trap {
	__u32 type; /**< BS_WREC_TRAP */
	__u32 tid;
	__u32 pid;
	__s32 code; /**< si_code (TRAP_BRKPT 1, TRAP_TRACE 2, TRAP_HWBKPT 4, SI_USER 0 ...) */
	__u32 cpu;  /**< CPU the signal was generated on */
	__u32 pad;
	__u64 ns;	   /**< CLOCK_MONOTONIC */
	__u64 ip;	   /**< si_addr: the user ip of the trap (0 when not a fault signal) */
	__u64 virtual_dr6; /**< the task's ptrace-visible DR6 bits (0 where the kernel has none) */
};

/** bs_waste_slot.state */
enum bs_waste_slot_state {
	BS_WSLOT_FREE = 0,
	BS_WSLOT_WAIT_SELF =
	    1,		    /**< armed before the sampled access ran: its own trap comes first */
	BS_WSLOT_ARMED = 2, /**< waiting for the next access */
	BS_WSLOT_DONE = 3,  /**< next access recorded; user space will re-arm or disarm */
};

/** One watchpoint slot (array map `slots`, index = cookie of its perf event). */
struct bs_waste_slot {
	__u32 state; /**< enum bs_waste_slot_state */
	__u32 gen;
	__u64 addr;
	__u64 self_ip; /**< trap ip expected from the sampled access (its ip + length) */
	__u64 old;     /**< value after the sampled access */
	__u32 len;     /**< watched bytes: 1, 2, 4 or 8 */
	__u32 extra;   /**< traps before the sampled access (WAIT_SELF) or after DONE */
};

#endif
