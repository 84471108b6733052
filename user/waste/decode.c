// SPDX-License-Identifier: MIT
/* waste_decode.c - x86-64 memory accesses from instruction bytes (capstone). */
#include <capstone/capstone.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "waste/decode.h"

struct bs_waste_decoder {
	csh cs;
	cs_insn *insn;
};

struct bs_waste_decoder *bs_waste_decoder_new(void)
{
	struct bs_waste_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &d->cs) != CS_ERR_OK) {
		free(d);
		errno = ENOTSUP;
		return NULL;
	}
	cs_option(d->cs, CS_OPT_DETAIL, CS_OPT_ON);
	d->insn = cs_malloc(d->cs);
	if (!d->insn) {
		cs_close(&d->cs);
		free(d);
		errno = ENOMEM;
		return NULL;
	}
	return d;
}

void bs_waste_decoder_free(struct bs_waste_decoder *d)
{
	if (!d)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d);
}

/* Value of a general register (64- or 32-bit name) from sampled registers. */
static int reg_value(unsigned reg, const struct bs_waste_regs *r, uint64_t next_ip, uint64_t *v)
{
	switch (reg) {
	case X86_REG_INVALID:
		*v = 0;
		return 0;
	case X86_REG_RIP:
		*v = next_ip;
		return 0;
	case X86_REG_EIP:
		*v = (uint32_t)next_ip;
		return 0;
	case X86_REG_RAX:
		*v = r->ax;
		return 0;
	case X86_REG_RBX:
		*v = r->bx;
		return 0;
	case X86_REG_RCX:
		*v = r->cx;
		return 0;
	case X86_REG_RDX:
		*v = r->dx;
		return 0;
	case X86_REG_RSI:
		*v = r->si;
		return 0;
	case X86_REG_RDI:
		*v = r->di;
		return 0;
	case X86_REG_RBP:
		*v = r->bp;
		return 0;
	case X86_REG_RSP:
		*v = r->sp;
		return 0;
	case X86_REG_R8:
		*v = r->r8;
		return 0;
	case X86_REG_R9:
		*v = r->r9;
		return 0;
	case X86_REG_R10:
		*v = r->r10;
		return 0;
	case X86_REG_R11:
		*v = r->r11;
		return 0;
	case X86_REG_R12:
		*v = r->r12;
		return 0;
	case X86_REG_R13:
		*v = r->r13;
		return 0;
	case X86_REG_R14:
		*v = r->r14;
		return 0;
	case X86_REG_R15:
		*v = r->r15;
		return 0;
	case X86_REG_EAX:
		*v = (uint32_t)r->ax;
		return 0;
	case X86_REG_EBX:
		*v = (uint32_t)r->bx;
		return 0;
	case X86_REG_ECX:
		*v = (uint32_t)r->cx;
		return 0;
	case X86_REG_EDX:
		*v = (uint32_t)r->dx;
		return 0;
	case X86_REG_ESI:
		*v = (uint32_t)r->si;
		return 0;
	case X86_REG_EDI:
		*v = (uint32_t)r->di;
		return 0;
	case X86_REG_EBP:
		*v = (uint32_t)r->bp;
		return 0;
	case X86_REG_ESP:
		*v = (uint32_t)r->sp;
		return 0;
	case X86_REG_R8D:
		*v = (uint32_t)r->r8;
		return 0;
	case X86_REG_R9D:
		*v = (uint32_t)r->r9;
		return 0;
	case X86_REG_R10D:
		*v = (uint32_t)r->r10;
		return 0;
	case X86_REG_R11D:
		*v = (uint32_t)r->r11;
		return 0;
	case X86_REG_R12D:
		*v = (uint32_t)r->r12;
		return 0;
	case X86_REG_R13D:
		*v = (uint32_t)r->r13;
		return 0;
	case X86_REG_R14D:
		*v = (uint32_t)r->r14;
		return 0;
	case X86_REG_R15D:
		*v = (uint32_t)r->r15;
		return 0;
	default:
		return -ENOTSUP; /* vector index registers (gathers) and the like */
	}
}

static bool no_access_insn(unsigned id)
{
	switch (id) {
	case X86_INS_LEA:
	case X86_INS_NOP:
	case X86_INS_PREFETCH:
	case X86_INS_PREFETCHNTA:
	case X86_INS_PREFETCHT0:
	case X86_INS_PREFETCHT1:
	case X86_INS_PREFETCHT2:
	case X86_INS_PREFETCHW:
	case X86_INS_CLFLUSH:
	case X86_INS_CLFLUSHOPT:
		return true;
	default:
		return false;
	}
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* Floating-point element size of an instruction's memory operand (0: integer). */
static uint8_t fp_kind(const cs_insn *in, uint32_t size)
{
	const char *m = in->mnemonic;

	if (m[0] == 'f' && (size == 4 || size == 8) && strncmp(m, "fi", 2) && strncmp(m, "fn", 2) &&
	    strcmp(m, "fxsave") && strcmp(m, "fxrstor"))
		return (uint8_t)size; /* x87 fld/fst/fadd... of float/double */
	if (ends_with(m, "ss") || ends_with(m, "ps"))
		return 4;
	if (ends_with(m, "sd") || ends_with(m, "pd"))
		return 8;
	return 0;
}

/* Fill *out from the decoded d->insn; returns -ENODATA without a data access. */
static int fill(struct bs_waste_decoder *d, const struct bs_waste_regs *regs,
		struct bs_waste_access *out)
{
	const cs_insn *in = d->insn;
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *mem = NULL;
	int i, nmem = 0;

	memset(out, 0, sizeof(*out));
	out->ip = in->address;
	out->ilen = in->size;
	snprintf(out->text, sizeof(out->text), "%.15s %.55s", in->mnemonic, in->op_str);
	if (no_access_insn(in->id))
		return -ENODATA;
	for (i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM) {
			mem = &x->operands[i];
			nmem++;
		}
	if (nmem != 1 || !mem->access || !mem->size)
		return -ENODATA;
	if (x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE)
		return -ENODATA;
	out->size = mem->size;
	out->load = mem->access & CS_AC_READ;
	out->store = mem->access & CS_AC_WRITE;
	out->fp = fp_kind(in, mem->size);
	if (regs) {
		uint64_t base, index, a;
		unsigned seg = mem->mem.segment;

		if (seg == X86_REG_GS)
			return -ENOTSUP;
		if (reg_value(mem->mem.base, regs, in->address + in->size, &base) ||
		    reg_value(mem->mem.index, regs, in->address + in->size, &index))
			return -ENOTSUP;
		a = base + index * (uint64_t)(int64_t)mem->mem.scale + (uint64_t)mem->mem.disp;
		if (seg == X86_REG_FS)
			a += regs->fs_base;
		out->addr = a;
	}
	return 0;
}

int bs_waste_decode_at(struct bs_waste_decoder *d, const uint8_t *code, size_t n, uint64_t ip,
		       const struct bs_waste_regs *regs, struct bs_waste_access *out)
{
	const uint8_t *p = code;
	uint64_t addr = ip;

	if (!d || !code || !out)
		return -EINVAL;
	if (!cs_disasm_iter(d->cs, &p, &n, &addr, d->insn))
		return -ENOEXEC;
	return fill(d, regs, out);
}

int bs_waste_decode_before(struct bs_waste_decoder *d, const uint8_t *code, size_t n,
			   uint64_t end_ip, uint64_t func_start, struct bs_waste_access *out)
{
	size_t k;

	if (!d || !code || !out || !n)
		return -EINVAL;
	if (func_start && func_start < end_ip && end_ip - func_start <= n) {
		const uint8_t *p = code + (n - (end_ip - func_start));
		size_t left = end_ip - func_start;
		uint64_t a = func_start;

		while (left && cs_disasm_iter(d->cs, &p, &left, &a, d->insn))
			if (a == end_ip)
				return fill(d, NULL, out);
		/* fall through to the heuristic when the function did not decode */
	}
	/* Decode linearly from each of the 15 bytes before end_ip; x86 code
	 * resynchronises quickly, so the start reached by most runs that end
	 * exactly at end_ip wins (ties: the longest instruction). */
	{
		uint64_t best = 0;
		int votes[16] = {0}, bestv = 0;

		for (k = n < 15 ? n : 15; k >= 1; k--) {
			const uint8_t *p = code + n - k;
			size_t left = k;
			uint64_t a = end_ip - k, start = a;

			while (left && cs_disasm_iter(d->cs, &p, &left, &a, d->insn)) {
				if (a == end_ip)
					votes[end_ip - start]++;
				start = a;
			}
		}
		for (k = 15; k >= 1; k--)
			if (votes[k] > bestv) {
				bestv = votes[k];
				best = k;
			}
		if (bestv) {
			const uint8_t *p = code + n - best;
			size_t left = best;
			uint64_t a = end_ip - best;

			if (cs_disasm_iter(d->cs, &p, &left, &a, d->insn) && !left)
				return fill(d, NULL, out);
		}
	}
	return -ENOEXEC;
}

uint32_t bs_waste_watch_range(uint64_t addr, uint32_t size, uint64_t *waddr, uint32_t *wlen)
{
	uint32_t len;

	for (len = 8; len > 1; len /= 2)
		if (len <= size && !(addr & (len - 1)))
			break;
	if (!size)
		len = 0;
	*waddr = addr;
	*wlen = len;
	return len;
}

/* ---- forward emulation ------------------------------------------------------------ */

/* GPR index (pt_regs-independent: 0 ax .. 15 r15) and width of a capstone register. */
static const unsigned gpr_ids[16][4] = {
    {X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL},
    {X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL},
    {X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL},
    {X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL},
    {X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL},
    {X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL},
    {X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL},
    {X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL},
    {X86_REG_R8, X86_REG_R8D, X86_REG_R8W, X86_REG_R8B},
    {X86_REG_R9, X86_REG_R9D, X86_REG_R9W, X86_REG_R9B},
    {X86_REG_R10, X86_REG_R10D, X86_REG_R10W, X86_REG_R10B},
    {X86_REG_R11, X86_REG_R11D, X86_REG_R11W, X86_REG_R11B},
    {X86_REG_R12, X86_REG_R12D, X86_REG_R12W, X86_REG_R12B},
    {X86_REG_R13, X86_REG_R13D, X86_REG_R13W, X86_REG_R13B},
    {X86_REG_R14, X86_REG_R14D, X86_REG_R14W, X86_REG_R14B},
    {X86_REG_R15, X86_REG_R15D, X86_REG_R15W, X86_REG_R15B},
};

static int gpr_of(unsigned reg, int *width)
{
	int i, j;

	for (i = 0; i < 16; i++)
		for (j = 0; j < 4; j++)
			if (gpr_ids[i][j] == reg) {
				*width = j == 0 ? 8 : j == 1 ? 4 : j == 2 ? 2 : 1;
				return i;
			}
	return -1;
}

struct emu {
	uint64_t r[16];
	uint16_t known; /* bit i: r[i] known */
	uint64_t ip, fs_base;
	bool zf, sf, cf, of, flags_known;
};

#define FL_CF 0x1
#define FL_ZF 0x40
#define FL_SF 0x80
#define FL_OF 0x800

static void emu_init(struct emu *e, const struct bs_waste_regs *r)
{
	const uint64_t v[16] = {r->ax, r->cx, r->dx,  r->bx,  r->sp,  r->bp,  r->si,  r->di,
				r->r8, r->r9, r->r10, r->r11, r->r12, r->r13, r->r14, r->r15};

	memcpy(e->r, v, sizeof(v));
	e->known = 0xffff;
	e->ip = r->ip;
	e->fs_base = r->fs_base;
	e->zf = r->flags & FL_ZF;
	e->sf = r->flags & FL_SF;
	e->cf = r->flags & FL_CF;
	e->of = r->flags & FL_OF;
	e->flags_known = true;
}

/* Value of operand @op (register or immediate) at @width bytes; false if unknown. */
static bool emu_get(const struct emu *e, const cs_x86_op *op, uint64_t *v)
{
	int w, g;

	if (op->type == X86_OP_IMM) {
		*v = (uint64_t)op->imm;
		return true;
	}
	if (op->type != X86_OP_REG)
		return false;
	g = gpr_of(op->reg, &w);
	if (g < 0 || !(e->known & (1u << g)))
		return false;
	*v = e->r[g];
	if (w < 8)
		*v &= (1ull << (w * 8)) - 1;
	return true;
}

/* Write a register destination: 64/32-bit exact, narrower makes it unknown. */
static void emu_set(struct emu *e, unsigned reg, uint64_t v, bool known)
{
	int w, g = gpr_of(reg, &w);

	if (g < 0)
		return;
	if (known && (w == 8 || w == 4)) {
		e->r[g] = w == 4 ? (uint32_t)v : v;
		e->known |= (uint16_t)(1u << g);
	} else {
		e->known &= (uint16_t) ~(1u << g);
	}
}

static void set_flags(struct emu *e, uint64_t res, int w, bool cf, bool of)
{
	uint64_t m = w == 8 ? ~0ull : (1ull << (w * 8)) - 1;

	res &= m;
	e->zf = res == 0;
	e->sf = (res >> (w * 8 - 1)) & 1;
	e->cf = cf;
	e->of = of;
	e->flags_known = true;
}

static bool cond(const struct emu *e, unsigned id, bool *taken)
{
	if (!e->flags_known)
		return false;
	switch (id) {
	case X86_INS_JE:
		*taken = e->zf;
		break;
	case X86_INS_JNE:
		*taken = !e->zf;
		break;
	case X86_INS_JB:
		*taken = e->cf;
		break;
	case X86_INS_JAE:
		*taken = !e->cf;
		break;
	case X86_INS_JBE:
		*taken = e->cf || e->zf;
		break;
	case X86_INS_JA:
		*taken = !e->cf && !e->zf;
		break;
	case X86_INS_JS:
		*taken = e->sf;
		break;
	case X86_INS_JNS:
		*taken = !e->sf;
		break;
	case X86_INS_JO:
		*taken = e->of;
		break;
	case X86_INS_JNO:
		*taken = !e->of;
		break;
	case X86_INS_JL:
		*taken = e->sf != e->of;
		break;
	case X86_INS_JGE:
		*taken = e->sf == e->of;
		break;
	case X86_INS_JLE:
		*taken = e->zf || e->sf != e->of;
		break;
	case X86_INS_JG:
		*taken = !e->zf && e->sf == e->of;
		break;
	default:
		return false;
	}
	return true;
}

/* Emulate one register-only instruction. 1: continue at e->ip; 0: stop (unsupported branch). */
static int emu_step(struct bs_waste_decoder *d, struct emu *e)
{
	const cs_insn *in = d->insn;
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = x->op_count > 0 ? &x->operands[0] : NULL;
	const cs_x86_op *o1 = x->op_count > 1 ? &x->operands[1] : NULL;
	uint64_t a = 0, b = 0, r;
	bool ka, kb, taken;
	int w = o0 ? o0->size : 8;
	uint64_t m = w >= 8 ? ~0ull : (1ull << (w * 8)) - 1, sb = w >= 1 ? 1ull << (w * 8 - 1) : 0;

	e->ip = in->address + in->size;
	if (cs_insn_group(d->cs, in, X86_GRP_JUMP)) {
		if (!o0 || o0->type != X86_OP_IMM)
			return 0;
		if (in->id == X86_INS_JMP) {
			e->ip = (uint64_t)o0->imm;
			return 1;
		}
		if (!cond(e, in->id, &taken))
			return 0;
		if (taken)
			e->ip = (uint64_t)o0->imm;
		return 1;
	}
	if (cs_insn_group(d->cs, in, X86_GRP_CALL) || cs_insn_group(d->cs, in, X86_GRP_RET) ||
	    cs_insn_group(d->cs, in, X86_GRP_INT) || cs_insn_group(d->cs, in, X86_GRP_IRET))
		return 0;
	switch (in->id) {
	case X86_INS_NOP:
	case X86_INS_ENDBR64:
		return 1;
	case X86_INS_LEA:
		if (o1 && o1->type == X86_OP_MEM && o1->mem.segment == X86_REG_INVALID) {
			uint64_t base = 0, idx = 0;
			int wb, wi, gb = -1, gi = -1;
			bool ok = true;

			if (o1->mem.base == X86_REG_RIP)
				base = e->ip;
			else if (o1->mem.base != X86_REG_INVALID) {
				gb = gpr_of(o1->mem.base, &wb);
				ok = gb >= 0 && (e->known & (1u << gb));
				base = ok ? e->r[gb] : 0;
			}
			if (ok && o1->mem.index != X86_REG_INVALID) {
				gi = gpr_of(o1->mem.index, &wi);
				ok = gi >= 0 && (e->known & (1u << gi));
				idx = ok ? e->r[gi] : 0;
			}
			emu_set(e, o0->reg,
				base + idx * (uint64_t)(int64_t)o1->mem.scale +
				    (uint64_t)o1->mem.disp,
				ok);
			return 1;
		}
		break;
	case X86_INS_MOV:
	case X86_INS_MOVABS:
		if (o0 && o1 && o0->type == X86_OP_REG) {
			ka = emu_get(e, o1, &a);
			emu_set(e, o0->reg, a, ka);
			return 1;
		}
		break;
	case X86_INS_MOVSXD:
	case X86_INS_MOVSX:
	case X86_INS_MOVZX:
		if (o0 && o1 && o0->type == X86_OP_REG && o1->type == X86_OP_REG) {
			int ws = o1->size;

			ka = emu_get(e, o1, &a);
			if (in->id != X86_INS_MOVZX && ws < 8 && (a >> (ws * 8 - 1)) & 1)
				a |= ~0ull << (ws * 8);
			emu_set(e, o0->reg, a, ka);
			return 1;
		}
		break;
	case X86_INS_CDQE:
		ka = e->known & 1;
		a = (uint64_t)(int64_t)(int32_t)e->r[0];
		emu_set(e, X86_REG_RAX, a, ka);
		return 1;
	case X86_INS_ADD:
	case X86_INS_SUB:
	case X86_INS_CMP:
	case X86_INS_AND:
	case X86_INS_OR:
	case X86_INS_XOR:
	case X86_INS_TEST:
		if (o0 && o1 && o0->type == X86_OP_REG) {
			ka = emu_get(e, o0, &a);
			kb = emu_get(e, o1, &b);
			if (in->id == X86_INS_XOR && o1->type == X86_OP_REG && o0->reg == o1->reg) {
				a = b = 0;
				ka = kb = true;
			}
			if (!(ka && kb)) {
				if (in->id != X86_INS_CMP && in->id != X86_INS_TEST)
					emu_set(e, o0->reg, 0, false);
				e->flags_known = false;
				return 1;
			}
			a &= m;
			b &= m;
			switch (in->id) {
			case X86_INS_ADD:
				r = (a + b) & m;
				set_flags(e, r, w, r < a, !((a ^ b) & sb) && ((a ^ r) & sb));
				emu_set(e, o0->reg, r, true);
				break;
			case X86_INS_SUB:
			case X86_INS_CMP:
				r = (a - b) & m;
				set_flags(e, r, w, a < b, ((a ^ b) & sb) && ((a ^ r) & sb));
				if (in->id == X86_INS_SUB)
					emu_set(e, o0->reg, r, true);
				break;
			default:
				r = in->id == X86_INS_OR    ? a | b
				    : in->id == X86_INS_XOR ? a ^ b
							    : a & b;
				set_flags(e, r, w, false, false);
				if (in->id != X86_INS_TEST)
					emu_set(e, o0->reg, r, true);
			}
			return 1;
		}
		break;
	case X86_INS_INC:
	case X86_INS_DEC:
		if (o0 && o0->type == X86_OP_REG) {
			bool cf = e->cf;

			ka = emu_get(e, o0, &a);
			if (!ka) {
				emu_set(e, o0->reg, 0, false);
				e->flags_known = false;
				return 1;
			}
			a &= m;
			r = (in->id == X86_INS_INC ? a + 1 : a - 1) & m;
			set_flags(e, r, w, cf, in->id == X86_INS_INC ? r == sb : a == sb);
			emu_set(e, o0->reg, r, true);
			return 1;
		}
		break;
	case X86_INS_SHL:
	case X86_INS_SHR:
	case X86_INS_SAR:
		if (o0 && o1 && o0->type == X86_OP_REG && o1->type == X86_OP_IMM) {
			unsigned c = (unsigned)o1->imm & (w == 8 ? 63 : 31);

			ka = emu_get(e, o0, &a);
			a &= m;
			if (in->id == X86_INS_SHL)
				r = a << c;
			else if (in->id == X86_INS_SHR)
				r = a >> c;
			else
				r = (uint64_t)(((int64_t)(a << (64 - w * 8))) >> (64 - w * 8)) >> c;
			emu_set(e, o0->reg, r & m, ka);
			e->flags_known = false;
			return 1;
		}
		break;
	default:
		break;
	}
	/* anything else without a memory operand: what it writes becomes unknown */
	{
		cs_regs rr, ww;
		uint8_t nr = 0, nw = 0, i;

		if (cs_regs_access(d->cs, in, rr, &nr, ww, &nw) != CS_ERR_OK) {
			e->known = 0;
			e->flags_known = false;
			return 1;
		}
		for (i = 0; i < nw; i++) {
			if (ww[i] == X86_REG_EFLAGS)
				e->flags_known = false;
			else
				emu_set(e, ww[i], 0, false);
		}
	}
	return 1;
}

int bs_waste_decode_next(struct bs_waste_decoder *d, bs_waste_code_reader rd, void *rctx,
			 const struct bs_waste_regs *regs, int max_insns, int skip,
			 struct bs_waste_access *out, int *steps)
{
	uint8_t buf[256];
	uint64_t buf_at = 0;
	long have = 0;
	struct emu e;
	struct bs_waste_access best;
	int n, have_best = -1, rc_stop = -ENODATA;

	if (!d || !rd || !regs || !out)
		return -EINVAL;
	emu_init(&e, regs);
	for (n = 0; n < max_insns; n++) {
		const uint8_t *p;
		size_t left;
		uint64_t a = e.ip;
		int rc;

		if (!have || e.ip < buf_at || e.ip + 16 > buf_at + (uint64_t)have) {
			have = rd(rctx, e.ip, buf, sizeof(buf));
			buf_at = e.ip;
			if (have <= 0)
				return -ENOEXEC;
		}
		p = buf + (e.ip - buf_at);
		left = (size_t)have - (size_t)(e.ip - buf_at);
		if (!cs_disasm_iter(d->cs, &p, &left, &a, d->insn))
			return -ENOEXEC;
		{
			struct bs_waste_regs r2 = *regs;

			r2.ax = e.r[0], r2.cx = e.r[1], r2.dx = e.r[2], r2.bx = e.r[3];
			r2.sp = e.r[4], r2.bp = e.r[5], r2.si = e.r[6], r2.di = e.r[7];
			r2.r8 = e.r[8], r2.r9 = e.r[9], r2.r10 = e.r[10], r2.r11 = e.r[11];
			r2.r12 = e.r[12], r2.r13 = e.r[13], r2.r14 = e.r[14], r2.r15 = e.r[15];
			rc = fill(d, NULL, out);
			if (rc == 0) {
				/* a candidate: its address registers must be known */
				const cs_x86 *x = &d->insn->detail->x86;
				int i, w;
				bool ok = true;

				for (i = 0; i < x->op_count; i++)
					if (x->operands[i].type == X86_OP_MEM) {
						unsigned br = x->operands[i].mem.base,
							 ir = x->operands[i].mem.index;
						int gb = br == X86_REG_INVALID || br == X86_REG_RIP
							     ? -2
							     : gpr_of(br, &w);
						int gi =
						    ir == X86_REG_INVALID ? -2 : gpr_of(ir, &w);

						if (gb == -1 || gi == -1 ||
						    (gb >= 0 && !(e.known & (1u << gb))) ||
						    (gi >= 0 && !(e.known & (1u << gi))))
							ok = false;
					}
				if (ok && fill(d, &r2, &best) == 0) {
					have_best = n;
					if (skip-- <= 0) {
						*out = best;
						if (steps)
							*steps = n;
						return 0;
					}
				} else if (!ok && skip <= 0) {
					break; /* the wanted access has an unknown address */
				}
			}
			if (rc != 0 && rc != -ENODATA)
				return rc;
			/* an access passed over, or none (push, string op: emulated as unknown
			 * writes) */
		}
		if (!emu_step(d, &e))
			break;
	}
	/* stopped before the skip-th access: the last one passed, if any */
	if (have_best >= 0) {
		*out = best;
		if (steps)
			*steps = have_best;
		return 0;
	}
	return rc_stop;
}
