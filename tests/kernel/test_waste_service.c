// SPDX-License-Identifier: MIT
/*
 * test_waste_service - `benchscope waste -p PID` on a running service under
 * load: Debian's redis-server on loopback, driven by redis-benchmark
 * (redis-tools), both started and stopped here.
 *
 * Checked: benchscope attaches to every thread of the server while it
 * serves, detaches on SIGINT (exit 130, the report kept), and the server
 * is then as before: alive and answering PING, no thread stopped, every
 * thread's four debug registers free again (four breakpoints open on each,
 * as none did while attached), and serving a benchmark run again.
 * The report has pairs, some of them named by the server's own functions.
 * No SIGTRAP reached the server. The throughputs before, while attached and
 * after are printed, not checked: on a shared VM the host's noise alone
 * moved the one after detach to 0.63x of the one before (with every
 * register free and no thread stopped); `make bench` measures the overhead
 * side by side.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>

#include "ktest.h"
#include "waste/freeze.h"
#include "waste/watch.h"

#define BENCHSCOPE kpath("benchscope")
#define REDIS	   "/usr/bin/redis-server"
#define REDIS_BM   "/usr/bin/redis-benchmark"

static int port;

/* One PING on a new connection: true when +PONG came back within 1 s. */
static bool ping(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	struct timeval tv = {1, 0};
	char buf[16] = "";
	bool ok = false;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return false;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (!connect(fd, (struct sockaddr *)&a, sizeof(a)) && write(fd, "PING\r\n", 6) == 6 &&
	    read(fd, buf, sizeof(buf) - 1) > 0)
		ok = !strncmp(buf, "+PONG", 5);
	close(fd);
	return ok;
}

/* Start redis-server on loopback (no persistence); its pid, or -1. */
static pid_t start_redis(void)
{
	const char *log;
	char ports[16];
	pid_t c;
	int i;

	port = 20000 + (int)(getpid() % 20000);
	snprintf(ports, sizeof(ports), "%d", port);
	log = ktmp("redis.log"); /* named by this pid, for the end to remove */
	c = fork();
	if (c == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, 1);
		dup2(fd, 2);
		execl(REDIS, REDIS, "--port", ports, "--bind", "127.0.0.1", "--save", "",
		      "--appendonly", "no", "--daemonize", "no", (char *)NULL);
		_exit(127);
	}
	for (i = 0; i < 500 && c > 0; i++) {
		if (ping())
			return c;
		usleep(10000);
	}
	if (c > 0) {
		kill(c, SIGKILL);
		waitpid(c, NULL, 0);
	}
	return -1;
}

/* SET + GET requests per second of one redis-benchmark run (0 when it failed). */
static double throughput(void)
{
	char ports[16];
	char *argv[] = {(char *)REDIS_BM, "-p", ports, "-t", "set,get", "-n",
			"40000",	  "-c", "20",  "-q", "--csv",	NULL};
	static struct kresult r;
	double sum = 0, v;
	char *p;

	snprintf(ports, sizeof(ports), "%d", port);
	krun(&r, argv);
	if (r.exit_code)
		return 0;
	for (p = r.out; *p; p++)
		if ((!strncmp(p, "\"SET\",\"", 7) || !strncmp(p, "\"GET\",\"", 7)) &&
		    sscanf(p + 7, "%lf", &v) == 1)
			sum += v;
	return sum;
}

/* The text of file @path so far into @buf (NUL-terminated; kept, unlike slurp()). */
static void peek(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
}

/* The threads of @pid: how many, how many stopped, how many whose four breakpoints open. */
static void threads_state(pid_t pid, int *n, int *stopped, int *bp_free)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	*n = *stopped = *bp_free = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);
		char st;
		int fds[4], k, ok = 0;

		if (tid <= 0)
			continue;
		(*n)++;
		st = bs_waste_task_state(pid, tid);
		if (st == 'T' || st == 't')
			(*stopped)++;
		for (k = 0; k < 4; k++) {
			fds[k] = bs_waste_open_bp(tid);
			ok += fds[k] >= 0;
		}
		for (k = 0; k < 4; k++)
			if (fds[k] >= 0)
				close(fds[k]);
		*bp_free += ok == 4;
	}
	closedir(d);
}

/* Pairs whose first or next access is named by a function (not "[module+0x...]"). */
static int named_pairs(json_object *o, int *total)
{
	json_object *pairs = json_object_object_get(o, "pairs");
	size_t i, n = pairs ? json_object_array_length(pairs) : 0;
	int named = 0;

	*total = (int)n;
	for (i = 0; i < n; i++) {
		json_object *p = json_object_array_get_idx(pairs, i);
		const char *keys[] = {"first", "next"};
		bool ok = false;

		for (int k = 0; k < 2 && !ok; k++) {
			json_object *fr = json_object_object_get(p, keys[k]);
			const char *f0 =
			    fr && json_object_array_length(fr)
				? json_object_get_string(json_object_array_get_idx(fr, 0))
				: "[";

			ok = f0[0] != '[';
		}
		named += ok;
	}
	return named;
}

static void test_redis_attach_detach(void)
{
	char json[256], trace[256], err[256], pids[32], buf[4096];
	double before, during, after;
	int n, stopped, bp_free, st, i, total, named;
	json_object *o, *s;
	pid_t redis, bs;

	NEED_CAP(BS_CAP_WATCHPOINTS);
	/* ktmp's names are reused after a few calls: kept here */
	snprintf(json, sizeof(json), "%s", ktmp("redis.json"));
	snprintf(trace, sizeof(trace), "%s", ktmp("redis.trace"));
	snprintf(err, sizeof(err), "%s", ktmp("redis.err"));
	if (access(REDIS, X_OK) || access(REDIS_BM, X_OK))
		SKIP("no %s or %s (Debian redis-server, redis-tools)", REDIS, REDIS_BM);
	redis = start_redis();
	CHECK(redis > 0);
	if (redis <= 0)
		return;
	before = throughput();
	CHECK(before > 0);
	snprintf(pids, sizeof(pids), "%d", (int)redis);
	bs = fork();
	if (bs == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		dup2(fd, 2);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		execl(BENCHSCOPE, BENCHSCOPE, "waste", "-p", pids, "--json", json, "-o", trace,
		      (char *)NULL);
		_exit(127);
	}
	/* attached once it says its source and period */
	for (i = 0, buf[0] = 0; i < 1000 && !strstr(buf, " source "); i++) {
		usleep(10000);
		peek(err, buf, sizeof(buf));
	}
	CHECK(strstr(buf, " source ") != NULL);
	/* the control of the check after detach: now every register is taken */
	threads_state(redis, &n, &stopped, &bp_free);
	CHECK(n >= 1);
	CHECK_INT_EQ(bp_free, 0);
	during = throughput();
	kill(bs, SIGINT);
	waitpid(bs, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 130);
	peek(err, buf, sizeof(buf));
	unlink(err);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 130)
		fprintf(stderr, "    benchscope: %s\n", buf);
	CHECK(kill(redis, 0) == 0);
	CHECK(ping());
	threads_state(redis, &n, &stopped, &bp_free);
	CHECK(n >= 1);
	CHECK_INT_EQ(stopped, 0);
	CHECK_INT_EQ(bp_free, n);
	after = throughput();
	CHECK(after > 0);
	fprintf(stderr,
		"    redis SET+GET: %.0f req/s before, %.0f attached (x%.3f), %.0f after "
		"detach (x%.3f); %d threads\n",
		before, during, before > 0 ? during / before : NAN, after,
		before > 0 ? after / before : NAN, n);
	o = kload_json(json);
	if (o) {
		s = json_object_object_get(o, "summary");
		CHECK(json_object_get_int(json_object_object_get(s, "threads")) >= n);
		CHECK_INT_EQ(json_object_get_int(json_object_object_get(s, "sigtraps_program")), 0);
		named = named_pairs(o, &total);
		CHECK(total >= 1);
		CHECK(named >= 1);
		fprintf(stderr, "    %d pairs reported, %d named by a function\n", total, named);
		json_object_put(o);
	}
	kill(redis, SIGTERM);
	waitpid(redis, NULL, 0);
	unlink(trace);
	unlink(ktmp("redis.log"));
}

int main(void)
{
	RUN_TEST(test_redis_attach_detach);
	return test_summary("test_waste_service");
}
