// SPDX-License-Identifier: MIT
/* criterion_probes.c - `--preset criterion`: boundaries, their description, attachment. */
#include "probe/criterion_probes.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "benchscope/record.h" /* struct bs_cpu_wait, named by the skeleton */
#include "benchscope.skel.h"
#include "benchscope/criterion.h"
#include "probe/boundary.h"
#include "probe/probes.h"
#include "util/diag.h"

static bool is_iter_site(const struct bs_crit_site *s)
{
	return s->kind == BS_CRIT_ITER || s->kind == BS_CRIT_ITER_CUSTOM ||
	       s->kind == BS_CRIT_ITER_BATCHED || s->kind == BS_CRIT_ITER_BATCHED_REF;
}

int bs_criterion_boundaries(struct bs_boundaries *b, const char *exe, char *err, size_t errlen)
{
	const struct bs_crit_site *first;
	int rc = bs_criterion_resolve(exe, &b->crit, err, errlen);

	if (rc)
		return rc;
	first = &b->crit.sites[0]; /* iteration sites come first */
	b->begin.kind = BS_SITE_UPROBE;
	b->end.kind = BS_SITE_URETPROBE;
	snprintf(b->begin.path, sizeof(b->begin.path), "%s", exe);
	snprintf(b->end.path, sizeof(b->end.path), "%s", exe);
	snprintf(b->begin.mangled, sizeof(b->begin.mangled), "%s", first->what);
	snprintf(b->end.mangled, sizeof(b->end.mangled), "%s", b->begin.mangled);
	b->begin.offset = b->end.offset = first->offset;
	if (b->crit.note[0])
		bs_diag("warning: %s", b->crit.note);
	return 0;
}

void bs_criterion_boundaries_json(const struct bs_boundaries *b, json_object *o)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < b->crit.n; i++) {
		const struct bs_crit_site *s = &b->crit.sites[i];
		json_object *so = json_object_new_object();

		json_object_object_add(so, "site", json_object_new_int64((int64_t)i));
		json_object_object_add(so, "kind",
				       json_object_new_string(bs_crit_kind_name(s->kind)));
		json_object_object_add(so, "function", json_object_new_string(s->what));
		json_object_object_add(so, "offset", json_object_new_int64((int64_t)s->offset));
		json_object_array_add(arr, so);
	}
	json_object_object_add(
	    o, "invocations",
	    json_object_new_string("criterion::bencher::Bencher.iters at the method's entry "
				   "(offset from the binary's DWARF)"));
	json_object_object_add(o, "sites", arr);
	if (b->crit.note[0])
		json_object_object_add(o, "note", json_object_new_string(b->crit.note));
}

int bs_criterion_attach(struct bs_probes *p, const struct bs_boundaries *b, char *err,
			size_t errlen)
{
	struct benchscope_bpf *skel = p->skel;
	const char *path = b->begin.path;
	char desc[PATH_MAX + 300];
	int rc;

	for (size_t i = 0; i < b->crit.n; i++) {
		const struct bs_crit_site *s = &b->crit.sites[i];
		uint64_t ck = BS_CRIT_COOKIE(s->off_a, s->off_b, s->arg, s->kind, i);

		if (is_iter_site(s)) {
			snprintf(desc, sizeof(desc), "uprobe+uretprobe %s:%s+0x%llx", path, s->what,
				 (unsigned long long)s->offset);
			if ((rc = bs_probes_attach_uprobe(p, skel->progs.iter_begin_criterion, path,
							  s->offset, false, ck, desc, true, err,
							  errlen)) ||
			    (rc = bs_probes_attach_uprobe(p, skel->progs.iter_end, path, s->offset,
							  true, 0, desc, false, err, errlen)))
				return rc;
		} else if (s->kind == BS_CRIT_WARM_UP) {
			snprintf(desc, sizeof(desc), "uprobe+uretprobe %s:%s+0x%llx (warm-up)",
				 path, s->what, (unsigned long long)s->offset);
			if ((rc = bs_probes_attach_uprobe(p, skel->progs.crit_warmup_enter, path,
							  s->offset, false, ck, desc, true, err,
							  errlen)) ||
			    (rc = bs_probes_attach_uprobe(p, skel->progs.crit_warmup_exit, path,
							  s->offset, true, ck, desc, false, err,
							  errlen)))
				return rc;
		} else {
			snprintf(desc, sizeof(desc), "uprobe %s:%s+0x%llx (benchmark id)", path,
				 s->what, (unsigned long long)s->offset);
			if ((rc = bs_probes_attach_uprobe(p, skel->progs.crit_bench_name, path,
							  s->offset, false, ck, desc, true, err,
							  errlen)))
				return rc;
		}
	}
	return 0;
}
