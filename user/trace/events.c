// SPDX-License-Identifier: MIT
/* events.c - decode a run's EVENT blocks (see events.h). */
#include "trace/events.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/block_field.h"

/* Room for one more element of *arr (n used, *cap allocated); NULL when out of memory. */
static void *grow(void **arr, size_t n, size_t *cap, size_t size)
{
	if (n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *na = realloc(*arr, ncap * size);

		if (!na)
			return NULL;
		*arr = na;
		*cap = ncap;
	}
	return (char *)*arr + n * size;
}

/* @key of @o is one of the strings @a (*out = 1) or @b (*out = 0). */
static int one_of(const struct bs_block_field *f, json_object *o, const char *key, const char *a,
		  const char *b, bool *out)
{
	const char *s = NULL;
	char why[96];
	int ret = bs_field_str(f, o, key, BS_FIELD_REQUIRED, &s);

	if (ret < 0)
		return ret;
	if (strcmp(s, a) && strcmp(s, b)) {
		snprintf(why, sizeof(why), "is \"%.32s\", expected \"%s\" or \"%s\"", s, a, b);
		return bs_field_error(f, key, why);
	}
	*out = !strcmp(s, a);
	return 0;
}

static int decode_fork(const struct bs_block_field *f, json_object *o, struct bs_fork_event *k)
{
	const enum bs_field_need req = BS_FIELD_REQUIRED, opt = BS_FIELD_OPTIONAL;
	int ret;

	memset(k, 0, sizeof(*k));
	k->exit_code = -1;
	if ((ret = bs_field_count(f, o, "fork", req, &k->fork)) < 0 ||
	    (ret = bs_field_count(f, o, "pid", req, &k->pid)) < 0 ||
	    (ret = bs_field_count(f, o, "start_ns", req, &k->start_ns)) < 0 ||
	    (ret = bs_field_count(f, o, "end_ns", req, &k->end_ns)) < 0 ||
	    (ret = bs_field_count(f, o, "warmup_iterations", req, &k->warmup_iterations)) < 0 ||
	    (ret = bs_field_count(f, o, "measurement_iterations", req,
				  &k->measurement_iterations)) < 0 ||
	    (ret = bs_field_bool(f, o, "warmup_stable", req, &k->warmup_stable)) < 0 ||
	    (ret = bs_field_bool(f, o, "short", req, &k->is_short)) < 0 ||
	    (ret = bs_field_str(f, o, "ended_by", req, &k->ended_by)) < 0 ||
	    (ret = bs_field_bool(f, o, "killed", opt, &k->killed)) < 0 ||
	    (ret = bs_field_int_range(f, o, "exit_code", opt, 0, 255, &k->exit_code)) < 0 ||
	    (ret = bs_field_int_range(f, o, "signal", opt, 1, 127, &k->signal)) < 0 ||
	    (ret = bs_field_bool(f, o, "interrupted", opt, &k->interrupted)) < 0 ||
	    (ret = bs_field_count(f, o, "calibration_runs", opt, &k->calibration_runs)) < 0 ||
	    (ret = bs_field_count(f, o, "after_stop_iterations", opt, &k->after_stop_iterations)) <
		0)
		return ret;
	if (strcmp(k->ended_by, "stop") && strcmp(k->ended_by, "exit") &&
	    strcmp(k->ended_by, "signal"))
		return bs_field_error(f, "ended_by", "is not \"stop\", \"exit\" or \"signal\"");
	return 0;
}

static int decode_decision(const struct bs_block_field *f, json_object *o,
			   struct bs_stop_decision_event *d)
{
	const enum bs_field_need req = BS_FIELD_REQUIRED;
	json_object *vals;
	int ret;

	memset(d, 0, sizeof(*d));
	d->json = o;
	if ((ret = one_of(f, o, "checkpoint", "fork", "warmup", &d->fork_checkpoint)) < 0 ||
	    (ret = bs_field_count(f, o, "fork", req, &d->fork)) < 0 ||
	    (ret = bs_field_count(f, o, "iteration", req, &d->iteration)) < 0 ||
	    (ret = bs_field_str(f, o, "criterion", req, &d->criterion)) < 0 ||
	    (ret = bs_field_arr(f, o, "values", req, &vals)) < 0 ||
	    (ret = bs_field_num(f, o, "threshold", req, &d->threshold)) < 0 ||
	    (ret = one_of(f, o, "decision", "stop", "continue", &d->stop)) < 0 ||
	    (ret = bs_field_bool(f, o, "bound", req, &d->bound)) < 0 ||
	    (ret = bs_field_str(f, o, "error", BS_FIELD_OPTIONAL, &d->error)) < 0 ||
	    (ret = bs_field_count(f, o, "compute_ns", req, &d->compute_ns)) < 0)
		return ret;
	d->n_values = json_object_array_length(vals);
	for (size_t i = 0; i < d->n_values; i++) {
		json_object *v = json_object_array_get_idx(vals, i);

		/* null: a value that was not finite */
		if (v && !json_object_is_type(v, json_type_int) &&
		    !json_object_is_type(v, json_type_double))
			return bs_field_error(f, "values", "holds an element that is not a number");
	}
	return 0;
}

int bs_run_events_add(struct bs_run_events *evs, json_object *ev, size_t block, char *err,
		      size_t errlen)
{
	char where[64];
	struct bs_block_field f = {where, "", err, err ? errlen : 0};
	const char *kind = NULL, **text;
	void *slot;
	int ret;

	evs->n_events++;
	snprintf(where, sizeof(where), "EVENT block #%zu", block);
	if ((ret = bs_field_str(&f, ev, "kind", BS_FIELD_OPTIONAL, &kind)) <= 0)
		return ret; /* no kind: not an event of a run */
	snprintf(where, sizeof(where), "EVENT block #%zu (%.20s)", block, kind);
	if (!strcmp(kind, "fork"))
		slot =
		    grow((void **)&evs->forks, evs->n_forks, &evs->cap_forks, sizeof(*evs->forks));
	else if (!strcmp(kind, "stop_decision"))
		slot = grow((void **)&evs->decisions, evs->n_decisions, &evs->cap_decisions,
			    sizeof(*evs->decisions));
	else if (!strcmp(kind, "warning"))
		slot = grow((void **)&evs->warnings, evs->n_warnings, &evs->cap_warnings,
			    sizeof(*evs->warnings));
	else if (!strcmp(kind, "note"))
		slot =
		    grow((void **)&evs->notes, evs->n_notes, &evs->cap_notes, sizeof(*evs->notes));
	else
		return 0;
	if (!slot) {
		if (f.err && f.errlen)
			snprintf(f.err, f.errlen, "out of memory");
		return -ENOMEM;
	}
	if (!strcmp(kind, "fork")) {
		ret = decode_fork(&f, ev, slot);
		evs->n_forks += !ret;
	} else if (!strcmp(kind, "stop_decision")) {
		ret = decode_decision(&f, ev, slot);
		evs->n_decisions += !ret;
	} else {
		text = slot;
		ret = bs_field_str(&f, ev, "text", BS_FIELD_REQUIRED, text);
		if (ret > 0 && !strcmp(kind, "warning"))
			evs->n_warnings++;
		else if (ret > 0)
			evs->n_notes++;
	}
	return ret < 0 ? ret : 0;
}

void bs_run_events_free(struct bs_run_events *evs)
{
	if (!evs)
		return;
	free(evs->forks);
	free(evs->decisions);
	free(evs->warnings);
	free(evs->notes);
	memset(evs, 0, sizeof(*evs));
}
