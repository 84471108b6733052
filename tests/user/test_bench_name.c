/* SPDX-License-Identifier: MIT */
/*
 * test_bench_name.c - a benchmark name read from the process by user space
 * (probe/bench_name.h), as the probe would have read it: length-delimited
 * bytes and NUL-terminated strings, both truncated alike; a page the process
 * never touched (a file mapping, as a binary's strings are) read whole; bytes
 * running into an unmapped page, an empty string and a process that is gone
 * refused with their errno.
 */
#include "probe/bench_name.h"
#include "test.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static struct bs_bench_addr_rec at(const void *p, __u32 len)
{
	struct bs_bench_addr_rec a = {.type = BS_REC_BENCH_ADDR,
				      .pid = (__u32)getpid(),
				      .tid = 77,
				      .name_len = len,
				      .ts_ns = 123456789,
				      .uaddr = (__u64)(uintptr_t)p};
	return a;
}

static void test_length_delimited(void)
{
	static const char go[] = "BenchmarkSort/size=64andmore";
	struct bs_bench_addr_rec a = at(go, 19);
	struct bs_bench_rec r;

	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK_INT_EQ(r.type, BS_REC_BENCH);
	CHECK_INT_EQ(r.pid, getpid());
	CHECK_INT_EQ(r.tid, 77);
	CHECK_INT_EQ(r.ts_ns, 123456789);
	CHECK_INT_EQ(r.name_len, 19);
	CHECK(!strcmp(r.name, "BenchmarkSort/size="));
}

static void test_truncated_alike(void)
{
	char long_name[300];
	struct bs_bench_addr_rec a;
	struct bs_bench_rec r;

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	a = at(long_name, 200);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK_INT_EQ(r.name_len, 200); /* the harness's length */
	CHECK_INT_EQ(strlen(r.name), BS_BENCH_NAME_LEN - 1);
	a = at(long_name, 0);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK_INT_EQ(r.name_len, BS_BENCH_NAME_LEN - 1); /* the length kept */
	CHECK_INT_EQ(strlen(r.name), BS_BENCH_NAME_LEN - 1);
	a = at("BM_Memcpy/4096", 0);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK_INT_EQ(r.name_len, 14);
	CHECK(!strcmp(r.name, "BM_Memcpy/4096"));
}

/* A page never touched: a private file mapping, as the binary's strings are
 * before the harness reads them. */
static void test_untouched_page(void)
{
	char path[] = "/tmp/bs-bench-name-XXXXXX";
	const char *name = "BenchmarkUntouched";
	long page = sysconf(_SC_PAGESIZE);
	struct bs_bench_addr_rec a;
	struct bs_bench_rec r;
	int fd = mkstemp(path);
	char *m;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	unlink(path);
	CHECK(ftruncate(fd, 2 * page) == 0);
	CHECK(pwrite(fd, name, strlen(name) + 1, page + 100) == (ssize_t)strlen(name) + 1);
	m = mmap(NULL, 2 * page, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;
	a = at(m + page + 100, 0);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK(!strcmp(r.name, name));
	a = at(m + page + 100, (__u32)strlen(name));
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK(!strcmp(r.name, name));
	munmap(m, 2 * page);
}

/* The last bytes of a mapping, then a hole: a string that ends before the
 * hole is read, bytes that run into it are not. */
static void test_unmapped(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct bs_bench_addr_rec a;
	struct bs_bench_rec r, untouched = {.name_len = 999};

	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;
	CHECK(munmap(m + page, page) == 0);
	memcpy(m + page - 6, "BM_A/", 6);
	a = at(m + page - 6, 0);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), 0);
	CHECK(!strcmp(r.name, "BM_A/"));
	memcpy(m + page - 6, "BM_AB/", 6); /* no terminator before the hole */
	r = untouched;
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), -EFAULT);
	CHECK_INT_EQ(r.name_len, 999); /* not written */
	a = at(m + page - 6, 10);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), -EFAULT);
	a = at(m + page, 4);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), -EFAULT);
	m[0] = '\0';
	a = at(m, 0);
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), -ENODATA);
	munmap(m, page);
}

static void test_process_gone(void)
{
	static const char name[] = "BenchmarkGone";
	struct bs_bench_addr_rec a = at(name, 0);
	struct bs_bench_rec r;
	pid_t child = fork();

	CHECK(child >= 0);
	if (child == 0)
		_exit(0);
	CHECK(waitpid(child, NULL, 0) == child);
	a.pid = (__u32)child; /* the same address, in a process reaped */
	CHECK_INT_EQ(bs_bench_name_read(&a, &r), -ESRCH);
}

int main(void)
{
	RUN_TEST(test_length_delimited);
	RUN_TEST(test_truncated_alike);
	RUN_TEST(test_untouched_page);
	RUN_TEST(test_unmapped);
	RUN_TEST(test_process_gone);
	return test_summary("bench_name");
}
