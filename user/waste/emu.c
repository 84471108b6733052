// SPDX-License-Identifier: MIT
/* waste/emu.c - forward emulation of register-only x86-64 instructions (see waste/emu.h). */
#include <capstone/capstone.h>
#include <string.h>

#include "waste/emu.h"

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

int bs_waste_emu_gpr(unsigned reg, int *width)
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

#define FL_CF 0x1
#define FL_ZF 0x40
#define FL_SF 0x80
#define FL_OF 0x800

void bs_waste_emu_init(struct bs_waste_emu *e, const struct bs_waste_regs *r)
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
static bool emu_get(const struct bs_waste_emu *e, const cs_x86_op *op, uint64_t *v)
{
	int w, g;

	if (op->type == X86_OP_IMM) {
		*v = (uint64_t)op->imm;
		return true;
	}
	if (op->type != X86_OP_REG)
		return false;
	g = bs_waste_emu_gpr(op->reg, &w);
	if (g < 0 || !(e->known & (1u << g)))
		return false;
	*v = e->r[g];
	if (w < 8)
		*v &= (1ull << (w * 8)) - 1;
	return true;
}

/* Write a register destination: 64/32-bit exact, narrower makes it unknown. */
static void emu_set(struct bs_waste_emu *e, unsigned reg, uint64_t v, bool known)
{
	int w, g = bs_waste_emu_gpr(reg, &w);

	if (g < 0)
		return;
	if (known && (w == 8 || w == 4)) {
		e->r[g] = w == 4 ? (uint32_t)v : v;
		e->known |= (uint16_t)(1u << g);
	} else {
		e->known &= (uint16_t) ~(1u << g);
	}
}

static void set_flags(struct bs_waste_emu *e, uint64_t res, int w, bool cf, bool of)
{
	uint64_t m = w == 8 ? ~0ull : (1ull << (w * 8)) - 1;

	res &= m;
	e->zf = res == 0;
	e->sf = (res >> (w * 8 - 1)) & 1;
	e->cf = cf;
	e->of = of;
	e->flags_known = true;
}

static bool cond(const struct bs_waste_emu *e, unsigned id, bool *taken)
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
int bs_waste_emu_step(csh cs, const cs_insn *in, struct bs_waste_emu *e)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o0 = x->op_count > 0 ? &x->operands[0] : NULL;
	const cs_x86_op *o1 = x->op_count > 1 ? &x->operands[1] : NULL;
	uint64_t a = 0, b = 0, r;
	bool ka, kb, taken;
	int w = o0 ? o0->size : 8;
	uint64_t m = w >= 8 ? ~0ull : (1ull << (w * 8)) - 1, sb = w >= 1 ? 1ull << (w * 8 - 1) : 0;

	e->ip = in->address + in->size;
	if (cs_insn_group(cs, in, X86_GRP_JUMP)) {
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
	if (cs_insn_group(cs, in, X86_GRP_CALL) || cs_insn_group(cs, in, X86_GRP_RET) ||
	    cs_insn_group(cs, in, X86_GRP_INT) || cs_insn_group(cs, in, X86_GRP_IRET))
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
				gb = bs_waste_emu_gpr(o1->mem.base, &wb);
				ok = gb >= 0 && (e->known & (1u << gb));
				base = ok ? e->r[gb] : 0;
			}
			if (ok && o1->mem.index != X86_REG_INVALID) {
				gi = bs_waste_emu_gpr(o1->mem.index, &wi);
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

		if (cs_regs_access(cs, in, rr, &nr, ww, &nw) != CS_ERR_OK) {
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
