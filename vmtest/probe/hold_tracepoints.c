// SPDX-License-Identifier: MIT
/*
 * hold_tracepoints TRACEPOINT... - vmtest guest helper: keep the kernel text
 * that BPF attach and detach would patch in one state for the guest's life.
 *
 * Under multi-threaded TCG (QEMU 7.2), kernel text patching (text_poke_bp:
 * int3, IPI, bytes, IPI) races with the other vCPU running the patched code:
 * the guest then executes stale code ("Oops: int3" in __schedule) or
 * livelocks in text_poke_bp. The patching happens when a tracepoint gets its
 * first probe (static key) or goes from one probe to two (static call), when
 * the first per-task perf event opens (perf_sched_events) and when BPF run
 * time statistics are enabled. So this helper, started by the guest's init
 * before any test:
 *   - attaches two idle raw tracepoint programs to each tracepoint named
 *     (the ones the tool's BPF objects use), so a tracepoint's probe count
 *     goes 2 -> 3 -> 2 when the tool attaches and detaches: no patching;
 *   - opens one per-task software perf event on itself;
 *   - keeps BPF_STATS_RUN_TIME enabled;
 * then prints "hold: ..." and sleeps until killed. The programs return at
 * once; the tests measure with them in place (a few ns per event).
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int idle_prog(void)
{
	struct bpf_insn insns[] = {
	    {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
	    {.code = BPF_JMP | BPF_EXIT},
	};

	return bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "vmtest_hold", "GPL", insns, 2, NULL);
}

int main(int argc, char **argv)
{
	struct perf_event_attr pa;
	int i, k, held = 0, failed = 0;

	for (i = 1; i < argc; i++) {
		for (k = 0; k < 2; k++) {
			int pfd = idle_prog();

			if (pfd < 0 || bpf_raw_tracepoint_open(argv[i], pfd) < 0) {
				fprintf(stderr, "hold: %s: %s\n", argv[i], strerror(errno));
				failed++;
				break;
			}
			held++;
		}
	}
	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_SOFTWARE;
	pa.size = sizeof(pa);
	pa.config = PERF_COUNT_SW_DUMMY;
	if (syscall(SYS_perf_event_open, &pa, 0, -1, -1, 0) < 0)
		fprintf(stderr, "hold: per-task perf event: %s\n", strerror(errno));
	if (bpf_enable_stats(BPF_STATS_RUN_TIME) < 0)
		fprintf(stderr, "hold: BPF_STATS_RUN_TIME: %s\n", strerror(errno));
	printf("hold: %d idle programs on %d tracepoints, %d failed\n", held, argc - 1, failed);
	fflush(stdout);
	for (;;)
		pause();
}
