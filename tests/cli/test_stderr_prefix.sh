#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/test_stderr_prefix.sh - every line a file-only command prints on
# stderr names that command: "benchscope report: ...", "benchscope merge:
# warning: ...", also from the helpers the commands share (the report of a
# run trace, of a duet trace, of a fleet). Bad input of every kind (missing,
# a directory, not a trace, truncated, an unwritable output, a full stdout,
# bad options) goes through report, compare, replay, merge and import. No
# root, no BPF: it needs the built benchscope; the traces are imported from
# tests/fixtures.
set -u
NAME=test_stderr_prefix
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d /tmp/bs-test-prefix-XXXXXX)
trap 'rm -rf "$T"' EXIT
FIX=tests/fixtures

# cut SRC DST: SRC without its last 100 bytes (its writer "did not finish it")
cut() { head -c $(($(wc -c <"$1") - 100)) "$1" >"$2"; }

# check CMD ARGS... (stdout to $OUT, default /dev/null): stderr has a line,
# and each of its lines starts with "benchscope CMD: "
check() {
	local cmd=$1 rc what
	"$BS" "$@" >"${OUT:-/dev/null}" 2>"$T/err" </dev/null
	rc=$?
	what="${*//"$T"/\$T}${OUT:+ >$OUT}: exit $rc"
	if [ ! -s "$T/err" ]; then
		bad "$what, nothing on stderr"
	elif grep -q -v "^benchscope $cmd: " "$T/err"; then
		bad "$what, a line without 'benchscope $cmd: ':" \
			"$(grep -v "^benchscope $cmd: " "$T/err" | head -n 1)"
	else
		ok "$what, $(wc -l <"$T/err") line(s) 'benchscope $cmd: ...'"
	fi
}

# the inputs: run traces (pyperf), a duet trace (Renaissance CSV), a fleet of two runs
if ! { "$BS" import --format pyperf "$FIX/import/pyperf-mult_list_py37.json" \
	-o "$T/run.trace" &&
	"$BS" import --format duet-csv "$FIX/duet/renaissance-chi-square.csv" \
		-o "$T/duet.trace" &&
	cp "$T/run.trace" "$T/run2.trace" &&
	"$BS" merge "$T/run.trace" "$T/run2.trace" -o "$T/fleet.trace"; } >/dev/null 2>&1; then
	bad "cannot import or merge the fixtures"
	finish
fi
cut "$T/run.trace" "$T/run-cut.trace"
cut "$T/duet.trace" "$T/duet-cut.trace"
cut "$T/fleet.trace" "$T/fleet-cut.trace"
head -c 40 "$T/run.trace" >"$T/header-only.trace"
printf 'not a trace\n' >"$T/garbage"
mkdir "$T/dir"
NOWHERE=$T/no/such/dir

for cmd in report compare replay merge import; do
	check "$cmd" --no-such-option
	check "$cmd"
done

# report: of a run trace, a duet trace, a fleet
for t in run duet fleet; do
	check report "$T/$t-cut.trace"
	check report "$T/$t.trace" --json "$NOWHERE/x.json"
	check report "$T/$t.trace" --csv "$NOWHERE/x.csv"
	[ -e /dev/full ] && OUT=/dev/full check report "$T/$t.trace"
	[ -e /dev/full ] && OUT=/dev/full check report "$T/$t.trace" --json -
done
check report "$T/run.trace" --md "$NOWHERE/x.md"
check report "$T/duet.trace" --md "$NOWHERE/x.md"
check report "$T/missing.trace"
check report "$T/dir"
check report "$T/garbage"
check report "$T/header-only.trace"
check report "$FIX/duet/renaissance-chi-square.csv"

check compare "$T/missing.trace" "$T/run.trace"
check compare "$T/run.trace" "$T/garbage"
check compare "$T/run.trace" "$T/run-cut.trace"
check compare "$T/run.trace" "$T/duet.trace"
check compare "$T/run.trace" "$T/run.trace" --json "$NOWHERE/x.json"

check replay "$T/missing.trace"
check replay "$T/garbage"
check replay "$T/run-cut.trace"
check replay "$T/duet.trace"

check merge "$T/missing.trace" -o "$T/m.trace"
check merge "$T/run-cut.trace" -o "$T/m.trace"
check merge "$T/run.trace" "$T/duet.trace" -o "$T/m.trace"
check merge "$T/run.trace" -o "$NOWHERE/m.trace"

check import --format pyperf "$T/missing.json" -o "$T/i.trace"
check import --format pyperf "$T/garbage" -o "$T/i.trace"
check import --format duet-csv "$T/garbage" -o "$T/i.trace"
check import --format nosuch "$T/garbage" -o "$T/i.trace"
check import --format pyperf "$FIX/import/pyperf-mult_list_py37.json" -o "$NOWHERE/i.trace"
finish
