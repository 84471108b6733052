// SPDX-License-Identifier: MIT
/*
 * test_waste_decode - the capstone decoding of `benchscope waste`: data
 * accesses and their effective addresses, the instruction that ended at a
 * trap ip, forward emulation from a skidded sample ip, watch ranges.
 * The code bytes are gcc -O2 output of tests/progs/waste_planted.c's dead().
 */
#include <errno.h>
#include <stdint.h>

#include "test.h"
#include "waste/decode.h"
#include "waste/watch.h"

/* dead() at 0x1410 (see objdump -d build/progs/waste_planted) */
static const uint8_t dead_code[] = {
    0x31, 0xc0,				      /* 1410 xor eax,eax */
    0x31, 0xf6,				      /* 1412 xor esi,esi */
    0x48, 0x8d, 0x0d, 0x85, 0x2c, 0x01, 0x00, /* 1414 lea rcx,[rip+0x12c85] */
    0x0f, 0x1f, 0x44, 0x00, 0x00,	      /* 141b nop */
    0x48, 0x63, 0xd0,			      /* 1420 movsxd rdx,eax */
    0x4c, 0x8d, 0x04, 0x07,		      /* 1423 lea r8,[rdi+rax] */
    0x48, 0x83, 0xc0, 0x01,		      /* 1427 add rax,1 */
    0x48, 0x89, 0x3c, 0xd1,		      /* 142b mov [rcx+rdx*8],rdi */
    0x4c, 0x89, 0x04, 0xd1,		      /* 142f mov [rcx+rdx*8],r8 */
    0x48, 0x8b, 0x14, 0xd1,		      /* 1433 mov rdx,[rcx+rdx*8] */
    0x48, 0x01, 0xd6,			      /* 1437 add rsi,rdx */
    0x48, 0x3d, 0x00, 0x10, 0x00, 0x00,	      /* 143a cmp rax,0x1000 */
    0x75, 0xde,				      /* 1440 jne 1420 */
    0x48, 0x89, 0x35, 0x37, 0x2c, 0x00, 0x00, /* 1442 mov [rip+0x2c37],rsi */
    0xc3,				      /* 1449 ret */
};
#define BASE   0x1410ull
#define AT(ip) (dead_code + ((ip)-BASE))

static struct bs_waste_decoder *dec;

static long reader(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
	(void)ctx;
	if (addr < BASE || addr >= BASE + sizeof(dead_code))
		return -EFAULT;
	if (len > BASE + sizeof(dead_code) - addr)
		len = BASE + sizeof(dead_code) - addr;
	memcpy(buf, AT(addr), len);
	return (long)len;
}

static void test_decode_store_address(void)
{
	struct bs_waste_regs r = {0};
	struct bs_waste_access a;

	r.cx = 0x10000;
	r.dx = 3;
	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x142b), 4, 0x142b, &r, &a), 0);
	CHECK(a.store && !a.load);
	CHECK_INT_EQ(a.size, 8);
	CHECK_INT_EQ(a.ilen, 4);
	CHECK_INT_EQ(a.addr, 0x10000 + 3 * 8);
	CHECK_INT_EQ(a.fp, 0);
}

static void test_decode_load_riprel_and_none(void)
{
	struct bs_waste_regs r = {0};
	struct bs_waste_access a;

	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x1433), 4, 0x1433, &r, &a), 0);
	CHECK(a.load && !a.store);
	/* rip-relative store: address from the next instruction's ip */
	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x1442), 7, 0x1442, &r, &a), 0);
	CHECK_INT_EQ(a.addr, 0x1449 + 0x2c37);
	/* lea, nop, register-only and ret: no data access */
	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x1414), 7, 0x1414, &r, &a), -ENODATA);
	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x141b), 5, 0x141b, &r, &a), -ENODATA);
	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x1437), 3, 0x1437, &r, &a), -ENODATA);
	CHECK_INT_EQ(bs_waste_decode_at(dec, AT(0x1449), 1, 0x1449, &r, &a), -ENODATA);
}

static void test_decode_rmw_fp_fs(void)
{
	/* add qword ptr [rax], 1 ; movsd xmm0, qword ptr [rdi] ; mov rax, qword ptr fs:[0x28] */
	static const uint8_t rmw[] = {0x48, 0x83, 0x00, 0x01};
	static const uint8_t movsd[] = {0xf2, 0x0f, 0x10, 0x07};
	static const uint8_t fs[] = {0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00};
	static const uint8_t junk[] = {0x0f, 0x0b, 0xff};
	struct bs_waste_regs r = {0};
	struct bs_waste_access a;

	r.ax = 0x5000;
	r.di = 0x6000;
	r.fs_base = 0x7000;
	CHECK_INT_EQ(bs_waste_decode_at(dec, rmw, sizeof(rmw), 0x100, &r, &a), 0);
	CHECK(a.load && a.store);
	CHECK_INT_EQ(a.addr, 0x5000);
	CHECK_INT_EQ(bs_waste_decode_at(dec, movsd, sizeof(movsd), 0x100, &r, &a), 0);
	CHECK_INT_EQ(a.fp, 8);
	CHECK_INT_EQ(a.addr, 0x6000);
	CHECK_INT_EQ(bs_waste_decode_at(dec, fs, sizeof(fs), 0x100, &r, &a), 0);
	CHECK_INT_EQ(a.addr, 0x7028);
	CHECK(bs_waste_decode_at(dec, junk + 2, 1, 0x100, &r, &a) < 0);
}

static void test_decode_before_trap(void)
{
	struct bs_waste_access a;

	/* trap after the second store (ip 0x1433): exact from the function start */
	CHECK_INT_EQ(bs_waste_decode_before(dec, dead_code, 0x1433 - BASE, 0x1433, BASE, &a), 0);
	CHECK_INT_EQ(a.ip, 0x142f);
	CHECK(a.store && !a.load);
	/* without the function start: the 16 bytes before the trap ip */
	CHECK_INT_EQ(bs_waste_decode_before(dec, AT(0x1437) - 16, 16, 0x1437, 0, &a), 0);
	CHECK_INT_EQ(a.ip, 0x1433);
	CHECK(a.load && !a.store);
	CHECK_INT_EQ(bs_waste_decode_before(dec, AT(0x142f) - 16, 16, 0x142f, 0, &a), 0);
	CHECK_INT_EQ(a.ip, 0x142b);
}

static void test_decode_next_emulates_skid(void)
{
	struct bs_waste_regs r = {0};
	struct bs_waste_access a;
	int steps = -1;

	/* stopped at "add rsi,rdx" (waiting for the load) in iteration rax = 5 */
	r.ip = 0x1437;
	r.ax = 5;
	r.cx = 0x20000;
	r.dx = 77;
	r.di = 1000;
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 0, &a, &steps), 0);
	/* add, cmp, jne (taken: 5 != 0x1000), movsxd rdx,eax, lea, add rax: then the store */
	CHECK_INT_EQ(a.ip, 0x142b);
	CHECK_INT_EQ(a.addr, 0x20000 + 5 * 8);
	CHECK_INT_EQ(steps, 6);
	/* skip 1: the second store, same address */
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 1, &a, NULL), 0);
	CHECK_INT_EQ(a.ip, 0x142f);
	CHECK_INT_EQ(a.addr, 0x20000 + 5 * 8);
	/* skip 3: past the load (rdx unknown after it), round the loop again: rax = 6 */
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 3, &a, NULL), 0);
	CHECK_INT_EQ(a.ip, 0x142b);
	CHECK_INT_EQ(a.addr, 0x20000 + 6 * 8);
	/* the last iteration: rax = 0x1000 after... stopped at cmp with rax = 0x1000 */
	r.ip = 0x143a;
	r.ax = 0x1000;
	r.si = 0x99;
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 0, &a, NULL), 0);
	CHECK_INT_EQ(a.ip, 0x1442); /* fell through to the store to sink */
	/* after it comes ret: the walk stops, the last access passed is taken */
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 1, &a, NULL), 0);
	CHECK_INT_EQ(a.ip, 0x1442);
	/* stopped at ret: no access at all */
	r.ip = 0x1449;
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 0, &a, NULL), -ENODATA);
	/* unreadable code */
	r.ip = 0x9999;
	CHECK_INT_EQ(bs_waste_decode_next(dec, reader, NULL, &r, 64, 0, &a, NULL), -ENOEXEC);
}

static void test_watch_range(void)
{
	uint64_t wa;
	uint32_t wl;

	CHECK_INT_EQ(bs_waste_watch_range(0x1000, 8, &wa, &wl), 8);
	CHECK_INT_EQ(bs_waste_watch_range(0x1004, 8, &wa, &wl), 4);
	CHECK_INT_EQ(bs_waste_watch_range(0x1001, 4, &wa, &wl), 1);
	CHECK_INT_EQ(bs_waste_watch_range(0x1000, 32, &wa, &wl), 8);
	CHECK_INT_EQ(bs_waste_watch_range(0x1002, 2, &wa, &wl), 2);
	CHECK_INT_EQ(wa, 0x1002);
	CHECK_INT_EQ(bs_waste_watch_range(0x1000, 0, &wa, &wl), 0);
}

int main(void)
{
	dec = bs_waste_decoder_new();
	if (!dec) {
		fprintf(stderr, "no capstone decoder\n");
		return 1;
	}
	RUN_TEST(test_decode_store_address);
	RUN_TEST(test_decode_load_riprel_and_none);
	RUN_TEST(test_decode_rmw_fp_fs);
	RUN_TEST(test_decode_before_trap);
	RUN_TEST(test_decode_next_emulates_skid);
	RUN_TEST(test_watch_range);
	bs_waste_decoder_free(dec);
	return test_summary("test_waste_decode");
}
