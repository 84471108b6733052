/* SPDX-License-Identifier: MIT */
/* render.h - the noise check's report: aligned text and JSON (docs/json-schema.md "Noise"). */
#ifndef BENCHSCOPE_NOISE_RENDER_H
#define BENCHSCOPE_NOISE_RENDER_H

#include <json-c/json.h>
#include <stdio.h>

#include "noise/check.h"
#include "noise/verdict.h"

/** The report as text: per CPU, per pair, other tasks, the recommendation. */
void bs_noise_render_text(FILE *f, const struct bs_noise_result *r,
			  const struct bs_noise_verdict *v);

/** The report as a new JSON object (caller puts it); NULL when out of memory. */
json_object *bs_noise_render_json(const struct bs_noise_result *r,
				  const struct bs_noise_verdict *v);

#endif
