/* SPDX-License-Identifier: MIT */
/* commands.h - the subcommands; each returns the process exit status. */
#ifndef BENCHSCOPE_COMMANDS_H
#define BENCHSCOPE_COMMANDS_H

/** `benchscope run`: 0 ok, 1 runtime error, 2 usage/input, 3 no iteration, 4 harness failed, 130
 * interrupted. */
int cmd_run(int argc, char **argv);

/**
 * `benchscope report TRACE [--json FILE|-] [--csv FILE|-] [--md FILE|-]
 * [--top N] [--quiet]`; argv[0] is "report". 0 ok, 1 an output could not be
 * written, 2 usage error or unreadable trace (one line on stderr).
 */
int cmd_report(int argc, char **argv);

/**
 * `benchscope compare [OPTIONS] A.trace B.trace`: 0 ok, 1 an output could not
 * be written, 2 usage or bad input, 5 regression beyond --fail-on-regression.
 */
int cmd_compare(int argc, char **argv);

/** `benchscope calibrate`: probe cost per kind. 0 ok, 1 could not measure, 2 usage. */
int cmd_calibrate(int argc, char **argv);

/** `benchscope duet`: 0 no regression, 1 regression beyond --fail-on-regression, 2+ errors. */
int cmd_duet(int argc, char **argv);

/**
 * `benchscope merge TRACE... -o FLEET`: 0 ok, 1 the output could not be
 * written, 2 usage or a bad or incompatible input (one line on stderr).
 */
int cmd_merge(int argc, char **argv);

/** `benchscope import`: 0 ok, 1 runtime error, 2 usage or bad input. */
int cmd_import(int argc, char **argv);

/** `benchscope replay`: 0 ok, 1 runtime error, 2 usage or bad input. */
int cmd_replay(int argc, char **argv);

/** `benchscope waste`: 0 ok, 1 runtime error, 2 usage or bad input, 4 the program failed. */
int cmd_waste(int argc, char **argv);

/** `benchscope doctor`: 0 everything run and duet need works, 6 something lacking (exit_status.h).
 */
int cmd_doctor(int argc, char **argv);

/** `benchscope noise`: 0 ok, 1 could not measure or write, 2 usage (exit_status.h). */
int cmd_noise(int argc, char **argv);

#endif
