/* SPDX-License-Identifier: MIT */
/*
 * test_interferer_table.c - the user-space sums of the scheduler handler's
 * interferer charges (probe/interferer_table.h): named and unnamed charges of
 * a pair add up, the first name stays, pairs come out once each in
 * (victim, interferer) order, and a callback's error stops the walk; by
 * iteration, only the charges of iterations with a record count, whenever
 * the record comes, and the rest is summed as left out.
 */
#include "probe/interferer_table.h"
#include "test.h"

#include <string.h>

static struct bs_interferer_charge charge(__u32 victim, __u32 tid, __u32 pid, const char *comm,
					  __u64 ns)
{
	struct bs_interferer_charge c = {.type = BS_REC_INTERF,
					 .victim_pid = victim,
					 .interferer_tid = tid,
					 .interferer_pid = pid,
					 .ns = ns};

	if (comm)
		strncpy(c.comm, comm, sizeof(c.comm) - 1);
	return c;
}

struct seen {
	struct bs_interferer_rec r[16];
	int n, stop_at;
};

static int collect(void *ctx, const struct bs_interferer_rec *r)
{
	struct seen *s = ctx;

	if (s->n == s->stop_at)
		return -5;
	if (s->n < 16)
		s->r[s->n] = *r;
	s->n++;
	return 0;
}

static void test_sums_and_names(void)
{
	struct bs_interferer_table t = {0};
	struct bs_interferer_charge c[] = {
	    charge(200, 7, 7, "kworker", 1000),		   /* named first */
	    charge(100, 9, 0, NULL, 5),			   /* unnamed before its name */
	    charge(200, 7, 0, NULL, 250),		   /* a slot's pending time */
	    charge(100, 9, 9, "competitor", 40),	   /* names it */
	    charge(200, 7, 8, "renamed", 1),		   /* a second name: the first stays */
	    charge(100, 3, 3, "sshd", 0),		   /* a pair with no time yet */
	    charge(200, 2, 2, "a-very-long-comm-name", 9), /* comm not terminated */
	};
	struct seen s = {.stop_at = -1};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (i == 6)
			memset(c[i].comm, 'x', sizeof(c[i].comm));
		CHECK_INT_EQ(bs_interferer_table_add(&t, &c[i]), 0);
	}
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 4);
	CHECK_INT_EQ(s.n, 4);
	/* (victim, tid) order */
	CHECK_INT_EQ(s.r[0].victim_pid, 100);
	CHECK_INT_EQ(s.r[0].interferer_tid, 3);
	CHECK_INT_EQ(s.r[1].interferer_tid, 9);
	CHECK_INT_EQ(s.r[1].ns, 45);
	CHECK_INT_EQ(s.r[1].interferer_pid, 9);
	CHECK(!strcmp(s.r[1].comm, "competitor"));
	CHECK_INT_EQ(s.r[2].victim_pid, 200);
	CHECK_INT_EQ(s.r[2].interferer_tid, 2);
	CHECK_INT_EQ(strlen(s.r[2].comm), BS_COMM_LEN - 1);
	CHECK_INT_EQ(s.r[3].interferer_tid, 7);
	CHECK_INT_EQ(s.r[3].ns, 1251);
	CHECK_INT_EQ(s.r[3].interferer_pid, 7);
	CHECK(!strcmp(s.r[3].comm, "kworker"));
	CHECK_INT_EQ(t.dropped, 0);
	bs_interferer_table_free(&t);
	CHECK(t.root == NULL);
	s.n = 0;
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 0);
	CHECK_INT_EQ(s.n, 0);
}

static void test_walk_stops(void)
{
	struct bs_interferer_table t = {0};
	struct seen s = {.stop_at = 2};
	__u32 tid;

	for (tid = 1; tid <= 5; tid++) {
		struct bs_interferer_charge c = charge(1, tid, tid, "t", tid);

		bs_interferer_table_add(&t, &c);
	}
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), -5);
	CHECK_INT_EQ(s.n, 2); /* no pair after the error */
	bs_interferer_table_free(&t);
}

/* ring buffer records: a charge is taken, anything else is left to the caller */
static void test_take(void)
{
	struct bs_interferer_table t = {0};
	struct bs_interferer_charge c = charge(4, 5, 5, "kworker", 70);
	struct bs_iter_rec it = {.type = BS_REC_ITER};
	struct seen s = {.stop_at = -1};

	CHECK(bs_interferer_table_take(&t, &c, sizeof(c)));
	CHECK(!bs_interferer_table_take(&t, &c, sizeof(c) - 1)); /* too short */
	CHECK(!bs_interferer_table_take(&t, &it, sizeof(it)));	 /* not a charge */
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 1);
	CHECK_INT_EQ(s.r[0].ns, 70);
	CHECK(!strcmp(s.r[0].comm, "kworker"));
	bs_interferer_table_free(&t);
}

/* Add charge c of iteration `iter` to t. */
static int add_in(struct bs_interferer_table *t, struct bs_interferer_charge c, __u32 iter)
{
	c.victim_iter = iter;
	return bs_interferer_table_add(t, &c);
}

/* Charges of iterations that have a record count, whether they came before
 * the record (held, named by their first charge) or after it; those of an
 * iteration that never has one (a Go parent B) are left out and summed. */
static void test_by_iteration(void)
{
	struct bs_interferer_table t = {.by_iteration = true};
	struct seen s = {.stop_at = -1};
	uint64_t n = 0;

	/* iteration 0 of 100: charged before its record, then after it */
	CHECK_INT_EQ(add_in(&t, charge(100, 7, 7, "spinner", 300), 0), 0);
	CHECK_INT_EQ(add_in(&t, charge(100, 7, 0, NULL, 20), 0), 0);
	/* iteration 1 of 100 (the parent): never recorded */
	add_in(&t, charge(100, 7, 7, "spinner", 40000), 1);
	add_in(&t, charge(100, 8, 8, "kworker", 2000), 1);
	/* the same index in another process is another iteration */
	add_in(&t, charge(200, 7, 7, "spinner", 5), 1);
	/* not cut to an iteration: counts at once */
	add_in(&t, charge(100, 9, 9, "sshd", 11), BS_CHARGE_NO_ITER);
	CHECK(!bs_interferer_table_counts(&t, 100, 0));
	CHECK(bs_interferer_table_counts(&t, 100, BS_CHARGE_NO_ITER));
	CHECK_INT_EQ(bs_interferer_table_unrecorded(&t, &n), 300 + 20 + 40000 + 2000 + 5);
	CHECK_INT_EQ(n, 3);
	CHECK_INT_EQ(bs_interferer_table_recorded(&t, 100, 0), 0);
	CHECK_INT_EQ(bs_interferer_table_recorded(&t, 200, 1), 0);
	CHECK(!bs_interferer_table_counts(&t, 200, 5000));
	CHECK_INT_EQ(bs_interferer_table_recorded(&t, 200, 5000), 0); /* grows its bits */
	CHECK(bs_interferer_table_counts(&t, 200, 5000));
	CHECK(!bs_interferer_table_counts(&t, 200, 4999));
	CHECK(bs_interferer_table_counts(&t, 100, 0));
	CHECK(!bs_interferer_table_counts(&t, 100, 1));
	CHECK(!bs_interferer_table_counts(&t, 100, 70000)); /* past its bits */
	add_in(&t, charge(100, 7, 0, NULL, 3), 0);	    /* after it */
	CHECK_INT_EQ(bs_interferer_table_unrecorded(&t, &n), 42000);
	CHECK_INT_EQ(n, 1);
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 3);
	CHECK_INT_EQ(s.r[0].victim_pid, 100);
	CHECK_INT_EQ(s.r[0].interferer_tid, 7);
	CHECK_INT_EQ(s.r[0].ns, 323);
	CHECK(!strcmp(s.r[0].comm, "spinner"));
	CHECK_INT_EQ(s.r[1].interferer_tid, 9);
	CHECK_INT_EQ(s.r[1].ns, 11);
	CHECK_INT_EQ(s.r[2].victim_pid, 200);
	CHECK_INT_EQ(s.r[2].ns, 5);
	/* one entry per iteration, in (pid, iteration, tid) order */
	CHECK_INT_EQ(s.r[0].victim_iter, 0);
	CHECK_INT_EQ(s.r[1].victim_iter, BS_CHARGE_NO_ITER);
	CHECK_INT_EQ(s.r[2].victim_iter, 1);
	bs_interferer_table_recorded(&t, 100, 2);
	add_in(&t, charge(100, 7, 0, NULL, 9), 2);
	s.n = 0;
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 4);
	CHECK_INT_EQ(s.r[0].ns, 323);
	CHECK_INT_EQ(s.r[1].victim_iter, 2);
	CHECK_INT_EQ(s.r[1].interferer_tid, 7);
	CHECK_INT_EQ(s.r[1].ns, 9);
	CHECK(!strcmp(s.r[1].comm, "spinner")); /* the pair's name */
	CHECK_INT_EQ(t.dropped, 0);
	bs_interferer_table_free(&t);
	CHECK(!t.root && !t.held && !t.recorded && !t.names);
	/* named in an iteration without a record (the handler names a pair
	 * once per CPU), charged unnamed in one with a record: named */
	add_in(&t, charge(300, 4, 4, "spinner", 50), 0);
	add_in(&t, charge(300, 4, 0, NULL, 6), 1);
	s.n = 0;
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 0); /* nothing counted yet */
	bs_interferer_table_recorded(&t, 300, 1);
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 1);
	CHECK_INT_EQ(s.r[0].ns, 6);
	CHECK_INT_EQ(s.r[0].interferer_pid, 4);
	CHECK(!strcmp(s.r[0].comm, "spinner"));
	CHECK_INT_EQ(bs_interferer_table_unrecorded(&t, NULL), 50);
	bs_interferer_table_free(&t);
	/* without by_iteration every charge counts */
	t.by_iteration = false;
	add_in(&t, charge(100, 7, 7, "spinner", 40), 5);
	CHECK_INT_EQ(bs_interferer_table_unrecorded(&t, NULL), 0);
	s.n = 0;
	CHECK_INT_EQ(bs_interferer_table_walk(&t, collect, &s), 1);
	CHECK_INT_EQ(s.r[0].victim_iter, BS_CHARGE_NO_ITER);
	bs_interferer_table_free(&t);
}

int main(void)
{
	RUN_TEST(test_sums_and_names);
	RUN_TEST(test_walk_stops);
	RUN_TEST(test_take);
	RUN_TEST(test_by_iteration);
	return test_summary("interferer_table");
}
