// SPDX-License-Identifier: MIT
/*
 * waste/profiler.c - the steps of one `benchscope waste` run: open, load,
 * attach, loop, finish, close (see waste/profiler.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "probe/boundary.h"
#include "probe/context.h"
#include "trace/trace.h"
#include "util/exit_status.h"
#include "util/monotime.h"
#include "waste.skel.h"
#include "waste/decode.h"
#include "waste/events.h"
#include "waste/freeze.h"
#include "waste/ibs.h"
#include "waste/overhead.h"
#include "waste/profiler.h"
#include "waste/sym.h"
#include "waste/threads.h"

/* BS_DEBUG set: diagnostics on stderr (read once, at start) */
bool bs_waste_debug;

static int libbpf_quiet(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	if (lvl == LIBBPF_WARN && bs_waste_debug)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/* The live line from now on; CMD prints on benchscope's stdout. */
static void line_start(struct bs_waste_run *w)
{
	bs_progress_init(&w->prog, "samples",
			 !w->a->quiet &&
			     (!w->a->cmd || bs_progress_beside_harness_here(true, false)));
}

int bs_waste_open(struct bs_waste_run *w, struct bs_waste_args *a)
{
	memset(w, 0, sizeof(*w));
	w->sess = (struct bs_session){.pid = -1, .go_fd = -1, .err_fd = -1};
	w->base_ns = NAN;
	w->cmd_cpu_ns = NAN;
	w->a = a;
	line_start(w);
	w->rng = a->seed * 0x9E3779B97F4A7C15ull + 1;
	w->th = calloc(BS_WASTE_MAX_THREADS, sizeof(*w->th));
	w->dec = bs_waste_decoder_new();
	w->sym = bs_waste_sym_new();
	if (!w->th || !w->dec || !w->sym) {
		fprintf(stderr, "benchscope waste: out of memory or no capstone decoder\n");
		return BS_EXIT_RUNTIME;
	}
	libbpf_set_print(libbpf_quiet);
	w->skel = waste_bpf__open();
	if (!w->skel) {
		fprintf(stderr, "benchscope waste: cannot open the BPF object: %s\n",
			strerror(errno));
		return BS_EXIT_RUNTIME;
	}
	w->skel->rodata->cfg_freeze = a->freeze;
	w->skel->rodata->cfg_self_tgid = (uint32_t)getpid();
	return 0;
}

/* The source --source resolves to here (w->src); -1 with w->err when it does not open. */
static int pick_source(struct bs_waste_run *w)
{
	struct bs_waste_sources s;
	int src;

	if (w->a->source == BS_SRC_TIMER) {
		w->src = BS_SRC_TIMER;
		return 0;
	}
	bs_waste_sources_probe(&s);
	src = bs_waste_source_pick(w->a->source, &s);
	if (src < 0) {
		snprintf(w->err, sizeof(w->err),
			 "--source %s: no such address sampling on this machine (PEBS: %s; IBS: "
			 "%s); use --source timer (see benchscope doctor)",
			 bs_waste_source_name(w->a->source), s.pebs_err ? s.pebs_why : "opens",
			 s.ibs_err ? s.ibs_why : "opens");
		return -1;
	}
	w->src = (enum bs_waste_source)src;
	return 0;
}

int bs_waste_load(struct bs_waste_run *w)
{
	struct bs_waste_args *a = w->a;
	int err;

	err = waste_bpf__load(w->skel);
	if (err) {
		fprintf(stderr, "benchscope waste: cannot load the BPF programs: %s%s\n",
			strerror(-err),
			err == -EPERM || err == -EACCES
			    ? " (needs root, or CAP_BPF and CAP_PERFMON)"
			    : "");
		return BS_EXIT_RUNTIME;
	}
	if (pick_source(w)) {
		fprintf(stderr, "benchscope waste: %s\n", w->err);
		return BS_EXIT_UNSUPPORTED;
	}
	w->period0 = w->period = a->period ? a->period : w->src == BS_SRC_TIMER ? 4000000 : 20000;
	if (w->src == BS_SRC_IBS)
		w->period0 = w->period = bs_waste_ibs_period(w->period);
	w->trap_ns = bs_waste_measure_trap_ns(w);
	if (isnan(w->trap_ns)) {
		fprintf(stderr, "benchscope waste: %s\n", w->err);
		return BS_EXIT_RUNTIME;
	}
	/* the calibration's own traps are not the program's cost */
	memcpy(w->cost.cpu_traps, w->skel->bss->cpu_traps, sizeof(w->cost.cpu_traps));
	if (a->freeze) {
		w->freeze_ns = bs_waste_measure_freeze_ns();
		if (isnan(w->freeze_ns))
			w->freeze_ns = 1e6; /* unknown: assume 1 ms, lengthen the period quickly */
	}
	return 0;
}

/* The trace, with the run's context (marked as waste's). 0 or the exit status. */
static int open_trace(struct bs_waste_run *w)
{
	struct bs_waste_args *a = w->a;
	struct bs_boundaries nob;

	memset(&nob, 0, sizeof(nob));
	w->ctxs = bs_context_json(a->cmd ? a->cmd : (char *[]){"-p", NULL}, &nob, NULL, NULL);
	if (w->ctxs) {
		json_object *c = json_tokener_parse(w->ctxs);

		free(w->ctxs);
		w->ctxs = NULL;
		if (c) {
			json_object_object_add(c, "subcommand", json_object_new_string("waste"));
			json_object_object_add(c, "tool", json_object_new_string("waste"));
			w->ctxs = strdup(json_object_to_json_string(c));
			json_object_put(c);
		}
	}
	{
		char e2[512];

		w->tw = bs_trace_create(a->trace, w->ctxs, e2, sizeof(e2));
		if (!w->tw) {
			fprintf(stderr, "benchscope waste: %s\n", e2);
			return 2;
		}
	}
	return 0;
}

/*
 * Spawn CMD held, or take -p PID, and follow its threads (w->root,
 * w->t_start). 0 or the exit status.
 */
static int follow_target(struct bs_waste_run *w)
{
	struct bs_waste_args *a = w->a;
	pid_t root;
	int err;

	if (a->cmd) {
		if (bs_session_spawn(&w->sess, a->cmd, NULL, w->err, sizeof(w->err))) {
			fprintf(stderr, "benchscope waste: %s\n", w->err);
			return 2;
		}
		root = w->root = w->sess.pid;
		err = bs_waste_add_process(w, root);
		if (err) {
			fprintf(stderr, "benchscope waste: %s\n",
				w->err[0] ? w->err : strerror(-err));
			bs_session_stop(&w->sess, 100);
			return BS_EXIT_RUNTIME;
		}
		/* the held child is still benchscope until it execs: a sample
		 * there would freeze it while this thread waits for the exec,
		 * so its sampler runs from the exec on */
		{
			struct bs_waste_thread *t0 = bs_waste_find_thread(w, root);

			if (t0 && t0->sfd >= 0)
				ioctl(t0->sfd, PERF_EVENT_IOC_DISABLE, 0);
			w->t_start = bs_mono_ns();
			if (bs_session_release(&w->sess, w->err, sizeof(w->err))) {
				fprintf(stderr, "benchscope waste: %s: %s\n", a->cmd[0], w->err);
				return 2;
			}
			if (t0 && t0->sfd >= 0)
				ioctl(t0->sfd, PERF_EVENT_IOC_ENABLE, 0);
		}
	} else {
		root = w->root = a->pid;
		err = bs_waste_add_process(w, root);
		if (err) {
			if (err == -ESRCH || err == -ENOENT)
				fprintf(stderr, "benchscope waste: process %d is gone\n",
					(int)root);
			else
				fprintf(stderr, "benchscope waste: %s\n",
					w->err[0] ? w->err : strerror(-err));
			return err == -ESRCH || err == -ENOENT ? 2 : 1;
		}
		w->t_start = bs_mono_ns();
	}
	return 0;
}

int bs_waste_attach(struct bs_waste_run *w)
{
	struct bs_waste_args *a = w->a;
	int err;

	err = waste_bpf__attach(w->skel);
	if (err) {
		fprintf(stderr, "benchscope waste: cannot attach the task tracepoints: %s\n",
			strerror(-err));
		return BS_EXIT_RUNTIME;
	}
	w->rb = ring_buffer__new(bpf_map__fd(w->skel->maps.rb), bs_waste_on_record, w, NULL);
	if (!w->rb) {
		fprintf(stderr, "benchscope waste: cannot create the ring buffer: %s\n",
			strerror(errno));
		return BS_EXIT_RUNTIME;
	}
	err = open_trace(w);
	if (err)
		return err;
	err = follow_target(w);
	if (err)
		return err;
	/* what was set up and the trap cost here, also in a log: a service's
	 * attach (-p) is done once it is said */
	if (!a->quiet)
		bs_progress_msg(&w->prog,
				"benchscope waste: source %s, period %" PRIu64
				"%s, %d watchpoints per thread, trap %.2f µs here%s",
				bs_waste_source_name(w->src), w->period,
				w->src == BS_SRC_PEBS  ? " events"
				: w->src == BS_SRC_IBS ? " ops"
						       : " ns",
				w->th[0].nbp, w->trap_ns / 1e3, a->freeze ? "" : ", no freeze");
	return 0;
}

void bs_waste_loop(struct bs_waste_run *w, const volatile sig_atomic_t *interrupted)
{
	struct bs_waste_args *a = w->a;
	pid_t root = w->root;
	struct rusage ru;
	int err;

	bs_waste_note_period(w, w->t_start, w->period, NAN);
	line_start(w);
	for (;;) {
		bs_progress_text(&w->prog, 0, 0, "%llu samples, %llu hits",
				 (unsigned long long)w->c.samples, (unsigned long long)w->c.hits);
		err = ring_buffer__poll(w->rb, w->root_exit_ns ? 2 : 20);
		if (err < 0 && err != -EINTR)
			break;
		if (*interrupted)
			break;
		bs_waste_adapt(w);
		if (a->freeze && !w->skel->bss->freeze_busy)
			bs_waste_unstick(w);
		{
			long h = bs_waste_read_hwm(root);

			if (h > w->maxrss)
				w->maxrss = h;
		}
		bs_trace_flush_if_due(w->tw);
		if (a->cmd) {
			pid_t r = wait4(w->sess.pid, &w->status, WNOHANG, &ru);

			if (r == w->sess.pid) {
				w->cmd_cpu_ns =
				    (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
				    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
				w->sess.exited = true;
				w->sess.wait_status = w->status;
				break;
			}
		} else if ((kill(root, 0) && errno == ESRCH) || w->root_exit_ns) {
			char st = bs_waste_task_state(root, root);

			if (!st || st == 'Z' || st == 'X')
				break; /* gone, or a zombie its parent has not reaped yet */
		}
	}
}

void bs_waste_finish(struct bs_waste_run *w, const volatile sig_atomic_t *interrupted)
{
	struct bs_waste_args *a = w->a;
	int i;

	w->t_end = bs_mono_ns();
	bs_progress_done(&w->prog);
	ring_buffer__consume(w->rb);
	if (w->root_exit_ns && w->root_exit_ns > w->t_start && w->root_exit_ns < w->t_end)
		w->t_end = w->root_exit_ns;
	bs_waste_resume_all(w);
	w->run_ns = (double)(w->t_end - w->t_start);
	{
		struct bs_waste_window last;

		bs_waste_account(w, w->t_end, &last); /* the last window's cost */
	}
	for (i = 0; i < BS_WASTE_MAX_THREADS; i++)
		if (w->th[i].used)
			bs_waste_drop_thread(w, &w->th[i]);
	if (a->cmd && !w->sess.exited && *interrupted) {
		bs_session_stop(&w->sess, 1000);
	}
	if (a->cmd && w->sess.exited) {
		if (WIFEXITED(w->status))
			w->exit_code = WEXITSTATUS(w->status);
		else
			w->exit_code = 128 + WTERMSIG(w->status);
		/* a warning even with -q: the run is kept and reported, but its
		 * figures come from a program that failed */
		if (WIFEXITED(w->status) && w->exit_code)
			fprintf(stderr, "benchscope waste: warning: %s exited with status %d\n",
				a->cmd[0], w->exit_code);
		else if (WIFSIGNALED(w->status) && WTERMSIG(w->status) == SIGTRAP &&
			 w->c.sigtraps_program) {
			char why[256];

			bs_waste_trap_describe(&w->first_trap, why, sizeof(why));
			fprintf(stderr,
				"benchscope waste: warning: %s was killed by signal %d (%s): %s\n",
				a->cmd[0], SIGTRAP, strsignal(SIGTRAP), why);
		} else if (WIFSIGNALED(w->status))
			fprintf(stderr,
				"benchscope waste: warning: %s was killed by signal %d (%s)\n",
				a->cmd[0], WTERMSIG(w->status), strsignal(WTERMSIG(w->status)));
	}
	if (a->cmd && a->baseline && !*interrupted) {
		if (!a->quiet) /* status: on a terminal only */
			bs_progress_note(&w->prog,
					 "benchscope waste: running the command once more "
					 "without benchscope (stdout to /dev/null)");
		if (bs_waste_baseline(a->cmd, &w->base_ns, &w->base_rss))
			w->base_ns = NAN;
	}
}

void bs_waste_close(struct bs_waste_run *w)
{
	int i;

	bs_waste_resume_all(w);
	if (w->a->cmd && w->sess.pid > 0 && !w->sess.exited)
		bs_session_stop(&w->sess, 500);
	if (w->a->cmd)
		bs_session_close(&w->sess);
	ring_buffer__free(w->rb);
	if (w->th)
		for (i = 0; i < BS_WASTE_MAX_THREADS; i++)
			if (w->th[i].used)
				bs_waste_drop_thread(w, &w->th[i]);
	waste_bpf__destroy(w->skel);
	if (w->tw)
		bs_trace_close(w->tw);
	bs_waste_result_free(&w->res);
	bs_waste_decoder_free(w->dec);
	bs_waste_sym_free(w->sym);
	free(w->th);
	bs_waste_procs_free(&w->procs);
	free(w->ctxs);
	free(w->steps);
}
