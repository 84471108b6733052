// SPDX-License-Identifier: MIT
/* lines_options.c - the output-line boundary options (lines_options.h). */
#include "probe/lines_options.h"

#include "probe/lines.h"

enum {
	OPT_LINE = 0x300,
	OPT_BEGIN_LINE,
	OPT_END_LINE,
	OPT_NAME_LINE,
	OPT_SCORE_UNIT,
};

static const struct argp_option lines_options[] = {
    {"line", OPT_LINE, "REGEX", 0,
     "each line the harness writes that matches REGEX ends an iteration and begins the next "
     "(the first match only begins one); POSIX extended regex with (?<score>...), "
     "(?<unit>...), (?<invocations>...), (?<name>...) groups",
     0},
    {"begin-line", OPT_BEGIN_LINE, "REGEX", 0,
     "an iteration begins at the write of a line matching REGEX (with --end-line)", 0},
    {"end-line", OPT_END_LINE, "REGEX", 0, "... and ends at the write of a line matching REGEX", 0},
    {"name-line", OPT_NAME_LINE, "REGEX", 0,
     "a line naming the benchmark that follows, from its (?<name>...) group", 0},
    {"score-unit", OPT_SCORE_UNIT, "UNIT", 0,
     "unit of (?<score>...) when the regex has no (?<unit>...): s, ms, us, ns (the "
     "iteration's time) or s/op ... ns/op (per invocation)",
     0},
    {0}};

static error_t lines_parse(int key, char *arg, struct argp_state *state)
{
	struct bs_lines_spec *l = state->input;

	switch (key) {
	case OPT_LINE:
		l->line = arg;
		break;
	case OPT_BEGIN_LINE:
		l->begin_line = arg;
		break;
	case OPT_END_LINE:
		l->end_line = arg;
		break;
	case OPT_NAME_LINE:
		l->name_line = arg;
		break;
	case OPT_SCORE_UNIT:
		l->score_unit = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp bs_lines_argp = {lines_options, lines_parse, NULL, NULL, NULL, NULL, NULL};
