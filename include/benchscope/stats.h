/* SPDX-License-Identifier: MIT */
/*
 * stats.h - umbrella header of benchscope's statistics core (stats/).
 * Pure C on arrays, GSL underneath; see docs/references.md. Call bs_stats_init()
 * once per program before using it.
 */
#ifndef BENCHSCOPE_STATS_H
#define BENCHSCOPE_STATS_H

#include "benchscope/stats_desc.h"
#include "benchscope/stats_boot.h"
#include "benchscope/stats_compare.h"
#include "benchscope/stats_mwu.h"
#include "benchscope/stats_kde.h"
#include "benchscope/stats_stop.h"
#include "benchscope/stats_duet.h"
#include "benchscope/stats_duet_model.h"
#include "benchscope/stats_verdict.h"

#endif
