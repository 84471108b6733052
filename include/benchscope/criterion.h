/* SPDX-License-Identifier: MIT */
/*
 * criterion.h - the BPF cookie of each `--preset criterion` probe: what the
 * probe reads, packed by user space (user/probe/criterion_probes.c) when it
 * attaches the probe and unpacked by the BPF program
 * (bpf/criterion.bpf.h, bpf_get_attach_cookie). One BPF object serves every
 * instantiation of criterion's generic functions, and both sides of a duet,
 * whatever their layouts: each probe carries its own.
 *
 *   bits  0-15  off_a: BS_CRIT_ITER*: byte offset of Bencher.iters (u64) in
 *               the Bencher the argument points to; BS_CRIT_NAME: byte
 *               offset of the benchmark id's data pointer in BenchmarkId
 *   bits 16-31  off_b: BS_CRIT_NAME: byte offset of the id's length (usize)
 *   bits 32-35  arg: which integer argument register holds the pointer
 *               (0: the first, rdi on x86-64 ... 4: the fifth)
 *   bits 36-39  kind: enum bs_crit_kind
 *   bits 40-55  site: index of the probed function, stored in
 *               bs_iter_rec.probe of the iterations it delimits
 */
#ifndef BENCHSCOPE_CRITERION_H
#define BENCHSCOPE_CRITERION_H

/** What a criterion probe site is (cookie bits 36-39). */
enum bs_crit_kind {
	BS_CRIT_ITER = 0,	      /**< Bencher<M>::iter: one sample's timing loop */
	BS_CRIT_ITER_CUSTOM = 1,      /**< Bencher<M>::iter_custom: the routine times itself */
	BS_CRIT_ITER_BATCHED = 2,     /**< Bencher<M>::iter_batched: the call includes setup */
	BS_CRIT_ITER_BATCHED_REF = 3, /**< Bencher<M>::iter_batched_ref: likewise */
	BS_CRIT_WARM_UP = 4,	      /**< Routine::warm_up: its iterations are warm-up */
	BS_CRIT_NAME = 5,	      /**< Reports::benchmark_start / profile: the benchmark id */
};

#define BS_CRIT_COOKIE(off_a, off_b, arg, kind, site)                                              \
	((unsigned long long)((off_a)&0xffff) | ((unsigned long long)((off_b)&0xffff) << 16) |     \
	 ((unsigned long long)((arg)&0xf) << 32) | ((unsigned long long)((kind)&0xf) << 36) |      \
	 ((unsigned long long)((site)&0xffff) << 40))
#define BS_CRIT_CK_OFF_A(ck) ((unsigned)((ck)&0xffff))
#define BS_CRIT_CK_OFF_B(ck) ((unsigned)(((ck) >> 16) & 0xffff))
#define BS_CRIT_CK_ARG(ck)   ((unsigned)(((ck) >> 32) & 0xf))
#define BS_CRIT_CK_KIND(ck)  ((unsigned)(((ck) >> 36) & 0xf))
#define BS_CRIT_CK_SITE(ck)  ((unsigned)(((ck) >> 40) & 0xffff))

#endif
