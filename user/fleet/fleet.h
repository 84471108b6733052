/* SPDX-License-Identifier: MIT */
/*
 * fleet.h - fleet traces: many traces of one suite, from many machines, in
 * one file (`benchscope merge`), read back as one dataset per member.
 *
 * Layout (format 1.2, docs/fleet-trace.md): the 16-byte header of every
 * trace, then a gzip member holding the fleet's SCHEMA and CONTEXT
 * ({"mode": "fleet", "fleet": {"kind": "run" | "duet", "members": N, ...}}),
 * then, for each member, a gzip member holding one MEMBER block (JSON:
 * index from 1, source, format, blocks) followed by the member trace's own
 * gzip stream copied byte for byte from its file (its SCHEMA, CONTEXT,
 * records, events and END). Nothing of a member is rewritten, so every
 * member's blocks survive as written; `tail -c +17 F | zcat` shows them all.
 */
#ifndef BENCHSCOPE_FLEET_H
#define BENCHSCOPE_FLEET_H

#include <stddef.h>
#include <stdint.h>

#include "trace/dataset.h"

/** One member of a fleet, as its MEMBER block describes it. */
struct bs_fleet_member {
	size_t index;	       /**< from 1, in fleet order */
	char *source;	       /**< the file it was merged from (or its original source) */
	char *format;	       /**< its trace format, "1.1" */
	struct bs_dataset *ds; /**< its blocks, loaded (ds->path is source) */
};

/** A loaded fleet trace. */
struct bs_fleet {
	json_object *context; /**< the fleet's CONTEXT */
	char kind[8];	      /**< "run" or "duet" */
	struct bs_fleet_member *members;
	size_t n_members;
	char *path;
};

/**
 * bs_trace_is_fleet - 1 if the trace @path is a fleet (its CONTEXT says
 * "mode": "fleet"), 0 if not or unreadable (the normal loader then says
 * why). Reads the first two blocks only.
 */
int bs_trace_is_fleet(const char *path);

/**
 * bs_fleet_load - read the fleet trace @path: every member's blocks into
 * its own dataset (bs_dataset_builder). Returns 0; -EPROTO (not a trace or
 * not a fleet), -EBADMSG (corrupted or truncated file, a member whose
 * block count differs from its MEMBER block's, a member that does not load:
 * the message names the member), -ENOMEM; one line in @err.
 */
int bs_fleet_load(const char *path, struct bs_fleet **out, char *err, size_t errlen);

/**
 * bs_fleet_each - bs_fleet_load that hands each member to @fn as soon as it
 * is loaded and frees its dataset after (m->ds is NULL in *out): memory
 * holds one member at a time. @fn returns 0, or an error (with one line in
 * its @err) that ends the load and is returned.
 */
int bs_fleet_each(const char *path,
		  int (*fn)(void *ctx, const struct bs_fleet *f, struct bs_fleet_member *m,
			    char *err, size_t errlen),
		  void *ctx, struct bs_fleet **out, char *err, size_t errlen);

/** Free a fleet (NULL-safe). */
void bs_fleet_free(struct bs_fleet *f);

/** "run" or "duet": the kind of trace a CONTEXT describes. */
const char *bs_fleet_kind_of(json_object *context);

#endif
