// SPDX-License-Identifier: MIT
/* trace.c - streaming trace writer (format: trace.h). */
#include "trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "trace/trace_schema.h"
#include "util/monotime.h"

#define OUT_BUF	  (64u << 10)
#define STAGE_BUF (32u << 10) /* small blocks are batched before deflate */

struct bs_trace_writer {
	int fd;
	int err;   /* first -errno met; sticky */
	int dirty; /* data given to deflate since the last flush */
	uint64_t last_flush_ns;
	uint64_t blocks;
	size_t staged; /* bytes in stage not yet given to deflate */
	z_stream zs;
	unsigned char stage[STAGE_BUF];
	unsigned char out[OUT_BUF];
};

const char *bs_trace_block_name(uint32_t kind)
{
	switch (kind) {
	case BS_BLK_SCHEMA:
		return "schema";
	case BS_BLK_CONTEXT:
		return "context";
	case BS_BLK_ITER:
		return "iter";
	case BS_BLK_PROC:
		return "proc";
	case BS_BLK_INTERFERER:
		return "interferer";
	case BS_BLK_EVENT:
		return "event";
	case BS_BLK_END:
		return "end";
	case BS_BLK_BENCH:
		return "bench";
	case BS_BLK_MEMBER:
		return "member";
	default:
		return "unknown";
	}
}

size_t bs_trace_record_size(uint32_t kind)
{
	switch (kind) {
	case BS_BLK_ITER:
		return sizeof(struct bs_iter_rec);
	case BS_BLK_PROC:
		return sizeof(struct bs_proc_rec);
	case BS_BLK_INTERFERER:
		return sizeof(struct bs_interferer_rec);
	case BS_BLK_BENCH:
		return sizeof(struct bs_bench_rec);
	default:
		return 0;
	}
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Feed @len bytes to deflate with @flush and write every byte it produces. */
static int deflate_out(struct bs_trace_writer *w, const void *data, size_t len, int flush)
{
	int zret;

	if (w->err)
		return w->err;
	w->zs.next_in = (Bytef *)(uintptr_t)data;
	w->zs.avail_in = (uInt)len;
	do {
		w->zs.next_out = w->out;
		w->zs.avail_out = OUT_BUF;
		zret = deflate(&w->zs, flush);
		if (zret == Z_STREAM_ERROR) {
			w->err = -EIO;
			return w->err;
		}
		size_t have = OUT_BUF - w->zs.avail_out;
		if (have) {
			int ret = write_all(w->fd, w->out, have);

			if (ret) {
				w->err = ret;
				return ret;
			}
		}
	} while (w->zs.avail_out == 0 || w->zs.avail_in);
	return 0;
}

/* Give the staged bytes to deflate. */
static int drain_stage(struct bs_trace_writer *w)
{
	int ret;

	if (!w->staged)
		return w->err;
	ret = deflate_out(w, w->stage, w->staged, Z_NO_FLUSH);
	w->staged = 0;
	return ret;
}

int bs_trace_flush(struct bs_trace_writer *w)
{
	int ret;

	if (!w)
		return -EINVAL;
	if (!w->dirty)
		return w->err;
	ret = drain_stage(w);
	if (!ret)
		ret = deflate_out(w, NULL, 0, Z_SYNC_FLUSH);
	w->dirty = 0;
	w->last_flush_ns = bs_mono_ns();
	return ret;
}

int bs_trace_flush_if_due(struct bs_trace_writer *w)
{
	if (!w)
		return -EINVAL;
	if (!w->dirty || bs_mono_ns() - w->last_flush_ns < BS_TRACE_FLUSH_NS)
		return w->err;
	return bs_trace_flush(w);
}

int bs_trace_write_block(struct bs_trace_writer *w, uint32_t kind, const void *payload,
			 uint32_t len)
{
	unsigned char hdr[8];
	int ret;

	if (!w || (len && !payload) || len > BS_TRACE_MAX_BLOCK)
		return -EINVAL;
	if (w->err)
		return w->err;
	put_le32(hdr, kind);
	put_le32(hdr + 4, len);
	if (w->staged + sizeof(hdr) + len > STAGE_BUF) {
		ret = drain_stage(w);
		if (ret)
			return ret;
	}
	if (sizeof(hdr) + len <= STAGE_BUF) {
		memcpy(w->stage + w->staged, hdr, sizeof(hdr));
		if (len)
			memcpy(w->stage + w->staged + sizeof(hdr), payload, len);
		w->staged += sizeof(hdr) + len;
	} else {
		ret = deflate_out(w, hdr, sizeof(hdr), Z_NO_FLUSH);
		if (!ret)
			ret = deflate_out(w, payload, len, Z_NO_FLUSH);
		if (ret)
			return ret;
	}
	w->blocks++;
	w->dirty = 1;
	return bs_trace_flush_if_due(w);
}

int bs_trace_write_iter(struct bs_trace_writer *w, const struct bs_iter_rec *r)
{
	return r ? bs_trace_write_block(w, BS_BLK_ITER, r, sizeof(*r)) : -EINVAL;
}

int bs_trace_write_proc(struct bs_trace_writer *w, const struct bs_proc_rec *r)
{
	return r ? bs_trace_write_block(w, BS_BLK_PROC, r, sizeof(*r)) : -EINVAL;
}

int bs_trace_write_interferer(struct bs_trace_writer *w, const struct bs_interferer_rec *r)
{
	return r ? bs_trace_write_block(w, BS_BLK_INTERFERER, r, sizeof(*r)) : -EINVAL;
}

int bs_trace_write_bench(struct bs_trace_writer *w, const struct bs_bench_rec *r)
{
	return r ? bs_trace_write_block(w, BS_BLK_BENCH, r, sizeof(*r)) : -EINVAL;
}

/* 1 if @text parses as one JSON object. */
static int is_json_object(const char *text)
{
	json_object *o;
	int ok;

	if (!text)
		return 0;
	o = json_tokener_parse(text);
	ok = o && json_object_is_type(o, json_type_object);
	json_object_put(o);
	return ok;
}

static int write_json(struct bs_trace_writer *w, uint32_t kind, const char *text)
{
	size_t len;

	if (!is_json_object(text))
		return -EINVAL;
	len = strlen(text);
	if (len > BS_TRACE_MAX_BLOCK)
		return -E2BIG;
	return bs_trace_write_block(w, kind, text, (uint32_t)len);
}

int bs_trace_write_event(struct bs_trace_writer *w, const char *json_object_text)
{
	return write_json(w, BS_BLK_EVENT, json_object_text);
}

int bs_trace_write_end(struct bs_trace_writer *w, const char *json_object_text)
{
	int ret = write_json(w, BS_BLK_END, json_object_text);

	return ret ? ret : bs_trace_flush(w);
}

uint64_t bs_trace_blocks_written(const struct bs_trace_writer *w)
{
	return w ? w->blocks : 0;
}

int bs_trace_error(const struct bs_trace_writer *w)
{
	return w ? w->err : 0;
}

struct bs_trace_writer *bs_trace_create(const char *path, const char *context_json, char *err,
					size_t errlen)
{
	struct bs_trace_writer *w;
	unsigned char hdr[BS_TRACE_HEADER_LEN] = {0};
	const char *schema = bs_trace_schema_json();
	int ret;

	if (!err)
		errlen = 0;
	if (!context_json)
		context_json = "{}";
	if (!path || !is_json_object(context_json)) {
		snprintf(err, errlen, "trace: context is not a JSON object");
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "trace: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create trace %s: %s", path, strerror(-ret));
		free(w);
		errno = -ret;
		return NULL;
	}
	memcpy(hdr, BS_TRACE_MAGIC, BS_TRACE_MAGIC_LEN); /* includes the NUL */
	put_le32(hdr + 8, BS_TRACE_VERSION);
	put_le32(hdr + 12, 0);
	ret = write_all(w->fd, hdr, sizeof(hdr));
	if (ret)
		goto fail;
	/* gzip wrapper (15 + 16), fast level: traces are written while measuring */
	if (deflateInit2(&w->zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK) {
		ret = -ENOMEM;
		close(w->fd);
		free(w);
		snprintf(err, errlen, "trace: cannot initialise zlib");
		errno = ENOMEM;
		return NULL;
	}
	w->last_flush_ns = bs_mono_ns();
	ret = bs_trace_write_block(w, BS_BLK_SCHEMA, schema, (uint32_t)strlen(schema));
	if (!ret)
		ret = write_json(w, BS_BLK_CONTEXT, context_json);
	if (!ret)
		ret = bs_trace_flush(w);
	if (ret) {
		deflateEnd(&w->zs);
		goto fail;
	}
	return w;
fail:
	snprintf(err, errlen, "cannot write trace %s: %s", path, strerror(-ret));
	close(w->fd);
	free(w);
	errno = -ret;
	return NULL;
}

int bs_trace_close(struct bs_trace_writer *w)
{
	int ret;

	if (!w)
		return 0;
	ret = drain_stage(w);
	if (!ret)
		ret = deflate_out(w, NULL, 0, Z_FINISH);
	deflateEnd(&w->zs);
	if (close(w->fd) && !ret)
		ret = -errno;
	free(w);
	return ret;
}
