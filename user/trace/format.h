/* SPDX-License-Identifier: MIT */
/*
 * format.h - the constants of the trace file format (see trace.h for the
 * layout): magic, header, version, block kinds and limits. Shared by the
 * writer and reader (trace.h) and the SCHEMA block (trace_schema.h).
 */
#ifndef BENCHSCOPE_TRACE_FORMAT_H
#define BENCHSCOPE_TRACE_FORMAT_H

#define BS_TRACE_MAGIC	       "BSTRACE" /* 7 chars + the terminating NUL = 8 bytes */
#define BS_TRACE_MAGIC_LEN     8
#define BS_TRACE_HEADER_LEN    16
#define BS_TRACE_VERSION_MAJOR 1
#define BS_TRACE_VERSION_MINOR 2 /* 1: BENCH blocks; 2: MEMBER blocks (fleets) */
#define BS_TRACE_VERSION       ((BS_TRACE_VERSION_MAJOR << 16) | BS_TRACE_VERSION_MINOR)
/** Largest payload of one block the reader accepts (JSON blocks included). */
#define BS_TRACE_MAX_BLOCK (64u << 20)
/** Longest interval between two sync flushes while records are written. */
#define BS_TRACE_FLUSH_NS 100000000ull

/** Kinds of blocks (u32 `kind` of the block header). */
enum bs_trace_block {
	BS_BLK_SCHEMA = 1,     /**< JSON: record layouts, see trace_schema.h */
	BS_BLK_CONTEXT = 2,    /**< JSON object: machine, kernel, command... */
	BS_BLK_ITER = 3,       /**< struct bs_iter_rec */
	BS_BLK_PROC = 4,       /**< struct bs_proc_rec */
	BS_BLK_INTERFERER = 5, /**< struct bs_interferer_rec */
	BS_BLK_EVENT = 6,      /**< JSON object: warning, decision, note */
	BS_BLK_END = 7,	       /**< JSON object: exit status, lost counts... */
	BS_BLK_BENCH = 8,      /**< struct bs_bench_rec (version 1.1 on) */
	BS_BLK_MEMBER = 9,     /**< JSON object: a fleet member follows (1.2 on, fleet.h) */
	BS_BLK_LAST = BS_BLK_MEMBER,
};

#endif
