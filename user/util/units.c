// SPDX-License-Identifier: MIT
/* units.c - human-readable numbers (see units.h). */
#include "util/units.h"

#include <math.h>
#include <stdio.h>

char *bs_fmt_ns(double ns, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {
	    {1e9, "s"},
	    {1e6, "ms"},
	    {1e3, "µs"},
	    {1, "ns"},
	};
	double v = ns;
	const char *unit = "ns";

	if (isnan(ns)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (fabs(ns) >= units[i].scale * 0.99995 ||
		    i + 1 == sizeof(units) / sizeof(units[0])) {
			v = ns / units[i].scale;
			unit = units[i].unit;
			break;
		}
	}
	if (ns == 0)
		snprintf(buf, len, "0 ns");
	else if (fabs(v) >= 99.995)
		snprintf(buf, len, "%.1f %s", v, unit);
	else if (fabs(v) >= 9.9995)
		snprintf(buf, len, "%.2f %s", v, unit);
	else
		snprintf(buf, len, "%.3f %s", v, unit);
	return buf;
}

char *bs_fmt_pct(double ratio, char *buf, size_t len)
{
	if (isnan(ratio))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f %%", ratio * 100);
	return buf;
}

size_t bs_text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

char *bs_comm_text(const char *src, size_t n, char *dst)
{
	size_t i;

	for (i = 0; i < n && src[i]; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	dst[i] = 0;
	return dst;
}
