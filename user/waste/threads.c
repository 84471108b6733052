// SPDX-License-Identifier: MIT
/* waste/threads.c - the followed threads and processes (see waste/threads.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "waste.skel.h"
#include "waste/overhead.h"
#include "waste/threads.h"
#include "waste/watch.h"

/*
 * Remember process @pid, which bs_waste_resume_all() continues at the end.
 * Called before a thread of it gets a sampler (the only thing that freezes
 * it), so a process that could not be remembered is never frozen. 0,
 * -ENOMEM or -ESRCH (gone).
 */
static int note_proc(struct bs_waste_run *w, pid_t pid)
{
	int rc = bs_waste_procs_add(&w->procs, pid);

	if (rc > 0)
		w->c.processes++;
	return rc < 0 ? rc : 0;
}

struct bs_waste_thread *bs_waste_find_thread(struct bs_waste_run *w, pid_t tid)
{
	int i;

	for (i = 0; i < BS_WASTE_MAX_THREADS; i++)
		if (w->th[i].used && w->th[i].tid == tid)
			return &w->th[i];
	return NULL;
}

void bs_waste_set_slot(struct bs_waste_run *w, uint32_t key, const struct bs_waste_slot *s)
{
	bpf_map__update_elem(w->skel->maps.slots, &key, sizeof(key), s, sizeof(*s), BPF_ANY);
}

void bs_waste_free_slot(struct bs_waste_run *w, struct bs_waste_thread *t, int r)
{
	struct bs_waste_slot s = {0};
	uint32_t key = (uint32_t)((t - w->th) * BS_WASTE_NREGS + r);

	if (t->bfd[r] >= 0)
		bs_waste_disarm_bp(t->bfd[r]);
	s.gen = t->pend[r].gen;
	bs_waste_set_slot(w, key, &s);
	if (t->pend[r].on)
		w->c.unresolved++;
	t->pend[r].on = false;
	bs_waste_reservoir_release(&t->res, r);
}

void bs_waste_drop_thread(struct bs_waste_run *w, struct bs_waste_thread *t)
{
	int r;

	for (r = 0; r < t->nbp; r++) {
		bs_waste_free_slot(w, t, r);
		bpf_link__destroy(t->blink[r]);
		close(t->bfd[r]);
		t->bfd[r] = -1;
		t->blink[r] = NULL;
	}
	bpf_link__destroy(t->slink);
	if (t->sfd >= 0)
		close(t->sfd);
	t->sfd = -1;
	t->slink = NULL;
	t->used = false;
}

/* Open the sampler and the breakpoints of @tid. 0, or -errno (message in w->err). */
int bs_waste_add_thread(struct bs_waste_run *w, pid_t tid, pid_t pid)
{
	LIBBPF_OPTS(bpf_perf_event_opts, o);
	struct bs_waste_thread *t = NULL;
	int i, fd, err;

	if (bs_waste_find_thread(w, tid))
		return 0;
	for (i = 0; i < BS_WASTE_MAX_THREADS; i++)
		if (!w->th[i].used) {
			t = &w->th[i];
			break;
		}
	if (!t) {
		snprintf(w->err, sizeof(w->err),
			 "more than %d threads at once: thread %d not followed",
			 BS_WASTE_MAX_THREADS, (int)tid);
		return -ENOSPC;
	}
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->sfd = -1;
	for (i = 0; i < BS_WASTE_NREGS; i++)
		t->bfd[i] = -1;
	for (i = 0; i < w->a->regs; i++) {
		fd = bs_waste_open_bp(tid);
		if (fd < 0) {
			if (fd == -ENOSPC && i > 0)
				break; /* registers taken (a debugger?): use what we have */
			err = fd;
			snprintf(w->err, sizeof(w->err),
				 "cannot open a hardware breakpoint on thread %d: %s%s", (int)tid,
				 strerror(-err),
				 err == -EACCES || err == -EPERM ? " (needs root or CAP_PERFMON)"
				 : err == -ENOENT || err == -EOPNOTSUPP || err == -EINVAL
				     ? " (no hardware breakpoint support here)"
				     : "");
			goto fail;
		}
		t->bfd[i] = fd;
		o.bpf_cookie = (uint64_t)(t - w->th) * BS_WASTE_NREGS + (uint64_t)i;
		t->blink[i] = bpf_program__attach_perf_event_opts(w->skel->progs.on_hit, fd, &o);
		if (!t->blink[i]) {
			err = -errno;
			snprintf(w->err, sizeof(w->err),
				 "cannot attach to a breakpoint of thread %d: %s", (int)tid,
				 strerror(-err));
			goto fail;
		}
		bs_waste_disarm_bp(fd); /* libbpf enabled it */
		t->nbp = i + 1;
	}
	err = note_proc(w, pid);
	if (err) {
		snprintf(w->err, sizeof(w->err), "%s: process %d not followed",
			 err == -ESRCH ? "gone" : strerror(-err), (int)pid);
		goto fail;
	}
	fd = bs_waste_open_sampler(tid, w->src, w->period, true);
	if (fd < 0) {
		err = fd;
		snprintf(w->err, sizeof(w->err), "cannot open the sampling event on thread %d: %s",
			 (int)tid, strerror(-err));
		goto fail;
	}
	t->sfd = fd;
	o.bpf_cookie = 0;
	t->slink = bpf_program__attach_perf_event_opts(w->skel->progs.on_sample, fd, &o);
	if (!t->slink) {
		err = -errno;
		snprintf(w->err, sizeof(w->err),
			 "cannot attach to the sampling event of thread %d: %s", (int)tid,
			 strerror(-err));
		goto fail;
	}
	bs_waste_reservoir_init(&t->res, (uint32_t)t->nbp, w->a->seed * 1000003u + (uint64_t)tid);
	t->cpu_ns = bs_waste_thread_cpu_ns(pid, tid); /* its cost is counted from here */
	t->used = true;
	w->c.threads++;
	return 0;
fail:
	t->used = true;
	bs_waste_drop_thread(w, t);
	return err;
}

/* Add every thread of @pid (/proc/PID/task). */
int bs_waste_add_process(struct bs_waste_run *w, pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	int err = 0, n = 0;
	uint32_t one = 1, key = (uint32_t)pid;

	bpf_map__update_elem(w->skel->maps.pids, &key, sizeof(key), &one, sizeof(one), BPF_ANY);
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		err = bs_waste_add_thread(w, (pid_t)tid, pid);
		if (err && err != -ESRCH)
			break;
		if (!err)
			n++;
		err = 0;
	}
	closedir(d);
	return err ? err : n ? 0 : -ESRCH;
}
