// SPDX-License-Identifier: MIT
/* progress.c - the live progress line. */
#include "util/progress.h"
#include "util/monotime.h"

#include <time.h>
#include <unistd.h>

void bs_progress_init_on(struct bs_progress *p, FILE *out, const char *what, bool enabled)
{
	p->out = out;
	p->on = enabled && isatty(fileno(out));
	p->shown = false;
	p->start_ns = p->last_ns = (double)bs_mono_ns();
	p->what = what;
}

void bs_progress_init(struct bs_progress *p, const char *what, bool enabled)
{
	bs_progress_init_on(p, stderr, what, enabled);
}

void bs_progress_update(struct bs_progress *p, uint64_t done, uint64_t total)
{
	double now = (double)bs_mono_ns(), el;

	if (!p->on || now - p->last_ns < 250e6) /* at most 4 redraws a second */
		return;
	p->last_ns = now;
	el = (now - p->start_ns) / 1e9;
	if (total > 0 && done > 0 && done <= total)
		fprintf(p->out, "\r\033[K  %llu/%llu %s (%.0f%%)  %.1f s elapsed, ETA %.1f s",
			(unsigned long long)done, (unsigned long long)total, p->what,
			100.0 * (double)done / (double)total, el,
			el * (double)(total - done) / (double)done);
	else
		fprintf(p->out, "\r\033[K  %llu %s  %.1f/s  %.1f s elapsed",
			(unsigned long long)done, p->what, el > 0 ? (double)done / el : 0.0, el);
	fflush(p->out);
	p->shown = true;
}

void bs_progress_done(struct bs_progress *p)
{
	if (p->on && p->shown) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
	}
	p->shown = false;
}
