// SPDX-License-Identifier: MIT
/*
 * caps_bpf.c - the capability probes that load benchscope's own BPF object:
 * programs and maps load and attach, and what one probe hit of each kind
 * costs here (caps.h).
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "probe/calibrate.h"
#include "probe/caps.h"
#include "probe/probes.h"
#include "util/progress.h"

static void put(struct bs_cap *c, enum bs_cap_id id, enum bs_cap_state s, double v, const char *fig)
{
	c->id = id;
	c->state = s;
	c->value = v;
	snprintf(c->figure, sizeof(c->figure), "%s", fig);
}

static void map_type(struct bs_cap *c, enum bs_cap_id id, enum bpf_map_type t, const char *yes)
{
	int r = libbpf_probe_bpf_map_type(t, NULL);
	char buf[128];

	if (r > 0) {
		put(c, id, id == BS_CAP_TASK_STORAGE ? BS_CAP_INFO : BS_CAP_YES, NAN, yes);
		return;
	}
	snprintf(buf, sizeof(buf), "%s", r == 0 ? "the kernel rejects the map type" : strerror(-r));
	put(c, id, id == BS_CAP_TASK_STORAGE ? BS_CAP_INFO : BS_CAP_NO, NAN, buf);
}

int bs_caps_probe_bpf(struct bs_cap *caps, int calls, int rounds)
{
	static const struct {
		enum bs_cap_id id;
		enum bs_site_kind kind;
	} kinds[] = {{BS_CAP_UPROBE, BS_SITE_UPROBE},
		     {BS_CAP_URETPROBE, BS_SITE_URETPROBE},
		     {BS_CAP_USDT, BS_SITE_USDT}};
	struct bs_probes_opts po = {.interferers = true};
	struct bs_boundaries b = {.mode = BS_BOUND_NONE};
	struct bs_probes p;
	struct bs_progress line;
	struct bs_calib_steps steps = {0};
	char err[512], fig[sizeof(caps[0].figure)];
	double ns;
	size_t i;
	int rc;

	map_type(&caps[BS_CAP_RINGBUF], BS_CAP_RINGBUF, BPF_MAP_TYPE_RINGBUF,
		 "BPF_MAP_TYPE_RINGBUF");
	map_type(&caps[BS_CAP_TASK_STORAGE], BS_CAP_TASK_STORAGE, BPF_MAP_TYPE_TASK_STORAGE,
		 "not needed: thread state lives in a hash map");
	memset(&p, 0, sizeof(p));
	rc = bs_probes_load(&p, &b, &po, err, sizeof(err));
	if (rc) {
		snprintf(fig, sizeof(fig), "%.180s", err);
		put(&caps[BS_CAP_BPF_LOAD], BS_CAP_BPF_LOAD, BS_CAP_NO, NAN, fig);
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			put(&caps[kinds[i].id], kinds[i].id, BS_CAP_UNKNOWN, NAN,
			    "not measured: the BPF object does not load");
		bs_probes_destroy(&p);
		return rc;
	}
	put(&caps[BS_CAP_BPF_LOAD], BS_CAP_BPF_LOAD, BS_CAP_YES, NAN,
	    "scheduler, IRQ and process programs attached");
	bs_progress_init(&line, "timed rounds of the probe cost (3 kinds)", true);
	steps.line = &line;
	steps.total = sizeof(kinds) / sizeof(kinds[0]) * 2 * (uint64_t)(rounds > 0 ? rounds : 0);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		ns = bs_calibrate_kind(&p, kinds[i].kind, calls, rounds, NULL, &steps);
		if (isnan(ns)) {
			put(&caps[kinds[i].id], kinds[i].id, BS_CAP_NO, NAN,
			    "the probe does not attach or fire");
			continue;
		}
		snprintf(fig, sizeof(fig), "%.2f us per hit (median of %d rounds of %d)", ns / 1e3,
			 rounds, calls);
		put(&caps[kinds[i].id], kinds[i].id, BS_CAP_YES, ns, fig);
	}
	bs_progress_done(&line);
	bs_probes_destroy(&p);
	return 0;
}
