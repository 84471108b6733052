/* SPDX-License-Identifier: MIT */
/*
 * merge.h - `benchscope merge`: many traces (plain traces or fleets, whose
 * members are taken out: merging a fleet again flattens it) into one fleet
 * trace (fleet.h). Every input is read through and checked first (complete,
 * not corrupted, compatible with the first member: compat.h); only then is
 * the output written, to a temporary file renamed at the end, so a refusal
 * leaves no output. Members are copied byte for byte (their gzip streams),
 * never decompressed and compressed again.
 */
#ifndef BENCHSCOPE_FLEET_MERGE_H
#define BENCHSCOPE_FLEET_MERGE_H

#include <stddef.h>

/** What bs_fleet_merge did. */
struct bs_merge_result {
	size_t members;		  /**< members written */
	size_t blocks;		  /**< their blocks, in all */
	unsigned long long bytes; /**< size of the output file */
	char kind[8];		  /**< "run" or "duet" */
};

/**
 * bs_fleet_merge - merge the traces @in[0..n-1] into the fleet @out.
 * Returns 0; -EINVAL (a member incompatible with the first, or an input
 * truncated, corrupted or not a trace: one line in @err naming the member,
 * "member 3 (b.trace): command differs: ... vs ..."; also one file given
 * twice, or @out one of the inputs, both by device and inode; or @out is a
 * device, directory, FIFO or socket, refused before any input is read, as
 * the output is written aside and renamed over @out); -errno when the
 * output cannot be written (message in @err). No output file is left on
 * error.
 */
int bs_fleet_merge(const char *const *in, size_t n, const char *out, struct bs_merge_result *res,
		   char *err, size_t errlen);

#endif
