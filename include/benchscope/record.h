/* SPDX-License-Identifier: MIT */
/*
 * record.h - records that cross the kernel/user boundary (BPF ring buffer).
 *
 * Included by bpf/benchscope.bpf.c (with vmlinux.h) and by user/ (with
 * <linux/types.h>). Every record starts with a 32-bit `type` tag so several
 * kinds share one ring buffer. Fields are fixed width with explicit padding;
 * the static asserts below pin the layout, and the trace stores these bytes
 * as they are (see user/trace/trace_schema.h, which records the layout in the trace).
 *
 * Units: every *_ns field is nanoseconds; timestamps are CLOCK_MONOTONIC
 * (bpf_ktime_get_ns()).
 */
#ifndef BENCHSCOPE_RECORD_H
#define BENCHSCOPE_RECORD_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define BS_COMM_LEN 16

/** Tags of the records in the ring buffer (first field of every record). */
enum bs_rec_type {
	BS_REC_ITER = 1,       /**< struct bs_iter_rec */
	BS_REC_PROC = 2,       /**< struct bs_proc_rec */
	BS_REC_BARRIER = 3,    /**< struct bs_barrier_rec (barrier ring buffer, sync duets only) */
	BS_REC_BENCH = 4,      /**< struct bs_bench_rec */
	BS_REC_LINE = 5,       /**< struct bs_line_rec (output-line boundaries only) */
	BS_REC_INTERF = 6,     /**< struct bs_interferer_charge */
	BS_REC_BENCH_ADDR = 7, /**< struct bs_bench_addr_rec (ring buffer only, never in a trace) */
};

/** bs_iter_rec.flags */
enum bs_iter_flags {
	BS_ITER_F_INVOC = 1u << 0,     /**< invocations is valid */
	BS_ITER_F_INVOC_BAD = 1u << 1, /**< invocation count read but implausible */
	BS_ITER_F_SPILLED = 1u << 2,   /**< delivered via the spill map (ring buffer was full) */
	BS_ITER_F_EXIT = 1u << 3,      /**< ended by thread exit, not by the end probe */
	BS_ITER_F_NESTED = 1u << 4, /**< a begin arrived while the iteration was open; restarted */
	BS_ITER_F_WARMUP = 1u << 5, /**< labelled warmup by the stopper (user space only) */
	BS_ITER_F_AFTER_STOP =
	    1u << 6, /**< arrived after the stopper ended its fork (user space only) */
	BS_ITER_F_MOVED = 1u << 7,  /**< Go: its goroutine ran on several threads during it;
				     *   each thread's interference while it ran it is counted */
	BS_ITER_F_PAUSED = 1u << 8, /**< Go: the benchmark stopped its timer (b.StopTimer) inside
				     *   the iteration; Go's own time leaves the pause out, the
				     *   record does not (gbench with one probe: PauseTiming;
				     *   the record begins at the last ResumeTiming) */
	BS_ITER_F_HARNESS_WARMUP = 1u << 9, /**< the harness ran it as warmup, as its probes
					     *   saw (criterion: inside Routine::warm_up) */
	BS_ITER_F_BEGIN_APPROX = 1u << 10,  /**< one probe per iteration: the thread's kept
					     *   history did not reach back to the harness's begin
					     *   (more switches than it keeps, or a thread first
					     *   seen after it): interference from the oldest
					     *   point kept, an undercount */
	BS_ITER_F_SYNTH_TIME = 1u << 11,    /**< imported (user space only): only the duration
					     *   end_ns - begin_ns was measured; the timestamps
					     *   lay the samples end to end (user/import/) */
	BS_ITER_F_NO_INTF = 1u << 12,	    /**< imported (user space only): nothing measured
					     *   the interference or the CPUs: those fields are
					     *   absent (exports leave them empty), not zero */
	BS_ITER_F_UNSEEN_SWITCH = 1u << 13, /**< the scheduler handler missed a switch of
					     *   the thread: its context-switch counts (nvcsw +
					     *   nivcsw) grew more than the switch-outs seen, or
					     *   a switch-out's switch-in was never seen; off-CPU
					     *   time is missing from the record (an undercount) */
};

/**
 * One iteration of one thread, emitted by the kernel when the iteration ends.
 *
 * duration = end_ns - begin_ns. Interference is what the thread suffered
 * between begin and end:
 *   preempted_ns  off-CPU time that started with an involuntary switch
 *                 (the thread was still runnable);
 *   blocked_ns    off-CPU time that started with a voluntary switch
 *                 (sleeping or waiting), wake-up latency included;
 *   runq_wait_ns  runnable but not running: all of preempted_ns plus the
 *                 time from wake-up to running again;
 *   irq_ns, softirq_ns  hard-IRQ / softirq handler time on the CPU while the
 *                 thread was running there (hard IRQ: device handlers,
 *                 irq_handler_entry/exit; the x86 system vectors, e.g. the
 *                 local timer and IPIs, are not counted);
 *   steal_ns      hypervisor steal time on the CPU while the thread ran
 *                 (rq->prev_steal_time_rq deltas; 0 where not accounted).
 */
struct bs_iter_rec {
	__u32 type;  /**< BS_REC_ITER */
	__u32 flags; /**< enum bs_iter_flags */
	__u64 index; /**< iteration index within its process, from 0 */
	__u32 pid;   /**< process (tgid) */
	__u32 tid;   /**< thread that began the iteration */
	__u32 cpu_begin;
	__u32 cpu_end;
	__u64 begin_ns;
	__u64 end_ns;
	__u64 invocations; /**< invocations run by the iteration (0: unknown) */
	__u64 preempted_ns;
	__u64 blocked_ns;
	__u64 runq_wait_ns;
	__u64 irq_ns;
	__u64 softirq_ns;
	__u64 steal_ns;
	__u64 sched_delay_ns; /**< kernel's own sched_info.run_delay delta (cross-check of
				 runq_wait_ns) */
	__u32 nvcsw;	      /**< voluntary context switches */
	__u32 nivcsw;	      /**< involuntary context switches (preemptions) */
	__u32 migrations;     /**< CPU migrations */
	__u32 probe;	      /**< boundary pair that delimited it (0: the first) */
};

/** Bytes of a benchmark name kept in a bs_bench_rec (the terminating NUL included). */
#define BS_BENCH_NAME_LEN 104

/**
 * The harness named the benchmark that thread `tid` of process `pid` runs
 * from ts_ns on, e.g. Go's testing.B.name read at runN's entry. Every
 * iteration of that process that begins at or after ts_ns belongs to this
 * benchmark, until the process names another one. Emitted by the preset's
 * probes, which may repeat a name (consumers merge equal names).
 */
struct bs_bench_rec {
	__u32 type;	/**< BS_REC_BENCH */
	__u32 pid;	/**< process (tgid) */
	__u32 tid;	/**< thread that named it */
	__u32 name_len; /**< length of the name in the harness, bytes (may exceed what is kept) */
	__u64 ts_ns;	/**< when the probe read it */
	char name[BS_BENCH_NAME_LEN]; /**< NUL-terminated, truncated to BS_BENCH_NAME_LEN - 1 */
};

/**
 * A benchmark name the probe found but could not read: its page was not in
 * memory, which a BPF program cannot fault in (Go's first run, now and then).
 * Ring buffer only: user space reads the bytes from the process
 * (process_vm_readv) and stores the struct bs_bench_rec they make, or counts
 * the name in bench_lost when the process can no longer be read.
 */
struct bs_bench_addr_rec {
	__u32 type;	/**< BS_REC_BENCH_ADDR */
	__u32 pid;	/**< process (tgid) */
	__u32 tid;	/**< thread that named it */
	__u32 name_len; /**< bytes at uaddr, or 0: a NUL-terminated string */
	__u64 ts_ns;	/**< when the probe found it */
	__u64 uaddr;	/**< the name's address in process pid */
};

/** Bytes of one write kept in a bs_line_rec. */
#define BS_LINE_DATA_LEN 256

/**
 * One write of a tracked process to its standard output or error (output-line
 * boundaries, --line / --begin-line / --end-line): the kernel timestamps it at
 * the write (entry of the system call, before any byte is written) and
 * copies its first BS_LINE_DATA_LEN bytes; user space splits them into lines
 * and matches the regexes (user/probe/lines.h). The same BPF program first
 * ends the writing thread's accounting segment at ts_ns (a bs_iter_rec whose
 * end_ns == ts_ns, emitted before this record) and begins the next one there.
 */
struct bs_line_rec {
	__u32 type;		     /**< BS_REC_LINE */
	__u32 pid;		     /**< process (tgid) */
	__u32 tid;		     /**< thread that wrote */
	__u32 fd;		     /**< 1: the file of its fd 1 (stdout), 2: of fd 2 (stderr) */
	__u64 ts_ns;		     /**< the write's entry, CLOCK_MONOTONIC */
	__u64 len;		     /**< bytes the write asked to write (all of its iovecs) */
	__u32 data_len;		     /**< bytes copied into data (<= BS_LINE_DATA_LEN, <= len) */
	__u32 cpu;		     /**< CPU it wrote on */
	char data[BS_LINE_DATA_LEN]; /**< the first data_len bytes, not NUL-terminated */
};

/** bs_proc_rec.kind */
enum bs_proc_kind {
	BS_PROC_FORK = 1, /**< pid was created by ppid (a new tracked process) */
	BS_PROC_EXEC = 2, /**< pid executed a new image (comm is the new one) */
	BS_PROC_EXIT = 3, /**< pid's last thread exited; exit_code as wait(2) */
};

/** A process lifecycle event of a tracked process. */
struct bs_proc_rec {
	__u32 type; /**< BS_REC_PROC */
	__u32 kind; /**< enum bs_proc_kind */
	__u32 pid;
	__u32 ppid;
	__u64 ts_ns;
	__s32 exit_code; /**< wait(2) status word, BS_PROC_EXIT only */
	__u32 _pad;
	char comm[BS_COMM_LEN];
};

/**
 * Interferer time charged by the scheduler handler: task interferer_tid ran
 * ns on a CPU while a thread of tracked process victim_pid waited for it in
 * its iteration victim_iter. User space adds up the charges of the
 * iterations that have a record per (victim_pid, victim_iter,
 * interferer_tid) into the trace's bs_interferer_rec, so a report can sum
 * those of the iterations it analyses; those of iterations that end without
 * one (Go's B with sub-benchmarks, a run ended by b.Skip, the part of a run
 * before its b.ResetTimer() or a nested restart, a lost record) are left out
 * and counted. The handler names a pair
 * (interferer_pid, comm) when it starts charging it on a CPU, and later adds its charges there in a
 * struct bs_wait_pend slot, sent as one unnamed record when the slot is reused or the victim's
 * iteration changes (or read from the slots by user space at the end of a run).
 */
struct bs_interferer_charge {
	__u32 type; /**< BS_REC_INTERF */
	__u32 victim_pid;
	__u32 interferer_tid;
	__u32 interferer_pid; /**< its process (tgid); 0: unnamed (pending time of a named pair) */
	__u32 victim_iter;    /**< low 32 bits of the index (bs_iter_rec.index) of the
			       *   iteration the victim waited in, for the presets whose
			       *   iterations are harness runs, with two probes
			       *   (bs_boundaries_charges_by_iteration); else BS_CHARGE_NO_ITER */
	__u32 _pad;
	__u64 ns;
	char comm[BS_COMM_LEN]; /**< empty when unnamed */
};

/** bs_interferer_charge.victim_iter (and bs_interferer_rec.victim_iter) when
 * the charge is not cut to an iteration: the iterations may last
 * microseconds, where a ring buffer send per iteration costs more than it
 * tells (--begin/--end, USDT), or (--probes 1) are numbered only at their
 * end. */
#define BS_CHARGE_NO_ITER 0xffffffffu

/** Charges of one interferer on one CPU not yet sent (struct bs_interferer_charge). */
struct bs_wait_pend {
	__u32 interferer_tid; /**< 0: empty slot (the idle task is never charged) */
	__u32 victim_pid;     /**< tracked process (tgid) that waited */
	__u32 victim_iter;    /**< its iteration (bs_interferer_charge.victim_iter) */
	__u32 _pad;
	__u64 ns; /**< CPU time taken since the pair entered the slot */
};

/** Pending pairs per CPU, in the waiter's two cache lines (struct bs_cpu_wait). */
#define BS_WAIT_PEND 3

/**
 * Per CPU (the BPF global `cpu_waits[cpu]`, read by user space through the
 * mmap'ed .bss at the end of a run): the tracked thread waiting for this CPU,
 * so that whoever runs here meanwhile is charged, and the last interferer
 * pairs (victim, interferer) charged here, each with the victim's iteration
 * it holds time for. A charge to a pair in `pend` only adds to its `ns` (no
 * map or ring buffer access: on a 2-vCPU AMD EPYC/PVM VM, a hash map lookup
 * of a pair not seen before took 1-24 us there), once the time of an
 * earlier iteration there is sent, unnamed; a new pair is sent named (struct
 * bs_interferer_charge) and takes the oldest slot, whose pending time is
 * sent first. An iteration's time with a pair is therefore the sum of its
 * records plus the `ns` of every slot holding both (at most one per CPU). Written only by the
 * scheduler handler of this CPU, except the waiter fields (any CPU). 128 bytes: the early exit
 * reads only victim_tid, in the first of the two cache lines.
 */
struct bs_cpu_wait {
	__u32 victim_tid; /**< waiting tracked thread; 0: none */
	__u32 _pad;
	__u64 since;  /**< CLOCK_MONOTONIC ns since which the CPU is charged */
	__u64 victim; /**< its process (tgid) | its iteration
		       *   (bs_interferer_charge.victim_iter) << 32: one store,
		       *   one load, never a mix of two waiters' */
	struct bs_wait_pend pend[BS_WAIT_PEND]; /**< newest first */
} __attribute__((aligned(64)));

/**
 * One interferer of one tracked process, or of one of its iterations, as
 * user space sums it from the charges (struct bs_interferer_charge and the
 * CPUs' pending slots) at the end of a run and stores it in the trace.
 */
struct bs_interferer_rec {
	__u32 victim_pid; /**< tracked process (tgid) that waited */
	__u32 interferer_tid;
	__u32 interferer_pid;
	__u32 victim_iter; /**< low 32 bits of the index (bs_iter_rec.index) of the
			    *   iteration it waited in, when the trace's context says
			    *   boundaries.charges "iteration"; else BS_CHARGE_NO_ITER
			    *   (0 in traces before that key: read it only with it) */
	__u64 ns;	   /**< CPU time it took while the victim waited to run */
	char comm[BS_COMM_LEN];
};

/** Drop and health counters, one slot per CPU (BPF .bss, summed by user space). */
struct bs_counters {
	__u64 iter_emitted;	 /**< iteration records written to the ring buffer */
	__u64 iter_spilled;	 /**< iteration records written to the spill map instead */
	__u64 iter_lost;	 /**< iteration records lost (ring and spill both full) */
	__u64 proc_lost;	 /**< process records lost (ring buffer full) */
	__u64 thread_map_full;	 /**< begins ignored because the thread map was full */
	__u64 end_without_begin; /**< end probes that hit with no open iteration */
	__u64 interferer_lost;	 /**< interferer charges dropped (ring buffer full) */
	__u64 barrier_lost;	 /**< barrier records lost (barrier ring buffer full) */
	__u64 bench_lost;	 /**< benchmark-name records lost (ring buffer full or bad read) */
	__u64 line_lost;       /**< output-line records lost (ring buffer full, unreadable bytes) */
	__u64 foreign_hits;    /**< probe hits in processes not measured: uprobes and USDT
				*   probes are set on the file, for every process that maps
				*   it; another run of the same binary pays the trap, and
				*   nothing of it is recorded */
	__u64 switches_unseen; /**< switch-outs and switch-ins of in-iteration threads the
				*   scheduler handler did not see (records flagged
				*   BS_ITER_F_UNSEEN_SWITCH) */
	__u64 proc_map_full;   /**< processes forked by measured ones and not measured: the
				*   process map was full */
};

/** Modes of the duet barrier (the BPF global bar_active). */
enum bs_barrier_mode {
	BS_BAR_OFF = 0,
	BS_BAR_SYNC = 1,	/**< sync duet: the sides begin every iteration together */
	BS_BAR_INTERLEAVED = 2, /**< the sides take turns: A's iteration k, then B's k,
				 *   then A's k + 1...; never both at once */
};

/** bs_barrier_rec.kind */
enum bs_barrier_kind {
	BS_BARRIER_WAIT = 1,	      /**< side arrived first and stopped itself (SIGSTOP) */
	BS_BARRIER_RELEASE = 2,	      /**< both sides reached `index`; nobody had to be continued */
	BS_BARRIER_RELEASE_CONT = 3,  /**< both reached `index` (interleaved: the side
				       *   ended the iteration the other waits for); the
				       *   other side is stopped: user space must SIGCONT
				       *   other_pid (forced wake-up) */
	BS_BARRIER_RESUME = 4,	      /**< a stopped side ran again; its iteration was re-stamped
				       *   to begin at ts_ns */
	BS_BARRIER_RELEASE_KCONT = 5, /**< as RELEASE_CONT, but BPF continued other_pid itself
				       *   (bpf_send_signal_task, kernels 6.13+): user space
				       *   sends nothing (no wake-up) */
};

/**
 * A sync-duet barrier event (Drozdík 2023 §2-4): iteration `index` (0-based
 * count of the side's iteration begins in this run) of side A and of side B
 * start together. The side that arrives first stops itself; the second one
 * releases it. These records travel in their own small ring buffer and are
 * control messages, not stored in the trace (the duet_run event summarises
 * them).
 */
struct bs_barrier_rec {
	__u32 type;	/**< BS_REC_BARRIER */
	__u32 kind;	/**< enum bs_barrier_kind */
	__u32 gen;	/**< barrier generation (one per sync run), set by user space */
	__u32 side;	/**< side that emitted it: 0 A, 1 B */
	__u64 index;	/**< rendezvous index within the run, from 0 */
	__u64 ts_ns;	/**< WAIT, RELEASE*: the emitter's iteration begin; RESUME: the new begin */
	__u64 other_ns; /**< RELEASE*: the other side's begin as it arrived (before any stop) */
	__u32 pid;	/**< emitting process (tgid) */
	__u32 other_pid; /**< RELEASE*: the other side's process */
};

#ifndef __VMLINUX_H__
_Static_assert(sizeof(struct bs_barrier_rec) == 48, "bs_barrier_rec layout");
_Static_assert(sizeof(struct bs_iter_rec) == 128, "bs_iter_rec layout");
_Static_assert(sizeof(struct bs_proc_rec) == 48, "bs_proc_rec layout");
_Static_assert(sizeof(struct bs_bench_rec) == 128, "bs_bench_rec layout");
_Static_assert(sizeof(struct bs_bench_addr_rec) == 32, "bs_bench_addr_rec layout");
_Static_assert(sizeof(struct bs_line_rec) == 296, "bs_line_rec layout");
_Static_assert(sizeof(struct bs_interferer_rec) == 40, "bs_interferer_rec layout");
_Static_assert(sizeof(struct bs_interferer_charge) == 48, "bs_interferer_charge layout");
_Static_assert(sizeof(struct bs_cpu_wait) == 128, "bs_cpu_wait layout");
#endif

#endif /* BENCHSCOPE_RECORD_H */
