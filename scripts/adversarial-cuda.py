#!/usr/bin/env python3
"""Runs every CUDA adversarial candidate (tests/adversarial/cuda/, one per exploit class
of ANCHORS.md that the candidate format can express) through `crucible eval --backend
cuda` and checks the verdict and flags that tests/adversarial/cuda/expected.yaml
requires. Run on the GPU machine from the repository root with the GPU bundle:
    python3 scripts/adversarial-cuda.py [--crucible gpu-bundle/bin/crucible]
Exit code 0 when every candidate gets an accepted verdict and all required flags."""
import argparse, json, re, subprocess, sys, time

def parse_expected(path):
    # The file is a flat YAML map of inline maps; parsed by hand (no PyYAML needed).
    out = {}
    for line in open(path):
        line = line.split("#", 1)[0].rstrip()
        m = re.match(r"^(\S+):\s*\{(.*)\}\s*$", line)
        if not m:
            continue
        fields, body = {}, m.group(2)
        for k, v in re.findall(r"(\w+):\s*(\[[^\]]*\]|[^,]+)", body):
            v = v.strip()
            fields[k] = [x.strip() for x in v[1:-1].split(",") if x.strip()] if v.startswith("[") else v
        out[m.group(1)] = fields
    return out

ap = argparse.ArgumentParser()
ap.add_argument("--crucible", default="gpu-bundle/bin/crucible")
ap.add_argument("--dir", default="tests/adversarial/cuda")
a = ap.parse_args()
exp = parse_expected(f"{a.dir}/expected.yaml")
bad = 0
for f, e in sorted(exp.items()):
    cmd = [a.crucible, "eval", "--backend", "cuda", "--json", "--task", "tasks/" + e["task"], "--candidate", f"{a.dir}/{f}",
           "--deadline", str(e.get("deadline", 5))]
    if e.get("time", "false") != "true":
        cmd.append("--no-time")
    else:
        cmd += ["--max-time", "0.5"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.time() - t0
    try:
        j = json.loads(p.stdout)
    except Exception:
        print(f"FAIL {f}: no JSON (rc {p.returncode}): {p.stderr[-300:]}")
        bad += 1
        continue
    ok = j["verdict"] in e["verdict"] and all(fl in j["flags"] for fl in e.get("flags", []))
    ok = ok and ("max_s" not in e or dt <= float(e["max_s"]))
    ok = ok and len(p.stdout) + len(p.stderr) < 1 << 20  # a flood must not reach the caller
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {f:30s} {j['verdict']:14s} {','.join(j['flags']):40s} {dt:5.1f}s  {j['message'][:110]}")
print(f"{len(exp) - bad}/{len(exp)} adversarial CUDA candidates got the required verdict")
sys.exit(1 if bad else 0)
