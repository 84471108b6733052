/* SPDX-License-Identifier: MIT */
/*
 * decode.h - decode the x86-64 instruction at a sampled ip (capstone,
 * detail mode) and compute its data address from the sampled registers;
 * decode the instruction that ended at a watchpoint's trap ip.
 *
 * Only explicit memory operands count: implicit stack accesses (push, call,
 * ret), string instructions and instructions with two memory operands are
 * not decoded ("no access"), and neither are lea, nop or prefetch, which do
 * not access memory.
 */
#ifndef BENCHSCOPE_WASTE_DECODE_H
#define BENCHSCOPE_WASTE_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/waste_record.h"

/** One decoded memory access. */
struct bs_waste_access {
	uint64_t ip;   /**< address of the instruction */
	uint32_t ilen; /**< instruction length, bytes */
	uint32_t size; /**< bytes accessed by the memory operand (1..64) */
	uint64_t addr; /**< effective address (0 when not computed) */
	bool load;     /**< the operand is read */
	bool store;    /**< the operand is written (read-modify-write: both) */
	uint8_t fp;    /**< floating-point element size: 0 (integer), 4 or 8 */
	char text[72]; /**< "mnemonic operands" */
};

struct bs_waste_decoder;

/** Open a decoder (capstone x86-64, detail on). NULL with errno on failure. */
struct bs_waste_decoder *bs_waste_decoder_new(void);
/** Free it (NULL-safe). */
void bs_waste_decoder_free(struct bs_waste_decoder *d);

/**
 * bs_waste_decode_at - decode the instruction at @ip from @code (@n bytes
 * read at @ip, up to 16) and, with @regs, compute its effective address
 * (base + index * scale + displacement, rip-relative, fs-relative through
 * regs->fs_base; gs-relative gives -ENOTSUP). @regs may be NULL: no address.
 * Returns 0 with *out filled; -ENOEXEC when the bytes do not decode;
 * -ENODATA when the instruction has no decodable data access (see above).
 */
int bs_waste_decode_at(struct bs_waste_decoder *d, const uint8_t *code, size_t n, uint64_t ip,
		       const struct bs_waste_regs *regs, struct bs_waste_access *out);

/** Reads @len code bytes at @addr of the sampled process into @buf; returns bytes read (<= 0:
 * none). */
typedef long (*bs_waste_code_reader)(void *ctx, uint64_t addr, uint8_t *buf, size_t len);

/**
 * bs_waste_decode_next - the first data access at or after the sampled ip.
 * A timer interrupt mostly lands on the instruction that waits for a load,
 * not on the load itself (skid), so the soft source runs the code forward
 * from regs->ip on a copy of the registers: register-only instructions are
 * emulated (mov, lea, add, sub, inc, dec, and, or, xor, shifts, movsx/zx,
 * cmp, test; others mark the registers they write unknown), jmp and jcc are
 * followed (flags from regs->flags or from the emulated instruction that
 * set them), up to @max_insns instructions. The data access (as for
 * bs_waste_decode_at) met after passing @skip others is returned with its
 * address from the emulated registers; the thread has not executed it yet
 * when it is stopped at the sample. A random @skip spreads the samples over
 * the accesses that follow a stall instead of always taking the first;
 * when the walk stops before that many, the last access passed is taken. Returns 0; -ENODATA when a
 * call, ret, unknown branch, unknown register in the address or the limit comes first; -ENOEXEC
 * when code cannot be read or decoded. *steps: instructions passed before it (may be NULL).
 */
int bs_waste_decode_next(struct bs_waste_decoder *d, bs_waste_code_reader rd, void *rctx,
			 const struct bs_waste_regs *regs, int max_insns, int skip,
			 struct bs_waste_access *out, int *steps);

/**
 * bs_waste_decode_before - the memory-accessing instruction that ends at
 * @end_ip. @code holds the @n bytes just before @end_ip (code[n-1] is at
 * end_ip - 1). When @func_start (<= end_ip, 0: unknown) is given and
 * @code reaches back to it, the bytes are decoded from there, which is
 * exact; otherwise the longest instruction (up to 15 bytes) ending exactly
 * at end_ip that has a memory operand is taken. No address is computed.
 * Returns 0, -ENOEXEC (nothing decodes to end there), or -ENODATA.
 */
int bs_waste_decode_before(struct bs_waste_decoder *d, const uint8_t *code, size_t n,
			   uint64_t end_ip, uint64_t func_start, struct bs_waste_access *out);

#endif
