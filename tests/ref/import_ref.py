#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""import_ref.py - the samples a results file holds, read independently of
benchscope (Python's json and gzip), for tests/cli/test_import.sh.

    import_ref.py FORMAT FILE...

prints one line per sample, in the order `benchscope import` writes them
(process by process, each process's samples in file order):

    PROC NS INVOCATIONS WARMUP

PROC counts the synthetic processes from 0 in order of creation, NS is the
sample's time rounded to the nearest ns (Python's round(), half to even;
benchscope uses nearbyint(), the same in the default rounding mode),
INVOCATIONS its invocation count, WARMUP 1 for a harness warmup. The rules
(which row is a sample, how its time is computed) are each tool's documented
format, as docs/import.md states them.
"""
import gzip
import json
import math
import os
import re
import sys

UNIT_NS = {"ns": 1.0, "us": 1e3, "\u00b5s": 1e3, "ms": 1e6, "s": 1e9}


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


class Out:
    def __init__(self):
        self.samples = []  # (proc, ns, inv, warm)
        self.nproc = 0
        self.bench_proc = {}

    def proc(self):
        self.nproc += 1
        return self.nproc - 1

    def proc_of(self, bench):
        if bench not in self.bench_proc:
            self.bench_proc[bench] = self.proc()
        return self.bench_proc[bench]

    def add(self, proc, ns, inv, warm=False):
        self.samples.append((proc, round(ns), int(inv), 1 if warm else 0))


def gbench(o, path):
    for b in load(path)["benchmarks"]:
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        scale = UNIT_NS[b.get("time_unit", "ns")]
        o.add(o.proc_of(b.get("run_name", b["name"])),
              b["real_time"] * scale * b["iterations"], b["iterations"])


def hyperfine(o, path):
    for r in load(path)["results"]:
        for t in r["times"]:
            o.add(o.proc(), t * 1e9, 1)


def go(o, path):
    rows = []
    for line in open(path):
        f = line.split()
        if len(f) < 4 or not re.match(r"Benchmark($|[A-Z0-9_/-])", f[0]):
            continue
        if not f[1].isdigit():
            continue
        units = dict(zip(f[3::2], f[2::2]))
        if "ns/op" in units and int(f[1]) > 0:
            rows.append((f[0], int(f[1]), float(units["ns/op"])))
    procs = {re.sub(r".*-(\d+)$", r"\1", n) for n, _, _ in rows}
    for name, n, ns in rows:
        if len(procs) == 1:
            name = re.sub(r"-\d+$", "", name)
        o.add(o.proc_of(name), ns * n, n)


def criterion(o, path):
    files = []
    if os.path.isdir(path):
        for d, _, names in os.walk(path):
            if os.path.basename(d) == "new" and "sample.json" in names:
                files.append(os.path.join(d, "sample.json"))
        files.sort()
    else:
        files = [path]
    for f in files:
        s = load(f)
        bj = os.path.join(os.path.dirname(f), "benchmark.json")
        name = load(bj)["full_id"] if os.path.exists(bj) else os.path.dirname(os.path.dirname(f))
        p = o.proc_of(name)
        for it, t in zip(s["iters"], s["times"]):
            o.add(p, t, it)


def pyperf(o, path):
    doc = load(path)
    common = doc.get("metadata", {})
    for b in doc["benchmarks"]:
        bm = b.get("metadata", {})
        if {**common, **bm}.get("unit", "second") != "second":
            continue
        for r in b["runs"]:
            md = {**common, **bm, **r.get("metadata", {})}
            inner = md.get("inner_loops", 1)
            p = o.proc()
            for loops, v in r.get("warmups", []):
                o.add(p, v * 1e9 * (loops * inner), loops * inner, True)
            for v in r.get("values", []):
                o.add(p, v * 1e9 * (md["loops"] * inner), md["loops"] * inner)


def jmh(o, path):
    for e in load(path):
        pm = e["primaryMetric"]
        unit = pm["scoreUnit"]
        if not unit.endswith("/op"):
            continue
        scale = UNIT_NS[unit[:-3]]
        if "rawData" in pm:
            for fork in pm["rawData"]:
                p = o.proc()
                for v in fork:
                    o.add(p, v * scale, 1)
        else:
            for fork in pm["rawDataHistogram"]:
                p = o.proc()
                for it in fork:
                    for t, n in it:
                        o.add(p, t * scale * n, n)


def main():
    fmt, files = sys.argv[1], sys.argv[2:]
    o = Out()
    for f in files:
        {"gbench": gbench, "hyperfine": hyperfine, "go": go, "criterion": criterion,
         "pyperf": pyperf, "jmh": jmh}[fmt](o, f)
    # benchscope writes process by process
    for s in sorted(o.samples, key=lambda s: s[0]):
        assert not math.isnan(s[1])
        print(*s)


if __name__ == "__main__":
    main()
