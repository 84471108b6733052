/* SPDX-License-Identifier: MIT */
/*
 * options.h - the options of `benchscope waste` (struct bs_waste_args in
 * waste/profiler.h): the argp parser with its help text (ending with the
 * exit-status table), and the defaults.
 */
#ifndef BENCHSCOPE_WASTE_OPTIONS_H
#define BENCHSCOPE_WASTE_OPTIONS_H

#include <argp.h>

#include "waste/profiler.h"

/**
 * The argp parser of `benchscope waste`; its input is a struct
 * bs_waste_args set by bs_waste_args_default(). Parse with ARGP_IN_ORDER
 * (CMD and its arguments are left as a->cmd). Bad usage: one line, exit 2.
 */
extern const struct argp bs_waste_argp;

/** Fill @a with the defaults (all kinds, 5 % overhead, 1 % fp tolerance, 4 registers, ...). */
void bs_waste_args_default(struct bs_waste_args *a);

#endif
