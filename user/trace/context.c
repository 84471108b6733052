// SPDX-License-Identifier: MIT
/* context.c - decode a trace's context block (see context.h). */
#include "trace/context.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/block_field.h"

/* "name": [min, max] of two integers >= 0 (stop.warmup, stop.forks). */
static int decode_range(const struct bs_block_field *f, json_object *o, const char *key,
			uint64_t *lo, uint64_t *hi)
{
	json_object *a;
	int ret = bs_field_arr(f, o, key, BS_FIELD_OPTIONAL, &a);
	json_object *x, *y;

	if (ret <= 0)
		return ret;
	x = json_object_array_get_idx(a, 0);
	y = json_object_array_get_idx(a, 1);
	if (json_object_array_length(a) != 2 || !json_object_is_type(x, json_type_int) ||
	    !json_object_is_type(y, json_type_int) || json_object_get_int64(x) < 0 ||
	    json_object_get_int64(y) < 0)
		return bs_field_error(f, key, "is not [min, max] of two integers >= 0");
	*lo = (uint64_t)json_object_get_int64(x);
	*hi = (uint64_t)json_object_get_int64(y);
	return 1;
}

static int decode_stop(const struct bs_block_field *top, json_object *ctx, struct bs_stop_config *s)
{
	struct bs_block_field f = *top;
	json_object *o;
	int ret = bs_field_obj(top, ctx, "stop", BS_FIELD_OPTIONAL, &o);

	if (ret <= 0)
		return ret;
	f.prefix = "stop.";
	s->present = 1;
	s->json = o;
	if ((ret = bs_field_str(&f, o, "criterion", BS_FIELD_OPTIONAL, &s->criterion)) < 0 ||
	    (ret = bs_field_num(&f, o, "threshold", BS_FIELD_OPTIONAL, &s->threshold)) < 0 ||
	    (ret = bs_field_count(&f, o, "window", BS_FIELD_OPTIONAL, &s->window)) < 0 ||
	    (ret = decode_range(&f, o, "warmup", &s->wi_min, &s->wi_max)) < 0 ||
	    (ret = bs_field_count(&f, o, "measure", BS_FIELD_OPTIONAL, &s->mi)) < 0 ||
	    (ret = decode_range(&f, o, "forks", &s->f_min, &s->f_max)) < 0)
		return ret;
	return 0;
}

static int decode_shard(const struct bs_block_field *top, json_object *ctx, struct bs_shard_info *s)
{
	struct bs_block_field f = *top;
	json_object *o, *a;
	int ret = bs_field_obj(top, ctx, "shard", BS_FIELD_OPTIONAL, &o);

	if (ret <= 0)
		return ret;
	f.prefix = "shard.";
	s->present = 1;
	/* the array must be there before the index is judged, its names after */
	if ((ret = bs_field_int(&f, o, "index", BS_FIELD_REQUIRED, &s->index)) < 0 ||
	    (ret = bs_field_int(&f, o, "count", BS_FIELD_REQUIRED, &s->count)) < 0 ||
	    (ret = bs_field_int(&f, o, "listed", BS_FIELD_OPTIONAL, &s->listed)) < 0 ||
	    (ret = bs_field_arr(&f, o, "benchmarks", BS_FIELD_REQUIRED, &a)) < 0)
		return ret;
	if (s->count < 1 || s->index < 0 || s->index >= s->count)
		return bs_field_error(&f, "index", "is not 0 <= index < count");
	ret = bs_field_strings(&f, o, "benchmarks", BS_FIELD_REQUIRED, "a name", &s->benchmarks,
			       &s->n_benchmarks);
	return ret < 0 ? ret : 0;
}

static int decode_probe_cost(const struct bs_block_field *top, json_object *ctx,
			     struct bs_run_context *c)
{
	struct bs_block_field f = *top;
	json_object *o;
	int ret = bs_field_obj(top, ctx, "probe_cost_ns", BS_FIELD_OPTIONAL, &o);

	if (ret <= 0)
		return ret;
	f.prefix = "probe_cost_ns.";
	c->has_probe_cost = 1;
	if ((ret = bs_field_num(&f, o, "begin", BS_FIELD_OPTIONAL, &c->probe_cost_begin_ns)) < 0 ||
	    (ret = bs_field_num(&f, o, "end", BS_FIELD_OPTIONAL, &c->probe_cost_end_ns)) < 0 ||
	    (ret = bs_field_num(&f, o, "per_iteration", BS_FIELD_OPTIONAL,
				&c->probe_cost_per_iter_ns)) < 0 ||
	    (ret = bs_field_str(&f, o, "method", BS_FIELD_OPTIONAL, &c->probe_cost_method)) < 0)
		return ret;
	return 0;
}

static int decode_boundaries(const struct bs_block_field *top, json_object *ctx,
			     struct bs_run_context *c)
{
	struct bs_block_field f = *top;
	const char *charges = NULL;
	json_object *o;
	int ret = bs_field_obj(top, ctx, "boundaries", BS_FIELD_OPTIONAL, &o);

	if (ret <= 0)
		return ret;
	f.prefix = "boundaries.";
	if ((ret = bs_field_str(&f, o, "kind", BS_FIELD_OPTIONAL, &c->boundaries_kind)) < 0 ||
	    (ret = bs_field_str(&f, o, "begin", BS_FIELD_OPTIONAL, &c->boundaries_begin)) < 0 ||
	    (ret = bs_field_str(&f, o, "end", BS_FIELD_OPTIONAL, &c->boundaries_end)) < 0 ||
	    (ret = bs_field_int(&f, o, "probes", BS_FIELD_OPTIONAL, &c->probes)) < 0 ||
	    (ret = bs_field_str(&f, o, "probes_choice", BS_FIELD_OPTIONAL, &c->probes_choice)) <
		0 ||
	    (ret = bs_field_str(&f, o, "charges", BS_FIELD_OPTIONAL, &charges)) < 0)
		return ret;
	c->charges_by_iteration = charges && !strcmp(charges, "iteration");
	return 0;
}

static int decode_command(const struct bs_block_field *f, json_object *ctx,
			  struct bs_run_context *c)
{
	int ret = bs_field_strings(f, ctx, "command", BS_FIELD_OPTIONAL, "a word", &c->command,
				   &c->n_command);

	return ret < 0 ? ret : 0;
}

/* A boolean flag as 1 / 0, or -1 when absent. */
static int decode_flag(const struct bs_block_field *f, json_object *ctx, const char *key, int *out)
{
	bool b = false;
	int ret = bs_field_bool(f, ctx, key, BS_FIELD_OPTIONAL, &b);

	*out = ret > 0 ? b : -1;
	return ret < 0 ? ret : 0;
}

int bs_run_context_decode(json_object *ctx, struct bs_run_context *c, char *err, size_t errlen)
{
	const struct bs_block_field f = {"CONTEXT block", "", err, err ? errlen : 0};
	int ret;

	memset(c, 0, sizeof(*c));
	c->ncpus = -1;
	c->probe_cost_begin_ns = c->probe_cost_end_ns = c->probe_cost_per_iter_ns = NAN;
	c->stop.threshold = NAN;
	c->shard.index = c->shard.count = c->shard.listed = -1;
	c->top = -1;
	if ((ret = bs_field_str(&f, ctx, "tool", BS_FIELD_OPTIONAL, &c->tool)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "version", BS_FIELD_OPTIONAL, &c->version)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "hostname", BS_FIELD_OPTIONAL, &c->hostname)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "clock", BS_FIELD_OPTIONAL, &c->clock)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "kernel", BS_FIELD_OPTIONAL, &c->kernel)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "cpu_model", BS_FIELD_OPTIONAL, &c->cpu_model)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "hypervisor", BS_FIELD_OPTIONAL, &c->hypervisor)) < 0 ||
	    (ret = bs_field_str(&f, ctx, "started_at", BS_FIELD_OPTIONAL, &c->started_at)) < 0 ||
	    (ret = bs_field_int(&f, ctx, "ncpus", BS_FIELD_OPTIONAL, &c->ncpus)) < 0 ||
	    (ret = decode_flag(&f, ctx, "steal_accounting", &c->steal_accounting)) < 0 ||
	    (ret = decode_flag(&f, ctx, "sched_info", &c->sched_info)) < 0 ||
	    (ret = decode_command(&f, ctx, c)) < 0 || (ret = decode_boundaries(&f, ctx, c)) < 0 ||
	    (ret = decode_probe_cost(&f, ctx, c)) < 0 ||
	    (ret = decode_stop(&f, ctx, &c->stop)) < 0 ||
	    (ret = decode_shard(&f, ctx, &c->shard)) < 0 ||
	    (ret = bs_field_int_range(&f, ctx, "top", BS_FIELD_OPTIONAL, 0, 100000, &c->top)) < 0) {
		bs_run_context_free(c);
		return ret;
	}
	return 0;
}

void bs_run_context_free(struct bs_run_context *c)
{
	if (!c)
		return;
	free(c->command);
	free(c->shard.benchmarks);
	memset(c, 0, sizeof(*c));
}

const char *bs_run_context_degraded(const struct bs_run_context *c, char *buf, size_t len)
{
	bool no_steal = c->steal_accounting == 0, no_si = c->sched_info == 0;

	if (!no_steal && !no_si)
		return NULL;
	snprintf(buf, len, "%s%s%s",
		 no_steal ? "steal_ns reads 0 (kernel without steal accounting)" : "",
		 no_steal && no_si ? "; " : "",
		 no_si ? "sched_delay_ns reads 0 (kernel without sched_info)" : "");
	return buf;
}

const char *bs_context_degraded(json_object *ctx, char *buf, size_t len)
{
	struct bs_run_context c;
	const char *ret;

	if (bs_run_context_decode(ctx, &c, NULL, 0))
		return NULL;
	ret = bs_run_context_degraded(&c, buf, len);
	bs_run_context_free(&c);
	return ret;
}

enum bs_charge_scope bs_run_context_charge_scope(const struct bs_run_context *c)
{
	if (c->boundaries_kind && !strcmp(c->boundaries_kind, "lines"))
		return BS_CHARGES_WRITES;
	if (c->probes == 1)
		return BS_CHARGES_THREADS;
	return c->charges_by_iteration ? BS_CHARGES_ANALYSED : BS_CHARGES_ITERATIONS;
}

const char *bs_charge_scope_name(enum bs_charge_scope s)
{
	switch (s) {
	case BS_CHARGES_THREADS:
		return "threads";
	case BS_CHARGES_WRITES:
		return "writes";
	case BS_CHARGES_ANALYSED:
		return "analysed";
	default:
		return "iterations";
	}
}

const char *bs_charge_scope_text(enum bs_charge_scope s)
{
	switch (s) {
	case BS_CHARGES_THREADS:
		return "at any moment of the run: with one probe per iteration every thread of the "
		       "measured processes is followed from its first switch-in";
	case BS_CHARGES_WRITES:
		return "from each writing thread's first write on: output-line boundaries follow "
		       "the threads between their writes";
	case BS_CHARGES_ANALYSED:
		return "in the analysed iterations, kept per iteration";
	default:
		return "in every iteration with a record, those left out of the statistics "
		       "(calibration, warm-up) included";
	}
}
