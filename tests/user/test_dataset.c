// SPDX-License-Identifier: MIT
/* test_dataset.c - loading traces: round trip, truncation, SIGKILL, corruption. */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "test.h"
#include "fixture.h"
#include "trace/dataset.h"
#include "trace/trace.h"

#include <zlib.h>

static struct bs_proc_rec mk_proc(unsigned i)
{
	struct bs_proc_rec p;

	memset(&p, 0, sizeof(p));
	p.type = BS_REC_PROC;
	p.kind = BS_PROC_EXEC;
	p.pid = 1000 + i;
	p.ppid = 999;
	p.ts_ns = 42 + i;
	p.exit_code = -(int)i;
	snprintf(p.comm, sizeof(p.comm), "proc%u", i);
	return p;
}

static struct bs_interferer_rec mk_interferer(unsigned i)
{
	struct bs_interferer_rec x;

	memset(&x, 0, sizeof(x));
	x.victim_pid = 1000;
	x.interferer_tid = 3000 + i;
	x.interferer_pid = 3000 + i;
	x.ns = 1000ull * (i + 1);
	snprintf(x.comm, sizeof(x.comm), "noise%u", i);
	return x;
}

/* Many records of every kind come back identical and in order. */
static void test_roundtrip_many(void)
{
	char path[300], err[256];
	struct bs_trace_writer *w = bs_trace_create(
	    fx_path(path, sizeof(path), "rt.trace"),
	    "{\"tool\":\"benchscope\",\"ncpus\":8,\"command\":[\"a\",\"b\"]}", err, sizeof(err));
	struct bs_dataset *ds = NULL;
	const unsigned n = 100000;

	CHECK(w != NULL);
	if (!w)
		return;
	for (unsigned i = 0; i < n; i++) {
		struct bs_iter_rec it = fx_iter(i);

		CHECK_INT_EQ(bs_trace_write_iter(w, &it), 0);
		if (i % 1000 == 0) {
			struct bs_proc_rec p = mk_proc(i / 1000);

			CHECK_INT_EQ(bs_trace_write_proc(w, &p), 0);
		}
	}
	for (unsigned i = 0; i < 50; i++) {
		struct bs_interferer_rec x = mk_interferer(i);

		CHECK_INT_EQ(bs_trace_write_interferer(w, &x), 0);
	}
	CHECK_INT_EQ(bs_trace_write_event(w, "{\"kind\":\"warning\",\"text\":\"one\"}"), 0);
	CHECK_INT_EQ(bs_trace_write_event(w, "{\"kind\":\"note\",\"text\":\"two\"}"), 0);
	CHECK_INT_EQ(bs_trace_write_end(w, "{\"wall_ns\":123456789012,\"interrupted\":false}"), 0);
	CHECK_INT_EQ(bs_trace_close(w), 0);

	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK_INT_EQ(ds->n_iters, n);
	CHECK_INT_EQ(ds->n_procs, 100);
	CHECK_INT_EQ(ds->n_interferers, 50);
	CHECK_INT_EQ(ds->n_blocks, 2 + n + 100 + 50 + 2 + 1);
	CHECK_INT_EQ(ds->truncated, 0);
	CHECK_INT_EQ(ds->version, BS_TRACE_VERSION);
	for (unsigned i = 0; i < n; i++) {
		struct bs_iter_rec want = fx_iter(i);

		if (memcmp(&ds->iters[i], &want, sizeof(want))) {
			FAILF("iteration %u differs", i);
			break;
		}
	}
	for (unsigned i = 0; i < 100; i++) {
		struct bs_proc_rec want = mk_proc(i);

		CHECK(memcmp(&ds->procs[i], &want, sizeof(want)) == 0);
	}
	CHECK_INT_EQ(ds->interferers[49].ns, 50000);
	CHECK(strcmp(ds->interferers[7].comm, "noise7") == 0);
	CHECK_INT_EQ(json_object_get_int(bs_json_get(ds->context, "ncpus")), 8);
	CHECK_INT_EQ(json_object_array_length(bs_json_get(ds->context, "command")), 2);
	CHECK_INT_EQ(json_object_array_length(ds->events), 2);
	CHECK(strcmp(json_object_get_string(
			 bs_json_get(json_object_array_get_idx(ds->events, 1), "text")),
		     "two") == 0);
	CHECK(ds->end != NULL);
	CHECK_INT_EQ(json_object_get_int64(bs_json_get(ds->end, "wall_ns")), 123456789012ll);
	bs_dataset_free(ds);
}

/* Write a trace with a sync flush after @k iterations; return its sizes. */
static int write_flushed(const char *path, unsigned k, unsigned n, long *at_flush)
{
	char err[256];
	struct bs_trace_writer *w = bs_trace_create(path, "{}", err, sizeof(err));

	if (!w)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		struct bs_iter_rec it = fx_iter(i);

		if (bs_trace_write_iter(w, &it))
			return -1;
		if (i + 1 == k) {
			bs_trace_flush(w);
			*at_flush = fx_file_size(path);
		}
	}
	bs_trace_write_end(w, "{}");
	return bs_trace_close(w);
}

/* A file cut anywhere loads its complete prefix and says it is truncated;
 * cut right after a sync flush, exactly the flushed records come back. */
static void test_truncated_offsets(void)
{
	char path[300], cut[300], err[256];
	long at_flush = 0, size;
	const unsigned k = 3000, n = 6000;

	CHECK_INT_EQ(write_flushed(fx_path(path, sizeof(path), "full.trace"), k, n, &at_flush), 0);
	size = fx_file_size(path);
	CHECK(at_flush > 16 && at_flush < size);
	fx_path(cut, sizeof(cut), "cut.trace");

	long offsets[] = {
	    at_flush, at_flush + 1, at_flush + 100, (at_flush + size) / 2, size - 9, size - 1,
	    17,	      40,	    at_flush - 1};
	size_t prev_iters = 0;

	for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++) {
		struct bs_dataset *ds = NULL;
		int ret;

		CHECK_INT_EQ(fx_copy_prefix(path, cut, offsets[o]), 0);
		ret = bs_dataset_load(cut, &ds, err, sizeof(err));
		if (offsets[o] < 100) { /* inside the first blocks: nothing loadable */
			CHECK(ret < 0 || (ds && ds->truncated && ds->n_iters == 0));
			if (ret < 0)
				CHECK(strstr(err, "truncated") != NULL);
			bs_dataset_free(ds);
			continue;
		}
		CHECK_INT_EQ(ret, 0);
		if (!ds) {
			fprintf(stderr, "offset %ld: %s\n", offsets[o], err);
			continue;
		}
		CHECK_INT_EQ(ds->truncated, 1);
		if (offsets[o] == at_flush)
			CHECK_INT_EQ(ds->n_iters, k);
		if (offsets[o] >= at_flush)
			CHECK(ds->n_iters >= k);
		if (o > 0 && offsets[o] >= at_flush && offsets[o] > offsets[o - 1])
			CHECK(ds->n_iters >= prev_iters);
		if (offsets[o] >= size - 9) /* only the gzip trailer is missing */
			CHECK(ds->n_iters == n && ds->end != NULL);
		else
			CHECK(ds->end == NULL);
		for (size_t i = 0; i < ds->n_iters; i++) {
			struct bs_iter_rec want = fx_iter((unsigned)i);

			if (memcmp(&ds->iters[i], &want, sizeof(want))) {
				FAILF("offset %ld: iteration %zu differs", offsets[o], i);
				break;
			}
		}
		prev_iters = ds->n_iters;
		bs_dataset_free(ds);
	}
}

/* A writer killed with SIGKILL mid-stream leaves a readable trace holding at
 * least everything it flushed. */
static void test_sigkill_writer(void)
{
	char path[300], err[256];
	int pfd[2];
	pid_t pid;
	struct bs_dataset *ds = NULL;
	int status;
	const unsigned flushed = 20000;

	fx_path(path, sizeof(path), "killed.trace");
	CHECK(pipe(pfd) == 0);
	pid = fork();
	if (pid == 0) {
		struct bs_trace_writer *w =
		    bs_trace_create(path, "{\"tool\":\"benchscope\"}", err, sizeof(err));
		if (!w)
			_exit(3);
		close(pfd[0]);
		for (unsigned i = 0;; i++) {
			struct bs_iter_rec it = fx_iter(i);

			if (bs_trace_write_iter(w, &it))
				_exit(4);
			if (i + 1 == flushed) {
				bs_trace_flush(w);
				if (write(pfd[1], "r", 1) != 1)
					_exit(5);
			}
		}
	}
	CHECK(pid > 0);
	close(pfd[1]);
	char c;
	CHECK(read(pfd[0], &c, 1) == 1);
	close(pfd[0]);
	usleep(20000); /* let it write more, unflushed */
	kill(pid, SIGKILL);
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) &&
	      WTERMSIG(status) == SIGKILL);

	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK_INT_EQ(ds->truncated, 1);
	CHECK(ds->n_iters >= flushed);
	CHECK(ds->end == NULL);
	CHECK(strcmp(json_object_get_string(bs_json_get(ds->context, "tool")), "benchscope") == 0);
	for (size_t i = 0; i < ds->n_iters; i++) {
		struct bs_iter_rec want = fx_iter((unsigned)i);

		if (memcmp(&ds->iters[i], &want, sizeof(want))) {
			FAILF("iteration %zu differs", i);
			break;
		}
	}
	bs_dataset_free(ds);
}

/* Corruption gives a clear error, never a crash or silent garbage. */
static void test_corrupted(void)
{
	char path[300], err[256];
	struct bs_dataset *ds = NULL;
	struct bs_trace_writer *w;
	unsigned char junk[100];
	long at = 0;

	/* an ITER block of the wrong size */
	w = bs_trace_create(fx_path(path, sizeof(path), "size.trace"), "{}", err, sizeof(err));
	memset(junk, 0x5a, sizeof(junk));
	CHECK_INT_EQ(bs_trace_write_block(w, BS_BLK_ITER, junk, 100), 0);
	bs_trace_close(w);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "corrupted iter block #3: 100 bytes, expected 128") != NULL);

	/* an unknown block kind */
	w = bs_trace_create(path, "{}", err, sizeof(err));
	CHECK_INT_EQ(bs_trace_write_block(w, 77, junk, 10), 0);
	bs_trace_close(w);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "corrupted block header") != NULL);

	/* an EVENT block that is not JSON */
	w = bs_trace_create(path, "{}", err, sizeof(err));
	CHECK_INT_EQ(bs_trace_write_block(w, BS_BLK_EVENT, "{oops", 5), 0);
	bs_trace_close(w);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "not a JSON object") != NULL);

	/* a schema whose iteration record has another size (forged with zlib:
	 * the writer always writes this build's schema) */
	{
		const char *schema =
		    "{\"byte_order\":\"little\",\"records\":{\"iter\":{\"size\":120,"
		    "\"fields\":[]},\"proc\":{\"size\":48,\"fields\":[]},"
		    "\"interferer\":{\"size\":40,\"fields\":[]}}}";
		unsigned char hdr[16] = "BSTRACE";
		uint32_t bh[2] = {BS_BLK_SCHEMA, (uint32_t)strlen(schema)};
		FILE *f = fopen(path, "wb");
		gzFile g;

		hdr[8] = BS_TRACE_VERSION & 0xff;
		hdr[10] = (BS_TRACE_VERSION >> 16) & 0xff;
		fwrite(hdr, 1, 16, f);
		fclose(f);
		g = gzopen(path, "ab"); /* appends a gzip member after the header */
		gzwrite(g, bh, sizeof(bh));
		gzwrite(g, schema, bh[1]);
		gzclose(g);
		CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), -EPROTO);
		CHECK(strstr(err, "'iter' records are 120 bytes in the trace, 128 in this build"));
	}

	/* garbage in the middle of the compressed stream */
	CHECK_INT_EQ(write_flushed(path, 100, 3000, &at), 0);
	{
		long size = fx_file_size(path);
		FILE *f = fopen(path, "r+b");

		fseek(f, size / 2, SEEK_SET);
		fwrite(junk, 1, 64, f);
		fclose(f);
		err[0] = 0;
		int ret = bs_dataset_load(path, &ds, err, sizeof(err));
		CHECK(ret == -EBADMSG || ret == -EPROTO);
		CHECK(err[0] != 0);
		if (ret == 0)
			bs_dataset_free(ds);
	}
}

/* Random byte flips and random tails never crash the loader: it either
 * loads (a flip that zlib's checks cannot see only in a truncated tail) or
 * says what is wrong. Run under ASan/UBSan by `make sanitize`. */
static void test_random_damage(void)
{
	char path[300], bad[300], err[256];
	long at = 0, size;
	unsigned seed = 12345;
	int errors = 0;

	CHECK_INT_EQ(write_flushed(fx_path(path, sizeof(path), "fuzz.trace"), 50, 400, &at), 0);
	size = fx_file_size(path);
	fx_path(bad, sizeof(bad), "fuzz-bad.trace");
	for (int round = 0; round < 300; round++) {
		struct bs_dataset *ds = NULL;
		long cut =
		    round % 3 == 0 ? 16 + (long)(rand_r(&seed) % (unsigned)(size - 16)) : size;
		FILE *f;
		int ret;

		CHECK_INT_EQ(fx_copy_prefix(path, bad, cut), 0);
		f = fopen(bad, "r+b");
		for (int k = 0; k < 1 + round % 4; k++) {
			long off = 16 + (long)(rand_r(&seed) % (unsigned)(cut - 16));

			fseek(f, off, SEEK_SET);
			fputc(rand_r(&seed) & 0xff, f);
		}
		fclose(f);
		err[0] = 0;
		ret = bs_dataset_load(bad, &ds, err, sizeof(err));
		if (ret) {
			errors++;
			CHECK(err[0] != 0 && ds == NULL);
		} else {
			CHECK(ds != NULL);
			bs_dataset_free(ds);
		}
	}
	CHECK(errors > 200); /* almost every damage is detected */
}

/* BENCH blocks: an iteration belongs to its process's last name at or
 * before its begin, whatever order the records were written in; a name
 * without its terminator is cut at the record's end. */
static void test_bench_names(void)
{
	char path[300], err[256];
	struct bs_trace_writer *w =
	    bs_trace_create(fx_path(path, sizeof(path), "names.trace"), NULL, err, sizeof(err));
	struct bs_dataset *ds = NULL;
	struct bs_bench_rec b[] = {
	    fx_bench(7, 300, "BenchmarkB"),
	    fx_bench(7, 100, "BenchmarkA"),
	    fx_bench(9, 200, "other/process"),
	    fx_bench(7, 500, "BenchmarkC"),
	};

	CHECK(w != NULL);
	if (!w)
		return;
	memset(b[3].name, 'x', sizeof(b[3].name)); /* no terminator */
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		CHECK_INT_EQ(bs_trace_write_bench(w, &b[i]), 0);
	CHECK_INT_EQ(bs_trace_close(w), 0);
	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds)
		return;
	CHECK_INT_EQ(ds->n_benches, 4);
	CHECK(bs_dataset_bench_name(ds, 7, 99) == NULL);
	CHECK(!strcmp(bs_dataset_bench_name(ds, 7, 100), "BenchmarkA"));
	CHECK(!strcmp(bs_dataset_bench_name(ds, 7, 299), "BenchmarkA"));
	CHECK(!strcmp(bs_dataset_bench_name(ds, 7, 300), "BenchmarkB"));
	CHECK(!strcmp(bs_dataset_bench_name(ds, 9, 1000), "other/process"));
	CHECK(bs_dataset_bench_name(ds, 8, 1000) == NULL);
	CHECK_INT_EQ(strlen(bs_dataset_bench_name(ds, 7, 600)), BS_BENCH_NAME_LEN - 1);
	bs_dataset_free(ds);
}

int main(void)
{
	RUN_TEST(test_roundtrip_many);
	RUN_TEST(test_truncated_offsets);
	RUN_TEST(test_sigkill_writer);
	RUN_TEST(test_corrupted);
	RUN_TEST(test_random_damage);
	RUN_TEST(test_bench_names);
	fx_cleanup();
	return test_summary("test_dataset");
}
