// SPDX-License-Identifier: MIT
/* sparkline.c - eight-level bars of a row of values (see sparkline.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/sparkline.h"

static const char *const blocks[8] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
static const char ascii[] = "_.-:=+*#";

size_t bs_sparkline(const double *v, size_t n, bool utf8, char *buf, size_t len)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i, at = 0, bars = 0;

	if (!len)
		return 0;
	for (i = 0; i < n; i++)
		if (isfinite(v[i])) {
			lo = fmin(lo, v[i]);
			hi = fmax(hi, v[i]);
		}
	for (i = 0; i < n; i++) {
		int lvl = 0;
		const char *g;
		size_t gl;

		if (isfinite(v[i]) && hi > lo)
			lvl = (int)fmin(7, floor((v[i] - lo) / (hi - lo) * 8));
		g = !isfinite(v[i]) ? " " : utf8 ? blocks[lvl] : (char[2]){ascii[lvl], 0};
		gl = strlen(g);
		if (at + gl >= len)
			break;
		memcpy(buf + at, g, gl);
		at += gl;
		bars++;
	}
	buf[at] = 0;
	return bars;
}

bool bs_sparkline_utf8(FILE *f)
{
	static const char *const vars[] = {"LC_ALL", "LC_CTYPE", "LANG"};
	const char *loc = NULL;
	size_t i;

	if (!isatty(fileno(f)))
		return false;
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]) && !loc; i++) {
		const char *e = getenv(vars[i]);

		if (e && *e)
			loc = e;
	}
	return loc && (strcasestr(loc, "utf-8") || strcasestr(loc, "utf8"));
}
