/* SPDX-License-Identifier: MIT */
/*
 * replay_report.h - the results of `benchscope replay`: per trace (one
 * benchmark each) and criterion, and in total over the traces per
 * criterion, the metrics of Laaber et al. 2020 §5.4 (Tables 2 and 3: time
 * saved versus the static configuration, the A/A test, the change rate);
 * as a table on stdout and as JSON. The computation is replay_set.h.
 */
#ifndef BENCHSCOPE_REPLAY_REPORT_H
#define BENCHSCOPE_REPLAY_REPORT_H

#include <stdio.h>

#include "stop/replay_set.h"

/**
 * bs_replay_print - the report as a table on stdout: the configurations, a
 * row per trace and criterion, the totals per criterion. Returns 0, or
 * -ENOMEM (the table is then incomplete).
 */
int bs_replay_print(const struct bs_replay_set *s);

/**
 * bs_replay_warn - one line on @f (stderr) per trace whose forks never
 * became stable within f_max, or were too short in the recording for the
 * dynamic configuration: "benchscope replay: warning: ...".
 */
void bs_replay_warn(FILE *f, const struct bs_replay_set *s);

/**
 * bs_replay_write_json - the report as JSON ("static", "dynamic", "level",
 * "resamples", "traces", "totals"; times in ns, shares as fractions, null
 * for a figure that is not finite) to @path, or to stdout for "-"
 * (util/output.h). Returns 0, or -EIO when it could not be written.
 */
int bs_replay_write_json(const struct bs_replay_set *s, const char *path);

#endif
