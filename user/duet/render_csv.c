// SPDX-License-Identifier: MIT
/*
 * render_csv.c - one CSV row per analysed iteration of a duet: the
 * duet package's processed columns first (asynchronous-duet,
 * duet/constants.py BASE_COL: suite, benchmark, type, runid, pair,
 * iteration, iteration_start_ns, iteration_end_ns, iteration_time_ns; type
 * seqn / syncduet / duet, runid counted within the type), then ours.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "duet/render.h"
#include "util/output.h"

static void paired_with(FILE *f, const struct bs_dmres *r, size_t k, int side, size_t i)
{
	int first = 1;

	for (size_t p = 0; r->pairs && p < r->n_pairs[k]; p++) {
		size_t mine = side ? r->pairs[k][p].b : r->pairs[k][p].a;
		size_t other = side ? r->pairs[k][p].a : r->pairs[k][p].b;

		if (mine != i)
			continue;
		fprintf(f, first ? "%zu" : ";%zu", other);
		first = 0;
	}
}

int bs_duet_render_csv(FILE *f, const struct bs_duet_ctx *c)
{
	const struct bs_duet_analysis *a = c->a;
	const char *suite = c->d->ctx.suite ? c->d->ctx.suite : "benchscope";

	fputs("suite,benchmark,type,runid,pair,iteration,iteration_start_ns,iteration_end_ns,"
	      "iteration_time_ns,run,method,order,pid,tid,invocations,score_ns,paired_with,"
	      "preempted_ns,runq_wait_ns,blocked_ns,irq_ns,softirq_ns,steal_ns,sched_delay_ns,"
	      "nvcsw,nivcsw,migrations,lost_ns,cpu_begin,cpu_end\n",
	      f);
	for (size_t b = 0; b < a->n; b++) {
		const struct bs_dbench *bench = a->b[b].bench;

		for (int m = 0; m < BS_DM_N; m++) {
			const struct bs_dmres *r = &a->b[b].m[m];

			for (size_t k = 0; k < bench->n_runs[m]; k++) {
				const struct bs_drun *dr = &bench->runs[m][k];

				for (int s = 0; s < 2; s++)
					for (size_t i = 0; i < dr->side[s].n; i++) {
						const struct bs_iter_rec *x = dr->side[s].rec[i];

						bs_output_csv_field(f, suite);
						fputc(',', f);
						bs_output_csv_field(f, bench->name);
						fprintf(f,
							",%s,%d,%c,%zu,%" PRId64 ",%" PRId64
							",%" PRId64,
							bs_dmethod_duet_type(m), dr->index,
							s ? 'B' : 'A', i,
							dr->side[s].iv[i].start_ns,
							dr->side[s].iv[i].end_ns,
							dr->side[s].iv[i].end_ns -
							    dr->side[s].iv[i].start_ns);
						fprintf(f, ",%d,%s,%s,%u,%u,%llu,%.17g,", dr->run,
							bs_dmethod_name(m), dr->order, x->pid,
							x->tid, (unsigned long long)x->invocations,
							dr->side[s].score[i]);
						paired_with(f, r, k, s, i);
						fprintf(
						    f,
						    ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%u,%u,%u,%"
						    "llu,%u,%u\n",
						    (unsigned long long)x->preempted_ns,
						    (unsigned long long)x->runq_wait_ns,
						    (unsigned long long)x->blocked_ns,
						    (unsigned long long)x->irq_ns,
						    (unsigned long long)x->softirq_ns,
						    (unsigned long long)x->steal_ns,
						    (unsigned long long)x->sched_delay_ns, x->nvcsw,
						    x->nivcsw, x->migrations,
						    (unsigned long long)bs_duet_iter_lost_ns(x),
						    x->cpu_begin, x->cpu_end);
					}
			}
		}
	}
	return ferror(f) ? -EIO : 0;
}
