// SPDX-License-Identifier: MIT
/*
 * fuzz_import.c - libFuzzer harness of one `benchscope import` format
 * (user/import/), compiled once per format (fuzz/fuzz.mk, FUZZ_IMPORTERS):
 *   -DBS_FUZZ_IMPORT_FN=bs_import_duet_csv  the importer: (input path,
 *        trace path, const struct bs_import_opts *, struct bs_import_result
 *        *, err, errlen) -> 0 or -errno, as import/duet.h documents;
 *   -DBS_FUZZ_IMPORT_H='"import/duet.h"'   its header.
 * The input is the file to import. An importer may refuse it with a message
 * (an "A/A" label is tried on every other input, by its first byte); when it
 * accepts it, the trace it wrote must load (trace/dataset.c), and decode as a
 * duet trace with as many iterations as the rows it reported
 * (trace/duet_blocks.c) or summarise as a run (report/summary.c): an
 * importer must never write a trace that `benchscope report` refuses.
 * Input and trace are memory files (fuzz_file.h): nothing is left behind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/dataset.h"
#include "trace/duet_blocks.h"
#include "report/summary.h"

#include BS_FUZZ_IMPORT_H

#include "fuzz_file.h"

#define STR_(x) #x
#define STR(x)	STR_(x)

/*
 * An accepted import's trace must load; a duet trace must decode and hold
 * one iteration per row reported; a run trace must summarise.
 */
static void check_trace(const char *path, const struct bs_import_result *res)
{
	struct bs_dataset *ds = NULL;
	char err[600];

	if (bs_dataset_load(path, &ds, err, sizeof(err))) {
		fprintf(stderr, "%s wrote a trace that does not load: %s\n", STR(BS_FUZZ_IMPORT_FN),
			err);
		abort();
	}
	if (bs_dataset_is_duet(ds)) {
		struct bs_duet_blocks b;

		if (ds->n_iters != res->rows) {
			fprintf(stderr, "%s reported %zu rows; its trace has %zu iterations\n",
				STR(BS_FUZZ_IMPORT_FN), res->rows, ds->n_iters);
			abort();
		}
		if (bs_duet_blocks_decode(ds, &b, err, sizeof(err))) {
			fprintf(stderr, "%s wrote a duet trace that does not decode: %s\n",
				STR(BS_FUZZ_IMPORT_FN), err);
			abort();
		}
		bs_duet_blocks_free(&b);
	} else {
		struct bs_run_summary s;

		if (bs_run_summarize(ds, 5, &s)) {
			fprintf(stderr, "%s wrote a run trace that does not summarise\n",
				STR(BS_FUZZ_IMPORT_FN));
			abort();
		}
		bs_run_summary_free(&s);
	}
	bs_dataset_free(ds);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bs_import_opts o = {.aa = size && (data[0] & 1), .benchmark = NULL};
	struct bs_import_result res;
	struct fuzz_file in, out;
	char err[600];

	fuzz_file_open(&in, "fuzz-import-in");
	fuzz_file_open(&out, "fuzz-import-trace");
	fuzz_file_write(&in, data, size);
	memset(&res, 0, sizeof(res));
	if (BS_FUZZ_IMPORT_FN(in.path, out.path, &o, &res, err, sizeof(err)) == 0)
		check_trace(out.path, &res);
	fuzz_file_close(&in);
	fuzz_file_close(&out);
	return 0;
}
