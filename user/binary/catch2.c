/* SPDX-License-Identifier: MIT */
/*
 * catch2.c - find Catch2's sample boundaries, repeat counts and benchmark
 * names in a test program (see catch2.h for what is probed and why).
 *
 * Symbols are matched by their demangled names (libstdc++'s __cxa_demangle
 * through symmatch.h), so every Clock, every BENCHMARK lambda and both
 * Catch2 generations are found without a list of mangled names. The inline
 * copies of start()/finish() are found by scanning the executable sections
 * for instructions that take the function's address, then decoding the
 * guard that follows with capstone (detail mode):
 *
 *     lea  start(%rip),%rdx          ; or mov $start,%edx / cmp $start,%rax
 *     mov  (%rsi),%rax ; mov (%rax),%rax
 *     cmp  %rdx,%rax
 *     jne  slow                       ; (je fast: the guarded path is the target)
 *     call std::chrono::_V2::steady_clock::now()@plt   <- the site
 *
 * The call's target must be a function whose demangled name ends in
 * "::now()" (resolved through the PLT/GOT relocation, or a local symbol):
 * anything else is refused with the address, rather than probed blindly.
 */
#include "binary/catch2.h"

#include "binary/elffile.h"
#include "binary/libpath.h"
#include "binary/symmatch.h"

#include <capstone/capstone.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define START_PFX "Catch::Benchmark::Detail::ChronometerModel<"
#define CALL_PFX  "Catch::Benchmark::Detail::BenchmarkFunction::model<"
#define CALL_SFX  ">::call(Catch::Benchmark::Chronometer) const"
#define PREP_PFX  "Catch::RunContext::benchmarkPreparing("
#define STDSTR_ARG                                                                                 \
	"(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)"
#define STRREF_ARG  "(Catch::StringRef)"
#define MAX_TARGETS 16 /* ChronometerModel<Clock> instantiations (one per Clock) */
#define NAME_SITES  16 /* benchmarkPreparing and its inline copies (plan->name) */

/* A function symbol: address in the ELF file and mangled name (libelf's). */
struct fn {
	uint64_t vaddr;
	const char *name;
};

struct scan {
	struct bs_elf ef;
	const char *path;
	csh cs;
	cs_insn *insn;
	bool has_symtab;
	struct fn *fns; /* every defined function, sorted by vaddr */
	size_t n_fns, cap_fns;
	uint64_t start_va[MAX_TARGETS], finish_va[MAX_TARGETS];
	size_t n_start, n_finish;
	size_t n_catch; /* other Catch:: functions seen */
	bool have_prep;
	uint64_t prep_va;
	uint32_t prep_abi;
	char prep_args[256]; /* the parameters, when the ABI is not supported */
};

/* ---- symbols ---------------------------------------------------------------------------- */

static int push_fn(struct scan *s, uint64_t va, const char *name)
{
	if (s->n_fns == s->cap_fns) {
		size_t cap = s->cap_fns ? s->cap_fns * 2 : 4096;
		struct fn *v = realloc(s->fns, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->fns = v;
		s->cap_fns = cap;
	}
	s->fns[s->n_fns++] = (struct fn){va, name};
	return 0;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static bool ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), m = strlen(sfx);
	return n >= m && !strcmp(s + n - m, sfx);
}

static int add_site(struct bs_catch2_site *v, uint32_t *n, uint32_t max, uint64_t va, uint32_t kind)
{
	for (uint32_t i = 0; i < *n; i++)
		if (v[i].vaddr == va)
			return 0;
	if (*n == max)
		return -E2BIG;
	v[*n].vaddr = va;
	v[*n].kind = kind;
	(*n)++;
	return 0;
}

static int add_va(uint64_t *v, size_t *n, uint64_t va)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == va)
			return 0;
	if (*n == MAX_TARGETS)
		return -E2BIG;
	v[(*n)++] = va;
	return 0;
}

/* Classify one demangled Catch:: function (its keys without return type). */
static int classify(struct scan *s, struct bs_catch2_plan *p, const char *full, uint64_t va)
{
	int rc = 0;

	if (!strncmp(full, START_PFX, strlen(START_PFX)) && ends_with(full, ">::start()")) {
		rc = add_va(s->start_va, &s->n_start, va);
		if (!p->clock[0])
			snprintf(p->clock, sizeof(p->clock), "%.*s",
				 (int)(strlen(full) - strlen(START_PFX) - strlen(">::start()")),
				 full + strlen(START_PFX));
	} else if (!strncmp(full, START_PFX, strlen(START_PFX)) && ends_with(full, ">::finish()")) {
		rc = add_va(s->finish_va, &s->n_finish, va);
	} else if (!strncmp(full, CALL_PFX, strlen(CALL_PFX)) && ends_with(full, CALL_SFX)) {
		rc = add_site(p->call, &p->n_call, BS_CATCH2_MAX_SITES, va, BS_CATCH2_ENTRY);
	} else if (!strncmp(full, PREP_PFX, strlen(PREP_PFX))) {
		const char *args = full + strlen(PREP_PFX) - 1;
		s->have_prep = true;
		s->prep_va = va;
		s->prep_abi = !strcmp(args, STDSTR_ARG)	  ? BS_CATCH2_NAME_STDSTRING
			      : !strcmp(args, STRREF_ARG) ? BS_CATCH2_NAME_STRINGREF
							  : 0;
		snprintf(s->prep_args, sizeof(s->prep_args), "%.200s", args);
	} else {
		s->n_catch++;
	}
	return rc;
}

/* Walk .symtab and .dynsym: every defined function into s->fns, Catch2's into the plan. */
static int read_symbols(struct scan *s, struct bs_catch2_plan *p)
{
	char full[4096], base[8];

	for (Elf_Scn *scn = elf_nextscn(s->ef.elf, NULL); scn; scn = elf_nextscn(s->ef.elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			s->has_symtab = true;
		data = elf_getdata(scn, NULL);
		if (!data || !sh.sh_entsize)
			continue;
		size_t count = data->d_size / gelf_fsize(s->ef.elf, ELF_T_SYM, 1, EV_CURRENT);
		for (size_t i = 0; i < count; i++) {
			GElf_Sym sym;
			const char *name;
			char *d;
			int rc;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
			    !sym.st_value)
				continue;
			name = elf_strptr(s->ef.elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			if (push_fn(s, sym.st_value, name))
				return -ENOMEM;
			if (!strstr(name, "5Catch"))
				continue;
			d = bs_demangle(name);
			if (!d)
				continue;
			if (!strstr(d, "[clone ")) { /* .cold parts, .isra copies */
				bs_sym_keys(d, full, sizeof(full), base, sizeof(base));
				rc = classify(s, p, full, sym.st_value);
				if (rc) {
					free(d);
					return rc;
				}
			}
			free(d);
		}
	}
	qsort(s->fns, s->n_fns, sizeof(*s->fns), cmp_fn);
	return 0;
}

/* Mangled name of the function at exactly VA, or NULL. */
static const char *fn_at(const struct scan *s, uint64_t va)
{
	size_t lo = 0, hi = s->n_fns;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->fns[mid].vaddr < va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n_fns && s->fns[lo].vaddr == va ? s->fns[lo].name : NULL;
}

/* Name of the symbol a dynamic relocation binds at address SLOT (a GOT entry), or NULL. */
static const char *reloc_sym_at(struct scan *s, uint64_t slot)
{
	for (Elf_Scn *scn = elf_nextscn(s->ef.elf, NULL); scn; scn = elf_nextscn(s->ef.elf, scn)) {
		GElf_Shdr sh, symsh;
		Elf_Data *data, *symdata;
		Elf_Scn *symscn;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		symscn = elf_getscn(s->ef.elf, sh.sh_link);
		if (!data || !symscn || !gelf_getshdr(symscn, &symsh))
			continue;
		symdata = elf_getdata(symscn, NULL);
		if (!symdata)
			continue;
		for (size_t i = 0; i < data->d_size / sh.sh_entsize; i++) {
			GElf_Rela r;
			GElf_Sym sym;

			if (!gelf_getrela(data, (int)i, &r))
				break;
			if (r.r_offset != slot)
				continue;
			if (!GELF_R_SYM(r.r_info) ||
			    !gelf_getsym(symdata, (int)GELF_R_SYM(r.r_info), &sym))
				return NULL;
			return elf_strptr(s->ef.elf, symsh.sh_link, sym.st_name);
		}
	}
	return NULL;
}

/* ---- code ------------------------------------------------------------------------------- */

/* The executable section holding VA: its bytes (read by libelf) and address. */
static const uint8_t *code_at(struct scan *s, uint64_t va, uint64_t *sec_va, size_t *sec_len)
{
	for (Elf_Scn *scn = elf_nextscn(s->ef.elf, NULL); scn; scn = elf_nextscn(s->ef.elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || va < sh.sh_addr ||
		    va - sh.sh_addr >= sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size)
			return NULL;
		*sec_va = sh.sh_addr;
		*sec_len = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

/* Decode the instruction at VA into s->insn; false when VA is not decodable code. */
static bool decode(struct scan *s, uint64_t va)
{
	uint64_t sec_va, addr = va;
	size_t len;
	const uint8_t *code = code_at(s, va, &sec_va, &len), *p;

	if (!code)
		return false;
	p = code + (va - sec_va);
	len -= va - sec_va;
	return cs_disasm_iter(s->cs, &p, &len, &addr, s->insn);
}

/* The 64-bit register of a general-purpose register id (eax -> rax), else the id. */
static unsigned reg64(unsigned r)
{
	static const unsigned map[][2] = {
	    {X86_REG_EAX, X86_REG_RAX},	 {X86_REG_EBX, X86_REG_RBX},  {X86_REG_ECX, X86_REG_RCX},
	    {X86_REG_EDX, X86_REG_RDX},	 {X86_REG_ESI, X86_REG_RSI},  {X86_REG_EDI, X86_REG_RDI},
	    {X86_REG_EBP, X86_REG_RBP},	 {X86_REG_ESP, X86_REG_RSP},  {X86_REG_R8D, X86_REG_R8},
	    {X86_REG_R9D, X86_REG_R9},	 {X86_REG_R10D, X86_REG_R10}, {X86_REG_R11D, X86_REG_R11},
	    {X86_REG_R12D, X86_REG_R12}, {X86_REG_R13D, X86_REG_R13}, {X86_REG_R14D, X86_REG_R14},
	    {X86_REG_R15D, X86_REG_R15}};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i][0] == r)
			return map[i][1];
	return r;
}

/* An operand of the decoded instruction names TARGET: an immediate, a
 * rip-relative or an absolute memory operand. */
static bool names_target(const cs_insn *in, uint64_t target)
{
	const cs_x86 *x = &in->detail->x86;

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *o = &x->operands[i];

		if (o->type == X86_OP_IMM && (uint64_t)o->imm == target)
			return true;
		if (o->type == X86_OP_MEM && o->mem.index == X86_REG_INVALID &&
		    ((o->mem.base == X86_REG_RIP &&
		      in->address + in->size + (uint64_t)o->mem.disp == target) ||
		     (o->mem.base == X86_REG_INVALID && (uint64_t)o->mem.disp == target)))
			return true;
	}
	return false;
}

/* A jump, call or return: the end of straight-line code. */
static bool is_branch(const struct scan *s, const cs_insn *in)
{
	return cs_insn_group(s->cs, in, X86_GRP_JUMP) || cs_insn_group(s->cs, in, X86_GRP_CALL) ||
	       cs_insn_group(s->cs, in, X86_GRP_RET) || cs_insn_group(s->cs, in, X86_GRP_IRET) ||
	       cs_insn_group(s->cs, in, X86_GRP_INT);
}

/* Demangled name of the function a direct or GOT-indirect call reaches, or "". */
static void call_target_name(struct scan *s, const cs_insn *call, char *out, size_t outlen)
{
	const cs_x86_op *o = &call->detail->x86.operands[0];
	const char *name = NULL;
	uint64_t t;
	char *d;

	out[0] = '\0';
	if (call->detail->x86.op_count != 1)
		return;
	if (o->type == X86_OP_MEM && o->mem.base == X86_REG_RIP) { /* -fno-plt */
		name = reloc_sym_at(s, call->address + call->size + (uint64_t)o->mem.disp);
	} else if (o->type == X86_OP_IMM) {
		t = (uint64_t)o->imm;
		name = fn_at(s, t);
		/* a PLT stub: [endbr64;] [bnd] jmp *GOT(%rip) */
		for (int k = 0; !name && k < 2 && decode(s, t); k++) {
			const cs_x86_op *j = &s->insn->detail->x86.operands[0];

			if (s->insn->id == X86_INS_ENDBR64) {
				t += s->insn->size;
				continue;
			}
			if (s->insn->id == X86_INS_JMP && s->insn->detail->x86.op_count == 1 &&
			    j->type == X86_OP_MEM && j->mem.base == X86_REG_RIP)
				name = reloc_sym_at(s, s->insn->address + s->insn->size +
							   (uint64_t)j->mem.disp);
			break;
		}
	}
	if (!name)
		return;
	d = bs_demangle(name);
	snprintf(out, outlen, "%s", d ? d : name);
	free(d);
}

/* What the first call on a guarded path must be. */
enum want {
	WANT_NOW,   /**< a direct (or GOT) call of a function named "...::now()" */
	WANT_VCALL, /**< an indirect call through a vtable slot: call *disp(%reg) */
};

/*
 * The guard at GUARD (an instruction naming TARGET, e.g. &start): find its
 * compare and branch, follow the guarded (devirtualised) path to its first
 * call and check that it is what WANT says. *site = that call.
 * 0, or -ENOTSUP with the reason in why.
 */
static int analyse_guard(struct scan *s, uint64_t guard, uint64_t target, enum want want,
			 uint64_t *site, char *why, size_t whylen)
{
	unsigned reg = X86_REG_INVALID;
	uint64_t va = guard, fast = 0;
	bool found_cmp = false;
	char name[1024];

	if (!decode(s, va) || !names_target(s->insn, target))
		goto shape;
	if (s->insn->id == X86_INS_CMP) {
		found_cmp = true;
	} else if ((s->insn->id == X86_INS_LEA || s->insn->id == X86_INS_MOV) &&
		   s->insn->detail->x86.operands[0].type == X86_OP_REG) {
		reg = reg64(s->insn->detail->x86.operands[0].reg);
	} else {
		goto shape;
	}
	/* the compare of the register holding the address */
	for (int k = 0; !found_cmp && k < 8; k++) {
		va = s->insn->address + s->insn->size;
		if (!decode(s, va) || is_branch(s, s->insn))
			goto shape;
		if (s->insn->id != X86_INS_CMP)
			continue;
		for (int i = 0; i < s->insn->detail->x86.op_count; i++) {
			const cs_x86_op *o = &s->insn->detail->x86.operands[i];
			if (o->type == X86_OP_REG && reg64(o->reg) == reg)
				found_cmp = true;
		}
	}
	if (!found_cmp)
		goto shape;
	/* then je/jne: the guarded path is the fall-through of jne, the target of je */
	va = s->insn->address + s->insn->size;
	if (!decode(s, va) || (s->insn->id != X86_INS_JNE && s->insn->id != X86_INS_JE) ||
	    s->insn->detail->x86.operands[0].type != X86_OP_IMM)
		goto shape;
	fast = s->insn->id == X86_INS_JNE ? s->insn->address + s->insn->size
					  : (uint64_t)s->insn->detail->x86.operands[0].imm;
	/* the first call on it, straight-line (direct jumps followed) */
	va = fast;
	for (int k = 0, jumps = 0; k < 16; k++) {
		if (!decode(s, va))
			goto shape;
		if (s->insn->id == X86_INS_JMP &&
		    s->insn->detail->x86.operands[0].type == X86_OP_IMM && jumps++ < 2) {
			va = (uint64_t)s->insn->detail->x86.operands[0].imm;
			continue;
		}
		if (s->insn->id == X86_INS_CALL && want == WANT_VCALL) {
			const cs_x86_op *o = &s->insn->detail->x86.operands[0];

			if (o->type != X86_OP_MEM || o->mem.base == X86_REG_RIP ||
			    o->mem.base == X86_REG_INVALID) {
				snprintf(
				    why, whylen,
				    "the devirtualised copy guarded at 0x%llx does not call the "
				    "reporter through its vtable (call at 0x%llx)",
				    (unsigned long long)guard,
				    (unsigned long long)s->insn->address);
				return -ENOTSUP;
			}
			*site = s->insn->address;
			return 0;
		}
		if (s->insn->id == X86_INS_CALL) {
			uint64_t call = s->insn->address;

			call_target_name(s, s->insn, name, sizeof(name)); /* reuses s->insn */
			if (!ends_with(name, "::now()")) {
				snprintf(
				    why, whylen,
				    "the devirtualised copy guarded at 0x%llx calls %s at 0x%llx, "
				    "not Clock::now()",
				    (unsigned long long)guard,
				    name[0] ? name : "an unknown function",
				    (unsigned long long)call);
				return -ENOTSUP;
			}
			*site = call;
			return 0;
		}
		if (is_branch(s, s->insn))
			goto shape;
		va = s->insn->address + s->insn->size;
	}
shape:
	snprintf(why, whylen,
		 "code at 0x%llx takes the address of the function but is not a devirtualisation "
		 "guard of a known shape (lea/mov, cmp, je/jne, call Clock::now())",
		 (unsigned long long)guard);
	return -ENOTSUP;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * Every instruction of the executable sections that names one of the N
 * TARGETS (a disp32 that is rip-relative to it, or its absolute address as
 * a 32-bit immediate/displacement), analysed as a guard; the sites go to
 * v[] (count *nv) as BS_CATCH2_INLINE. 0, or -ENOTSUP / -E2BIG with why.
 */
static int find_inline(struct scan *s, const uint64_t *targets, size_t n, enum want want,
		       struct bs_catch2_site *v, uint32_t *nv, uint32_t max, uint32_t *n_inline,
		       char *why, size_t whylen)
{
	/* position-dependent code may carry absolute addresses below 2 GiB */
	bool abs_ok = s->ef.ehdr.e_type == ET_EXEC;

	for (size_t t = 0; t < n; t++)
		abs_ok = abs_ok && targets[t] < (1ULL << 31);
	for (Elf_Scn *scn = elf_nextscn(s->ef.elf, NULL); scn; scn = elf_nextscn(s->ef.elf, scn)) {
		GElf_Shdr sh;
		Elf_Data *d;
		const uint8_t *b;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size || d->d_size < 8)
			continue;
		b = d->d_buf;
		for (size_t i = 1; i + 4 <= d->d_size; i++) {
			uint32_t v32 = le32(b + i);
			uint64_t rel = sh.sh_addr + i + 4 + (uint64_t)(int64_t)(int32_t)v32;

			for (size_t t = 0; t < n; t++) {
				uint64_t guard = 0, site;
				int rc;

				if (rel == targets[t] && i >= 3 && (b[i - 3] & 0xf8) == 0x48 &&
				    b[i - 2] == 0x8d && (b[i - 1] & 0xc7) == 0x05)
					guard = sh.sh_addr + i - 3; /* lea disp32(%rip),%reg */
				else if (abs_ok && v32 == targets[t])
					/* an absolute address (non-PIE): the instruction
					 * that carries it, when it materialises or
					 * compares an address (other coincidences skip) */
					for (size_t back = 1; back <= 4 && back <= i && !guard;
					     back++)
						if (decode(s, sh.sh_addr + i - back) &&
						    s->insn->size == back + 4 &&
						    names_target(s->insn, targets[t]) &&
						    (s->insn->id == X86_INS_LEA ||
						     s->insn->id == X86_INS_MOV ||
						     s->insn->id == X86_INS_CMP))
							guard = sh.sh_addr + i - back;
				if (!guard)
					continue;
				rc = analyse_guard(s, guard, targets[t], want, &site, why, whylen);
				if (rc)
					return rc;
				uint32_t before = *nv;
				if (add_site(v, nv, max, site, BS_CATCH2_INLINE)) {
					snprintf(why, whylen, "more than %u inline copies", max);
					return -E2BIG;
				}
				*n_inline += *nv - before;
			}
		}
	}
	return 0;
}

/* ---- DWARF: the Chronometer layout ------------------------------------------------------ */

static bool die_named(Dwarf_Die *die, int tag, const char *name)
{
	const char *n = dwarf_diename(die);
	return dwarf_tag(die) == tag && n && !strcmp(n, name);
}

/* Byte size of DIE's type, typedefs and cv-qualifiers looked through; -1 unknown. */
static int type_size(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return -1;
	for (int k = 0; k < 8; k++) {
		int tag = dwarf_tag(&t);
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type)
			break;
		if (!dwarf_attr_integrate(&t, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
			return -1;
	}
	return dwarf_bytesize(&t);
}

/*
 * Check Catch::Benchmark::Chronometer in CU against the layout the preset
 * reads. 1 checked and right, 0 not defined in this CU, -1 wrong (why set).
 */
static int check_cu(Dwarf_Die *cu, char *why, size_t whylen)
{
	Dwarf_Die ns1, ns2, st, m;

	if (dwarf_child(cu, &ns1))
		return 0;
	do {
		if (!die_named(&ns1, DW_TAG_namespace, "Catch") || dwarf_child(&ns1, &ns2))
			continue;
		do {
			if (!die_named(&ns2, DW_TAG_namespace, "Benchmark") ||
			    dwarf_child(&ns2, &st))
				continue;
			do {
				int tag = dwarf_tag(&st);
				const char *n = dwarf_diename(&st);
				long impl = -1, k = -1;
				int ksize = -1, size;

				if ((tag != DW_TAG_structure_type && tag != DW_TAG_class_type) ||
				    !n || strcmp(n, "Chronometer") ||
				    dwarf_hasattr(&st, DW_AT_declaration) || dwarf_child(&st, &m))
					continue;
				do {
					Dwarf_Attribute a;
					Dwarf_Word off;
					const char *mn = dwarf_diename(&m);

					if (dwarf_tag(&m) != DW_TAG_member || !mn ||
					    !dwarf_attr(&m, DW_AT_data_member_location, &a) ||
					    dwarf_formudata(&a, &off))
						continue;
					if (!strcmp(mn, "impl"))
						impl = (long)off;
					else if (!strcmp(mn, "k") || !strcmp(mn, "repeats")) {
						k = (long)off;
						ksize = type_size(&m);
					}
				} while (!dwarf_siblingof(&m, &m));
				size = dwarf_bytesize(&st);
				if (size == 16 && impl == 0 && k == 8 && ksize == 4)
					return 1;
				snprintf(
				    why, whylen,
				    "Catch::Benchmark::Chronometer has size %d, impl at %ld, "
				    "k/repeats at %ld (%d bytes) in its DWARF; the preset reads "
				    "size 16, impl at 0, k at 8 (4 bytes)",
				    size, impl, k, ksize);
				return -1;
			} while (!dwarf_siblingof(&st, &st));
		} while (!dwarf_siblingof(&ns2, &ns2));
	} while (!dwarf_siblingof(&ns1, &ns1));
	return 0;
}

/* The layout check: 0 (p->layout says how), or -ENOTSUP with why. */
static int check_layout(struct scan *s, struct bs_catch2_plan *p, char *why, size_t whylen)
{
	Dwarf *dw = dwarf_begin_elf(s->ef.elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t hsize;
	int r = 0;

	snprintf(p->layout, sizeof(p->layout), "header (no DWARF for Chronometer in the program)");
	if (!dw)
		return 0;
	while (r == 0 && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu))
			r = check_cu(&cu, why, whylen);
		off = next;
	}
	dwarf_end(dw);
	if (r < 0)
		return -ENOTSUP;
	if (r > 0)
		snprintf(p->layout, sizeof(p->layout), "DWARF");
	return 0;
}

/* ---- the plan --------------------------------------------------------------------------- */

static void found_text(const struct scan *s, const struct bs_catch2_plan *p, char *out,
		       size_t outlen)
{
	snprintf(
	    out, outlen,
	    "found: %zu ChronometerModel<Clock>::start(), %zu finish(), %u "
	    "BenchmarkFunction::model<Fun>::call(Chronometer), %s RunContext::benchmarkPreparing, "
	    "%zu other Catch:: functions",
	    s->n_start, s->n_finish, p->n_call, s->have_prep ? "a" : "no", s->n_catch);
}

/* RunContext::benchmarkPreparing in a libCatch2 shared library EXE loads (Catch2 3.x). */
static int prep_in_library(const char *exe, struct bs_catch2_plan *p)
{
	char **libs = NULL;
	size_t n = 0;
	int rc = bs_needed_libs(exe, &libs, &n);

	for (size_t i = 0; !rc && i < n; i++) {
		const char *base = strrchr(libs[i], '/');
		struct bs_catch2_plan *q;

		if (!strstr(base ? base + 1 : libs[i], "Catch2"))
			continue;
		q = calloc(1, sizeof(*q));
		if (!q) {
			rc = -ENOMEM;
			break;
		}
		struct scan s = {.path = libs[i]};
		char why[512];
		if (!bs_elf_open(libs[i], &s.ef, why, sizeof(why))) {
			/* its own calls of benchmarkPreparing are not devirtualised
			 * in the program's code: the entry suffices */
			if (!read_symbols(&s, q) && s.have_prep && s.prep_abi &&
			    !bs_elf_vaddr_to_offset(&s.ef, s.prep_va, 1, &p->name[0].offset)) {
				snprintf(p->name_path, sizeof(p->name_path), "%s", libs[i]);
				p->name_abi = s.prep_abi;
				p->name[0].vaddr = s.prep_va;
				p->name[0].kind = BS_CATCH2_ENTRY;
				p->n_name = 1;
			}
			bs_elf_close(&s.ef);
		}
		free(s.fns);
		free(q);
		if (p->name_path[0])
			break;
	}
	bs_free_strv(libs, n);
	if (!rc && !p->name_path[0])
		rc = -ENOENT;
	return rc;
}

int bs_catch2_resolve(const char *exe, struct bs_catch2_plan *p, char *err, size_t errlen)
{
	struct scan s = {.path = exe};
	char why[1024], found[512];
	int rc;

	memset(p, 0, sizeof(*p));
	if (!realpath(exe, p->path)) {
		rc = -errno;
		snprintf(err, errlen, "--preset catch2: %s: %s", exe, strerror(-rc));
		return rc;
	}
	if ((rc = bs_elf_open(p->path, &s.ef, why, sizeof(why)))) {
		snprintf(err, errlen, "--preset catch2: %s", why);
		return rc;
	}
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &s.cs) != CS_ERR_OK) {
		snprintf(err, errlen, "--preset catch2: capstone cannot open an x86-64 decoder");
		rc = -ENOMEM;
		goto out_elf;
	}
	cs_option(s.cs, CS_OPT_DETAIL, CS_OPT_ON);
	s.insn = cs_malloc(s.cs);
	if (!s.insn) {
		rc = -ENOMEM;
		snprintf(err, errlen, "--preset catch2: out of memory");
		goto out;
	}
	if (s.ef.ehdr.e_machine != EM_X86_64) {
		snprintf(err, errlen, "--preset catch2: %s is not an x86-64 program", exe);
		rc = -ENOTSUP;
		goto out;
	}
	rc = read_symbols(&s, p);
	if (rc == -E2BIG) {
		snprintf(err, errlen,
			 "--preset catch2: %s has more than %d benchmark functions (or %d clocks)",
			 exe, BS_CATCH2_MAX_SITES, MAX_TARGETS);
		goto out;
	} else if (rc) {
		snprintf(err, errlen, "--preset catch2: %s: cannot read its symbols: %s", exe,
			 strerror(-rc));
		goto out;
	}
	found_text(&s, p, found, sizeof(found));
	if (!s.has_symtab && !s.n_start && !p->n_call) {
		snprintf(err, errlen,
			 "--preset catch2: %s has no symbol table (stripped?): the preset finds "
			 "Catch2's benchmark functions by name; build the test program unstripped",
			 exe);
		rc = -ENOENT;
		goto out;
	}
	if (!s.n_start || !s.n_finish) {
		snprintf(
		    err, errlen,
		    "--preset catch2: %s does not look like a Catch2 test program with "
		    "benchmarks%s (%s)",
		    exe,
		    s.n_catch || s.have_prep
			? " (Catch2 without CATCH_CONFIG_ENABLE_BENCHMARKING, or no BENCHMARK?)"
			: "",
		    found);
		rc = -ENOENT;
		goto out;
	}
	if (!p->n_call) {
		snprintf(
		    err, errlen,
		    "--preset catch2: cannot read the repeats per sample in %s: no "
		    "Catch::Benchmark::Detail::BenchmarkFunction::model<Fun>::call(Chronometer) "
		    "const (%s)",
		    exe, found);
		rc = -ENOENT;
		goto out;
	}
	/* the out-of-line functions, then their inline copies */
	for (size_t i = 0; i < s.n_start; i++)
		add_site(p->begin, &p->n_begin, BS_CATCH2_MAX_SITES, s.start_va[i],
			 BS_CATCH2_ENTRY);
	for (size_t i = 0; i < s.n_finish; i++)
		add_site(p->end, &p->n_end, BS_CATCH2_MAX_SITES, s.finish_va[i], BS_CATCH2_ENTRY);
	if ((rc = find_inline(&s, s.start_va, s.n_start, WANT_NOW, p->begin, &p->n_begin,
			      BS_CATCH2_MAX_SITES, &p->n_begin_inline, why, sizeof(why))) ||
	    (rc = find_inline(&s, s.finish_va, s.n_finish, WANT_NOW, p->end, &p->n_end,
			      BS_CATCH2_MAX_SITES, &p->n_end_inline, why, sizeof(why)))) {
		snprintf(err, errlen, "--preset catch2: %s: %s", exe, why);
		goto out;
	}
	if (p->n_begin_inline != p->n_end_inline) {
		snprintf(err, errlen,
			 "--preset catch2: %s: %u inline copies of start() but %u of finish()", exe,
			 p->n_begin_inline, p->n_end_inline);
		rc = -ENOTSUP;
		goto out;
	}
	/* file offsets for the uprobes */
	for (uint32_t i = 0; i < p->n_begin; i++)
		rc = rc ?: bs_elf_vaddr_to_offset(&s.ef, p->begin[i].vaddr, 1, &p->begin[i].offset);
	for (uint32_t i = 0; i < p->n_end; i++)
		rc = rc ?: bs_elf_vaddr_to_offset(&s.ef, p->end[i].vaddr, 1, &p->end[i].offset);
	for (uint32_t i = 0; i < p->n_call; i++)
		rc = rc ?: bs_elf_vaddr_to_offset(&s.ef, p->call[i].vaddr, 1, &p->call[i].offset);
	if (rc) {
		snprintf(err, errlen,
			 "--preset catch2: %s: a function lies outside its code segments", exe);
		goto out;
	}
	if ((rc = check_layout(&s, p, why, sizeof(why)))) {
		snprintf(err, errlen, "--preset catch2: %s: %s", exe, why);
		goto out;
	}
	/* the benchmark name */
	if (s.have_prep && !s.prep_abi) {
		snprintf(
		    err, errlen,
		    "--preset catch2: %s: Catch::RunContext::benchmarkPreparing%s takes the name "
		    "in a form the preset cannot read (known: std::string const& of the "
		    "libstdc++ C++11 ABI, Catch::StringRef)",
		    exe, s.prep_args);
		rc = -ENOTSUP;
		goto out;
	}
	if (s.have_prep) {
		snprintf(p->name_path, sizeof(p->name_path), "%s", p->path);
		p->name_abi = s.prep_abi;
		add_site(p->name, &p->n_name, NAME_SITES, s.prep_va, BS_CATCH2_ENTRY);
		rc = find_inline(&s, &s.prep_va, 1, WANT_VCALL, p->name, &p->n_name, NAME_SITES,
				 &p->n_name_inline, why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "--preset catch2: %s: %s", exe, why);
			goto out;
		}
		for (uint32_t i = 0; i < p->n_name; i++)
			rc = rc
				 ?: bs_elf_vaddr_to_offset(&s.ef, p->name[i].vaddr, 1,
							   &p->name[i].offset);
	} else {
		rc = prep_in_library(p->path, p);
	}
	if (rc) {
		snprintf(err, errlen,
			 "--preset catch2: no Catch::RunContext::benchmarkPreparing in %s or a "
			 "libCatch2 it loads: benchmark names cannot be read (%s)",
			 exe, found);
		goto out;
	}
out:
	cs_free(s.insn, 1);
	cs_close(&s.cs);
out_elf:
	bs_elf_close(&s.ef);
	free(s.fns);
	return rc;
}
