// SPDX-License-Identifier: MIT
/* sym.c - user address symbolization with libdw (dwfl) and perf maps. */
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/monotime.h"
#include "waste/sym.h"

struct jit_sym {
	uint64_t start, size;
	char *name;
};

struct proc {
	pid_t pid;
	Dwfl *dwfl;
	struct jit_sym *jit;
	size_t njit;
	int jit_read;	      /* perf map read once (it is appended to: re-read on a miss) */
	uint64_t reported_ns; /* CLOCK_MONOTONIC of the last read of its maps */
};

struct bs_waste_sym {
	struct proc *procs;
	size_t n, cap;
};

/* x86-64 user addresses end below the canonical hole */
#define USER_SPACE_END 0x0000800000000000ull

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
};

struct bs_waste_sym *bs_waste_sym_new(void)
{
	return calloc(1, sizeof(struct bs_waste_sym));
}

static void proc_clear(struct proc *p)
{
	size_t i;

	if (p->dwfl)
		dwfl_end(p->dwfl);
	for (i = 0; i < p->njit; i++)
		free(p->jit[i].name);
	free(p->jit);
	p->dwfl = NULL;
	p->jit = NULL;
	p->njit = 0;
	p->jit_read = 0;
}

void bs_waste_sym_free(struct bs_waste_sym *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		proc_clear(&s->procs[i]);
	free(s->procs);
	free(s);
}

void bs_waste_sym_forget(struct bs_waste_sym *s, pid_t pid)
{
	size_t i;

	for (i = 0; s && i < s->n; i++)
		if (s->procs[i].pid == pid)
			proc_clear(&s->procs[i]);
}

static int report(struct proc *p)
{
	if (!p->dwfl) {
		p->dwfl = dwfl_begin(&callbacks);
		if (!p->dwfl)
			return -ENOMEM;
	}
	p->reported_ns = bs_mono_ns();
	dwfl_report_begin(p->dwfl);
	if (dwfl_linux_proc_report(p->dwfl, p->pid) != 0) {
		dwfl_report_end(p->dwfl, NULL, NULL);
		return -ESRCH;
	}
	dwfl_report_end(p->dwfl, NULL, NULL);
	return 0;
}

static struct proc *get_proc(struct bs_waste_sym *s, pid_t pid)
{
	size_t i;
	struct proc *p;

	for (i = 0; i < s->n; i++)
		if (s->procs[i].pid == pid) {
			p = &s->procs[i];
			if (!p->dwfl)
				report(p);
			return p;
		}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		struct proc *np = realloc(s->procs, cap * sizeof(*np));

		if (!np)
			return NULL;
		s->procs = np;
		s->cap = cap;
	}
	p = &s->procs[s->n++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	report(p);
	return p;
}

static void read_perf_map(struct proc *p)
{
	char path[64], line[1024];
	FILE *f;
	size_t i;

	for (i = 0; i < p->njit; i++)
		free(p->jit[i].name);
	p->njit = 0;
	p->jit_read = 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)p->pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		uint64_t a, sz;
		int off = 0;
		struct jit_sym *nj;

		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %n", &a, &sz, &off) < 2 || !off)
			continue;
		line[strcspn(line, "\n")] = 0;
		nj = realloc(p->jit, (p->njit + 1) * sizeof(*nj));
		if (!nj)
			break;
		p->jit = nj;
		p->jit[p->njit].start = a;
		p->jit[p->njit].size = sz;
		p->jit[p->njit].name = strdup(line + off);
		if (p->jit[p->njit].name)
			p->njit++;
	}
	fclose(f);
}

static const struct jit_sym *jit_lookup(struct proc *p, uint64_t addr)
{
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		if (!p->jit_read || pass == 1)
			read_perf_map(p);
		for (i = p->njit; i-- > 0;) /* later entries replace earlier ones */
			if (addr >= p->jit[i].start && addr < p->jit[i].start + p->jit[i].size)
				return &p->jit[i];
		if (!p->njit)
			break;
	}
	return NULL;
}

/* The module @addr lies in, or NULL: dwfl_addrmodule can name a neighbour
 * for an address in no module (a frame-pointer walk gone astray), so its
 * bounds are checked. */
static Dwfl_Module *module_at(Dwfl *d, uint64_t addr)
{
	Dwfl_Module *m = d ? dwfl_addrmodule(d, addr) : NULL;
	Dwarf_Addr lo = 0, hi = 0;

	if (m && (!dwfl_module_info(m, NULL, &lo, &hi, NULL, NULL, NULL, NULL) || addr < lo ||
		  addr >= hi))
		m = NULL;
	return m;
}

static Dwfl_Module *module_of(struct proc *p, uint64_t addr)
{
	Dwfl_Module *m = module_at(p->dwfl, addr);

	/* mapped since (dlopen)? Read the maps again, but not for what cannot be
	 * user code (the garbage of a frame-pointer walk) nor more than every
	 * 100 ms (such walks end in a miss on every stack) */
	if (!m && addr >= 4096 && addr < USER_SPACE_END &&
	    bs_mono_ns() - p->reported_ns >= 100000000ull && kill(p->pid, 0) == 0 && report(p) == 0)
		m = module_at(p->dwfl, addr);
	return m;
}

const char *bs_waste_sym_frame(struct bs_waste_sym *s, pid_t pid, uint64_t addr, int is_return,
			       char *buf, size_t len)
{
	struct proc *p = s ? get_proc(s, pid) : NULL;
	uint64_t look = is_return && addr ? addr - 1 : addr;
	Dwfl_Module *m;
	const char *name, *mname, *file = NULL, *slash;
	GElf_Off off = 0;
	GElf_Sym sym;
	Dwarf_Addr base = 0;
	int line = 0;

	if (!len)
		return buf;
	if (!p) {
		snprintf(buf, len, "[0x%" PRIx64 "]", addr);
		return buf;
	}
	m = module_of(p, look);
	if (!m) {
		const struct jit_sym *j = jit_lookup(p, look);

		if (j)
			snprintf(buf, len, "%s [jit]", j->name);
		else
			snprintf(buf, len, "[0x%" PRIx64 "]", addr);
		return buf;
	}
	mname = dwfl_module_info(m, NULL, &base, NULL, NULL, NULL, NULL, NULL);
	slash = mname ? strrchr(mname, '/') : NULL;
	mname = slash ? slash + 1 : mname ? mname : "?";
	name = dwfl_module_addrinfo(m, look, &off, &sym, NULL, NULL, NULL);
	{
		Dwfl_Line *l = dwfl_module_getsrc(m, look);

		if (l)
			file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	}
	if (file) {
		slash = strrchr(file, '/');
		snprintf(buf, len, "%s (%s:%d)", name ? name : "??", slash ? slash + 1 : file,
			 line);
	} else if (name) {
		snprintf(buf, len, "%s+0x%" PRIx64 " (%s)", name, (uint64_t)off, mname);
	} else {
		snprintf(buf, len, "[%s+0x%" PRIx64 "]", mname, look - base);
	}
	return buf;
}

uint64_t bs_waste_sym_func_start(struct bs_waste_sym *s, pid_t pid, uint64_t addr)
{
	struct proc *p = s ? get_proc(s, pid) : NULL;
	Dwfl_Module *m;
	GElf_Off off = 0;
	GElf_Sym sym;

	if (!p)
		return 0;
	m = module_of(p, addr);
	if (m) {
		if (dwfl_module_addrinfo(m, addr, &off, &sym, NULL, NULL, NULL))
			return addr - off;
		return 0;
	}
	{
		const struct jit_sym *j = jit_lookup(p, addr);

		return j ? j->start : 0;
	}
}
