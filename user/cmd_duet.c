// SPDX-License-Identifier: MIT
/* cmd_duet.c - `benchscope duet` (not built yet). */
#include <stdio.h>

#include "commands.h"

int cmd_duet(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "benchscope duet: not available in this build yet\n");
	return 2;
}
