/* SPDX-License-Identifier: MIT */
/* units.h - human-readable numbers for the text and Markdown reports. */
#ifndef BENCHSCOPE_UNITS_H
#define BENCHSCOPE_UNITS_H

#include <stddef.h>

/**
 * bs_fmt_ns - a duration given in nanoseconds as text with a unit chosen by
 * magnitude (ns, µs, ms, s) and 4 significant digits at most, e.g.
 * "812.0 ns", "1.235 ms", "12.35 s". NaN gives "n/a". Returns @buf.
 */
char *bs_fmt_ns(double ns, char *buf, size_t len);

/** bs_fmt_pct - @ratio (0.0123) as "1.23 %"; NaN gives "n/a". Returns @buf. */
char *bs_fmt_pct(double ratio, char *buf, size_t len);

/** bs_text_width - display width of UTF-8 @s (code points, not bytes). */
size_t bs_text_width(const char *s);

/**
 * bs_comm_text - a kernel command name (@src, up to @n bytes, maybe without
 * NUL) as printable ASCII in @dst (>= n + 1 bytes): other bytes become '?',
 * so names are safe on a terminal and valid UTF-8 in JSON. Returns @dst.
 */
char *bs_comm_text(const char *src, size_t n, char *dst);

#endif
