// SPDX-License-Identifier: MIT
/*
 * fuzz_trace.c - libFuzzer harness of the trace readers (user/trace/): the
 * block reader and dataset loader (trace_read.c, dataset.c, with the CONTEXT,
 * END and EVENT decoders and the SCHEMA check they run), the duet-trace
 * decoder (duet_blocks.c, which reads the `noise --json` document a duet
 * embeds) and the duet model built from it (duet/data.c: runs, sides,
 * pairs), the waste-trace loader (waste/report.c) and the run summary
 * computed from what loaded (report/summary.c).
 *
 * Built twice from this source (fuzz/fuzz.mk):
 *  - fuzz_trace: the input is a whole trace file (header + gzip stream), as
 *    `benchscope report FILE` reads it: the header and zlib layers;
 *  - fuzz_trace_blocks (-DBS_FUZZ_BLOCKS): the input is the decompressed
 *    block stream (`tail -c +17 FILE | zcat`); the harness adds a current
 *    header and compresses it, so mutations reach the blocks and their JSON
 *    instead of breaking the gzip stream.
 * Any input may be refused with an error; none may crash, leak or trip a
 * sanitizer. A loaded dataset must be internally consistent (checked below).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "benchscope/stats.h"
#include "duet/data.h"
#include "trace/dataset.h"
#include "trace/duet_blocks.h"
#include "trace/format.h"
#include "report/summary.h"
#include "waste/report.h"

#include "fuzz_file.h"

#ifdef BS_FUZZ_BLOCKS
/* The trace header of this build, then @data gzip-compressed, into @f. */
static void write_trace(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	unsigned char hdr[BS_TRACE_HEADER_LEN] = {0}, out[16384];
	uint32_t v = BS_TRACE_VERSION;
	z_stream zs;
	int zret;

	memcpy(hdr, BS_TRACE_MAGIC, BS_TRACE_MAGIC_LEN);
	for (int i = 0; i < 4; i++)
		hdr[8 + i] = (unsigned char)(v >> (8 * i));
	fuzz_file_write(f, hdr, sizeof(hdr));
	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	zs.next_in = (unsigned char *)data;
	zs.avail_in = (uInt)size;
	do {
		zs.next_out = out;
		zs.avail_out = sizeof(out);
		zret = deflate(&zs, Z_FINISH);
		if (zret == Z_STREAM_ERROR)
			abort();
		fuzz_file_write(f, out, sizeof(out) - zs.avail_out);
	} while (zret != Z_STREAM_END);
	deflateEnd(&zs);
}
#else
static void write_trace(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	fuzz_file_write(f, data, size);
}
#endif

/* What every loaded dataset must satisfy, whatever the bytes were. */
static void check_dataset(const struct bs_dataset *ds)
{
	if (!ds->context || !ds->events || ds->n_blocks == 0 || (ds->n_iters && !ds->iters) ||
	    (ds->n_procs && !ds->procs) || (ds->n_benches && !ds->benches))
		abort();
	for (size_t i = 0; i < ds->n_benches; i++)
		if (strnlen(ds->benches[i].name, BS_BENCH_NAME_LEN) == BS_BENCH_NAME_LEN)
			abort();
}

static void load_dataset(const char *path)
{
	struct bs_dataset *ds = NULL;
	char err[600];

	if (bs_dataset_load(path, &ds, err, sizeof(err)))
		return;
	check_dataset(ds);
	if (bs_dataset_is_duet(ds)) {
		struct bs_duet_blocks b;

		struct bs_duet_data *d = NULL;

		bs_duet_blocks_decode(ds, &b, err, sizeof(err));
		bs_duet_blocks_free(&b);
		if (bs_duet_data_build(ds, &d, err, sizeof(err)) == 0)
			bs_duet_data_free(d);
	} else {
		struct bs_run_summary s;

		if (bs_run_summarize(ds, 5, &s) == 0)
			bs_run_summary_free(&s);
	}
	if (ds->n_iters)
		bs_dataset_bench_name(ds, ds->iters[0].pid, ds->iters[0].begin_ns);
	bs_dataset_free(ds);
}

static void load_waste(const char *path)
{
	struct bs_waste_result r;
	char err[600];

	if (bs_waste_load_trace(path, &r, err, sizeof(err)) == 0)
		bs_waste_result_free(&r);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	bs_stats_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_file f;

	fuzz_file_open(&f, "fuzz-trace");
	write_trace(&f, data, size);
	load_dataset(f.path);
	load_waste(f.path);
	fuzz_file_close(&f);
	return 0;
}
