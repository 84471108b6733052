/* SPDX-License-Identifier: MIT */
/*
 * interrupt.h - Ctrl-C during a measurement: SIGINT, SIGTERM and SIGHUP set
 * a flag instead of ending benchscope, so that the command stops its
 * harness, keeps what was collected and exits with 130.
 */
#ifndef BENCHSCOPE_INTERRUPT_H
#define BENCHSCOPE_INTERRUPT_H

#include <signal.h>

/**
 * bs_interrupt_catch - from now on SIGINT, SIGTERM and SIGHUP set the flag
 * returned (0 until then; the same flag on every call), which the command
 * polls. Signals already pending are not cleared.
 */
volatile sig_atomic_t *bs_interrupt_catch(void);

#endif
