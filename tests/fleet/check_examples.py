#!/usr/bin/env python3
"""check_examples.py - validate examples/kubernetes/benchscope-job.yaml and
examples/github-actions/benchscope.yml (python3-yaml, python3-jsonschema).

Not the full Kubernetes OpenAPI schema nor GitHub's workflow schema (Debian 12
packages neither kubectl nor kubeconform): a JSON-schema subset written from the
Kubernetes API reference (batch/v1 Job, JobSpec, PodTemplateSpec, PodSpec,
Container, EnvVar, SecurityContext, Capabilities, VolumeMount, Volume,
HostPathVolumeSource, Affinity/PodAntiAffinity/PodAffinityTerm, LabelSelector)
and GitHub's workflow syntax reference (name, on, permissions, env, jobs: runs-on,
needs, strategy.matrix, steps: uses/run/with), for the fields the examples use;
every object it describes is closed (additionalProperties: false), so a
misspelt or unknown field fails. Then the checks that matter to benchscope:
the shard wiring, the privileges, the mounts, the merge and the gate.

Prints "ok WHAT" or "FAIL WHAT: why" per check; exits 1 if any failed.
Usage: check_examples.py REPO_DIR
"""
import re
import sys

import jsonschema
import yaml

INT32 = {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}
STR = {"type": "string"}
STRS = {"type": "array", "items": STR}
DNS_LABEL = {"type": "string", "pattern": r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 63}
LABELS = {"type": "object", "additionalProperties": STR}
META = {"type": "object", "additionalProperties": False,
        "properties": {"name": DNS_LABEL, "namespace": DNS_LABEL, "labels": LABELS,
                       "annotations": LABELS}}


def closed(props, required=()):
    return {"type": "object", "additionalProperties": False, "properties": props,
            "required": list(required)}


K8S_JOB = closed({
    "apiVersion": {"const": "batch/v1"},
    "kind": {"const": "Job"},
    "metadata": META,
    "spec": closed({
        "completionMode": {"enum": ["NonIndexed", "Indexed"]},
        "completions": INT32, "parallelism": INT32, "backoffLimit": INT32,
        "activeDeadlineSeconds": INT32, "ttlSecondsAfterFinished": INT32,
        "template": closed({
            "metadata": META,
            "spec": closed({
                "restartPolicy": {"enum": ["Always", "OnFailure", "Never"]},
                "hostPID": {"type": "boolean"},
                "nodeSelector": LABELS,
                "affinity": closed({"podAntiAffinity": closed({
                    "requiredDuringSchedulingIgnoredDuringExecution": {
                        "type": "array", "items": closed({
                            "labelSelector": closed({"matchLabels": LABELS}),
                            "topologyKey": STR}, ["topologyKey"])}}),
                }),
                "containers": {"type": "array", "minItems": 1, "items": closed({
                    "name": DNS_LABEL, "image": STR, "command": STRS, "args": STRS,
                    "env": {"type": "array", "items": closed(
                        {"name": STR, "value": STR}, ["name"])},
                    "securityContext": closed({
                        "privileged": {"type": "boolean"},
                        "capabilities": closed({"add": STRS, "drop": STRS}),
                    }),
                    "volumeMounts": {"type": "array", "items": closed(
                        {"name": STR, "mountPath": STR, "readOnly": {"type": "boolean"}},
                        ["name", "mountPath"])},
                }, ["name"])},
                "volumes": {"type": "array", "items": closed({
                    "name": DNS_LABEL,
                    "hostPath": closed({"path": STR, "type": {"enum": [
                        "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File",
                        "Socket", "CharDevice", "BlockDevice"]}}, ["path"]),
                    "emptyDir": {"type": "object"},
                }, ["name"])},
            }, ["containers"]),
        }, ["spec"]),
    }, ["template"]),
}, ["apiVersion", "kind", "metadata", "spec"])

STEP = closed({"name": STR, "id": STR, "if": STR, "uses": STR, "run": STR,
               "with": {"type": "object"}, "env": {"type": "object"}})
GHA = closed({
    "name": STR,
    "on": {"type": ["object", "string", "array"]},
    "permissions": {"type": ["object", "string"]},
    "env": {"type": "object"},
    "jobs": {"type": "object", "minProperties": 1, "additionalProperties": closed({
        "runs-on": {"type": ["string", "array"]},
        "needs": {"type": ["string", "array"], "items": STR},
        "if": STR,
        "timeout-minutes": {"type": "integer", "minimum": 1},
        "env": {"type": "object"},
        "strategy": closed({"fail-fast": {"type": "boolean"},
                            "max-parallel": {"type": "integer"},
                            "matrix": {"type": "object"}}),
        "steps": {"type": "array", "minItems": 1, "items": STEP},
    }, ["runs-on", "steps"])},
}, ["on", "jobs"])

results = []


def check(what, cond, why=""):
    results.append((what, bool(cond), why))
    return cond


def schema(what, doc, sch):
    errs = sorted(jsonschema.Draft7Validator(sch).iter_errors(doc), key=lambda e: list(e.path))
    check(what, not errs, "; ".join("%s: %s" % ("/".join(map(str, e.path)), e.message)
                                    for e in errs[:3]))


def kubernetes(path):
    with open(path) as f:
        job = yaml.safe_load(f)
    schema("kubernetes: the Job against the schema subset", job, K8S_JOB)
    spec = job.get("spec", {})
    pod = spec.get("template", {}).get("spec", {})
    c = (pod.get("containers") or [{}])[0]
    env = {e["name"]: e.get("value") for e in c.get("env", [])}
    script = " ".join(c.get("command", []) + c.get("args", []))
    check("kubernetes: Indexed completion mode", spec.get("completionMode") == "Indexed")
    n = env.get("SHARDS")
    check("kubernetes: SHARDS = completions = parallelism",
          n is not None and str(spec.get("completions")) == n == str(spec.get("parallelism")),
          "SHARDS %r, completions %r, parallelism %r" % (n, spec.get("completions"),
                                                        spec.get("parallelism")))
    check("kubernetes: --shard $JOB_COMPLETION_INDEX/$SHARDS",
          re.search(r'--shard "?\$JOB_COMPLETION_INDEX/\$SHARDS"?', script))
    check("kubernetes: one trace per index", "shard-$JOB_COMPLETION_INDEX.trace" in script)
    check("kubernetes: restartPolicy Never (a failed shard is not run twice)",
          pod.get("restartPolicy") == "Never")
    sc = c.get("securityContext", {})
    caps = set(sc.get("capabilities", {}).get("add", []))
    check("kubernetes: privileged, or CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN",
          sc.get("privileged") is True or {"BPF", "PERFMON", "SYS_ADMIN"} <= caps)
    check("kubernetes: hostPID", pod.get("hostPID") is True)
    vols = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["mountPath"]: m for m in c.get("volumeMounts", [])}
    btf = mounts.get("/sys/kernel/btf", {})
    check("kubernetes: /sys/kernel/btf mounted read-only from the host",
          btf.get("readOnly") is True and
          vols.get(btf.get("name"), {}).get("hostPath", {}).get("path") == "/sys/kernel/btf")
    out = re.search(r'-o "?([^" ]+)/shard-', script)
    check("kubernetes: the traces go to a mounted volume",
          out and out.group(1) in mounts and mounts[out.group(1)]["name"] in vols)
    anti = pod.get("affinity", {}).get("podAntiAffinity", {}).get(
        "requiredDuringSchedulingIgnoredDuringExecution", [])
    check("kubernetes: one shard per node (anti-affinity on the pod's labels)",
          any(t.get("topologyKey") == "kubernetes.io/hostname" and
              t.get("labelSelector", {}).get("matchLabels", {}).items() <=
              spec["template"].get("metadata", {}).get("labels", {}).items() for t in anti))


def github(path):
    with open(path) as f:
        wf = yaml.safe_load(f)
    if True in wf:  # YAML 1.1 reads the key `on` as the boolean true
        wf["on"] = wf.pop(True)
    schema("github-actions: the workflow against the schema subset", wf, GHA)
    jobs = wf.get("jobs", {})
    n = int(wf.get("env", {}).get("SHARDS", 0))
    for name, job in jobs.items():
        matrix = job.get("strategy", {}).get("matrix", {})
        steps = job.get("steps", [])
        refs = set(re.findall(r"\$\{\{\s*matrix\.([A-Za-z_-]+)", yaml.safe_dump(steps)))
        check("github-actions: %s: every step is either uses or run" % name,
              all(("uses" in st) != ("run" in st) for st in steps))
        check("github-actions: %s: every ${{ matrix.X }} is in its matrix" % name,
              refs <= set(matrix), "not in the matrix: %s" % sorted(refs - set(matrix)))
    shard_jobs = [k for k, j in jobs.items()
                  if "shard" in j.get("strategy", {}).get("matrix", {})]
    if not check("github-actions: a job with a shard matrix", len(shard_jobs) == 1):
        return
    sj = jobs[shard_jobs[0]]
    check("github-actions: matrix.shard = 0..SHARDS-1",
          n > 0 and sj["strategy"]["matrix"]["shard"] == list(range(n)),
          "SHARDS %d, matrix %r" % (n, sj["strategy"]["matrix"]["shard"]))
    runs = "\n".join(s.get("run", "") for s in sj["steps"])
    shard_cmds = re.findall(r"^\s*(sudo )?benchscope run .*--shard \"\$\{\{ matrix\.shard \}\}/"
                            r"\$SHARDS\"", runs, re.M)
    check("github-actions: base and head measured with --shard ${{ matrix.shard }}/$SHARDS",
          len(shard_cmds) == 2, "found %d" % len(shard_cmds))
    check("github-actions: benchscope run with sudo", shard_cmds and set(shard_cmds) == {"sudo "})
    up = [s for s in sj["steps"] if s.get("uses", "").startswith("actions/upload-artifact@")]
    check("github-actions: one artifact per shard",
          len(up) == 1 and "${{ matrix.shard }}" in up[0].get("with", {}).get("name", ""))
    gates = [k for k, j in jobs.items() if shard_jobs[0] in (
        [j["needs"]] if isinstance(j.get("needs"), str) else j.get("needs", []))]
    if not check("github-actions: a job after the shards (needs)", len(gates) == 1):
        return
    g = jobs[gates[0]]
    down = [s for s in g["steps"] if s.get("uses", "").startswith("actions/download-artifact@")]
    check("github-actions: the gate downloads every shard's artifact",
          down and down[0].get("with", {}).get("merge-multiple") is True and
          down[0]["with"].get("pattern") == "traces-*")
    gruns = "\n".join(s.get("run", "") for s in g["steps"])
    check("github-actions: the gate merges each side's shards",
          len(re.findall(r"benchscope merge traces/(base|new)-shard-\*\.trace -o \1\.trace",
                         gruns)) == 2)
    check("github-actions: the gate fails on a regression",
          re.search(r"benchscope compare base\.trace new\.trace --fail-on-regression [0-9.]+",
                    gruns))


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "."
    kubernetes(repo + "/examples/kubernetes/benchscope-job.yaml")
    github(repo + "/examples/github-actions/benchscope.yml")
    for what, ok, why in results:
        print(("ok %s" % what) if ok else ("FAIL %s%s" % (what, ": " + why if why else "")))
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
