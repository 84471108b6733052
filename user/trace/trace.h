/* SPDX-License-Identifier: MIT */
/*
 * trace.h - the benchscope trace file: writer (trace.c) and block reader
 * (trace_read.c).
 *
 * Layout (all integers little-endian):
 *
 *   offset 0   8 bytes  magic "BSTRACE\0"
 *   offset 8   u32      format version: major << 16 | minor
 *   offset 12  u32      flags (reserved, written 0, ignored on read)
 *   offset 16  a gzip stream (RFC 1952) of blocks, each
 *                u32 kind (enum bs_trace_block), u32 len, len bytes payload
 *
 * `tail -c +17 FILE | zcat` therefore shows the raw blocks. The first block
 * is SCHEMA (JSON: size and field layout of every binary record kind, so the
 * file describes itself), then CONTEXT; ITER, PROC, INTERFERER and EVENT
 * blocks follow in the order they were written; END closes a finished run.
 *
 * Streaming: the writer performs a zlib Z_SYNC_FLUSH at least every
 * BS_TRACE_FLUSH_NS of writes and on bs_trace_flush(), and hands every
 * compressed byte to write(2) right away, so a writer killed with SIGKILL
 * leaves a file whose flushed prefix is readable. The reader loads every
 * complete block of a truncated stream and reports the truncation.
 *
 * The reader also reads several gzip members one after the other (RFC 1952
 * §2.2), as one stream of blocks: a fleet trace (`benchscope merge`,
 * fleet/fleet.h) is its own first member followed by its members' streams
 * copied byte for byte.
 */
#ifndef BENCHSCOPE_TRACE_H
#define BENCHSCOPE_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"

#include "trace/format.h"

/** A static name of a block kind ("iter", "end"...), "unknown" otherwise. */
const char *bs_trace_block_name(uint32_t kind);

/**
 * bs_trace_record_size - the size in bytes of one binary record of block
 * kind @kind (BS_BLK_ITER: sizeof(struct bs_iter_rec); PROC, INTERFERER,
 * BENCH likewise), what every such block of a trace must hold; 0 for the
 * other kinds (JSON or unknown blocks).
 */
size_t bs_trace_record_size(uint32_t kind);

/* ---- writer (trace.c) ----------------------------------------------------- */

struct bs_trace_writer;

/**
 * bs_trace_create - create (truncate) the trace file @path and write the
 * header, the SCHEMA block and the CONTEXT block.
 * @context_json: text of a JSON object (NULL: "{}"); it is validated.
 * @err: on failure, receives a one-line message (may be NULL).
 * Returns the writer, or NULL with errno set.
 */
struct bs_trace_writer *bs_trace_create(const char *path, const char *context_json, char *err,
					size_t errlen);

/** Append one iteration record. Returns 0 or -errno. */
int bs_trace_write_iter(struct bs_trace_writer *w, const struct bs_iter_rec *r);
/** Append one process record. Returns 0 or -errno. */
int bs_trace_write_proc(struct bs_trace_writer *w, const struct bs_proc_rec *r);
/** Append one interferer record. Returns 0 or -errno. */
int bs_trace_write_interferer(struct bs_trace_writer *w, const struct bs_interferer_rec *r);
/** Append one benchmark-name record (a BENCH block). Returns 0 or -errno. */
int bs_trace_write_bench(struct bs_trace_writer *w, const struct bs_bench_rec *r);
/**
 * Append an EVENT block; @json_object_text must be a JSON object
 * (-EINVAL otherwise). Returns 0 or -errno.
 */
int bs_trace_write_event(struct bs_trace_writer *w, const char *json_object_text);
/** Append the END block (JSON object, as for events). Returns 0 or -errno. */
int bs_trace_write_end(struct bs_trace_writer *w, const char *json_object_text);
/**
 * Append a block of any kind with a raw payload (used by the typed writers
 * and by tests that build odd files). Returns 0 or -errno.
 */
int bs_trace_write_block(struct bs_trace_writer *w, uint32_t kind, const void *payload,
			 uint32_t len);
/** Sync-flush the compressed stream and write it out. Returns 0 or -errno. */
int bs_trace_flush(struct bs_trace_writer *w);
/**
 * bs_trace_flush_if_due - sync-flush only if blocks were written since the
 * last flush and BS_TRACE_FLUSH_NS have passed. Cheap: call it from an event
 * loop's idle path (e.g. after every ring-buffer poll timeout), so records
 * written just before a quiet period reach the file too. Returns 0 or -errno.
 */
int bs_trace_flush_if_due(struct bs_trace_writer *w);
/**
 * Finish the gzip stream, close the file and free @w (NULL-safe).
 * Returns 0 or the first -errno met while writing or closing.
 */
int bs_trace_close(struct bs_trace_writer *w);
/** Number of blocks written so far. */
uint64_t bs_trace_blocks_written(const struct bs_trace_writer *w);
/**
 * bs_trace_error - the first -errno met while writing (sticky: every later
 * write fails with it; -ENOSPC on a full disk, -EFBIG over RLIMIT_FSIZE), or
 * 0. The file then holds the blocks up to the last successful flush, and
 * perhaps some after it; a reader sees it as truncated. NULL-safe (0).
 */
int bs_trace_error(const struct bs_trace_writer *w);

/* ---- block reader (trace_read.c) ----------------------------------------- */

struct bs_trace_reader;

/**
 * bs_trace_open - open @path and check its header (magic, major version).
 * Returns the reader, or NULL with errno set (EPROTO: not a trace or an
 * unknown major version) and a one-line message in @err.
 */
struct bs_trace_reader *bs_trace_open(const char *path, char *err, size_t errlen);

/**
 * bs_trace_next - the next complete block.
 * On 1, *kind, *payload (valid until the next call) and *len describe it.
 * Returns 1 (a block), 0 (end of the trace: see bs_trace_truncated()),
 * or a negative errno with a message in @err: -EBADMSG for corrupted
 * compressed data or block headers, -EIO / -errno for read errors.
 */
int bs_trace_next(struct bs_trace_reader *r, uint32_t *kind, const void **payload, uint32_t *len,
		  char *err, size_t errlen);

/** After bs_trace_next() returned 0: 1 if the stream ended early. */
int bs_trace_truncated(const struct bs_trace_reader *r);
/**
 * bs_trace_count_blocks - the number of readable blocks of @kind in the
 * trace @path, up to its end or to the first damaged or truncated byte.
 * Returns the count, or -errno when the file cannot be opened as a trace.
 */
long long bs_trace_count_blocks(const char *path, uint32_t kind);
/**
 * bs_trace_gz_start - the file offset of the gzip member that holds the
 * block bs_trace_next() returned last (BS_TRACE_HEADER_LEN for the first
 * member); merge copies a fleet's members from these offsets.
 */
uint64_t bs_trace_gz_start(const struct bs_trace_reader *r);
/** The format version of the file (major << 16 | minor). */
uint32_t bs_trace_version(const struct bs_trace_reader *r);
/** Close the file and free @r (NULL-safe). */
void bs_trace_close_reader(struct bs_trace_reader *r);

#endif
