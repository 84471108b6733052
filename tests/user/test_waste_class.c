// SPDX-License-Identifier: MIT
/*
 * test_waste_class - pair classification (Su et al. 2019, definitions), value
 * comparison with the fp tolerance, the reservoir of watchpoints (fairness:
 * each of the k samples since arming equally likely kept), aggregation,
 * context interning and the trace round trip of `benchscope waste`.
 */
#include <stdint.h>
#include <unistd.h>
#include <errno.h>

#include "test.h"
#include "trace/trace.h"
#include "waste/class.h"
#include "waste/report.h"
#include "waste_fixture.h"

static const struct bs_waste_acc ST = {true, false, true, 0}, LD = {true, true, false, 0},
				 RMW = {true, true, true, 0}, UNK = {false, false, false, 0};

static int classify(unsigned kinds, enum bs_waste_watch w, const struct bs_waste_acc *f,
		    const struct bs_waste_acc *n, uint64_t old, uint64_t val,
		    struct bs_waste_outcome *out)
{
	return bs_waste_classify(kinds, w, f, n, old, val, 8, 0.01, out);
}

static void test_dead_store(void)
{
	struct bs_waste_outcome o[BS_WK_N];
	unsigned k = 1u << BS_WK_DEAD_STORE;

	CHECK_INT_EQ(classify(k, BS_WATCH_RW, &ST, &ST, 1, 2, o), 1);
	CHECK(o[0].kind == BS_WK_DEAD_STORE && o[0].waste);
	CHECK_INT_EQ(classify(k, BS_WATCH_RW, &ST, &LD, 1, 1, o), 1);
	CHECK(!o[0].waste); /* a load uses the value */
	CHECK_INT_EQ(classify(k, BS_WATCH_RW, &ST, &RMW, 1, 2, o), 1);
	CHECK(!o[0].waste); /* read-modify-write reads first */
	/* undecoded next access: a changed value was a store; unchanged resolves nothing */
	CHECK_INT_EQ(classify(k, BS_WATCH_RW, &ST, &UNK, 1, 2, o), 1);
	CHECK(o[0].waste);
	CHECK_INT_EQ(classify(k, BS_WATCH_RW, &ST, &UNK, 1, 1, o), 0);
	/* a load sample does not serve dead stores */
	CHECK_INT_EQ(classify(k, BS_WATCH_RW, &LD, &ST, 1, 2, o), 0);
}

static void test_silent_store_and_load(void)
{
	struct bs_waste_outcome o[BS_WK_N];
	struct bs_waste_acc fst = ST;
	unsigned ss = 1u << BS_WK_SILENT_STORE, sl = 1u << BS_WK_SILENT_LOAD;
	double x = 1.0, y = 1.005, z = 1.5;
	uint64_t bx, by, bz;

	CHECK_INT_EQ(classify(ss, BS_WATCH_W, &ST, &UNK, 7, 7, o), 1); /* W: a store for sure */
	CHECK(o[0].kind == BS_WK_SILENT_STORE && o[0].waste);
	CHECK_INT_EQ(classify(ss, BS_WATCH_W, &ST, &ST, 7, 8, o), 1);
	CHECK(!o[0].waste);
	CHECK_INT_EQ(classify(BS_WK_ALL, BS_WATCH_RW, &ST, &LD, 7, 7, o),
		     1); /* dead: no; silent: ? */
	CHECK(o[0].kind == BS_WK_DEAD_STORE && !o[0].waste);
	CHECK_INT_EQ(classify(BS_WK_ALL, BS_WATCH_RW, &ST, &ST, 7, 7, o), 2);
	CHECK(o[0].waste && o[1].kind == BS_WK_SILENT_STORE && o[1].waste);
	CHECK_INT_EQ(classify(sl, BS_WATCH_RW, &LD, &LD, 3, 3, o), 1);
	CHECK(o[0].kind == BS_WK_SILENT_LOAD && o[0].waste);
	CHECK_INT_EQ(classify(sl, BS_WATCH_RW, &LD, &LD, 3, 4, o), 1);
	CHECK(!o[0].waste);
	CHECK_INT_EQ(classify(sl, BS_WATCH_RW, &LD, &ST, 3, 3, o), 0); /* not a load pair */
	/* floating point within 1 % */
	memcpy(&bx, &x, 8);
	memcpy(&by, &y, 8);
	memcpy(&bz, &z, 8);
	fst.fp = 8;
	CHECK_INT_EQ(bs_waste_classify(ss, BS_WATCH_W, &fst, &ST, bx, by, 8, 0.01, o), 1);
	CHECK(o[0].waste);
	CHECK_INT_EQ(bs_waste_classify(ss, BS_WATCH_W, &fst, &ST, bx, bz, 8, 0.01, o), 1);
	CHECK(!o[0].waste);
	CHECK_INT_EQ(bs_waste_classify(ss, BS_WATCH_W, &fst, &ST, bx, by, 8, 0.001, o), 1);
	CHECK(!o[0].waste);
}

static void test_values_equal(void)
{
	float a = 100.0f, b = 100.5f, c = 120.0f;
	uint32_t ua, ub, uc;

	memcpy(&ua, &a, 4);
	memcpy(&ub, &b, 4);
	memcpy(&uc, &c, 4);
	CHECK(bs_waste_values_equal(0x1122, 0xff1122, 2, 0, 0));  /* only the low len bytes */
	CHECK(!bs_waste_values_equal(0x1122, 0x1123, 2, 0, 0.5)); /* integers: exact */
	CHECK(bs_waste_values_equal(ua, ub, 4, 4, 0.01));
	CHECK(!bs_waste_values_equal(ua, uc, 4, 4, 0.01));
	CHECK(bs_waste_values_equal((uint64_t)ub << 32 | ua, (uint64_t)ua << 32 | ub, 8, 4, 0.01));
	CHECK(!bs_waste_values_equal((uint64_t)uc << 32 | ua, (uint64_t)ua << 32 | ua, 8, 4, 0.01));
	CHECK(bs_waste_watch_for(BS_WK_ALL, false, true) == BS_WATCH_RW);
	CHECK(bs_waste_watch_for(1u << BS_WK_SILENT_STORE, false, true) == BS_WATCH_W);
	CHECK(bs_waste_watch_for(1u << BS_WK_SILENT_STORE, true, false) == BS_WATCH_NONE);
	CHECK(bs_waste_watch_for(1u << BS_WK_SILENT_LOAD, true, false) == BS_WATCH_RW);
	CHECK_INT_EQ(bs_waste_kinds_parse("silent-load"), 1u << BS_WK_SILENT_LOAD);
	CHECK_INT_EQ(bs_waste_kinds_parse("all"), BS_WK_ALL);
	CHECK_INT_EQ(bs_waste_kinds_parse("bogus"), 0);
}

/*
 * Reservoir: with 4 registers armed by samples 1..4, feed samples 5..K and
 * record which sample each register holds at the end. Every sample 1..K
 * must be held with probability 4/K (each register sees an equal share of
 * the stream); checked over many seeds within 5 standard errors. Also no
 * register is favoured.
 */
static void test_reservoir_fair(void)
{
	enum { K = 20, RUNS = 20000 };
	static unsigned held[K + 1];
	unsigned per_reg[4] = {0};
	int run, i, r;

	for (run = 0; run < RUNS; run++) {
		struct bs_waste_reservoir res;
		int who[4] = {0};

		bs_waste_reservoir_init(&res, 4, (uint64_t)run * 7919 + 1);
		for (i = 1; i <= K; i++) {
			r = bs_waste_reservoir_pick(&res);
			if (r >= 0) {
				who[r] = i;
				if (i > 4)
					per_reg[r]++;
			}
		}
		for (r = 0; r < 4; r++)
			held[who[r]]++;
	}
	for (i = 1; i <= K; i++) {
		double p = 4.0 / K, e = p * RUNS, se = sqrt(RUNS * p * (1 - p));

		if (fabs(held[i] - e) > 5 * se)
			FAILF("sample %d held %u times, expected %.0f +- %.0f", i, held[i], e,
			      5 * se);
	}
	for (r = 1; r < 4; r++)
		CHECK_NEAR(per_reg[r], per_reg[0], 0, 0.1);
	{
		struct bs_waste_reservoir res;

		bs_waste_reservoir_init(&res, 2, 5);
		CHECK_INT_EQ(bs_waste_reservoir_pick(&res), 0);
		CHECK_INT_EQ(bs_waste_reservoir_pick(&res), 1);
		bs_waste_reservoir_release(&res, 0);
		CHECK_INT_EQ(bs_waste_reservoir_pick(&res), 0); /* a free register first */
		bs_waste_reservoir_init(&res, 9, 0);
		CHECK_INT_EQ(res.nregs, 4);
	}
}

static void test_agg_ctx_and_trace_round_trip(void)
{
	struct bs_waste_result r, back;
	struct bs_waste_outcome dead = {BS_WK_DEAD_STORE, true}, live = {BS_WK_DEAD_STORE, false};
	char path[64], err[256];
	struct bs_trace_writer *w;
	long a, b;
	int n, is_new;

	memset(&r, 0, sizeof(r));
	a = bs_waste_ctx_intern(&r.ctx, "f (x.c:1);main (x.c:9)", &is_new);
	CHECK(a == 0 && is_new);
	b = bs_waste_ctx_intern(&r.ctx, "f (x.c:2);main (x.c:9)", &is_new);
	CHECK(b == 1 && is_new);
	CHECK_INT_EQ(bs_waste_ctx_intern(&r.ctx, "f (x.c:1);main (x.c:9)", &is_new), 0);
	CHECK(!is_new);
	for (n = 0; n < 300; n++) /* many contexts: the hash table grows */
	{
		char s[32];

		snprintf(s, sizeof(s), "g%d", n);
		CHECK_INT_EQ(bs_waste_ctx_intern(&r.ctx, s, NULL), n + 2);
	}
	snprintf(path, sizeof(path), "/tmp/bs-test-waste-%d.trace", (int)getpid());
	w = bs_trace_create(path, "{\"tool\":\"waste\"}", err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	bs_waste_trace_ctx(w, 0, r.ctx.s[0]);
	bs_waste_trace_ctx(w, 1, r.ctx.s[1]);
	for (n = 0; n < 3; n++) {
		bs_waste_agg_add(&r.agg, &dead, 8, 0, 1);
		bs_waste_trace_pair(w, &dead, 8, 0, 1, 5, 100);
	}
	bs_waste_agg_add(&r.agg, &live, 4, 1, 0);
	bs_waste_trace_pair(w, &live, 4, 1, 0, 5, 101);
	{
		json_object *sum = wfx_summary(); /* "samples": 4 */

		bs_waste_trace_summary(w, sum);
		json_object_put(sum);
	}
	CHECK_INT_EQ(bs_trace_close(w), 0);
	CHECK_NEAR(bs_waste_agg_fraction(&r.agg, BS_WK_DEAD_STORE), 24.0 / 28, 1e-12, 0);
	CHECK(isnan(bs_waste_agg_fraction(&r.agg, BS_WK_SILENT_LOAD)));
	CHECK_INT_EQ(r.agg.n, 1);
	CHECK_INT_EQ(r.agg.pairs[0].count, 3);

	CHECK_INT_EQ(bs_waste_load_trace(path, &back, err, sizeof(err)), 0);
	CHECK_INT_EQ(back.agg.n, 1);
	CHECK_INT_EQ(back.agg.total[BS_WK_DEAD_STORE].resolved_bytes, 28);
	CHECK_INT_EQ(back.agg.total[BS_WK_DEAD_STORE].waste_bytes, 24);
	CHECK(!strcmp(back.ctx.s[back.agg.pairs[0].ctx1], "f (x.c:1);main (x.c:9)"));
	CHECK(back.sum.present);
	CHECK_INT_EQ(back.sum.samples, 4);
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		bs_waste_print_folded(f, &back);
		fclose(f);
		CHECK(buf && !strcmp(buf, "dead-store;main (x.c:9);f (x.c:1);-- next --;main "
					  "(x.c:9);f (x.c:2) 24\n"));
		free(buf);
		f = open_memstream(&buf, &len);
		bs_waste_print(f, &back, 5, 4);
		fclose(f);
		CHECK(buf && strstr(buf, "85.71 %"));
		free(buf);
	}
	bs_waste_result_free(&back);
	bs_waste_result_free(&r);
	/* not a waste trace / not a trace */
	w = bs_trace_create(path, "{\"tool\":\"benchscope\"}", err, sizeof(err));
	bs_trace_close(w);
	CHECK_INT_EQ(bs_waste_load_trace(path, &back, err, sizeof(err)), -EPROTO);
	CHECK(strstr(err, "not a trace of"));
	unlink(path);
	CHECK(bs_waste_load_trace(path, &back, err, sizeof(err)) < 0);
}

int main(void)
{
	RUN_TEST(test_dead_store);
	RUN_TEST(test_silent_store_and_load);
	RUN_TEST(test_values_equal);
	RUN_TEST(test_reservoir_fair);
	RUN_TEST(test_agg_ctx_and_trace_round_trip);
	return test_summary("test_waste_class");
}
