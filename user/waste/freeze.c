// SPDX-License-Identifier: MIT
/* waste/freeze.c - stopping and continuing the profiled program (see waste/freeze.h). */
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "benchscope/stats.h"
#include "util/monotime.h"
#include "waste.skel.h"
#include "waste/freeze.h"
#include "waste/procs.h"

/* State letter of thread @tid of @pid ('T': stopped), or 0. */
char bs_waste_task_state(pid_t pid, pid_t tid)
{
	char path[96], buf[512], st = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return bs_waste_stat_parse(buf, &st, NULL) ? 0 : st;
}

bool bs_waste_wait_stopped(pid_t pid, pid_t tid, uint64_t timeout_ns)
{
	uint64_t t0 = bs_mono_ns();
	int i;

	for (i = 0;; i++) {
		char st = bs_waste_task_state(pid, tid);

		if (st == 'T' || st == 't' || st == 0 || st == 'Z' || st == 'X')
			return true;
		if (bs_mono_ns() - t0 > timeout_ns)
			return false;
		if (i > 20) { /* the first reads spin: most stops land within them */
			struct timespec ts = {0, 10000};

			nanosleep(&ts, NULL);
		}
	}
}

void bs_waste_stop_account(struct bs_waste_stops *st, uint64_t sample_ns, uint64_t cont_ns,
			   uint64_t *stop_ns, uint64_t *wakes)
{
	uint64_t end = cont_ns, from;
	size_t i, n = st->n < BS_WASTE_CONT_RING ? st->n : BS_WASTE_CONT_RING;

	/* the first continue after the sample ended its stop (times increase) */
	for (i = n; i > 0; i--) {
		uint64_t t = st->cont[(st->n - i) % BS_WASTE_CONT_RING];

		if (t > sample_ns) {
			end = t;
			break;
		}
	}
	from = sample_ns > st->end_ns ? sample_ns : st->end_ns;
	if (end > from) {
		*stop_ns += end - from;
		if (sample_ns >= st->end_ns)
			(*wakes)++;
		st->end_ns = end;
	}
	st->cont[st->n++ % BS_WASTE_CONT_RING] = cont_ns;
}

bool bs_waste_resume(struct bs_waste_run *w, const struct bs_waste_sample *s)
{
	bool stopped;

	if (!s->frozen)
		return true;
	/* armed already: our SIGCONT must come after the stop */
	stopped = bs_waste_wait_stopped((pid_t)s->pid, (pid_t)s->tid, BS_WASTE_STOP_WAIT_NS);
	/* cleared before: the SIGCONT wakes the program, whose threads can take
	 * our CPU before we would clear it (natively a third of the samples
	 * were then skipped as busy) */
	w->skel->bss->freeze_busy = 0;
	kill((pid_t)s->pid, SIGCONT);
	if (!stopped) {
		w->c.stops_late++;
		return false;
	}
	w->c.stops++;
	bs_waste_stop_account(&w->stopped, s->ns, bs_mono_ns(), &w->c.stop_ns, &w->c.stop_wakes);
	return true;
}

void bs_waste_resume_all(struct bs_waste_run *w)
{
	bs_waste_procs_cont(&w->procs, false);
}

/*
 * A stop that overtook our SIGCONT would leave the program stopped for
 * good: with no frozen sample in flight, continue any followed process
 * that is stopped (checked every 20 ms).
 */
void bs_waste_unstick(struct bs_waste_run *w)
{
	if (!w->skel->bss->freeze_busy)
		w->c.unstuck += bs_waste_procs_cont(&w->procs, true);
}

/*
 * What continuing a stopped program costs it here, in ns of its run time,
 * beyond the interval it stood stopped (which the run counts apart, from
 * each sample to its SIGCONT): a child spins on a shared counter; in 21
 * SIGSTOP / wait-until-stopped / SIGCONT cycles (what a frozen sample does)
 * the 1 ms from the SIGCONT on is timed against its undisturbed rate; the
 * median cycle counts. On a VM most of it is waking the halted vCPU, and on
 * a loaded machine waiting for a CPU again. NaN when it cannot be measured.
 */
double bs_waste_measure_freeze_ns(void)
{
	volatile uint64_t *cnt =
	    mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t t0, t1, c0, c1, rate_t, rate_c;
	double rate, lost, lost_i[21];
	pid_t c;
	int i, st;

	if (cnt == MAP_FAILED)
		return NAN;
	c = fork();
	if (c < 0) {
		munmap((void *)cnt, 4096);
		return NAN;
	}
	if (c == 0) {
		for (;;)
			(*cnt)++;
	}
	for (i = 0; i < 1000 && !*cnt; i++)
		usleep(100);
	usleep(10000);
	t0 = bs_mono_ns();
	c0 = *cnt;
	usleep(30000);
	t1 = bs_mono_ns();
	c1 = *cnt;
	rate_t = t1 - t0;
	rate_c = c1 - c0;
	rate = (double)rate_c / (double)rate_t;
	for (i = 0; i < 21; i++) {
		kill(c, SIGSTOP);
		bs_waste_wait_stopped(c, c, BS_WASTE_STOP_WAIT_NS);
		/* from the SIGCONT on: the stopped interval before it is the
		 * run's, counted from each sample to its SIGCONT apart */
		c0 = *cnt;
		t0 = bs_mono_ns();
		kill(c, SIGCONT);
		usleep(1000);
		t1 = bs_mono_ns();
		c1 = *cnt;
		lost_i[i] = (double)(t1 - t0) - (double)(c1 - c0) / rate;
	}
	kill(c, SIGKILL);
	waitpid(c, &st, 0);
	munmap((void *)cnt, 4096);
	if (!(rate > 0))
		return NAN;
	/* the median: other programs' load on the CPUs spoils a mean */
	if (bs_quantile(lost_i, 21, 0.5, &lost))
		return NAN;
	return lost > 0 ? lost : 0;
}
