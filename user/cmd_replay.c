// SPDX-License-Identifier: MIT
/* cmd_replay.c - `benchscope replay` (not built yet). */
#include <stdio.h>

#include "commands.h"

int cmd_replay(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "benchscope replay: not available in this build yet\n");
	return 2;
}
