// SPDX-License-Identifier: MIT
/* cmd_waste.c - `benchscope waste` (not built yet). */
#include <stdio.h>

#include "commands.h"

int cmd_waste(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "benchscope waste: not available in this build yet\n");
	return 2;
}
