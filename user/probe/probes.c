// SPDX-License-Identifier: MIT
/* probes.c - load, configure and attach the BPF programs; read back their state. */
#include "probe/probes.h"
#include "probe/criterion_probes.h"
#include "benchscope/maps.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchscope.skel.h" /* after benchscope/maps.h: struct bs_cpu_wait */
#include "kcont.skel.h"

/* libbpf's messages: printed when verbose; otherwise the last warnings are
 * kept so that a load failure can show the verifier's reason. */
static bool libbpf_verbose;
static char libbpf_last[4096];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (libbpf_verbose)
		return vfprintf(stderr, fmt, ap);
	if (level == LIBBPF_WARN) {
		size_t len = strlen(libbpf_last);
		if (len > sizeof(libbpf_last) - 512)
			len = 0; /* keep the newest */
		vsnprintf(libbpf_last + len, sizeof(libbpf_last) - len, fmt, ap);
	}
	return 0;
}

static int add_link(struct bs_probes *p, struct bpf_link *l, const char *desc)
{
	struct bpf_link **nl = realloc(p->links, (p->n_links + 1) * sizeof(*nl));
	char **na;

	if (!nl) {
		bpf_link__destroy(l);
		return -ENOMEM;
	}
	p->links = nl;
	p->links[p->n_links++] = l;
	if (!desc)
		return 0;
	na = realloc(p->attached, (p->n_attached + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	p->attached = na;
	p->attached[p->n_attached] = strdup(desc);
	if (!p->attached[p->n_attached])
		return -ENOMEM;
	p->n_attached++;
	return 0;
}

int bs_probes_attach_uprobe(struct bs_probes *p, struct bpf_program *prog, const char *path,
			    uint64_t off, bool ret, uint64_t cookie, const char *desc, bool list,
			    char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uo, .retprobe = ret, .bpf_cookie = cookie);
	struct bpf_link *l = bpf_program__attach_uprobe_opts(prog, -1, path, off, &uo);

	if (!l) {
		int e = errno;

		if (desc)
			snprintf(err, errlen, "cannot attach %s: %s", desc, strerror(e));
		else
			snprintf(err, errlen, "cannot attach %s at %s+0x%llx: %s",
				 bpf_program__name(prog), path, (unsigned long long)off,
				 strerror(e));
		return -e;
	}
	return add_link(p, l, list ? desc : NULL);
}

static int attach_auto(struct bs_probes *p, struct bpf_program *prog, char *err, size_t errlen)
{
	struct bpf_link *l = bpf_program__attach(prog);

	if (!l) {
		int e = errno;
		snprintf(err, errlen, "cannot attach %s: %s", bpf_program__name(prog), strerror(e));
		return -e;
	}
	return add_link(p, l, NULL);
}

/* The verifier's reason: the first line of the load log, else the last message. */
static const char *load_reason(char *s)
{
	char *p = strstr(s, "-- BEGIN PROG LOAD LOG --\n"), *nl;

	if (p)
		s = p + strlen("-- BEGIN PROG LOAD LOG --\n");
	else
		while ((nl = strchr(s, '\n')) && nl[1])
			s = nl + 1;
	if ((nl = strchr(s, '\n')))
		*nl = 0;
	return s;
}

/* Output-line boundaries: the write program loads only when used (it runs
 * at every system call of the machine). */
static void lines_configure(struct benchscope_bpf *skel, bool on)
{
	skel->rodata->cfg_lines = on;
	bpf_program__set_autoload(skel->progs.line_sys_enter, on);
}

int bs_probes_load(struct bs_probes *p, const struct bs_boundaries *b,
		   const struct bs_probes_opts *opts, char *err, size_t errlen)
{
	struct benchscope_bpf *skel;
	int rc;

	memset(p, 0, sizeof(*p));
	p->stats_fd = -1;
	libbpf_verbose = opts->verbose;
	libbpf_last[0] = 0;
	libbpf_set_print(libbpf_print);
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(err, errlen,
			 "the kernel has no BTF (/sys/kernel/btf/vmlinux): benchscope needs a "
			 "kernel built with CONFIG_DEBUG_INFO_BTF=y");
		return -ENOTSUP;
	}
	skel = benchscope_bpf__open();
	if (!skel) {
		rc = -errno;
		snprintf(err, errlen, "cannot open the BPF object: %s", strerror(-rc));
		return rc;
	}
	p->skel = skel;
	if (opts->ringbuf_bytes) {
		bpf_map__set_max_entries(skel->maps.rb, (__u32)opts->ringbuf_bytes);
		skel->rodata->cfg_wakeup_bytes = opts->ringbuf_bytes / 8;
	}
	skel->rodata->cfg_interferers = opts->interferers;
	if (b->mode == BS_BOUND_GBENCH) {
		skel->rodata->cfg_gbench = true;
		skel->rodata->cfg_gb_off_max_iter = b->layout.off_max_iterations;
		skel->rodata->cfg_gb_off_started = b->layout.off_started;
		skel->rodata->cfg_gb_off_finished = b->layout.off_finished;
		skel->rodata->cfg_gb_off_timer = b->layout.off_timer;
		skel->rodata->cfg_gb_tt_start_real = b->layout.tt_start_real;
		skel->rodata->cfg_gb_tt_real_used = b->layout.tt_real_used;
		skel->rodata->cfg_one_probe = b->probes == 1;
	}
	if (b->mode == BS_BOUND_GO) {
		skel->rodata->cfg_go = true;
		skel->rodata->cfg_go_off_name = b->go_layout.off_name;
		skel->rodata->cfg_go_off_n = b->go_layout.off_n;
		skel->rodata->cfg_go_off_has_sub = b->go_layout.off_has_sub;
		skel->rodata->cfg_go_off_timer_on = b->go_layout.off_timer_on;
		skel->rodata->cfg_go_str_ptr = b->go_layout.str_ptr;
		skel->rodata->cfg_go_str_len = b->go_layout.str_len;
		skel->rodata->cfg_go_tls_g = b->go_layout.tls_g;
		if (b->probes == 1) { /* the end probe reads testing.B.start (gobench.h) */
			skel->rodata->cfg_one_probe = true;
			skel->rodata->cfg_go_off_start = b->go_layout.off_start;
			skel->rodata->cfg_go_off_duration = b->go_layout.off_duration;
			skel->rodata->cfg_go_tm_wall = b->go_layout.tm_wall;
			skel->rodata->cfg_go_tm_ext = b->go_layout.tm_ext;
			skel->rodata->cfg_go_start_nano = b->go_layout.start_nano_vaddr;
			skel->rodata->cfg_go_stop_vaddr = b->go_layout.stop_call_vaddr;
		}
	}
	if (!skel->rodata->cfg_one_probe)
		bpf_map__set_max_entries(skel->maps.onep_hist, 1); /* unused */
	skel->rodata->cfg_process_iters = b->mode == BS_BOUND_PROCESS;
	skel->rodata->cfg_charge_iter =
	    !opts->untagged_charges && bs_boundaries_charges_by_iteration(b);
	lines_configure(skel, b->mode == BS_BOUND_LINES);
	rc = benchscope_bpf__load(skel);
	if (rc) {
		const char *why = load_reason(libbpf_last);

		snprintf(err, errlen, "cannot load the BPF programs: %s%s%s%s", strerror(-rc),
			 why[0] ? " (" : "", why, why[0] ? ")" : "");
		if (!opts->verbose)
			snprintf(err + strlen(err), errlen - strlen(err),
				 "; rerun with --verbose for the verifier log");
		return rc;
	}
	if (opts->no_accounting)
		return 0;
	if ((rc = attach_auto(p, skel->progs.on_switch, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_wakeup, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_irq_entry, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_irq_exit, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_softirq_entry, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_softirq_exit, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_fork, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_exec, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_exit, err, errlen)) ||
	    (rc = attach_auto(p, skel->progs.on_free, err, errlen)))
		return rc;
	p->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME); /* best effort */
	return 0;
}

static int attach_site(struct bs_probes *p, const struct bs_site *s, bool begin, bool gbench,
		       char *err, size_t errlen)
{
	struct benchscope_bpf *skel = p->skel;
	struct bpf_program *prog;
	struct bpf_link *l;
	char desc[PATH_MAX + 700];

	bs_site_describe(s, desc, sizeof(desc));
	if (s->kind != BS_SITE_USDT) {
		prog = begin ? (gbench ? skel->progs.iter_begin_gbench : skel->progs.iter_begin)
			     : skel->progs.iter_end;
		return bs_probes_attach_uprobe(p, prog, s->path, s->offset,
					       s->kind == BS_SITE_URETPROBE, 0, desc, true, err,
					       errlen);
	}
	prog = begin ? skel->progs.iter_begin_usdt : skel->progs.iter_end_usdt;
	l = bpf_program__attach_usdt(prog, -1, s->path, s->symbol, s->usdt_name, NULL);
	if (!l) {
		int e = errno;
		snprintf(err, errlen, "cannot attach %s: %s", desc, strerror(e));
		return -e;
	}
	return add_link(p, l, desc);
}

/* --preset go: five entry-only uprobes (binary/gobench.h), no uretprobe;
 * with one probe per iteration only runN's call of StopTimer */
static int attach_go(struct bs_probes *p, const struct bs_boundaries *b, char *err, size_t errlen)
{
	struct benchscope_bpf *skel = p->skel;
	const struct {
		struct bpf_program *prog;
		uint64_t off;
		const char *what;
	} sites[] = {
	    {skel->progs.go_runn, b->go_sites.runn, BS_GO_RUNN_SYM " entry (name, n)"},
	    {skel->progs.go_start, b->go_sites.start_now, b->begin.mangled},
	    {skel->progs.go_stop, b->go_sites.stop_call, b->end.mangled},
	    {skel->progs.go_reset, b->go_sites.reset_now, BS_GO_RESET_SYM " (call time.Now)"},
	    {skel->progs.go_goexit, b->go_sites.goexit, BS_GO_GOEXIT_SYM " entry"},
	};
	char desc[PATH_MAX + 700];
	int rc;

	for (size_t i = 0; i < sizeof(sites) / sizeof(sites[0]); i++) {
		if (!sites[i].off)
			continue; /* runtime.Goexit linked out */
		if (b->probes == 1 && sites[i].prog != skel->progs.go_stop)
			continue;
		snprintf(desc, sizeof(desc), "uprobe %s:%s+0x%llx", b->begin.path, sites[i].what,
			 (unsigned long long)sites[i].off);
		if ((rc = bs_probes_attach_uprobe(p, sites[i].prog, b->begin.path, sites[i].off,
						  false, 0, desc, true, err, errlen)))
			return rc;
	}
	return 0;
}

/*
 * --preset catch2 (user/binary/catch2.h): every begin site (iter_begin_catch2;
 * cookie 1 at the out-of-line start(), whose `this` is checked), every end
 * site (iter_end), every model<Fun>::call (catch2_call: the repeats) and
 * RunContext::benchmarkPreparing (catch2_name; cookie: the name ABI). The
 * attached list gets one line per kind.
 */
static int attach_catch2(struct bs_probes *p, const struct bs_boundaries *b, char *err,
			 size_t errlen)
{
	const struct bs_catch2_plan *c = &b->catch2;
	struct benchscope_bpf *skel = p->skel;
	char desc[PATH_MAX + 700];
	int rc = 0;

	for (uint32_t i = 0; !rc && i < c->n_begin; i++) {
		bs_site_describe(&b->begin, desc, sizeof(desc));
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 " and %u devirtualised inline copies", c->n_begin_inline);
		rc = bs_probes_attach_uprobe(p, skel->progs.iter_begin_catch2, c->path,
					     c->begin[i].offset, false,
					     c->begin[i].kind == BS_CATCH2_ENTRY ? 1 : 0,
					     i ? NULL : desc, true, err, errlen);
	}
	for (uint32_t i = 0; !rc && i < c->n_end; i++) {
		bs_site_describe(&b->end, desc, sizeof(desc));
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 " and %u devirtualised inline copies", c->n_end_inline);
		rc = bs_probes_attach_uprobe(p, skel->progs.iter_end, c->path, c->end[i].offset,
					     false, 0, i ? NULL : desc, true, err, errlen);
	}
	for (uint32_t i = 0; !rc && i < c->n_call; i++) {
		snprintf(desc, sizeof(desc),
			 "uprobe %s: Catch::Benchmark::Detail::BenchmarkFunction::model<Fun>::call "
			 "(%u functions; the repeats per sample)",
			 c->path, c->n_call);
		rc = bs_probes_attach_uprobe(p, skel->progs.catch2_call, c->path, c->call[i].offset,
					     false, 0, i ? NULL : desc, true, err, errlen);
	}
	for (uint32_t i = 0; !rc && i < c->n_name; i++) {
		snprintf(
		    desc, sizeof(desc),
		    "uprobe %s:Catch::RunContext::benchmarkPreparing+0x%llx and %u devirtualised "
		    "inline copies (benchmark names)",
		    c->name_path, (unsigned long long)c->name[0].offset, c->n_name_inline);
		rc = bs_probes_attach_uprobe(p, skel->progs.catch2_name, c->name_path,
					     c->name[i].offset, false, c->name_abi, i ? NULL : desc,
					     true, err, errlen);
	}
	return rc;
}

int bs_probes_attach_boundaries(struct bs_probes *p, const struct bs_boundaries *b, char *err,
				size_t errlen)
{
	int rc;

	switch (b->mode) {
	case BS_BOUND_PAIR:
	case BS_BOUND_GBENCH:
		if (b->probes ==
		    1) { /* FinishKeepRunning's entry only: it reads the State's timer */
			char desc[PATH_MAX + 700];

			bs_site_describe(&b->end, desc, sizeof(desc));
			return bs_probes_attach_uprobe(p, p->skel->progs.iter_end_gbench1,
						       b->end.path, b->end.offset, false, 0, desc,
						       true, err, errlen);
		}
		if ((rc = attach_site(p, &b->begin, true, b->mode == BS_BOUND_GBENCH, err, errlen)))
			return rc;
		return attach_site(p, &b->end, false, false, err, errlen);
	case BS_BOUND_GO:
		return attach_go(p, b, err, errlen);
	case BS_BOUND_CATCH2:
		return attach_catch2(p, b, err, errlen);
	case BS_BOUND_LINES:
		if ((rc = attach_auto(p, p->skel->progs.line_sys_enter, err, errlen)))
			return rc;
		return add_link(
		    p, NULL,
		    "tp_btf/sys_enter: write, pwrite64, writev, pwritev, pwritev2 to the "
		    "files of fd 1 and 2");
	case BS_BOUND_CRITERION:
		return bs_criterion_attach(p, b, err, errlen);
	case BS_BOUND_PROCESS:
		/* the exec/exit programs are attached already; record what bounds */
		return add_link(p, NULL,
				"tracepoints sched_process_exec/exit (children of the command)");
	default:
		snprintf(err, errlen, "no iteration boundaries");
		return -EINVAL;
	}
}

/* pid's processes are tracked (side 0: none, 1 A, 2 B); with one probe per
 * iteration its threads are accounted from their first switch-in, so the
 * scheduler handlers' early exit must let them through (open_tgids) */
static int track(struct bs_probes *p, pid_t pid, __u32 side)
{
	struct bs_tracked_proc v = {.side = side};
	__u32 key = (__u32)pid, n = sizeof(p->skel->bss->open_tgids) * 8;

	if (bpf_map__update_elem(p->skel->maps.tracked, &key, sizeof(key), &v, sizeof(v), BPF_ANY))
		return -errno;
	if (p->skel->rodata->cfg_one_probe)
		__atomic_fetch_or(&p->skel->bss->open_tgids[(key % n) / 64], 1ULL << (key % 64),
				  __ATOMIC_SEQ_CST);
	return 0;
}

int bs_probes_track(struct bs_probes *p, pid_t pid)
{
	return track(p, pid, 0);
}

int bs_probes_track_side(struct bs_probes *p, pid_t pid, int side)
{
	return track(p, pid, (__u32)(side & 1) + 1);
}

unsigned bs_probes_barrier_arm(struct bs_probes *p, int mode, int lead)
{
	struct benchscope_bpf__bss *b = p->skel->bss;
	int i;

	__atomic_store_n(&b->bar_active, 0, __ATOMIC_SEQ_CST);
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&b->bar_arrived[i], 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&b->bar_waiting[i], 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&b->bar_done[i], 0, __ATOMIC_SEQ_CST);
		b->bar_begin_ns[i] = 0;
		b->bar_pid[i] = 0;
	}
	b->bar_lead = lead ? 1 : 0;
	b->bar_gen++;
	if (!b->bar_gen)
		b->bar_gen = 1;
	__atomic_store_n(&b->bar_active, (__u32)mode, __ATOMIC_SEQ_CST);
	return b->bar_gen;
}

void bs_probes_barrier_disarm(struct bs_probes *p)
{
	struct benchscope_bpf__bss *b = p->skel->bss;

	__atomic_store_n(&b->bar_active, 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&b->bar_waiting[0], 0, __ATOMIC_SEQ_CST);
	__atomic_store_n(&b->bar_waiting[1], 0, __ATOMIC_SEQ_CST);
}

/* The kernel's BTF has a function (kfunc) of this name. */
static bool kernel_has_func(struct btf *vmlinux, const char *name)
{
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC) > 0;
}

static void kcont_destroy(struct bs_probes *p)
{
	bpf_link__destroy(p->kcont_link);
	p->kcont_link = NULL;
	kcont_bpf__destroy(p->kcont);
	p->kcont = NULL;
}

int bs_probes_kcont_enable(struct bs_probes *p, char *err, size_t errlen)
{
	static const char *const kfuncs[] = {"bpf_send_signal_task", "bpf_task_from_pid",
					     "bpf_task_release"};
	struct benchscope_bpf *m = p->skel;
	struct bpf_link *l;
	struct kcont_bpf *k;
	struct btf *vmlinux;
	size_t i;
	int rc;

	if (p->kcont)
		return 0;
	vmlinux = btf__load_vmlinux_btf();
	for (i = 0; i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++)
		if (!kernel_has_func(vmlinux, kfuncs[i])) {
			snprintf(err, errlen, "the kernel lacks the kfunc %s (Linux 6.13+)",
				 kfuncs[i]);
			btf__free(vmlinux);
			return -ENOTSUP;
		}
	btf__free(vmlinux);
	k = kcont_bpf__open();
	if (!k) {
		rc = -errno;
		snprintf(err, errlen, "cannot open the continuing program: %s", strerror(-rc));
		return rc;
	}
	p->kcont = k;
	if ((rc = bpf_map__reuse_fd(k->maps.kcont_pend, bpf_map__fd(m->maps.kcont_pend))) ||
	    (rc = bpf_map__reuse_fd(k->maps.brb, bpf_map__fd(m->maps.brb))) ||
	    (rc = bpf_map__reuse_fd(k->maps.counters, bpf_map__fd(m->maps.counters)))) {
		snprintf(err, errlen, "cannot share the barrier maps: %s", strerror(-rc));
		goto fail;
	}
	libbpf_last[0] = 0;
	if ((rc = kcont_bpf__load(k))) {
		snprintf(err, errlen, "cannot load the continuing program: %s (%s)", strerror(-rc),
			 load_reason(libbpf_last));
		goto fail;
	}
	l = bpf_program__attach(k->progs.kcont_doorbell);
	if (!l) {
		rc = -errno;
		snprintf(err, errlen, "cannot attach the continuing program: %s", strerror(-rc));
		goto fail;
	}
	p->kcont_link = l;
	/* from now on the boundary programs leave releases to it */
	__atomic_store_n(&m->bss->bar_kcont, 1, __ATOMIC_SEQ_CST);
	return 0;
fail:
	kcont_destroy(p);
	return rc;
}

int bs_probes_barrier_fd(const struct bs_probes *p)
{
	return bpf_map__fd(p->skel->maps.brb);
}

int bs_probes_ringbuf_fd(const struct bs_probes *p)
{
	return bpf_map__fd(p->skel->maps.rb);
}

int bs_probes_counters(const struct bs_probes *p, struct bs_counters *out)
{
	int ncpu = libbpf_num_possible_cpus(), i, j;
	struct bs_counters *per;
	__u32 zero = 0;

	memset(out, 0, sizeof(*out));
	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	per = calloc((size_t)ncpu, sizeof(*per));
	if (!per)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(p->skel->maps.counters), &zero, per)) {
		int e = -errno;
		free(per);
		return e;
	}
	for (i = 0; i < ncpu; i++) {
		__u64 *dst = (__u64 *)out, *src = (__u64 *)&per[i];
		for (j = 0; j < (int)(sizeof(*out) / sizeof(__u64)); j++)
			dst[j] += src[j];
	}
	free(per);
	return 0;
}

long bs_probes_drain_spill(struct bs_probes *p, int (*fn)(void *ctx, const struct bs_iter_rec *r),
			   void *ctx)
{
	int fd = bpf_map__fd(p->skel->maps.spill);
	struct bs_spill_key key, next;
	struct bs_iter_rec rec;
	long n = 0;
	int rc;

	/* deleting while walking restarts the walk from the first key; only
	 * this walk deletes, so a key just named can be read: if it cannot, the
	 * error is returned and the entry kept, never deleted unread */
	while (!bpf_map_get_next_key(fd, NULL, &next)) {
		key = next;
		if (bpf_map_lookup_elem(fd, &key, &rec))
			return -errno;
		if ((rc = fn(ctx, &rec)))
			return rc;
		if (bpf_map_delete_elem(fd, &key))
			return -errno;
		n++;
	}
	return n;
}

/* The CPUs whose waiter slots (struct bs_cpu_wait) to read. */
static size_t slot_cpus(const struct bs_probes *p)
{
	size_t max = sizeof(p->skel->bss->cpu_waits) / sizeof(p->skel->bss->cpu_waits[0]);
	int ncpu = libbpf_num_possible_cpus();

	return ncpu > 0 && (size_t)ncpu < max ? (size_t)ncpu : max;
}

/* The time of entry `r` still pending in the CPUs' slots (struct
 * bs_cpu_wait): of its pair, in its iteration unless it has none. */
static __u64 pending_ns(const struct bs_probes *p, const struct bs_interferer_rec *r)
{
	const struct bs_cpu_wait *w = p->skel->bss->cpu_waits;
	size_t n = slot_cpus(p), cpu, i;
	__u64 ns = 0;

	for (cpu = 0; cpu < n; cpu++)
		for (i = 0; i < BS_WAIT_PEND; i++)
			if (w[cpu].pend[i].interferer_tid == r->interferer_tid &&
			    w[cpu].pend[i].victim_pid == r->victim_pid &&
			    (r->victim_iter == BS_CHARGE_NO_ITER ||
			     w[cpu].pend[i].victim_iter == r->victim_iter))
				ns += w[cpu].pend[i].ns;
	return ns;
}

struct with_pending {
	const struct bs_probes *p;
	int (*fn)(void *ctx, const struct bs_interferer_rec *r);
	void *ctx;
};

static int add_pending(void *ctx, const struct bs_interferer_rec *r)
{
	struct with_pending *x = ctx;
	struct bs_interferer_rec whole = *r;

	whole.ns += pending_ns(x->p, r);
	return x->fn(x->ctx, &whole);
}

long bs_probes_interferers(const struct bs_probes *p, const struct bs_interferer_table *t,
			   int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx)
{
	struct with_pending x = {p, fn, ctx};

	return bs_interferer_table_walk(t, add_pending, &x);
}

void bs_probes_take_pending(const struct bs_probes *p, struct bs_interferer_table *t)
{
	const struct bs_cpu_wait *w = p->skel->bss->cpu_waits;
	size_t n = slot_cpus(p), cpu, i;

	for (cpu = 0; cpu < n; cpu++)
		for (i = 0; i < BS_WAIT_PEND; i++) {
			const struct bs_wait_pend *s = &w[cpu].pend[i];
			struct bs_interferer_charge ch = {.type = BS_REC_INTERF,
							  .victim_pid = s->victim_pid,
							  .interferer_tid = s->interferer_tid,
							  .victim_iter = s->victim_iter,
							  .ns = s->ns};

			if (s->interferer_tid && s->ns)
				bs_interferer_table_add(t, &ch);
		}
}

bool bs_probes_charges_by_iteration(const struct bs_probes *p)
{
	return p->skel && p->skel->rodata->cfg_charge_iter;
}

/* One {"prog","run_cnt","run_time_ns"} per program of obj that ran. */
/* bpf_prog_info of `prog` into *info; 0 or -1 (not loaded, or the call failed) */
static int prog_info(const struct bpf_program *prog, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);
	int fd = bpf_program__fd(prog);

	memset(info, 0, sizeof(*info));
	return fd < 0 || bpf_obj_get_info_by_fd(fd, info, &len) ? -1 : 0;
}

static void stats_add(json_object *arr, const struct bpf_object *obj)
{
	struct bpf_program *prog;

	bpf_object__for_each_program (prog, obj) {
		struct bpf_prog_info info;
		json_object *o;

		if (prog_info(prog, &info) || !info.run_cnt)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "prog", json_object_new_string(bpf_program__name(prog)));
		json_object_object_add(o, "run_cnt", json_object_new_int64((int64_t)info.run_cnt));
		json_object_object_add(o, "run_time_ns",
				       json_object_new_int64((int64_t)info.run_time_ns));
		if (info.recursion_misses)
			json_object_object_add(
			    o, "recursion_misses",
			    json_object_new_int64((int64_t)info.recursion_misses));
		json_object_array_add(arr, o);
	}
}

static uint64_t misses_of(const struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct bpf_prog_info info;
	uint64_t n = 0;

	bpf_object__for_each_program (prog, obj)
		if (!prog_info(prog, &info))
			n += info.recursion_misses;
	return n;
}

uint64_t bs_probes_recursion_misses(const struct bs_probes *p)
{
	return misses_of(p->skel->obj) + (p->kcont ? misses_of(p->kcont->obj) : 0);
}

char *bs_probes_stats_json(const struct bs_probes *p)
{
	json_object *arr = json_object_new_array();
	char *s;

	stats_add(arr, p->skel->obj);
	if (p->kcont)
		stats_add(arr, p->kcont->obj);
	s = strdup(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PLAIN));
	json_object_put(arr);
	return s;
}

void bs_probes_detach(struct bs_probes *p)
{
	for (size_t i = 0; i < p->n_links; i++)
		bpf_link__destroy(p->links[i]);
	p->n_links = 0;
}

void bs_probes_destroy(struct bs_probes *p)
{
	size_t i;

	if (!p)
		return;
	bs_probes_detach(p);
	for (i = 0; i < p->n_attached; i++)
		free(p->attached[i]);
	free(p->links);
	free(p->attached);
	if (p->stats_fd >= 0)
		close(p->stats_fd);
	if (p->skel)
		__atomic_store_n(&p->skel->bss->bar_kcont, 0, __ATOMIC_SEQ_CST);
	kcont_destroy(p);
	benchscope_bpf__destroy(p->skel);
	memset(p, 0, sizeof(*p));
	p->stats_fd = -1;
}
