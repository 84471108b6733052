#!/usr/bin/env python3
"""shard_check.py - check one shard's trace against the truth the caller got
from the harness itself (its own listing).

  shard_check.py BENCHSCOPE TRACE I N SUITE_FILE [--stdout FILE | --names | --prefix]

SUITE_FILE: the suite's names, one a line, as the harness lists them. The
shard's names are those at positions k = I mod N of the sorted, distinct
list (the rule of README "Many machines", computed here on its own). Checks
that the trace's CONTEXT "shard" is {index I, count N, listed M, benchmarks
the shard's names}, and what was measured:
  --stdout FILE  the benchmarks the harness printed results for (the first
                 word of its output lines that is a suite name: Google
                 Benchmark's console table; `run` traces of gbench carry no
                 names) are the shard's, and the trace holds one benchmark
                 group per shard name, each with iterations;
  --names        the trace's benchmark names are the shard's;
  --prefix       the trace's benchmark names, up to the first '/', are
                 shard names (Go: sub-benchmarks run with their parent).
Prints one line and exits 1 on a mismatch.
"""
import json
import subprocess
import sys


def main():
    bs, trace, i, n, suite_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    mode = sys.argv[6] if len(sys.argv) > 6 else "--names"
    with open(suite_file) as f:
        suite = sorted({line.strip() for line in f if line.strip()})
    want = [name for k, name in enumerate(suite) if k % n == i]
    r = subprocess.run([bs, "report", "-q", "--json", "-", trace], capture_output=True, text=True)
    if r.returncode != 0:
        return "report %s: exit %d: %s" % (trace, r.returncode, r.stderr.strip())
    doc = json.loads(r.stdout)
    sh = doc["context"].get("shard")
    expect = {"index": i, "count": n, "listed": len(suite), "benchmarks": want}
    if sh != expect:
        return "%s: context shard %r, want %r" % (trace, sh, expect)
    groups = doc["summary"].get("benchmarks") or []
    if mode == "--stdout":
        with open(sys.argv[7]) as f:
            printed = sorted({line.split()[0] for line in f
                              if line.strip() and line.split()[0] in suite})
        if printed != want:
            return "%s: the harness ran %r, want %r" % (trace, printed, want)
        if len(groups) != len(want) or any(g["iterations"] < 1 for g in groups):
            return "%s: %d benchmark groups in the trace, want %d" % (trace, len(groups), len(want))
    else:
        names = sorted({g["name"] for g in groups})
        if mode == "--prefix":
            top = {nm.split("/")[0] for nm in names}
            if not names or not top <= set(want):
                return "%s: measured %r, the shard is %r" % (trace, names, want)
        elif names != want:
            return "%s: measured %r, want %r" % (trace, names, want)
    return 0


if __name__ == "__main__":
    sys.exit(main())
