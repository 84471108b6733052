// SPDX-License-Identifier: MIT
/* block_field.c - typed members of a trace's JSON blocks (see block_field.h). */
#include "trace/block_field.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

int bs_field_error(const struct bs_block_field *f, const char *key, const char *why)
{
	if (f->err && f->errlen)
		snprintf(f->err, f->errlen, "corrupted %s: \"%s%s\" %s", f->block,
			 f->prefix ? f->prefix : "", key, why);
	return -EBADMSG;
}

static const char *type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a double";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	default:
		return "null";
	}
}

enum kind { K_STRING, K_BOOL, K_INT, K_COUNT, K_NUM, K_OBJECT, K_ARRAY };

static const char *const kind_text[] = {"a string", "a boolean", "an integer", "an integer >= 0",
					"a number", "an object", "an array"};

static int has_kind(json_object *v, enum kind k)
{
	switch (k) {
	case K_STRING:
		return json_object_is_type(v, json_type_string);
	case K_BOOL:
		return json_object_is_type(v, json_type_boolean);
	case K_INT:
		return json_object_is_type(v, json_type_int);
	case K_COUNT:
		return json_object_is_type(v, json_type_int) && json_object_get_int64(v) >= 0;
	case K_NUM:
		return json_object_is_type(v, json_type_int) ||
		       json_object_is_type(v, json_type_double);
	case K_OBJECT:
		return json_object_is_type(v, json_type_object);
	default:
		return json_object_is_type(v, json_type_array);
	}
}

/*
 * The member @key of @o into *v: 1 present, 0 absent (missing or null and
 * optional, or null and nullable), -EBADMSG when absent and not allowed to
 * be or of another kind than @k.
 */
static int member(const struct bs_block_field *f, json_object *o, const char *key,
		  enum bs_field_need need, enum kind k, json_object **v)
{
	const char *or_null = need == BS_FIELD_NULLABLE ? " or null" : "";
	bool there = false;
	char why[96];

	*v = NULL;
	if (o)
		there = json_object_object_get_ex(o, key, v);
	if (!*v) {
		if (need == BS_FIELD_OPTIONAL || (there && need == BS_FIELD_NULLABLE))
			return 0;
		snprintf(why, sizeof(why), "is %s (%s%s)", there ? "null" : "missing", kind_text[k],
			 or_null);
		return bs_field_error(f, key, why);
	}
	if (!has_kind(*v, k)) {
		/* a count that is an integer is a negative one: show its value */
		snprintf(why, sizeof(why), "is %s, expected %s%s",
			 k == K_COUNT && json_object_is_type(*v, json_type_int)
			     ? json_object_to_json_string(*v)
			     : type_name(*v),
			 kind_text[k], or_null);
		return bs_field_error(f, key, why);
	}
	return 1;
}

int bs_field_str(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, const char **out)
{
	json_object *v;
	int ret = member(f, o, key, need, K_STRING, &v);

	if (ret > 0)
		*out = json_object_get_string(v);
	return ret;
}

int bs_field_bool(const struct bs_block_field *f, json_object *o, const char *key,
		  enum bs_field_need need, bool *out)
{
	json_object *v;
	int ret = member(f, o, key, need, K_BOOL, &v);

	if (ret > 0)
		*out = json_object_get_boolean(v);
	return ret;
}

int bs_field_int(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, int64_t *out)
{
	json_object *v;
	int ret = member(f, o, key, need, K_INT, &v);

	if (ret > 0)
		*out = json_object_get_int64(v);
	return ret;
}

int bs_field_count(const struct bs_block_field *f, json_object *o, const char *key,
		   enum bs_field_need need, uint64_t *out)
{
	json_object *v;
	int ret = member(f, o, key, need, K_COUNT, &v);

	if (ret > 0)
		*out = json_object_get_uint64(v);
	return ret;
}

int bs_field_int_range(const struct bs_block_field *f, json_object *o, const char *key,
		       enum bs_field_need need, int64_t lo, int64_t hi, int64_t *out)
{
	json_object *v;
	int64_t x;
	char why[128];
	int ret = member(f, o, key, need, K_INT, &v);

	if (ret <= 0)
		return ret;
	/* an integer above INT64_MAX reads INT64_MAX: out of any range below it */
	x = json_object_get_int64(v);
	if (x < lo || x > hi) {
		snprintf(why, sizeof(why),
			 "is %s, expected an integer in [%" PRId64 ", %" PRId64 "]",
			 json_object_to_json_string(v), lo, hi);
		return bs_field_error(f, key, why);
	}
	*out = x;
	return ret;
}

int bs_field_num(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, double *out)
{
	json_object *v;
	int ret = member(f, o, key, need, K_NUM, &v);

	if (ret > 0)
		*out = json_object_get_double(v);
	return ret;
}

int bs_field_obj(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, json_object **out)
{
	return member(f, o, key, need, K_OBJECT, out);
}

int bs_field_arr(const struct bs_block_field *f, json_object *o, const char *key,
		 enum bs_field_need need, json_object **out)
{
	return member(f, o, key, need, K_ARRAY, out);
}

int bs_field_strings(const struct bs_block_field *f, json_object *o, const char *key,
		     enum bs_field_need need, const char *what, const char ***out, size_t *n)
{
	json_object *a;
	int ret = member(f, o, key, need, K_ARRAY, &a);
	size_t len;
	char why[96];

	if (ret <= 0)
		return ret;
	len = json_object_array_length(a);
	*out = calloc(len ? len : 1, sizeof(**out));
	if (!*out) {
		if (f->err && f->errlen)
			snprintf(f->err, f->errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t i = 0; i < len; i++) {
		json_object *w = json_object_array_get_idx(a, i);

		if (!json_object_is_type(w, json_type_string)) {
			snprintf(why, sizeof(why), "holds %s that is not a string", what);
			return bs_field_error(f, key, why);
		}
		(*out)[i] = json_object_get_string(w);
	}
	*n = len;
	return 1;
}
