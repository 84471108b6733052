// SPDX-License-Identifier: MIT
/* noise.c - interference flags per run of a compared benchmark (see noise.h). */
#include "compare/noise.h"

#include <stdio.h>
#include <string.h>

unsigned bs_cmp_run_noise(const struct bs_cmp_run *r)
{
	double busy = (double)r->busy_ns;
	unsigned f = 0;

	if (!r->busy_ns)
		return 0;
	if ((double)r->preempted_ns / busy >= BS_CMP_NOISE_PREEMPTED)
		f |= BS_CMP_NF_PREEMPTED;
	if ((double)r->steal_ns / busy >= BS_CMP_NOISE_STEAL)
		f |= BS_CMP_NF_STEAL;
	if ((double)r->migrations / (busy * 1e-9) >= BS_CMP_NOISE_MIGR_PER_S)
		f |= BS_CMP_NF_MIGRATIONS;
	return f;
}

void bs_cmp_bench_noise(const struct bs_cmp_bench *b, bool known, bool steal_known,
			struct bs_cmp_noise *out)
{
	memset(out, 0, sizeof(*out));
	out->known = known;
	out->steal_known = known && steal_known;
	out->n_runs = b->n_runs;
	if (!known)
		return;
	for (size_t i = 0; i < b->n_runs; i++) {
		const struct bs_cmp_run *r = &b->runs[i];
		unsigned f =
		    bs_cmp_run_noise(r) & (out->steal_known ? ~0u : ~(unsigned)BS_CMP_NF_STEAL);
		double busy = (double)r->busy_ns;

		out->flags |= f;
		out->n_flagged += f != 0;
		if (!r->busy_ns)
			continue;
		if ((double)r->preempted_ns / busy > out->preempted)
			out->preempted = (double)r->preempted_ns / busy;
		if ((double)r->steal_ns / busy > out->steal)
			out->steal = (double)r->steal_ns / busy;
		if ((double)r->migrations / (busy * 1e-9) > out->migr_per_s)
			out->migr_per_s = (double)r->migrations / (busy * 1e-9);
	}
}

char *bs_cmp_noise_text(const struct bs_cmp_noise *n, char *buf, size_t len)
{
	size_t o;

	if (!n->known) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	if (!n->n_flagged) {
		snprintf(buf, len, "-");
		return buf;
	}
	o = (size_t)snprintf(buf, len, "%zu/%zu run%s:", n->n_flagged, n->n_runs,
			     n->n_runs == 1 ? "" : "s");
	if (o < len && (n->flags & BS_CMP_NF_PREEMPTED))
		o += (size_t)snprintf(buf + o, len - o, " preempted %.1f %%", n->preempted * 100);
	if (o < len && (n->flags & BS_CMP_NF_STEAL))
		o += (size_t)snprintf(buf + o, len - o, "%s steal %.1f %%",
				      n->flags & BS_CMP_NF_PREEMPTED ? "," : "", n->steal * 100);
	if (o < len && (n->flags & BS_CMP_NF_MIGRATIONS))
		snprintf(buf + o, len - o, "%s %.0f migr/s",
			 n->flags & (BS_CMP_NF_PREEMPTED | BS_CMP_NF_STEAL) ? "," : "",
			 n->migr_per_s);
	return buf;
}
