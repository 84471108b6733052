// SPDX-License-Identifier: MIT
/* test_trace.c - trace writer and block reader (user/trace/trace.c, trace_read.c). */
#include <errno.h>
#include <time.h>

#include <json-c/json.h>
#include <zlib.h>

#include "test.h"
#include "fixture.h"
#include "trace/trace.h"
#include "trace/trace_schema.h"

/* The header is 16 plain bytes: magic, version, flags (little-endian). */
static void test_header_bytes(void)
{
	char path[300], err[256];
	unsigned char hdr[16];
	struct bs_trace_writer *w = bs_trace_create(fx_path(path, sizeof(path), "hdr.trace"),
						    "{\"tool\":\"benchscope\"}", err, sizeof(err));
	FILE *f;

	CHECK(w != NULL);
	CHECK_INT_EQ(bs_trace_close(w), 0);
	f = fopen(path, "rb");
	CHECK(f && fread(hdr, 1, 16, f) == 16);
	if (f)
		fclose(f);
	CHECK(memcmp(hdr, "BSTRACE\0", 8) == 0);
	CHECK_INT_EQ(hdr[8] | hdr[9] << 8 | hdr[10] << 16 | hdr[11] << 24, BS_TRACE_VERSION);
	CHECK_INT_EQ(hdr[12] | hdr[13] | hdr[14] | hdr[15], 0);
	/* a gzip stream follows */
	CHECK_INT_EQ(hdr[0], 'B');
}

/* Blocks come back in order with kinds, lengths and payloads intact; SCHEMA
 * first, CONTEXT second; the stream after the header is plain gzip. */
static void test_blocks_roundtrip(void)
{
	char path[300], err[256];
	struct bs_trace_writer *w = bs_trace_create(fx_path(path, sizeof(path), "blk.trace"),
						    "{\"a\":1}", err, sizeof(err));
	struct bs_trace_reader *r;
	const void *p;
	uint32_t kind, len;
	unsigned n = 0;

	CHECK(w != NULL);
	if (!w)
		return;
	for (unsigned i = 0; i < 5000; i++) {
		struct bs_iter_rec it = fx_iter(i);

		CHECK_INT_EQ(bs_trace_write_iter(w, &it), 0);
	}
	CHECK_INT_EQ(bs_trace_write_event(w, "{\"note\":\"x\"}"), 0);
	CHECK_INT_EQ(bs_trace_write_end(w, "{\"wall_ns\":5}"), 0);
	CHECK_INT_EQ(bs_trace_blocks_written(w), 5004);
	CHECK_INT_EQ(bs_trace_close(w), 0);

	r = bs_trace_open(path, err, sizeof(err));
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_INT_EQ(bs_trace_version(r), BS_TRACE_VERSION);
	while (bs_trace_next(r, &kind, &p, &len, err, sizeof(err)) == 1) {
		if (n == 0) {
			CHECK_INT_EQ(kind, BS_BLK_SCHEMA);
			CHECK_INT_EQ(len, strlen(bs_trace_schema_json()));
			CHECK(memcmp(p, bs_trace_schema_json(), len) == 0);
		} else if (n == 1) {
			CHECK_INT_EQ(kind, BS_BLK_CONTEXT);
			CHECK(len == 7 && memcmp(p, "{\"a\":1}", 7) == 0);
		} else if (n < 5002) {
			struct bs_iter_rec want = fx_iter(n - 2);

			CHECK_INT_EQ(kind, BS_BLK_ITER);
			CHECK(len == sizeof(want) && memcmp(p, &want, len) == 0);
		} else if (n == 5002) {
			CHECK_INT_EQ(kind, BS_BLK_EVENT);
		} else {
			CHECK_INT_EQ(kind, BS_BLK_END);
		}
		n++;
	}
	CHECK_INT_EQ(n, 5004);
	CHECK_INT_EQ(bs_trace_truncated(r), 0);
	bs_trace_close_reader(r);

	/* the part after the header is a standard gzip stream */
	{
		FILE *f = fopen(path, "rb");
		char gz[300];
		gzFile g;
		unsigned char b[8];

		fx_path(gz, sizeof(gz), "blk.gz");
		CHECK(f != NULL);
		if (f) {
			long size = fx_file_size(path);
			char *buf = malloc((size_t)size);
			FILE *o = fopen(gz, "wb");

			CHECK(fread(buf, 1, (size_t)size, f) == (size_t)size);
			CHECK(fwrite(buf + 16, 1, (size_t)size - 16, o) == (size_t)size - 16);
			fclose(o);
			fclose(f);
			free(buf);
		}
		g = gzopen(gz, "rb");
		CHECK(g && gzread(g, b, 8) == 8);
		if (g)
			gzclose(g);
		CHECK_INT_EQ(b[0] | b[1] << 8, BS_BLK_SCHEMA);
	}
}

/* Records written 100 ms apart reach the file without an explicit flush. */
static void test_timed_flush(void)
{
	char path[300], err[256];
	struct bs_trace_writer *w =
	    bs_trace_create(fx_path(path, sizeof(path), "tf.trace"), "{}", err, sizeof(err));
	struct bs_iter_rec a = fx_iter(1), b = fx_iter(2);
	struct timespec ts = {0, 120 * 1000 * 1000};
	struct bs_trace_reader *r;
	const void *p;
	uint32_t kind, len;
	int n = 0, ret;

	CHECK(w != NULL);
	if (!w)
		return;
	CHECK_INT_EQ(bs_trace_write_iter(w, &a), 0);
	nanosleep(&ts, NULL);
	CHECK_INT_EQ(bs_trace_write_iter(w, &b), 0); /* > 100 ms later: flushes */
	r = bs_trace_open(path, err, sizeof(err));
	CHECK(r != NULL);
	while (r && (ret = bs_trace_next(r, &kind, &p, &len, err, sizeof(err))) == 1)
		n += kind == BS_BLK_ITER;
	CHECK_INT_EQ(n, 2);
	CHECK_INT_EQ(bs_trace_truncated(r), 1); /* still open: no gzip trailer yet */
	bs_trace_close_reader(r);

	/* a record followed by silence reaches the file through flush_if_due */
	struct bs_iter_rec c = fx_iter(3);
	CHECK_INT_EQ(bs_trace_write_iter(w, &c), 0);
	CHECK_INT_EQ(bs_trace_flush_if_due(w), 0); /* not due yet: nothing happens */
	nanosleep(&ts, NULL);
	CHECK_INT_EQ(bs_trace_flush_if_due(w), 0);
	n = 0;
	r = bs_trace_open(path, err, sizeof(err));
	while (r && bs_trace_next(r, &kind, &p, &len, err, sizeof(err)) == 1)
		n += kind == BS_BLK_ITER;
	CHECK_INT_EQ(n, 3);
	bs_trace_close_reader(r);
	CHECK_INT_EQ(bs_trace_close(w), 0);
}

/* Blocks larger than the writer's staging buffer keep their place in order. */
static void test_large_block(void)
{
	char path[300], err[256];
	size_t big = 200000;
	char *ev = malloc(big + 16);
	struct bs_trace_writer *w =
	    bs_trace_create(fx_path(path, sizeof(path), "big.trace"), "{}", err, sizeof(err));
	struct bs_trace_reader *r;
	struct bs_iter_rec a = fx_iter(1), b = fx_iter(2);
	const void *p;
	uint32_t kind, len, kinds[8];
	int n = 0;

	CHECK(ev && w);
	if (!ev || !w) {
		free(ev);
		bs_trace_close(w);
		return;
	}
	memcpy(ev, "{\"x\":\"", 6);
	memset(ev + 6, 'a', big);
	memcpy(ev + 6 + big, "\"}", 3);
	CHECK_INT_EQ(bs_trace_write_iter(w, &a), 0);
	CHECK_INT_EQ(bs_trace_write_event(w, ev), 0);
	CHECK_INT_EQ(bs_trace_write_iter(w, &b), 0);
	CHECK_INT_EQ(bs_trace_close(w), 0);
	r = bs_trace_open(path, err, sizeof(err));
	while (r && bs_trace_next(r, &kind, &p, &len, err, sizeof(err)) == 1 && n < 8) {
		kinds[n++] = kind;
		if (kind == BS_BLK_EVENT)
			CHECK(len == big + 8 && memcmp(p, ev, len) == 0);
	}
	CHECK_INT_EQ(n, 5);
	CHECK(kinds[2] == BS_BLK_ITER && kinds[3] == BS_BLK_EVENT && kinds[4] == BS_BLK_ITER);
	bs_trace_close_reader(r);
	free(ev);
}

/* Bad arguments are refused, not written. */
static void test_writer_rejects(void)
{
	char path[300], err[256] = "";
	struct bs_trace_writer *w;

	w = bs_trace_create(fx_path(path, sizeof(path), "rej.trace"), "[1,2]", err, sizeof(err));
	CHECK(w == NULL && errno == EINVAL && err[0]);
	w = bs_trace_create("/nonexistent-dir/x.trace", "{}", err, sizeof(err));
	CHECK(w == NULL && strstr(err, "/nonexistent-dir/x.trace"));
	w = bs_trace_create(path, NULL, err, sizeof(err));
	CHECK(w != NULL);
	CHECK_INT_EQ(bs_trace_write_event(w, "not json"), -EINVAL);
	CHECK_INT_EQ(bs_trace_write_event(w, "\"a string\""), -EINVAL);
	CHECK_INT_EQ(bs_trace_write_end(w, NULL), -EINVAL);
	CHECK_INT_EQ(bs_trace_write_iter(w, NULL), -EINVAL);
	CHECK_INT_EQ(bs_trace_flush(NULL), -EINVAL);
	CHECK_INT_EQ(bs_trace_close(w), 0);
	CHECK_INT_EQ(bs_trace_close(NULL), 0);
}

/* Files that are not traces, or of an unknown major version. */
/* A field that took the place of padding may be missing from an older
 * trace's schema; any other missing field, or a moved one, is refused. */
static void test_schema_later_field(void)
{
	json_object *root = json_tokener_parse(bs_trace_schema_json()), *recs, *rec, *fields;
	char err[256];
	const char *text;
	size_t i, n;

	CHECK(root && json_object_object_get_ex(root, "records", &recs) &&
	      json_object_object_get_ex(recs, "interferer", &rec) &&
	      json_object_object_get_ex(rec, "fields", &fields));
	if (!root)
		return;
	n = json_object_array_length(fields);
	for (i = 0; i < n; i++) {
		json_object *name =
		    json_object_object_get(json_object_array_get_idx(fields, i), "name");

		if (!strcmp(json_object_get_string(name), "victim_iter"))
			break;
	}
	CHECK(i < n);
	json_object_array_del_idx(fields, i, 1);
	text = json_object_to_json_string(root);
	CHECK_INT_EQ(bs_trace_schema_check(text, strlen(text), err, sizeof(err)), 0);
	json_object_array_del_idx(fields, 0, 1); /* victim_pid */
	text = json_object_to_json_string(root);
	CHECK_INT_EQ(bs_trace_schema_check(text, strlen(text), err, sizeof(err)), -EPROTO);
	CHECK(strstr(err, "field interferer.victim_pid missing") != NULL);
	json_object_put(root);
}

static void test_reader_rejects(void)
{
	char path[300], err[256];
	unsigned char hdr[16] = "BSTRACE";
	struct bs_trace_reader *r;
	FILE *f;

	f = fopen(fx_path(path, sizeof(path), "magic.trace"), "wb");
	fputs("GARBAGE GARBAGE GARBAGE\n", f);
	fclose(f);
	err[0] = 0;
	r = bs_trace_open(path, err, sizeof(err));
	CHECK(r == NULL && errno == EPROTO && strstr(err, "bad magic"));

	f = fopen(fx_path(path, sizeof(path), "short.trace"), "wb");
	fputs("BST", f);
	fclose(f);
	r = bs_trace_open(path, err, sizeof(err));
	CHECK(r == NULL && strstr(err, "shorter than the header"));

	hdr[8] = 0;
	hdr[10] = 2; /* version 2.0 */
	f = fopen(fx_path(path, sizeof(path), "v2.trace"), "wb");
	fwrite(hdr, 1, 16, f);
	fclose(f);
	r = bs_trace_open(path, err, sizeof(err));
	CHECK(r == NULL && strstr(err, "format 2.0"));

	r = bs_trace_open(fx_path(path, sizeof(path), "missing.trace"), err, sizeof(err));
	CHECK(r == NULL && errno == ENOENT && strstr(err, "missing.trace"));
}

int main(void)
{
	RUN_TEST(test_header_bytes);
	RUN_TEST(test_blocks_roundtrip);
	RUN_TEST(test_timed_flush);
	RUN_TEST(test_large_block);
	RUN_TEST(test_writer_rejects);
	RUN_TEST(test_reader_rejects);
	RUN_TEST(test_schema_later_field);
	fx_cleanup();
	return test_summary("test_trace");
}
