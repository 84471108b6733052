/* SPDX-License-Identifier: MIT */
/*
 * class.h - classify watchpoint pairs into dead stores, silent stores
 * and silent loads (Su et al. 2019, definitions 1-3), choose the
 * watchpoint a new sample replaces (reservoir sampling), and aggregate the
 * outcomes per (kind, context 1, context 2). Pure: no I/O, no BPF.
 */
#ifndef BENCHSCOPE_WASTE_CLASS_H
#define BENCHSCOPE_WASTE_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum bs_waste_kind {
	BS_WK_DEAD_STORE = 0,
	BS_WK_SILENT_STORE = 1,
	BS_WK_SILENT_LOAD = 2,
	BS_WK_N = 3,
};
#define BS_WK_ALL ((1u << BS_WK_N) - 1)

/** Breakpoint types (the values of HW_BREAKPOINT_W / HW_BREAKPOINT_RW). */
enum bs_waste_watch { BS_WATCH_NONE = 0, BS_WATCH_W = 2, BS_WATCH_RW = 3 };

/** The word used in CLI, report and JSON: "dead-store", "silent-store", "silent-load". */
const char *bs_waste_kind_name(enum bs_waste_kind k);
/** Parse "dead-store" | "silent-store" | "silent-load" | "all" into a kind mask; 0 if unknown. */
unsigned bs_waste_kinds_parse(const char *s);

/**
 * bs_waste_watch_for - the watchpoint a sampled access needs for the kinds
 * in @kinds (mask of 1 << enum bs_waste_kind): a store (or read-modify-write)
 * is watched RW for dead stores, W for silent stores alone; a pure load RW
 * for silent loads. BS_WATCH_NONE when the sample serves no requested kind.
 */
enum bs_waste_watch bs_waste_watch_for(unsigned kinds, bool load, bool store);

/** What the classifier knows about one access. */
struct bs_waste_acc {
	bool known; /**< load/store below are decoded (false: the trapping insn was not decoded) */
	bool load, store;
	uint8_t fp; /**< floating-point element size 0/4/8 */
};

/** One classification: kind, whether it resolved, whether it was waste. */
struct bs_waste_outcome {
	enum bs_waste_kind kind;
	bool waste;
};

/**
 * bs_waste_values_equal - @a and @b (the low @len bytes, len 1..8) equal:
 * exactly for integers (@fp 0); for floating point (@fp 4 or 8, each
 * element of len bytes) |a - b| <= tol * max(|a|, |b|) (NaN == NaN bitwise).
 */
bool bs_waste_values_equal(uint64_t a, uint64_t b, uint32_t len, uint8_t fp, double tol);

/**
 * bs_waste_classify - the outcomes of one pair: the sampled access @first
 * (its value afterwards @old) and the next access that trapped, @next (value
 * afterwards @val), on a watchpoint of type @watch over @len bytes.
 * Dead store: first stores, next is a pure store (a load, or a
 * read-modify-write, uses the value). Silent store: both store and the value
 * is unchanged (within @tol for fp). Silent load: both pure loads and the
 * value is unchanged. An undecoded @next counts as a store when the value
 * changed or the watchpoint is W only, and resolves nothing otherwise.
 * Writes up to BS_WK_N outcomes to @out for the kinds in @kinds that the
 * pair resolves; returns how many.
 */
int bs_waste_classify(unsigned kinds, enum bs_waste_watch watch, const struct bs_waste_acc *first,
		      const struct bs_waste_acc *next, uint64_t old, uint64_t val, uint32_t len,
		      double tol, struct bs_waste_outcome out[BS_WK_N]);

/* ---- reservoir of watchpoints -------------------------------------------- */

#define BS_WASTE_NREGS 4

/** Per-thread reservoir state: which registers are armed, samples seen since. */
struct bs_waste_reservoir {
	uint32_t nregs;		    /**< registers in use (1..4) */
	bool armed[BS_WASTE_NREGS]; /**< register holds a pending watchpoint */
	uint64_t k[BS_WASTE_NREGS]; /**< samples given to it since it was armed (from free), its own
				       included */
	uint64_t n;   /**< samples since the registers filled, filling ones included */
	uint64_t rng; /**< xorshift64* state (never 0) */
};

/** Initialise with @nregs registers (clamped to 1..4) and a seed. */
void bs_waste_reservoir_init(struct bs_waste_reservoir *r, uint32_t nregs, uint64_t seed);

/**
 * bs_waste_reservoir_pick - a new sample arrived: returns the register to
 * arm with it (a free one if any, the lowest), or, when all are armed, the
 * n-th sample since the registers filled (n counts the filling samples too)
 * replaces a register chosen uniformly with probability nregs/n, i.e. each
 * register is replaced with probability 1/n (Vitter's reservoir: every
 * sample is equally likely to be watched, old or new, and no register is
 * favoured; checked by tests/user/test_waste_class.c); -1 when dropped.
 */
int bs_waste_reservoir_pick(struct bs_waste_reservoir *r);

/** Register @i resolved or was disarmed: it is free again, and the count n restarts. */
void bs_waste_reservoir_release(struct bs_waste_reservoir *r, int i);

/* ---- aggregation ----------------------------------------------------------- */

/** One (kind, context 1, context 2) pair. */
struct bs_waste_pair {
	enum bs_waste_kind kind;
	uint32_t ctx1, ctx2; /**< context ids of the caller's interner */
	uint64_t count;	     /**< wasteful pairs seen */
	uint64_t bytes;	     /**< their watched bytes */
};

/** Totals of one kind. */
struct bs_waste_total {
	uint64_t samples;	 /**< samples armed for this kind */
	uint64_t resolved;	 /**< samples whose next access resolved this kind */
	uint64_t resolved_bytes; /**< their bytes: the denominator of the fraction */
	uint64_t waste;		 /**< resolved as waste */
	uint64_t waste_bytes;
};

struct bs_waste_agg {
	struct bs_waste_total total[BS_WK_N];
	struct bs_waste_pair *pairs;
	size_t n, cap;
};

/** Count one outcome of @bytes bytes between contexts @ctx1 and @ctx2. 0 or -ENOMEM. */
int bs_waste_agg_add(struct bs_waste_agg *a, const struct bs_waste_outcome *o, uint32_t bytes,
		     uint32_t ctx1, uint32_t ctx2);
/** Sort pairs by bytes (then count), descending, kinds interleaved. */
void bs_waste_agg_sort(struct bs_waste_agg *a);
/** Fraction of wasteful bytes of kind @k among its resolved bytes (NaN if none). */
double bs_waste_agg_fraction(const struct bs_waste_agg *a, enum bs_waste_kind k);
/** Free the pair array (the struct itself is the caller's). */
void bs_waste_agg_free(struct bs_waste_agg *a);

/**
 * bs_waste_xorshift - the next value of the xorshift64* generator in *@s
 * (updated; never 0 when seeded non-zero): the waste profiler's one source
 * of randomness (reservoir choices, how far ahead a sample's access is).
 */
uint64_t bs_waste_xorshift(uint64_t *s);

#endif
