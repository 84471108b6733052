// SPDX-License-Identifier: MIT
/* fleet_load.c - read a fleet trace back, one dataset per member (fleet.h). */
#include "fleet/fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace/trace_schema.h"
#include "util/json.h"

const char *bs_fleet_kind_of(json_object *context)
{
	const char *mode = bs_json_str(context, "mode", NULL);

	return mode && !strcmp(mode, "duet") ? "duet" : "run";
}

int bs_trace_is_fleet(const char *path)
{
	struct bs_trace_reader *r = bs_trace_open(path, NULL, 0);
	const void *p;
	uint32_t kind, len;
	int fleet = 0;

	if (!r)
		return 0;
	for (int i = 0; i < 2 && bs_trace_next(r, &kind, &p, &len, NULL, 0) > 0; i++) {
		if (kind == BS_BLK_CONTEXT) {
			json_object *o = bs_json_parse_object(p, len);
			const char *mode = bs_json_str(o, "mode", NULL);

			fleet = mode && !strcmp(mode, "fleet");
			json_object_put(o);
			break;
		}
	}
	bs_trace_close_reader(r);
	return fleet;
}

typedef int (*member_fn)(void *ctx, const struct bs_fleet *f, struct bs_fleet_member *m, char *err,
			 size_t errlen);

/* Close the member being built: check its block count and finish it; hand
 * it to @fn (then free its dataset) when there is one. */
static int finish_member(struct bs_fleet *f, struct bs_dataset_builder **b, size_t blocks_seen,
			 size_t blocks_want, member_fn fn, void *ctx, char *err, size_t errlen)
{
	struct bs_fleet_member *m = &f->members[f->n_members - 1];
	char e[384];
	int ret;

	if (blocks_seen != blocks_want) {
		snprintf(err, errlen, "member %zu (%s): %zu blocks, its MEMBER block says %zu",
			 m->index, m->source, blocks_seen, blocks_want);
		return -EBADMSG;
	}
	ret = bs_dataset_builder_finish(*b, 0, 0, &m->ds, e, sizeof(e));
	if (ret) {
		snprintf(err, errlen, "member %zu (%s): %s", m->index, m->source, e);
		return ret;
	}
	*b = NULL;
	if (fn) {
		ret = fn(ctx, f, m, err, errlen);
		bs_dataset_free(m->ds);
		m->ds = NULL;
	}
	return ret;
}

/* Start member from a MEMBER block. */
static int start_member(struct bs_fleet *f, const void *p, uint32_t len,
			struct bs_dataset_builder **b, size_t *blocks_want, char *err,
			size_t errlen)
{
	json_object *o = bs_json_parse_object(p, len);
	struct bs_fleet_member *m, *nm;
	const char *src, *fmt;
	int64_t idx, blocks;
	int ret;

	src = bs_json_str(o, "source", NULL);
	fmt = bs_json_str(o, "format", NULL);
	idx = bs_json_int(o, "index", -1);
	blocks = bs_json_int(o, "blocks", -1);
	if (!o || !src || !fmt || idx < 1 || blocks < 0) {
		json_object_put(o);
		snprintf(err, errlen, "corrupted MEMBER block after member %zu", f->n_members);
		return -EBADMSG;
	}
	nm = realloc(f->members, (f->n_members + 1) * sizeof(*nm));
	if (!nm) {
		json_object_put(o);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	f->members = nm;
	m = &f->members[f->n_members++];
	memset(m, 0, sizeof(*m));
	m->index = (size_t)idx;
	m->source = strdup(src);
	m->format = strdup(fmt);
	json_object_put(o);
	*blocks_want = (size_t)blocks;
	if (!m->source || !m->format) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = bs_dataset_builder_new(m->source, b, err, errlen);
	return ret;
}

int bs_fleet_load(const char *path, struct bs_fleet **out, char *err, size_t errlen)
{
	return bs_fleet_each(path, NULL, NULL, out, err, errlen);
}

int bs_fleet_each(const char *path, member_fn fn, void *ctx, struct bs_fleet **out, char *err,
		  size_t errlen)
{
	struct bs_trace_reader *r;
	struct bs_dataset_builder *b = NULL;
	struct bs_fleet *f;
	const void *p;
	uint32_t kind, len;
	size_t nblk = 0, seen = 0, want = 0;
	char e[384];
	int ret;

	if (!err)
		errlen = 0;
	r = bs_trace_open(path, err, errlen);
	if (!r)
		return errno ? -errno : -EPROTO;
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	while ((ret = bs_trace_next(r, &kind, &p, &len, e, sizeof(e))) > 0) {
		nblk++;
		ret = 0;
		if (nblk == 1) {
			ret = bs_trace_schema_check(p, len, e, sizeof(e));
			if (!ret && kind != BS_BLK_SCHEMA) {
				snprintf(e, sizeof(e), "first block is not the schema");
				ret = -EBADMSG;
			}
		} else if (nblk == 2) {
			const char *mode;

			f->context = kind == BS_BLK_CONTEXT ? bs_json_parse_object(p, len) : NULL;
			mode = bs_json_str(f->context, "mode", NULL);
			if (!mode || strcmp(mode, "fleet")) {
				snprintf(err, errlen, "%s is not a fleet trace", path);
				ret = -EPROTO;
				goto fail_msg;
			}
			snprintf(f->kind, sizeof(f->kind), "%s",
				 bs_json_str(bs_json_get(f->context, "fleet"), "kind", "run"));
		} else if (kind == BS_BLK_MEMBER) {
			if (b && (ret = finish_member(f, &b, seen, want, fn, ctx, err, errlen)))
				goto fail_msg;
			ret = start_member(f, p, len, &b, &want, err, errlen);
			if (ret)
				goto fail_msg;
			seen = 0;
		} else if (!b) {
			snprintf(e, sizeof(e), "a %s block outside any member",
				 bs_trace_block_name(kind));
			ret = -EBADMSG;
		} else {
			seen++;
			ret = bs_dataset_builder_add(b, kind, p, len, e, sizeof(e));
			if (ret) {
				struct bs_fleet_member *m = &f->members[f->n_members - 1];

				snprintf(err, errlen, "%s: member %zu (%s): %s", path, m->index,
					 m->source, e);
				goto fail_msg;
			}
		}
		if (ret)
			break;
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s: %s", path, e);
		goto fail_msg;
	}
	if (bs_trace_truncated(r)) {
		snprintf(err, errlen, "%s: truncated fleet trace", path);
		ret = -EBADMSG;
		goto fail_msg;
	}
	if (b && (ret = finish_member(f, &b, seen, want, fn, ctx, err, errlen)))
		goto fail_msg;
	if (!f->n_members) {
		snprintf(err, errlen, "%s: a fleet without members", path);
		ret = -EBADMSG;
		goto fail_msg;
	}
	bs_trace_close_reader(r);
	*out = f;
	return 0;
fail:
	snprintf(err, errlen, "out of memory");
fail_msg:
	bs_dataset_builder_free(b);
	bs_trace_close_reader(r);
	bs_fleet_free(f);
	return ret;
}

void bs_fleet_free(struct bs_fleet *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n_members; i++) {
		free(f->members[i].source);
		free(f->members[i].format);
		bs_dataset_free(f->members[i].ds);
	}
	free(f->members);
	json_object_put(f->context);
	free(f->path);
	free(f);
}
