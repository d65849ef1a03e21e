#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with gpu-bundle/ carried:
# the GPU-labelled tests, then the issue-4 benchmarks. Logs go under $OUT.
set -uo pipefail
ROOT=$(pwd)
B=$ROOT/gpu-bundle
# Everything is written under one folder and packed into $OUT/gpu-out.tgz at the end
# (the device tool brings back at most 8 files).
REAL_OUT=${OUT:-/tmp/out}; OUT=/tmp/gpu-out; rm -rf "$OUT"; mkdir -p "$OUT" "$REAL_OUT"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
export CRUCIBLE_ROOT=$ROOT
export CRUCIBLE_CACHE_DIR=/tmp/crucible-cache
export CRUCIBLE_BIN=$B/bin/crucible
C=$B/bin/crucible
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
echo "== devices"; $C devices > "$OUT/devices.txt" 2>&1; head -20 "$OUT/devices.txt"
echo "== gpu tests"
for t in $B/bin/test_gpu_*; do
  [ -x "$t" ] || continue
  "$t" --gtest_brief=1 2>&1 | tee -a "$OUT/gpu-tests.log" | grep -vE "^\[ +(OK|RUN) " | tail -25
done
echo "== stand-alone ReLU timing (nvcc)"
nvcc -O3 -arch=sm_90 scripts/standalone-relu.cu -o /tmp/standalone-relu && /tmp/standalone-relu
echo "== quickstart on cuda"
rm -rf "$ROOT/results/gpu-quickstart"
( time $C run configs/quickstart.yaml --name gpu-quickstart --backend cuda ) > /tmp/quickstart.log 2>&1
tail -20 /tmp/quickstart.log
mkdir -p "$OUT/relu"; cp "$ROOT/results/gpu-quickstart/records.jsonl" "$OUT/relu/quickstart-records.jsonl" 2>/dev/null
echo "== KernelBench level-1 ReLU (4096 x 393216 fp32), float4 candidate: 1 warm-up then 5 timed evals"
T=tasks/level1/relu_kernelbench; S=$T/solutions/good.cu
$C eval --task $T --candidate $S --backend cuda --json > /tmp/relu-warm.json 2>&1
mkdir -p "$OUT/relu"
for i in 1 2 3 4 5; do
  s=$(date +%s%N); $C eval --task $T --candidate $S --backend cuda --json > "$OUT/relu/relu-$i.json" 2>&1; e=$(date +%s%N)
  echo "eval $i whole-process wall $(( (e - s) / 1000000 )) ms"
done
python3 - "$OUT" <<'PY'
import json, sys, glob, statistics
out = sys.argv[1]
rows = []
for i in range(1, 6):
    try:
        j = json.load(open(f"{out}/relu/relu-{i}.json"))
    except Exception as e:
        print("eval", i, "unreadable:", e); continue
    sh = [s for s in j["shapes"] if s.get("candidate")]
    s = sh[-1] if sh else {}
    rows.append((j["verdict"], j["speedup"], j["candidate_ms"], j["reference_ms"], (s.get("cupti") or {}).get("kernel_ms"), j["flags"]))
for r in rows: print("verdict %s speedup %s cand_ms %s ref_ms %s cupti_ms %s flags %s" % r)
sp = [r[1] for r in rows if r[1]]
if sp: print("speedup spread (max/min-1): %.4f" % (max(sp)/min(sp)-1))
cm = [r[2] for r in rows if r[2]]; cu = [r[4] for r in rows if r[4]]
if cm and cu: print("median cand_ms %.4f  cupti_ms %.4f  diff %.2f%%" % (statistics.median(cm), statistics.median(cu), 100*(statistics.median(cm)/statistics.median(cu)-1)))
PY

echo "== adversarial CUDA candidates"
python3 scripts/adversarial-cuda.py --crucible $C 2>&1 | tee "$OUT/adversarial-cuda.txt"
echo "== torch cross-check (first: the timed runs below use the baselines it writes)"
PYTHONUNBUFFERED=1 timeout 200 python3 scripts/torch-crosscheck.py --crucible $C --budget-s 120 --reps 10 2>&1 | tail -90 | tee "$OUT/relu/torch-crosscheck.txt"
cp tasks/baselines/h200.json "$OUT/relu/h200.json" 2>/dev/null
cp results/torch-crosscheck.json "$OUT/relu/torch-crosscheck.json" 2>/dev/null

echo "== level suites on cuda, timed (references and good candidates, short timing)"
for l in 1 2 3; do
  rm -rf "$ROOT/results/gpu-time-level$l"
  $C run configs/time-level$l.yaml --name gpu-time-level$l --backend cuda > /tmp/time-$l.log 2>&1
  grep -v "  pass" /tmp/time-$l.log | grep -v "^replay\|^model\|^$" | tail -8
  cp "$ROOT/results/gpu-time-level$l/records.jsonl" "$OUT/relu/time-level$l.jsonl" 2>/dev/null
done
tar czf "$REAL_OUT/gpu-out.tgz" -C "$OUT" .
