// SPDX-License-Identifier: MIT
/* interrupt.c - SIGINT, SIGTERM, SIGHUP set a flag (see interrupt.h). */
#include "util/interrupt.h"

#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

volatile sig_atomic_t *bs_interrupt_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	return &interrupted;
}
