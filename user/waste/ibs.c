// SPDX-License-Identifier: MIT
/* ibs.c - decode AMD IBS op samples (see ibs.h). */
#include <errno.h>
#include <string.h>

#include "waste/ibs.h"

/* register indices in the raw payload, after the caps word */
enum { R_CTL, R_RIP, R_DATA, R_DATA2, R_DATA3, R_LINADDR, R_PHYSADDR };

static uint64_t reg(const uint8_t *raw, int i)
{
	uint64_t v;

	memcpy(&v, raw + 4 + 8 * i, 8);
	return v;
}

int bs_waste_ibs_op_decode(const uint8_t *raw, size_t len, struct bs_waste_pmu_sample *out,
			   uint32_t *caps)
{
	uint64_t ctl, data, d3;
	unsigned w;

	memset(out, 0, sizeof(*out));
	if (len < BS_IBS_OP_RAW_MIN || (len - 4) % 8)
		return -EBADMSG;
	if (caps)
		memcpy(caps, raw, 4);
	ctl = reg(raw, R_CTL);
	if (!(ctl & BS_IBS_OP_VAL))
		return -EINVAL;
	data = reg(raw, R_DATA);
	d3 = reg(raw, R_DATA3);
	out->ip_valid = !(data & BS_IBS_RIP_INVALID);
	out->ip = out->ip_valid ? reg(raw, R_RIP) : 0;
	out->load = (d3 & BS_IBS_LD_OP) != 0;
	out->store = (d3 & BS_IBS_ST_OP) != 0;
	out->addr_valid = (d3 & BS_IBS_DC_LIN_ADDR_VALID) != 0;
	out->addr = out->addr_valid ? reg(raw, R_LINADDR) : 0;
	w = BS_IBS_OP_MEM_WIDTH(d3);
	out->size = w ? 1u << (w - 1) : 0;
	if ((!out->load && !out->store) || (d3 & BS_IBS_SW_PF))
		return -ENODATA;
	return 0;
}

uint64_t bs_waste_ibs_period(uint64_t period)
{
	period &= ~0xfull;
	if (period < 16)
		period = 16;
	return period > BS_IBS_OP_MAX_PERIOD ? BS_IBS_OP_MAX_PERIOD : period;
}
