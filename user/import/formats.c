// SPDX-License-Identifier: MIT
/* formats.c - the table of run-trace import formats (formats.h). */
#include "import/formats.h"

#include <string.h>

static const struct bs_import_format formats[] = {
    {"gbench", "Google Benchmark", bs_import_gbench},
    {"hyperfine", "hyperfine", bs_import_hyperfine},
    {"criterion", "criterion.rs", bs_import_criterion},
    {"go", "go test", bs_import_gotest},
    {"pyperf", "pyperf", bs_import_pyperf},
    {"jmh", "JMH", bs_import_jmh},
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

const struct bs_import_format *bs_import_format_find(const char *name)
{
	for (size_t i = 0; i < N_FORMATS; i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

const char *bs_import_format_names(void)
{
	return "gbench, hyperfine, criterion, go, pyperf, jmh";
}
