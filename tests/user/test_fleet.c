// SPDX-License-Identifier: MIT
/*
 * test_fleet.c - benchscope merge and the fleet report on synthetic
 * traces: members survive byte for byte (CONTEXT text, records), merging a
 * fleet again flattens it, a slow machine is flagged and no other, the
 * combined interval holds the fleet's truth, refusals (kind, command,
 * shard count, truncated, corrupted) give one line naming the member and
 * leave no output, shards of one suite merge, intervals that would mean
 * nothing (one machine, one value a side) are withheld with the reason, a
 * duet whose own report withholds its verdict (a confound) is left out,
 * members of different units are never pooled, no NaN or infinity prints
 * as a number, every process of a member is a run.
 */
#include "test.h"

#include "cmd_capture.h"
#include "duet_fixture.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "benchscope/stats.h"
#include "commands.h"
#include "fleet/analysis.h"
#include "fleet/fleet.h"
#include "fleet/merge.h"
#include "import/duet.h"
#include "trace/dataset.h"
#include "trace/trace.h"
#include "util/json.h"

static char dir[] = "/tmp/bs_test_fleet_XXXXXX";

static uint64_t rs = 0x2545F4914F6CDD1Dull;

static double unif(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return ((rs >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

/*
 * A run trace of machine @m: @nproc processes x @iters iterations of
 * @invoc invocations (0: durations only, no invocation count), 100 ns x
 * @factor x exp(N(0, 0.02^2)) per invocation; @extra: more CONTEXT members
 * (",\"shard\":{...}"), @cmd the command's JSON array.
 */
static void write_run(const char *path, int m, int nproc, int iters, int invoc, double factor,
		      const char *cmd, const char *extra)
{
	char ctx[1024], err[256];
	struct bs_trace_writer *w;
	uint64_t t = 1000;

	snprintf(ctx, sizeof(ctx),
		 "{\"tool\":\"benchscope\",\"hostname\":\"host-%d\",\"cpu_model\":\"CPU %d\","
		 "\"hypervisor\":\"KVM\",\"command\":%s,"
		 "\"boundaries\":{\"kind\":\"uprobe\",\"begin\":\"b\",\"end\":\"e\"}%s}",
		 m, m, cmd, extra);
	w = bs_trace_create(path, ctx, err, sizeof(err));
	CHECK(w != NULL);
	if (!w)
		return;
	for (uint32_t p = 0; p < (uint32_t)nproc; p++)
		for (int i = 0; i < iters; i++) {
			struct bs_iter_rec r = {.type = BS_REC_ITER};
			double ns = 100 * factor * exp(0.02 * gauss()) * (invoc ? invoc : 10);

			r.pid = r.tid = 500 + p;
			r.index = (uint64_t)i;
			r.begin_ns = t;
			r.end_ns = t + (uint64_t)ns;
			if (invoc) {
				r.flags = BS_ITER_F_INVOC;
				r.invocations = (uint64_t)invoc;
			}
			r.preempted_ns = factor > 1.2 ? (uint64_t)(0.3 * ns) : 0;
			t = r.end_ns + 5;
			CHECK_INT_EQ(bs_trace_write_iter(w, &r), 0);
		}
	CHECK_INT_EQ(bs_trace_write_end(w, "{\"interrupted\":false}"), 0);
	CHECK_INT_EQ(bs_trace_close(w), 0);
}

/* 3 processes x 200 iterations of 10 invocations (write_run). */
static void write_trace(const char *path, int m, double factor, const char *cmd, const char *extra)
{
	write_run(path, m, 3, 200, 10, factor, cmd, extra);
}

/* DIR/name; the same name gives the same pointer (160 names at most). */
static const char *p(const char *name)
{
	static char buf[160][512];
	static size_t n;
	char want[512];

	snprintf(want, sizeof(want), "%s/%s", dir, name);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(buf[i], want))
			return buf[i];
	if (n == 160)
		abort();
	snprintf(buf[n], sizeof(buf[n]), "%s", want);
	return buf[n++];
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

static const char cmd[] = "[\"./bench\",\"--x\"]";

/* Member @m of @f holds exactly the blocks of the trace @path. */
static void same_member(const struct bs_fleet *f, size_t m, const char *path)
{
	struct bs_dataset *ds = NULL;
	const struct bs_dataset *md = f->members[m].ds;
	char err[256];

	CHECK_INT_EQ(bs_dataset_load(path, &ds, err, sizeof(err)), 0);
	if (!ds || !md)
		return;
	CHECK(!strcmp(json_object_to_json_string(ds->context),
		      json_object_to_json_string(md->context)));
	CHECK(!strcmp(json_object_to_json_string(ds->end), json_object_to_json_string(md->end)));
	CHECK_INT_EQ((long)md->n_iters, (long)ds->n_iters);
	CHECK(md->n_iters == ds->n_iters &&
	      !memcmp(md->iters, ds->iters, ds->n_iters * sizeof(*ds->iters)));
	CHECK_INT_EQ((long)md->n_blocks, (long)ds->n_blocks);
	CHECK(!strcmp(f->members[m].source, path));
	bs_dataset_free(ds);
}

static void test_merge_roundtrip_and_flatten(void)
{
	const char *in[4] = {p("a.trace"), p("b.trace"), p("c.trace"), p("d.trace")};
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	char err[512];

	for (int m = 0; m < 4; m++)
		write_trace(in[m], m + 1, 1.0, cmd, "");
	CHECK_INT_EQ(bs_fleet_merge(in, 3, p("f3.trace"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ((long)res.members, 3);
	CHECK(!strcmp(res.kind, "run"));
	/* merging the fleet again with d: four members, flattened */
	const char *in2[2] = {p("f3.trace"), in[3]};

	CHECK_INT_EQ(bs_fleet_merge(in2, 2, p("f4.trace"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ((long)res.members, 4);
	CHECK(bs_trace_is_fleet(p("f4.trace")));
	CHECK(!bs_trace_is_fleet(in[0]));
	CHECK_INT_EQ(bs_fleet_load(p("f4.trace"), &f, err, sizeof(err)), 0);
	if (!f)
		return;
	CHECK_INT_EQ((long)f->n_members, 4);
	for (size_t m = 0; m < f->n_members && m < 4; m++) {
		CHECK_INT_EQ((long)f->members[m].index, (long)m + 1);
		same_member(f, m, in[m]);
	}
	bs_fleet_free(f);
	/* the plain loader refuses a fleet with one line */
	struct bs_dataset *ds = NULL;

	CHECK(bs_dataset_load(p("f4.trace"), &ds, err, sizeof(err)) == -EBADMSG);
	CHECK(strstr(err, "fleet") != NULL);
	/* its report to a stdout that cannot be written: exit 1, one line */
	if (cap_full()) {
		CHECK_INT_EQ(cap_run(cmd_report, "report", (const char *[]){p("f4.trace"), NULL},
				     cap_full(), p("rep.err")),
			     1);
		CHECK(!strcmp(cap_slurp(p("rep.err")), "benchscope report: cannot write the report "
						       "to stdout: No space left on device\n"));
	}
}

/* 8 machines, machine 3 1.5x slower and 30 % preempted: flagged, alone. */
static void test_report_outlier(void)
{
	const char *in[8];
	char name[8][32], err[512];
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;

	for (int m = 0; m < 8; m++) {
		snprintf(name[m], sizeof(name[m]), "o%d.trace", m + 1);
		in[m] = p(name[m]);
		write_trace(in[m], m + 1, m == 2 ? 1.5 : exp(0.01 * gauss()), cmd, "");
	}
	CHECK_INT_EQ(bs_fleet_merge(in, 8, p("o.trace"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("o.trace"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		CHECK_INT_EQ((long)a->n_benches, 1);
		CHECK_INT_EQ((long)a->n_outliers, 1);
		CHECK(a->machines[2].outlier);
		CHECK(strstr(a->machines[2].why, "member 3 (host-3) ran") != NULL);
		CHECK(strstr(a->machines[2].why, "slower") != NULL);
		CHECK(strstr(a->machines[2].why, "preempted") != NULL);
		CHECK_NEAR(a->machines[2].speed, 1.5, 0.05, 0);
		/* the combined mean is the mean of all iterations; its interval,
		 * machines as units, is wide because machine 3 is slow */
		const struct bs_fleet_bench *b = &a->benches[0];

		CHECK(b->has_ci && b->per_op);
		CHECK(b->combined.lo < b->combined.point && b->combined.point < b->combined.hi);
		CHECK(b->combined.point > 100 && b->combined.point < 110);
		CHECK(b->combined.hi - b->combined.lo > 2);
		CHECK_INT_EQ((long)b->members, 8);
		for (int m = 0; m < 8; m++) {
			CHECK(b->cell[m].present && b->cell[m].has_ci);
			CHECK_INT_EQ((long)b->cell[m].runs, 3);
			CHECK_INT_EQ((long)b->cell[m].iters, 600);
		}
		CHECK_NEAR(b->cell[2].ci.point, 150, 2, 0);

		/* CSV: RFC 4180 fields; a hostname with a comma and a quote is
		 * quoted and its quote doubled, the others bare */
		struct bs_fleet_render_opts ro = {.csv_path = p("o.csv"), .no_table = true};
		char line[512];
		FILE *c;
		int rows = 0, quoted = 0;

		snprintf(a->machines[4].hostname, sizeof(a->machines[4].hostname), "h\"5,x");
		CHECK_INT_EQ(bs_fleet_render(a, &ro, err, sizeof(err)), 0);
		c = fopen(p("o.csv"), "r");
		CHECK(c != NULL);
		while (c && fgets(line, sizeof(line), c)) {
			rows++;
			quoted += strstr(line, ",5,\"h\"\"5,x\",3,600,") != NULL;
		}
		if (c)
			fclose(c);
		CHECK_INT_EQ(rows, 1 + 1 + 8);
		CHECK_INT_EQ(quoted, 1);
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
}

/* One refusal: -EINVAL, one line with @want, no output file. */
static void refused(const char *const *in, size_t n, const char *want)
{
	struct bs_merge_result res;
	char err[512] = "";

	unlink(p("bad.trace"));
	CHECK_INT_EQ(bs_fleet_merge(in, n, p("bad.trace"), &res, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		FAILF("refusal '%s' lacks '%s'", err, want);
	CHECK(!strchr(err, '\n'));
	CHECK(!exists(p("bad.trace")));
}

static void test_refusals(void)
{
	const char *a = p("r1.trace"), *cmd2 = p("r2.trace"), *stop = p("r3.trace");
	const char *trunc = p("rt.trace"), *corrupt = p("rc.trace"), *notrace = p("rn.trace");
	FILE *fo;
	char buf[1 << 16];
	size_t n;

	write_trace(a, 1, 1.0, cmd, "");
	write_trace(cmd2, 2, 1.0, "[\"./bench\",\"--y\"]", "");
	write_trace(stop, 3, 1.0, cmd, ",\"stop\":{\"criterion\":\"cv\"}");
	refused((const char *[]){a, cmd2}, 2, "member 2 (/tmp/bs_test_fleet_");
	refused((const char *[]){a, cmd2}, 2, "command differs: './bench --x' vs './bench --y'");
	refused((const char *[]){a, stop}, 2, "stop configuration differs");
	refused((const char *[]){a, p("duet.trace")}, 2, "member 2");
	/* a truncated copy (the writer killed), a corrupted copy */
	fo = fopen(a, "rb");
	n = fread(buf, 1, sizeof(buf), fo);
	fclose(fo);
	CHECK(n > 2000);
	fo = fopen(trunc, "wb");
	fwrite(buf, 1, n / 2, fo);
	fclose(fo);
	refused((const char *[]){a, trunc}, 2, "member 2 (/tmp/bs_test_fleet_");
	refused((const char *[]){a, trunc}, 2, "truncated");
	for (size_t i = n / 3; i < n / 3 + 64; i++)
		buf[i] ^= 0x5a;
	fo = fopen(corrupt, "wb");
	fwrite(buf, 1, n, fo);
	fclose(fo);
	refused((const char *[]){corrupt, a}, 2, "member 1");
	fo = fopen(notrace, "wb");
	fputs("hello\n", fo);
	fclose(fo);
	refused((const char *[]){a, notrace}, 2, "not a benchscope trace");
	/* through the command: exit status 2 */
	char *argv[] = {"merge", (char *)a, (char *)cmd2, "-o", (char *)p("bad.trace"), NULL};

	CHECK_INT_EQ(cmd_merge(5, argv), 2);
	CHECK(!exists(p("bad.trace")));
	/* -o naming a FIFO: refused (the rename would replace it), the FIFO kept */
	struct stat st;
	char *argv2[] = {"merge", (char *)a, "-o", (char *)p("out.fifo"), NULL};

	CHECK_INT_EQ(mkfifo(p("out.fifo"), 0600), 0);
	CHECK_INT_EQ(cmd_merge(4, argv2), 2);
	CHECK(!stat(p("out.fifo"), &st) && S_ISFIFO(st.st_mode));
	unlink(p("out.fifo"));
}

/* the same file twice (another path to it too) is one machine, not two; an
 * output that is one of the inputs would be replaced: both refused, status 2,
 * the input left as it was */
static void test_same_file_refused(void)
{
	const char *a = p("s1.trace"), *b = p("s2.trace"), *link = p("s1.link");
	char *argv[] = {"merge", (char *)a, (char *)b, "-o", (char *)a, NULL};
	long size;

	write_trace(a, 1, 1.0, cmd, "");
	write_trace(b, 2, 1.0, cmd, "");
	size = file_size(a);
	unlink(link);
	CHECK_INT_EQ(symlink(a, link), 0);
	refused((const char *[]){a, a}, 2, "input 2 (");
	refused((const char *[]){a, b, link}, 3, "input 3 (");
	refused((const char *[]){a, b, link}, 3, "one machine would count as two");
	CHECK_INT_EQ(cmd_merge(5, argv), 2);
	CHECK_INT_EQ(file_size(a), size);
	CHECK(bs_trace_is_fleet(a) == 0);
	argv[4] = (char *)link;
	CHECK_INT_EQ(cmd_merge(5, argv), 2);
	CHECK_INT_EQ(file_size(a), size);
	unlink(link);
}

static void test_kinds_and_shards(void)
{
	const char *run = p("k1.trace"), *duet = p("k2.trace");
	const char *s0 = p("s0.trace"), *s1 = p("s1.trace"), *s8 = p("s8.trace");
	struct bs_merge_result res;
	char err[512];

	write_trace(run, 1, 1.0, cmd, "");
	write_trace(duet, 2, 1.0, cmd, ",\"mode\":\"duet\"");
	refused((const char *[]){run, duet}, 2, "kind differs: run trace vs duet trace");
	write_trace(s0, 1, 1.0, "[\"./bench\",\"--benchmark_filter=^(a)$\"]",
		    ",\"shard\":{\"index\":0,\"count\":2}");
	write_trace(s1, 2, 1.0, "[\"./bench\",\"--benchmark_filter=^(b)$\"]",
		    ",\"shard\":{\"index\":1,\"count\":2}");
	write_trace(s8, 3, 1.0, "[\"./bench\",\"--benchmark_filter=^(c)$\"]",
		    ",\"shard\":{\"index\":1,\"count\":8}");
	CHECK_INT_EQ(
	    bs_fleet_merge((const char *[]){s0, s1}, 2, p("sh.trace"), &res, err, sizeof(err)), 0);
	refused((const char *[]){s0, s8}, 2, "shard count differs: 2 vs 8");
	refused((const char *[]){s0, run}, 2, "sharding differs");
}

/* Duet fleets: the imported Renaissance fixture (2 runs, B/A about 1.03,
 * overlapping) as two machines holding the same data: one ratio for the
 * fleet and each member, no difference, no outlier. */
static void test_duet_fleet(void)
{
	const char *csv = "tests/fixtures/duet/renaissance-chi-square.csv";
	const char *d1 = p("d1.trace"), *d2 = p("d2.trace");
	struct bs_import_opts io = {0};
	struct bs_import_result ir;
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	char err[512];

	if (access(csv, R_OK)) {
		FAILF("fixture %s missing (tests run from the repository root)", csv);
		return;
	}
	CHECK_INT_EQ(bs_import_duet_csv(csv, d1, &io, &ir, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_import_duet_csv(csv, d2, &io, &ir, err, sizeof(err)), 0);
	CHECK_INT_EQ(
	    bs_fleet_merge((const char *[]){d1, d2}, 2, p("df.trace"), &res, err, sizeof(err)), 0);
	CHECK(!strcmp(res.kind, "duet"));
	CHECK_INT_EQ(bs_fleet_load(p("df.trace"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		const struct bs_fleet_bench *b = &a->benches[0];
		char v[128];

		CHECK(a->duet);
		CHECK_INT_EQ((long)a->n_benches, 1);
		CHECK(b->has_ci && b->cell[0].has_ci && b->cell[1].has_ci);
		/* both machines hold the same data: one ratio */
		CHECK_NEAR(b->combined.point, b->cell[0].ci.point, 0, 1e-12);
		CHECK_NEAR(b->cell[1].ci.point, b->cell[0].ci.point, 0, 1e-12);
		CHECK(b->combined.lo < b->combined.point && b->combined.point < b->combined.hi);
		bs_fleet_verdict(&b->combined, v, sizeof(v));
		CHECK(strstr(v, "no difference") != NULL);
		CHECK_INT_EQ((long)a->n_outliers, 0);
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
}

/*
 * report's duet options on fleets: --drop-warmup-half is applied to a duet
 * fleet (each machine keeps the last half of each run's iterations a side,
 * said in the table and JSON); the options a fleet cannot take are refused
 * with one line and status 2, never dropped silently.
 */
static void test_fleet_report_options(void)
{
	const char *fl = p("df.trace"), *run = p("r1.trace"), *o = p("fo.out"), *e = p("fo.err");
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *all = NULL;
	char err[512];

	if (access(fl, R_OK))
		SKIP("no duet fleet (test_duet_fleet skipped)");
	CHECK_INT_EQ(bs_fleet_load(fl, &f, err, sizeof(err)), 0);
	if (!f)
		return;
	CHECK_INT_EQ(bs_fleet_analyze(f, 1, &all, err, sizeof(err)), 0);
	/* the table: the iterations column of each member halves */
	CHECK_INT_EQ(cap_run(cmd_report, "report",
			     (const char *[]){fl, "--drop-warmup-half", "--json", "-", NULL}, o, e),
		     0);
	{
		json_object *j = json_tokener_parse(cap_slurp(o));
		json_object *b = json_object_array_get_idx(bs_json_get(j, "benchmarks"), 0);
		json_object *m = json_object_array_get_idx(bs_json_get(b, "per_member"), 0);

		CHECK(json_object_get_boolean(bs_json_get(j, "drop_warmup_half")));
		if (all && m)
			CHECK_INT_EQ(json_object_get_int64(bs_json_get(m, "iterations")),
				     (int64_t)all->benches[0].cell[0].iters / 2);
		json_object_put(j);
	}
	CHECK_INT_EQ(
	    cap_run(cmd_report, "report", (const char *[]){fl, "--drop-warmup-half", NULL}, o, e),
	    0);
	CHECK(strstr(cap_slurp(o), "first half of each run's iterations dropped") != NULL);
	for (int k = 0; k < 4; k++) {
		static const char *const opt[4][2] = {
		    {"--min-overlap", "0.99"}, {"--no-mds", NULL}, {"--top", "3"}, {"--md", "-"}};

		CHECK_INT_EQ(cap_run(cmd_report, "report",
				     (const char *[]){fl, opt[k][0], opt[k][1], NULL}, o, e),
			     2);
		CHECK_INT_EQ(cap_count_lines(cap_slurp(e)), 1);
		CHECK(strstr(cap_slurp(e), opt[k][0]) != NULL);
		CHECK(strstr(cap_slurp(e), "does not apply to fleet traces") != NULL);
		CHECK(strcmp(cap_slurp(o), "") == 0);
	}
	/* a fleet of run traces: --drop-warmup-half is a duet option */
	write_trace(run, 1, 1.0, cmd, "");
	write_trace(p("r2b.trace"), 2, 1.0, cmd, "");
	CHECK_INT_EQ(bs_fleet_merge((const char *[]){run, p("r2b.trace")}, 2, p("rf.trace"),
				    &(struct bs_merge_result){0}, err, sizeof(err)),
		     0);
	CHECK_INT_EQ(cap_run(cmd_report, "report",
			     (const char *[]){p("rf.trace"), "--drop-warmup-half", NULL}, o, e),
		     2);
	CHECK_INT_EQ(cap_count_lines(cap_slurp(e)), 1);
	CHECK(strstr(cap_slurp(e), "--drop-warmup-half applies to duet traces only") != NULL);
	bs_fleet_analysis_free(all);
	bs_fleet_free(f);
}

/*
 * A fact a member's trace does not record is not shown as a value: the
 * imported duets record no hypervisor ("?" in the table, null in JSON, not
 * "none", which claims bare metal); a member whose kernel had no steal
 * accounting has no steal share (n/a, null), not 0 %.
 */
static void test_missing_facts(void)
{
	const char *fl = p("df.trace"), *r1 = p("ns1.trace"), *r2 = p("ns2.trace");
	const char *o = p("mf.out"), *e = p("mf.err");
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	char err[512];
	json_object *j, *m, *v;

	if (!access(fl, R_OK)) {
		CHECK_INT_EQ(bs_fleet_load(fl, &f, err, sizeof(err)), 0);
		if (f)
			CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
		if (a)
			CHECK(!strcmp(a->machines[0].hypervisor, "?"));
		bs_fleet_analysis_free(a);
		bs_fleet_free(f);
		a = NULL;
		f = NULL;
		CHECK_INT_EQ(
		    cap_run(cmd_report, "report", (const char *[]){fl, "--json", "-", NULL}, o, e),
		    0);
		j = json_tokener_parse(cap_slurp(o));
		m = json_object_array_get_idx(bs_json_get(j, "machines"), 0);
		CHECK(m != NULL);
		CHECK(json_object_object_get_ex(m, "hypervisor", &v) && v == NULL);
		json_object_put(j);
	}
	write_trace(r1, 1, 1.0, cmd, ",\"steal_accounting\":false");
	write_trace(r2, 2, 1.0, cmd, ",\"steal_accounting\":true");
	CHECK_INT_EQ(bs_fleet_merge((const char *[]){r1, r2}, 2, p("nsf.trace"),
				    &(struct bs_merge_result){0}, err, sizeof(err)),
		     0);
	CHECK_INT_EQ(bs_fleet_load(p("nsf.trace"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		CHECK(isnan(a->machines[0].steal_share));
		CHECK(!isnan(a->machines[1].steal_share));
		CHECK(!strcmp(a->machines[0].hypervisor, "KVM"));
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
}

/*
 * A synthetic duet fleet of @n machines (Renaissance CSV layout, imported)
 * in DIR/<tag>.fleet: machine m runs 1 + 10 % x (m mod 4) slower, @runs
 * runs of @iters iterations a side, each 1 s x exp(N(0, 0.03^2)), B's times
 * @b_scale x A's. The same draws for the same @n (the generator restarts),
 * so that only @b_scale differs between two calls. Returns the analysis
 * (NULL on failure).
 */
static struct bs_fleet_analysis *synth_duet_fleet_rn(size_t n, int runs, int iters, double b_scale,
						     const char *tag)
{
	const char *in[8];
	char name[8][64], out[64];
	struct bs_import_opts io = {0};
	struct bs_import_result ir;
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	char err[512];
	int ok = 1;

	rs = 0x9E3779B97F4A7C15ull;
	for (size_t m = 0; m < n && ok; m++) {
		char csv[64];
		FILE *c;

		snprintf(csv, sizeof(csv), "%s%zu.csv", tag, m + 1);
		snprintf(name[m], sizeof(name[m]), "%s%zu.trace", tag, m + 1);
		in[m] = p(name[m]);
		c = fopen(p(csv), "w");
		if (!c)
			return NULL;
		fprintf(c,
			"benchmark,runid,pair,iteration,epoch_start_ms,iteration_time_ns,machine,"
			"provider,jdk,jdk_version\n");
		for (int r = 0; r < runs; r++)
			for (int side = 0; side < 2; side++)
				for (int i = 0; i < iters; i++) {
					double ns = 1e9 * (1 + 0.1 * (double)(m % 4)) *
						    exp(0.03 * gauss()) * (side ? b_scale : 1);

					fprintf(c, "synth,%d,%c,%d,%d,%.0f,vm-%zu,,,\n", r,
						side ? 'B' : 'A', i, 1000 + r, ns, m + 1);
				}
		fclose(c);
		ok = bs_import_duet_csv(p(csv), in[m], &io, &ir, err, sizeof(err)) == 0;
		CHECK(ok);
	}
	snprintf(out, sizeof(out), "%s.fleet", tag);
	ok = ok && bs_fleet_merge(in, n, p(out), &res, err, sizeof(err)) == 0;
	ok = ok && bs_fleet_load(p(out), &f, err, sizeof(err)) == 0;
	ok = ok && bs_fleet_analyze(f, 1, &a, err, sizeof(err)) == 0;
	CHECK(ok);
	if (!ok)
		fprintf(stderr, "synth_duet_fleet: %s\n", err);
	bs_fleet_free(f);
	return a;
}

/* 3 runs of 20 iterations a side (synth_duet_fleet_rn). */
static struct bs_fleet_analysis *synth_duet_fleet(size_t n, double b_scale, const char *tag)
{
	return synth_duet_fleet_rn(n, 3, 20, b_scale, tag);
}

/* The report of the fleet DIR/@name as text (@fmt NULL), --json - or
 * --csv - (@fmt "--json", "--csv"): its stdout (cap_slurp's buffer). */
static const char *report_of(const char *name, const char *fmt)
{
	const char *args[] = {p(name), fmt, fmt ? "-" : NULL, NULL};

	CHECK_INT_EQ(cap_run(cmd_report, "report", args, p("rep.out"), p("rep.err")), 0);
	return cap_slurp(p("rep.out"));
}

/* "nan" or "inf" as a word of @s (a number printed as one), or NULL. */
static const char *nonnumber(const char *s)
{
	static const char *const w[] = {"nan", "inf"};

	for (int k = 0; k < 2; k++)
		for (const char *q = s; (q = strcasestr(q, w[k])); q++)
			if ((q == s || !isalnum((unsigned char)q[-1])) &&
			    !isalnum((unsigned char)q[3]))
				return q;
	return NULL;
}

/* The report of the fleet DIR/@name prints no NaN or infinity as a number,
 * in the table, JSON and CSV. */
static void no_nonnumber(const char *name)
{
	static const char *const fmt[] = {NULL, "--json", "--csv"};

	for (int k = 0; k < 3; k++) {
		const char *out = report_of(name, fmt[k]), *q = nonnumber(out);

		if (q)
			FAILF("report %s %s: '%.40s'", name, fmt[k] ?: "(table)",
			      q - out > 20 ? q - 20 : out);
	}
}

/* The duet fleet's MDS is the slowdown its verdict detects: an A/A fleet
 * with B slowed by the MDS (brought to A's level first) reads "B slower",
 * one grid step less does not; it is never 0, and 8 machines detect a
 * smaller slowdown than 2 of them. */
static void test_duet_fleet_mds(void)
{
	struct bs_fleet_analysis *aa = synth_duet_fleet(8, 1.0, "aa"), *two, *at, *below;
	double mds, point;
	char v[128];

	if (!aa)
		return;
	CHECK(aa->benches[0].has_ci);
	mds = aa->benches[0].mds;
	point = aa->benches[0].combined.point;
	CHECK(mds > 0 && mds < 0.1);
	for (size_t m = 0; m < 8; m++)
		CHECK(aa->benches[0].cell[m].mds > mds);
	at = synth_duet_fleet(8, (1 + mds) / point, "at");
	below = synth_duet_fleet(8, (1 + mds - 0.001) / point, "below");
	if (at && below) {
		bs_fleet_verdict(&at->benches[0].combined, v, sizeof(v));
		CHECK(strstr(v, "B slower") != NULL);
		bs_fleet_verdict(&below->benches[0].combined, v, sizeof(v));
		CHECK(strstr(v, "no difference") != NULL);
	}
	two = synth_duet_fleet(2, 1.0, "two");
	if (two) {
		double lo = 1, hi = 0;

		CHECK(two->benches[0].has_ci);
		CHECK(!(two->benches[0].mds <= mds)); /* larger, or none up to 100 % */
		for (size_t m = 0; m < 8; m++) {
			lo = fmin(lo, aa->benches[0].cell[m].mds);
			hi = fmax(hi, aa->benches[0].cell[m].mds);
		}
		printf("note: A/A duet fleet MDS: 8 machines %.1f %%, 2 machines %.1f %%, one "
		       "machine %.1f-%.1f %%\n",
		       100 * mds, 100 * two->benches[0].mds, 100 * lo, 100 * hi);
	}
	bs_fleet_analysis_free(aa);
	bs_fleet_analysis_free(at);
	bs_fleet_analysis_free(below);
	bs_fleet_analysis_free(two);
}

/*
 * A fleet interval needs 2 machines, a member's interval 2 values (a
 * side): one machine's "fleet" interval is its own, and one iteration a
 * side gives the interval [X, X] and an MDS of one grid step. Withheld with
 * the reason in the table, JSON and CSV alike.
 */
static void test_too_few(void)
{
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL, *d1, *d2;
	const char *one = p("few1.trace"), *out;
	char err[512];

	write_trace(one, 1, 1.0, cmd, "");
	CHECK_INT_EQ(bs_fleet_merge(&one, 1, p("few.fleet"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("few.fleet"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		const struct bs_fleet_bench *b = &a->benches[0];

		CHECK(!b->has_ci);
		CHECK(strstr(b->withheld, "at least 2 machines") != NULL);
		CHECK(b->cell[0].has_ci); /* 3 runs x 200 iterations: its own interval */
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
	out = report_of("few.fleet", NULL);
	CHECK(strstr(out, "(all iterations): 1 machine, no fleet interval: a fleet interval "
			  "needs at least 2 machines") != NULL);
	json_object *j = json_tokener_parse(report_of("few.fleet", "--json"));
	json_object *jb = json_object_array_get_idx(bs_json_get(j, "benchmarks"), 0);

	CHECK(jb != NULL && json_object_object_get_ex(jb, "combined", NULL) &&
	      !bs_json_get(jb, "combined"));
	CHECK(strstr(bs_json_str(jb, "withheld", ""), "at least 2 machines") != NULL);
	json_object_put(j);
	out = report_of("few.fleet", "--csv");
	CHECK(strstr(out, ",mds_pct,withheld\n") != NULL);
	CHECK(strstr(out, ",fleet,,,,,,,ns/invocation,,a fleet interval needs at least 2 machines "
			  "(they are its units)\n") != NULL);
	no_nonnumber("few.fleet");

	/* one machine, one run of one iteration a side: nothing at all */
	d1 = synth_duet_fleet_rn(1, 1, 1, 1.0, "few_d1");
	if (d1) {
		const struct bs_fleet_bench *b = &d1->benches[0];

		CHECK(!b->has_ci && isnan(b->mds));
		CHECK(!b->cell[0].has_ci && isnan(b->cell[0].mds));
		CHECK(b->cell[0].withheld && strstr(b->cell[0].withheld, "fewer than 2 values"));
		out = report_of("few_d1.fleet", NULL);
		CHECK(strstr(out, "no fleet interval") != NULL);
		CHECK(strstr(out, "MDS 0.1 %") == NULL);
		CHECK(strstr(out, "n/a: fewer than 2 values a side") != NULL);
		j = json_tokener_parse(report_of("few_d1.fleet", "--json"));
		jb = json_object_array_get_idx(bs_json_get(j, "benchmarks"), 0);
		CHECK(!bs_json_get(jb, "mds_pct") && !bs_json_get(jb, "combined"));
		jb = json_object_array_get_idx(bs_json_get(jb, "per_member"), 0);
		CHECK(!strcmp(bs_json_str(jb, "withheld", ""), "fewer than 2 values a side"));
		CHECK(!bs_json_get(jb, "ci") && !bs_json_get(jb, "mds_pct"));
		json_object_put(j);
		no_nonnumber("few_d1.fleet");
	}
	/* two machines of one iteration a side: a fleet interval over the
	 * machines (they differ), none for either machine */
	d2 = synth_duet_fleet_rn(2, 1, 1, 1.0, "few_d2");
	if (d2) {
		const struct bs_fleet_bench *b = &d2->benches[0];

		CHECK(b->has_ci && b->combined.lo < b->combined.hi);
		CHECK(!b->cell[0].has_ci && !b->cell[1].has_ci);
	}
	bs_fleet_analysis_free(d1);
	bs_fleet_analysis_free(d2);
}

/*
 * Duets with A on CPU 0 and B on CPU 1, never exchanged, CPU 1 10 %
 * slower: `report` withholds each one's verdict (the CPUs' speed is in its
 * B/A). The fleet leaves them out, counted, with that reason, and reads no
 * "B slower" from them; members that ran both sides on one CPU still count.
 */
static void test_duet_confound(void)
{
	struct df_spec sp = {.runs_per_method = 6,
			     .methods = {[BS_DM_ASYNC] = true},
			     .iters = 10,
			     .noise = 0.01,
			     .cpu1_slow = 1.10};
	struct df_truth t;
	const char *in[4] = {p("cf1.trace"), p("cf2.trace"), p("cf3.trace"), p("cf4.trace")};
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	const char *out;
	char err[512], v[128];

	for (int m = 0; m < 4; m++) {
		sp.seed = 11 + (uint64_t)m;
		sp.cpu_place = m < 2; /* 1: A on CPU 0, B on CPU 1; 0: both on CPU 0 */
		CHECK_INT_EQ(df_write(in[m], &sp, &t), 0);
	}
	out = report_of("cf1.trace", NULL);
	CHECK(strstr(out, "never exchanged CPUs") != NULL);

	/* the two confounded duets alone: both left out, no interval */
	CHECK_INT_EQ(bs_fleet_merge(in, 2, p("cfa.fleet"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("cfa.fleet"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		const struct bs_fleet_bench *b = &a->benches[0];

		CHECK_INT_EQ((long)b->left_out, 2);
		CHECK_INT_EQ((long)b->members, 0);
		CHECK(!b->has_ci && isnan(b->mds));
		CHECK(strstr(b->left_out_why, "never exchanged CPUs") != NULL);
		CHECK(b->cell[0].present && b->cell[0].left_out && !b->cell[0].has_ci);
		CHECK_INT_EQ((long)b->cell[1].runs, 6);
		CHECK_INT_EQ((long)b->cell[1].iters, 60);
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
	a = NULL;
	f = NULL;
	out = report_of("cfa.fleet", NULL);
	CHECK(strstr(out, "2 members left out: their own duet analysis withholds the verdict: A "
			  "and B never exchanged CPUs") != NULL);
	CHECK(strstr(out, "B slower") == NULL);
	json_object *j = json_tokener_parse(report_of("cfa.fleet", "--json"));
	json_object *jb = json_object_array_get_idx(bs_json_get(j, "benchmarks"), 0);

	CHECK_INT_EQ(bs_json_int(jb, "left_out", -1), 2);
	CHECK(strstr(bs_json_str(jb, "left_out_why", ""), "never exchanged CPUs") != NULL);
	jb = json_object_array_get_idx(bs_json_get(jb, "per_member"), 1);
	CHECK(json_object_get_boolean(bs_json_get(jb, "left_out")));
	json_object_put(j);
	no_nonnumber("cfa.fleet");

	/* with two duets on one CPU: those two make the fleet's interval */
	CHECK_INT_EQ(bs_fleet_merge(in, 4, p("cfb.fleet"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("cfb.fleet"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		const struct bs_fleet_bench *b = &a->benches[0];

		CHECK_INT_EQ((long)b->left_out, 2);
		CHECK_INT_EQ((long)b->members, 2);
		CHECK(b->has_ci);
		bs_fleet_verdict(&b->combined, v, sizeof(v));
		if (!strstr(v, "no difference"))
			FAILF("the fleet of the unconfounded duets: %s", v);
		CHECK(!b->cell[2].left_out && b->cell[2].has_ci);
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
}

/*
 * Under one benchmark name, two members with time per invocation and one
 * with iteration durations only (10 invocations each, so 10x the figure):
 * never pooled (compare refuses the same), each member in its own unit, no
 * speed of the noise table from them (member 3 is not 10x slower).
 */
static void test_mixed_units(void)
{
	const char *in[3] = {p("u1.trace"), p("u2.trace"), p("u3.trace")};
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	const char *out;
	char err[512];

	for (int m = 0; m < 3; m++)
		write_run(in[m], m + 1, 3, 50, m < 2 ? 10 : 0, 1.0, cmd, "");
	CHECK_INT_EQ(bs_fleet_merge(in, 3, p("u.fleet"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("u.fleet"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		const struct bs_fleet_bench *b = &a->benches[0];

		CHECK_INT_EQ((long)a->n_benches, 1);
		CHECK(b->mixed_units && !b->per_op && !b->has_ci);
		CHECK(strstr(b->withheld, "members differ in unit: 2 with time per invocation, 1 "
					  "with iteration durations only") != NULL);
		CHECK(b->cell[0].per_op && b->cell[1].per_op && !b->cell[2].per_op);
		CHECK(b->cell[0].has_ci && b->cell[2].has_ci);
		CHECK_NEAR(b->cell[0].ci.point, 100, 0, 0.05);
		CHECK_NEAR(b->cell[2].ci.point, 1000, 0, 0.05);
		CHECK_INT_EQ((long)a->n_outliers, 0);
		CHECK(isnan(a->machines[2].speed));
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
	out = report_of("u.fleet", NULL);
	CHECK(strstr(out, "3 machines, no fleet interval: members differ in unit") != NULL);
	CHECK(strstr(out, "us/op") != NULL || strstr(out, "ns/op") != NULL);
	out = report_of("u.fleet", "--csv");
	CHECK(strstr(out, ",fleet,,,,") && strstr(out, ",mixed,"));
	CHECK(strstr(out, ",1,host-1,3,150,") && strstr(out, ",ns/invocation,"));
	CHECK(strstr(out, ",3,host-3,3,150,") && strstr(out, ",ns/iteration,"));
	json_object *j = json_tokener_parse(report_of("u.fleet", "--json"));
	json_object *jb = json_object_array_get_idx(bs_json_get(j, "benchmarks"), 0);

	CHECK(!strcmp(bs_json_str(jb, "unit", ""), "mixed"));
	CHECK(!bs_json_get(jb, "combined"));
	jb = bs_json_get(jb, "per_member");
	CHECK(!strcmp(bs_json_str(json_object_array_get_idx(jb, 0), "unit", ""), "ns/invocation"));
	CHECK(!strcmp(bs_json_str(json_object_array_get_idx(jb, 2), "unit", ""), "ns/iteration"));
	json_object_put(j);
	no_nonnumber("u.fleet");
}

/*
 * NaN and infinity never print as numbers: the run fleet's mds_pct is an
 * empty CSV cell; 3 members of which 2 ran identically (MAD 0) flag the
 * third with words, not "inf MADs"; a noise check without a coupling says
 * n/a.
 */
static void test_no_nan(void)
{
	const char *in[3] = {p("z1.trace"), p("z2.trace"), p("z3.trace")};
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	const char *out;
	char err[512];

	for (int m = 0; m < 3; m++) {
		rs = 0x853C49E6748FEA9Bull; /* members 1 and 2: the same draws */
		write_run(in[m], m + 1, 3, 50, 10, m == 2 ? 1.5 : 1.0, cmd,
			  m ? "" : ",\"duet\":{\"noise_check\":{\"cpus\":[{\"coupled\":false}]}}");
	}
	CHECK_INT_EQ(bs_fleet_merge(in, 3, p("z.fleet"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("z.fleet"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		CHECK(a->speed_mad == 0);
		CHECK(a->machines[2].outlier && !a->machines[0].outlier);
		if (!strstr(a->machines[2].why, "(MAD 0: at least half the members at the median)"))
			FAILF("why: %s", a->machines[2].why);
		CHECK(a->machines[0].has_noise);
		if (!strstr(a->machines[0].noise, "busy/alone n/a"))
			FAILF("noise: %s", a->machines[0].noise);
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
	no_nonnumber("z.fleet");
	out = report_of("z.fleet", "--csv");
	CHECK(strstr(out, ",ns/invocation,,\n") != NULL); /* mds_pct, withheld: empty */
	no_nonnumber("o.trace");			  /* test_report_outlier's */
}

/*
 * One process an iteration (--preset process, hyperfine --runs 1000): 300
 * processes of 2 iterations on each of 2 machines are 300 runs, 600
 * iterations each; none is left out (the first 256 only, before).
 */
static void test_many_processes(void)
{
	const char *in[2] = {p("mp1.trace"), p("mp2.trace")};
	struct bs_merge_result res;
	struct bs_fleet *f = NULL;
	struct bs_fleet_analysis *a = NULL;
	char err[512];

	for (int m = 0; m < 2; m++)
		write_run(in[m], m + 1, 300, 2, 10, 1.0, cmd, "");
	CHECK_INT_EQ(bs_fleet_merge(in, 2, p("mp.fleet"), &res, err, sizeof(err)), 0);
	CHECK_INT_EQ(bs_fleet_load(p("mp.fleet"), &f, err, sizeof(err)), 0);
	if (f)
		CHECK_INT_EQ(bs_fleet_analyze(f, 1, &a, err, sizeof(err)), 0);
	if (a) {
		const struct bs_fleet_bench *b = &a->benches[0];

		for (int m = 0; m < 2; m++) {
			CHECK_INT_EQ((long)b->cell[m].runs, 300);
			CHECK_INT_EQ((long)b->cell[m].iters, 600);
			CHECK(b->cell[m].has_ci);
		}
		CHECK(b->has_ci);
		CHECK_NEAR(b->combined.point, 100, 0, 0.01);
	}
	bs_fleet_analysis_free(a);
	bs_fleet_free(f);
}

int main(void)
{
	char rm[128];

	bs_stats_init();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN_TEST(test_merge_roundtrip_and_flatten);
	RUN_TEST(test_report_outlier);
	RUN_TEST(test_refusals);
	RUN_TEST(test_same_file_refused);
	RUN_TEST(test_kinds_and_shards);
	RUN_TEST(test_duet_fleet);
	RUN_TEST(test_fleet_report_options);
	RUN_TEST(test_missing_facts);
	RUN_TEST(test_duet_fleet_mds);
	RUN_TEST(test_too_few);
	RUN_TEST(test_duet_confound);
	RUN_TEST(test_mixed_units);
	RUN_TEST(test_no_nan);
	RUN_TEST(test_many_processes);
	snprintf(rm, sizeof(rm), "rm -rf %s", dir);
	if (system(rm))
		fprintf(stderr, "could not remove %s\n", dir);
	return test_summary("test_fleet");
}
