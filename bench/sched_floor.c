// SPDX-License-Identifier: MIT
/*
 * sched_floor -- CMD [ARGS...]: attach empty programs to sched_switch and
 * sched_wakeup (bpf/sched_floor.bpf.c) with BPF_STATS_RUN_TIME on, run CMD,
 * and print, on stderr after it exits, one line per program:
 * "floor PROG RUNS RUN_TIME_NS" over CMD's lifetime. Exit status: CMD's,
 * or 1 when the programs cannot be loaded or attached.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sched_floor.skel.h"

static void print_prog(const struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return;
	fprintf(stderr, "floor %s %llu %llu\n", bpf_program__name(prog),
		(unsigned long long)info.run_cnt, (unsigned long long)info.run_time_ns);
}

int main(int argc, char **argv)
{
	struct sched_floor_bpf *skel;
	int stats_fd, status = 0;
	pid_t pid;

	if (argc < 3 || strcmp(argv[1], "--")) {
		fprintf(stderr, "usage: sched_floor -- CMD [ARGS...]\n");
		return 2;
	}
	skel = sched_floor_bpf__open_and_load();
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (!skel || stats_fd < 0 || sched_floor_bpf__attach(skel)) {
		fprintf(stderr, "sched_floor: cannot load, attach or enable BPF stats\n");
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("sched_floor: exec");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		perror("sched_floor");
		return 1;
	}
	print_prog(skel->progs.floor_switch);
	print_prog(skel->progs.floor_wakeup);
	sched_floor_bpf__destroy(skel);
	close(stats_fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
