// SPDX-License-Identifier: GPL-2.0
/*
 * kcont.bpf.c - continue a side stopped at the duet barrier from BPF.
 *
 * The boundary programs (uprobe, USDT) decide a release but may not call
 * the kfuncs that signal another process: the kernel offers them to tracing
 * programs (tp_btf, fentry), not to kprobe-type ones. So a boundary program
 * that claims a stopped side's wait leaves the release in this CPU's
 * kcont_pend slot and rings a doorbell: it sends its own thread
 * BS_KCONT_DOORBELL, a signal the harness ignores (the kernel drops it
 * without queueing it, but traces its generation). The program below runs
 * on that signal_generate tracepoint, synchronously inside the boundary
 * program's bpf_send_signal_thread, in the releasing thread: it sends
 * SIGCONT to the stopped side's process with bpf_send_signal_task (kernels
 * 6.13+) and emits the release record without waking user space
 * (BS_BARRIER_RELEASE_KCONT). If the signal cannot be sent, the record is
 * the force-woken BS_BARRIER_RELEASE_CONT on which user space sends it, as
 * without this program.
 *
 * The tracepoint fires under the target's siglock (IRQs off), where the
 * kfunc queues the signal to a per-CPU irq_work that runs as soon as the
 * lock is dropped, still before the boundary program returns; it fails
 * with -EBUSY while that irq_work is pending from an earlier signal, and
 * then user space sends it. User space loads this object only when the
 * kernel's BTF has the kfuncs, sharing the maps of benchscope.bpf.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "benchscope/maps.h"
#include "benchscope/record.h"

char LICENSE[] SEC("license") = "GPL";

#define SIGCONT		  18
#define BS_KCONT_DOORBELL 28	     /* SIGWINCH, as in barrier.bpf.h */
#define BRB_WAKE_BYTES	  (16 << 10) /* as in barrier.bpf.h */

#ifndef bpf_ksym_exists
#define bpf_ksym_exists(sym) (!!(sym))
#endif

extern struct task_struct *bpf_task_from_pid(s32 pid) __ksym __weak;
extern void bpf_task_release(struct task_struct *p) __ksym __weak;
extern int bpf_send_signal_task(struct task_struct *task, int sig, enum pid_type type,
				u64 value) __ksym __weak;

#include "shared_maps.bpf.h" /* user space points them at benchscope.bpf.c's */

SEC("tp_btf/signal_generate")
int BPF_PROG(kcont_doorbell, int sig, struct kernel_siginfo *info, struct task_struct *task,
	     int group, int result)
{
	__u32 zero = 0;
	struct bs_kcont_pend *p = bpf_map_lookup_elem(&kcont_pend, &zero);
	struct bs_counters *c;
	struct task_struct *t;
	__u64 wake = BPF_RB_FORCE_WAKEUP;
	int err = -1;

	/* every signal of the machine passes here: only our doorbell counts */
	if (!p || !p->valid || sig != BS_KCONT_DOORBELL || task->pid != (int)p->tid)
		return 0;
	p->valid = 0;
	if (bpf_ksym_exists(bpf_send_signal_task) && bpf_ksym_exists(bpf_task_from_pid) &&
	    bpf_ksym_exists(bpf_task_release)) {
		t = bpf_task_from_pid((s32)p->rec.other_pid);
		if (t) {
			err = bpf_send_signal_task(t, SIGCONT, PIDTYPE_TGID, 0);
			bpf_task_release(t);
		}
	}
	if (!err) {
		p->rec.kind = BS_BARRIER_RELEASE_KCONT;
		wake = bpf_ringbuf_query(&brb, BPF_RB_AVAIL_DATA) >= BRB_WAKE_BYTES
			   ? BPF_RB_FORCE_WAKEUP
			   : BPF_RB_NO_WAKEUP;
	}
	if (bpf_ringbuf_output(&brb, &p->rec, sizeof(p->rec), wake) &&
	    (c = bpf_map_lookup_elem(&counters, &zero)))
		c->barrier_lost++;
	return 0;
}
