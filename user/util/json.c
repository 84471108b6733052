// SPDX-License-Identifier: MIT
/* json.c - json-c accessors tolerant of missing members (see json.h). */
#include "util/json.h"

#include <math.h>

json_object *bs_json_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *bs_json_text(json_object *o, const char *key, const char *def)
{
	json_object *v = bs_json_get(o, key);

	return v ? json_object_get_string(v) : def;
}

const char *bs_json_str(json_object *o, const char *key, const char *def)
{
	json_object *v = bs_json_get(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : def;
}

int64_t bs_json_int(json_object *o, const char *key, int64_t def)
{
	json_object *v = bs_json_get(o, key);

	if (!v ||
	    !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return def;
	return json_object_get_int64(v);
}

uint64_t bs_json_count(json_object *v)
{
	int64_t n = json_object_get_int64(v);

	return n > 0 ? (uint64_t)n : 0;
}

json_object *bs_json_parse_object(const void *text, uint32_t len)
{
	json_tokener *tok = json_tokener_new();
	json_object *o;

	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success ||
		  !json_object_is_type(o, json_type_object) ||
		  (size_t)json_tokener_get_parse_end(tok) != len)) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

json_object *bs_json_double(double d)
{
	return isfinite(d) ? json_object_new_double(d) : NULL;
}
