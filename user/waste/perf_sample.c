// SPDX-License-Identifier: MIT
/*
 * perf_sample.c - decode a PERF_RECORD_SAMPLE record (see perf_sample.h).
 * Field order: perf_event_open(2), "PERF_RECORD_SAMPLE".
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>

#include "waste/decode.h"
#include "waste/perf_sample.h"

/* a cursor over the record's bytes */
struct cur {
	const uint8_t *p, *end;
};

static int take(struct cur *c, void *dst, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -EBADMSG;
	if (dst)
		memcpy(dst, c->p, n);
	c->p += n;
	return 0;
}

int bs_waste_perf_sample_decode(const void *rec, size_t len, uint64_t sample_type,
				struct bs_waste_pmu_sample *out, const uint8_t **raw,
				uint32_t *raw_len)
{
	struct perf_event_header h;
	struct cur c = {rec, (const uint8_t *)rec + len};
	uint32_t u32[2], rsize = 0;
	const uint8_t *rp = NULL;
	uint64_t u;

	memset(out, 0, sizeof(*out));
	if (raw)
		*raw = NULL;
	if (raw_len)
		*raw_len = 0;
	if (sample_type & ~(uint64_t)BS_WASTE_PERF_SAMPLE_TYPES)
		return -EOPNOTSUPP;
	if (take(&c, &h, sizeof(h)) || h.size != len)
		return -EBADMSG;
	if (h.type != PERF_RECORD_SAMPLE)
		return -ENOMSG;
	if (((sample_type & PERF_SAMPLE_IDENTIFIER) && take(&c, NULL, 8)) ||
	    ((sample_type & PERF_SAMPLE_IP) && take(&c, &out->ip, 8)))
		return -EBADMSG;
	if (sample_type & PERF_SAMPLE_TID) {
		if (take(&c, u32, 8))
			return -EBADMSG;
		out->pid = u32[0];
		out->tid = u32[1];
	}
	if (((sample_type & PERF_SAMPLE_TIME) && take(&c, &out->time, 8)) ||
	    ((sample_type & PERF_SAMPLE_ADDR) && take(&c, &out->addr, 8)) ||
	    ((sample_type & PERF_SAMPLE_ID) && take(&c, &u, 8)) ||
	    ((sample_type & PERF_SAMPLE_STREAM_ID) && take(&c, &u, 8)) ||
	    ((sample_type & PERF_SAMPLE_CPU) && take(&c, u32, 8)) ||
	    ((sample_type & PERF_SAMPLE_PERIOD) && take(&c, &u, 8)))
		return -EBADMSG;
	if (sample_type & PERF_SAMPLE_RAW) {
		if (take(&c, &rsize, 4))
			return -EBADMSG;
		rp = c.p;
		if (take(&c, NULL, rsize))
			return -EBADMSG;
	}
	out->ip_valid = (sample_type & PERF_SAMPLE_IP) != 0;
	out->addr_valid = out->addr != 0;
	if (raw)
		*raw = rp;
	if (raw_len)
		*raw_len = rsize;
	return 0;
}

int bs_waste_pmu_access(const struct bs_waste_pmu_sample *s, const struct bs_waste_access *insn,
			struct bs_waste_access *out)
{
	memset(out, 0, sizeof(*out));
	if (insn)
		*out = *insn;
	out->ip = s->ip;
	out->addr = s->addr;
	if (s->size)
		out->size = s->size;
	if (s->load || s->store) {
		out->load = s->load;
		out->store = s->store;
	}
	if (!s->addr_valid || !s->addr || !out->size || (!out->load && !out->store))
		return -ENODATA;
	return 0;
}
