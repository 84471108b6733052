// SPDX-License-Identifier: MIT
/* setup.c - duet's options checked, the CONTEXT block (see setup.h). */
#include "duet/setup.h"
#include "probe/probe_count.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "duet/analysis.h"
#include "util/cli.h"

/* Split a command with wordexp(3), no command substitution. 0 or -EINVAL. */
static int split_words(const char *what, const char *text, wordexp_t *we, char *err, size_t errlen)
{
	int rc = wordexp(text, we, WRDE_NOCMD);
	const char *why = NULL;

	switch (rc) {
	case 0:
		if (we->we_wordc == 0) {
			wordfree(we);
			why = "it is empty";
		}
		break;
	case WRDE_BADCHAR:
		why =
		    "it has an unquoted | & ; < > ( ) { } or newline (no shell here: quote it, or "
		    "use sh -c '...')";
		break;
	case WRDE_CMDSUB:
		why = "command substitution is not allowed";
		break;
	case WRDE_SYNTAX:
		why = "unbalanced quotes";
		break;
	case WRDE_NOSPACE:
		why = "out of memory";
		break;
	default:
		why = "it cannot be split into words";
		break;
	}
	if (why) {
		snprintf(err, errlen, "%s '%s': %s", what, text, why);
		return -EINVAL;
	}
	return 0;
}

/* --probe-A/--probe-B 'OPTS': the probe options of `run`, as words. */
static int parse_probe_text(const char *text, int side, struct bs_duet_probe_opts *po,
			    wordexp_t *we, char *err, size_t errlen)
{
	char what[32];
	size_t i;

	snprintf(what, sizeof(what), "--probe-%c", "AB"[side]);
	if (split_words(what, text, we, err, errlen))
		return -EINVAL;
	memset(po, 0, sizeof(*po));
	for (i = 0; i < we->we_wordc; i++) {
		static const char *const names[] = {"--iter", "--begin", "--end", "--preset"};
		const char **dst[] = {&po->iter, &po->begin, &po->end, &po->preset};
		const char *w = we->we_wordv[i];
		size_t k, len;

		for (k = 0; k < 4; k++) {
			len = strlen(names[k]);
			if (!strncmp(w, names[k], len) && (w[len] == '=' || !w[len]))
				break;
		}
		if (k == 4) {
			snprintf(err, errlen,
				 "%s: unknown option '%s' (--iter, --begin, --end, --preset)", what,
				 w);
			wordfree(we);
			return -EINVAL;
		}
		if (w[len] == '=') {
			*dst[k] = w + len + 1;
		} else if (i + 1 < we->we_wordc) {
			*dst[k] = we->we_wordv[++i];
		} else {
			snprintf(err, errlen, "%s: %s needs a value", what, names[k]);
			wordfree(we);
			return -EINVAL;
		}
	}
	return 0;
}

/* --method: "auto" (alone; NULL too) sets *auto_pick and no method */
static int parse_methods(const char *s, int *methods, size_t *n, bool *auto_pick, char *err,
			 size_t errlen)
{
	char *copy, *save = NULL, *tok;
	bool seen[BS_DM_RUN_N] = {false};
	int m, rc = 0;

	*n = 0;
	*auto_pick = !s || !strcmp(s, "auto");
	if (*auto_pick)
		return 0;
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			for (m = 0; m < BS_DM_RUN_ALL; m++)
				if (!seen[m])
					seen[m] = true, methods[(*n)++] = m;
			continue;
		}
		for (m = 0; m < BS_DM_RUN_N; m++)
			if (!strcmp(tok, bs_duet_method_name(m)))
				break;
		if (m == BS_DM_RUN_N) {
			snprintf(err, errlen,
				 "--method takes auto, or async, sync, seq, interleaved or all "
				 "(comma-separated), not '%s'%s",
				 tok, strcmp(tok, "auto") ? "" : " (auto picks one design: alone)");
			rc = -EINVAL;
		} else if (!seen[m]) {
			seen[m] = true;
			methods[(*n)++] = m;
		}
	}
	free(copy);
	if (!rc && !*n) {
		snprintf(err, errlen, "--method names no method");
		rc = -EINVAL;
	}
	return rc;
}

/* crossover (--crossover, --swap-every) needs the sides apart: --cpus with
 * different sets, else A on the first CPU and B on the second; the
 * interleaved method runs on --cpus, else both sides on the last CPU */
static void setup_placement(const struct bs_duet_args *a, struct bs_duet_setup *s, char *err,
			    size_t errlen)
{
	bool ilv = false;

	for (size_t i = 0; i < s->n_methods; i++)
		ilv |= s->methods[i] == BS_DM_RUN_ILV;
	if (s->crossover || a->swap_every_s > 0) {
		const char *what = s->crossover ? "--crossover" : "--swap-every";

		if (!s->cpus.set && bs_duet_cpus_default(false, &s->cpus, err, errlen))
			return;
		if (CPU_EQUAL(&s->cpus.cpus[0], &s->cpus.cpus[1])) {
			snprintf(err, errlen,
				 "%s exchanges A's and B's CPUs: --cpus must give them different "
				 "ones, not A=%s,B=%s",
				 what, s->cpus.text[0], s->cpus.text[1]);
			return;
		}
	}
	if (!ilv || s->ilv_cpus.set)
		return;
	if (s->cpus.set)
		s->ilv_cpus = s->cpus;
	else
		bs_duet_cpus_default(true, &s->ilv_cpus, err, errlen);
}

static int parse_runs(const char *s, bool stop_ci, long *rmin, long *rmax, char *err, size_t errlen)
{
	const char *colon = s ? strchr(s, ':') : NULL;
	long v[2];

	if (!s) {
		*rmin = stop_ci ? 3 : 10;
		*rmax = stop_ci ? 50 : 10;
		return 0;
	}
	if (!colon) {
		if (bs_parse_long(s, 1, 100000, rmax))
			goto bad;
		*rmin = stop_ci ? (*rmax < 3 ? *rmax : 3) : *rmax;
		return 0;
	}
	if (bs_parse_range(s, 2, 1, 100000, v) || v[0] > v[1])
		goto bad;
	*rmin = v[0];
	*rmax = v[1];
	if (!stop_ci) {
		snprintf(err, errlen, "--runs MIN:MAX needs --stop-ci (without it, give --runs N)");
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen,
		 "--runs takes N or MIN:MAX (whole numbers, 1 <= MIN <= MAX), not '%s'", s);
	return -EINVAL;
}

static json_object *argv_json(char **argv)
{
	json_object *arr = json_object_new_array();

	for (; *argv; argv++)
		json_object_array_add(arr, json_object_new_string(*argv));
	return arr;
}

/*
 * Output-line boundaries for both sides. Only where the kernel need not know
 * an iteration's begin as it happens: the sync and interleaved designs hold a
 * side at it in the kernel (bpf/barrier.bpf.h), and with lines only user
 * space knows, after matching the regex, which write begins one.
 */
static void lines_setup(struct bs_duet_args *a, struct bs_duet_setup *s, char *err, size_t errlen)
{
	size_t i;
	int k;

	if (a->probe_text[0] || a->common.iter || a->common.begin || a->common.end ||
	    a->common.preset) {
		snprintf(err, errlen,
			 "give either output-line boundaries (--line, --begin-line/--end-line) or "
			 "--iter, --begin/--end, --preset, --probe-A/B");
		return;
	}
	if (s->auto_pick) {
		snprintf(err, errlen,
			 "output-line boundaries need --method async or seq (auto may pick "
			 "interleaved, which holds a side in the kernel at its iteration's begin: "
			 "with lines only user space knows where one begins)");
		return;
	}
	for (i = 0; i < s->n_methods; i++)
		if (s->methods[i] != BS_DM_RUN_ASYNC && s->methods[i] != BS_DM_RUN_SEQ) {
			snprintf(
			    err, errlen,
			    "--method %s cannot use output-line boundaries: it holds a side in "
			    "the kernel at its iteration's begin, and with lines only user space "
			    "knows, after matching the regex, which write begins one (use async "
			    "or seq)",
			    bs_duet_method_name(s->methods[i]));
			return;
		}
	if (bs_lines_cfg_init(&s->lines, &a->lines, err, errlen))
		return;
	for (k = 0; k < 2 && !err[0]; k++)
		bs_boundaries_setup_lines(&s->b[k], &s->lines, s->we_cmd[k].we_wordv[0], err,
					  errlen);
}

/* --probes for both sides (one BPF object: one count). One probe per
 * iteration needs no method that stops a side at its begin probe; auto
 * may pick such a method after the noise check. */
static void probes_setup(const struct bs_duet_args *a, struct bs_duet_setup *s, char *err,
			 size_t errlen)
{
	const char *who = s->auto_pick ? "--method auto (it may pick sync or interleaved)" : NULL;
	bool begin = s->auto_pick;
	int k;

	for (size_t i = 0; i < s->n_methods; i++)
		if (bs_duet_method_barrier(s->methods[i]) != BS_BAR_OFF) {
			begin = true;
			who = s->methods[i] == BS_DM_RUN_SYNC ? "--method sync"
							      : "--method interleaved";
		}
	for (k = 0; k < 2; k++)
		if (bs_probes_choose(&s->b[k], a->probes, begin, who, err, errlen))
			return;
	k = s->b[0].probes == 2 ? 0 : 1; /* auto: 1 only where both sides can */
	if (s->b[0].probes != s->b[1].probes) {
		char why[sizeof(s->b[k].probes_why)];

		snprintf(why, sizeof(why), "%s", s->b[k].probes_why);
		s->b[1 - k].probes = 2;
		snprintf(s->b[1 - k].probes_why, sizeof(s->b[1 - k].probes_why),
			 "auto: side %c cannot (%.200s)", "AB"[k], why);
	}
}

int bs_duet_setup(struct bs_duet_args *a, struct bs_duet_setup *s, char *err, size_t errlen)
{
	int k;

	err[0] = 0;
	for (k = 0; k < 2 && !err[0]; k++) {
		char what[8] = "-A";

		what[1] = "AB"[k];
		if (split_words(what, a->cmd[k], &s->we_cmd[k], err, errlen) == 0)
			s->have_cmd[k] = true;
	}
	if (!err[0] && (a->probe_text[0] || a->probe_text[1])) {
		if (!a->probe_text[0] || !a->probe_text[1])
			snprintf(err, errlen,
				 "--probe-A and --probe-B go together (or give one set "
				 "of boundaries for both)");
		else if (a->common.iter || a->common.begin || a->common.end || a->common.preset)
			snprintf(err, errlen,
				 "give either --probe-A/--probe-B or one set of "
				 "boundaries, not both");
		for (k = 0; k < 2 && !err[0]; k++)
			s->have_probe[k] = parse_probe_text(a->probe_text[k], k, &a->side[k],
							    &s->we_probe[k], err, errlen) == 0;
	} else {
		a->side[0] = a->side[1] = a->common;
	}
	if (!err[0] && a->shard_text)
		bs_shard_parse(a->shard_text, &a->shard, err, errlen);
	if (!err[0])
		parse_methods(a->methods, s->methods, &s->n_methods, &s->auto_pick, err, errlen);
	if (!err[0] && s->auto_pick && (a->crossover || a->swap_every_s > 0))
		snprintf(err, errlen,
			 "%s places the sides of a design you choose: give --method too (auto "
			 "exchanges the CPUs itself where the design runs on two)",
			 a->crossover ? "--crossover" : "--swap-every");
	if (!err[0] && s->auto_pick && a->noise_s <= 0)
		snprintf(err, errlen,
			 "--method auto picks the design from the noise check: give "
			 "--noise-check S > 0, or a --method");
	s->crossover = a->crossover;
	if (!err[0])
		parse_runs(a->runs, a->stop_ci > 0, &s->rmin, &s->rmax, err, errlen);
	if (!err[0] && a->cpus)
		bs_duet_cpus_parse(a->cpus, &s->cpus, err, errlen);
	if (!err[0] && bs_lines_spec_given(&a->lines))
		lines_setup(a, s, err, errlen);
	else
		for (k = 0; k < 2 && !err[0]; k++)
			if (bs_boundaries_setup(&s->b[k], a->side[k].iter, a->side[k].begin,
						a->side[k].end, a->side[k].preset,
						s->we_cmd[k].we_wordv[0], err, errlen) == 0)
				err[0] = 0;
	if (!err[0])
		probes_setup(a, s, err, errlen);
	if (!err[0] && !s->auto_pick)
		bs_duet_setup_plan(a, s, err, errlen);
	return err[0] ? -EINVAL : 0;
}

int bs_duet_setup_plan(const struct bs_duet_args *a, struct bs_duet_setup *s, char *err,
		       size_t errlen)
{
	err[0] = 0;
	setup_placement(a, s, err, errlen);
	if (!err[0] && bs_duet_schedule(s->methods, s->n_methods, (size_t)s->rmax,
					strcmp(a->schedule ? a->schedule : "rmit", "fixed") != 0,
					s->crossover, (uint64_t)a->seed, &s->plan, &s->n_plan))
		snprintf(err, errlen, "cannot plan the runs");
	return err[0] ? -EINVAL : 0;
}

int bs_duet_setup_add_word(struct bs_duet_setup *s, const char *word)
{
	size_t n = 3;
	char *q, *p;
	int k, rc = 0;

	for (const char *c = word; *c; c++)
		n += *c == '\'' ? 4 : 1;
	q = p = malloc(n);
	if (!q)
		return -ENOMEM;
	/* one single-quoted word: ' itself as '\'' */
	*p++ = '\'';
	for (const char *c = word; *c; c++)
		if (*c == '\'')
			p = stpcpy(p, "'\\''");
		else
			*p++ = *c;
	strcpy(p, "'");
	for (k = 0; k < 2 && !rc; k++)
		if (wordexp(q, &s->we_cmd[k], WRDE_APPEND | WRDE_NOCMD))
			rc = -EINVAL;
	free(q);
	return rc;
}

int bs_duet_stop_method(const struct bs_duet_setup *s)
{
	bool present[BS_DM_N] = {false};
	int h;

	for (size_t i = 0; i < s->n_methods; i++) {
		int m = bs_dmethod_parse(bs_duet_method_name(s->methods[i]));

		if (m >= 0)
			present[m] = true;
	}
	h = bs_duet_headline_method(present);
	for (size_t i = 0; h >= 0 && i < s->n_methods; i++)
		if (bs_dmethod_parse(bs_duet_method_name(s->methods[i])) == h)
			return s->methods[i];
	return -1;
}

void bs_duet_setup_free(struct bs_duet_setup *s)
{
	bs_lines_cfg_free(&s->lines);
	for (int k = 0; k < 2; k++) {
		if (s->have_cmd[k])
			wordfree(&s->we_cmd[k]);
		if (s->have_probe[k])
			wordfree(&s->we_probe[k]);
		s->have_cmd[k] = s->have_probe[k] = false;
	}
	free(s->plan);
	s->plan = NULL;
}

json_object *bs_duet_context(const struct bs_duet_args *a, const struct bs_duet_setup *s)
{
	json_object *extra, *duet, *meth;
	size_t i;
	bool aa;

	aa = !strcmp(a->cmd[0], a->cmd[1]) &&
	     (!a->probe_text[0] || !strcmp(a->probe_text[0], a->probe_text[1]));
	extra = json_object_new_object();
	duet = json_object_new_object();
	meth = json_object_new_array();
	json_object_object_add(extra, "mode", json_object_new_string("duet"));
	json_object_object_add(duet, "source", json_object_new_string("benchscope"));
	{
		const char *prog = s->we_cmd[0].we_wordv[0], *slash = strrchr(prog, '/');

		json_object_object_add(duet, "benchmark",
				       json_object_new_string(a->name ? a->name
							      : slash ? slash + 1
								      : prog));
	}
	{
		json_object *cmds = json_object_new_object();

		json_object_object_add(cmds, "A", argv_json(s->we_cmd[0].we_wordv));
		json_object_object_add(cmds, "B", argv_json(s->we_cmd[1].we_wordv));
		json_object_object_add(duet, "commands", cmds);
	}
	json_object_object_add(duet, "aa", json_object_new_boolean(aa));
	for (i = 0; i < s->n_methods; i++)
		json_object_array_add(meth,
				      json_object_new_string(bs_duet_method_name(s->methods[i])));
	json_object_object_add(duet, "methods", meth);
	json_object_object_add(duet, "runs_per_method", json_object_new_int64(s->rmax));
	json_object_object_add(duet, "schedule",
			       json_object_new_string(a->schedule ? a->schedule : "rmit"));
	json_object_object_add(duet, "seed", json_object_new_int64(a->seed));
	if (s->cpus.set) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "A", json_object_new_string(s->cpus.text[0]));
		json_object_object_add(c, "B", json_object_new_string(s->cpus.text[1]));
		json_object_object_add(duet, "cpus", c);
	} else {
		json_object_object_add(duet, "cpus", NULL);
	}
	if (s->crossover)
		json_object_object_add(duet, "crossover", json_object_new_boolean(1));
	if (a->swap_every_s > 0)
		json_object_object_add(duet, "swap_every_s",
				       json_object_new_double(a->swap_every_s));
	if (s->ilv_cpus.set) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "A", json_object_new_string(s->ilv_cpus.text[0]));
		json_object_object_add(c, "B", json_object_new_string(s->ilv_cpus.text[1]));
		json_object_object_add(duet, "interleaved_cpus", c);
	}
	json_object_object_add(duet, "smt_siblings", bs_duet_smt_siblings());
	json_object_object_add(duet, "min_overlap",
			       json_object_new_double(a->min_overlap > 0 ? a->min_overlap : 0.4));
	json_object_object_add(duet, "timeout_s", json_object_new_double(a->timeout_s));
	json_object_object_add(duet, "no_mds", json_object_new_boolean(a->no_mds));
	if (a->have_fail)
		json_object_object_add(duet, "fail_on_regression_pct",
				       json_object_new_double(a->fail_pct));
	json_object_object_add(
	    duet, "resamples",
	    json_object_new_int64(a->resamples > 0 ? a->resamples : BS_DUET_RESAMPLES_DEFAULT));
	if (a->stop_ci > 0) {
		json_object *sc = json_object_new_object();

		json_object_object_add(sc, "width", json_object_new_double(a->stop_ci));
		json_object_object_add(
		    sc, "method",
		    json_object_new_string(bs_duet_method_name(bs_duet_stop_method(s))));
		json_object_object_add(sc, "min_runs", json_object_new_int64(s->rmin));
		json_object_object_add(sc, "max_runs", json_object_new_int64(s->rmax));
		json_object_object_add(duet, "stop_ci", sc);
	}
	if (a->probe_text[0]) {
		char *bj = bs_boundaries_json(&s->b[1]);
		json_object *bo = bj ? json_tokener_parse(bj) : NULL;

		free(bj);
		json_object_object_add(duet, "boundaries_B", bo);
	}
	json_object_object_add(extra, "duet", duet);
	return extra;
}
