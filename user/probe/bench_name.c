// SPDX-License-Identifier: MIT
/* bench_name.c - read a benchmark name from the measured process. */
#include "probe/bench_name.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

/* Read up to `len` bytes at `addr` of `pid` into buf, page by page, so that a
 * string ending before an unmapped page is read whole: the bytes read, or
 * -errno when none could be. */
static long read_upto(pid_t pid, __u64 addr, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		size_t page_left = 4096 - ((addr + got) & 4095), want = len - got;
		struct iovec local, remote;
		ssize_t n;

		if (want > page_left)
			want = page_left;
		local.iov_base = buf + got;
		local.iov_len = want;
		remote.iov_base = (void *)(uintptr_t)(addr + got);
		remote.iov_len = want;
		n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
		if (n <= 0) {
			if (got)
				break;
			return n < 0 ? -errno : -EFAULT;
		}
		got += (size_t)n;
	}
	return (long)got;
}

int bs_bench_name_read(const struct bs_bench_addr_rec *a, struct bs_bench_rec *out)
{
	struct bs_bench_rec r = {
	    .type = BS_REC_BENCH, .pid = a->pid, .tid = a->tid, .ts_ns = a->ts_ns};
	size_t want = a->name_len && a->name_len < BS_BENCH_NAME_LEN - 1 ? a->name_len
									 : BS_BENCH_NAME_LEN - 1;
	long n = read_upto((pid_t)a->pid, a->uaddr, r.name, want);

	if (n < 0)
		return (int)n;
	if (a->name_len) {
		if ((size_t)n < want)
			return -EFAULT;
		r.name_len = a->name_len;
	} else {
		size_t len = strnlen(r.name, (size_t)n);

		if (!len)
			return -ENODATA;
		if (len == (size_t)n && (size_t)n < want) /* runs into an unmapped page */
			return -EFAULT;
		r.name_len = (__u32)len; /* truncated, as the probe's read */
	}
	r.name[BS_BENCH_NAME_LEN - 1] = '\0';
	*out = r;
	return 0;
}
