// SPDX-License-Identifier: MIT
/*
 * test_waste_pmu - the PMU address sources of `benchscope waste` on
 * recorded sample bytes: PERF_RECORD_SAMPLE records of PEBS mem-loads /
 * mem-stores and of AMD IBS op (with its raw registers), decoded and checked
 * field by field against the generator's inputs (tests/fixtures/waste/:
 * gen_samples.py builds the records from the documented layouts and writes
 * samples.truth); the merge of a PMU sample with the decoded instruction;
 * the period ibs_op accepts; malformed records refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdint.h>

#include "test.h"
#include "waste/decode.h"
#include "waste/ibs.h"
#include "waste/perf_sample.h"

#define FIX "tests/fixtures/waste/"

static uint8_t *slurp(const char *name, size_t *len)
{
	FILE *f = fopen(name, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET)) {
		b = malloc((size_t)n);
		if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
			free(b);
			b = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return b;
}

/* one line of samples.truth */
struct truth {
	char file[32], rc[16];
	int index;
	unsigned long long ip, addr;
	unsigned pid, tid, addr_valid, size, load, store, raw_len;
};

static int rc_of(const char *s)
{
	return !strcmp(s, "ENODATA") ? -ENODATA : !strcmp(s, "EINVAL") ? -EINVAL : atoi(s);
}

/* Decode every record of @t->file up to record @t->index and check it. */
static void check_one(const struct truth *t, uint64_t sample_type, bool ibs)
{
	char path[128];
	size_t len = 0, off = 0;
	uint8_t *b;
	int i;

	snprintf(path, sizeof(path), FIX "%s", t->file);
	b = slurp(path, &len);
	if (!b) {
		FAILF("cannot read %s", path);
		return;
	}
	for (i = 0; off + 8 <= len; i++) {
		struct perf_event_header h;
		struct bs_waste_pmu_sample s, r;
		const uint8_t *raw;
		uint32_t raw_len, caps = 0;

		memcpy(&h, b + off, sizeof(h));
		if (i < t->index) {
			off += h.size;
			continue;
		}
		CHECK_INT_EQ(
		    bs_waste_perf_sample_decode(b + off, h.size, sample_type, &s, &raw, &raw_len),
		    0);
		CHECK_INT_EQ(s.pid, t->pid);
		CHECK_INT_EQ(s.tid, t->tid);
		CHECK_INT_EQ(raw_len, t->raw_len);
		if (!ibs) {
			CHECK_INT_EQ(s.ip, t->ip);
			CHECK_INT_EQ(s.addr, t->addr);
			CHECK_INT_EQ(s.addr_valid, t->addr_valid);
			CHECK(s.ip_valid);
			CHECK(!s.load && !s.store && !s.size); /* not in a PEBS record */
			CHECK(raw == NULL);
			break;
		}
		CHECK(raw != NULL);
		CHECK_INT_EQ(bs_waste_ibs_op_decode(raw, raw_len, &r, &caps), rc_of(t->rc));
		CHECK_INT_EQ(r.ip, t->ip);
		CHECK_INT_EQ(r.ip_valid, t->ip != 0);
		CHECK_INT_EQ(r.addr, t->addr);
		CHECK_INT_EQ(r.addr_valid, t->addr_valid);
		CHECK_INT_EQ(r.size, t->size);
		CHECK_INT_EQ(r.load, t->load);
		CHECK_INT_EQ(r.store, t->store);
		CHECK_INT_EQ(caps & 1, 1); /* IbsAvail: the caps word came first */
		/* the record's own ADDR: the linear address when the kernel had one */
		if (!strcmp(t->rc, "0") && t->addr_valid)
			CHECK_INT_EQ(s.addr, t->addr);
		break;
	}
	if (i != t->index)
		FAILF("%s: record %d not found", t->file, t->index);
	free(b);
}

static void test_fixtures_against_truth(void)
{
	FILE *f = fopen(FIX "samples.truth", "r");
	char line[512];
	int n = 0;

	if (!f) {
		FAILF("cannot read " FIX "samples.truth");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		struct truth t;

		if (line[0] == '#')
			continue;
		if (sscanf(line, "%31s %d %15s %llx %u %u %llx %u %u %u %u %u", t.file, &t.index,
			   t.rc, &t.ip, &t.pid, &t.tid, &t.addr, &t.addr_valid, &t.size, &t.load,
			   &t.store, &t.raw_len) != 12) {
			FAILF("bad truth line: %s", line);
			continue;
		}
		if (!strcmp(t.file, "pebs.bin"))
			check_one(&t, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR, false);
		else if (!strcmp(t.file, "pebs_full.bin"))
			check_one(&t,
				  PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU |
				      PERF_SAMPLE_PERIOD,
				  false);
		else
			check_one(&t,
				  PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
				      PERF_SAMPLE_RAW,
				  true);
		n++;
	}
	fclose(f);
	CHECK_INT_EQ(n, 13);
}

/* The time of pebs_full.bin (the generator's 123456789012) and bad records. */
static void test_record_errors(void)
{
	uint64_t full = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	struct bs_waste_pmu_sample s;
	size_t len = 0;
	uint8_t *b = slurp(FIX "pebs_full.bin", &len);

	if (!b) {
		FAILF("cannot read pebs_full.bin");
		return;
	}
	CHECK_INT_EQ(bs_waste_perf_sample_decode(b, len, full, &s, NULL, NULL), 0);
	CHECK_INT_EQ(s.time, 123456789012ull);
	/* a record shorter than its fields, a size that disagrees, another type */
	CHECK_INT_EQ(bs_waste_perf_sample_decode(b, len, full | PERF_SAMPLE_RAW, &s, NULL, NULL),
		     -EBADMSG);
	CHECK_INT_EQ(bs_waste_perf_sample_decode(b, len - 8, full, &s, NULL, NULL), -EBADMSG);
	CHECK_INT_EQ(
	    bs_waste_perf_sample_decode(b, len, full | PERF_SAMPLE_CALLCHAIN, &s, NULL, NULL),
	    -EOPNOTSUPP);
	b[0] = PERF_RECORD_MMAP;
	CHECK_INT_EQ(bs_waste_perf_sample_decode(b, len, full, &s, NULL, NULL), -ENOMSG);
	free(b);
	/* raw payloads of the wrong length */
	{
		uint8_t raw[BS_IBS_OP_RAW_MIN + 8] = {0};

		CHECK_INT_EQ(bs_waste_ibs_op_decode(raw, BS_IBS_OP_RAW_MIN - 8, &s, NULL),
			     -EBADMSG);
		CHECK_INT_EQ(bs_waste_ibs_op_decode(raw, BS_IBS_OP_RAW_MIN + 4, &s, NULL),
			     -EBADMSG);
		CHECK_INT_EQ(bs_waste_ibs_op_decode(raw, BS_IBS_OP_RAW_MIN, &s, NULL), -EINVAL);
	}
}

static void test_pmu_access_merge(void)
{
	struct bs_waste_pmu_sample s = {
	    .ip = 0x401000, .addr = 0x7f0000000010, .addr_valid = true, .ip_valid = true};
	struct bs_waste_access insn = {.ip = 0x401000, .ilen = 4, .size = 8, .load = true, .fp = 8};
	struct bs_waste_access a;

	/* PEBS: address from the PMU, size and direction from the instruction */
	CHECK_INT_EQ(bs_waste_pmu_access(&s, &insn, &a), 0);
	CHECK_INT_EQ(a.addr, 0x7f0000000010ull);
	CHECK_INT_EQ(a.size, 8);
	CHECK(a.load && !a.store);
	CHECK_INT_EQ(a.ilen, 4);
	CHECK_INT_EQ(a.fp, 8);
	/* IBS: its width and direction win; no instruction (a string op) is enough */
	s.size = 2;
	s.store = true;
	CHECK_INT_EQ(bs_waste_pmu_access(&s, &insn, &a), 0);
	CHECK_INT_EQ(a.size, 2);
	CHECK(a.store && !a.load);
	CHECK_INT_EQ(bs_waste_pmu_access(&s, NULL, &a), 0);
	CHECK_INT_EQ(a.ilen, 0);
	/* PEBS without an instruction: no size */
	s.size = 0;
	s.store = false;
	CHECK_INT_EQ(bs_waste_pmu_access(&s, NULL, &a), -ENODATA);
	/* no address */
	s.addr_valid = false;
	CHECK_INT_EQ(bs_waste_pmu_access(&s, &insn, &a), -ENODATA);
}

static void test_ibs_period(void)
{
	CHECK_INT_EQ(bs_waste_ibs_period(20000), 20000);
	CHECK_INT_EQ(bs_waste_ibs_period(20007), 20000);
	CHECK_INT_EQ(bs_waste_ibs_period(3), 16);
	CHECK_INT_EQ(bs_waste_ibs_period(1ull << 30), 16 * 0xffff);
	CHECK_INT_EQ(bs_waste_ibs_period(1ull << 30) % 16, 0);
}

int main(void)
{
	RUN_TEST(test_fixtures_against_truth);
	RUN_TEST(test_record_errors);
	RUN_TEST(test_pmu_access_merge);
	RUN_TEST(test_ibs_period);
	return test_summary("test_waste_pmu");
}
