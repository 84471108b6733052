// SPDX-License-Identifier: MIT
/*
 * test_waste_blocks - the waste EVENT blocks decoded into typed structs
 * (trace/waste_blocks.h): every member read with its type; a block lacking a
 * required member or holding one of another type refused with -EBADMSG and a
 * message naming the key, by the decoder and by bs_waste_load_trace; the
 * report rendered from the structs (the kind table by util/table.c).
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

#include "trace/trace.h"
#include "trace/waste_blocks.h"
#include "waste/report.h"
#include "waste_fixture.h"

static int decode(const char *text, struct bs_waste_block *b, char *err, size_t errlen)
{
	err[0] = 0;
	return bs_waste_block_decode(text, (uint32_t)strlen(text), b, err, errlen);
}

/*
 * @text is refused with -EBADMSG and a one-line message naming the waste
 * block and "@key" (and saying it is missing, @missing)
 */
static void check_refused(const char *text, const char *key, bool missing)
{
	struct bs_waste_block b;
	char err[256], quoted[64];

	snprintf(quoted, sizeof(quoted), "\"%s\"", key);
	CHECK_INT_EQ(decode(text, &b, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, quoted) != NULL);
	CHECK(strstr(err, "corrupted waste ") == err && !strchr(err, '\n'));
	CHECK(!missing || strstr(err, "is missing"));
	CHECK(b.type == BS_WBLK_OTHER && b.json == NULL);
	if (!strstr(err, quoted))
		fprintf(stderr, "  %s: message '%s' does not name %s\n", text, err, quoted);
}

static void test_pair_and_ctx(void)
{
	struct bs_waste_block b;
	char err[256];

	CHECK_INT_EQ(decode("{\"waste\":\"pair\",\"kind\":\"silent-load\",\"wasteful\":false,"
			    "\"bytes\":4,\"ctx1\":3,\"ctx2\":7,\"tid\":42,\"ns\":123456789012}",
			    &b, err, sizeof(err)),
		     1);
	CHECK_INT_EQ(b.type, BS_WBLK_PAIR);
	CHECK(!strcmp(b.u.pair.kind, "silent-load"));
	CHECK(!b.u.pair.wasteful);
	CHECK_INT_EQ(b.u.pair.bytes, 4);
	CHECK_INT_EQ(b.u.pair.ctx1, 3);
	CHECK_INT_EQ(b.u.pair.ctx2, 7);
	CHECK_INT_EQ(b.u.pair.tid, 42);
	CHECK(b.u.pair.ns == 123456789012ull);
	bs_waste_block_free(&b);
	CHECK(b.json == NULL);

	CHECK_INT_EQ(decode("{\"waste\":\"ctx\",\"id\":5,\"frames\":\"f (x.c:1);main\"}", &b, err,
			    sizeof(err)),
		     1);
	CHECK_INT_EQ(b.type, BS_WBLK_CTX);
	CHECK_INT_EQ(b.u.ctx.id, 5);
	CHECK(!strcmp(b.u.ctx.frames, "f (x.c:1);main"));
	bs_waste_block_free(&b);

	/* not waste blocks: skipped */
	CHECK_INT_EQ(decode("{\"other\":1}", &b, err, sizeof(err)), 0);
	CHECK_INT_EQ(decode("not json", &b, err, sizeof(err)), 0);
	CHECK_INT_EQ(decode("{\"waste\":\"later\",\"x\":1}", &b, err, sizeof(err)), 0);
	CHECK(b.json == NULL);
}

static void test_refused(void)
{
	/* missing members */
	check_refused("{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
		      "\"ctx1\":0,\"ctx2\":1,\"tid\":1,\"ns\":1}",
		      "bytes", true);
	check_refused("{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
		      "\"bytes\":8,\"ctx1\":0,\"ctx2\":1,\"tid\":1}",
		      "ns", true);
	check_refused("{\"waste\":\"ctx\",\"frames\":\"f\"}", "id", true);
	check_refused("{\"waste\":\"summary\"}", "summary", true);
	/* members of another type, or out of range */
	check_refused("{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":1,"
		      "\"bytes\":8,\"ctx1\":0,\"ctx2\":1,\"tid\":1,\"ns\":1}",
		      "wasteful", false);
	check_refused("{\"waste\":\"pair\",\"kind\":3,\"wasteful\":true,"
		      "\"bytes\":8,\"ctx1\":0,\"ctx2\":1,\"tid\":1,\"ns\":1}",
		      "kind", false);
	check_refused("{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
		      "\"bytes\":\"8\",\"ctx1\":0,\"ctx2\":1,\"tid\":1,\"ns\":1}",
		      "bytes", false);
	check_refused("{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
		      "\"bytes\":8,\"ctx1\":-1,\"ctx2\":1,\"tid\":1,\"ns\":1}",
		      "ctx1", false);
	check_refused("{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":true,"
		      "\"bytes\":4294967296,\"ctx1\":0,\"ctx2\":1,\"tid\":1,\"ns\":1}",
		      "bytes", false);
	check_refused("{\"waste\":\"ctx\",\"id\":67108865,\"frames\":\"f\"}", "id", false);
	check_refused("{\"waste\":\"ctx\",\"id\":1,\"frames\":null}", "frames", false);
	check_refused("{\"waste\":7}", "waste", false);
}

static void test_summary_block(void)
{
	json_object *s = wfx_summary(), *ov;
	struct bs_waste_summary sum;
	char err[256];

	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), 0);
	CHECK(sum.present && sum.json == s);
	CHECK(!strcmp(sum.command, "./prog 1") && !strcmp(sum.source, "soft"));
	CHECK(!strcmp(sum.kinds, "dead-store,silent-load"));
	CHECK_NEAR(sum.period_ns, 4e6, 0, 0);
	CHECK_NEAR(sum.final_period_ns, 5e6, 0, 0);
	CHECK(sum.period == 4000000);
	CHECK_INT_EQ(sum.debug_registers, 3);
	CHECK(sum.freeze);
	/* the counters in the fixture's order: samples 4, samples_access 5, ... lost 23 */
	CHECK(sum.samples == 4 && sum.samples_access == 5 && sum.armed == 6);
	CHECK(sum.reservoir_drops == 7 && sum.unreadable == 8 && sum.hits == 10);
	CHECK(sum.unresolved == 12 && sum.noself == 13 && sum.stale_hits == 14);
	CHECK(sum.threads == 16 && sum.processes == 17 && sum.lost == 23);
	CHECK(sum.stops_late == 26);
	CHECK(sum.has_overhead && !sum.truncated);
	CHECK_NEAR(sum.overhead.run_ns, 2.5e9, 0, 0);
	CHECK(isnan(sum.overhead.baseline_ns) && isnan(sum.overhead.ratio)); /* null */
	CHECK_NEAR(sum.overhead.trap_ns, 1500, 0, 0);
	CHECK_NEAR(sum.overhead.sample_ns, 40000, 0, 0);
	CHECK_NEAR(sum.overhead.handling_ns, 2000, 0, 0);
	CHECK_NEAR(sum.overhead.budget_pct, 5, 0, 0);
	CHECK_NEAR(sum.overhead.estimated_pct, 1.25, 0, 0);
	CHECK_INT_EQ(sum.overhead.maxrss_kib, 2048);
	CHECK_INT_EQ(sum.overhead.baseline_maxrss_kib, 0);
	CHECK_INT_EQ(sum.overhead.tool_maxrss_kib, 9000);
	bs_waste_summary_free(&sum);
	CHECK(!sum.present && !sum.json);

	/* "stops_late" is absent in older traces: 0 */
	json_object_object_del(s, "stops_late");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), 0);
	CHECK(sum.present && sum.stops_late == 0 && sum.samples == 4);
	bs_waste_summary_free(&sum);

	/* a counter missing; an overhead member of another type; a string that is a number */
	json_object_object_del(s, "lost");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "corrupted waste summary: \"lost\" is missing") == err);
	CHECK(!sum.present && !sum.json);
	json_object_object_add(s, "lost", json_object_new_uint64(1));
	ov = json_object_object_get(s, "overhead");
	json_object_object_add(ov, "run_ns", json_object_new_string("2.5e9"));
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "corrupted waste summary: \"overhead.run_ns\"") == err);
	json_object_object_add(ov, "run_ns", json_object_new_double(1));
	/* "ratio" may be null (the fixture's), not missing */
	json_object_object_del(ov, "ratio");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"overhead.ratio\" is missing"));
	json_object_object_add(ov, "ratio", NULL);
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), 0);
	bs_waste_summary_free(&sum);
	/* a PMU source writes null periods in ns (valid JSON), read as NaN;
	 * earlier builds wrote NaN, which json-c reads too; missing is refused */
	json_object_object_add(s, "period_ns", NULL);
	json_object_object_add(s, "final_period_ns", json_object_new_double(NAN));
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), 0);
	CHECK(isnan(sum.period_ns) && isnan(sum.final_period_ns));
	bs_waste_summary_free(&sum);
	json_object_object_del(s, "period_ns");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"period_ns\" is missing"));
	json_object_object_add(s, "period_ns", json_object_new_double(4e6));
	/* "overhead" may be missing, not null */
	json_object_get(ov);
	json_object_object_add(s, "overhead", NULL);
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"overhead\" is null"));
	json_object_object_del(s, "overhead");
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), 0);
	CHECK(sum.present && !sum.has_overhead);
	bs_waste_summary_free(&sum);
	json_object_object_add(s, "overhead", ov);
	json_object_object_add(s, "command", json_object_new_int(1));
	CHECK_INT_EQ(bs_waste_summary_decode(s, &sum, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"command\""));
	json_object_put(s);
}

/* a waste trace of one context and @pair (an EVENT block's text) */
static int write_trace(const char *path, const char *pair)
{
	char err[256];
	struct bs_trace_writer *w = bs_trace_create(path, "{\"tool\":\"waste\"}", err, sizeof(err));

	if (!w)
		return -1;
	bs_waste_trace_ctx(w, 0, "f (x.c:1);main (x.c:9)");
	bs_trace_write_event(w, pair);
	return bs_trace_close(w);
}

static void test_load_refuses(void)
{
	struct bs_waste_result r;
	char path[64], err[512];

	snprintf(path, sizeof(path), "/tmp/bs-test-waste-blocks-%d.trace", (int)getpid());
	CHECK_INT_EQ(write_trace(path, "{\"waste\":\"pair\",\"wasteful\":true,\"bytes\":8,"
				       "\"ctx1\":0,\"ctx2\":0,\"tid\":1,\"ns\":1}"),
		     0);
	CHECK_INT_EQ(bs_waste_load_trace(path, &r, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, path) && strstr(err, "\"kind\""));
	CHECK_INT_EQ(write_trace(path, "{\"waste\":\"pair\",\"kind\":\"all\",\"wasteful\":true,"
				       "\"bytes\":8,\"ctx1\":0,\"ctx2\":0,\"tid\":1,\"ns\":1}"),
		     0);
	CHECK_INT_EQ(bs_waste_load_trace(path, &r, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"kind\""));
	CHECK_INT_EQ(write_trace(path,
				 "{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":"
				 "true,\"bytes\":8,\"ctx1\":0,\"ctx2\":1,\"tid\":1,\"ns\":1}"),
		     0);
	CHECK_INT_EQ(bs_waste_load_trace(path, &r, err, sizeof(err)), -EBADMSG);
	CHECK(strstr(err, "\"ctx2\""));
	/* the same pair with a defined context loads */
	CHECK_INT_EQ(write_trace(path,
				 "{\"waste\":\"pair\",\"kind\":\"dead-store\",\"wasteful\":"
				 "true,\"bytes\":8,\"ctx1\":0,\"ctx2\":0,\"tid\":1,\"ns\":1}"),
		     0);
	CHECK_INT_EQ(bs_waste_load_trace(path, &r, err, sizeof(err)), 0);
	CHECK_INT_EQ(r.agg.total[BS_WK_DEAD_STORE].waste_bytes, 8);
	CHECK(!r.sum.present && r.sum.json); /* no summary block: nothing known */
	bs_waste_result_free(&r);
	unlink(path);
}

static void test_render(void)
{
	struct bs_waste_result r;
	struct bs_waste_outcome dead = {BS_WK_DEAD_STORE, true}, live = {BS_WK_DEAD_STORE, false};
	json_object *s = wfx_summary();
	char *buf = NULL, err[256];

	memset(&r, 0, sizeof(r));
	CHECK_INT_EQ(bs_waste_summary_decode(s, &r.sum, err, sizeof(err)), 0);
	json_object_put(s);
	bs_waste_ctx_intern(&r.ctx, "f (x.c:1);main (x.c:9)", NULL);
	bs_waste_agg_add(&r.agg, &dead, 8, 0, 0);
	bs_waste_agg_add(&r.agg, &live, 1234567, 0, 0);
	bs_waste_agg_sort(&r.agg);
	buf = wfx_printed(&r);
	CHECK(buf && strstr(buf, "  command     ./prog 1\n"));
	CHECK(buf && strstr(buf, "period 4.000 ms of CPU time (at the end 5.000 ms)\n"));
	CHECK(buf && strstr(buf, "  watchpoints 3 per thread, armed while the sampled thread"));
	CHECK(buf && strstr(buf, "  samples     4 (user mode; 5 with a data access, 6 armed, 7 "
				 "dropped by the reservoir, 8 unreadable)\n"));
	CHECK(buf && strstr(buf, "not attributable\n  threads     16 in 17 processes; 23 records "
				 "lost\n"));
	/* the kind table: util/table.c, columns two spaces apart, numbers right-aligned */
	CHECK(buf &&
	      strstr(buf, "\n  kind          fraction  wasteful bytes  resolved bytes  pairs\n"
			  "  dead-store      0.00 %               8         1234575      2\n"
			  "  silent-store         -               0               0      0\n"
			  "  silent-load          -               0               0      0\n"));
	CHECK(buf &&
	      strstr(buf, "  run time    2.500 s with benchscope (no uninstrumented run)\n"));
	/* no run without benchscope: no "0 KiB without" */
	CHECK(buf && strstr(buf, "  memory      peak RSS 2048 KiB with (VmHWM, read at least every "
				 "20 ms; no run without)"));
	CHECK(buf && !strstr(buf, "KiB without"));
	CHECK(buf && strstr(buf, "  costs here  1.50 µs per watchpoint trap, 40.00 µs per stop of "
				 "the program (both measured at start; handling 2.00 µs per "
				 "sample)\n"));
	free(buf);
	/* a cost not measured, and no stop: said, not shown as "-" */
	r.sum.overhead.trap_ns = NAN;
	r.sum.overhead.handling_ns = 0;
	buf = wfx_printed(&r);
	CHECK(buf && strstr(buf, "  costs here  not measured per watchpoint trap, 40.00 µs per "
				 "stop of the program (both measured at start; no sample stopped "
				 "the program)\n"));
	free(buf);
	bs_waste_result_free(&r);
}

int main(void)
{
	RUN_TEST(test_pair_and_ctx);
	RUN_TEST(test_refused);
	RUN_TEST(test_summary_block);
	RUN_TEST(test_load_refuses);
	RUN_TEST(test_render);
	return test_summary("test_waste_blocks");
}
