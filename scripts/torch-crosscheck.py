#!/usr/bin/env python3
"""PyTorch as the outside judge (issue 7), run on the GPU machine from the repo root.

For every task with a model.py:
  1. check: for its first test shapes (and the benchmark shape when small enough), the
     task's GPU reference output on the task's own generated inputs
     (`crucible reference-output --backend cuda`, which also writes the inputs exactly as
     `crucible inputs` does) is compared with PyTorch's output on the same inputs, within
     the task's tolerance;
  2. time: PyTorch eager and torch.compile on the benchmark shape (the model's
     get_inputs()), with CUDA events and an L2 flush before every sample; median of --reps;
     after every check is done, so nothing else shares the GPU while PyTorch is timed.
Writes tasks/baselines/h200.json {task: {eager_ms, compile_ms, shape}} (merged with what
is there), a report JSON, and a summary table. Exit code 0 when every checked task agrees.

How PyTorch gets the task's tensors: if model.py defines
    def crucible_forward(inputs: dict, params: dict) -> dict
(inputs by task name, params = the shape's parameters, returns outputs by task name), it
is used; otherwise Model(*get_init_inputs())(*inputs in task order) must be
parameter-free, and its (first) output is compared with the task's first output.
See docs/audit.md.
"""
import argparse
import fnmatch
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import importlib.util
from concurrent.futures import ThreadPoolExecutor

try:
    import yaml  # optional: a small parser below covers the task format's shape lists
except Exception:  # pragma: no cover
    yaml = None

import torch

DTYPES = {
    "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
    "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8, "bool": torch.bool,
}


# ---------------------------------------------------------------- task.yaml (shape lists)
def _scalar(v):
    v = v.strip().strip("'\"")
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def _flow_map(text):
    text = text.strip()
    if not (text.startswith("{") and text.endswith("}")):
        raise ValueError("expected a {K: V} shape, got " + text)
    out = {}
    for part in text[1:-1].split(","):
        if part.strip():
            k, v = part.split(":", 1)
            out[k.strip()] = _scalar(v)
    return out


def load_shapes(task_yaml):
    """tests / benchmarks of a task.yaml as lists of dicts (PyYAML if present)."""
    with open(task_yaml) as f:
        text = f.read()
    if yaml is not None:
        y = yaml.safe_load(text)
        return {"name": y.get("name"), "tests": y.get("tests") or [], "benchmarks": y.get("benchmarks") or []}
    res = {"name": None, "tests": [], "benchmarks": []}
    cur = None
    for line in text.splitlines():
        s = line.split("#", 1)[0].rstrip()
        if not s:
            continue
        if not s.startswith(" ") and not s.startswith("-"):
            key = s.split(":", 1)[0].strip()
            cur = key if key in ("tests", "benchmarks") else None
            if key == "name":
                res["name"] = s.split(":", 1)[1].strip()
            continue
        if cur and s.strip().startswith("- "):
            res[cur].append(_flow_map(s.strip()[2:]))
    return res


def shape_text(p):
    return ",".join(f"{k}={v}" for k, v in p.items())


# ---------------------------------------------------------------- model.py
def load_model_module(path):
    spec = importlib.util.spec_from_file_location("crucible_model_" + str(abs(hash(path))), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_model(mod, inputs, params, out_names, model_cache):
    """PyTorch's outputs by name on the task's inputs (dict name -> cuda tensor)."""
    if hasattr(mod, "crucible_forward"):
        with torch.no_grad():
            outs = mod.crucible_forward(dict(inputs), dict(params))
        return {k: v for k, v in outs.items()}
    if "model" not in model_cache:
        init = mod.get_init_inputs() if hasattr(mod, "get_init_inputs") else []
        m = mod.Model(*init).cuda().eval()
        if any(True for _ in m.parameters()) or any(True for _ in m.buffers()):
            raise SkipCheck("Model has parameters/buffers but model.py has no crucible_forward(inputs, params)")
        model_cache["model"] = m
    with torch.no_grad():
        out = model_cache["model"](*inputs.values())
    if isinstance(out, (tuple, list)):
        return {n: o for n, o in zip(out_names, out)}
    return {out_names[0]: out}


class SkipCheck(Exception):
    pass


# ---------------------------------------------------------------- raw files
def load_tensor(dirpath, t):
    dt = DTYPES[t["dtype"]]
    path = os.path.join(dirpath, t["file"])
    n = math.prod(t["shape"]) if t["shape"] else 1
    raw = torch.from_file(path, shared=False, size=n * torch.empty((), dtype=dt).element_size(), dtype=torch.uint8)
    return raw.view(dt).reshape(t["shape"]).cuda()


def compare(name, got, ref, atol, rtol):
    if got.numel() != ref.numel():
        return False, f"{name}: PyTorch gives {tuple(got.shape)}, the task {tuple(ref.shape)}"
    got = got.reshape(ref.shape)
    if ref.dtype == torch.bool or not ref.is_floating_point():
        bad = (got.to(torch.int64) != ref.to(torch.int64))
        nbad = int(bad.sum())
        return nbad == 0, f"{name}: {nbad} of {ref.numel()} differ" if nbad else f"{name}: exact"
    g = got.double()
    r = ref.double()
    diff = (g - r).abs()
    tol = atol + rtol * r.abs()
    bad = ~(diff <= tol)
    bad &= ~(torch.isnan(g) & torch.isnan(r))
    nbad = int(bad.sum())
    finite = torch.isfinite(diff)
    max_abs = float(diff[finite].max()) if bool(finite.any()) else float("nan")
    msg = f"{name}: max abs err {max_abs:.3g} (atol {atol:g}, rtol {rtol:g})"
    if nbad:
        i = int(bad.flatten().nonzero()[0])
        msg += f"; {nbad} of {ref.numel()} beyond tolerance, first at {i}: task {float(r.flatten()[i]):.6g}, torch {float(g.flatten()[i]):.6g}"
    return nbad == 0, msg


# ---------------------------------------------------------------- timing
_flush = None


def l2_flush():
    global _flush
    if _flush is None:
        _flush = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.float32, device="cuda")
    _flush.zero_()


def time_fn(fn, reps, warmup=3):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        l2_flush()
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    ts.sort()
    return ts[len(ts) // 2]


def bench_inputs(mod):
    """The model's get_inputs() (the benchmark shape), created on the GPU directly."""
    prev = torch.get_default_device() if hasattr(torch, "get_default_device") else None
    torch.set_default_device("cuda")
    try:
        xs = mod.get_inputs()
    finally:
        torch.set_default_device(prev if prev is not None else "cpu")
    return [x.cuda() if torch.is_tensor(x) else x for x in xs]


# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crucible", default="gpu-bundle/bin/crucible")
    ap.add_argument("--tasks", default="tasks")
    ap.add_argument("--name", default="*", help="task name glob (folder name)")
    ap.add_argument("--backend", default="cuda", help="backend of the reference outputs (cuda; cpu to test the script)")
    ap.add_argument("--test-shapes", type=int, default=2, help="test shapes checked per task")
    ap.add_argument("--max-check-gb", type=float, default=1.0, help="check the benchmark shape only below this many GB of inputs+outputs")
    ap.add_argument("--max-bench-gb", type=float, default=40.0, help="time only when get_inputs() is below this many GB")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--no-time", action="store_true")
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile timings")
    ap.add_argument("--budget-s", type=float, default=280, help="stop starting torch.compile timings after this many seconds")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--jobs", type=int, default=4, help="reference-output processes in flight")
    ap.add_argument("--baselines", default="tasks/baselines/h200.json")
    ap.add_argument("--report", default="results/torch-crosscheck.json")
    a = ap.parse_args()
    t_start = time.time()

    torch.backends.cuda.matmul.allow_tf32 = False  # the check compares IEEE f32 results
    torch.backends.cudnn.allow_tf32 = False

    tasks = []
    for root, dirs, files in os.walk(a.tasks):
        dirs.sort()
        if "task.yaml" in files and "model.py" in files and fnmatch.fnmatch(os.path.basename(root), a.name):
            tasks.append(root)
    tasks.sort()
    if not tasks:
        print("no task with model.py under", a.tasks)
        return 1
    have_refout = subprocess.run([a.crucible, "reference-output", "--help"], capture_output=True).returncode == 0
    if not have_refout:
        print("warning: this crucible has no `reference-output`: PyTorch runs but nothing is compared")

    work = tempfile.mkdtemp(prefix="crucible-torch-")
    results = {}

    def plan(task_dir):
        sh = load_shapes(os.path.join(task_dir, "task.yaml"))
        shapes = [("test", p) for p in sh["tests"][: a.test_shapes]]
        if sh["benchmarks"]:
            shapes.append(("benchmark", sh["benchmarks"][0]))
        return sh, shapes

    def refout(task_dir, kind, p, idx):
        d = os.path.join(work, os.path.basename(task_dir), str(idx))
        os.makedirs(d, exist_ok=True)
        if not have_refout:
            cmd = [a.crucible, "inputs", "--task", task_dir, "--shape", shape_text(p), "--seed", str(a.seed), "--out", d]
        else:
            cmd = [a.crucible, "reference-output", "--backend", a.backend, "--task", task_dir, "--shape", shape_text(p),
                   "--seed", str(a.seed), "--out", d]
        # No speed-of-light peaks needed for reference outputs; measuring them while
        # PyTorch and other workers share the GPU would only waste time.
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, CRUCIBLE_SKIP_PEAKS="1"))
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[-2000:]}")
        return d

    # Plans first; the benchmark shape is checked only when its tensors are small enough.
    plans = {}
    for t in tasks:
        try:
            plans[t] = plan(t)
        except Exception as e:
            results[t] = {"status": "error", "error": f"task.yaml: {e}"}
    pool = ThreadPoolExecutor(max_workers=max(1, a.jobs))
    futures = {}
    mods = {}
    for t, (sh, shapes) in plans.items():
        for i, (kind, p) in enumerate(shapes):
            if kind == "benchmark":
                try:
                    if t not in mods:
                        mods[t] = load_model_module(os.path.join(t, "model.py"))
                    xs = bench_inputs(mods[t])
                    gb = 2 * sum(x.numel() * x.element_size() for x in xs if torch.is_tensor(x)) / 1e9
                    del xs
                    torch.cuda.empty_cache()
                    if gb > a.max_check_gb:
                        continue
                except Exception:
                    continue
            futures[(t, i)] = pool.submit(refout, t, kind, p, i)

    for t, (sh, shapes) in plans.items():
        name = sh.get("name") or os.path.basename(t)
        res = {"task": name, "dir": t, "checks": [], "status": "pass"}
        results[t] = res
        try:
            if t not in mods:
                mods[t] = load_model_module(os.path.join(t, "model.py"))
            mod = mods[t]
            cache = {}
            for i, (kind, p) in enumerate(shapes):
                if (t, i) not in futures:
                    res["checks"].append({"kind": kind, "shape": p, "status": "skipped", "why": f"over {a.max_check_gb} GB"})
                    continue
                entry = {"kind": kind, "shape": p}
                try:
                    d = futures[(t, i)].result()
                    ins = json.load(open(os.path.join(d, "inputs.json")))
                    inputs = {x["name"]: load_tensor(d, x) for x in ins["tensors"]}
                    outs_meta = json.load(open(os.path.join(d, "outputs.json"))) if have_refout else None
                    out_names = [x["name"] for x in outs_meta["tensors"]] if outs_meta else ["out"]
                    got = run_model(mod, inputs, p, out_names, cache)
                    if outs_meta is None:
                        entry["status"] = "ran"
                    else:
                        ok_all, msgs = True, []
                        for o in outs_meta["tensors"]:
                            if o["name"] not in got:
                                ok_all = False
                                msgs.append(f"{o['name']}: PyTorch gave no such output")
                                continue
                            ref = load_tensor(d, o)
                            ok, msg = compare(o["name"], got[o["name"]], ref, o["atol"], o["rtol"])
                            ok_all &= ok
                            msgs.append(msg)
                        entry["status"] = "pass" if ok_all else "mismatch"
                        entry["detail"] = "; ".join(msgs)
                    del inputs, got
                except SkipCheck as e:
                    entry["status"] = "skipped"
                    entry["why"] = str(e)
                except Exception as e:
                    entry["status"] = "error"
                    entry["why"] = f"{type(e).__name__}: {e}"
                finally:
                    shutil.rmtree(os.path.join(work, os.path.basename(t), str(i)), ignore_errors=True)
                res["checks"].append(entry)
            sts = [c["status"] for c in res["checks"]]
            res["status"] = ("mismatch" if "mismatch" in sts else "error" if "error" in sts
                             else "pass" if "pass" in sts else "skipped" if "skipped" in sts else "ran")
        except Exception as e:
            res["status"] = "error"
            res["error"] = f"{type(e).__name__}: {e}"
            res["trace"] = traceback.format_exc()[-3000:]
            torch.cuda.empty_cache()
        print(f"{res['status']:9s} {name:32s} " + " | ".join(
            f"{c['kind']} {shape_text(c['shape'])}: {c['status']}" for c in res.get("checks", [])), flush=True)
    pool.shutdown()

    # Eager timing on the benchmark shape (KernelBench's baseline), only once every
    # reference-output worker is done: nothing else runs on the GPU while PyTorch is timed
    # (timed beside them, eager times moved by up to 15% between two runs).
    if not a.no_time:
        for t, (sh, shapes) in plans.items():
            res = results[t]
            if not sh["benchmarks"] or t not in mods:  # no benchmark, or model.py did not load
                continue
            try:
                mod = mods[t]
                xs = bench_inputs(mod)
                gb = sum(x.numel() * x.element_size() for x in xs if torch.is_tensor(x)) / 1e9
                if gb > a.max_bench_gb:
                    res["time_skipped"] = f"inputs {gb:.1f} GB over {a.max_bench_gb}"
                else:
                    init = mod.get_init_inputs() if hasattr(mod, "get_init_inputs") else []
                    m = mod.Model(*init).cuda().eval()
                    with torch.no_grad():
                        res["eager_ms"] = time_fn(lambda: m(*xs), a.reps)
                    res["shape"] = sh["benchmarks"][0]
                    del m
                del xs
            except Exception as e:
                res["time_error"] = f"{type(e).__name__}: {e}"[:500]
            torch.cuda.empty_cache()
            if "eager_ms" in res:
                print(f"eager     {res['task']:32s} {res['eager_ms']:.4f} ms", flush=True)

    # torch.compile timings last, while the time budget lasts (compiling takes seconds per model).
    if not a.no_time and not a.no_compile:
        for t, (sh, shapes) in plans.items():
            res = results[t]
            if "eager_ms" not in res:
                continue
            if time.time() - t_start > a.budget_s:
                res["compile_skipped"] = "time budget spent"
                continue
            try:
                mod = mods[t]
                xs = bench_inputs(mod)
                init = mod.get_init_inputs() if hasattr(mod, "get_init_inputs") else []
                m = torch.compile(mod.Model(*init).cuda().eval())
                with torch.no_grad():
                    c0 = time.time()
                    m(*xs)
                    torch.cuda.synchronize()
                    res["compile_build_s"] = time.time() - c0
                    res["compile_ms"] = time_fn(lambda: m(*xs), a.reps)
                del xs, m
            except Exception as e:
                res["compile_error"] = f"{type(e).__name__}: {e}"[:500]
            torch.cuda.empty_cache()

    shutil.rmtree(work, ignore_errors=True)

    # Baselines: merged with the file's previous content, one entry per task.
    base = {}
    if os.path.exists(a.baselines):
        try:
            base = json.load(open(a.baselines))
        except Exception:
            base = {}
    for res in results.values():
        prev = base.get(res.get("task"), {})
        if "eager_ms" in res:
            e = {"eager_ms": round(res["eager_ms"], 5), "shape": res["shape"]}
            # A torch.compile time kept from before only if it was timed at the same shape.
            e["compile_ms"] = (round(res["compile_ms"], 5) if "compile_ms" in res
                               else prev.get("compile_ms") if prev.get("shape") == res["shape"] else None)
            base[res["task"]] = e
        elif prev and plans.get(res.get("dir"), ({"benchmarks": []},))[0]["benchmarks"][:1] != [prev.get("shape")]:
            # Timed at a shape the task no longer has: dropped rather than left stale.
            del base[res["task"]]
            res["baseline_dropped"] = "timed at another shape than the task's benchmark"
    os.makedirs(os.path.dirname(a.baselines) or ".", exist_ok=True)
    with open(a.baselines, "w") as f:
        json.dump(dict(sorted(base.items())), f, indent=1)
        f.write("\n")
    meta = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cuda": torch.version.cuda,
            "method": f"CUDA events, 256 MiB L2 flush before each sample, median of {a.reps} after 3 warm-ups; "
                      "inputs from the model's get_inputs() at the benchmark shape; TF32 off",
            "when": time.strftime("%Y-%m-%d %H:%M:%S")}
    with open(os.path.splitext(a.baselines)[0] + ".meta.json", "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    os.makedirs(os.path.dirname(a.report) or ".", exist_ok=True)
    with open(a.report, "w") as f:
        json.dump({"meta": meta, "tasks": list(results.values())}, f, indent=1, default=str)
        f.write("\n")

    counts = {}
    for r in results.values():
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    print("\n%-34s %-9s %10s %10s" % ("task", "check", "eager ms", "compile ms"))
    for r in results.values():
        print("%-34s %-9s %10s %10s" % (r.get("task", r.get("dir")), r["status"],
                                         "%.4f" % r["eager_ms"] if "eager_ms" in r else "-",
                                         "%.4f" % r["compile_ms"] if "compile_ms" in r else "-"))
        if r["status"] in ("mismatch", "error"):
            for c in r.get("checks", []):
                if c["status"] in ("mismatch", "error"):
                    print("    ", c["kind"], shape_text(c["shape"]), c.get("detail") or c.get("why"))
            if "error" in r:
                print("    ", r["error"])
    print(f"\n{len(results)} tasks: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
          f"; {time.time() - t_start:.0f} s; baselines -> {a.baselines}, report -> {a.report}")
    return 1 if counts.get("mismatch") or counts.get("error") else 0


if __name__ == "__main__":
    sys.exit(main())
