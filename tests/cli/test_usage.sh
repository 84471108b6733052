#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tests/cli/test_usage.sh - the built benchscope's answers to bad usage, as
# README's "Exit status" has them: one line on stderr and status 2 (stdout
# that cannot be written is checked per command by the unit tests). No
# root, no BPF: it needs the built benchscope.
set -u
NAME=test_usage
# shellcheck source=tests/cli/lib.sh
. "$(dirname "$0")/lib.sh"
T=$(mktemp -d /tmp/bs-test-usage-XXXXXX)
trap 'rm -rf "$T"' EXIT

# expect WHAT STATUS LINES GREP: the last command's status, stderr line count, stderr text
expect() {
	local what=$1 want=$2 lines=$3 text=$4
	if [ "$rc" -eq "$want" ] && [ "$(wc -l <"$T/err")" -eq "$lines" ] &&
		grep -q -- "$text" "$T/err"; then
		ok "$what: exit $rc, $(head -n 1 "$T/err")"
	else
		bad "$what: exit $rc (want $want), stderr: $(head -c 300 "$T/err")"
	fi
}

# --- no command: one line, not the whole usage ---
"$BS" >"$T/out" 2>"$T/err"
rc=$?
expect "no command" 2 1 "benchscope: no command given (see benchscope --help)"
[ ! -s "$T/out" ] && ok "no command: nothing on stdout" || bad "no command: stdout: $(cat "$T/out")"
"$BS" --help >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ ! -s "$T/err" ] && grep -q "^usage: benchscope COMMAND" "$T/out" &&
	grep -q "Exit status" "$T/out" && ok "--help: the usage on stdout, exit 0" ||
	bad "--help: exit $rc, stderr $(cat "$T/err")"
"$BS" nosuch >"$T/out" 2>"$T/err"
rc=$?
expect "unknown command" 2 1 "unknown command 'nosuch'"
finish
