#!/bin/bash
# benchscope-array.sh - a Slurm job array: each array task measures one shard
# of a benchmark suite with `benchscope run --shard I/N` (I = the task's index,
# N = the array's task count), writing $BS_OUT/shard-I.trace.
#
#   sbatch --array=0-3 benchscope-array.sh PROG [ARGS...]
#   (or submit.sh, which also queues the merge step after it: afterok)
#
# Environment: BENCHSCOPE (default: benchscope in PATH), BS_PRESET (default
# gbench; go and criterion list too), BS_OUT (default: the submit directory).
# The array's indices must be 0..N-1 (--array=0-3), as --shard counts from 0.
#
# Exit status: benchscope run's (0 ok, also for an empty shard; 2 bad input;
# 3 no data; 4 the harness failed; see README "Exit status"), and
#   6  no privileges: neither root nor CAP_BPF + CAP_PERFMON, or no
#      /sys/kernel/btf/vmlinux (one line on stderr, before anything runs)
#   2  not run as an array task, or indices not starting at 0
#
#SBATCH --job-name=benchscope-shard
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=benchscope-shard-%a.out
# On real nodes add: #SBATCH --exclusive (one shard per node: no neighbours)
set -u
me=benchscope-array.sh

# root, or CAP_BPF (39) and CAP_PERFMON (38) effective; and the kernel's BTF
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
if [ "$(id -u)" != 0 ] && [ $(((16#${capeff:-0} >> 38) & 3)) != 3 ]; then
	echo "$me: needs root or CAP_BPF and CAP_PERFMON (uid $(id -u) lacks them); exit 6" >&2
	exit 6
fi
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "$me: needs the kernel's BTF (/sys/kernel/btf/vmlinux is not readable); exit 6" >&2
	exit 6
fi
if [ -z "${SLURM_ARRAY_TASK_ID:-}" ] || [ -z "${SLURM_ARRAY_TASK_COUNT:-}" ] ||
	[ "${SLURM_ARRAY_TASK_MIN:-0}" != 0 ]; then
	echo "$me: run it as a job array with indices from 0: sbatch --array=0-N-1 $me PROG; exit 2" >&2
	exit 2
fi
if [ $# -lt 1 ]; then
	echo "$me: no harness: sbatch --array=0-3 $me PROG [ARGS...]; exit 2" >&2
	exit 2
fi
out=${BS_OUT:-${SLURM_SUBMIT_DIR:-$PWD}}
exec "${BENCHSCOPE:-benchscope}" run -q --preset "${BS_PRESET:-gbench}" \
	--shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
	-o "$out/shard-$SLURM_ARRAY_TASK_ID.trace" -- "$@"
