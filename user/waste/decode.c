// SPDX-License-Identifier: MIT
/* decode.c - x86-64 memory accesses from instruction bytes (capstone). */
#include <capstone/capstone.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "waste/decode.h"
#include "waste/emu.h"

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

/* ---- forward walk (the emulator: waste/emu.c) ------------------------------------- */

int bs_waste_decode_next(struct bs_waste_decoder *d, bs_waste_code_reader rd, void *rctx,
			 const struct bs_waste_regs *regs, int max_insns, int skip,
			 struct bs_waste_access *out, int *steps)
{
	uint8_t buf[256];
	uint64_t buf_at = 0;
	long have = 0;
	struct bs_waste_emu e;
	struct bs_waste_access best;
	int n, have_best = -1, rc_stop = -ENODATA;

	if (!d || !rd || !regs || !out)
		return -EINVAL;
	bs_waste_emu_init(&e, regs);
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
							     : bs_waste_emu_gpr(br, &w);
						int gi = ir == X86_REG_INVALID
							     ? -2
							     : bs_waste_emu_gpr(ir, &w);

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
		if (!bs_waste_emu_step(d->cs, d->insn, &e))
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
