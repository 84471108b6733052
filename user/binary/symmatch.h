/* SPDX-License-Identifier: MIT */
/*
 * symmatch.h - compare symbol names the way users type them, and rank
 * "closest match" suggestions for error messages.
 *
 * Demangling uses the C++ ABI's __cxa_demangle: linked directly when the
 * program links libstdc++, otherwise looked up once in libstdc++.so.6 with
 * dlopen. Without either, C++ names are compared in mangled form only.
 */
#ifndef BENCHSCOPE_SYMMATCH_H
#define BENCHSCOPE_SYMMATCH_H

#include <stddef.h>

/** Demangle NAME (an Itanium C++ ABI name, "_Z..."); malloc'd string, or NULL when not
 * mangled/undemanglable. */
char *bs_demangle(const char *name);

/**
 * Split a demangled function name into its keys, written to the buffers
 * (truncated to their lengths):
 *   full: without a leading return type, e.g. "ns::C::f(int) const";
 *   base: full without parameters and qualifiers, e.g. "ns::C::f".
 * A name without a parameter list is its own full and base.
 */
void bs_sym_keys(const char *demangled, char *full, size_t fulllen, char *base, size_t baselen);

/** 1 when A and B are equal ignoring whitespace and "[abi:...]" tags. */
int bs_sym_same(const char *a, const char *b);

/** Levenshtein distance of A and B (both truncated to 255 characters). */
size_t bs_edit_distance(const char *a, const char *b);

/**
 * Distance of the user's QUERY (no parameters) to a symbol's base key: the
 * smaller of the distance to the whole key and to its last k "::"-separated
 * components, k being the number of components in QUERY (so "StartKeepRuning"
 * is 1 away from "benchmark::State::StartKeepRunning").
 */
size_t bs_sym_distance(const char *query, const char *base);

/** Ranked suggestions: substring matches first (shorter first), then by edit distance. */
struct bs_suggest_item {
	char *text;
	int substr;
	size_t dist;
};
struct bs_suggest {
	struct bs_suggest_item *items;
	size_t n, max;
};

/** Start an empty list keeping the best MAX (at most 16). */
void bs_suggest_init(struct bs_suggest *s, size_t max);
/** Offer TEXT (copied; duplicates ignored) with its rank: SUBSTR (0/1) and DIST. */
void bs_suggest_add(struct bs_suggest *s, const char *text, int substr, size_t dist);
/** Write the kept texts, best first, comma-separated into buf ("" if none). */
void bs_suggest_format(const struct bs_suggest *s, char *buf, size_t len);
void bs_suggest_free(struct bs_suggest *s);

#endif
