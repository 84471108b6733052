/* SPDX-License-Identifier: MIT */
/* cmd_report.h - `benchscope report`: render any output from a trace alone. */
#ifndef BENCHSCOPE_CMD_REPORT_H
#define BENCHSCOPE_CMD_REPORT_H

/**
 * cmd_report - `benchscope report TRACE [--json FILE|-] [--csv FILE|-]
 * [--md FILE|-] [--top N] [--quiet]`; argv[0] is "report".
 * Returns the process exit code: 0 ok, 1 an output could not be written,
 * 2 usage error or unreadable trace (one line "benchscope report: ..." on
 * stderr).
 */
int cmd_report(int argc, char **argv);

#endif
