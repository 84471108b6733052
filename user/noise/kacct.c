// SPDX-License-Identifier: MIT
/* kacct.c - BPF accounting of the noise check's loops (noise/kacct.h). */
#include "noise/kacct.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

#include "probe/boundary.h"

/* The loop's boundaries: must stay real calls. */
__attribute__((noinline, used)) void bs_noise_loop_begin(void)
{
	DTRACE_PROBE(benchscope, noise_begin);
}

__attribute__((noinline, used)) void bs_noise_loop_end(void)
{
	DTRACE_PROBE(benchscope, noise_end);
}

static struct bs_kacct_sum *sum_of(struct bs_noise_kacct *k, pid_t pid)
{
	struct bs_kacct_sum *s;

	for (size_t i = 0; i < k->n_sums; i++)
		if (k->sums[i].pid == pid)
			return &k->sums[i];
	s = realloc(k->sums, (k->n_sums + 1) * sizeof(*s));
	if (!s)
		return NULL;
	k->sums = s;
	s = &s[k->n_sums++];
	memset(s, 0, sizeof(*s));
	s->pid = pid;
	return s;
}

static int add_iter(void *ctx, const struct bs_iter_rec *rec)
{
	struct bs_noise_kacct *k = ctx;
	struct bs_iter_rec r = *rec;
	struct bs_kacct_sum *s;

	if (r.type != BS_REC_ITER || r.end_ns < r.begin_ns || !(s = sum_of(k, (pid_t)r.pid)))
		return 0;
	s->iterations++;
	s->wall_ns += r.end_ns - r.begin_ns;
	s->runq_wait_ns += r.runq_wait_ns;
	s->preempted_ns += r.preempted_ns;
	s->irq_ns += r.irq_ns;
	s->softirq_ns += r.softirq_ns;
	s->steal_ns += r.steal_ns;
	return 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct bs_noise_kacct *k = ctx;
	struct bs_iter_rec r;

	if (bs_interferer_table_take(&k->interferers, data, size))
		return 0;
	if (size < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	return add_iter(ctx, &r);
}

int bs_noise_kacct_open(struct bs_noise_kacct *k, bool verbose, char *err, size_t errlen)
{
	struct bs_probes_opts po = {
	    .ringbuf_bytes = 1 << 20, .interferers = true, .verbose = verbose};
	struct bs_boundaries b;
	char self[PATH_MAX], begin[PATH_MAX + 64], end[PATH_MAX + 64];
	int rc;

	memset(k, 0, sizeof(*k));
	k->probes.stats_fd = -1;
	if (!realpath("/proc/self/exe", self)) {
		rc = -errno;
		snprintf(err, errlen, "cannot find benchscope's own executable: %s", strerror(-rc));
		return rc;
	}
	snprintf(begin, sizeof(begin), "usdt:%s:benchscope:noise_begin", self);
	snprintf(end, sizeof(end), "usdt:%s:benchscope:noise_end", self);
	if ((rc = bs_boundaries_parse(&b, NULL, begin, end, NULL, err, errlen)) ||
	    (rc = bs_boundaries_resolve(&b, self, err, errlen)) ||
	    (rc = bs_probes_load(&k->probes, &b, &po, err, errlen)) ||
	    (rc = bs_probes_attach_boundaries(&k->probes, &b, err, errlen)))
		goto fail;
	k->rb = ring_buffer__new(bs_probes_ringbuf_fd(&k->probes), on_record, k, NULL);
	if (!k->rb) {
		rc = -errno;
		snprintf(err, errlen, "cannot read the ring buffer: %s", strerror(-rc));
		goto fail;
	}
	k->on = 1;
	return 0;
fail:
	bs_noise_kacct_close(k);
	return rc;
}

int bs_noise_kacct_track(struct bs_noise_kacct *k, pid_t pid)
{
	return k->on ? bs_probes_track(&k->probes, pid) : -ENOTSUP;
}

int bs_noise_kacct_drain(struct bs_noise_kacct *k)
{
	struct bs_counters c;
	int n;

	if (!k->on)
		return -ENOTSUP;
	n = ring_buffer__consume(k->rb);
	bs_probes_drain_spill(&k->probes, add_iter, k);
	if (!bs_probes_counters(&k->probes, &c))
		k->lost = c.iter_lost;
	return n < 0 ? n : 0;
}

const struct bs_kacct_sum *bs_noise_kacct_sum(const struct bs_noise_kacct *k, pid_t pid)
{
	for (size_t i = 0; i < k->n_sums; i++)
		if (k->sums[i].pid == pid)
			return &k->sums[i];
	return NULL;
}

long bs_noise_kacct_interferers(const struct bs_noise_kacct *k,
				int (*fn)(void *ctx, const struct bs_interferer_rec *r), void *ctx)
{
	return k->on ? bs_probes_interferers(&k->probes, &k->interferers, fn, ctx) : 0;
}

void bs_noise_kacct_close(struct bs_noise_kacct *k)
{
	if (k->rb)
		ring_buffer__free(k->rb);
	bs_probes_destroy(&k->probes);
	bs_interferer_table_free(&k->interferers);
	free(k->sums);
	memset(k, 0, sizeof(*k));
	k->probes.stats_fd = -1;
}
