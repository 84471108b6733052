/* SPDX-License-Identifier: MIT */
/*
 * boundary.h - where iterations begin and end: parsing the user's choice
 * (--iter, --begin/--end, --preset) and resolving it to probe sites.
 */
#ifndef BENCHSCOPE_BOUNDARY_H
#define BENCHSCOPE_BOUNDARY_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "binary/catch2.h"
#include "binary/criterion.h"
#include "binary/gbench.h"
#include "binary/gobench.h"

enum bs_site_kind {
	BS_SITE_UPROBE = 1,    /**< function entry */
	BS_SITE_URETPROBE = 2, /**< function return */
	BS_SITE_USDT = 3,      /**< USDT probe (provider:name) */
};

/** One probe site, as given and as resolved. */
struct bs_site {
	enum bs_site_kind kind;
	char bin[PATH_MAX];  /**< as given: a path or a library name */
	char symbol[512];    /**< function (mangled or demangled), or USDT provider */
	char usdt_name[128]; /**< USDT probe name */
	char path[PATH_MAX]; /**< resolved absolute path */
	char mangled[512];   /**< resolved symbol name */
	uint64_t offset;     /**< file offset of the function (uprobes) */
};

enum bs_bound_mode {
	BS_BOUND_NONE = 0,
	BS_BOUND_PAIR,	  /**< --iter or --begin/--end */
	BS_BOUND_GBENCH,  /**< --preset gbench */
	BS_BOUND_PROCESS, /**< --preset process */
	BS_BOUND_LINES,	  /**< --line, --begin-line/--end-line (probe/lines.h) */
	BS_BOUND_CATCH2,  /**< --preset catch2 */
	BS_BOUND_GO,	  /**< --preset go: Go's testing.B (binary/gobench.h) */
	/** --preset criterion (binary/criterion.h, probe/criterion_probes.h) */
	BS_BOUND_CRITERION,
};

struct bs_lines_cfg;

struct bs_boundaries {
	enum bs_bound_mode mode;
	struct bs_site begin, end;
	struct bs_gbench_layout layout;	  /**< BS_BOUND_GBENCH only */
	const struct bs_lines_cfg *lines; /**< BS_BOUND_LINES only (borrowed) */
	struct bs_catch2_plan catch2;	  /**< BS_BOUND_CATCH2 only: every site (begin/end
					   *   above are its first ones, for describing) */
	struct bs_go_sites go_sites;	  /**< BS_BOUND_GO only: begin/end describe two of them */
	struct bs_go_layout go_layout;	  /**< BS_BOUND_GO only */
	/** BS_BOUND_CRITERION only: every probed function; begin/end are the
	 * first iteration site's entry and return (for descriptions and
	 * bs_boundaries_same) */
	struct bs_crit_layout crit;
	/** probes per iteration (probe/probe_count.h): 1, the end probe reading the
	 * harness's own begin timestamp; 2 (0 before bs_probes_choose: 2) */
	int probes;
	char probes_why[320]; /**< how it was chosen ("auto", "--probes 2", "auto: why not 1") */
};

/**
 * Parse one site. `spec` is "BIN:SYMBOL" or "usdt:BIN:PROVIDER:NAME"; the
 * first ':' ends BIN, so C++ names ("lib:ns::Class::fn") keep their colons.
 * Returns 0 or -EINVAL with a one-line reason in err.
 */
int bs_site_parse(const char *spec, enum bs_site_kind fn_kind, struct bs_site *site, char *err,
		  size_t errlen);

/**
 * Fill b from the options: exactly one of iter, begin+end, preset
 * ("gbench", "process", "catch2" or "go"). Returns 0 or -EINVAL with a reason in err.
 */
int bs_boundaries_parse(struct bs_boundaries *b, const char *iter, const char *begin,
			const char *end, const char *preset, char *err, size_t errlen);

/**
 * Resolve the sites for the program `exe` (absolute path of the harness):
 * library names as the dynamic loader would, symbols to file offsets, USDT
 * probes checked to exist. Errors name the closest matches.
 * Returns 0 or -errno with a one-line reason in err.
 */
int bs_boundaries_resolve(struct bs_boundaries *b, const char *exe, char *err, size_t errlen);

/**
 * bs_boundaries_setup - bs_boundaries_parse, then bs_boundaries_resolve for
 * the program @prog found as the shell would (PATH, bs_which).
 * Returns 0, or -errno with a one-line reason in err: a bad choice of
 * options (-EINVAL), "command not found: PROG" (-ENOENT) or why PROG cannot
 * be run ("Permission denied: PROG"), a site that does not resolve.
 */
int bs_boundaries_setup(struct bs_boundaries *b, const char *iter, const char *begin,
			const char *end, const char *preset, const char *prog, char *err,
			size_t errlen);

/**
 * bs_boundaries_setup_lines - output-line boundaries (@cfg compiled by
 * bs_lines_cfg_init, borrowed) for the program @prog, which must be found
 * as the shell would. Returns 0, or -errno with "command not found: PROG"
 * (-ENOENT) or why PROG cannot be run in err.
 */
int bs_boundaries_setup_lines(struct bs_boundaries *b, const struct bs_lines_cfg *cfg,
			      const char *prog, char *err, size_t errlen);

/** Human description of a site ("uprobe /lib/x.so:fn+0x1234"). */
void bs_site_describe(const struct bs_site *s, char *out, size_t outlen);

/** The boundaries as a JSON object text for the trace context (malloc'd). */
char *bs_boundaries_json(const struct bs_boundaries *b);

/** The boundaries' kind as the trace's CONTEXT records it ("gbench", "catch2", ...). */
const char *bs_boundaries_kind(const struct bs_boundaries *b);

/**
 * Whether interferer charges are kept per iteration under boundaries @b
 * (struct bs_interferer_charge.victim_iter; the trace's
 * boundaries.charges "iteration"): where an iteration is a harness's run,
 * which a report keeps or leaves out whole (bs_boundaries_calibrates), with
 * two probes (one probe numbers an iteration only at its end).
 */
bool bs_boundaries_charges_by_iteration(const struct bs_boundaries *b);

/**
 * Whether a measurement of boundaries @a, and in a duet of @a and @b (NULL:
 * no second side), keeps interferer charges per iteration: only when every
 * side's boundaries do (bs_boundaries_charges_by_iteration), since one BPF
 * object charges for both sides and the trace's context names one scope.
 */
bool bs_boundaries_pair_charges_by_iteration(const struct bs_boundaries *a,
					     const struct bs_boundaries *b);

/** Whether boundaries @b attach uprobes (USDT sites too): every kind but
 *  output lines and the process preset. */
bool bs_boundaries_use_uprobes(const struct bs_boundaries *b);

/**
 * Whether the harness of these boundaries runs calibration (sizing or
 * estimation) runs before its measurements, which a preset's rule tells
 * apart (trace/bench_groups.h bs_calib_rule_for).
 */
bool bs_boundaries_calibrates(const struct bs_boundaries *b);

/**
 * Why a harness run with the command words @cmd (NULL-terminated) may
 * record no iteration, or none that its harness measured, although its
 * probes attach, when its preset knows a usual reason: Go runs no benchmark
 * without -test.bench, a criterion binary without --bench runs each
 * benchmark once as a test, Catch2 runs hidden test cases ([.] or
 * [!benchmark] tags) only when named. One sentence (static), or NULL (no
 * preset hint, or the command already asks for benchmarks).
 */
const char *bs_boundaries_idle_hint(const struct bs_boundaries *b, char *const cmd[]);

#endif
