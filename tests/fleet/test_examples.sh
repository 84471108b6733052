#!/bin/bash
# test_examples.sh - the fleet examples without a cluster:
#  - check_examples.py on examples/kubernetes/benchscope-job.yaml and
#    examples/github-actions/benchscope.yml (a schema subset + the wiring:
#    what exactly, in its header and README "Many machines"), and on broken
#    copies of them, which it must reject (the checker is tested too);
#  - the Kubernetes container's script, run here with a stand-in benchscope
#    first in PATH: it passes --shard INDEX/SHARDS and the trace path;
#  - that script and the Slurm array script run as nobody without
#    capabilities: one line and exit status 6.
# Needs python3-yaml and python3-jsonschema (make deps); setpriv and root for
# the last part, which skips with the reason otherwise.
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
name=test_examples
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $name: $*"; fail=$((fail + 1)); }

if ! python3 -c 'import yaml, jsonschema' 2>/dev/null; then
	echo "SKIP $name: no python3-yaml or python3-jsonschema (make deps installs them)"
	echo "$name: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
tmp=$(mktemp -d /tmp/bs-examples.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

out=$(python3 tests/fleet/check_examples.py "$root")
if [ $? = 0 ]; then
	ok
	echo "$name: check_examples.py: $(grep -c '^ok' <<<"$out") checks passed"
else
	bad "check_examples.py: $(grep '^FAIL' <<<"$out" | tr '\n' ' ')"
fi

# broken copies: each must fail, on the check named
broken() { # WHAT FILE SED-EXPR CHECK-SUBSTRING
	rm -rf "$tmp/repo" && mkdir -p "$tmp/repo" && cp -r examples "$tmp/repo/"
	sed -i "$3" "$tmp/repo/$2"
	if cmp -s "$tmp/repo/$2" "$2"; then
		bad "$1: the sed '$3' changed nothing"
		return
	fi
	out=$(python3 tests/fleet/check_examples.py "$tmp/repo")
	if [ $? = 1 ] && grep -q "^FAIL .*$4" <<<"$out"; then ok; else bad "$1: not rejected: $out"; fi
}
K=examples/kubernetes/benchscope-job.yaml G=examples/github-actions/benchscope.yml
broken "NonIndexed" $K 's/completionMode: Indexed/completionMode: NonIndexed/' "Indexed completion"
broken "a misspelt field" $K 's/hostPID: true/hostPid: true/' "schema subset"
broken "completions != SHARDS" $K 's/completions: 4/completions: 3/' "SHARDS = completions"
broken "not privileged" $K 's/privileged: true/privileged: false/' "privileged, or CAP_BPF"
broken "btf writable" $K '/mountPath: \/sys\/kernel\/btf/{n;s/readOnly: true/readOnly: false/}' "read-only"
broken "a wrong index variable" $K 's/JOB_COMPLETION_INDEX\/\$SHARDS/JOB_INDEX\/$SHARDS/' "--shard"
broken "matrix 0..2" $G 's/shard: \[0, 1, 2, 3\]/shard: [0, 1, 2]/' "0..SHARDS-1"
broken "no sudo" $G '0,/sudo benchscope run/s/sudo benchscope run/benchscope run/' "with sudo"
broken "no gate" $G 's/ --fail-on-regression 2//' "fails on a regression"
broken "gate not after shards" $G 's/needs: shard/needs: []/' "after the shards"
broken "unknown matrix key" $G 's/traces-\${{ matrix.shard }}/traces-${{ matrix.os }}/' "in its matrix"

# the Kubernetes container's script with a stand-in benchscope
script=$(python3 -c 'import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))["spec"]["template"]["spec"]["containers"][0]
print(c["args"][0])' $K)
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/args"\n' "$tmp" >"$tmp/bin/benchscope"
chmod 755 "$tmp/bin/benchscope"
if [ "$(id -u)" = 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	JOB_COMPLETION_INDEX=2 SHARDS=4 PATH="$tmp/bin:$PATH" sh -c "$script"
	got=$(tr '\n' ' ' <"$tmp/args" 2>/dev/null)
	want="run -q --preset gbench --shard 2/4 -o /results/shard-2.trace -- /suite/bench --benchmark_min_time=0.1 "
	[ "$got" = "$want" ] && ok || bad "the Job's script ran: '$got', want '$want'"
else
	echo "SKIP $name: the Job's script as root (not root or no BTF)"
	skip=$((skip + 1))
fi

# without privileges: one line, exit 6
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	asnobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"; }
	# nobody runs a copy of the array script: the checkout may sit where
	# nobody cannot read (a clone in a mode-700 directory)
	chmod 755 "$tmp"
	install -m 755 examples/slurm/benchscope-array.sh "$tmp/benchscope-array.sh"
	rm -f "$tmp/args"
	o=$(asnobody env JOB_COMPLETION_INDEX=0 SHARDS=4 PATH="$tmp/bin:$PATH" sh -c "$script" 2>&1)
	rc=$?
	if [ $rc = 6 ] && [ "$(wc -l <<<"$o")" = 1 ] && grep -q "needs root or CAP_BPF" <<<"$o" &&
		[ ! -e "$tmp/args" ]; then ok; else bad "the Job's script as nobody: exit $rc, '$o'"; fi
	o=$(asnobody env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=4 BENCHSCOPE="$tmp/bin/benchscope" \
		"$tmp/benchscope-array.sh" /bin/true 2>&1)
	rc=$?
	if [ $rc = 6 ] && [ "$(wc -l <<<"$o")" = 1 ] && grep -q "needs root or CAP_BPF" <<<"$o"; then
		ok
	else
		bad "benchscope-array.sh as nobody: exit $rc, '$o'"
	fi
	# as nobody with CAP_BPF and CAP_PERFMON (ambient): the checks pass, the
	# stand-in benchscope runs (it writes where nobody may)
	mkdir -m 777 "$tmp/nb"
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"%s/nb/args"\n' "$tmp" >"$tmp/nb/benchscope"
	chmod 755 "$tmp/nb/benchscope"
	withcaps() {
		setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+bpf,+perfmon \
			--ambient-caps=+bpf,+perfmon "$@"
	}
	withcaps env JOB_COMPLETION_INDEX=1 SHARDS=4 PATH="$tmp/nb:$PATH" sh -c "$script"
	grep -qx -- "--shard" "$tmp/nb/args" 2>/dev/null && grep -qx "1/4" "$tmp/nb/args" && ok ||
		bad "the Job's script as nobody with CAP_BPF + CAP_PERFMON did not run benchscope"
	rm -f "$tmp/nb/args"
	withcaps env SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=4 BENCHSCOPE="$tmp/nb/benchscope" \
		BS_OUT=/out "$tmp/benchscope-array.sh" /bin/true
	[ "$(tr '\n' ' ' <"$tmp/nb/args" 2>/dev/null)" = "run -q --preset gbench --shard 3/4 -o /out/shard-3.trace -- /bin/true " ] &&
		ok || bad "benchscope-array.sh as nobody with CAP_BPF + CAP_PERFMON: $(cat "$tmp/nb/args" 2>&1)"
	# with CAP_BPF alone: refused, exit 6
	o=$(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=+bpf --ambient-caps=+bpf \
		env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=4 BENCHSCOPE="$tmp/nb/benchscope" \
		"$tmp/benchscope-array.sh" /bin/true 2>&1)
	rc=$?
	[ $rc = 6 ] && [ "$(wc -l <<<"$o")" = 1 ] && ok || bad "with CAP_BPF alone: exit $rc, '$o'"
	# not an array task: one line, exit 2
	o=$(env -u SLURM_ARRAY_TASK_ID "$tmp/benchscope-array.sh" /bin/true 2>&1)
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <<<"$o")" = 1 ] && ok || bad "benchscope-array.sh outside an array: exit $rc, '$o'"
else
	echo "SKIP $name: the scripts without privileges (needs root and setpriv to become nobody)"
	skip=$((skip + 1))
fi
echo "$name: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
