#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/file_cmds_gen.py - large-ish inputs for `benchscope report`, `compare`
and `replay`, every value taken from tests/fixtures (bench/file-cmds-bench).

usage: file_cmds_gen.py FIXTURES OUTDIR COPIES RUN_REPEAT DUET_BENCHES DUET_RUNS REPLAY_TRACES

Writes into OUTDIR:
  run-a.json, run-b.json  pyperf JSON: the fixture's 3 benchmarks copied COPIES
                          times ("NAME #k"), each run repeated RUN_REPEAT times;
                          B's copy k is (k mod 5) x 0.3 % slower than A's
  duet.csv                raw Renaissance duet CSV: the fixture's runs copied
                          into DUET_BENCHES benchmarks of DUET_RUNS runs each
  replay-N.json           JMH JSON, one benchmark each: 5 forks of 100
                          iterations (the first 10 30 % slower: a warmup) made
                          of the pyperf fixture's values, for `replay`'s
                          default static configuration 50:50:5
"""
import copy
import csv
import gzip
import json
import sys


def run_sides(py, out, copies, repeat):
    for side, step in (("a", 0.0), ("b", 0.003)):
        d = copy.deepcopy(py)
        d["benchmarks"] = []
        for k in range(copies):
            for b in py["benchmarks"]:
                nb = copy.deepcopy(b)
                nb["metadata"]["name"] = f'{b["metadata"]["name"]} #{k}'
                f = 1 + step * (k % 5)
                nb["runs"] = []
                for r in range(repeat):
                    for run in b["runs"]:
                        nr = copy.deepcopy(run)
                        if "values" in nr:
                            nr["values"] = [v * f * (1 + 1e-4 * r) for v in nr["values"]]
                        nb["runs"].append(nr)
                d["benchmarks"].append(nb)
        with open(f"{out}/run-{side}.json", "w") as fo:
            json.dump(d, fo)


def duet(fix, out, benches, runs):
    with open(f"{fix}/duet/renaissance-chi-square.csv") as fi:
        rows = list(csv.DictReader(fi))
    ids = sorted({int(r["runid"]) for r in rows})
    with open(f"{out}/duet.csv", "w", newline="") as fo:
        w = csv.DictWriter(fo, fieldnames=list(rows[0].keys()))
        w.writeheader()
        for k in range(benches):
            for rr in range(runs):
                src = ids[rr % len(ids)]
                for r in rows:
                    if int(r["runid"]) == src:
                        n = dict(r)
                        n["benchmark"] = f"chi-square-{k}"
                        n["runid"] = str(rr)
                        n["epoch_start_ms"] = str(int(r["epoch_start_ms"]) + 3600000 * rr)
                        w.writerow(n)


def replay(fix, py, out, traces):
    with gzip.open(f"{fix}/import/jmh-hollow-result.json.gz") as fi:
        tmpl = next(x for x in json.load(fi) if x["mode"] == "avgt")
    vals = [v * 1e3 for b in py["benchmarks"] for r in b["runs"] for v in r.get("values", [])]
    for t in range(traces):
        e = copy.deepcopy(tmpl)
        e.update(benchmark=f"bench.Replay.b{t}", forks=5, measurementIterations=100,
                 params={}, secondaryMetrics={})
        e["primaryMetric"]["rawData"] = [
            [vals[(t * 7 + f * 100 + i) % len(vals)] * (1.3 if i < 10 else 1) for i in range(100)]
            for f in range(5)]
        with open(f"{out}/replay-{t}.json", "w") as fo:
            json.dump([e], fo)


def main():
    fix, out = sys.argv[1], sys.argv[2]
    copies, repeat, dbench, druns, ntr = map(int, sys.argv[3:8])
    with open(f"{fix}/import/pyperf-mult_list_py37.json") as fi:
        py = json.load(fi)
    run_sides(py, out, copies, repeat)
    duet(fix, out, dbench, druns)
    replay(fix, py, out, ntr)


main()
