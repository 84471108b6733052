# SPDX-License-Identifier: MIT
# tests/cli/lib.sh - sourced by the CLI test scripts (set NAME first): the
# built benchscope ($BS, from $BS_BUILD or $BUILD, default build), the
# counters and their verbs (ok, bad, skp), and finish, which prints
# "NAME: P passed, F failed, S skipped" and exits non-zero on a failure.
# A script without the built benchscope is skipped, with the reason.
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BS_BUILD:-${BUILD:-build}}
BS=$BUILD/benchscope
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skp() { skip=$((skip + 1)); echo "SKIP $*"; }
finish() {
	echo "$NAME: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}
[ -x "$BS" ] || {
	skp "no $BS (make all)"
	finish
}
