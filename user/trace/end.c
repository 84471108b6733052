// SPDX-License-Identifier: MIT
/* end.c - decode a trace's END block (see end.h). */
#include "trace/end.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/block_field.h"
#include "util/units.h"

static int oom(const struct bs_block_field *f)
{
	if (f->err && f->errlen)
		snprintf(f->err, f->errlen, "out of memory");
	return -ENOMEM;
}

static int decode_status(const struct bs_block_field *top, json_object *end, struct bs_run_end *e)
{
	struct bs_block_field f = *top;
	json_object *o;
	int ret = bs_field_obj(top, end, "status", BS_FIELD_OPTIONAL, &o);

	if (ret <= 0)
		return ret;
	f.prefix = "status.";
	e->status.present = 1;
	if ((ret = bs_field_int(&f, o, "pid", BS_FIELD_OPTIONAL, &e->status.pid)) < 0)
		return ret;
	e->status.has_pid = ret;
	if ((ret = bs_field_bool(&f, o, "exited", BS_FIELD_OPTIONAL, &e->status.exited)) < 0 ||
	    (ret = bs_field_int(&f, o, "exit_code", BS_FIELD_OPTIONAL, &e->status.exit_code)) < 0 ||
	    (ret = bs_field_bool(&f, o, "signaled", BS_FIELD_OPTIONAL, &e->status.signaled)) < 0 ||
	    (ret = bs_field_int(&f, o, "signal", BS_FIELD_OPTIONAL, &e->status.signal)) < 0)
		return ret;
	return 0;
}

static int decode_lost(const struct bs_block_field *top, json_object *end, struct bs_run_end *e)
{
	struct bs_block_field f = *top;
	json_object *o;
	int ret = bs_field_obj(top, end, "lost", BS_FIELD_OPTIONAL, &o);
	size_t n = 0;

	if (ret <= 0)
		return ret;
	f.prefix = "lost.";
	e->has_lost = 1;
	e->lost = calloc((size_t)json_object_object_length(o) + 1, sizeof(*e->lost));
	if (!e->lost)
		return oom(top);
	json_object_object_foreach(o, key, val)
	{
		(void)val;
		ret = bs_field_int(&f, o, key, BS_FIELD_REQUIRED, &e->lost[n].value);
		if (ret < 0)
			return ret;
		e->lost[n++].name = key;
	}
	e->n_lost = n;
	return 0;
}

static int decode_bpf_stats(const struct bs_block_field *top, json_object *end,
			    struct bs_run_end *e)
{
	struct bs_block_field f = *top;
	json_object *a;
	int ret = bs_field_arr(top, end, "bpf_stats", BS_FIELD_OPTIONAL, &a);
	size_t n;

	if (ret <= 0)
		return ret;
	e->has_bpf_stats = 1;
	n = json_object_array_length(a);
	e->bpf_stats = calloc(n ? n : 1, sizeof(*e->bpf_stats));
	if (!e->bpf_stats)
		return oom(top);
	f.prefix = "bpf_stats[].";
	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(a, i);
		struct bs_end_bpf_prog *b = &e->bpf_stats[i];

		if (!json_object_is_type(p, json_type_object))
			return bs_field_error(top, "bpf_stats",
					      "holds an element that is not an object");
		b->run_time_ns = NAN;
		if ((ret = bs_field_str(&f, p, "prog", BS_FIELD_OPTIONAL, &b->prog)) < 0 ||
		    (ret = bs_field_int(&f, p, "run_cnt", BS_FIELD_OPTIONAL, &b->run_cnt)) < 0 ||
		    (ret = bs_field_num(&f, p, "run_time_ns", BS_FIELD_OPTIONAL, &b->run_time_ns)) <
			0)
			return ret;
		e->n_bpf_stats++;
	}
	return 0;
}

static int decode_warnings(const struct bs_block_field *f, json_object *end, struct bs_run_end *e)
{
	int ret = bs_field_strings(f, end, "warnings", BS_FIELD_OPTIONAL, "an element",
				   &e->warnings, &e->n_warnings);

	return ret < 0 ? ret : 0;
}

static int decode_stop(const struct bs_block_field *top, json_object *end, struct bs_run_end *e)
{
	struct bs_block_field f = *top;
	json_object *o;
	int ret = bs_field_obj(top, end, "stop", BS_FIELD_OPTIONAL, &o);

	if (ret <= 0)
		return ret;
	f.prefix = "stop.";
	e->stop.present = 1;
	if ((ret = bs_field_int(&f, o, "forks", BS_FIELD_OPTIONAL, &e->stop.forks)) < 0)
		return ret;
	if ((ret = bs_field_count(&f, o, "compute_ns", BS_FIELD_OPTIONAL, &e->stop.compute_ns)) < 0)
		return ret;
	e->stop.has_compute_ns = ret;
	if ((ret = bs_field_count(&f, o, "wall_ns", BS_FIELD_OPTIONAL, &e->stop.wall_ns)) < 0)
		return ret;
	e->stop.has_wall_ns = ret;
	if ((ret = bs_field_bool(&f, o, "harness_failed", BS_FIELD_OPTIONAL,
				 &e->stop.harness_failed)) < 0)
		return ret;
	return 0;
}

int bs_run_end_decode(json_object *end, struct bs_run_end *e, char *err, size_t errlen)
{
	const struct bs_block_field f = {"END block", "", err, err ? errlen : 0};
	int ret;

	memset(e, 0, sizeof(*e));
	e->wall_ns = NAN;
	if (!end)
		return 0;
	e->present = 1;
	if ((ret = decode_status(&f, end, e)) < 0 ||
	    (ret = bs_field_bool(&f, end, "interrupted", BS_FIELD_OPTIONAL, &e->interrupted)) < 0 ||
	    (ret = bs_field_num(&f, end, "wall_ns", BS_FIELD_OPTIONAL, &e->wall_ns)) < 0 ||
	    (ret = decode_lost(&f, end, e)) < 0 || (ret = decode_bpf_stats(&f, end, e)) < 0 ||
	    (ret = decode_warnings(&f, end, e)) < 0 || (ret = decode_stop(&f, end, e)) < 0 ||
	    (ret = e->has_foreign_hits = bs_field_count(&f, end, "foreign_hits", BS_FIELD_OPTIONAL,
							&e->foreign_hits)) < 0 ||
	    (ret = e->has_unrecorded = bs_field_count(&f, end, "interferers_unrecorded_ns",
						      BS_FIELD_OPTIONAL, &e->unrecorded_ns)) < 0 ||
	    (ret = bs_field_count(&f, end, "interferers_unrecorded_iterations", BS_FIELD_OPTIONAL,
				  &e->unrecorded_iterations)) < 0) {
		bs_run_end_free(e);
		return ret;
	}
	return 0;
}

void bs_run_end_free(struct bs_run_end *e)
{
	if (!e)
		return;
	free(e->lost);
	free(e->bpf_stats);
	free(e->warnings);
	memset(e, 0, sizeof(*e));
}

const char *bs_run_end_unrecorded_text(const struct bs_run_end *e, const char *kind, char *buf,
				       size_t n)
{
	char t[32];

	if (!n)
		return buf;
	buf[0] = '\0';
	if (!e->has_unrecorded || !e->unrecorded_ns)
		return buf;
	snprintf(buf, n, "left out: %s charged while threads waited in %" PRIu64 " %s",
		 bs_fmt_ns((double)e->unrecorded_ns, t, sizeof(t)), e->unrecorded_iterations,
		 kind && !strcmp(kind, "go")
		     ? "Go runs without a record (a B with sub-benchmarks, a run ended by b.Skip, "
		       "the time before a b.ResetTimer(), a run still open when the run ended, a "
		       "lost record)"
		     : "iterations without a record (still open when the run ended, restarted by a "
		       "nested begin, or lost)");
	return buf;
}

const char *bs_run_end_lost_list(const struct bs_run_end *e, char *buf, size_t n)
{
	size_t off = 0;

	if (!n)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < e->n_lost && off < n; i++)
		off += (size_t)snprintf(buf + off, n - off, "%s%s %" PRId64, i ? ", " : "",
					e->lost[i].name, e->lost[i].value);
	return buf;
}
