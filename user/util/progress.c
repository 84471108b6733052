// SPDX-License-Identifier: MIT
/* progress.c - the live progress line. */
#include "util/progress.h"
#include "util/monotime.h"

#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REDRAW_NS 250e6 /* at most 4 redraws a second */

void bs_progress_init_on(struct bs_progress *p, FILE *out, const char *what, bool enabled)
{
	p->out = out;
	p->tty = isatty(fileno(out));
	p->on = enabled && p->tty;
	p->shown = false;
	p->start_ns = p->last_ns = (double)bs_mono_ns();
	p->what = what;
}

void bs_progress_init(struct bs_progress *p, const char *what, bool enabled)
{
	bs_progress_init_on(p, stderr, what, enabled);
}

/* Whether a redraw is due; if so, the seconds since init in *el. */
static bool due(struct bs_progress *p, double *el)
{
	double now = (double)bs_mono_ns();

	if (!p->on || now - p->last_ns < REDRAW_NS)
		return false;
	p->last_ns = now;
	*el = (now - p->start_ns) / 1e9;
	return true;
}

static void drawn(struct bs_progress *p)
{
	fflush(p->out);
	p->shown = true;
}

void bs_progress_update(struct bs_progress *p, uint64_t done, uint64_t total)
{
	double el;

	if (!due(p, &el))
		return;
	if (total > 0 && done > 0 && done <= total)
		fprintf(p->out, "\r\033[K  %llu/%llu %s (%.0f%%)  %.1f s elapsed, ETA %.1f s",
			(unsigned long long)done, (unsigned long long)total, p->what,
			100.0 * (double)done / (double)total, el,
			el * (double)(total - done) / (double)done);
	else
		fprintf(p->out, "\r\033[K  %llu %s  %.1f/s  %.1f s elapsed",
			(unsigned long long)done, p->what, el > 0 ? (double)done / el : 0.0, el);
	drawn(p);
}

void bs_progress_text(struct bs_progress *p, uint64_t done, uint64_t total, const char *fmt, ...)
{
	va_list ap;
	double el;

	if (!due(p, &el))
		return;
	fputs("\r\033[K  ", p->out);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fprintf(p->out, "  %.1f s elapsed", el);
	if (total > 0 && done > 0 && done <= total)
		fprintf(p->out, ", ETA %.1f s", el * (double)(total - done) / (double)done);
	drawn(p);
}

void bs_progress_clear(struct bs_progress *p)
{
	if (p->on && p->shown) {
		fprintf(p->out, "\r\033[K");
		fflush(p->out);
	}
	p->shown = false;
	p->last_ns = 0; /* the next update draws at once */
}

static void vmsg(struct bs_progress *p, const char *fmt, va_list ap)
{
	bs_progress_clear(p);
	vfprintf(p->out, fmt, ap);
	fputc('\n', p->out);
	fflush(p->out);
}

void bs_progress_msg(struct bs_progress *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(p, fmt, ap);
	va_end(ap);
}

void bs_progress_note(struct bs_progress *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->tty)
		return;
	va_start(ap, fmt);
	vmsg(p, fmt, ap);
	va_end(ap);
}

void bs_progress_done(struct bs_progress *p)
{
	bs_progress_clear(p);
}

/* bs_progress_steps's hook */
static void steps_hook(void *ctx, uint64_t done, uint64_t total, const char *name)
{
	struct bs_progress *p = ctx;
	size_t len = name ? strlen(name) : 0, shown = len;

	if (done >= total) {
		bs_progress_clear(p);
		return;
	}
	if (done == 0) /* the count starts: its elapsed time and ETA from now */
		p->start_ns = p->last_ns = (double)bs_mono_ns();
	if (len > BS_PROGRESS_NAME_MAX) {
		shown = BS_PROGRESS_NAME_MAX;
		while (shown && ((unsigned char)name[shown] & 0xc0) == 0x80)
			shown--; /* not inside a UTF-8 character */
	}
	bs_progress_text(p, done, total, "%s %llu of %llu%s%.*s%s", p->what,
			 (unsigned long long)done + 1, (unsigned long long)total, name ? ": " : "",
			 (int)shown, name ? name : "", shown < len ? "..." : "");
}

struct bs_steps bs_progress_steps(struct bs_progress *p)
{
	return (struct bs_steps){steps_hook, p};
}

bool bs_progress_beside_harness(bool err_tty, bool harness_out_tty)
{
	return err_tty && !harness_out_tty;
}

bool bs_progress_beside_harness_here(bool inherits_stdout, bool inherits_stderr)
{
	bool err_tty = isatty(STDERR_FILENO);

	return bs_progress_beside_harness(err_tty, (inherits_stdout && isatty(STDOUT_FILENO)) ||
						       (inherits_stderr && err_tty));
}
