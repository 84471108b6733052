// SPDX-License-Identifier: MIT
/* compat.c - may two traces join one fleet (compat.h). */
#include "fleet/compat.h"

#include <stdio.h>
#include <string.h>

#include "fleet/fleet.h"
#include "util/json.h"

/* 1 if @w selects benchmarks (a shard's filter), for comparing shards. */
static int selector_word(const char *w)
{
	size_t n = strlen(w);

	return !strncmp(w, "--benchmark_filter=", 19) || !strncmp(w, "-test.bench=", 12) ||
	       (n >= 4 && w[0] == '^' && w[1] == '(' && w[n - 2] == ')' && w[n - 1] == '$');
}

/* The words of argv array @cmd joined by spaces, selectors skipped if asked. */
static void join(json_object *cmd, int skip_sel, char *out, size_t len)
{
	size_t n = json_object_is_type(cmd, json_type_array) ? json_object_array_length(cmd) : 0;
	size_t at = 0;

	out[0] = '\0';
	if (!cmd) {
		snprintf(out, len, "(none)");
		return;
	}
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		const char *w = json_object_get_string(json_object_array_get_idx(cmd, i));

		if (!w || (skip_sel && selector_word(w)))
			continue;
		at += (size_t)snprintf(out + at, len - at, "%s%s", at ? " " : "", w);
	}
}

/* Compare one JSON member (as text); 1 and @why filled if it differs. */
static int differ(json_object *a, json_object *b, const char *what, char *why, size_t len)
{
	const char *ta = a ? json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN) : "(none)";
	const char *tb = b ? json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN) : "(none)";

	if (!strcmp(ta, tb))
		return 0;
	snprintf(why, len, "%s differs: %.150s vs %.150s", what, ta, tb);
	return 1;
}

static int differ_cmd(json_object *a, json_object *b, int shards, const char *what, char *why,
		      size_t len)
{
	char ja[1024], jb[1024];

	join(a, shards, ja, sizeof(ja));
	join(b, shards, jb, sizeof(jb));
	if (!strcmp(ja, jb))
		return 0;
	snprintf(why, len, "%s differs: '%.150s' vs '%.150s'", what, ja, jb);
	return 1;
}

int bs_fleet_compat(json_object *a, json_object *b, char *why, size_t len)
{
	const char *ka = bs_fleet_kind_of(a), *kb = bs_fleet_kind_of(b);
	json_object *sa = bs_json_get(a, "shard"), *sb = bs_json_get(b, "shard");
	json_object *ba = bs_json_get(a, "boundaries"), *bb = bs_json_get(b, "boundaries");
	json_object *da = bs_json_get(a, "duet"), *db = bs_json_get(b, "duet");
	int shards = sa && sb;
	static const char *const bkeys[] = {"kind", "begin", "end", "probes", "charges"};
	static const char *const dkeys[] = {"benchmark", "methods", "aa"};
	char what[64];

	if (strcmp(ka, kb)) {
		snprintf(why, len, "kind differs: %s trace vs %s trace", ka, kb);
		return 1;
	}
	if (!!sa != !!sb) {
		snprintf(why, len, "sharding differs: %s vs %s", sa ? "a shard" : "the whole suite",
			 sb ? "a shard" : "the whole suite");
		return 1;
	}
	if (shards &&
	    differ(bs_json_get(sa, "count"), bs_json_get(sb, "count"), "shard count", why, len))
		return 1;
	if (!strcmp(ka, "duet")) {
		json_object *ca = bs_json_get(da, "commands"), *cb = bs_json_get(db, "commands");

		if (differ_cmd(bs_json_get(ca, "A"), bs_json_get(cb, "A"), shards, "command of A",
			       why, len) ||
		    differ_cmd(bs_json_get(ca, "B"), bs_json_get(cb, "B"), shards, "command of B",
			       why, len))
			return 1;
		for (size_t i = 0; i < sizeof(dkeys) / sizeof(*dkeys); i++) {
			snprintf(what, sizeof(what), "duet %s", dkeys[i]);
			if (differ(bs_json_get(da, dkeys[i]), bs_json_get(db, dkeys[i]), what, why,
				   len))
				return 1;
		}
	} else if (differ_cmd(bs_json_get(a, "command"), bs_json_get(b, "command"), shards,
			      "command", why, len)) {
		return 1;
	}
	for (size_t i = 0; i < sizeof(bkeys) / sizeof(*bkeys); i++) {
		snprintf(what, sizeof(what), "boundaries %s", bkeys[i]);
		if (differ(bs_json_get(ba, bkeys[i]), bs_json_get(bb, bkeys[i]), what, why, len))
			return 1;
	}
	return differ(bs_json_get(a, "stop"), bs_json_get(b, "stop"), "stop configuration", why,
		      len);
}
