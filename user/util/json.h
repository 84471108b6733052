/* SPDX-License-Identifier: MIT */
/*
 * json.h - the one set of json-c accessors of user/: a member by key, as
 * text, as a string, as an integer, a count. Each tolerates what a trace
 * written by another version may hold: a NULL or non-object parent, a
 * missing member, a member of another type (then the default).
 */
#ifndef BENCHSCOPE_JSON_H
#define BENCHSCOPE_JSON_H

#include <stdint.h>

#include <json-c/json.h>

/**
 * bs_json_get - the member @key of object @o, or NULL if @o is not an
 * object (or NULL) or lacks it (json-c's lookup with NULL-tolerance).
 */
json_object *bs_json_get(json_object *o, const char *key);

/**
 * bs_json_text - the member @key of @o as text: json-c's string form of
 * whatever type it has (a string as is, 2 as "2"), or @def when it is
 * missing. The text belongs to @o.
 */
const char *bs_json_text(json_object *o, const char *key, const char *def);

/**
 * bs_json_str - the member @key of @o when it is a JSON string, else @def
 * (missing, or another type). The text belongs to @o.
 */
const char *bs_json_str(json_object *o, const char *key, const char *def);

/**
 * bs_json_int - the member @key of @o when it is a JSON integer or double
 * (a double truncated toward zero), else @def (missing, or another type).
 */
int64_t bs_json_int(json_object *o, const char *key, int64_t def);

/**
 * bs_json_count - @v as a count (e.g. ns, iterations, a pid): its integer
 * value (json_object_get_int64) when > 0, else 0 (NULL, zero, negative, not
 * a number).
 */
uint64_t bs_json_count(json_object *v);

/**
 * bs_json_parse_object - @len bytes of @text (not NUL-terminated) parsed as
 * exactly one JSON object, nothing after it. Returns a new reference, or
 * NULL when the text is not that (or out of memory).
 */
json_object *bs_json_parse_object(const void *text, uint32_t len);

/**
 * bs_json_double - a new JSON number for @d, or NULL (JSON null) when @d is
 * NaN or infinite, which JSON cannot hold.
 */
json_object *bs_json_double(double d);

#endif
