/* SPDX-License-Identifier: MIT */
/*
 * waste/events.h - the ring-buffer records of waste.bpf.c, handled
 * (include/benchscope/waste_record.h).
 *
 * A sample (on_sample): the instruction at the sampled ip decoded with the
 * sampled registers (waste/decode.h; the soft source walks forward to the
 * next access), a breakpoint of the thread picked by its reservoir and
 * re-armed on the access (waste/watch.h), the stopped thread group
 * continued (waste/freeze.h). A hit (on_hit): the trapping instruction
 * decoded, the pair classified (waste/class.h), both stacks symbolized
 * (waste/sym.h), the outcome aggregated into w->res and written to the
 * trace. A task record: a new thread followed, a process's watchpoints
 * dropped at exec, an exited thread dropped.
 */
#ifndef BENCHSCOPE_WASTE_EVENTS_H
#define BENCHSCOPE_WASTE_EVENTS_H

#include <stddef.h>

#include "benchscope/waste_record.h"

/**
 * bs_waste_trap_describe - one line on a SIGTRAP generated for the program
 * (@t, from on_signal) for the reader of a warning: what kind of trap (its
 * si_code), the thread, the ip, the CPU, the task's ptrace DR6. Writes at
 * most @len bytes (NUL included) into @buf. Pure.
 */
void bs_waste_trap_describe(const struct bs_waste_trap *t, char *buf, size_t len);

/**
 * bs_waste_on_record - the ring_buffer__new() callback; @ctx is the
 * struct bs_waste_run, @data one record of @len bytes (records of an
 * unknown type or too short are passed over). Returns 0 (go on).
 */
int bs_waste_on_record(void *ctx, void *data, size_t len);

#endif
