/* SPDX-License-Identifier: MIT */
/*
 * gobench.c - find the probe sites of `--preset go` in a Go test binary
 * and read testing.B's layout from its DWARF (gobench.h says which sites
 * and why).
 *
 * - Symbols: .symtab (Go writes one unless linked with -s or stripped).
 * - Call sites: capstone disassembles runN, StartTimer and ResetTimer, and
 *   the direct calls whose target is StopTimer (in runN) or time.Now (in
 *   the other two) are the sites; exactly one each, or the code does not
 *   have the shape the preset was made for and it says so.
 * - Layout: libdw, the DW_TAG_structure_type entries "testing.B",
 *   "testing.common" and "string" (Go's DWARF names types by their Go
 *   names) and their members' DW_AT_data_member_location.
 * - g's TLS slot: the displacement of `mov r14, fs:[d]`, the instruction
 *   with which Go's ABI wrappers reload the running goroutine (hundreds of
 *   them in a test binary); for an externally linked binary, which has a
 *   PT_TLS segment, runtime.tlsg's place in it (variant II TLS: the
 *   executable's block ends at the thread pointer).
 */
#include "binary/gobench.h"

#include "binary/elffile.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { S_RUNN, S_START, S_STOP, S_RESET, S_NOW, S_GOEXIT, N_SYMS };
static const char *const sym_names[N_SYMS] = {BS_GO_RUNN_SYM,  BS_GO_START_SYM, BS_GO_STOP_SYM,
					      BS_GO_RESET_SYM, BS_GO_NOW_SYM,	BS_GO_GOEXIT_SYM};

struct gsym {
	uint64_t vaddr, size;
	int found;
};

int bs_go_version(const unsigned char *data, size_t len, char *ver, size_t verlen)
{
	static const unsigned char magic[14] = "\xff Go buildinf:";
	uint64_t n = 0;
	unsigned shift = 0;
	size_t i = 32;

	if (verlen)
		ver[0] = '\0';
	if (len < 32 || memcmp(data, magic, sizeof(magic)))
		return -EINVAL;
	if (!(data[15] & 2))
		return 0; /* before Go 1.18: the version is behind a pointer */
	for (; i < len && shift < 64; i++, shift += 7) {
		n |= (uint64_t)(data[i] & 0x7f) << shift;
		if (!(data[i] & 0x80))
			break;
	}
	if (i >= len || n > len - i - 1)
		return -EINVAL;
	snprintf(ver, verlen, "%.*s", (int)(n < 31 ? n : 31), (const char *)data + i + 1);
	return 0;
}

int bs_go_find_tls_g(const unsigned char *text, size_t len, int32_t *d)
{
	static const unsigned char pat[5] = {0x64, 0x4c, 0x8b, 0x34, 0x25};
	int32_t cand[8];
	size_t cnt[8] = {0}, nc = 0, total = 0, best = 0;

	for (size_t i = 0; len >= 9 && i <= len - 9; i++) {
		int32_t disp;
		size_t k;

		if (text[i] != 0x64 || memcmp(text + i, pat, sizeof(pat)))
			continue;
		memcpy(&disp, text + i + 5, 4);
		total++;
		for (k = 0; k < nc && cand[k] != disp; k++)
			;
		if (k == nc) {
			if (nc == 8)
				continue;
			cand[nc++] = disp;
		}
		cnt[k]++;
	}
	for (size_t k = 1; k < nc; k++)
		if (cnt[k] > cnt[best])
			best = k;
	if (!nc || cnt[best] < 4 || cnt[best] * 10 < total * 9)
		return -ENOENT;
	*d = cand[best];
	return 0;
}

/* The symbols of sym_names from .symtab (functions only). */
static int find_syms(struct bs_elf *ef, struct gsym *s, int *have_symtab)
{
	*have_symtab = 0;
	memset(s, 0, N_SYMS * sizeof(*s));
	for (Elf_Scn *scn = elf_nextscn(ef->elf, NULL); scn; scn = elf_nextscn(ef->elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t count;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		*have_symtab = 1;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		count = data->d_size / sh.sh_entsize;
		for (size_t i = 0; i < count; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(ef->elf, sh.sh_link, sym.st_name);
			if (!name || (name[0] != 't' && name[0] != 'r'))
				continue;
			for (int k = 0; k < N_SYMS; k++)
				if (!s[k].found && !strcmp(name, sym_names[k])) {
					s[k].vaddr = sym.st_value;
					s[k].size = sym.st_size;
					s[k].found = 1;
				}
		}
	}
	return 0;
}

/* A section's bytes (malloc'd), or NULL when absent or unreadable. */
static unsigned char *read_section(struct bs_elf *ef, const char *name, size_t *len, GElf_Shdr *sh)
{
	Elf_Scn *scn = bs_elf_find_section(ef, name, sh);
	unsigned char *buf;

	if (!scn || sh->sh_type == SHT_NOBITS || !sh->sh_size || sh->sh_size > (1u << 30))
		return NULL;
	buf = malloc(sh->sh_size);
	if (!buf)
		return NULL;
	if (pread(ef->fd, buf, sh->sh_size, (off_t)sh->sh_offset) != (ssize_t)sh->sh_size) {
		free(buf);
		return NULL;
	}
	*len = sh->sh_size;
	return buf;
}

/*
 * The direct calls in function f whose target is `target`: the first one's
 * address in *site; returns how many there are, or -errno.
 */
static int find_calls(struct bs_elf *ef, csh cs, const struct gsym *f, uint64_t target,
		      uint64_t *site)
{
	uint64_t off, addr = f->vaddr;
	unsigned char *code;
	const uint8_t *p;
	size_t left = f->size;
	cs_insn *insn;
	int n = 0;

	if (!f->size || f->size > (1u << 20) || bs_elf_vaddr_to_offset(ef, f->vaddr, 1, &off))
		return -ENOENT;
	code = malloc(f->size);
	if (!code)
		return -ENOMEM;
	if (pread(ef->fd, code, f->size, (off_t)off) != (ssize_t)f->size) {
		free(code);
		return -EIO;
	}
	insn = cs_malloc(cs);
	if (!insn) {
		free(code);
		return -ENOMEM;
	}
	p = code;
	while (left && cs_disasm_iter(cs, &p, &left, &addr, insn)) {
		cs_x86 *x = &insn->detail->x86;

		if (insn->id != X86_INS_CALL || x->op_count != 1 ||
		    x->operands[0].type != X86_OP_IMM)
			continue;
		if ((uint64_t)x->operands[0].imm == target && n++ == 0)
			*site = insn->address;
	}
	cs_free(insn, 1);
	free(code);
	return n;
}

/* ---- DWARF ---------------------------------------------------------------- */

struct dw_want {
	const char *type;    /* structure name */
	const char *members; /* member names, NUL-separated, ending with an empty one */
	Dwarf_Word off[4];   /* their offsets */
	Dwarf_Word size[4];  /* their sizes (0: unknown) */
	int have;	     /* bit k: member k found */
	int found;	     /* the structure was found */
};

static Dwarf_Word die_type_size(Dwarf_Die *member)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	Dwarf_Word sz;

	if (!dwarf_attr(member, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return 0;
	/* Go: typedefs of base types (time.Duration -> int64) */
	for (int i = 0; i < 8 && dwarf_tag(&t) == DW_TAG_typedef; i++)
		if (!dwarf_attr(&t, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
			return 0;
	if (dwarf_attr(&t, DW_AT_byte_size, &a) && !dwarf_formudata(&a, &sz))
		return sz;
	return 0;
}

static void dw_members(Dwarf_Die *st, struct dw_want *w)
{
	Dwarf_Die m;

	w->found = 1;
	if (dwarf_child(st, &m) != 0)
		return;
	do {
		Dwarf_Attribute a;
		Dwarf_Word loc;
		const char *name, *p;
		int k = 0;

		if (dwarf_tag(&m) != DW_TAG_member || !(name = dwarf_diename(&m)))
			continue;
		if (!dwarf_attr(&m, DW_AT_data_member_location, &a) || dwarf_formudata(&a, &loc))
			continue;
		for (p = w->members; *p && k < 4; p += strlen(p) + 1, k++)
			if (!strcmp(p, name)) {
				w->off[k] = loc;
				w->size[k] = die_type_size(&m);
				w->have |= 1 << k;
			}
	} while (dwarf_siblingof(&m, &m) == 0);
}

/* Walk the top-level entries of every CU for the wanted structures. */
static int dw_find(Dwarf *dw, struct dw_want *w, int nw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int left = nw;

	while (left && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, d;

		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_child(&cu, &d) == 0) {
			do {
				const char *name;

				if (dwarf_tag(&d) != DW_TAG_structure_type ||
				    !(name = dwarf_diename(&d)))
					continue;
				for (int i = 0; i < nw; i++)
					if (!w[i].found && !strcmp(name, w[i].type)) {
						dw_members(&d, &w[i]);
						left--;
					}
			} while (left && dwarf_siblingof(&d, &d) == 0);
		}
		off = next;
	}
	return nw - left;
}

/* What is missing of w, as text ("testing.B.N, string.len"). */
static void dw_missing(const struct dw_want *w, int nw, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < nw; i++) {
		const char *p = w[i].members;
		int k = 0;

		if (!w[i].found) {
			used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
						 used ? ", " : "", w[i].type);
			continue;
		}
		for (; *p; p += strlen(p) + 1, k++)
			if (!(w[i].have & (1 << k)))
				used += (size_t)snprintf(out + used, used < len ? len - used : 0,
							 "%s%s.%s", used ? ", " : "", w[i].type, p);
	}
}

static int read_layout(struct bs_elf *ef, const char *exe, const char *found,
		       struct bs_go_layout *l, char *err, size_t errlen)
{
	struct dw_want w[5] = {
	    {.type = "testing.B", .members = "common\0N\0timerOn\0"},
	    {.type = "testing.common", .members = "name\0hasSub\0"},
	    {.type = "string", .members = "str\0len\0"},
	    /* one probe per iteration only (gobench.h) */
	    {.type = "testing.common", .members = "start\0duration\0"},
	    {.type = "time.Time", .members = "wall\0ext\0"},
	};
	Dwarf *dw = dwarf_begin(ef->fd, DWARF_C_READ);
	char miss[256];

	if (!dw) {
		snprintf(err, errlen,
			 "--preset go: %s has no DWARF debugging information (built with "
			 "-ldflags=-w, or stripped), so testing.B's layout cannot be read; found: "
			 "%s; build it with plain `go test -c`",
			 exe, found);
		return -ENODATA;
	}
	dw_find(dw, w, 5);
	dwarf_end(dw);
	dw_missing(w, 3, miss, sizeof(miss));
	if (miss[0]) {
		snprintf(err, errlen,
			 "--preset go: %s: the DWARF lacks %s (found: %s); this testing package "
			 "has a layout the preset does not know",
			 exe, miss, found);
		return -ENOTSUP;
	}
	/* sizes as the preset reads them: int N, int32 hasSub, {ptr, int} string */
	if ((w[0].size[1] && w[0].size[1] != 8) || (w[0].size[2] && w[0].size[2] != 1) ||
	    (w[1].size[1] && w[1].size[1] != 4) || (w[2].size[0] && w[2].size[0] != 8) ||
	    (w[2].size[1] && w[2].size[1] != 8)) {
		snprintf(err, errlen,
			 "--preset go: %s: testing.B.N is %llu bytes, timerOn %llu, common.hasSub "
			 "%llu, string.str/len %llu/%llu (expected 8, 1, 4, 8/8)",
			 exe, (unsigned long long)w[0].size[1], (unsigned long long)w[0].size[2],
			 (unsigned long long)w[1].size[1], (unsigned long long)w[2].size[0],
			 (unsigned long long)w[2].size[1]);
		return -ENOTSUP;
	}
	l->off_name = (uint32_t)(w[0].off[0] + w[1].off[0]);
	l->off_has_sub = (uint32_t)(w[0].off[0] + w[1].off[1]);
	l->off_n = (uint32_t)w[0].off[1];
	l->off_timer_on = (uint32_t)w[0].off[2];
	l->str_ptr = (uint32_t)w[2].off[0];
	l->str_len = (uint32_t)w[2].off[1];
	dw_missing(w + 3, 2, miss, sizeof(miss));
	if (miss[0])
		snprintf(l->one_probe_why, sizeof(l->one_probe_why), "the DWARF lacks %.120s",
			 miss);
	else if (w[3].size[0] != 24 || w[3].size[1] != 8 || w[4].size[0] != 8 || w[4].size[1] != 8)
		snprintf(l->one_probe_why, sizeof(l->one_probe_why),
			 "testing.common.start is %llu bytes, duration %llu, time.Time.wall/ext "
			 "%llu/%llu (expected 24, 8, 8/8)",
			 (unsigned long long)w[3].size[0], (unsigned long long)w[3].size[1],
			 (unsigned long long)w[4].size[0], (unsigned long long)w[4].size[1]);
	l->off_start = (uint32_t)(w[0].off[0] + w[3].off[0]);
	l->off_duration = (uint32_t)(w[0].off[0] + w[3].off[1]);
	l->tm_wall = (uint32_t)w[4].off[0];
	l->tm_ext = (uint32_t)w[4].off[1];
	return 0;
}

/* The link-time address of the data object NAME in .symtab; 0 when absent. */
static uint64_t find_object(struct bs_elf *ef, const char *name)
{
	for (Elf_Scn *scn = elf_nextscn(ef->elf, NULL); scn; scn = elf_nextscn(ef->elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < data->d_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_OBJECT || sym.st_shndx == SHN_UNDEF)
				continue;
			n = elf_strptr(ef->elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, name))
				return sym.st_value;
		}
	}
	return 0;
}

/* g's TLS slot: see the top of this file. */
static int find_tls(struct bs_elf *ef, int32_t *d)
{
	GElf_Shdr sh;
	size_t len = 0, n;
	unsigned char *text = read_section(ef, ".text", &len, &sh);
	int rc = text ? bs_go_find_tls_g(text, len, d) : -ENOENT;

	free(text);
	if (!rc || elf_getphdrnum(ef->elf, &n))
		return rc;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(ef->elf, (int)i, &ph) || ph.p_type != PT_TLS)
			continue;
		/* runtime.tlsg: a TLS symbol, its value an offset in the block */
		for (Elf_Scn *scn = elf_nextscn(ef->elf, NULL); scn;
		     scn = elf_nextscn(ef->elf, scn)) {
			Elf_Data *data;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
			    !(data = elf_getdata(scn, NULL)))
				continue;
			for (size_t k = 0; k < data->d_size / sh.sh_entsize; k++) {
				GElf_Sym s;
				const char *name;
				uint64_t align = ph.p_align ? ph.p_align : 1,
					 blk = (ph.p_memsz + align - 1) / align * align;

				if (!gelf_getsym(data, (int)k, &s) ||
				    GELF_ST_TYPE(s.st_info) != STT_TLS)
					continue;
				name = elf_strptr(ef->elf, sh.sh_link, s.st_name);
				if (name && !strcmp(name, "runtime.tlsg")) {
					*d = (int32_t)((int64_t)s.st_value - (int64_t)blk);
					return 0;
				}
			}
		}
	}
	return -ENOENT;
}

int bs_go_resolve(const char *exe, struct bs_go_sites *sites, struct bs_go_layout *layout,
		  char *err, size_t errlen)
{
	struct bs_elf ef;
	struct gsym s[N_SYMS];
	GElf_Shdr sh;
	unsigned char *bi;
	size_t bilen = 0;
	uint64_t start_now = 0, stop_call = 0, reset_now = 0;
	char found[512];
	int have_symtab, rc, n1, n2, n3;
	bool have_bi;
	csh cs;

	memset(sites, 0, sizeof(*sites));
	memset(layout, 0, sizeof(*layout));
	rc = bs_elf_open(exe, &ef, err, errlen);
	if (rc)
		return rc;
	/* a Go program: build info (1.13+) or the pc-line table */
	bi = read_section(&ef, ".go.buildinfo", &bilen, &sh);
	have_bi = bi != NULL;
	if (bi)
		bs_go_version(bi, bilen, layout->go_version, sizeof(layout->go_version));
	free(bi);
	if (!have_bi && !bs_elf_find_section(&ef, ".gopclntab", &sh)) {
		snprintf(err, errlen,
			 "--preset go: %s is not a Go program (no .go.buildinfo or .gopclntab "
			 "section); --preset go measures test binaries built with `go test -c`",
			 exe);
		rc = -ENOEXEC;
		goto out;
	}
	if (ef.ehdr.e_machine != EM_X86_64) {
		snprintf(err, errlen,
			 "--preset go: %s is a Go program for another architecture (ELF machine "
			 "%u); the preset reads the x86-64 register ABI",
			 exe, ef.ehdr.e_machine);
		rc = -ENOTSUP;
		goto out;
	}
	if (!strncmp(layout->go_version, "go1.", 4) &&
	    strtol(layout->go_version + 4, NULL, 10) < 17) {
		snprintf(err, errlen,
			 "--preset go: %s was built by %s, which passes arguments on the stack; "
			 "the preset reads Go 1.17+'s register ABI",
			 exe, layout->go_version);
		rc = -ENOTSUP;
		goto out;
	}
	find_syms(&ef, s, &have_symtab);
	if (!have_symtab) {
		bool dwarf = bs_elf_find_section(&ef, ".debug_info", &sh) ||
			     bs_elf_find_section(&ef, ".zdebug_info", &sh);

		snprintf(err, errlen,
			 "--preset go: %s is a Go program (%s) stripped of its symbol table "
			 "(-ldflags=-s, or strip)%s: testing.(*B).runN cannot be found; build it "
			 "with plain `go test -c`",
			 exe, layout->go_version[0] ? layout->go_version : "version unknown",
			 dwarf ? "" : " and of its DWARF");
		rc = -ENOENT;
		goto out;
	}
	for (int k = 0; k < S_GOEXIT; k++) /* Goexit: optional */
		if (!s[k].found) {
			snprintf(err, errlen,
				 "--preset go: %s is a Go program (%s) without %s%s; is it a test "
				 "binary with benchmarks (`go test -c`)?",
				 exe,
				 layout->go_version[0] ? layout->go_version : "version unknown",
				 sym_names[k], k == S_RUNN ? "" : " (testing.(*B).runN is there)");
			rc = -ENOENT;
			goto out;
		}
	snprintf(found, sizeof(found), "a Go program (%s) with %s at 0x%llx",
		 layout->go_version[0] ? layout->go_version : "version unknown", BS_GO_RUNN_SYM,
		 (unsigned long long)s[S_RUNN].vaddr);

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		snprintf(err, errlen, "--preset go: cannot open the disassembler (capstone)");
		rc = -ENOMEM;
		goto out;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	n1 = find_calls(&ef, cs, &s[S_RUNN], s[S_STOP].vaddr, &stop_call);
	n2 = find_calls(&ef, cs, &s[S_START], s[S_NOW].vaddr, &start_now);
	n3 = find_calls(&ef, cs, &s[S_RESET], s[S_NOW].vaddr, &reset_now);
	cs_close(&cs);
	if (n1 != 1 || n2 != 1 || n3 != 1) {
		snprintf(err, errlen,
			 "--preset go: %s: expected one call of StopTimer in runN and one of "
			 "time.Now in StartTimer and in ResetTimer, found %d, %d and %d (%s); "
			 "this Go version's testing package has another shape",
			 exe, n1, n2, n3, found);
		rc = n1 < 0 ? n1 : n2 < 0 ? n2 : n3 < 0 ? n3 : -ENOTSUP;
		if (rc == -ENOENT)
			rc = -ENOTSUP;
		goto out;
	}
	if ((rc = read_layout(&ef, exe, found, layout, err, errlen)))
		goto out;
	if (find_tls(&ef, &layout->tls_g)) {
		snprintf(err, errlen,
			 "--preset go: %s: cannot find where the Go runtime keeps the running "
			 "goroutine in TLS (no `mov r14, fs:[d]`, no runtime.tlsg); found: %s",
			 exe, found);
		rc = -ENOTSUP;
		goto out;
	}
	if ((rc = bs_elf_vaddr_to_offset(&ef, s[S_RUNN].vaddr, 1, &sites->runn)) ||
	    (rc = bs_elf_vaddr_to_offset(&ef, start_now, 1, &sites->start_now)) ||
	    (rc = bs_elf_vaddr_to_offset(&ef, stop_call, 1, &sites->stop_call)) ||
	    (rc = bs_elf_vaddr_to_offset(&ef, reset_now, 1, &sites->reset_now))) {
		snprintf(err, errlen, "--preset go: %s: a probe site lies outside the code", exe);
		goto out;
	}
	if (s[S_GOEXIT].found && bs_elf_vaddr_to_offset(&ef, s[S_GOEXIT].vaddr, 1, &sites->goexit))
		sites->goexit = 0;
	layout->stop_call_vaddr = stop_call;
	layout->start_nano_vaddr = find_object(&ef, BS_GO_START_NANO_SYM);
	if (!layout->one_probe_why[0] && !layout->start_nano_vaddr)
		snprintf(layout->one_probe_why, sizeof(layout->one_probe_why),
			 "the symbol table has no %s", BS_GO_START_NANO_SYM);
	sites->start_now_rel = (uint32_t)(start_now - s[S_START].vaddr);
	sites->stop_call_rel = (uint32_t)(stop_call - s[S_RUNN].vaddr);
	sites->reset_now_rel = (uint32_t)(reset_now - s[S_RESET].vaddr);
out:
	bs_elf_close(&ef);
	return rc;
}
