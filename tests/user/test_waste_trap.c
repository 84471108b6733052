// SPDX-License-Identifier: MIT
/*
 * test_waste_trap - the line `benchscope waste` prints for a SIGTRAP the
 * kernel generated for the profiled program: each si_code x86 sends
 * (traps.c: TRAP_HWBKPT for a DR6 bit no breakpoint claims, TRAP_BRKPT
 * for an empty DR6, TRAP_TRACE for a single step, SI_KERNEL for an int3)
 * named, with the thread, ip, CPU and ptrace DR6; a short buffer cut, never
 * overrun.
 */
#include <string.h>

#include "test.h"
#include "waste/events.h"

static void describe(int code, char *buf, size_t len)
{
	struct bs_waste_trap t = {.type = BS_WREC_TRAP,
				  .tid = 4242,
				  .pid = 4241,
				  .code = code,
				  .cpu = 1,
				  .ip = 0x401a2bull,
				  .virtual_dr6 = 0x1};

	bs_waste_trap_describe(&t, buf, len);
}

static void test_codes_named(void)
{
	char b[320];

	describe(4, b, sizeof(b));
	CHECK(!strcmp(b,
		      "a debug trap whose DR6 bit no installed breakpoint claimed "
		      "(TRAP_HWBKPT), si_code 4, thread 4242, ip 0x401a2b, CPU 1, ptrace DR6 0x1"));
	describe(1, b, sizeof(b));
	CHECK(strstr(b, "an empty DR6 (TRAP_BRKPT), si_code 1,") == b + 18);
	describe(2, b, sizeof(b));
	CHECK(!strncmp(b, "a single step (TRAP_TRACE), si_code 2,", 38));
	describe(128, b, sizeof(b));
	CHECK(!strncmp(b, "an int3 instruction (SI_KERNEL), si_code 128,", 45));
	describe(0, b, sizeof(b));
	CHECK(!strncmp(b, "sent by a process (kill or tgkill), si_code 0,", 46));
	describe(-6, b, sizeof(b));
	CHECK(!strncmp(b, "sent by a process (kill or tgkill), si_code -6,", 47));
	describe(3, b, sizeof(b));
	CHECK(!strncmp(b, "a trap, si_code 3,", 18));
}

static void test_short_buffer(void)
{
	char b[24];

	memset(b, 'x', sizeof(b));
	describe(4, b, 16);
	CHECK_INT_EQ((long)strlen(b), 15);
	CHECK(b[16] == 'x');
}

int main(void)
{
	RUN_TEST(test_codes_named);
	RUN_TEST(test_short_buffer);
	return test_summary("test_waste_trap");
}
