// SPDX-License-Identifier: MIT
/* dataset.c - load a trace into memory (see dataset.h). */
#include "trace/dataset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace/trace_schema.h"
#include "util/json.h"

/* Append one fixed-size record to a growable array. */
static int push(void **arr, size_t *n, size_t *cap, const void *rec, size_t size)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		void *na = realloc(*arr, ncap * size);

		if (!na)
			return -ENOMEM;
		*arr = na;
		*cap = ncap;
	}
	memcpy((char *)*arr + *n * size, rec, size);
	(*n)++;
	return 0;
}

struct bs_dataset_builder {
	struct bs_dataset *ds;
	size_t cap_iters, cap_procs, cap_interferers, cap_benches;
};
#define loader bs_dataset_builder

static int add_record(struct loader *l, uint32_t kind, const void *p, uint32_t len, char *err,
		      size_t errlen)
{
	struct bs_dataset *ds = l->ds;
	size_t want = bs_trace_record_size(kind); /* kind: ITER, PROC, INTERFERER or BENCH */
	int ret;

	if (len != want) {
		snprintf(err, errlen, "corrupted %s block #%zu: %u bytes, expected %zu",
			 bs_trace_block_name(kind), ds->n_blocks + 1, len, want);
		return -EBADMSG;
	}
	if (kind == BS_BLK_ITER)
		ret = push((void **)&ds->iters, &ds->n_iters, &l->cap_iters, p, len);
	else if (kind == BS_BLK_PROC)
		ret = push((void **)&ds->procs, &ds->n_procs, &l->cap_procs, p, len);
	else if (kind == BS_BLK_BENCH)
		ret = push((void **)&ds->benches, &ds->n_benches, &l->cap_benches, p, len);
	else
		ret = push((void **)&ds->interferers, &ds->n_interferers, &l->cap_interferers, p,
			   len);
	if (ret)
		snprintf(err, errlen, "out of memory");
	return ret;
}

static int cmp_bench(const void *x, const void *y)
{
	const struct bs_bench_rec *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
}

static int add_block(struct loader *l, uint32_t kind, const void *p, uint32_t len, char *err,
		     size_t errlen)
{
	struct bs_dataset *ds = l->ds;
	json_object *o;
	int ret;

	if (ds->n_blocks == 0 && kind != BS_BLK_SCHEMA) {
		snprintf(err, errlen, "corrupted trace: first block is '%s', expected 'schema'",
			 bs_trace_block_name(kind));
		return -EBADMSG;
	}
	switch (kind) {
	case BS_BLK_SCHEMA:
		return bs_trace_schema_check(p, len, err, errlen);
	case BS_BLK_ITER:
	case BS_BLK_PROC:
	case BS_BLK_INTERFERER:
		return add_record(l, kind, p, len, err, errlen);
	case BS_BLK_BENCH:
		ret = add_record(l, kind, p, len, err, errlen);
		if (!ret) /* never trust the trace's terminator */
			ds->benches[ds->n_benches - 1].name[BS_BENCH_NAME_LEN - 1] = '\0';
		return ret;
	case BS_BLK_MEMBER:
		snprintf(err, errlen,
			 "a fleet trace (benchscope merge): only report and merge read fleets");
		return -EBADMSG;
	case BS_BLK_CONTEXT:
	case BS_BLK_EVENT:
	case BS_BLK_END:
		o = bs_json_parse_object(p, len);
		if (!o) {
			snprintf(err, errlen, "corrupted %s block #%zu: not a JSON object",
				 bs_trace_block_name(kind), ds->n_blocks + 1);
			return -EBADMSG;
		}
		if (kind == BS_BLK_CONTEXT) {
			json_object_put(ds->context);
			ds->context = o;
		} else if (kind == BS_BLK_END) {
			json_object_put(ds->end);
			ds->end = o;
		} else if (json_object_array_add(ds->events, o)) {
			json_object_put(o);
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		} else {
			return bs_run_events_add(&ds->run_ev, o, ds->n_blocks + 1, err, errlen);
		}
		return 0;
	default:
		return 0; /* a kind from a newer minor version: skipped */
	}
}

int bs_dataset_builder_new(const char *path, struct bs_dataset_builder **out, char *err,
			   size_t errlen)
{
	struct loader *l = calloc(1, sizeof(*l));

	if (!l || !(l->ds = calloc(1, sizeof(*l->ds))) ||
	    !(l->ds->events = json_object_new_array()) || !(l->ds->path = strdup(path))) {
		bs_dataset_builder_free(l);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*out = l;
	return 0;
}

int bs_dataset_builder_add(struct bs_dataset_builder *l, uint32_t kind, const void *payload,
			   uint32_t len, char *err, size_t errlen)
{
	int ret = add_block(l, kind, payload, len, err, errlen);

	if (!ret)
		l->ds->n_blocks++;
	return ret;
}

int bs_dataset_builder_finish(struct bs_dataset_builder *l, int truncated, unsigned version,
			      struct bs_dataset **out, char *err, size_t errlen)
{
	int ret;

	if (l->ds->n_blocks == 0) {
		snprintf(err, errlen, "trace %s before its first block",
			 truncated ? "truncated" : "ends");
		return -EBADMSG;
	}
	l->ds->truncated = truncated;
	l->ds->version = version;
	/* by process, then time, for bs_dataset_bench_name's binary search */
	if (l->ds->n_benches > 1)
		qsort(l->ds->benches, l->ds->n_benches, sizeof(*l->ds->benches), cmp_bench);
	l->ds->has_context = l->ds->context != NULL;
	if (!l->ds->context && !(l->ds->context = json_object_new_object())) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = bs_run_context_decode(l->ds->context, &l->ds->run_ctx, err, errlen);
	if (!ret)
		ret = bs_run_end_decode(l->ds->end, &l->ds->run_end, err, errlen);
	if (ret)
		return ret;
	*out = l->ds;
	l->ds = NULL;
	free(l);
	return 0;
}

void bs_dataset_builder_free(struct bs_dataset_builder *l)
{
	if (!l)
		return;
	bs_dataset_free(l->ds);
	free(l);
}

int bs_dataset_load(const char *path, struct bs_dataset **out, char *err, size_t errlen)
{
	struct bs_trace_reader *r;
	struct loader *l = NULL;
	const void *payload;
	uint32_t kind, len;
	int ret;

	if (!err)
		errlen = 0;
	if (!path || !out) {
		snprintf(err, errlen, "no trace given");
		return -EINVAL;
	}
	r = bs_trace_open(path, err, errlen);
	if (!r)
		return errno ? -errno : -EPROTO;
	ret = bs_dataset_builder_new(path, &l, err, errlen);
	if (ret)
		goto fail;
	while ((ret = bs_trace_next(r, &kind, &payload, &len, err, errlen)) > 0) {
		ret = bs_dataset_builder_add(l, kind, payload, len, err, errlen);
		if (ret)
			goto fail;
	}
	if (ret < 0)
		goto fail;
	ret = bs_dataset_builder_finish(l, bs_trace_truncated(r), bs_trace_version(r), out, err,
					errlen);
	if (ret)
		goto fail;
	bs_trace_close_reader(r);
	return 0;
fail:
	if (ret != -ENOMEM && err && errlen && strncmp(err, path, strlen(path))) {
		char tmp[512];

		snprintf(tmp, sizeof(tmp), "%s: %s", path, err);
		snprintf(err, errlen, "%s", tmp);
	}
	bs_trace_close_reader(r);
	bs_dataset_builder_free(l);
	return ret;
}

const char *bs_dataset_bench_name(const struct bs_dataset *ds, uint32_t pid, uint64_t ts_ns)
{
	size_t lo = 0, hi = ds ? ds->n_benches : 0;

	/* the first record after (pid, ts_ns); the one before it is the answer */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct bs_bench_rec *b = &ds->benches[mid];

		if (b->pid < pid || (b->pid == pid && b->ts_ns <= ts_ns))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || ds->benches[lo - 1].pid != pid)
		return NULL;
	return ds->benches[lo - 1].name;
}

void bs_dataset_free(struct bs_dataset *ds)
{
	if (!ds)
		return;
	bs_run_context_free(&ds->run_ctx);
	bs_run_end_free(&ds->run_end);
	bs_run_events_free(&ds->run_ev);
	json_object_put(ds->context);
	json_object_put(ds->end);
	json_object_put(ds->events);
	free(ds->iters);
	free(ds->procs);
	free(ds->interferers);
	free(ds->benches);
	free(ds->path);
	free(ds);
}

char *bs_dataset_truncation_text(const struct bs_dataset *ds, char *buf, size_t len)
{
	snprintf(buf, len, "truncated after %zu block%s holding %zu iteration record%s",
		 ds->n_blocks, ds->n_blocks == 1 ? "" : "s", ds->n_iters,
		 ds->n_iters == 1 ? "" : "s");
	return buf;
}
