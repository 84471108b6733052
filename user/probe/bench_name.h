/* SPDX-License-Identifier: MIT */
/*
 * bench_name.h - a benchmark name the probe could not read, read from the
 * measured process by user space (struct bs_bench_addr_rec).
 */
#ifndef BENCHSCOPE_BENCH_NAME_H
#define BENCHSCOPE_BENCH_NAME_H

#include "benchscope/record.h"

/**
 * bs_bench_name_read - read the name `a` points at from process a->pid
 * (process_vm_readv, which faults its page in) into `out`, a bs_bench_rec
 * with a's pid, tid and ts_ns: a->name_len bytes, kept up to
 * BS_BENCH_NAME_LEN - 1, or with a->name_len 0 a NUL-terminated string of at
 * most BS_BENCH_NAME_LEN - 1 bytes, a longer one truncated (name_len is
 * then the length kept), as the probe would have read them.
 *
 * Returns 0, or -errno: -ESRCH when the process is gone, -EFAULT when the
 * bytes are not all mapped, -EPERM without the right to read the process,
 * -ENODATA for an empty string. `out` is written only on success.
 */
int bs_bench_name_read(const struct bs_bench_addr_rec *a, struct bs_bench_rec *out);

#endif
