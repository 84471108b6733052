// SPDX-License-Identifier: MIT
/*
 * fuzz_json.c - libFuzzer harness of the JSON decoders: the documents of
 * `benchscope noise --json` and `doctor --json` and every JSON block of a
 * trace, read back the way benchscope reads them.
 *
 * Who reads that JSON: a `noise --json` document is read back inside duet
 * traces, as CONTEXT duet.noise_check and as the `check` of `noise_check`
 * EVENTs (docs/duet-trace.md), by trace/duet_blocks.c; nothing in benchscope
 * reads a `doctor --json` document back (only tests/kernel/test_doctor.c,
 * with json-c directly), so it is a seed here like the other documents.
 * One input, one JSON text, parsed as the trace loader parses a block (one
 * complete object, dataset.c), is decoded as:
 *  - a CONTEXT (trace/context.c), an END (trace/end.c), an EVENT
 *    (trace/events.c) of a run trace;
 *  - a duet trace's CONTEXT and EVENT (trace/duet_blocks.c), and a noise
 *    check document wrapped as a duet trace carries it (duet.noise_check,
 *    and a noise_check EVENT's check);
 *  - a waste trace's CONTEXT, EVENT and summary (trace/waste_blocks.c).
 * Any input may be refused; none may crash, leak or trip a sanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "trace/context.h"
#include "trace/dataset.h"
#include "trace/duet_blocks.h"
#include "trace/end.h"
#include "trace/events.h"
#include "trace/format.h"
#include "trace/waste_blocks.h"
#include "util/json.h"

static void run_blocks(json_object *doc)
{
	struct bs_run_context ctx;
	struct bs_run_end end;
	struct bs_run_events evs;
	char err[600], buf[256];

	if (bs_run_context_decode(doc, &ctx, err, sizeof(err)) == 0) {
		bs_run_context_degraded(&ctx, buf, sizeof(buf));
		bs_run_context_free(&ctx);
	}
	if (bs_run_end_decode(doc, &end, err, sizeof(err)) == 0)
		bs_run_end_free(&end);
	memset(&evs, 0, sizeof(evs));
	bs_run_events_add(&evs, doc, 3, err, sizeof(err));
	bs_run_events_free(&evs);
	bs_context_degraded(doc, buf, sizeof(buf));
}

/* bs_duet_blocks_decode of a dataset holding @context and the events @events. */
static void duet_decode(json_object *context, json_object *events)
{
	struct bs_dataset ds;
	struct bs_duet_blocks b;
	char err[600];

	memset(&ds, 0, sizeof(ds));
	ds.context = context;
	ds.events = events;
	bs_duet_blocks_decode(&ds, &b, err, sizeof(err));
	bs_duet_blocks_free(&b);
}

static void duet_blocks(json_object *doc)
{
	json_object *ev = json_object_new_array(), *ctx = json_object_new_object();
	json_object *duet = json_object_new_object(), *check = json_object_new_object();

	if (!ev || !ctx || !duet || !check)
		abort();
	/* the document as a duet trace's CONTEXT and as one of its events */
	json_object_array_add(ev, json_object_get(doc));
	duet_decode(doc, ev);
	/* the document as the noise check a duet embeds (duet.noise_check) and
	 * repeats between rounds (a noise_check EVENT's check) */
	json_object_object_add(ctx, "mode", json_object_new_string("duet"));
	json_object_object_add(duet, "noise_check", json_object_get(doc));
	json_object_object_add(ctx, "duet", duet);
	json_object_object_add(check, "kind", json_object_new_string("noise_check"));
	json_object_object_add(check, "before_run", json_object_new_int(0));
	json_object_object_add(check, "check", json_object_get(doc));
	json_object_array_add(ev, check);
	duet_decode(ctx, ev);
	json_object_put(ctx);
	json_object_put(ev);
}

static void waste_blocks(const uint8_t *data, size_t size, json_object *doc)
{
	struct bs_waste_block b;
	struct bs_waste_summary s;
	char err[600];

	bs_waste_context_is_waste(data, (uint32_t)size);
	if (bs_waste_block_decode(data, (uint32_t)size, &b, err, sizeof(err)) == 1)
		bs_waste_block_free(&b);
	if (bs_waste_summary_decode(doc, &s, err, sizeof(err)) == 0)
		bs_waste_summary_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_object *doc;

	if (size > BS_TRACE_MAX_BLOCK)
		return 0;
	doc = bs_json_parse_object(data, (uint32_t)size); /* as dataset.c reads a block */
	if (!doc)
		return 0;
	run_blocks(doc);
	duet_blocks(doc);
	waste_blocks(data, size, doc);
	json_object_put(doc);
	return 0;
}
