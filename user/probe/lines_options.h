/* SPDX-License-Identifier: MIT */
/*
 * lines_options.h - the output-line boundary options that `run` and `duet`
 * share: --line, --begin-line, --end-line, --name-line, --score-unit
 * (probe/lines.h). An argp child parser.
 */
#ifndef BENCHSCOPE_LINES_OPTIONS_H
#define BENCHSCOPE_LINES_OPTIONS_H

#include <argp.h>

/**
 * bs_lines_argp - the child parser of these options. Its input is the
 * struct bs_lines_spec the parent hands it in state->child_inputs at
 * ARGP_KEY_INIT; it only stores the strings given (NULL: not given), which
 * bs_lines_cfg_build (probe/lines.h) compiles and checks.
 */
extern const struct argp bs_lines_argp;

#endif
