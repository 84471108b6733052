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
 * accepts it, the trace it wrote must hold as many iterations as the rows it
 * reported, load and decode or summarise (fuzz_check.h).
 * Input and trace are memory files (fuzz_file.h): nothing is left behind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include BS_FUZZ_IMPORT_H

#include "fuzz_check.h"
#include "fuzz_file.h"

#define STR_(x) #x
#define STR(x)	STR_(x)

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
		fuzz_check_trace(STR(BS_FUZZ_IMPORT_FN), out.path,
				 &(struct fuzz_expect){.iters = res.rows,
						       .warmup = FUZZ_UNKNOWN,
						       .ns = FUZZ_UNKNOWN,
						       .invoc = FUZZ_UNKNOWN});
	fuzz_file_close(&in);
	fuzz_file_close(&out);
	return 0;
}
