// SPDX-License-Identifier: MIT
/* dataset.c - load a trace into memory (see dataset.h). */
#include "trace/dataset.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace/trace_schema.h"
#include "util/json.h"
#include "util/partition.h"

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

/* A BENCH record with its process instance, for sorting. */
struct bench_key {
	uint32_t inst;
	struct bs_bench_rec r;
};

/* by process (pid, instance), then time */
static int cmp_bench(const void *x, const void *y)
{
	const struct bench_key *a = x, *b = y;

	if (a->r.pid != b->r.pid)
		return a->r.pid < b->r.pid ? -1 : 1;
	if (a->inst != b->inst)
		return a->inst < b->inst ? -1 : 1;
	return (a->r.ts_ns > b->r.ts_ns) - (a->r.ts_ns < b->r.ts_ns);
}

/*
 * Number the process instances of the iterations and BENCH records
 * (proc_inst.h), and sort the BENCH records by process, then time, for
 * bs_dataset_bench_name's binary search. Returns 0 or -ENOMEM.
 */
static int number_instances(struct bs_dataset *ds)
{
	size_t nb = ds->n_benches;
	struct bench_key *k;
	int ret;

	ret = bs_proc_inst_build(ds->procs, ds->n_procs, ds->iters, ds->n_iters, ds->benches, nb,
				 &ds->proc_inst);
	if (ret)
		return ret;
	if (ds->proc_inst) {
		ds->iter_inst = malloc((ds->n_iters ? ds->n_iters : 1) * sizeof(*ds->iter_inst));
		ds->bench_inst = malloc((nb ? nb : 1) * sizeof(*ds->bench_inst));
		if (!ds->iter_inst || !ds->bench_inst)
			return -ENOMEM;
		for (size_t i = 0; i < ds->n_iters; i++)
			ds->iter_inst[i] =
			    bs_proc_inst_of(ds->proc_inst, ds->iters[i].pid, ds->iters[i].begin_ns);
	}
	if (nb < 2 && !ds->bench_inst)
		return 0;
	k = malloc((nb ? nb : 1) * sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < nb; i++) {
		k[i].r = ds->benches[i];
		k[i].inst = bs_proc_inst_of(ds->proc_inst, k[i].r.pid, k[i].r.ts_ns);
	}
	qsort(k, nb, sizeof(*k), cmp_bench);
	for (size_t i = 0; i < nb; i++) {
		ds->benches[i] = k[i].r;
		if (ds->bench_inst)
			ds->bench_inst[i] = k[i].inst;
	}
	free(k);
	return 0;
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
	if (number_instances(l->ds)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
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

uint32_t bs_dataset_proc_instance(const struct bs_dataset *ds, uint32_t pid, uint64_t ts_ns)
{
	return ds ? bs_proc_inst_of(ds->proc_inst, pid, ts_ns) : 0;
}

uint32_t bs_dataset_iter_instance(const struct bs_dataset *ds, const struct bs_iter_rec *r)
{
	uintptr_t p = (uintptr_t)r, first = ds ? (uintptr_t)ds->iters : 0;

	if (!ds || !ds->proc_inst)
		return 0;
	if (ds->iter_inst && p >= first && p < first + ds->n_iters * sizeof(*r))
		return ds->iter_inst[(p - first) / sizeof(*r)];
	return bs_proc_inst_of(ds->proc_inst, r->pid, r->begin_ns); /* a copy */
}

/* a benchmark name's place: its process (pid, instance) and time */
struct name_key {
	const struct bs_dataset *ds;
	uint32_t pid, inst;
	uint64_t ts_ns;
};

/* benches[i]'s process before k's, or k's and no later than its ts_ns */
static bool bench_before(const void *ctx, size_t i)
{
	const struct name_key *k = ctx;
	const struct bs_bench_rec *b = &k->ds->benches[i];
	uint32_t bi = k->ds->bench_inst ? k->ds->bench_inst[i] : 0;

	if (b->pid != k->pid)
		return b->pid < k->pid;
	if (bi != k->inst)
		return bi < k->inst;
	return b->ts_ns <= k->ts_ns;
}

const char *bs_dataset_bench_name(const struct bs_dataset *ds, uint32_t pid, uint64_t ts_ns)
{
	uint32_t inst = bs_dataset_proc_instance(ds, pid, ts_ns);
	struct name_key k = {ds, pid, inst, ts_ns};
	/* the first record after (pid, inst, ts_ns); the one before it is the answer */
	size_t lo = ds ? bs_partition_point(ds->n_benches, bench_before, &k) : 0;

	if (lo == 0 || ds->benches[lo - 1].pid != pid ||
	    (ds->bench_inst ? ds->bench_inst[lo - 1] : 0) != inst)
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
	free(ds->iter_inst);
	free(ds->bench_inst);
	bs_proc_inst_free(ds->proc_inst);
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
