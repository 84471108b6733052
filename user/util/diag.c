// SPDX-License-Identifier: MIT
/* diag.c - the running subcommand's name and its stderr lines (see diag.h). */
#include "util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *command;

void bs_diag_set_command(const char *name)
{
	command = name;
}

const char *bs_diag_command(void)
{
	return command;
}

void bs_diag(const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	/* one fprintf, so one write: not cut by a harness writing to the same stderr */
	fprintf(stderr, "benchscope%s%s: %s\n", command ? " " : "", command ? command : "",
		n < 0 ? "out of memory (a message is lost)" : msg);
	if (n >= 0)
		free(msg);
}
