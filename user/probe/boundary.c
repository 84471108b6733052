// SPDX-License-Identifier: MIT
/* boundary.c - iteration boundaries: parse the options, resolve the sites. */
#include "probe/boundary.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binary/elfsym.h"
#include "binary/libpath.h"
#include "probe/lines.h"
#include "trace/bench_groups.h"
#include "probe/criterion_probes.h"

int bs_site_parse(const char *spec, enum bs_site_kind fn_kind, struct bs_site *site, char *err,
		  size_t errlen)
{
	const char *p = spec, *c1, *c2;

	memset(site, 0, sizeof(*site));
	if (!strncmp(spec, "usdt:", 5)) {
		p = spec + 5;
		c1 = strchr(p, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c1 || !c2 || c1 == p || c2 == c1 + 1 || !c2[1]) {
			snprintf(err, errlen,
				 "bad USDT probe '%s': expected usdt:BIN:PROVIDER:NAME", spec);
			return -EINVAL;
		}
		site->kind = BS_SITE_USDT;
		snprintf(site->bin, sizeof(site->bin), "%.*s", (int)(c1 - p), p);
		snprintf(site->symbol, sizeof(site->symbol), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
		snprintf(site->usdt_name, sizeof(site->usdt_name), "%s", c2 + 1);
		return 0;
	}
	c1 = strchr(p, ':');
	if (!c1 || c1 == p || !c1[1]) {
		snprintf(err, errlen,
			 "bad probe '%s': expected BIN:SYMBOL or usdt:BIN:PROVIDER:NAME", spec);
		return -EINVAL;
	}
	site->kind = fn_kind;
	snprintf(site->bin, sizeof(site->bin), "%.*s", (int)(c1 - p), p);
	snprintf(site->symbol, sizeof(site->symbol), "%s", c1 + 1);
	return 0;
}

int bs_boundaries_parse(struct bs_boundaries *b, const char *iter, const char *begin,
			const char *end, const char *preset, char *err, size_t errlen)
{
	int n = !!iter + !!(begin || end) + !!preset, rc;

	memset(b, 0, sizeof(*b));
	if (n == 0) {
		snprintf(err, errlen,
			 "no iteration boundaries: give --iter BIN:SYMBOL, --begin/--end, "
			 "--preset gbench|catch2|criterion|go|process, or --line/--begin-line/"
			 "--end-line");
		return -EINVAL;
	}
	if (n > 1) {
		snprintf(err, errlen, "give only one of --iter, --begin/--end, --preset");
		return -EINVAL;
	}
	if (preset) {
		if (!strcmp(preset, "gbench")) {
			b->mode = BS_BOUND_GBENCH;
		} else if (!strcmp(preset, "process")) {
			b->mode = BS_BOUND_PROCESS;
		} else if (!strcmp(preset, "catch2")) {
			b->mode = BS_BOUND_CATCH2;
		} else if (!strcmp(preset, "go")) {
			b->mode = BS_BOUND_GO;
		} else if (!strcmp(preset, "criterion")) {
			b->mode = BS_BOUND_CRITERION;
		} else {
			snprintf(
			    err, errlen,
			    "unknown preset '%s' (known: gbench, process, catch2, go, criterion)",
			    preset);
			return -EINVAL;
		}
		return 0;
	}
	b->mode = BS_BOUND_PAIR;
	if (iter) {
		if ((rc = bs_site_parse(iter, BS_SITE_UPROBE, &b->begin, err, errlen)))
			return rc;
		if (b->begin.kind == BS_SITE_USDT) {
			snprintf(err, errlen,
				 "--iter takes a function; use --begin/--end for USDT probes");
			return -EINVAL;
		}
		b->end = b->begin;
		b->end.kind = BS_SITE_URETPROBE;
		return 0;
	}
	if (!begin || !end) {
		snprintf(err, errlen, "--begin and --end go together");
		return -EINVAL;
	}
	if ((rc = bs_site_parse(begin, BS_SITE_UPROBE, &b->begin, err, errlen)) ||
	    (rc = bs_site_parse(end, BS_SITE_UPROBE, &b->end, err, errlen)))
		return rc;
	return 0;
}

static int resolve_site(struct bs_site *s, const char *exe, char *err, size_t errlen)
{
	uint64_t size;
	int rc = bs_resolve_binary(exe, s->bin, s->path, sizeof(s->path), err, errlen);

	if (rc)
		return rc;
	if (s->kind == BS_SITE_USDT)
		return bs_elf_check_usdt(s->path, s->symbol, s->usdt_name, err, errlen);
	return bs_elf_find_func(s->path, s->symbol, &s->offset, &size, s->mangled,
				sizeof(s->mangled), err, errlen);
}

/* --preset go: begin and end name the sites that delimit the iteration
 * (the others, runN's entry, ResetTimer's and Goexit's, are in go_sites) */
static int go_resolve(struct bs_boundaries *b, const char *exe, char *err, size_t errlen)
{
	int rc = bs_go_resolve(exe, &b->go_sites, &b->go_layout, err, errlen);

	if (rc)
		return rc;
	b->begin.kind = BS_SITE_UPROBE;
	b->end.kind = BS_SITE_UPROBE;
	if (!realpath(exe, b->begin.path))
		snprintf(b->begin.path, sizeof(b->begin.path), "%s", exe);
	snprintf(b->end.path, sizeof(b->end.path), "%s", b->begin.path);
	b->begin.offset = b->go_sites.start_now;
	b->end.offset = b->go_sites.stop_call;
	snprintf(b->begin.mangled, sizeof(b->begin.mangled), "%s+0x%x (call time.Now)",
		 BS_GO_START_SYM, b->go_sites.start_now_rel);
	snprintf(b->end.mangled, sizeof(b->end.mangled), "%s+0x%x (call StopTimer)", BS_GO_RUNN_SYM,
		 b->go_sites.stop_call_rel);
	return 0;
}

/* --preset catch2: the plan, and its first begin/end sites as b->begin/end
 * (what describes the boundaries and tells two programs' apart). */
static int catch2_resolve(struct bs_boundaries *b, const char *exe, char *err, size_t errlen)
{
	const struct bs_catch2_plan *c = &b->catch2;
	int rc = bs_catch2_resolve(exe, &b->catch2, err, errlen);

	if (rc)
		return rc;
	b->begin.kind = b->end.kind = BS_SITE_UPROBE;
	snprintf(b->begin.path, sizeof(b->begin.path), "%s", c->path);
	snprintf(b->end.path, sizeof(b->end.path), "%s", c->path);
	b->begin.offset = c->begin[0].offset;
	b->end.offset = c->end[0].offset;
	snprintf(b->begin.mangled, sizeof(b->begin.mangled),
		 "Catch::Benchmark::Detail::ChronometerModel<%.200s>::start()", c->clock);
	snprintf(b->end.mangled, sizeof(b->end.mangled),
		 "Catch::Benchmark::Detail::ChronometerModel<%.200s>::finish()", c->clock);
	return 0;
}

int bs_boundaries_resolve(struct bs_boundaries *b, const char *exe, char *err, size_t errlen)
{
	int rc;

	switch (b->mode) {
	case BS_BOUND_PAIR:
		if ((rc = resolve_site(&b->begin, exe, err, errlen)))
			return rc;
		return resolve_site(&b->end, exe, err, errlen);
	case BS_BOUND_GBENCH:
		b->begin.kind = BS_SITE_UPROBE;
		b->end.kind = BS_SITE_UPROBE;
		rc = bs_gbench_resolve(exe, b->begin.path, sizeof(b->begin.path), &b->begin.offset,
				       &b->end.offset, &b->layout, err, errlen);
		if (rc)
			return rc;
		snprintf(b->end.path, sizeof(b->end.path), "%s", b->begin.path);
		snprintf(b->begin.mangled, sizeof(b->begin.mangled), "%s",
			 "benchmark::State::StartKeepRunning()");
		snprintf(b->end.mangled, sizeof(b->end.mangled), "%s",
			 "benchmark::State::FinishKeepRunning()");
		return 0;
	case BS_BOUND_PROCESS:
	case BS_BOUND_LINES:
		return 0;
	case BS_BOUND_GO:
		return go_resolve(b, exe, err, errlen);
	case BS_BOUND_CATCH2:
		return catch2_resolve(b, exe, err, errlen);
	case BS_BOUND_CRITERION:
		return bs_criterion_boundaries(b, exe, err, errlen);
	default:
		snprintf(err, errlen, "no iteration boundaries");
		return -EINVAL;
	}
}

/*
 * Resolve the boundaries against their program (run's; each side's of a
 * duet). 0 or -errno (err set).
 */
int bs_boundaries_setup(struct bs_boundaries *b, const char *iter, const char *begin,
			const char *end, const char *preset, const char *prog, char *err,
			size_t errlen)
{
	char exe[PATH_MAX];
	int w;

	if (bs_boundaries_parse(b, iter, begin, end, preset, err, errlen))
		return -EINVAL;
	w = bs_which(prog, exe, sizeof(exe));
	if (w) {
		snprintf(err, errlen, "%s: %s", w == -ENOENT ? "command not found" : strerror(-w),
			 prog);
		return w;
	}
	return bs_boundaries_resolve(b, exe, err, errlen);
}

int bs_boundaries_setup_lines(struct bs_boundaries *b, const struct bs_lines_cfg *cfg,
			      const char *prog, char *err, size_t errlen)
{
	char exe[PATH_MAX];
	int w;

	memset(b, 0, sizeof(*b));
	b->mode = BS_BOUND_LINES;
	b->lines = cfg;
	w = bs_which(prog, exe, sizeof(exe));
	if (w) {
		snprintf(err, errlen, "%s: %s", w == -ENOENT ? "command not found" : strerror(-w),
			 prog);
		return w;
	}
	return 0;
}

void bs_site_describe(const struct bs_site *s, char *out, size_t outlen)
{
	switch (s->kind) {
	case BS_SITE_USDT:
		snprintf(out, outlen, "usdt %s:%s:%s", s->path[0] ? s->path : s->bin, s->symbol,
			 s->usdt_name);
		break;
	case BS_SITE_UPROBE:
	case BS_SITE_URETPROBE:
		snprintf(out, outlen, "%s %s:%s+0x%llx",
			 s->kind == BS_SITE_UPROBE ? "uprobe" : "uretprobe",
			 s->path[0] ? s->path : s->bin, s->mangled[0] ? s->mangled : s->symbol,
			 (unsigned long long)s->offset);
		break;
	default:
		snprintf(out, outlen, "none");
	}
}

/* The catch2 sites in the boundaries' JSON: begin/end name every site kind. */
static void catch2_json(json_object *o, const struct bs_catch2_plan *c)
{
	char buf[PATH_MAX + 800];

	for (int end = 0; end < 2; end++) {
		const struct bs_catch2_site *v = end ? c->end : c->begin;
		uint32_t ni = end ? c->n_end_inline : c->n_begin_inline;

		snprintf(
		    buf, sizeof(buf),
		    "uprobe %s:Catch::Benchmark::Detail::ChronometerModel<%.200s>::%s()+0x%llx "
		    "and %u devirtualised inline cop%s (the call of Clock::now())",
		    c->path, c->clock, end ? "finish" : "start", (unsigned long long)v[0].offset,
		    ni, ni == 1 ? "y" : "ies");
		json_object_object_add(o, end ? "end" : "begin", json_object_new_string(buf));
	}
	snprintf(buf, sizeof(buf),
		 "Catch::Benchmark::Chronometer k, passed to "
		 "Catch::Benchmark::Detail::BenchmarkFunction::model<Fun>::call (%u functions)",
		 c->n_call);
	json_object_object_add(o, "invocations", json_object_new_string(buf));
	json_object_object_add(o, "chronometer_layout", json_object_new_string(c->layout));
	snprintf(buf, sizeof(buf),
		 "uprobe %s:Catch::RunContext::benchmarkPreparing+0x%llx (%s) and %u devirtualised "
		 "inline cop%s (the reporter's call)",
		 c->name_path, (unsigned long long)c->name[0].offset,
		 c->name_abi == BS_CATCH2_NAME_STRINGREF ? "Catch::StringRef"
							 : "std::string const&",
		 c->n_name_inline, c->n_name_inline == 1 ? "y" : "ies");
	json_object_object_add(o, "names", json_object_new_string(buf));
}

static const char *const kinds[] = {
    [BS_BOUND_NONE] = "none",	  [BS_BOUND_PAIR] = "pair",
    [BS_BOUND_GBENCH] = "gbench", [BS_BOUND_PROCESS] = "process",
    [BS_BOUND_LINES] = "lines",	  [BS_BOUND_CATCH2] = "catch2",
    [BS_BOUND_GO] = "go",	  [BS_BOUND_CRITERION] = "criterion",
};

const char *bs_boundaries_kind(const struct bs_boundaries *b)
{
	if ((size_t)b->mode < sizeof(kinds) / sizeof(kinds[0]) && kinds[b->mode])
		return kinds[b->mode];
	return "none";
}

bool bs_boundaries_use_uprobes(const struct bs_boundaries *b)
{
	return b->mode != BS_BOUND_NONE && b->mode != BS_BOUND_LINES && b->mode != BS_BOUND_PROCESS;
}

bool bs_boundaries_calibrates(const struct bs_boundaries *b)
{
	return bs_kind_calibrates(bs_boundaries_kind(b));
}

/* Some word of @cmd (from the second) starts with @prefix. */
static bool cmd_has(char *const cmd[], const char *prefix)
{
	for (size_t i = 1; cmd && cmd[0] && cmd[i]; i++)
		if (!strncmp(cmd[i], prefix, strlen(prefix)))
			return true;
	return false;
}

const char *bs_boundaries_idle_hint(const struct bs_boundaries *b, char *const cmd[])
{
	switch (b->mode) {
	case BS_BOUND_GO:
		if (cmd_has(cmd, "-test.bench") || cmd_has(cmd, "--test.bench"))
			return NULL;
		return "the command has no -test.bench: Go runs no benchmark unless it selects "
		       "some, e.g. -test.bench=. -test.run='^$'";
	case BS_BOUND_CRITERION:
		if (cmd_has(cmd, "--bench"))
			return NULL;
		return "the command has no --bench: a criterion binary then runs each benchmark "
		       "once, as a test, and measures nothing (cargo bench passes --bench)";
	case BS_BOUND_CATCH2:
		if (cmd_has(cmd, "["))
			return NULL;
		return "the command names no tag: Catch2 runs a hidden test case (tag [.] or "
		       "[!benchmark]) only when the command line names it, e.g. '[!benchmark]'";
	default:
		return NULL;
	}
}

char *bs_boundaries_json(const struct bs_boundaries *b)
{
	json_object *o;
	char buf[PATH_MAX + 600];
	char *s;

	if (b->mode == BS_BOUND_LINES && b->lines) {
		o = bs_lines_cfg_json(b->lines);
		s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
		return s;
	}
	o = json_object_new_object();
	json_object_object_add(o, "kind", json_object_new_string(bs_boundaries_kind(b)));
	if (b->mode == BS_BOUND_PAIR || b->mode == BS_BOUND_GBENCH || b->mode == BS_BOUND_CATCH2 ||
	    b->mode == BS_BOUND_GO || b->mode == BS_BOUND_CRITERION) {
		bs_site_describe(&b->begin, buf, sizeof(buf));
		json_object_object_add(o, "begin", json_object_new_string(buf));
		bs_site_describe(&b->end, buf, sizeof(buf));
		json_object_object_add(o, "end", json_object_new_string(buf));
	} else if (b->mode == BS_BOUND_PROCESS) {
		json_object_object_add(o, "begin",
				       json_object_new_string("exec of a child process"));
		json_object_object_add(o, "end", json_object_new_string("exit of that process"));
	}
	if (b->mode == BS_BOUND_GBENCH && b->probes == 1)
		json_object_object_add(
		    o, "begin",
		    json_object_new_string("benchmark::State's timer_->start_real_time_ "
					   "(libbenchmark's own steady_clock reading at "
					   "ResumeTiming), read by the end probe"));
	if (b->mode == BS_BOUND_GO && b->probes == 1)
		json_object_object_add(
		    o, "begin",
		    json_object_new_string("testing.B.start (Go's own time.Now in StartTimer or "
					   "ResetTimer), read by the end probe"));
	json_object_object_add(o, "probes", json_object_new_int(b->probes == 1 ? 1 : 2));
	if (bs_boundaries_charges_by_iteration(b))
		json_object_object_add(o, "charges", json_object_new_string("iteration"));
	if (b->probes_why[0])
		json_object_object_add(o, "probes_choice", json_object_new_string(b->probes_why));
	if (b->mode == BS_BOUND_CRITERION)
		bs_criterion_boundaries_json(b, o);
	if (b->mode == BS_BOUND_CATCH2)
		catch2_json(o, &b->catch2);
	if (b->mode == BS_BOUND_GBENCH) {
		json_object_object_add(
		    o, "gbench_layout",
		    json_object_new_string(b->layout.version ? b->layout.version : "?"));
		json_object_object_add(o, "invocations",
				       json_object_new_string("benchmark::State::max_iterations"));
	}
	if (b->mode == BS_BOUND_GO) {
		json_object_object_add(o, "go_version",
				       json_object_new_string(b->go_layout.go_version));
		json_object_object_add(o, "invocations", json_object_new_string("testing.B.N"));
		json_object_object_add(o, "name", json_object_new_string("testing.B.name"));
		snprintf(buf, sizeof(buf), "uprobe %s:%s+0x%llx (name, n)", b->begin.path,
			 BS_GO_RUNN_SYM, (unsigned long long)b->go_sites.runn);
		json_object_object_add(o, "arm", json_object_new_string(buf));
		snprintf(buf, sizeof(buf), "uprobe %s:%s+0x%x (call time.Now)+0x%llx",
			 b->begin.path, BS_GO_RESET_SYM, b->go_sites.reset_now_rel,
			 (unsigned long long)b->go_sites.reset_now);
		json_object_object_add(o, "restart", json_object_new_string(buf));
		snprintf(buf, sizeof(buf), "uprobe %s:%s+0x%llx (drop)", b->begin.path,
			 BS_GO_GOEXIT_SYM, (unsigned long long)b->go_sites.goexit);
		if (b->go_sites.goexit)
			json_object_object_add(o, "abandon", json_object_new_string(buf));
	}
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

bool bs_boundaries_charges_by_iteration(const struct bs_boundaries *b)
{
	return b->probes != 1 && bs_boundaries_calibrates(b);
}

bool bs_boundaries_pair_charges_by_iteration(const struct bs_boundaries *a,
					     const struct bs_boundaries *b)
{
	return bs_boundaries_charges_by_iteration(a) &&
	       (!b || bs_boundaries_charges_by_iteration(b));
}
