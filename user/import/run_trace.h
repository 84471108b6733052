/* SPDX-License-Identifier: MIT */
/*
 * run_trace.h - other tools' results as a single-side RUN trace, the shape
 * `benchscope run` writes (docs/import.md): the importers (gbench.c,
 * hyperfine.c, criterion.c, gotest.c, pyperf.c, jmh.c) collect samples here,
 * and bs_imp_write() writes them.
 *
 * The trace:
 *  - one synthetic process per fork, process run or repetition group as the
 *    tool defines it (pid BS_IMPORT_PID_BASE + its number from 0), one
 *    "fork" EVENT each (so `replay` sees them as forks);
 *  - one iteration record per sample, index from 0 within its process,
 *    invocations the sample's invocation count (flag invoc), the harness's
 *    warmup samples flagged warmup and harness_warmup;
 *  - synthetic timestamps: within a process the samples are laid end to end
 *    from the end of the previous process (the first begins at
 *    BS_IMPORT_T0_NS), so end_ns - begin_ns is the sample's time, rounded to
 *    the nearest ns; every record is flagged synth_time (only its duration
 *    was measured) and no_interference (CPUs and interference absent, not
 *    zero);
 *  - a BENCH record before each process's first sample of a benchmark, so
 *    bench_groups separates the benchmarks;
 *  - CONTEXT: tool "benchscope", boundaries.kind "import" (no calibration
 *    rule: bench_groups.h bs_calib_none) and the object "import": format,
 *    tool, tool_version, sources, machine (what the file says about the
 *    machine), timestamps "synthetic", dropped (what could not be
 *    represented, one English line each), names (shortened benchmark
 *    name -> full name, where a name was longer than a BENCH record keeps);
 *  - END: {"imported": true, "samples": N, "processes": P}.
 */
#ifndef BENCHSCOPE_IMPORT_RUN_TRACE_H
#define BENCHSCOPE_IMPORT_RUN_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "import/duet.h" /* BS_IMPORT_PID_BASE */

/** Where the synthetic timestamps start, ns (1 s: no sample begins at 0). */
#define BS_IMPORT_T0_NS 1000000000ull

/** One sample as an importer hands it over. */
struct bs_imp_sample {
	uint32_t proc;	      /**< synthetic process, from 0 (bs_imp_proc) */
	uint32_t bench;	      /**< benchmark, from 0 (bs_imp_bench) */
	uint64_t ns;	      /**< the sample's time, ns (rounded) */
	uint64_t invocations; /**< invocations it ran (>= 1) */
	bool warmup;	      /**< the harness ran it as warmup */
};

struct bs_imp_drop {
	char *text;
	size_t count;
};

/** The importer's collection; zero it, then bs_imp_init(). */
struct bs_imp {
	const char *format;	   /**< --format name */
	const char *tool;	   /**< the tool that wrote the file ("hyperfine") */
	json_object *tool_version; /**< its version as the file says, or NULL */
	json_object *machine;	   /**< object: the machine facts the file carries */
	json_object *sources;	   /**< array of source file names */
	json_object *long_names;   /**< object: shortened name -> full name, or NULL */
	struct bs_imp_drop *drops;
	size_t n_drops;
	char **benches; /**< names as BENCH records keep them, index = bench */
	char **full;	/**< n_benches: the file's name where benches[] is shortened, else NULL */
	size_t n_benches;
	long *bench_proc; /**< n_benches: bs_imp_bench_proc's process, -1 before */
	uint32_t n_procs;
	struct bs_imp_sample *s;
	size_t n, cap;
	size_t n_rounded;    /**< samples whose time had sub-ns digits */
	double max_residual; /**< largest |time - rounded| of those, ns */
	const char *path;    /**< file being read, for messages */
	char *err;	     /**< message buffer (errlen bytes) */
	size_t errlen;
};

/** Start @imp for format @format and tool @tool (static strings). */
void bs_imp_init(struct bs_imp *imp, const char *format, const char *tool, char *err,
		 size_t errlen);

/** Free what @imp holds (NULL-safe). */
void bs_imp_free(struct bs_imp *imp);

/**
 * Add the source file @path (and make it the one messages name); the
 * benchmarks' processes (bs_imp_bench_proc) start anew. Returns 0 or -ENOMEM.
 */
int bs_imp_source(struct bs_imp *imp, const char *path);

/** A new synthetic process; returns its number from 0. */
uint32_t bs_imp_proc(struct bs_imp *imp);

/**
 * bs_imp_bench - the index of benchmark @name (added on first use; names
 * compared in full). A name longer than a BENCH record keeps
 * (BS_BENCH_NAME_LEN - 1 bytes), or one equal to another's shortened name,
 * is given a unique "prefix~N", the full name kept in CONTEXT import.names.
 * Returns the index, or -EINVAL (empty name; message in err), -ENOMEM.
 */
long bs_imp_bench(struct bs_imp *imp, const char *name);

/**
 * bs_imp_bench_proc - the process of benchmark @bench where a tool runs each
 * benchmark's repetitions as one group (gbench, go, criterion): created on
 * its first use in each source file (bs_imp_source), since each file comes
 * from a process of its own, so that the variation between the files'
 * processes is the variation between runs that compare and replay see.
 * Returns its number, or -EINVAL (no such benchmark), -ENOMEM.
 */
long bs_imp_bench_proc(struct bs_imp *imp, long bench);

/**
 * bs_imp_unit_ns - ns in one @unit: "ns", "us" (or "µs"), "ms", "s" (or
 * "second", pyperf's); NaN for any other unit.
 */
double bs_imp_unit_ns(const char *unit);

/**
 * bs_imp_sample - add a sample of benchmark @bench in process @proc: @ns its
 * time in ns (finite, below 2^62, at least 0.5: rounded to the nearest ns, never 0; the
 * rounding counted for the dropped list), @invocations >= 1.
 * Returns 0, -EINVAL with "FILE: WHAT: time is NaN" or the like in err
 * (@what names the sample), or -ENOMEM.
 */
int bs_imp_sample(struct bs_imp *imp, uint32_t proc, long bench, double ns, uint64_t invocations,
		  bool warmup, const char *what);

/**
 * bs_imp_drop - note something the trace cannot represent (printf format;
 * one English phrase). Equal phrases are counted once each ("... (3x)").
 * Returns 0 or -ENOMEM.
 */
int bs_imp_drop(struct bs_imp *imp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * bs_imp_bad - "FILE: message" into err; returns -EINVAL (for
 * `return bs_imp_bad(...)` in the importers).
 */
int bs_imp_bad(struct bs_imp *imp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * bs_imp_dropped_line - the dropped list as one line ("a; b (2x); c") in
 * @buf (@len bytes), or NULL when nothing was dropped.
 */
const char *bs_imp_dropped_line(const struct bs_imp *imp, char *buf, size_t len);

/**
 * bs_imp_write - write the trace @path: to "@path.part" first, renamed on
 * success, removed on failure, so no partial trace is left behind.
 * Returns 0, -EINVAL when @path is a device, directory, FIFO or socket
 * (the rename would replace it) or there is no sample (nothing the trace
 * could hold), or -errno with a one-line message in err.
 */
int bs_imp_write(struct bs_imp *imp, const char *path);

/**
 * bs_imp_load_json - the JSON document in @path (plain or gzip, as pyperf
 * writes .json.gz) into *out (caller puts it). Returns 0, -EINVAL with
 * "FILE: empty file" / "FILE: not JSON: ... at byte N" in err, or -errno
 * (cannot read).
 */
int bs_imp_load_json(struct bs_imp *imp, const char *path, json_object **out);

/** Member @key of object @o if it has type @t, else NULL. */
json_object *bs_imp_get(json_object *o, const char *key, json_type t);

/**
 * bs_imp_num - member @key of @o as a number (int or double) in *v.
 * Returns 0, or -EINVAL with "FILE: WHERE: no number KEY" in err.
 */
int bs_imp_num(struct bs_imp *imp, json_object *o, const char *key, const char *where, double *v);

#endif
