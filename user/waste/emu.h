/* SPDX-License-Identifier: MIT */
/*
 * waste/emu.h - the forward emulation behind bs_waste_decode_next()
 * (waste/decode.h): register-only x86-64 instructions run on a copy of the
 * sampled registers, so that the address of a data access a few
 * instructions after a skidded sample ip can be computed. Values are
 * tracked per general register as known or unknown; flags are tracked
 * for the conditional jumps.
 *
 * The instructions come decoded by capstone (detail mode) from the caller;
 * nothing here reads the target's memory.
 */
#ifndef BENCHSCOPE_WASTE_EMU_H
#define BENCHSCOPE_WASTE_EMU_H

#include <capstone/capstone.h>
#include <stdbool.h>
#include <stdint.h>

#include "benchscope/waste_record.h"

/** The emulated registers: general registers by index (0 ax, 1 cx, 2 dx, 3 bx, 4 sp, 5 bp, 6 si,
 * 7 di, 8..15 r8..r15, the x86 encoding order), the next ip, fs base and flags. */
struct bs_waste_emu {
	uint64_t r[16];
	uint16_t known; /* bit i: r[i] known */
	uint64_t ip, fs_base;
	bool zf, sf, cf, of, flags_known;
};

/**
 * bs_waste_emu_gpr - the general register index (0..15, as in struct
 * bs_waste_emu) of capstone register @reg, and in *width its size in bytes
 * (8, 4, 2 or 1). Returns -1 for a register that is not a general one
 * (rip, segment, vector registers); *width is then unchanged.
 */
int bs_waste_emu_gpr(unsigned reg, int *width);

/** bs_waste_emu_init - every register known, from the sampled @r (ip, fs base, flags too). */
void bs_waste_emu_init(struct bs_waste_emu *e, const struct bs_waste_regs *r);

/**
 * bs_waste_emu_step - emulate instruction @in (decoded by @cs with detail
 * on) on @e: e->ip moves past it or to a jump's target; mov, lea, add,
 * sub, inc, dec, and, or, xor, shifts by an immediate, movsx/zx, cdqe,
 * cmp and test compute their result when their inputs are known; any
 * other instruction makes the registers and flags it writes unknown.
 * Returns 1 to continue at e->ip, 0 to stop (call, ret, int, an indirect
 * jump, a conditional jump on unknown flags or on a condition not
 * emulated, such as parity).
 */
int bs_waste_emu_step(csh cs, const cs_insn *in, struct bs_waste_emu *e);

#endif
