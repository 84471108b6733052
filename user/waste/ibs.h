/* SPDX-License-Identifier: MIT */
/*
 * ibs.h - AMD IBS op sampling (the `ibs_op` PMU): the raw registers the
 * kernel records with PERF_SAMPLE_RAW, decoded into a struct
 * bs_waste_pmu_sample, and the attribute bits to open it with.
 *
 * The raw payload (Linux arch/x86/events/amd/ibs.c, perf_ibs_handle_irq;
 * the same since Linux 3.5): a u32 copy of the kernel's `ibs_caps` (CPUID
 * Fn8000_001B EAX), then one u64 per MSR in MSR order: IBS_OP_CTL
 * (C001_1033), IBS_OP_RIP, IBS_OP_DATA, IBS_OP_DATA2, IBS_OP_DATA3,
 * IBS_DC_LINADDR, IBS_DC_PHYSADDR (C001_1039); with PERF_SAMPLE_RAW, also
 * IBS_BR_TARGET and IBS_OP_DATA4 where the caps announce them. The bit
 * fields: AMD APM vol. 2, "Instruction-Based Sampling", and the family 19h
 * PPR (docs/references.md).
 */
#ifndef BENCHSCOPE_WASTE_IBS_H
#define BENCHSCOPE_WASTE_IBS_H

#include <stddef.h>
#include <stdint.h>

#include "waste/perf_sample.h"

/* IBS_OP_CTL */
#define BS_IBS_OP_MAX_CNT 0xffffull    /**< bits 0-15: period / 16 */
#define BS_IBS_OP_EN	  (1ull << 17) /**< op sampling enabled */
#define BS_IBS_OP_VAL	  (1ull << 18) /**< the sample is valid */
#define BS_IBS_OP_CNT_CTL (1ull << 19) /**< count dispatched ops (1) or cycles (0) */
/* IBS_OP_DATA */
#define BS_IBS_RIP_INVALID (1ull << 38) /**< IBS_OP_RIP does not hold the op's ip */
/* IBS_OP_DATA3 */
#define BS_IBS_LD_OP		 (1ull << 0)	      /**< a load */
#define BS_IBS_ST_OP		 (1ull << 1)	      /**< a store */
#define BS_IBS_DC_LIN_ADDR_VALID (1ull << 17)	      /**< IBS_DC_LINADDR holds the data address */
#define BS_IBS_SW_PF		 (1ull << 21)	      /**< a software prefetch */
#define BS_IBS_OP_MEM_WIDTH(d3)	 (((d3) >> 22) & 0xf) /**< 0: unknown; else 2^(w-1) bytes */

/** Raw payload: the caps word, then this many u64 (the 7 MSRs always read). */
#define BS_IBS_OP_NREGS	  7
#define BS_IBS_OP_RAW_MIN (4 + 8 * BS_IBS_OP_NREGS)

/**
 * bs_waste_ibs_op_decode - decode the raw payload @raw (@len bytes: the caps
 * word and the registers, as above; what PERF_SAMPLE_RAW's u32 size is
 * followed by) of one ibs_op sample into *@out: ip (IBS_OP_RIP unless
 * RipInvalid), data address (IBS_DC_LINADDR when DcLinAddrValid), load or
 * store (LdOp, StOp of IBS_OP_DATA3), size in bytes (OpMemWidth, where the
 * CPU reports it, else 0). pid/tid/time stay 0 (they are the record's).
 * *@caps (may be NULL) gets the caps word.
 * Returns 0 for a load or store; -ENODATA for a valid op that is neither
 * (or a software prefetch: no access); -EINVAL when the sample is not
 * valid (OpVal clear); -EBADMSG when @len is shorter than
 * BS_IBS_OP_RAW_MIN or not 4 + a multiple of 8.
 */
int bs_waste_ibs_op_decode(const uint8_t *raw, size_t len, struct bs_waste_pmu_sample *out,
			   uint32_t *caps);

/** The longest ibs_op period every IBS CPU takes: 16 * IbsOpMaxCnt (16 bits). */
#define BS_IBS_OP_MAX_PERIOD (16 * BS_IBS_OP_MAX_CNT)

/**
 * bs_waste_ibs_period - @period rounded to what ibs_op accepts as
 * sample_period (the kernel refuses a period with any of the low 4 bits
 * set): a multiple of 16, at least 16, at most BS_IBS_OP_MAX_PERIOD
 * (longer needs the extended count, which user space cannot see). Pure.
 */
uint64_t bs_waste_ibs_period(uint64_t period);

#endif
