/* SPDX-License-Identifier: MIT */
/*
 * sparkline.h - a row of values as one line of eight-level bars: UTF-8
 * block elements (▁▂▃▄▅▆▇█) on a UTF-8 terminal, else ASCII ("_.-:=+*#"),
 * so that a report written to a file or a pipe, or read in a non-UTF-8
 * locale, stays plain ASCII.
 */
#ifndef BENCHSCOPE_SPARKLINE_H
#define BENCHSCOPE_SPARKLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * bs_sparkline - write the bars of @v[0..n) into @buf (@len bytes, NUL-
 * terminated; at most 3 bytes per bar in UTF-8): each value's level is its
 * place between the smallest and the largest finite value, in 8 levels
 * (all lowest when they are equal); a NaN prints as a space. @utf8 picks
 * the glyphs. Returns the number of bars written (fewer when @len is short).
 */
size_t bs_sparkline(const double *v, size_t n, bool utf8, char *buf, size_t len);

/**
 * bs_sparkline_utf8 - whether @f gets UTF-8 bars: it is a terminal and the
 * locale (the first set of LC_ALL, LC_CTYPE, LANG) names UTF-8.
 */
bool bs_sparkline_utf8(FILE *f);

#endif
