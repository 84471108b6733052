/* SPDX-License-Identifier: MIT */
/*
 * diag.h - the subcommand that runs, and the one-line messages on stderr
 * that name it: "benchscope report: cannot write x.json: ...", "benchscope
 * duet: warning: ...". For helpers that several subcommands share (the
 * report of a run trace: run and report; of a duet trace: duet and report;
 * boundaries and shards: run and duet), which are not told the command.
 */
#ifndef BENCHSCOPE_DIAG_H
#define BENCHSCOPE_DIAG_H

/**
 * bs_diag_set_command - name the subcommand that runs ("report", "duet"):
 * main.c calls it once, when argv[1] has chosen the subcommand. @name is
 * kept, not copied (argv, a literal); NULL forgets it.
 */
void bs_diag_set_command(const char *name);

/** bs_diag_command - the name bs_diag_set_command() gave, or NULL before it. */
const char *bs_diag_command(void);

/**
 * bs_diag - print one line on stderr: "benchscope CMD: " (the command of
 * bs_diag_set_command; "benchscope: " when none is set), the message of
 * @fmt (printf's, without the newline; "warning: ..." for a warning), and
 * a newline.
 */
__attribute__((format(printf, 1, 2))) void bs_diag(const char *fmt, ...);

#endif
