// SPDX-License-Identifier: MIT
/* waste/events.c - the ring-buffer records: samples, hits, tasks (see waste/events.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "benchscope/waste_record.h"
#include "util/monotime.h"
#include "waste/class.h"
#include "waste/decode.h"
#include "waste/events.h"
#include "waste/freeze.h"
#include "waste/perf_sample.h"
#include "waste/report.h"
#include "waste/sym.h"
#include "waste/threads.h"
#include "waste/watch.h"

/* ---- symbolization ------------------------------------------------------------ */

static long make_ctx(struct bs_waste_run *w, pid_t pid, uint64_t leaf, int leaf_is_ret,
		     const __u64 *stack, uint32_t n)
{
	char buf[4096], fr[512];
	size_t len = 0;
	uint32_t i;
	int is_new;
	long id;

	bs_waste_sym_frame(w->sym, pid, leaf, leaf_is_ret, fr, sizeof(fr));
	len = (size_t)snprintf(buf, sizeof(buf), "%s", fr);
	for (i = 1; i < n && i < BS_WASTE_STACK && len < sizeof(buf) - 1; i++) {
		char *p;

		bs_waste_sym_frame(w->sym, pid, stack[i], 1, fr, sizeof(fr));
		/* in no module and no JIT map: the frame-pointer walk went astray
		 * (code built without frame pointers); what follows is noise */
		if (!strncmp(fr, "[0x", 3))
			break;
		for (p = fr; *p; p++)
			if (*p == ';')
				*p = ':';
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, ";%s", fr);
	}
	id = bs_waste_ctx_intern(&w->res.ctx, buf, &is_new);
	if (id >= 0 && is_new && w->tw)
		bs_waste_trace_ctx(w->tw, (uint32_t)id, buf);
	return id;
}

/* ---- records -------------------------------------------------------------------- */

struct code_ctx {
	pid_t pid;
	const struct bs_waste_sample *s;
};

/* Code bytes of the sampled process (the sample's own copy at its ip first). */
static long read_code(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	struct code_ctx *c = ctx;
	struct iovec l = {buf, len}, r = {(void *)(uintptr_t)addr, len};
	ssize_t n = process_vm_readv(c->pid, &l, 1, &r, 1, 0);

	if (n <= 0 && addr == c->s->regs.ip) {
		n = len < BS_WASTE_INSN ? (ssize_t)len : BS_WASTE_INSN;
		memcpy(buf, c->s->insn, (size_t)n);
	}
	return n;
}

/*
 * A PMU sample's access: the PMU's ip and data address (PEBS, IBS: the
 * kernel's PERF_SAMPLE_ADDR, which IBS fills from IBS_DC_LINADDR), size and
 * direction from the instruction at the ip (waste/perf_sample.h).
 */
static int pmu_access(struct bs_waste_run *w, const struct bs_waste_sample *s,
		      struct bs_waste_access *acc)
{
	struct bs_waste_pmu_sample ps = {.pid = s->pid,
					 .tid = s->tid,
					 .ip = s->regs.ip,
					 .addr = s->addr,
					 .ip_valid = true,
					 .addr_valid = s->addr != 0};
	struct bs_waste_access insn;
	int err = bs_waste_decode_at(w->dec, s->insn, sizeof(s->insn), s->regs.ip, &s->regs, &insn);

	return bs_waste_pmu_access(&ps, err ? NULL : &insn, acc);
}

static void on_sample_rec(struct bs_waste_run *w, const struct bs_waste_sample *s)
{
	struct bs_waste_thread *t = bs_waste_find_thread(w, (pid_t)s->tid);
	struct bs_waste_access acc = {0};
	struct bs_waste_slot slot = {0};
	enum bs_waste_watch watch;
	uint64_t waddr, val = 0, addr;
	uint32_t wlen, key;
	int r, err = 0, k;
	bool stopped;

	uint64_t t_recv = bs_mono_ns();

	w->c.samples++;
	if (bs_waste_debug) {
		char path[96], buf[256] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%u/task/%u/syscall", s->pid, s->tid);
		f = fopen(path, "re");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = 0;
			fclose(f);
		}
		buf[strcspn(buf, "\n")] = 0;
		fprintf(stderr, "latency recv %.1f us, stopped after %.1f us ip %llx at stop: %s\n",
			(double)(t_recv - s->ns) / 1e3, (double)(bs_mono_ns() - t_recv) / 1e3,
			(unsigned long long)s->regs.ip, buf);
	}
	if (t && s->insn_ok) {
		struct code_ctx cc = {(pid_t)s->pid, s};

		if (bs_waste_source_is_pmu(w->src))
			err = pmu_access(w, s, &acc);
		else
			err =
			    bs_waste_decode_next(w->dec, read_code, &cc, &s->regs, 64,
						 (int)(bs_waste_xorshift(&w->rng) % 8), &acc, NULL);
	}
	if (bs_waste_debug && err) {
		struct bs_waste_access a0;

		bs_waste_decode_at(w->dec, s->insn, sizeof(s->insn), s->regs.ip, NULL, &a0);
		fprintf(stderr, "at ip: %s\n", a0.text);
	}
	if (bs_waste_debug)
		fprintf(stderr, "sample %d ip %llx: %s %s addr %llx size %u load %d store %d\n",
			(int)s->tid, (unsigned long long)s->regs.ip, err ? strerror(-err) : "ok",
			acc.text, (unsigned long long)acc.addr, acc.size, acc.load, acc.store);
	if (!t || !s->insn_ok || err) {
		bs_waste_resume(w, s);
		return;
	}
	addr = acc.addr;
	watch = bs_waste_watch_for(w->a->kinds, acc.load, acc.store);
	if (watch == BS_WATCH_NONE || !addr) {
		bs_waste_resume(w, s);
		return;
	}
	w->c.samples_access++;
	bs_waste_watch_range(addr, acc.size, &waddr, &wlen);
	if (!wlen || bs_waste_read_mem((pid_t)s->pid, waddr, &val, wlen)) {
		w->c.unreadable++;
		bs_waste_resume(w, s);
		return;
	}
	r = bs_waste_reservoir_pick(&t->res);
	if (r < 0) {
		w->c.reservoir_drops++;
		bs_waste_resume(w, s);
		return;
	}
	key = (uint32_t)((t - w->th) * BS_WASTE_NREGS + r);
	if (t->pend[r].on) {
		bs_waste_disarm_bp(t->bfd[r]);
		w->c.unresolved++;
		t->pend[r].on = false;
	}
	slot.state = s->frozen ? BS_WSLOT_WAIT_SELF : BS_WSLOT_ARMED;
	slot.gen = t->pend[r].gen + 1;
	slot.addr = waddr;
	slot.len = wlen;
	slot.self_ip = acc.ip + acc.ilen;
	slot.old = val;
	bs_waste_set_slot(w, key, &slot);
	err = bs_waste_arm_bp(t->bfd[r], waddr, wlen, watch);
	stopped = bs_waste_resume(w, s);
	if (err || !stopped) {
		if (err)
			w->c.arm_errors++;
		else /* the thread ran on past the sampled access: the value read
		      * and the watchpoint armed may be of a later one */
			bs_waste_disarm_bp(t->bfd[r]);
		slot.state = BS_WSLOT_FREE;
		bs_waste_set_slot(w, key, &slot);
		bs_waste_reservoir_release(&t->res, r);
		return;
	}
	w->c.armed++;
	for (k = 0; k < BS_WK_N; k++)
		if ((w->a->kinds & (1u << k)) &&
		    ((k == BS_WK_SILENT_LOAD) ? (acc.load && !acc.store) : acc.store))
			w->res.agg.total[k].samples++;
	t->pend[r] = (struct bs_waste_pending){.on = true,
					       .gen = slot.gen,
					       .watch = watch,
					       .wlen = wlen,
					       .waddr = waddr,
					       .acc = acc,
					       .ns = s->ns};
	t->pend[r].ctx1 = make_ctx(w, (pid_t)s->pid, acc.ip, 0, s->stack, s->nstack);
}

static int decode_trap(struct bs_waste_run *w, const struct bs_waste_hit *h,
		       struct bs_waste_access *acc)
{
	uint64_t fs = bs_waste_sym_func_start(w->sym, (pid_t)h->pid, h->ip - 1);
	uint8_t code[4096];

	if (fs && fs < h->ip && h->ip - fs <= sizeof(code) &&
	    bs_waste_read_mem((pid_t)h->pid, fs, code, h->ip - fs) == 0 &&
	    bs_waste_decode_before(w->dec, code, h->ip - fs, h->ip, fs, acc) == 0)
		return 0;
	return bs_waste_decode_before(w->dec, h->code, sizeof(h->code), h->ip, 0, acc);
}

static void on_hit_rec(struct bs_waste_run *w, const struct bs_waste_hit *h)
{
	uint32_t ti = h->slot / BS_WASTE_NREGS, r = h->slot % BS_WASTE_NREGS;
	struct bs_waste_thread *t = ti < BS_WASTE_MAX_THREADS ? &w->th[ti] : NULL;
	struct bs_waste_pending *p;
	struct bs_waste_access acc;
	struct bs_waste_acc first, next;
	struct bs_waste_outcome out[BS_WK_N];
	struct bs_waste_slot slot = {0};
	int n, i, dec;
	long ctx2;

	w->c.hits++;
	if (!t || !t->used || r >= (uint32_t)t->nbp || !t->pend[r].on || t->pend[r].gen != h->gen) {
		w->c.stale_hits++;
		return;
	}
	p = &t->pend[r];
	bs_waste_disarm_bp(t->bfd[r]);
	slot.gen = p->gen;
	bs_waste_set_slot(w, h->slot, &slot);
	p->on = false;
	bs_waste_reservoir_release(&t->res, (int)r);
	if ((h->flags & BS_WHIT_NOSELF) || (h->flags & BS_WHIT_NOVALUE)) {
		w->c.noself++;
		return;
	}
	dec = decode_trap(w, h, &acc);
	if (bs_waste_debug)
		fprintf(stderr, "hit tid %u ip %llx old %llx val %llx dt %llu dec %d %s\n", h->tid,
			(unsigned long long)h->ip, (unsigned long long)h->old,
			(unsigned long long)h->val, (unsigned long long)(h->ns - p->ns), dec,
			dec ? "" : acc.text);
	if (dec)
		w->c.undecoded++;
	first = (struct bs_waste_acc){true, p->acc.load, p->acc.store, p->acc.fp};
	next = (struct bs_waste_acc){dec == 0, dec == 0 && acc.load, dec == 0 && acc.store,
				     dec == 0 ? acc.fp : 0};
	n = bs_waste_classify(w->a->kinds, p->watch, &first, &next, h->old, h->val, p->wlen,
			      w->a->fp_tol, out);
	if (!n) {
		w->c.unresolved++;
		return;
	}
	w->c.resolved_hits++;
	ctx2 = make_ctx(w, (pid_t)h->pid, dec == 0 ? acc.ip : h->ip, dec != 0, h->stack, h->nstack);
	if (p->ctx1 < 0 || ctx2 < 0)
		return;
	for (i = 0; i < n; i++) {
		bs_waste_agg_add(&w->res.agg, &out[i], p->wlen, (uint32_t)p->ctx1, (uint32_t)ctx2);
		if (w->tw)
			bs_waste_trace_pair(w->tw, &out[i], p->wlen, (uint32_t)p->ctx1,
					    (uint32_t)ctx2, h->tid, h->ns);
	}
}

/* si_code values of a SIGTRAP (include/uapi/asm-generic/siginfo.h) */
#define SI_KERNEL_CODE	 0x80
#define TRAP_BRKPT_CODE	 1
#define TRAP_TRACE_CODE	 2
#define TRAP_HWBKPT_CODE 4

void bs_waste_trap_describe(const struct bs_waste_trap *t, char *buf, size_t len)
{
	const char *what;

	switch (t->code) {
	case TRAP_HWBKPT_CODE:
		what = "a debug trap whose DR6 bit no installed breakpoint claimed (TRAP_HWBKPT)";
		break;
	case TRAP_BRKPT_CODE:
		what = "a debug trap with an empty DR6 (TRAP_BRKPT)";
		break;
	case TRAP_TRACE_CODE:
		what = "a single step (TRAP_TRACE)";
		break;
	case SI_KERNEL_CODE:
		what = "an int3 instruction (SI_KERNEL)";
		break;
	default:
		what = t->code <= 0 ? "sent by a process (kill or tgkill)" : "a trap";
	}
	snprintf(buf, len, "%s, si_code %d, thread %u, ip 0x%llx, CPU %u, ptrace DR6 0x%llx", what,
		 (int)t->code, t->tid, (unsigned long long)t->ip, t->cpu,
		 (unsigned long long)t->virtual_dr6);
}

static void on_trap_rec(struct bs_waste_run *w, const struct bs_waste_trap *t)
{
	char why[320];

	if ((pid_t)t->pid == getpid()) {
		w->c.sigtraps_self++;
		return;
	}
	if (t->code <= 0)
		return; /* sent by a process (kill, tgkill): not a trap */
	if (!w->c.sigtraps_program++)
		w->first_trap = *t;
	if (bs_waste_debug) {
		bs_waste_trap_describe(t, why, sizeof(why));
		fprintf(stderr, "SIGTRAP to %u: %s\n", t->pid, why);
	}
}

static void on_task_rec(struct bs_waste_run *w, const struct bs_waste_task *e)
{
	struct bs_waste_thread *t;
	int i, r;

	switch (e->what) {
	case BS_WTASK_NEW:
		if (bs_waste_debug) {
			char path[64], comm[64] = "";
			FILE *f;

			snprintf(path, sizeof(path), "/proc/%u/comm", e->tid);
			f = fopen(path, "re");
			if (f) {
				if (!fgets(comm, sizeof(comm), f))
					comm[0] = 0;
				fclose(f);
			}
			fprintf(stderr, "new task %u of %u: %s", e->tid, e->pid, comm);
		}
		i = bs_waste_add_thread(w, (pid_t)e->tid, (pid_t)e->pid);
		if (i == -ESRCH) {
			w->c.gone_early++; /* exited before we could open its events */
		} else if (i) {
			w->c.threads_unfollowed++; /* counted, and warned about at the end */
			if (!w->a->quiet)	   /* status: on a terminal only */
				bs_progress_note(&w->prog, "benchscope waste: %s", w->err);
		}
		break;
	case BS_WTASK_EXEC:
		/* a new address space: pending watchpoints of the process are void */
		for (i = 0; i < BS_WASTE_MAX_THREADS; i++) {
			t = &w->th[i];
			if (t->used && t->pid == (pid_t)e->pid)
				for (r = 0; r < t->nbp; r++)
					if (t->pend[r].on)
						bs_waste_free_slot(w, t, r);
		}
		bs_waste_sym_forget(w->sym, (pid_t)e->pid);
		break;
	case BS_WTASK_EXIT:
		if (bs_waste_debug)
			fprintf(stderr, "exit of task %u of %u\n", e->tid, e->pid);
		if ((pid_t)e->tid == w->root && !w->root_exit_ns)
			w->root_exit_ns = e->ns;
		t = bs_waste_find_thread(w, (pid_t)e->tid);
		if (t)
			bs_waste_drop_thread(w, t);
		break;
	}
}

int bs_waste_on_record(void *ctx, void *data, size_t len)
{
	struct bs_waste_run *w = ctx;
	uint32_t type = len >= 4 ? *(const uint32_t *)data : 0;

	if (type == BS_WREC_SAMPLE && len >= sizeof(struct bs_waste_sample))
		on_sample_rec(w, data);
	else if (type == BS_WREC_HIT && len >= sizeof(struct bs_waste_hit))
		on_hit_rec(w, data);
	else if (type == BS_WREC_TASK && len >= sizeof(struct bs_waste_task))
		on_task_rec(w, data);
	else if (type == BS_WREC_TRAP && len >= sizeof(struct bs_waste_trap))
		on_trap_rec(w, data);
	return 0;
}
