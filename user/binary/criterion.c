/* SPDX-License-Identifier: MIT */
/*
 * criterion.c - find a criterion benchmark's probe sites and read their
 * field offsets from DWARF.
 *
 * Verified on Debian 12's librust-criterion-dev 0.3.6 built by Debian's
 * rustc 1.63 (tests/progs/criterion_bench; test_criterion_resolve) and by
 * rustc 1.95, whose layouts differ: Bencher<WallTime>.iters at byte 0 (1.63)
 * and 40 (1.95), BenchmarkId.full_id's data pointer and length at 88/104
 * (1.63) and 48/56 (1.95); self in rdi at Bencher::iter's entry and id in
 * rsi at Reports::benchmark_start's in both. criterion 0.5 and 0.7
 * (upstream source, tags 0.5.1 and 0.7.0) keep the same Bencher fields,
 * Bencher methods, Routine::warm_up and Reports::benchmark_start, and
 * BenchmarkId.full_id: read from their source, not run here (not in Debian).
 */
#include "binary/criterion.h"

#include "binary/dwlayout.h"
#include "binary/rustsym.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *path;
	enum bs_crit_kind kind;
} patterns[] = {
    {"criterion::bencher::Bencher<M>::iter", BS_CRIT_ITER},
    {"criterion::bencher::Bencher<M>::iter_custom", BS_CRIT_ITER_CUSTOM},
    {"criterion::bencher::Bencher<M>::iter_batched", BS_CRIT_ITER_BATCHED},
    {"criterion::bencher::Bencher<M>::iter_batched_ref", BS_CRIT_ITER_BATCHED_REF},
    {"<criterion::routine::Function<M,F,T> as criterion::routine::Routine<M,T>>::warm_up",
     BS_CRIT_WARM_UP},
    {"<criterion::report::Reports as criterion::report::Report>::benchmark_start", BS_CRIT_NAME},
    {"<criterion::report::Reports as criterion::report::Report>::profile", BS_CRIT_NAME},
};
#define N_PATTERNS (sizeof(patterns) / sizeof(patterns[0]))

const char *bs_crit_kind_name(enum bs_crit_kind k)
{
	static const char *const names[] = {
	    "iter", "iter_custom", "iter_batched", "iter_batched_ref", "warm_up", "benchmark_id"};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

#define MAX_CRATES 48

/* What the symbol walk found. */
struct scan {
	struct bs_crit_layout *l;
	size_t n_funcs, n_rust, n_v0, n_criterion, overflow;
	char criterion_example[200];
	struct {
		char name[48];
		size_t n;
	} crates[MAX_CRATES];
	size_t n_crates;
};

/* The crate a Rust path starts with: "core" of "core::ptr::x", "alloc" of "<alloc::..". */
static void count_crate(struct scan *s, const char *path)
{
	size_t n, i;

	path += strspn(path, "<&*");
	if (!strncmp(path, "mut ", 4) || !strncmp(path, "const ", 6)) /* <&mut T as ..> */
		path = strchr(path, ' ') + 1;
	path += strspn(path, "<&*");
	n = strcspn(path, ":< >,");
	/* crates are lower-case; "<T as ...>", "<[T] as ...>" name none */
	if (!n || n >= sizeof(s->crates[0].name) ||
	    !(islower((unsigned char)path[0]) || path[0] == '_'))
		return;
	for (i = 0; i < s->n_crates; i++)
		if (strlen(s->crates[i].name) == n && !strncmp(s->crates[i].name, path, n)) {
			s->crates[i].n++;
			return;
		}
	if (s->n_crates == MAX_CRATES)
		return;
	snprintf(s->crates[s->n_crates].name, sizeof(s->crates[0].name), "%.*s", (int)n, path);
	s->crates[s->n_crates++].n = 1;
}

static int on_func(void *ctx, const struct bs_elf_func *f)
{
	struct scan *s = ctx;
	struct bs_crit_layout *l = s->l;
	char path[1024];
	size_t i;

	s->n_funcs++;
	if (!strncmp(f->name, "_R", 2))
		s->n_v0++;
	if (bs_rust_legacy_path(f->name, path, sizeof(path)))
		return 0;
	s->n_rust++;
	count_crate(s, path);
	if (!strstr(path, "criterion::"))
		return 0;
	s->n_criterion++;
	for (i = 0; i < N_PATTERNS && strcmp(path, patterns[i].path); i++)
		;
	if (i == N_PATTERNS) {
		if (!s->criterion_example[0] && !strncmp(path, "criterion::", 11))
			snprintf(s->criterion_example, sizeof(s->criterion_example), "%.*s",
				 (int)sizeof(s->criterion_example) - 1, path);
		return 0;
	}
	for (size_t j = 0; j < l->n; j++)
		if (l->sites[j].addr == f->addr)
			return 0; /* .symtab and .dynsym, or an alias */
	if (l->n == BS_CRIT_MAX_SITES) {
		s->overflow++;
		return 0;
	}
	memset(&l->sites[l->n], 0, sizeof(l->sites[0]));
	l->sites[l->n].kind = patterns[i].kind;
	l->sites[l->n].addr = f->addr;
	l->sites[l->n].offset = f->offset;
	snprintf(l->sites[l->n].what, sizeof(l->sites[0].what), "%.*s",
		 (int)sizeof(l->sites[0].what) - 1, path);
	l->n++;
	return 0;
}

static bool is_iter_kind(enum bs_crit_kind k)
{
	return k == BS_CRIT_ITER || k == BS_CRIT_ITER_CUSTOM || k == BS_CRIT_ITER_BATCHED ||
	       k == BS_CRIT_ITER_BATCHED_REF;
}

/* Iteration sites first, then warm-up, then names; by address within a kind. */
static int cmp_site(const void *x, const void *y)
{
	const struct bs_crit_site *a = x, *b = y;
	int ka = is_iter_kind(a->kind) ? 0 : (int)a->kind,
	    kb = is_iter_kind(b->kind) ? 0 : (int)b->kind;

	if (ka != kb)
		return ka - kb;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* "found: 812 function symbols, 640 of them Rust (crates std 300, core 200, ...)" */
static void describe_found(const struct scan *s, char *out, size_t len)
{
	size_t used, shown = 0;
	bool done[MAX_CRATES] = {false};

	used = (size_t)snprintf(out, len, "found %zu function symbols", s->n_funcs);
	if (s->n_rust && used < len) {
		used += (size_t)snprintf(out + used, len - used, ", %zu of them Rust (crates",
					 s->n_rust);
		while (shown < 6 && shown < s->n_crates && used < len) {
			size_t best = 0;
			bool any = false;
			for (size_t i = 0; i < s->n_crates; i++)
				if (!done[i] && (!any || s->crates[i].n > s->crates[best].n)) {
					best = i;
					any = true;
				}
			done[best] = true;
			used +=
			    (size_t)snprintf(out + used, len - used, "%s %s %zu", shown ? "," : "",
					     s->crates[best].name, s->crates[best].n);
			shown++;
		}
		if (used < len)
			used += (size_t)snprintf(out + used, len - used, "%s)",
						 s->n_crates > shown ? ", ..." : "");
	} else if (used < len) {
		used += (size_t)snprintf(out + used, len - used, ", none of them Rust");
	}
	if (s->n_criterion && used < len)
		used += (size_t)snprintf(out + used, len - used, "; %zu criterion functions%s%s",
					 s->n_criterion, s->criterion_example[0] ? ", e.g. " : "",
					 s->criterion_example);
	if (s->n_v0 && used < len)
		snprintf(out + used, len - used,
			 "; %zu symbols use Rust's v0 mangling (_R...), which this preset does not "
			 "read (build with the default legacy mangling)",
			 s->n_v0);
}

/* x86-64 SysV: DWARF register number -> integer argument slot (the first
 * five, as the BPF side reads them), -1 when none. */
static int arg_slot(int dwreg)
{
	static const int regs[] = {5, 4, 1, 2, 8}; /* rdi rsi rdx rcx r8 */

	for (int i = 0; i < 5; i++)
		if (regs[i] == dwreg)
			return i;
	return -1;
}

/* Bencher.iters of an iteration site, through its `self` parameter. */
static int layout_iter(struct bs_dw *dw, const char *exe, struct bs_crit_site *st, char *err,
		       size_t errlen)
{
	struct bs_dw_param p;
	Dwarf_Die mt;
	uint64_t off;
	char fn[sizeof(st->what)], why[512];
	int slot, rc = bs_dw_func_param(dw, st->addr, 0, &p, fn, sizeof(fn), why, sizeof(why));

	if (rc) {
		snprintf(err, errlen, "%s: %s (%s)", exe, why, st->what);
		return rc;
	}
	slot = p.entry_reg < 0 ? 0 : arg_slot(p.entry_reg);
	if (slot < 0 || strncmp(p.type_name, "Bencher<", 8) ||
	    bs_dw_member(&p.pointee, "iters", &off, &mt) || bs_dw_byte_size(&mt) != 8 ||
	    off > 0xfff8) {
		snprintf(err, errlen,
			 "%s: the DWARF of %s does not show a criterion Bencher with a u64 `iters` "
			 "behind its first parameter (found %s *%s)",
			 exe, st->what, p.name[0] ? p.name : "?", p.type_name);
		return -EINVAL;
	}
	st->off_a = (uint16_t)off;
	st->arg = (uint8_t)slot;
	snprintf(st->what, sizeof(st->what), "criterion::bencher::Bencher<M>::%.*s",
		 (int)sizeof(st->what) - 33, fn);
	return 0;
}

/* BenchmarkId.full_id (a String) of a name site, through its `id` parameter. */
static int layout_name(struct bs_dw *dw, struct bs_crit_site *st, char *why, size_t whylen)
{
	struct bs_dw_param p;
	Dwarf_Die s, v, buf;
	uint64_t o_full, o_vec, o_len, o_buf, o_ptr;
	int slot, rc = bs_dw_func_param(dw, st->addr, 1, &p, NULL, 0, why, whylen);

	if (rc)
		return rc;
	slot = p.entry_reg < 0 ? 1 : arg_slot(p.entry_reg);
	if (strcmp(p.type_name, "BenchmarkId") || slot < 0 ||
	    bs_dw_member(&p.pointee, "full_id", &o_full, &s) ||
	    bs_dw_member(&s, "vec", &o_vec, &v) || bs_dw_member(&v, "len", &o_len, NULL) ||
	    bs_dw_member(&v, "buf", &o_buf, &buf) || bs_dw_first_pointer(&buf, &o_ptr)) {
		snprintf(why, whylen,
			 "its DWARF does not show a BenchmarkId with a String full_id behind the "
			 "second parameter of %s (found %s *%s)",
			 st->what, p.name[0] ? p.name : "?", p.type_name);
		return -EINVAL;
	}
	if (o_full + o_vec + o_buf + o_ptr > 0xfff8 || o_full + o_vec + o_len > 0xfff8)
		return -EINVAL;
	st->off_a = (uint16_t)(o_full + o_vec + o_buf + o_ptr);
	st->off_b = (uint16_t)(o_full + o_vec + o_len);
	st->arg = (uint8_t)slot;
	return 0;
}

int bs_criterion_resolve(const char *exe, struct bs_crit_layout *l, char *err, size_t errlen)
{
	struct scan *s = calloc(1, sizeof(*s));
	struct bs_dw dw = {.fd = -1};
	char found[1024], why[512];
	bool has_symtab;
	size_t i, k;
	int rc;

	if (!s)
		return -ENOMEM;
	memset(l, 0, offsetof(struct bs_crit_layout, sites));
	s->l = l;
	rc = bs_elf_each_func(exe, on_func, s, &has_symtab, err, errlen);
	if (rc)
		goto out;
	for (i = 0; i < l->n; i++) {
		l->n_iter += is_iter_kind(l->sites[i].kind);
		l->n_warm += l->sites[i].kind == BS_CRIT_WARM_UP;
		l->n_name += l->sites[i].kind == BS_CRIT_NAME;
	}
	if (!l->n_iter) {
		describe_found(s, found, sizeof(found));
		if (!has_symtab)
			snprintf(
			    err, errlen,
			    "--preset criterion: %s has no symbol table (.symtab; stripped?): "
			    "criterion's Bencher::iter instantiations are local symbols, which "
			    "only .symtab keeps; build the benchmark without stripping (%s)",
			    exe, found);
		else
			snprintf(err, errlen,
				 "--preset criterion: %s does not look like a criterion benchmark: "
				 "none of criterion::bencher::Bencher<M>::iter, iter_custom, "
				 "iter_batched, iter_batched_ref among its symbols (%s)",
				 exe, found);
		rc = -ENOENT;
		goto out;
	}
	if (s->overflow) {
		snprintf(err, errlen,
			 "--preset criterion: %s has %zu criterion functions to probe, more than "
			 "the %d this preset attaches",
			 exe, l->n + s->overflow, BS_CRIT_MAX_SITES);
		rc = -E2BIG;
		goto out;
	}
	qsort(l->sites, l->n, sizeof(l->sites[0]), cmp_site);
	rc = bs_dw_open(exe, &dw, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen,
			 "--preset criterion: %s has criterion's Bencher methods (%zu "
			 "instantiations) but %s; the preset reads Bencher.iters' offset from it: "
			 "build the benchmark with debug info (Cargo.toml: [profile.bench] "
			 "debug = true)",
			 exe, l->n_iter,
			 rc == -ENODATA ? "no DWARF debug information"
					: "its DWARF cannot be read");
		goto out;
	}
	for (i = 0; i < l->n; i++) {
		struct bs_crit_site *st = &l->sites[i];

		if (is_iter_kind(st->kind) && (rc = layout_iter(&dw, exe, st, err, errlen)))
			goto out;
	}
	/* benchmark ids: best effort, the iterations are measured without them */
	for (i = k = 0; i < l->n; i++) {
		struct bs_crit_site *st = &l->sites[i];

		if (st->kind == BS_CRIT_NAME && layout_name(&dw, st, why, sizeof(why))) {
			if (!l->note[0])
				snprintf(l->note, sizeof(l->note),
					 "--preset criterion: no benchmark ids: %.300s", why);
			continue;
		}
		l->sites[k++] = *st;
	}
	l->n_name -= l->n - k;
	l->n = k;
	if (!l->n_name && !l->note[0])
		snprintf(l->note, sizeof(l->note),
			 "--preset criterion: %s has no <criterion::report::Reports as "
			 "Report>::benchmark_start (inlined?): iterations are not named by "
			 "benchmark",
			 exe);
	rc = 0;
out:
	bs_dw_close(&dw);
	free(s);
	return rc;
}
