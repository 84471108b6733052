/* SPDX-License-Identifier: MIT */
/*
 * trace_schema.h - the SCHEMA block of a trace: the layout of every binary
 * record kind (size; fields with name, type, offset, unit), written by the
 * trace writer and checked by the dataset loader.
 *
 * SCHEMA JSON:
 *   { "byte_order": "little",   (records are stored in host byte order)
 *     "records": { "iter": { "block": 3, "size": 128,
 *                            "fields": [ {"name": "type", "type": "u32",
 *                                         "offset": 0, "unit": ""}, ... ] },
 *                  "proc": {...}, "interferer": {...} } }
 * Types: u32, s32, u64, char[N]. Units: "ns", "count", "" (identifiers).
 */
#ifndef BENCHSCOPE_TRACE_SCHEMA_H
#define BENCHSCOPE_TRACE_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

/** One field of a binary record. */
struct bs_field {
	const char *name;
	const char *type; /**< "u32", "s32", "u64", "char[16]" */
	size_t offset;
	const char *unit; /**< "ns", "count" or "" */
	/** a field added in place of padding: a trace from before it lacks it
	 *  in its schema (the bytes are 0 there), and its reader must know from
	 *  the trace's context whether to read it */
	int later;
};

/** One binary record kind stored in a trace. */
struct bs_record_layout {
	const char *name; /**< "iter", "proc", "interferer", "bench" */
	uint32_t block;	  /**< enum bs_trace_block */
	size_t size;	  /**< sizeof the struct */
	const struct bs_field *fields;
	size_t n_fields;
	int since_minor; /**< trace format minor version that added it (absent before: fine) */
};

/** The record layouts of this build; *n receives their number. */
const struct bs_record_layout *bs_record_layouts(size_t *n);

/** The SCHEMA block text (JSON) of this build; a static string. */
const char *bs_trace_schema_json(void);

/**
 * bs_trace_schema_check - compare a SCHEMA block (@text, @len bytes, not
 * NUL-terminated) with this build's layouts: every record kind this build
 * knows must have the same size and its fields the same offset and type;
 * a kind added in a later minor version (since_minor > 0) may be absent.
 * Returns 0, or -EBADMSG / -EPROTO with a one-line message in @err.
 */
int bs_trace_schema_check(const char *text, size_t len, char *err, size_t errlen);

#endif
