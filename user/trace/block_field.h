/* SPDX-License-Identifier: MIT */
/*
 * block_field.h - typed members of a trace's JSON blocks, for the decoders
 * of trace/ (context.c, end.c, events.c, duet_blocks.c, waste_blocks.c;
 * keys in docs/json-schema.md, docs/duet-trace.md and waste_blocks.h).
 *
 * A member that is missing or JSON null is absent: an optional member then
 * leaves its output untouched (the caller's default) and gives 0; a
 * required one is an error; a nullable one is an error only when missing.
 * A member present with another type (or out of its range) is always an
 * error. Errors are -EBADMSG with one line in the decoder's buffer naming
 * the block and the key, e.g.
 *   corrupted EVENT block #7 (fork): "start_ns" is a string, expected an integer >= 0
 *   corrupted EVENT 4 (duet_run, run 3): "ok" is null (a boolean)
 */
#ifndef BENCHSCOPE_BLOCK_FIELD_H
#define BENCHSCOPE_BLOCK_FIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/** Where a decoder is, for its error messages. */
struct bs_block_field {
	const char *block;  /**< "CONTEXT", "END", "EVENT block #7 (fork)" */
	const char *prefix; /**< "" or the parent member with a dot: "stop." */
	char *err;	    /**< one-line message on error (may be NULL) */
	size_t errlen;
};

/**
 * How a member may be absent: OPTIONAL missing or null; REQUIRED neither;
 * NULLABLE null but not missing (the writer always writes the key).
 */
enum bs_field_need { BS_FIELD_OPTIONAL, BS_FIELD_REQUIRED, BS_FIELD_NULLABLE };

/**
 * bs_field_str - member @key of @o as a JSON string into *out (the text
 * belongs to @o). Returns 1 present, 0 absent (optional, or null when
 * nullable), -EBADMSG.
 */
int bs_field_str(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, const char **out);

/** bs_field_bool - a JSON boolean; returns as bs_field_str. */
int bs_field_bool(const struct bs_block_field *f, json_object *o, const char *key,
		  enum bs_field_need need, bool *out);

/** bs_field_int - a JSON integer (any sign); returns as bs_field_str. */
int bs_field_int(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, int64_t *out);

/** bs_field_count - a JSON integer >= 0 (ns, iterations, a pid); returns as bs_field_str. */
int bs_field_count(const struct bs_block_field *f, json_object *o, const char *key,
		   enum bs_field_need need, uint64_t *out);

/**
 * bs_field_int_range - a JSON integer in [@lo, @hi] (a run number, a pid,
 * a context id); returns as bs_field_str.
 */
int bs_field_int_range(const struct bs_block_field *f, json_object *o, const char *key,
		       enum bs_field_need need, int64_t lo, int64_t hi, int64_t *out);

/** bs_field_num - a JSON number (integer or double) as a double; returns as bs_field_str. */
int bs_field_num(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, double *out);

/**
 * bs_field_obj - a JSON object (its members are not looked at) into *out,
 * NULL when absent; returns as bs_field_str.
 */
int bs_field_obj(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, json_object **out);

/** bs_field_arr - a JSON array (its elements are not looked at); as bs_field_obj. */
int bs_field_arr(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, json_object **out);

/**
 * bs_field_strings - a JSON array of strings: *out receives a calloc'ed
 * array of its n elements' texts (at least one slot; the texts belong to
 * @o), set before the elements are checked so that the caller frees it
 * whatever the result; *n the count, set only on success. An element that
 * is not a string is an error "holds WHAT that is not a string" (@what:
 * "a name", "a word", "an element"). Returns as bs_field_str; -ENOMEM ("out of
 * memory" in f->err).
 */
int bs_field_strings(const struct bs_block_field *f, json_object *o, const char *key,
		     enum bs_field_need need, const char *what, const char ***out, size_t *n);

/**
 * bs_field_error - format the one-line message "corrupted BLOCK: "PREFIXKEY" WHY"
 * into f->err; returns -EBADMSG.
 */
int bs_field_error(const struct bs_block_field *f, const char *key, const char *why);

#endif
