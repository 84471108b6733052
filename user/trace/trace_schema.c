// SPDX-License-Identifier: MIT
/* trace_schema.c - record layouts of the SCHEMA block (see trace_schema.h). */
#include "trace/trace_schema.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "benchscope/record.h"
#include "trace/format.h"

#define F(st, name, type, unit)                                                                    \
	{                                                                                          \
#name, type, offsetof(struct st, name), unit, 0                                    \
	}
/* a field that took the place of padding (struct bs_field.later) */
#define F_LATER(st, name, type, unit)                                                              \
	{                                                                                          \
#name, type, offsetof(struct st, name), unit, 1                                    \
	}

static const struct bs_field iter_fields[] = {
    F(bs_iter_rec, type, "u32", ""),
    F(bs_iter_rec, flags, "u32", ""),
    F(bs_iter_rec, index, "u64", ""),
    F(bs_iter_rec, pid, "u32", ""),
    F(bs_iter_rec, tid, "u32", ""),
    F(bs_iter_rec, cpu_begin, "u32", ""),
    F(bs_iter_rec, cpu_end, "u32", ""),
    F(bs_iter_rec, begin_ns, "u64", "ns"),
    F(bs_iter_rec, end_ns, "u64", "ns"),
    F(bs_iter_rec, invocations, "u64", "count"),
    F(bs_iter_rec, preempted_ns, "u64", "ns"),
    F(bs_iter_rec, blocked_ns, "u64", "ns"),
    F(bs_iter_rec, runq_wait_ns, "u64", "ns"),
    F(bs_iter_rec, irq_ns, "u64", "ns"),
    F(bs_iter_rec, softirq_ns, "u64", "ns"),
    F(bs_iter_rec, steal_ns, "u64", "ns"),
    F(bs_iter_rec, sched_delay_ns, "u64", "ns"),
    F(bs_iter_rec, nvcsw, "u32", "count"),
    F(bs_iter_rec, nivcsw, "u32", "count"),
    F(bs_iter_rec, migrations, "u32", "count"),
    F(bs_iter_rec, probe, "u32", ""),
};

static const struct bs_field proc_fields[] = {
    F(bs_proc_rec, type, "u32", ""),	  F(bs_proc_rec, kind, "u32", ""),
    F(bs_proc_rec, pid, "u32", ""),	  F(bs_proc_rec, ppid, "u32", ""),
    F(bs_proc_rec, ts_ns, "u64", "ns"),	  F(bs_proc_rec, exit_code, "s32", ""),
    F(bs_proc_rec, comm, "char[16]", ""),
};

static const struct bs_field interferer_fields[] = {
    F(bs_interferer_rec, victim_pid, "u32", ""),
    F(bs_interferer_rec, interferer_tid, "u32", ""),
    F(bs_interferer_rec, interferer_pid, "u32", ""),
    F_LATER(bs_interferer_rec, victim_iter, "u32", ""),
    F(bs_interferer_rec, ns, "u64", "ns"),
    F(bs_interferer_rec, comm, "char[16]", ""),
};

static const struct bs_field bench_fields[] = {
    F(bs_bench_rec, type, "u32", ""),	 F(bs_bench_rec, pid, "u32", ""),
    F(bs_bench_rec, tid, "u32", ""),	 F(bs_bench_rec, name_len, "u32", "bytes"),
    F(bs_bench_rec, ts_ns, "u64", "ns"), F(bs_bench_rec, name, "char[104]", ""),
};

#undef F
#define N(a) (sizeof(a) / sizeof((a)[0]))

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_ORDER "little"
#else
#define HOST_ORDER "big"
#endif

static const struct bs_record_layout layouts[] = {
    {"iter", BS_BLK_ITER, sizeof(struct bs_iter_rec), iter_fields, N(iter_fields), 0},
    {"proc", BS_BLK_PROC, sizeof(struct bs_proc_rec), proc_fields, N(proc_fields), 0},
    {"interferer", BS_BLK_INTERFERER, sizeof(struct bs_interferer_rec), interferer_fields,
     N(interferer_fields), 0},
    {"bench", BS_BLK_BENCH, sizeof(struct bs_bench_rec), bench_fields, N(bench_fields), 1},
};

const struct bs_record_layout *bs_record_layouts(size_t *n)
{
	*n = N(layouts);
	return layouts;
}

static json_object *layout_json(const struct bs_record_layout *l)
{
	json_object *o = json_object_new_object(), *fields = json_object_new_array();

	json_object_object_add(o, "block", json_object_new_int((int)l->block));
	json_object_object_add(o, "size", json_object_new_int64((int64_t)l->size));
	for (size_t i = 0; i < l->n_fields; i++) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "name", json_object_new_string(l->fields[i].name));
		json_object_object_add(f, "type", json_object_new_string(l->fields[i].type));
		json_object_object_add(f, "offset",
				       json_object_new_int64((int64_t)l->fields[i].offset));
		json_object_object_add(f, "unit", json_object_new_string(l->fields[i].unit));
		json_object_array_add(fields, f);
	}
	json_object_object_add(o, "fields", fields);
	return o;
}

const char *bs_trace_schema_json(void)
{
	static char *text;

	if (!text) {
		json_object *root = json_object_new_object(), *recs = json_object_new_object();

		json_object_object_add(root, "byte_order", json_object_new_string(HOST_ORDER));
		for (size_t i = 0; i < N(layouts); i++)
			json_object_object_add(recs, layouts[i].name, layout_json(&layouts[i]));
		json_object_object_add(root, "records", recs);
		text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
		json_object_put(root);
	}
	return text ? text : "{}";
}

static int check_layout(const struct bs_record_layout *l, json_object *rec, char *err,
			size_t errlen)
{
	json_object *size, *fields;

	if (!json_object_object_get_ex(rec, "size", &size) ||
	    !json_object_object_get_ex(rec, "fields", &fields) ||
	    !json_object_is_type(fields, json_type_array)) {
		snprintf(err, errlen, "schema of '%s' records lacks size or fields", l->name);
		return -EBADMSG;
	}
	if (json_object_get_int64(size) != (int64_t)l->size) {
		snprintf(err, errlen, "'%s' records are %lld bytes in the trace, %zu in this build",
			 l->name, (long long)json_object_get_int64(size), l->size);
		return -EPROTO;
	}
	for (size_t i = 0; i < l->n_fields; i++) {
		const struct bs_field *want = &l->fields[i];
		int found = 0;

		for (size_t j = 0; j < json_object_array_length(fields); j++) {
			json_object *f = json_object_array_get_idx(fields, j), *v;

			if (!json_object_object_get_ex(f, "name", &v) ||
			    strcmp(json_object_get_string(v), want->name))
				continue;
			found = 1;
			json_object *off = NULL, *type = NULL;
			json_object_object_get_ex(f, "offset", &off);
			json_object_object_get_ex(f, "type", &type);
			if (json_object_get_int64(off) != (int64_t)want->offset || !type ||
			    strcmp(json_object_get_string(type), want->type)) {
				snprintf(err, errlen,
					 "field %s.%s differs between the trace and this build",
					 l->name, want->name);
				return -EPROTO;
			}
		}
		if (!found && !want->later) {
			snprintf(err, errlen, "field %s.%s missing from the trace schema", l->name,
				 want->name);
			return -EPROTO;
		}
	}
	return 0;
}

int bs_trace_schema_check(const char *text, size_t len, char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	json_object *root, *recs, *bo;
	int ret = 0;

	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	root = json_tokener_parse_ex(tok, text, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success ||
	    !json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "records", &recs)) {
		snprintf(err, errlen, "SCHEMA block is not a valid schema object");
		ret = -EBADMSG;
		goto out;
	}
	if (json_object_object_get_ex(root, "byte_order", &bo) &&
	    strcmp(json_object_get_string(bo), HOST_ORDER)) {
		snprintf(err, errlen, "trace byte order '%s' is not supported",
			 json_object_get_string(bo));
		ret = -EPROTO;
		goto out;
	}
	for (size_t i = 0; i < N(layouts) && !ret; i++) {
		json_object *rec;

		if (!json_object_object_get_ex(recs, layouts[i].name, &rec)) {
			if (layouts[i].since_minor > 0)
				continue; /* a trace from before this kind existed */
			snprintf(err, errlen, "schema lacks the '%s' record kind", layouts[i].name);
			ret = -EPROTO;
		} else {
			ret = check_layout(&layouts[i], rec, err, errlen);
		}
	}
out:
	json_object_put(root);
	json_tokener_free(tok);
	return ret;
}
