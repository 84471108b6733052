// SPDX-License-Identifier: MIT
/* run_all.c - the runs of a duet in one session (see run_all.h). */
#include "duet/run_all.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "duet/analysis.h"
#include "duet/run.h"
#include "util/monotime.h"
#include "util/progress.h"

/* Hooks: records of the run in progress go to its result. */
struct duet_live {
	struct bs_duet_runres *cur;
	struct bs_progress prog;
	size_t done, total;
};

static int live_iter(void *ctx, struct bs_iter_rec *r)
{
	struct duet_live *l = ctx;

	return l->cur ? bs_duet_runres_on_iter(l->cur, r) : 0;
}

static void live_proc(void *ctx, const struct bs_proc_rec *r)
{
	struct duet_live *l = ctx;

	if (l->cur)
		bs_duet_runres_on_proc(l->cur, r);
}

static void live_tick(void *ctx)
{
	struct duet_live *l = ctx;

	bs_progress_update(&l->prog, l->done, l->total);
}

/*
 * Keep benchscope's own threads (this one, the release thread started
 * after it) off the measured CPUs when every method's sides are pinned and
 * CPUs are left over: e.g. the interleaved method on the last CPU, or
 * --cpus A=0,B=0 on a 2-CPU machine. Unpinned sides would inherit the mask,
 * so nothing moves then. Returns the CPUs benchscope keeps to, as text
 * ("" when it stays where it was).
 */
static void keep_off_sides(const struct bs_duet_setup *s, char *text, size_t len)
{
	cpu_set_t used, allowed, rest;
	size_t off = 0;

	text[0] = 0;
	CPU_ZERO(&used);
	for (size_t i = 0; i < s->n_methods; i++) {
		const struct bs_duet_cpus *c =
		    s->methods[i] == BS_DM_RUN_ILV ? &s->ilv_cpus : &s->cpus;

		if (!c->set)
			return;
		CPU_OR(&used, &used, &c->cpus[0]);
		CPU_OR(&used, &used, &c->cpus[1]);
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return;
	CPU_XOR(&rest, &allowed, &used);
	CPU_AND(&rest, &rest, &allowed);
	if (!CPU_COUNT(&rest) || sched_setaffinity(0, sizeof(rest), &rest))
		return;
	for (int c = 0; c < CPU_SETSIZE && off < len; c++)
		if (CPU_ISSET(c, &rest))
			off += (size_t)snprintf(text + off, len - off, "%s%d", off ? "," : "", c);
}

int bs_duet_run_all(struct bs_measure *m, const struct bs_duet_args *a,
		    const struct bs_duet_setup *s, const struct bs_duet_design *d,
		    volatile sig_atomic_t *interrupted, struct bs_duet_tally *t, json_object **end)
{
	struct bs_duet_runres *res = NULL;
	struct bs_duet_env env = {0};
	struct duet_live live = {0};
	struct bs_barrier_rt rt = {0};
	char err[2048], kcont_why[512] = "";
	bool barrier = false;
	int rc = 1, null_fd = -1;
	size_t i;
	uint64_t t_start;

	memset(t, 0, sizeof(*t));
	bs_measure_set_hooks(m, live_iter, live_proc, &live);
	keep_off_sides(s, t->self_cpus, sizeof(t->self_cpus));
	for (i = 0; i < s->n_methods; i++)
		if (bs_duet_method_barrier(s->methods[i]) != BS_BAR_OFF && !rt.running &&
		    bs_barrier_rt_start(&rt, &m->probes, err, sizeof(err))) {
			fprintf(stderr, "benchscope duet: %s\n", err);
			goto out;
		}
	barrier = rt.running;
	/* BPF continues stopped sides itself where the kernel lets it: no
	 * wake-up of the release thread per iteration */
	if (barrier && a->barrier_user)
		snprintf(kcont_why, sizeof(kcont_why), "--barrier-release user");
	else if (barrier)
		rt.kcont = !bs_probes_kcont_enable(&m->probes, kcont_why, sizeof(kcont_why));
	if (!a->harness_output)
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	res = calloc(s->n_plan, sizeof(*res));
	if (!res) {
		fprintf(stderr, "benchscope duet: out of memory\n");
		goto out;
	}
	env.m = m;
	env.argv[0] = s->we_cmd[0].we_wordv;
	env.argv[1] = s->we_cmd[1].we_wordv;
	env.cpus = &s->cpus;
	env.ilv_cpus = &s->ilv_cpus;
	env.swap_every_s = a->swap_every_s;
	env.timeout_s = a->timeout_s;
	env.stdout_fd = null_fd;
	env.capture_stderr = !a->harness_output;
	env.user = a->user;
	env.interrupted = interrupted;
	env.rt = &rt;
	env.tick = live_tick;
	env.tick_ctx = &live;
	live.total = s->n_plan;
	/* with --harness-output the sides print on the terminal: no line */
	bs_progress_init(&live.prog, "runs",
			 !a->quiet &&
			     bs_progress_beside_harness_here(a->harness_output, a->harness_output));
	t_start = bs_mono_ns();
	for (i = 0; i < s->n_plan && !*interrupted; i++) {
		json_object *ev;
		int rr;

		live.cur = &res[i];
		rr = bs_duet_run_one(&env, &s->plan[i], (int)i, &res[i]);
		live.cur = NULL;
		t->n_done = i + 1;
		live.done = t->n_done;
		if (res[i].ok)
			t->n_ok++;
		ev = bs_duet_runres_event(
		    &res[i], res[i].plan.method == BS_DM_RUN_ILV ? &s->ilv_cpus : &s->cpus);
		if (bs_measure_event(m, ev))
			bs_progress_msg(&live.prog,
					"benchscope duet: warning: cannot write the run's event");
		json_object_put(ev);
		if (!res[i].ok && !res[i].interrupted)
			bs_progress_msg(&live.prog, "benchscope duet: run %zu (%s) failed: %s", i,
					bs_duet_method_name(s->plan[i].method), res[i].reason);
		if (rr) {
			t->measure_failed = true;
			break;
		}
		bs_progress_update(&live.prog, t->n_done, s->n_plan);
		if (d->checked && a->noise_every > 0 && t->n_done < s->n_plan &&
		    t->n_done % ((size_t)a->noise_every * s->n_methods) == 0 && !*interrupted) {
			/* the check draws its own line meanwhile (none with -q) */
			bs_progress_clear(&live.prog);
			ev = bs_duet_design_recheck(d, t->n_done, err, sizeof(err));
			if (!ev || bs_measure_event(m, ev))
				bs_progress_msg(
				    &live.prog,
				    "benchscope duet: warning: noise check before run %zu: %s",
				    t->n_done, ev ? "cannot write its event" : err);
			json_object_put(ev);
		}
		if (a->stop_ci > 0 && !res[i].interrupted) {
			double w;
			bool stop;

			struct bs_danalysis_opts ao = {.min_overlap = a->min_overlap};

			ev = bs_duet_stop_check(m, a->trace, (int)i, bs_duet_stop_method(s),
						(size_t)s->rmin, a->stop_ci, &ao, &w, &stop);
			if (!ev || bs_measure_event(m, ev))
				bs_progress_msg(&live.prog,
						"benchscope duet: warning: cannot write "
						"the stop decision's event");
			json_object_put(ev);
			if (stop) {
				t->stopped_early = t->n_done < s->n_plan;
				break;
			}
		}
	}
	bs_progress_done(&live.prog);
	bs_barrier_rt_stop(&rt);
	*end = json_object_new_object();
	{
		json_object *st = json_object_new_object();

		json_object_object_add(st, "total", json_object_new_int64((int64_t)t->n_done));
		json_object_object_add(st, "ok", json_object_new_int64((int64_t)t->n_ok));
		json_object_object_add(st, "failed",
				       json_object_new_int64((int64_t)(t->n_done - t->n_ok)));
		json_object_object_add(st, "planned", json_object_new_int64((int64_t)s->n_plan));
		json_object_object_add(st, "stopped_by_ci",
				       json_object_new_boolean(t->stopped_early));
		json_object_object_add(*end, "status_runs", st);
	}
	json_object_object_add(*end, "interrupted", json_object_new_boolean(*interrupted));
	json_object_object_add(*end, "benchscope_cpus",
			       t->self_cpus[0] ? json_object_new_string(t->self_cpus) : NULL);
	json_object_object_add(*end, "barrier_release",
			       barrier ? json_object_new_string(rt.kcont ? "bpf" : "user") : NULL);
	if (barrier && !rt.kcont)
		json_object_object_add(*end, "barrier_release_why",
				       json_object_new_string(kcont_why));
	json_object_object_add(*end, "wall_ns",
			       json_object_new_int64((int64_t)(bs_mono_ns() - t_start)));
	rc = 0;
out:
	bs_measure_set_hooks(m, NULL, NULL, NULL);
	bs_barrier_rt_stop(&rt);
	for (i = 0; res && i < s->n_plan; i++)
		bs_duet_runres_free(&res[i]);
	free(res);
	if (null_fd >= 0)
		close(null_fd);
	return rc;
}
