// SPDX-License-Identifier: MIT
/* merge.c - many traces into one fleet trace (merge.h, format: fleet.h). */
#include "fleet/merge.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zlib.h>

#include "benchscope/record.h"
#include "fleet/compat.h"
#include "fleet/fleet.h"
#include "trace/trace.h"
#include "trace/trace_schema.h"
#include "util/json.h"
#include "util/output.h"
#include "util/version.h"

/* One member found in the inputs: where its gzip stream lies in its file. */
struct mem {
	const char *file;  /* input file holding it */
	char *source;	   /* its name: the file, or the fleet's MEMBER source */
	char format[16];   /* its trace format "1.1" */
	uint64_t off, end; /* its gzip stream: [off, end) of file */
	size_t blocks;	   /* its blocks */
	json_object *ctx;  /* its CONTEXT */
};

struct scan {
	struct mem *m;
	size_t n, cap;
};

static struct mem *add_mem(struct scan *s, const char *file, const char *source)
{
	struct mem *m;

	if (s->n == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 16;
		struct mem *nm = realloc(s->m, ncap * sizeof(*nm));

		if (!nm)
			return NULL;
		s->m = nm;
		s->cap = ncap;
	}
	m = &s->m[s->n];
	memset(m, 0, sizeof(*m));
	m->file = file;
	m->source = strdup(source);
	if (!m->source)
		return NULL;
	s->n++;
	return m;
}

/* Check one block of a member: record sizes, JSON objects. */
static int check_block(uint32_t kind, const void *p, uint32_t len, char *e, size_t elen)
{
	size_t want = 0;
	json_object *o;

	switch (kind) {
	case BS_BLK_ITER:
		want = sizeof(struct bs_iter_rec);
		break;
	case BS_BLK_PROC:
		want = sizeof(struct bs_proc_rec);
		break;
	case BS_BLK_INTERFERER:
		want = sizeof(struct bs_interferer_rec);
		break;
	case BS_BLK_BENCH:
		want = sizeof(struct bs_bench_rec);
		break;
	case BS_BLK_EVENT:
	case BS_BLK_END:
		o = bs_json_parse_object(p, len);
		if (!o) {
			snprintf(e, elen, "corrupted %s block: not a JSON object",
				 bs_trace_block_name(kind));
			return -EBADMSG;
		}
		json_object_put(o);
		return 0;
	case BS_BLK_SCHEMA:
		return bs_trace_schema_check(p, len, e, elen);
	case BS_BLK_MEMBER:
		snprintf(e, elen, "a MEMBER block inside a member");
		return -EBADMSG;
	default:
		return 0;
	}
	if (len != want) {
		snprintf(e, elen, "corrupted %s block: %u bytes, expected %zu",
			 bs_trace_block_name(kind), len, want);
		return -EBADMSG;
	}
	return 0;
}

/*
 * Read one input through: its members (one for a plain trace, each member
 * of a fleet). Returns 0 or -EINVAL / -ENOMEM with the message in @e.
 */
static int scan_input(struct scan *s, const char *path, char *e, size_t elen)
{
	struct bs_trace_reader *r = bs_trace_open(path, e, elen);
	struct mem *m = NULL;
	const void *p;
	uint32_t kind, len, ver;
	size_t nblk = 0, first = s->n;
	int fleet = 0, need_off = 0, ret;
	struct stat st;
	char fmt[16];

	if (!r)
		return -EINVAL;
	ver = bs_trace_version(r);
	snprintf(fmt, sizeof(fmt), "%u.%u", ver >> 16, ver & 0xffff);
	while ((ret = bs_trace_next(r, &kind, &p, &len, e, elen)) > 0) {
		nblk++;
		if (nblk == 1) {
			ret = kind == BS_BLK_SCHEMA ? bs_trace_schema_check(p, len, e, elen) : -1;
			if (ret == -1)
				snprintf(e, elen, "first block is not the schema");
		} else if (nblk == 2) {
			json_object *ctx =
			    kind == BS_BLK_CONTEXT ? bs_json_parse_object(p, len) : NULL;
			const char *mode = bs_json_str(ctx, "mode", NULL);

			ret = -EINVAL;
			if (!ctx) {
				snprintf(e, elen, "second block is not a CONTEXT object");
			} else if (mode && !strcmp(mode, "fleet")) {
				fleet = 1;
				json_object_put(ctx);
				ret = 0;
			} else if (!(m = add_mem(s, path, path))) {
				json_object_put(ctx);
				ret = -ENOMEM;
			} else {
				m->ctx = ctx;
				m->off = BS_TRACE_HEADER_LEN;
				m->blocks = 2;
				snprintf(m->format, sizeof(m->format), "%s", fmt);
				ret = 0;
			}
		} else if (fleet && kind == BS_BLK_MEMBER) {
			json_object *o = bs_json_parse_object(p, len);
			const char *src = bs_json_str(o, "source", NULL);

			if (m)
				m->end = bs_trace_gz_start(r);
			m = src ? add_mem(s, path, src) : NULL;
			if (m)
				snprintf(m->format, sizeof(m->format), "%s",
					 bs_json_str(o, "format", "?"));
			ret = m ? 0 : -EINVAL;
			if (!src)
				snprintf(e, elen, "corrupted MEMBER block");
			json_object_put(o);
			need_off = 1;
		} else if (!m) {
			snprintf(e, elen, "a %s block before any member",
				 bs_trace_block_name(kind));
			ret = -EINVAL;
		} else {
			if (need_off) {
				m->off = bs_trace_gz_start(r);
				need_off = 0;
			}
			if (fleet && m->blocks == 1 && kind == BS_BLK_CONTEXT)
				m->ctx = bs_json_parse_object(p, len);
			ret = check_block(kind, p, len, e, elen);
			m->blocks++;
		}
		if (ret)
			break;
	}
	if (!ret && bs_trace_truncated(r)) {
		snprintf(e, elen,
			 "truncated trace (its writer stopped before closing it); merge takes "
			 "complete traces only");
		ret = -EINVAL;
	}
	if (!ret && nblk < 2) {
		snprintf(e, elen, "no CONTEXT block");
		ret = -EINVAL;
	}
	if (!ret && fleet && s->n == first) {
		snprintf(e, elen, "a fleet without members");
		ret = -EINVAL;
	}
	for (size_t i = first; !ret && i < s->n; i++)
		if (!s->m[i].ctx) {
			snprintf(e, elen, "member %zu (%s) has no CONTEXT", i - first + 1,
				 s->m[i].source);
			ret = -EINVAL;
		}
	if (!ret && m) {
		if (stat(path, &st)) {
			snprintf(e, elen, "%s", strerror(errno));
			ret = -EINVAL;
		} else {
			m->end = (uint64_t)st.st_size;
		}
	}
	bs_trace_close_reader(r);
	return ret < 0 ? (ret == -ENOMEM ? ret : -EINVAL) : 0;
}

/* Write the blocks (kind[i], text[i]) as one complete gzip member. */
static int write_gz(int fd, const uint32_t *kind, const char *const *text, size_t n)
{
	z_stream zs = {0};
	unsigned char out[16384];
	int ret = 0;

	if (deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	for (size_t i = 0; i <= n && !ret; i++) {
		unsigned char hdr[8];
		uint32_t len = i < n ? (uint32_t)strlen(text[i]) : 0;

		for (int part = 0; part < 2 && !ret; part++) {
			int flush = i == n ? Z_FINISH : Z_NO_FLUSH;

			if (i < n && part == 0) {
				for (int b = 0; b < 4; b++) {
					hdr[b] = (unsigned char)(kind[i] >> (8 * b));
					hdr[4 + b] = (unsigned char)(len >> (8 * b));
				}
				zs.next_in = hdr;
				zs.avail_in = 8;
			} else if (i < n) {
				zs.next_in = (Bytef *)(uintptr_t)text[i];
				zs.avail_in = len;
			} else if (part == 1) {
				break;
			} else {
				zs.avail_in = 0;
			}
			do {
				zs.next_out = out;
				zs.avail_out = sizeof(out);
				if (deflate(&zs, flush) == Z_STREAM_ERROR) {
					ret = -EIO;
					break;
				}
				size_t have = sizeof(out) - zs.avail_out;

				if (have && write(fd, out, have) != (ssize_t)have)
					ret = errno ? -errno : -EIO;
			} while (!ret && (zs.avail_out == 0 || zs.avail_in));
		}
	}
	deflateEnd(&zs);
	return ret;
}

/* Copy [off, end) of @path to @fd. */
static int copy_range(int fd, const char *path, uint64_t off, uint64_t end)
{
	int in = open(path, O_RDONLY | O_CLOEXEC);
	loff_t o = (loff_t)off;
	int ret = 0;

	if (in < 0)
		return -errno;
	while ((uint64_t)o < end) {
		ssize_t n = copy_file_range(in, &o, fd, NULL, end - (uint64_t)o, 0);

		if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL)) {
			/* fall back to read/write */
			char buf[1 << 16];
			ssize_t got = pread(
			    in, buf,
			    sizeof(buf) < end - (uint64_t)o ? sizeof(buf) : end - (uint64_t)o, o);

			if (got <= 0 || write(fd, buf, (size_t)got) != got) {
				ret = got < 0 ? -errno : -EIO;
				break;
			}
			o += got;
			continue;
		}
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
	}
	close(in);
	return ret;
}

static json_object *fleet_context(const struct scan *s, const char *kind)
{
	json_object *o = json_object_new_object(), *f = json_object_new_object();
	json_object *src = json_object_new_array();
	char buf[16];

	snprintf(buf, sizeof(buf), "%d.%d", BS_TRACE_VERSION_MAJOR, BS_TRACE_VERSION_MINOR);
	json_object_object_add(o, "tool", json_object_new_string("benchscope"));
	json_object_object_add(o, "version", json_object_new_string(BS_VERSION));
	json_object_object_add(o, "trace_format", json_object_new_string(buf));
	json_object_object_add(o, "mode", json_object_new_string("fleet"));
	json_object_object_add(f, "kind", json_object_new_string(kind));
	json_object_object_add(f, "members", json_object_new_int64((int64_t)s->n));
	for (size_t i = 0; i < s->n; i++)
		json_object_array_add(src, json_object_new_string(s->m[i].source));
	json_object_object_add(f, "sources", src);
	json_object_object_add(o, "fleet", f);
	return o;
}

static int write_fleet(const struct scan *s, const char *kind, const char *tmp, int fd,
		       unsigned long long *bytes)
{
	unsigned char hdr[BS_TRACE_HEADER_LEN] = {0};
	uint32_t v = BS_TRACE_VERSION;
	json_object *ctx = fleet_context(s, kind);
	const char *text[2] = {bs_trace_schema_json(),
			       json_object_to_json_string_ext(ctx, JSON_C_TO_STRING_PLAIN)};
	const uint32_t kinds[2] = {BS_BLK_SCHEMA, BS_BLK_CONTEXT};
	int ret;

	memcpy(hdr, BS_TRACE_MAGIC, BS_TRACE_MAGIC_LEN);
	for (int b = 0; b < 4; b++)
		hdr[8 + b] = (unsigned char)(v >> (8 * b));
	ret = write(fd, hdr, sizeof(hdr)) == (ssize_t)sizeof(hdr) ? 0 : -EIO;
	if (!ret)
		ret = write_gz(fd, kinds, text, 2);
	json_object_put(ctx);
	for (size_t i = 0; !ret && i < s->n; i++) {
		json_object *mo = json_object_new_object();
		const uint32_t mk = BS_BLK_MEMBER;
		const char *mt;

		json_object_object_add(mo, "index", json_object_new_int64((int64_t)i + 1));
		json_object_object_add(mo, "source", json_object_new_string(s->m[i].source));
		json_object_object_add(mo, "format", json_object_new_string(s->m[i].format));
		json_object_object_add(mo, "blocks",
				       json_object_new_int64((int64_t)s->m[i].blocks));
		mt = json_object_to_json_string_ext(mo, JSON_C_TO_STRING_PLAIN);
		ret = write_gz(fd, &mk, &mt, 1);
		json_object_put(mo);
		if (!ret)
			ret = copy_range(fd, s->m[i].file, s->m[i].off, s->m[i].end);
	}
	if (!ret) {
		off_t end = lseek(fd, 0, SEEK_CUR);

		*bytes = end > 0 ? (unsigned long long)end : 0;
	}
	(void)tmp;
	return ret;
}

/* Inputs given twice (same device and inode: one machine counted as two) and
 * an output that is one of the inputs (merge would replace it): -EINVAL with
 * one line in @err. A path that cannot be stat()ed is left to the reader. */
static int same_files(const char *const *in, size_t n, const char *out, char *err, size_t errlen)
{
	struct stat so, si, sj;
	bool have_out = !stat(out, &so);

	for (size_t i = 0; i < n; i++) {
		if (stat(in[i], &si))
			continue;
		if (have_out && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			snprintf(err, errlen,
				 "the output %s is input %zu (%s): merge would replace it; write "
				 "the fleet to another file",
				 out, i + 1, in[i]);
			return -EINVAL;
		}
		for (size_t j = 0; j < i; j++)
			if (!stat(in[j], &sj) && si.st_dev == sj.st_dev && si.st_ino == sj.st_ino) {
				snprintf(
				    err, errlen,
				    "input %zu (%s) is input %zu (%s) again: one machine would "
				    "count as two",
				    i + 1, in[i], j + 1, in[j]);
				return -EINVAL;
			}
	}
	return 0;
}

int bs_fleet_merge(const char *const *in, size_t n, const char *out, struct bs_merge_result *res,
		   char *err, size_t errlen)
{
	struct scan s = {0};
	char e[512], tmp[4096];
	const char *kind;
	size_t blocks = 0;
	int ret = 0, fd;

	if (!err)
		errlen = 0;
	/* written aside and renamed over @out: never over a device or directory */
	if ((ret = bs_output_check_replaceable(out, err, errlen)))
		return ret;
	if ((ret = same_files(in, n, out, err, errlen)))
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t before = s.n;

		ret = scan_input(&s, in[i], e, sizeof(e));
		if (ret) {
			snprintf(err, errlen, "member %zu (%s): %s", before + 1, in[i], e);
			goto out;
		}
	}
	if (!s.n) {
		snprintf(err, errlen, "no trace given");
		ret = -EINVAL;
		goto out;
	}
	kind = bs_fleet_kind_of(s.m[0].ctx);
	for (size_t i = 0; i < s.n; i++) {
		blocks += s.m[i].blocks;
		if (i && bs_fleet_compat(s.m[0].ctx, s.m[i].ctx, e, sizeof(e))) {
			snprintf(err, errlen, "member %zu (%s): %s (member 1: %s)", i + 1,
				 s.m[i].source, e, s.m[0].source);
			ret = -EINVAL;
			goto out;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot create %s: %s", out, strerror(errno));
		goto out;
	}
	fchmod(fd, 0644);
	ret = write_fleet(&s, kind, tmp, fd, &res->bytes);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, out))
		ret = -errno;
	if (ret) {
		snprintf(err, errlen, "cannot write %s: %s", out, strerror(-ret));
		unlink(tmp);
		goto out;
	}
	res->members = s.n;
	res->blocks = blocks;
	snprintf(res->kind, sizeof(res->kind), "%s", kind);
out:
	for (size_t i = 0; i < s.n; i++) {
		free(s.m[i].source);
		json_object_put(s.m[i].ctx);
	}
	free(s.m);
	return ret;
}
