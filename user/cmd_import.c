// SPDX-License-Identifier: MIT
/* cmd_import.c - `benchscope import` (not built yet). */
#include <stdio.h>

#include "commands.h"

int cmd_import(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "benchscope import: not available in this build yet\n");
	return 2;
}
