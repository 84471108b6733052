/* SPDX-License-Identifier: MIT */
/*
 * perf_sample.h - one address sample of a PMU (Intel PEBS `mem-loads` /
 * `mem-stores`, AMD IBS op) in the form `benchscope waste` uses, and the
 * decoding of a perf_event_open(2) PERF_RECORD_SAMPLE record into it.
 * Pure functions on bytes (no I/O), so that recorded samples can be
 * checked where the hardware is missing (tests/fixtures/waste/).
 */
#ifndef BENCHSCOPE_WASTE_PERF_SAMPLE_H
#define BENCHSCOPE_WASTE_PERF_SAMPLE_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One sampled memory access, as a PMU reported it. */
struct bs_waste_pmu_sample {
	uint32_t pid, tid; /**< PERF_SAMPLE_TID (0 when not sampled) */
	uint64_t time;	   /**< PERF_SAMPLE_TIME: perf clock, ns (0 when not sampled) */
	uint64_t ip;	   /**< the sampled instruction (PEBS with precise_ip 2, IBS: exact) */
	uint64_t addr;	   /**< its data address (linear, user space) */
	uint32_t size;	   /**< bytes accessed; 0: not reported (PEBS: decode the instruction) */
	bool ip_valid;	   /**< ip is the sampled instruction's */
	bool addr_valid;   /**< addr is known (PEBS: not 0; IBS: DcLinAddrValid) */
	bool load, store;  /**< the access reads / writes (both unknown: both false) */
};

/** The sample_type bits bs_waste_perf_sample_decode() understands. */
#define BS_WASTE_PERF_SAMPLE_TYPES                                                                 \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |             \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW)

/**
 * bs_waste_perf_sample_decode - decode the PERF_RECORD_SAMPLE record @rec
 * (@len bytes, starting with its struct perf_event_header, host byte order)
 * of an event opened with @sample_type (a subset of
 * BS_WASTE_PERF_SAMPLE_TYPES) into *@out: ip, pid/tid, time, the data
 * address (PERF_SAMPLE_ADDR; addr_valid when not 0; load/store and size
 * are not in such a record: the caller knows which event it opened). With
 * PERF_SAMPLE_RAW, *@raw and *@raw_len give the raw payload (for ibs_op:
 * bs_waste_ibs_op_decode()), else NULL and 0; both may be NULL.
 * Returns 0; -ENOMSG when the record is not a sample; -EOPNOTSUPP when
 * @sample_type has bits outside BS_WASTE_PERF_SAMPLE_TYPES; -EBADMSG when
 * the header's size disagrees with @len or the fields overrun it.
 */
int bs_waste_perf_sample_decode(const void *rec, size_t len, uint64_t sample_type,
				struct bs_waste_pmu_sample *out, const uint8_t **raw,
				uint32_t *raw_len);

struct bs_waste_access;

/**
 * bs_waste_pmu_access - the access to watch for PMU sample @s, whose
 * instruction at s->ip decoded to @insn (waste/decode.h; NULL when it did
 * not decode, e.g. a string instruction): the PMU's ip and data address;
 * its size and load/store where it reported them (IBS), else the decoded
 * instruction's; ilen, fp and text from @insn (0 and "" without it).
 * Returns 0 with *@out filled; -ENODATA when the sample has no data
 * address, or neither it nor @insn gives the size or the direction.
 */
int bs_waste_pmu_access(const struct bs_waste_pmu_sample *s, const struct bs_waste_access *insn,
			struct bs_waste_access *out);

#endif
