// SPDX-License-Identifier: MIT
/* trace_read.c - block reader of trace files (format: trace.h). */
#include "trace/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#define IN_BUF	 (64u << 10)
#define OUT_STEP (256u << 10)

struct bs_trace_reader {
	int fd;
	int in_eof;	/* read(2) returned 0 */
	int stream_end; /* inflate reached the end of the gzip stream */
	int truncated;
	uint32_t version;
	uint64_t blocks;
	/* gzip members: in_off is the file offset of in[0]; base is the
	 * absolute decompressed offset of buf[0]; gz[] the members that began
	 * after the first (absolute decompressed offset, file offset), gz_next
	 * the first not yet reached by a returned block, gz_cur the file offset
	 * of the member holding the last block returned */
	uint64_t in_off, base, gz_cur;
	struct {
		uint64_t dpos, coff;
	} * gz;
	size_t n_gz, cap_gz, gz_next;
	z_stream zs;
	unsigned char *buf; /* decompressed bytes: [start, end) not yet consumed */
	size_t cap, start, end;
	unsigned char in[IN_BUF];
};

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int read_full(int fd, void *buf, size_t len, size_t *got)
{
	char *p = buf;

	*got = 0;
	while (*got < len) {
		ssize_t n = read(fd, p + *got, len - *got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

struct bs_trace_reader *bs_trace_open(const char *path, char *err, size_t errlen)
{
	struct bs_trace_reader *r;
	unsigned char hdr[BS_TRACE_HEADER_LEN];
	size_t got;
	int ret;

	if (!err)
		errlen = 0;
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(ret));
		free(r);
		errno = ret;
		return NULL;
	}
	ret = read_full(r->fd, hdr, sizeof(hdr), &got);
	if (ret) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(-ret));
		goto fail;
	}
	ret = -EPROTO;
	if (got < sizeof(hdr) || memcmp(hdr, BS_TRACE_MAGIC, BS_TRACE_MAGIC_LEN)) {
		snprintf(err, errlen, "%s is not a benchscope trace (%s)", path,
			 got < sizeof(hdr) ? "shorter than the header" : "bad magic");
		goto fail;
	}
	r->version = get_le32(hdr + 8);
	if (r->version >> 16 != BS_TRACE_VERSION_MAJOR) {
		snprintf(err, errlen,
			 "%s has trace format %u.%u; this benchscope reads format %u.x", path,
			 r->version >> 16, r->version & 0xffff, BS_TRACE_VERSION_MAJOR);
		goto fail;
	}
	if (inflateInit2(&r->zs, 15 + 16) != Z_OK) { /* gzip only */
		snprintf(err, errlen, "cannot initialise zlib");
		ret = -ENOMEM;
		goto fail;
	}
	r->zs.next_in = r->in;
	r->in_off = BS_TRACE_HEADER_LEN;
	r->gz_cur = BS_TRACE_HEADER_LEN;
	return r;
fail:
	close(r->fd);
	free(r);
	errno = -ret;
	return NULL;
}

/*
 * After the end of a gzip member: 1 if another member follows (the stream
 * is reset to read it and its start is recorded), 0 at the end of the file,
 * or -errno with a message. Fleet traces (fleet.h) concatenate members.
 */
static int next_member(struct bs_trace_reader *r, char *err, size_t errlen)
{
	if (r->zs.avail_in == 0) {
		size_t got;
		int ret = read_full(r->fd, r->in, IN_BUF, &got);

		if (ret) {
			snprintf(err, errlen, "read error: %s", strerror(-ret));
			return ret;
		}
		r->in_off += (size_t)(r->zs.next_in - r->in);
		r->zs.next_in = r->in;
		r->zs.avail_in = (uInt)got;
		if (got == 0) {
			r->in_eof = 1;
			return 0;
		}
	}
	if (r->n_gz == r->cap_gz) {
		size_t ncap = r->cap_gz ? 2 * r->cap_gz : 16;
		void *ng = realloc(r->gz, ncap * sizeof(*r->gz));

		if (!ng) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		r->gz = ng;
		r->cap_gz = ncap;
	}
	r->gz[r->n_gz].dpos = r->base + r->end;
	r->gz[r->n_gz].coff = r->in_off + (size_t)(r->zs.next_in - r->in);
	r->n_gz++;
	if (inflateReset(&r->zs) != Z_OK) {
		snprintf(err, errlen, "cannot reset zlib");
		return -EIO;
	}
	return 1;
}

/*
 * Decompress more bytes into buf. Returns 1 (progress), 0 (nothing more:
 * stream end or end of file) or -errno with a message.
 */
static int fill(struct bs_trace_reader *r, char *err, size_t errlen)
{
	if (r->start) { /* keep the unconsumed bytes at the front */
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->base += r->start;
		r->start = 0;
	}
	for (;;) {
		if (r->stream_end)
			return 0;
		if (r->cap - r->end < OUT_STEP) {
			unsigned char *nb = realloc(r->buf, r->cap + OUT_STEP);

			if (!nb) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			r->buf = nb;
			r->cap += OUT_STEP;
		}
		if (r->zs.avail_in == 0) {
			size_t got;
			int ret;

			if (r->in_eof)
				return 0;
			ret = read_full(r->fd, r->in, IN_BUF, &got);
			if (ret) {
				snprintf(err, errlen, "read error: %s", strerror(-ret));
				return ret;
			}
			if (got == 0) {
				r->in_eof = 1;
				return 0;
			}
			r->in_off += (size_t)(r->zs.next_in - r->in);
			r->zs.next_in = r->in;
			r->zs.avail_in = (uInt)got;
		}
		r->zs.next_out = r->buf + r->end;
		r->zs.avail_out = (uInt)(r->cap - r->end);
		int zret = inflate(&r->zs, Z_NO_FLUSH);
		size_t produced = (r->cap - r->end) - r->zs.avail_out;

		r->end += produced;
		if (zret == Z_STREAM_END) {
			int more = next_member(r, err, errlen);

			if (more < 0)
				return more;
			if (!more)
				r->stream_end = 1;
			if (produced)
				return 1;
			continue;
		}
		if (zret == Z_DATA_ERROR || zret == Z_NEED_DICT || zret == Z_STREAM_ERROR) {
			snprintf(err, errlen, "corrupted compressed data after %llu blocks (%s)",
				 (unsigned long long)r->blocks,
				 r->zs.msg ? r->zs.msg : "zlib error");
			return -EBADMSG;
		}
		if (zret == Z_MEM_ERROR) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if (produced)
			return 1;
		/* Z_OK / Z_BUF_ERROR without output: needs more input, loop */
	}
}

/* Make at least @need bytes available; 1 if so, 0 if the data ended first. */
static int want(struct bs_trace_reader *r, size_t need, char *err, size_t errlen)
{
	while (r->end - r->start < need) {
		int ret = fill(r, err, errlen);

		if (ret <= 0)
			return ret;
	}
	return 1;
}

int bs_trace_next(struct bs_trace_reader *r, uint32_t *kind, const void **payload, uint32_t *len,
		  char *err, size_t errlen)
{
	uint32_t k, n;
	int ret;

	if (!err)
		errlen = 0;
	ret = want(r, 8, err, errlen);
	if (ret <= 0)
		goto short_data;
	k = get_le32(r->buf + r->start);
	n = get_le32(r->buf + r->start + 4);
	if (n > BS_TRACE_MAX_BLOCK ||
	    (k < BS_BLK_SCHEMA ||
	     (k > BS_BLK_LAST && (r->version & 0xffff) <= BS_TRACE_VERSION_MINOR))) {
		snprintf(err, errlen,
			 "corrupted block header after %llu blocks (kind %u, length %u)",
			 (unsigned long long)r->blocks, k, n);
		return -EBADMSG;
	}
	ret = want(r, 8 + (size_t)n, err, errlen);
	if (ret <= 0)
		goto short_data;
	*kind = k;
	*len = n;
	*payload = r->buf + r->start + 8;
	while (r->gz_next < r->n_gz && r->gz[r->gz_next].dpos <= r->base + r->start)
		r->gz_cur = r->gz[r->gz_next++].coff;
	r->start += 8 + (size_t)n;
	r->blocks++;
	return 1;
short_data:
	if (ret < 0)
		return ret;
	if (r->stream_end && r->end > r->start) {
		snprintf(err, errlen, "corrupted trace: the stream ends inside block %llu",
			 (unsigned long long)r->blocks + 1);
		return -EBADMSG;
	}
	if (!r->stream_end)
		r->truncated = 1;
	return 0;
}

int bs_trace_truncated(const struct bs_trace_reader *r)
{
	return r ? r->truncated : 0;
}

long long bs_trace_count_blocks(const char *path, uint32_t kind)
{
	struct bs_trace_reader *r = bs_trace_open(path, NULL, 0);
	const void *payload;
	uint32_t k, len;
	long long n = 0;

	if (!r)
		return -errno;
	while (bs_trace_next(r, &k, &payload, &len, NULL, 0) == 1)
		n += k == kind;
	bs_trace_close_reader(r);
	return n;
}

uint64_t bs_trace_gz_start(const struct bs_trace_reader *r)
{
	return r ? r->gz_cur : 0;
}

uint32_t bs_trace_version(const struct bs_trace_reader *r)
{
	return r ? r->version : 0;
}

void bs_trace_close_reader(struct bs_trace_reader *r)
{
	if (!r)
		return;
	inflateEnd(&r->zs);
	close(r->fd);
	free(r->buf);
	free(r->gz);
	free(r);
}
