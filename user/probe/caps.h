/* SPDX-License-Identifier: MIT */
/*
 * caps.h - what this machine can do for benchscope, measured rather than
 * guessed: one probe per capability, shared by `benchscope doctor` (all of
 * them) and by every subcommand (the ones it needs, at start).
 *
 * Machines differ in ways a version number does not show: on an AMD EPYC
 * guest under PVM, user-space hardware watchpoints open without error and
 * never fire; a kernel may lack steal accounting; probe costs differ 20x.
 * So each probe does the thing itself (arms a watchpoint and writes to it,
 * loads the BPF object, times probe hits) and says what it found.
 */
#ifndef BENCHSCOPE_CAPS_H
#define BENCHSCOPE_CAPS_H

#include <stdbool.h>
#include <stddef.h>

/** The capabilities, in the order `doctor` prints them. */
enum bs_cap_id {
	BS_CAP_KERNEL,	     /**< kernel release (information) */
	BS_CAP_BTF,	     /**< /sys/kernel/btf/vmlinux readable */
	BS_CAP_PRIV_BPF,     /**< CAP_BPF (or CAP_SYS_ADMIN) in the effective set */
	BS_CAP_PRIV_PERFMON, /**< CAP_PERFMON (or CAP_SYS_ADMIN) in the effective set */
	BS_CAP_PRIV_UPROBE,  /**< the kernel lets this process open uprobes (CAP_SYS_ADMIN, or
			      *   CAP_PERFMON where the kernel takes it for uprobes) */
	BS_CAP_PARANOID,     /**< kernel.perf_event_paranoid (information) */
	BS_CAP_UNPRIV_BPF,   /**< kernel.unprivileged_bpf_disabled (information) */
	BS_CAP_LOCKDOWN,     /**< kernel lockdown: none, or integrity (BPF reads of kernel memory
				allowed) */
	BS_CAP_HYPERVISOR,   /**< the hypervisor, or bare metal (information) */
	BS_CAP_CPU,	     /**< vendor, model, CPUs, SMT (information) */
	BS_CAP_BPF_LOAD,     /**< benchscope's BPF object (uprobe, USDT, tp_btf programs) loads and
				attaches */
	BS_CAP_RINGBUF,	     /**< BPF_MAP_TYPE_RINGBUF */
	BS_CAP_TASK_STORAGE, /**< BPF_MAP_TYPE_TASK_STORAGE (information: not used) */
	BS_CAP_UPROBE,	     /**< a uprobe hit works; its cost (ns) */
	BS_CAP_URETPROBE,    /**< a uretprobe hit works; its cost (ns) */
	BS_CAP_USDT,	     /**< a USDT hit works; its cost (ns) */
	BS_CAP_URETPROBE_SYSCALL, /**< the kernel returns from uretprobes through sys_uretprobe */
	BS_CAP_UPROBE_NOP5,	  /**< the kernel optimises uprobes on nop5 sites (sys_uprobe) */
	BS_CAP_WATCHPOINTS, /**< a user-space hardware watchpoint armed like waste arms it fires */
	BS_CAP_PEBS,	    /**< Intel precise mem-loads/mem-stores with the data address */
	BS_CAP_IBS,	    /**< AMD IBS op sampling (the ibs_op PMU) */
	BS_CAP_STEAL, /**< the run queue's steal clock exists (CONFIG_PARAVIRT_TIME_ACCOUNTING) */
	BS_CAP_STEAL_MOVING, /**< steal time grew in /proc/stat over the probe's interval
				(information) */
	BS_CAP_SCHED_INFO,   /**< task sched_info.run_delay (the sched_delay_ns cross-check) */
	BS_CAP_SCHEDSTATS,   /**< kernel.sched_schedstats (information: not used) */
	BS_CAP_N
};

/** A probe's answer. */
enum bs_cap_state {
	BS_CAP_NO = 0,	    /**< lacking: what depends on it is refused or degraded */
	BS_CAP_YES = 1,	    /**< works (measured where it can be) */
	BS_CAP_INFO = 2,    /**< a fact, neither good nor bad (kernel, hypervisor, ...) */
	BS_CAP_UNKNOWN = 3, /**< could not be probed (e.g. an earlier probe failed) */
};

struct bs_cap {
	enum bs_cap_id id;
	enum bs_cap_state state;
	double value;	  /**< the figure when it is a number (ns, count), else NAN */
	char figure[192]; /**< what was found, in words and units */
};

/** Static facts of a capability: its JSON key, label, and who depends on it. */
struct bs_cap_info {
	const char *key;     /**< JSON key, e.g. "watchpoints" */
	const char *label;   /**< table label, e.g. "hardware watchpoints fire" */
	const char *used_by; /**< subcommands and options that depend on it ("" for none) */
	bool essential;	     /**< run and duet cannot work without it */
	const char *lacking; /**< the refusal's words when it is lacking, e.g. "no kernel BTF" */
};

/** The static facts of @id (never NULL for id < BS_CAP_N). */
const struct bs_cap_info *bs_cap_info(enum bs_cap_id id);

/**
 * bs_cap_probe - probe one capability that needs no BPF object of ours
 * (every id but BS_CAP_BPF_LOAD, RINGBUF, TASK_STORAGE, UPROBE, URETPROBE,
 * USDT: those are bs_caps_probe_bpf()'s). BS_CAP_STEAL_MOVING sleeps
 * 0.5 s; BS_CAP_WATCHPOINTS writes 1000 times to an armed watchpoint.
 * Fills @out; returns out->state.
 */
enum bs_cap_state bs_cap_probe(enum bs_cap_id id, struct bs_cap *out);

/**
 * bs_caps_probe_bpf - load and attach benchscope's BPF object (no
 * boundaries), then time @calls hits of each probe kind over @rounds rounds
 * (the median; calibrate.h). Fills caps[BS_CAP_BPF_LOAD], [RINGBUF],
 * [TASK_STORAGE], [UPROBE], [URETPROBE], [USDT] of the array @caps
 * (BS_CAP_N entries). Returns 0 when the object loaded, else -errno.
 */
int bs_caps_probe_bpf(struct bs_cap *caps, int calls, int rounds);

/**
 * bs_hypervisor_name - the hypervisor this kernel runs under, in @buf
 * (with @detail, where the name came from and the CPUID signature):
 * the kernel's own word ("Hypervisor detected: X" in its log, which knows
 * paravirtual ones such as PVM that the user-visible CPUID signature hides)
 * when readable, else the CPUID leaf 0x40000000 signature (KVM, Xen,
 * Hyper-V, VMware, QEMU TCG, bhyve, ...), "Firecracker" when its init is on
 * the kernel command line, "none (bare metal)" without the CPUID
 * hypervisor bit. Returns @buf.
 */
const char *bs_hypervisor_name(char *buf, size_t len, bool detail);

/**
 * bs_hypervisor_guest - on a virtual machine (the CPUID hypervisor bit),
 * its hypervisor's name in @buf as bs_hypervisor_name without detail, and
 * returns @buf; on bare metal returns NULL.
 */
const char *bs_hypervisor_guest(char *buf, size_t len);

/**
 * bs_caps_require - check, at a subcommand's start, the capabilities @ids
 * (@n of them, no BPF-object ones) that @cmd needs. When any is lacking,
 * prints one line "benchscope CMD: <what is lacking>: <what the probe
 * found>[; <the next one> ...]; CMD needs it (see benchscope doctor)" on
 * stderr and returns BS_EXIT_UNSUPPORTED (6); returns 0 when all work.
 */
int bs_caps_require(const char *cmd, const enum bs_cap_id *ids, size_t n);

/**
 * bs_caps_kernel_accounting - what BS_CAP_STEAL and BS_CAP_SCHED_INFO
 * would say (YES: true), from one load of the kernel's BTF (~50 ms), for
 * the context of every trace.
 */
void bs_caps_kernel_accounting(bool *steal, bool *sched_info);

/** What every subcommand that loads BPF needs: BTF, CAP_BPF, CAP_PERFMON, no lockdown. */
extern const enum bs_cap_id bs_caps_bpf_tracing[4];

#endif
