// SPDX-License-Identifier: MIT
/* collector.c - ring buffer -> trace. */
#include "probe/collector.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "probe/bench_name.h"
#include "probe/lines.h"
#include "probe/probes.h"
#include "trace/trace.h"

int bs_collector_put_iter(struct bs_collector *c, struct bs_iter_rec *r)
{
	c->iters++;
	if (c->on_iter)
		c->on_iter(c->hook_ctx, r);
	if (bs_trace_write_iter(c->trace, r))
		c->write_errors++;
	return 0;
}

static int store_iter(void *ctx, const struct bs_iter_rec *rec)
{
	struct bs_collector *c = ctx;
	struct bs_iter_rec r = *rec;

	/* its interferers' charges count (struct bs_interferer_table) */
	bs_interferer_table_recorded(&c->interferers, rec->pid, rec->index);
	if (c->lines) {
		bs_lines_segment(c->lines, rec);
		return 0;
	}
	return bs_collector_put_iter(c, &r);
}

static void store_bench(struct bs_collector *c, const struct bs_bench_rec *r)
{
	c->benches++;
	if (bs_trace_write_bench(c->trace, r))
		c->write_errors++;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct bs_collector *c = ctx;
	__u32 type;

	if (size < sizeof(type)) {
		c->unknown++;
		return 0;
	}
	memcpy(&type, data, sizeof(type));
	if (type == BS_REC_ITER && size >= sizeof(struct bs_iter_rec)) {
		struct bs_iter_rec r;

		memcpy(&r, data, sizeof(r));
		return store_iter(c, &r);
	}
	if (type == BS_REC_PROC && size >= sizeof(struct bs_proc_rec)) {
		struct bs_proc_rec r;

		memcpy(&r, data, sizeof(r));
		c->procs++;
		if (r.kind == BS_PROC_EXIT && (pid_t)r.pid == c->root)
			c->root_exit_seen = 1;
		if (bs_trace_write_proc(c->trace, &r))
			c->write_errors++;
		if (c->on_proc)
			c->on_proc(c->hook_ctx, &r);
		if (r.kind == BS_PROC_EXIT && c->lines)
			bs_lines_proc_exit(c->lines, r.pid);
		return 0;
	}
	if (type == BS_REC_BENCH && size >= sizeof(struct bs_bench_rec)) {
		struct bs_bench_rec r;

		memcpy(&r, data, sizeof(r));
		r.name[BS_BENCH_NAME_LEN - 1] = '\0';
		store_bench(c, &r);
		return 0;
	}
	if (type == BS_REC_BENCH_ADDR && size >= sizeof(struct bs_bench_addr_rec)) {
		struct bs_bench_addr_rec a;
		struct bs_bench_rec r;

		memcpy(&a, data, sizeof(a));
		if (bs_bench_name_read(&a, &r)) {
			c->bench_lost++;
			return 0;
		}
		c->bench_read_late++;
		store_bench(c, &r);
		return 0;
	}
	if (bs_interferer_table_take(&c->interferers, data, size))
		return 0;
	if (type == BS_REC_LINE && size >= sizeof(struct bs_line_rec) && c->lines) {
		struct bs_line_rec r;

		memcpy(&r, data, sizeof(r));
		bs_lines_write(c->lines, &r);
		return 0;
	}
	c->unknown++;
	return 0;
}

int bs_collector_init(struct bs_collector *c, int ringbuf_fd, struct bs_trace_writer *trace,
		      pid_t root)
{
	memset(c, 0, sizeof(*c));
	c->trace = trace;
	c->root = root;
	c->rb = ring_buffer__new(ringbuf_fd, on_record, c, NULL);
	if (!c->rb)
		return -errno;
	return 0;
}

int bs_collector_poll(struct bs_collector *c, int timeout_ms)
{
	int n = ring_buffer__poll(c->rb, timeout_ms), m;

	if (n < 0 && n != -EINTR)
		return n;
	/* the kernel side wakes us only when the ring fills up (see
	 * cfg_wakeup_bytes): take what waited, then store it */
	m = ring_buffer__consume(c->rb);
	if (m < 0 && m != -EINTR)
		return m;
	bs_trace_flush_if_due(c->trace);
	return (n > 0 ? n : 0) + (m > 0 ? m : 0);
}

int bs_collector_drain(struct bs_collector *c, struct bs_probes *p)
{
	int n = ring_buffer__consume(c->rb);
	long s;

	if (n < 0 && n != -EINTR)
		return n;
	s = bs_probes_drain_spill(p, store_iter, c);
	return s < 0 ? (int)s : 0;
}

void bs_collector_free(struct bs_collector *c)
{
	ring_buffer__free(c->rb);
	c->rb = NULL;
	bs_interferer_table_free(&c->interferers);
}
