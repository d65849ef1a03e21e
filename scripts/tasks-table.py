#!/usr/bin/env python3
"""Writes docs/tasks.md: the table of tasks (level, family, KernelBench counterpart,
benchmark shape, dtypes) with the H200 reference time from a timed replay run
(docs/gpu-runs/time-level*.jsonl, made by scripts/run-gpu.sh) and PyTorch eager /
torch.compile times from tasks/baselines/h200.json (scripts/torch-crosscheck.py).
Usage: python3 scripts/tasks-table.py > docs/tasks.md"""
import glob, json, os, re

def yaml_field(text, key):
    m = re.search(rf"^{key}:\s*(.+)$", text, re.M)
    return m.group(1).strip() if m else ""

def block(text, key):
    m = re.search(rf"^{key}:\s*\n((?:[ \t]+.*\n|\s*\n)+)", text, re.M)
    return m.group(1) if m else ""

ref = {}
for f in sorted(glob.glob("docs/gpu-runs/time-level*.jsonl")):
    for line in open(f):
        r = json.loads(line)
        if r.get("reference_ms"):
            ref[r["task"]] = (r["reference_ms"], r.get("verdict"), r.get("speedup"), r.get("speedup_vs_torch_eager"))
base = json.load(open("tasks/baselines/h200.json")) if os.path.exists("tasks/baselines/h200.json") else {}
cross = {}
if os.path.exists("docs/gpu-runs/torch-crosscheck-h200.txt"):
    for line in open("docs/gpu-runs/torch-crosscheck-h200.txt"):
        m = re.match(r"^(\w+)\s+(pass|mismatch|error)\s+[\d.]+", line)
        if m:
            cross[m.group(1)] = m.group(2)

rows = []
for ty in sorted(glob.glob("tasks/level*/*/task.yaml")):
    t = open(ty).read()
    name = yaml_field(t, "name")
    level = int(yaml_field(t, "level") or 0)
    kb = yaml_field(t, "kernelbench") or "none"
    bench = block(t, "benchmarks").strip().splitlines()
    shape = bench[0].strip().lstrip("- ").split("#")[0].strip() if bench else ""
    dtypes = sorted(set(re.findall(r"dtype:\s*(\w+)", t)))
    fam = os.path.basename(os.path.dirname(ty))
    r = ref.get(name)
    b = base.get(name, {})
    rows.append((level, name, kb, shape, "/".join(dtypes),
                 f"{r[0]:.3f}" if r else "-", f"{b['eager_ms']:.3f}" if b.get("eager_ms") else "-",
                 f"{b['compile_ms']:.3f}" if b.get("compile_ms") else "-",
                 f"{b['eager_ms'] / r[0]:.2f}x" if r and b.get("eager_ms") else "-", cross.get(name, "-"),
                 f"{r[2]:.2f}x" if r and r[2] else "-", f"{r[3]:.2f}x" if r and r[3] else "-"))

print("# Tasks\n")
counts = {}
for r in rows:
    counts[r[0]] = counts.get(r[0], 0) + 1
print("Suites: " + ", ".join(f"level {k}: {v} tasks" for k, v in sorted(counts.items())) + " (plus tasks/quickstart, 5 tasks).\n")
print("Reference ms: the task's GPU reference (`reference.cu`), median on one H200 from a timed replay run "
      "(`bash scripts/gpu-baselines.sh` with the GPU bundle, configs/time-level*.yaml, outputs in docs/gpu-runs/). "
      "Eager / compile ms: PyTorch 2.11 eager and torch.compile on the same benchmark shape, CUDA events with an L2 "
      "flush, median of 30, timed after every check so nothing else shares the GPU "
      "(`python3 scripts/torch-crosscheck.py`, tasks/baselines/h200.json and h200.meta.json). Torch check: the task's GPU reference "
      "against PyTorch on the task's own generated inputs (first two test shapes, and the benchmark shape when under 1 GB). "
      "Reference vs eager: eager ms / reference ms (below 1x: the reference is slower than PyTorch eager, so speedups "
      "over the reference overstate speedups over PyTorch; reports give both, labelled). good.cu speedup: the stored "
      "correct candidate over the reference, and over eager (`speedup_vs_torch_eager` in its record). Regenerate: `python3 scripts/tasks-table.py > docs/tasks.md`.\n")
print("| level | task | KernelBench | benchmark shape | dtypes | reference ms (H200) | eager ms | compile ms | reference vs eager | torch check | good.cu speedup | good.cu vs eager |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in sorted(rows):
    print("| " + " | ".join(str(x) for x in r) + " |")
