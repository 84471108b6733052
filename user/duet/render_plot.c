// SPDX-License-Identifier: MIT
/*
 * render_plot.c - the overlap timeline picture of a duet (duet/render.h):
 * a gnuplot script and data file are written to a temporary directory and
 * gnuplot (Debian gnuplot-nox) draws the SVG or PNG.
 *
 * Lanes: per run (execution order), A above B; x is the time since the run
 * started (s). Iterations are boxes: paired ones (used by the CI test) in
 * blue, unpaired in grey; a red strip at the start of an iteration is as long
 * as the interference it suffered (run-queue wait + irq + softirq + steal);
 * a thin line joins the centres of the two iterations of each pair of the
 * duets (sequential runs pair iteration j with j across time: not drawn).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "duet/render.h"

extern char **environ;

#define PLOT_MAX_RUNS 60

__attribute__((format(printf, 3, 4))) static int perr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return 0;
}

struct lane_run {
	int run;
	enum bs_dmethod method;
	int64_t t0;
};

static int cmp_lane(const void *x, const void *y)
{
	const struct lane_run *a = x, *b = y;

	return (a->run > b->run) - (a->run < b->run);
}

/* the lanes: every run of the model, once, in run order */
static size_t collect_runs(const struct bs_duet_data *d, struct lane_run *out, size_t cap)
{
	size_t n = 0;

	for (size_t b = 0; b < d->n_benches; b++)
		for (int m = 0; m < BS_DM_N; m++)
			for (size_t k = 0; k < d->benches[b].n_runs[m]; k++) {
				const struct bs_drun *r = &d->benches[b].runs[m][k];
				size_t i;

				for (i = 0; i < n; i++)
					if (out[i].run == r->run)
						break;
				if (i == n && n < cap)
					out[n++] =
					    (struct lane_run){r->run, r->method, r->start_ns};
				else if (i < n && r->start_ns < out[i].t0)
					out[i].t0 = r->start_ns;
			}
	qsort(out, n, sizeof(*out), cmp_lane);
	return n;
}

static double lane_y(size_t lane, int side)
{
	return -(double)lane * 3.0 - side * 1.2;
}

static bool is_paired(const struct bs_dmres *r, size_t k, int side, size_t i)
{
	for (size_t p = 0; r->pairs && p < r->n_pairs[k]; p++)
		if ((side ? r->pairs[k][p].b : r->pairs[k][p].a) == i)
			return true;
	return false;
}

/* data blocks: 0 unpaired, 1 paired, 2 interference, 3 pair links */
static int write_data(FILE *f, const struct bs_duet_ctx *c, const struct lane_run *lanes, size_t nl)
{
	const struct bs_duet_data *d = c->d;

	for (int block = 0; block < 4; block++) {
		fprintf(f, "# block %d\n0 0 0 0 0 0\n", block); /* never empty */
		for (size_t b = 0; b < d->n_benches; b++)
			for (int m = 0; m < BS_DM_N; m++) {
				const struct bs_dmres *r = &c->a->b[b].m[m];

				for (size_t k = 0; k < d->benches[b].n_runs[m]; k++) {
					const struct bs_drun *dr = &d->benches[b].runs[m][k];
					size_t l;

					for (l = 0; l < nl && lanes[l].run != dr->run; l++)
						;
					if (l == nl)
						continue;
					if (block == 3) {
						if (m == BS_DM_SEQ)
							continue; /* A then B: j-with-j links span
								     time */
						for (size_t p = 0; r->pairs && p < r->n_pairs[k];
						     p++) {
							const struct bs_iter *ia =
							    &dr->side[0].iv[r->pairs[k][p].a];
							const struct bs_iter *ib =
							    &dr->side[1].iv[r->pairs[k][p].b];
							double xa =
							    (double)((ia->start_ns + ia->end_ns) /
									 2 -
								     lanes[l].t0) /
							    1e9;
							double xb =
							    (double)((ib->start_ns + ib->end_ns) /
									 2 -
								     lanes[l].t0) /
							    1e9;

							fprintf(f, "%.9f %.3f %.9f %.3f 0 0\n", xa,
								lane_y(l, 0) - 0.35, xb - xa,
								lane_y(l, 1) - lane_y(l, 0) + 0.7);
						}
						continue;
					}
					for (int s = 0; s < 2; s++)
						for (size_t i = 0; i < dr->side[s].n; i++) {
							const struct bs_iter *iv =
							    &dr->side[s].iv[i];
							double x0 =
							    (double)(iv->start_ns - lanes[l].t0) /
							    1e9;
							double x1 =
							    (double)(iv->end_ns - lanes[l].t0) /
							    1e9;
							double y = lane_y(l, s);
							bool pr = is_paired(r, k, s, i);

							if (block == 2) {
								double lost =
								    (double)bs_duet_iter_lost_ns(
									dr->side[s].rec[i]) /
								    1e9;

								if (lost <= 0)
									continue;
								if (lost > x1 - x0)
									lost = x1 - x0;
								fprintf(f,
									"%.9f %.3f %.9f %.9f %.3f "
									"%.3f\n",
									x0 + lost / 2, y, x0,
									x0 + lost, y - 0.35,
									y - 0.05);
							} else if ((block == 1) == pr) {
								fprintf(f,
									"%.9f %.3f %.9f %.9f %.3f "
									"%.3f\n",
									(x0 + x1) / 2, y, x0, x1,
									y - 0.35, y + 0.35);
							}
						}
				}
			}
		fputs("\n\n", f);
	}
	return ferror(f) ? -EIO : 0;
}

static void gp_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static int write_script(FILE *f, const char *out, bool svg, const char *data,
			const struct bs_duet_ctx *c, const struct lane_run *lanes, size_t nl)
{
	int height = 140 + (int)nl * 54, width = 1100;
	char title[600];
	const struct bs_dbres *br = c->a->n ? &c->a->b[0] : NULL;

	snprintf(title, sizeof(title), "duet %s%s: %s", br ? br->bench->name : c->d->benchmark,
		 c->a->n > 1 ? " (first of its benchmarks)" : "",
		 br && br->primary >= 0 && br->m[br->primary].has_verdict
		     ? br->m[br->primary].verdict
		     : "no verdict");
	if (svg)
		fprintf(f,
			"set terminal svg size %d,%d dynamic noenhanced background rgb 'white' "
			"font 'sans,11'\n",
			width, height);
	else
		fprintf(f,
			"set terminal pngcairo size %d,%d noenhanced background rgb 'white' font "
			"'sans,10'\n",
			width, height);
	fputs("set output ", f);
	gp_string(f, out);
	fputs("\nset title ", f);
	gp_string(f, title);
	fputs("\nset xlabel 'time since the run started (s)'\n"
	      "set grid xtics lc rgb '#dddddd'\nset key outside bottom center horizontal\n"
	      "set style fill solid 0.85 border rgb '#333333'\n",
	      f);
	fprintf(f, "set yrange [%.2f:%.2f]\nset ytics (", lane_y(nl ? nl - 1 : 0, 1) - 1.0, 1.0);
	for (size_t l = 0; l < nl; l++)
		for (int s = 0; s < 2; s++)
			fprintf(f, "%s\"run %d %s %c\" %.3f", l || s ? ", " : "", lanes[l].run,
				bs_dmethod_name(lanes[l].method), s ? 'B' : 'A', lane_y(l, s));
	fputs(")\nset ytics nomirror\nset xrange [0:*]\n", f);
	fputs("plot ", f);
	gp_string(f, data);
	fputs(
	    " index 0 using 1:2:3:4:5:6 with boxxyerror lc rgb '#b0b0b0' title 'iteration "
	    "(unpaired)', \\\n  '' index 1 using 1:2:3:4:5:6 with boxxyerror lc rgb '#4a7fc1' "
	    "title 'iteration (paired)', \\\n"
	    "  '' index 2 using 1:2:3:4:5:6 with boxxyerror lc rgb '#d62728' title 'interference "
	    "(run-queue wait + irq + softirq + steal)', \\\n"
	    "  '' index 3 using 1:2:3:4 with vectors nohead lc rgb '#2ca02c' lw 0.8 title 'pair'\n",
	    f);
	return ferror(f) ? -EIO : 0;
}

static int run_gnuplot(const char *script, const char *errfile, char *err, size_t errlen)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = {"gnuplot", (char *)script, NULL};
	pid_t pid;
	int st, rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == ENOENT) {
		perr(err, errlen, "gnuplot not found (install gnuplot-nox); no picture written");
		return -ENOENT;
	}
	if (rc) {
		perr(err, errlen, "cannot run gnuplot: %s", strerror(rc));
		return -rc;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		char line[300] = "";
		FILE *e = fopen(errfile, "r");

		if (e) {
			while (fgets(line, sizeof(line), e))
				if (strstr(line, "rror") || strstr(line, "arning"))
					break;
			fclose(e);
		}
		line[strcspn(line, "\n")] = 0;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
			perr(err, errlen,
			     "gnuplot not found (install gnuplot-nox); no picture written");
			return -ENOENT;
		}
		perr(err, errlen, "gnuplot failed%s%s", line[0] ? ": " : "", line);
		return -EIO;
	}
	return 0;
}

int bs_duet_plot_format(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;

	if (dot && !strcmp(dot, ".svg"))
		return 1;
	if (dot && !strcmp(dot, ".png"))
		return 0;
	return -EINVAL;
}

int bs_duet_render_plot(const char *path, const struct bs_duet_ctx *c, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");
	struct lane_run lanes[PLOT_MAX_RUNS];
	char dir[256], data[300], script[300], errfile[300];
	size_t nl;
	int svg = bs_duet_plot_format(path);
	FILE *f;
	int ret;

	if (svg < 0) {
		perr(err, errlen, BS_PLOT_USAGE, path);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s/bs-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perr(err, errlen, "cannot create a temporary directory: %s", strerror(errno));
		return -errno;
	}
	snprintf(data, sizeof(data), "%s/lanes.dat", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	snprintf(errfile, sizeof(errfile), "%s/gnuplot.err", dir);
	nl = collect_runs(c->d, lanes, PLOT_MAX_RUNS);
	f = fopen(data, "w");
	ret = f ? write_data(f, c, lanes, nl) : -errno;
	if (f && fclose(f) && !ret)
		ret = -EIO;
	if (!ret) {
		f = fopen(script, "w");
		ret = f ? write_script(f, path, svg, data, c, lanes, nl) : -errno;
		if (f && fclose(f) && !ret)
			ret = -EIO;
	}
	if (ret)
		perr(err, errlen, "cannot write the plot's data: %s", strerror(-ret));
	else
		ret = run_gnuplot(script, errfile, err, errlen);
	unlink(data);
	unlink(script);
	unlink(errfile);
	rmdir(dir);
	return ret;
}
