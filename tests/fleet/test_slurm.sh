#!/bin/bash
# test_slurm.sh - examples/slurm/ on a one-node Slurm cluster this test starts
# itself (Debian's slurm-wlm and munge, on loopback, state in a temp dir):
# `sbatch --wait --array=0-3 benchscope-array.sh` measures the four shards of
# tests/progs/gbench_suite (7 benchmarks), then the merge step runs after it
# (--dependency=afterok). Checks, against the suite's own listing: each
# shard's trace names exactly its benchmarks (sorted, k-th to shard k mod 4),
# the shards are disjoint and cover the suite, every trace's CONTEXT records
# the shard; and the array script run as nobody says one line and exits 6.
# Every daemon is stopped at the end (trap) and the temp dir removed.
# Skips with the reason when not root, without BPF or without Slurm.
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
BUILD=${BUILD:-build}
BS_BUILD=${BS_BUILD:-$PWD/$BUILD}
name=test_slurm
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $name: $*"; fail=$((fail + 1)); }
done_() { echo "$name: $pass passed, $fail failed, $skip skipped"; [ $fail -eq 0 ]; exit; }
skip_all() { echo "SKIP $name: $*"; skip=$((skip + 1)); done_; }

[ "$(id -u)" = 0 ] || skip_all "needs root (the daemons and BPF)"
[ -r /sys/kernel/btf/vmlinux ] || skip_all "no kernel BTF (/sys/kernel/btf/vmlinux)"
for t in munged slurmctld slurmd sbatch squeue; do
	command -v $t >/dev/null || skip_all "no $t (make deps installs slurm-wlm and munge)"
done
bs=$BS_BUILD/benchscope prog=$BS_BUILD/progs/gbench_suite
[ -x "$bs" ] && [ -x "$prog" ] || skip_all "build first: $bs, $prog"
command -v python3 >/dev/null || skip_all "no python3"
command -v setpriv >/dev/null || skip_all "no setpriv (util-linux)"

tmp=$(mktemp -d /tmp/bs-slurm.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# munge: a temp key and socket, run as root (--force)
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/out"
dd if=/dev/urandom of="$tmp/munge/key" bs=1024 count=1 status=none
chmod 755 "$tmp/munge"
chmod 400 "$tmp/munge/key"
munged --force -F --key-file="$tmp/munge/key" --socket="$tmp/munge/sock" \
	--pid-file="$tmp/munge/pid" --log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" \
	>"$tmp/munge/out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge/sock" ] || { bad "munged did not start: $(tail -n 3 "$tmp/munge/log")"; done_; }

host=$(hostname -s)
cpus=$(slurmd -C | sed -n 's/.* CPUs=\([0-9]*\).*/\1/p')
port=$((20000 + RANDOM % 20000))
cat >"$tmp/slurm.conf" <<CONF
ClusterName=bstest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=${cpus:-2} State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=10 State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
	sinfo -h -o %t 2>/dev/null | grep -q '^idle' && break
	sleep 0.2
done
if ! sinfo -h -o %t 2>/dev/null | grep -q '^idle'; then
	bad "the cluster did not come up: $(tail -n 3 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>&1)"
	done_
fi
ok

# the truth: the suite as the harness lists it, sorted
"$prog" --benchmark_list_tests=true >"$tmp/suite.txt"
[ "$(sort -u "$tmp/suite.txt" | wc -l)" = 7 ] && ok || bad "gbench_suite lists $(wc -l <"$tmp/suite.txt") benchmarks, not 7"

# the array: 4 tasks, one shard each (--parsable prints the job id, --wait
# returns when every task is done, with a failure if one failed)
t0=$(date +%s)
if (cd "$tmp/out" && BENCHSCOPE=$bs BS_OUT=$tmp/out sbatch --parsable --wait --array=0-3 \
	--output="$tmp/out/array-%a.out" "$root/examples/slurm/benchscope-array.sh" \
	"$prog" --benchmark_min_time=0.01 >"$tmp/sbatch.out" 2>&1); then
	ok
else
	bad "sbatch --wait --array=0-3 failed: $(cat "$tmp/sbatch.out" "$tmp"/out/array-*.out 2>&1 | tail -n 8)"
fi
array_job=$(head -n 1 "$tmp/sbatch.out" | cut -d';' -f1)
echo "$name: the array of 4 shards took $(($(date +%s) - t0)) s"

# each shard's trace against the suite's own listing (shard_check.py): the
# CONTEXT's shard, and the benchmarks the harness printed in the task's output
for i in 0 1 2 3; do
	if out=$(python3 tests/fleet/shard_check.py "$bs" "$tmp/out/shard-$i.trace" $i 4 \
		"$tmp/suite.txt" --stdout "$tmp/out/array-$i.out" 2>&1); then
		ok
	else
		bad "shard $i: $out"
	fi
	sed -n 's/^\(BM_[^ ]*\) .*/\1/p' "$tmp/out/array-$i.out" >>"$tmp/ran.txt"
done
# together: the suite, each benchmark once
if [ "$(LC_ALL=C sort "$tmp/ran.txt")" = "$(LC_ALL=C sort "$tmp/suite.txt")" ]; then
	ok
else
	bad "the 4 shards ran $(LC_ALL=C sort "$tmp/ran.txt" | tr '\n' ' '), the suite is $(tr '\n' ' ' <"$tmp/suite.txt")"
fi

# the merge step after the array (afterok): benchscope merge of the four
# shards into suite.trace, then its report
merge_bs=$bs
if (cd "$tmp/out" && BENCHSCOPE=$merge_bs BS_OUT=$tmp/out sbatch --wait \
	--output="$tmp/out/merge.out" --dependency=afterok:"$array_job" \
	"$root/examples/slurm/benchscope-merge.sh" >/dev/null 2>&1) && [ -e "$tmp/out/suite.trace" ]; then
	ok
else
	bad "the merge step (afterok:$array_job) failed: $(tail -n 5 "$tmp/out/merge.out" 2>&1)"
fi
# the fleet of the 4 shards: every member there, and no benchmark combined
# across shards (gbench 1.7 keeps no names: the k-th of one shard is not the
# k-th of another)
got=$("$bs" report -q --json - "$tmp/out/suite.trace" | python3 -c '
import json, sys
j = json.load(sys.stdin)
b = j["benchmarks"]
print(j["members"], len(b), max(x["machines"] for x in b) if b else 0)')
set -- $got
[ "${1:-}" = 4 ] && [ "${2:-0}" -ge 4 ] && [ "${3:-}" = 1 ] && ok ||
	bad "suite.trace's report: members, benchmarks, most machines per benchmark: '$got', want 4, >= 4, 1"

# without privileges: one line, exit 6, before anything runs (nobody runs
# a copy: the checkout may sit where nobody cannot read)
chmod 755 "$tmp"
install -m 755 examples/slurm/benchscope-array.sh "$tmp/benchscope-array.sh"
out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=4 \
	"$tmp/benchscope-array.sh" "$prog" 2>&1)
rc=$?
if [ $rc = 6 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
	printf '%s' "$out" | grep -q "needs root or CAP_BPF and CAP_PERFMON"; then
	ok
else
	bad "as nobody: exit $rc, '$out' (want exit 6 and one line)"
fi
done_
