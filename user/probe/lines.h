/* SPDX-License-Identifier: MIT */
/*
 * lines.h - output-line boundaries (--line, --begin-line/--end-line,
 * --name-line): iterations delimited by the lines a harness prints, for
 * runtimes with no probe-able boundary (JMH on HotSpot, pyperf, node).
 *
 * The kernel (bpf/benchscope.bpf.c, on_std_write) timestamps every write of
 * a tracked process to the file of its fd 1 or 2 at the write, sends its
 * first BS_LINE_DATA_LEN bytes (struct bs_line_rec) and splits the writing
 * thread's interference accounting into segments at each such write
 * (struct bs_iter_rec, end_ns == the write's ts_ns). This module, fed those
 * records in ring-buffer order, splits the bytes into lines per process and
 * stream, matches the regexes, and turns the segments between a begin match
 * and an end match of one thread into one iteration (their counters summed).
 *
 * Matching: a line is matched after every write that adds to it, so a
 * prompt written without its newline (JMH's "# Warmup Iteration   1: ")
 * counts when it is written; until the newline arrives `$` does not match
 * (REG_NOTEOL). Each regex matches a line at most once; the write after which
 * it first matches gives the timestamp. Regexes are POSIX extended (regcomp
 * REG_EXTENDED) with one addition: a group may be named, (?<NAME>...), with
 * NAME one of
 *   score        the harness's own figure for the iteration (a number, strtod)
 *   unit         the score's unit (s, ms, us, ns, each optionally "/op")
 *   invocations  the invocations the iteration ran (ns/op is then reported)
 *   name         the benchmark's name (a BENCH record in the trace)
 * --line R: every match of R ends the open iteration and begins the next at
 * the same write; the first match only begins one (so no iteration holds the
 * process start-up). --begin-line B --end-line E: from a match of B to the
 * next match of E in the same process. --name-line N: a line naming the
 * benchmark that follows (needs a (?<name>...) group).
 */
#ifndef BENCHSCOPE_LINES_H
#define BENCHSCOPE_LINES_H

#include <json-c/json.h>
#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "benchscope/record.h"

/** What the regexes are for. */
enum bs_line_role {
	BS_LROLE_LINE = 0,  /**< --line: ends an iteration and begins the next */
	BS_LROLE_BEGIN = 1, /**< --begin-line */
	BS_LROLE_END = 2,   /**< --end-line */
	BS_LROLE_NAME = 3,  /**< --name-line */
	BS_LROLE_N = 4,
};

/** Named groups a regex may have. */
enum bs_line_group {
	BS_LGROUP_SCORE = 0,
	BS_LGROUP_UNIT = 1,
	BS_LGROUP_INVOCATIONS = 2,
	BS_LGROUP_NAME = 3,
	BS_LGROUP_N = 4,
};

/** One compiled regex. */
struct bs_line_regex {
	bool present;
	char *src;		/**< as the user gave it (malloc'd) */
	regex_t re;		/**< compiled from src with (?<NAME> turned into ( */
	int group[BS_LGROUP_N]; /**< subexpression number of each named group, 0: none */
};

/** The options as given (borrowed strings; NULL: not given). */
struct bs_lines_spec {
	const char *line, *begin_line, *end_line, *name_line;
	const char *score_unit; /**< --score-unit: the unit of (?<score>) when no (?<unit>) */
};

/** The compiled choice. */
struct bs_lines_cfg {
	struct bs_line_regex rx[BS_LROLE_N];
	double unit_ns;	  /**< ns per score unit from --score-unit, 0: none given */
	bool unit_per_op; /**< --score-unit is per invocation ("ns/op") */
	char *unit_src;	  /**< --score-unit as given, or NULL */
};

/** True when any of the line options is given. */
bool bs_lines_spec_given(const struct bs_lines_spec *s);

/**
 * bs_line_regex_compile - compile @src (POSIX ERE with (?<NAME>...) groups)
 * for option @opt ("--end-line", for messages). Returns 0, or -EINVAL with a
 * one-line reason in @err ("--end-line: bad regex '(': parenthesis not
 * balanced"; unknown or repeated group names; "(?" other than "(?<NAME>"),
 * or -ENOMEM. Free with bs_line_regex_free.
 */
int bs_line_regex_compile(struct bs_line_regex *r, const char *src, const char *opt, char *err,
			  size_t errlen);

/** Free what r holds and zero it, not r itself; NULL is a no-op, and so is
 * a zeroed or already freed r. */
void bs_line_regex_free(struct bs_line_regex *r);

/**
 * bs_line_unit_parse - a unit text ("s", "sec", "secs", "ms", "msec", "us",
 * "usec", "µs", "ns", "nsec", each optionally followed by "/op") into ns per
 * unit (*ns) and whether it is per invocation (*per_op). 0, or -EINVAL.
 */
int bs_line_unit_parse(const char *text, size_t len, double *ns, bool *per_op);

/**
 * bs_lines_cfg_init - check and compile the options: --line alone, or
 * --begin-line with --end-line; --name-line with either and a (?<name>)
 * group; --score-unit a unit of bs_line_unit_parse. Returns 0, or -EINVAL
 * with a one-line reason in @err (exit status 2), or -ENOMEM.
 */
int bs_lines_cfg_init(struct bs_lines_cfg *cfg, const struct bs_lines_spec *spec, char *err,
		      size_t errlen);

/** Free what cfg holds (its regexes, the unit text) and zero it, not cfg
 * itself; NULL is a no-op, and so is a zeroed or already freed cfg. */
void bs_lines_cfg_free(struct bs_lines_cfg *cfg);

/** The choice as a JSON object for the trace CONTEXT "boundaries" (kind "lines"). */
json_object *bs_lines_cfg_json(const struct bs_lines_cfg *cfg);

/** Where the matcher's results go; each returns 0 or -errno (counted, not fatal). */
struct bs_lines_out {
	void *ctx;
	/** a finished iteration (index per process from 0) */
	int (*iter)(void *ctx, struct bs_iter_rec *r);
	/** a benchmark name (a (?<name>) group matched) */
	int (*bench)(void *ctx, const struct bs_bench_rec *r);
	/** an EVENT "line" for a matched line (docs/json-schema.md); borrowed */
	int (*event)(void *ctx, json_object *ev);
};

struct bs_lines;

/** A matcher for @cfg (borrowed, must outlive it). NULL when out of memory. */
struct bs_lines *bs_lines_new(const struct bs_lines_cfg *cfg, const struct bs_lines_out *out);

/** A segment of a thread's accounting (every bs_iter_rec in line mode). */
void bs_lines_segment(struct bs_lines *l, const struct bs_iter_rec *seg);

/** A write to stdout or stderr (a bs_line_rec). */
void bs_lines_write(struct bs_lines *l, const struct bs_line_rec *w);

/**
 * bs_lines_proc_exit - process @pid exited (its EXIT record, which comes
 * after its writes): its open iteration is unfinished, and its unfinished
 * lines and its threads' accounting are dropped, so that a later process
 * given the same pid starts afresh (its iterations' indexes go on from the
 * old one's, keeping (pid, index) unique in the trace).
 */
void bs_lines_proc_exit(struct bs_lines *l, uint32_t pid);

/** Counters of the matcher, for the END block and the tests. */
struct bs_lines_stats {
	uint64_t writes;	      /**< writes seen */
	uint64_t truncated;	      /**< writes longer than what the kernel copied */
	uint64_t lines;		      /**< lines (complete or not) that received bytes */
	uint64_t matches[BS_LROLE_N]; /**< lines each regex matched */
	uint64_t iterations;	      /**< iterations emitted */
	uint64_t zero_length;	      /**< iterations whose begin and end came in one write */
	uint64_t end_without_begin;   /**< end lines with no open iteration */
	uint64_t restarted;	      /**< begin lines while an iteration was open */
	uint64_t unfinished;  /**< iterations still open when the run or their process ended */
	uint64_t partial;     /**< iterations whose segments do not cover them exactly */
	uint64_t bad_numbers; /**< score or invocations groups that were not numbers */
	uint64_t long_lines;  /**< lines longer than the 4096 bytes matched of each */
	char first_line[128]; /**< the first line seen (for "never matched") */
};

/**
 * bs_lines_finish - the run is over: count the iterations still open, and
 * append to @warnings (a JSON array) one sentence per problem: a regex that
 * matched no line (naming it, the lines seen and the first), buffered
 * output, truncated writes, ends without begins. Fills *st when non-NULL.
 * Returns the number of warnings added.
 */
int bs_lines_finish(struct bs_lines *l, json_object *warnings, struct bs_lines_stats *st);

/** The matcher's counters as a JSON object (the END member "lines"). */
json_object *bs_lines_stats_json(const struct bs_lines_stats *st);

void bs_lines_free(struct bs_lines *l);

#endif
