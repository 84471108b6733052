/* SPDX-License-Identifier: MIT */
/*
 * waste/procs.h - the processes a waste run followed, each by its pid and
 * its start time (field 22 of /proc/PID/stat, clock ticks since boot), so
 * that a SIGCONT meant for one never reaches a later process the kernel gave
 * the same pid (pids are reused within a run: pid_max is 32768 on many VMs,
 * and a service forking short-lived workers goes through them).
 */
#ifndef BENCHSCOPE_WASTE_PROCS_H
#define BENCHSCOPE_WASTE_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** One followed process. */
struct bs_waste_proc {
	pid_t pid;
	uint64_t start; /**< its start time, clock ticks since boot */
};

/** The followed processes; zeroed is empty. */
struct bs_waste_procs {
	struct bs_waste_proc *p; /**< n of them, cap allocated */
	size_t n, cap;
};

/**
 * bs_waste_stat_parse - the state letter and the start time of a
 * /proc/PID/stat or /proc/PID/task/TID/stat line @buf (NUL-terminated; the
 * command name in parentheses may hold spaces and parentheses). 0, or -1
 * when @buf is not such a line (*@state and *@start untouched). @start may
 * be NULL.
 */
int bs_waste_stat_parse(const char *buf, char *state, uint64_t *start);

/**
 * bs_waste_proc_stat - the state letter and start time of process @pid,
 * from /proc/PID/stat. 0; -ESRCH when it is gone; another -errno when the
 * file cannot be opened (EMFILE...).
 */
int bs_waste_proc_stat(pid_t pid, char *state, uint64_t *start);

/**
 * bs_waste_procs_add - remember process @pid as it is now (its start time
 * read here). Already there with the same start time: nothing; with another
 * (the pid was reused): the entry now names the new process. Returns 1 when
 * a process was added, 0 when it was there, -ENOMEM, or an error of
 * bs_waste_proc_stat (not remembered).
 */
int bs_waste_procs_add(struct bs_waste_procs *ps, pid_t pid);

/**
 * bs_waste_procs_cont - SIGCONT to each remembered process still there
 * (same pid, same start time); with @only_stopped, only to those stopped
 * (state 'T'). A process that is gone, or whose pid now names another, is
 * forgotten; one whose stat cannot be read for another reason is kept, and
 * continued only without @only_stopped. Returns the number of signals sent.
 */
size_t bs_waste_procs_cont(struct bs_waste_procs *ps, bool only_stopped);

/** bs_waste_procs_free - free what @ps holds and empty it. */
void bs_waste_procs_free(struct bs_waste_procs *ps);

#endif
