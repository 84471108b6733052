#!/bin/bash
# test_shard_cli.sh - `--shard I/N` of the real benchscope on real harnesses
# (root, BPF), checked against each harness's own listing:
#  - gbench: shard 1/3 of gbench_suite runs exactly the names at positions
#    1, 4 of its sorted list (names with / < > : and .), as the harness's
#    own output says, one benchmark group each in the trace;
#  - go: shard 0/2 of gobench.test measures only benchmarks of the shard's
#    top-level names (sub-benchmarks with their parent);
#  - criterion: shard 1/2 of criterion_bench (its FILTER argument);
#  - duet: shard 0/2 of gbench_example A vs B compares exactly that shard;
#  - an empty shard (5/8 of 3 benchmarks): exit 0, one line, a readable
#    trace whose CONTEXT holds the shard with no benchmark;
#  - bad input: 4/4, a/b, 1/0, 0/0 and a preset that cannot list: one line,
#    exit status 2.
# Skips with the reason when not root or without BTF.
set -u
cd "$(dirname "$0")/../.." || exit 2
BS_BUILD=${BS_BUILD:-$PWD/${BUILD:-build}}
name=test_shard_cli
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $name: $*"; fail=$((fail + 1)); }
bs=$BS_BUILD/benchscope P=$BS_BUILD/progs
if [ "$(id -u)" != 0 ] || [ ! -r /sys/kernel/btf/vmlinux ] || [ ! -x "$bs" ]; then
	echo "SKIP $name: needs root, kernel BTF and $bs"
	echo "$name: 0 passed, 0 failed, 1 skipped"
	exit 0
fi
tmp=$(mktemp -d /tmp/bs-shard.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

chk() { python3 tests/fleet/shard_check.py "$bs" "$@" 2>&1; }

# the truth: each harness's own listing (shard_check.py picks the shard)
"$P/gbench_suite" --benchmark_list_tests=true >"$tmp/gb.txt"
out=
if "$bs" run -q --preset gbench --shard 1/3 -o "$tmp/gb.trace" -- "$P/gbench_suite" \
	--benchmark_min_time=0.01 >"$tmp/gb.out" 2>"$tmp/err" &&
	out=$(chk "$tmp/gb.trace" 1 3 "$tmp/gb.txt" --stdout "$tmp/gb.out"); then
	ok
else
	bad "gbench 1/3: ${out:-$(tail -n 3 "$tmp/err")}"
fi

"$P/gobench.test" -test.list='^Benchmark' >"$tmp/go.txt"
out=
if "$bs" run -q --preset go --shard 0/2 -o "$tmp/go.trace" -- "$P/gobench.test" -test.run='^$' \
	-test.bench=. -test.benchtime=200x >/dev/null 2>"$tmp/err" &&
	out=$(chk "$tmp/go.trace" 0 2 "$tmp/go.txt" --prefix); then
	ok
else
	bad "go 0/2: ${out:-$(tail -n 3 "$tmp/err")}"
fi

if [ -x "$P/criterion_bench" ]; then
	"$P/criterion_bench" --bench --list | sed -n 's/: bench$//p' >"$tmp/cr.txt"
	out=
	# criterion writes its reports under $CRITERION_HOME (else ./target)
	if CRITERION_HOME=$tmp/criterion "$bs" run -q --preset criterion --shard 1/2 -o "$tmp/cr.trace" -- "$P/criterion_bench" \
		--bench >/dev/null 2>"$tmp/err" && out=$(chk "$tmp/cr.trace" 1 2 "$tmp/cr.txt" --names); then
		ok
	else
		bad "criterion 1/2: ${out:-$(tail -n 3 "$tmp/err")}"
	fi
else
	echo "SKIP $name: criterion (no $P/criterion_bench)"
	skip=$((skip + 1))
fi

# duet: A and B list the same suite; the CONTEXT's shard, both commands
# ending with the shard's filter, one compared benchmark per shard name
"$P/gbench_example" --benchmark_list_tests=true >"$tmp/ex.txt"
if "$bs" duet -q --preset gbench --shard 0/2 --method seq --runs 2 --noise-check 0 \
	-o "$tmp/duet.trace" -A "$P/gbench_example --benchmark_min_time=0.01" \
	-B "$P/gbench_example_b --benchmark_min_time=0.01" >/dev/null 2>"$tmp/err"; then
	out=$(python3 - "$bs" "$tmp/duet.trace" "$tmp/ex.txt" <<'PY' 2>&1
import json, re, subprocess, sys
r = subprocess.run([sys.argv[1], "report", "-q", "--json", "-", sys.argv[2]], capture_output=True, text=True)
doc = json.loads(r.stdout)
suite = sorted({l.strip() for l in open(sys.argv[3]) if l.strip()})
want = suite[0::2]
sh = doc["context"].get("shard") or {}
filt = "--benchmark_filter=^(" + "|".join(re.sub(r"([\\.+*?()|\[\]{}^$])", r"\\\1", w) for w in want) + ")$"
cmds = doc["context"]["duet"]["commands"]
if sh.get("benchmarks") != want or cmds["A"][-1] != filt or cmds["B"][-1] != filt:
    sys.exit("duet: context shard %r, commands %r, want %r" % (sh, cmds, filt))
if len(doc["benchmarks"]) != len(want):
    sys.exit("duet: %d benchmarks compared, want %d" % (len(doc["benchmarks"]), len(want)))
PY
	) && ok || bad "$out"
else
	bad "duet 0/2: exit $?: $(tail -n 3 "$tmp/err")"
fi

# an empty shard: exit 0, one line, a readable trace
"$bs" run -q --preset gbench --shard 5/8 -o "$tmp/empty.trace" -- "$P/gbench_example" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "shard 5/8 has no benchmark" "$tmp/err" &&
	python3 -c '
import json, subprocess, sys
r = subprocess.run([sys.argv[1], "report", "-q", "--json", "-", sys.argv[2]], capture_output=True, text=True)
sh = json.loads(r.stdout)["context"]["shard"]
sys.exit(0 if sh == {"index": 5, "count": 8, "listed": 3, "benchmarks": []} else "shard %r" % sh)' \
		"$bs" "$tmp/empty.trace"; then
	ok
else
	bad "empty shard 5/8: exit $rc, $(cat "$tmp/err")"
fi

# bad input: one line, exit 2
for spec in 4/4 a/b 1/0 0/0 -1/4 3; do
	o=$("$bs" run --preset gbench --shard "$spec" -o "$tmp/x.trace" -- "$P/gbench_example" 2>&1)
	rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <<<"$o")" = 1 ] && grep -q -- "^benchscope run: --shard takes I/N" <<<"$o" &&
		[ ! -e "$tmp/x.trace" ]; then
		ok
	else
		bad "--shard $spec: exit $rc, '$o'"
	fi
done
o=$("$bs" duet --preset gbench --shard 2/2 -A "$P/gbench_example" -B "$P/gbench_example" 2>&1)
rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$o")" = 1 ] && grep -q -- "^benchscope duet: --shard takes I/N" <<<"$o" && ok ||
	bad "duet --shard 2/2: exit $rc, '$o'"
o=$("$bs" run --preset process --shard 0/2 -o "$tmp/x.trace" -- /bin/true 2>&1)
rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$o")" = 1 ] && [ ! -e "$tmp/x.trace" ] && ok ||
	bad "--preset process --shard: exit $rc, '$o'"
o=$("$bs" duet --preset catch2 --shard 0/2 --method seq --noise-check 0 -A "$P/catch2_bench" \
	-B "$P/catch2_bench" 2>&1)
rc=$?
[ $rc = 2 ] && [ "$(wc -l <<<"$o")" = 1 ] && grep -q Catch2 <<<"$o" && ok ||
	bad "duet --preset catch2 --shard: exit $rc, '$o'"
echo "$name: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
