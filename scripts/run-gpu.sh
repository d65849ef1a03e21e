#!/usr/bin/env bash
# Runs on the GPU machine from the repository root, with gpu-bundle/ carried:
# the GPU-labelled tests, then the issue-4 benchmarks. Logs go under $OUT.
set -uo pipefail
ROOT=$(pwd)
B=$ROOT/gpu-bundle
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
export CRUCIBLE_ROOT=$ROOT
export CRUCIBLE_CACHE_DIR=/tmp/crucible-cache
C=$B/bin/crucible
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.txt" 2>&1
echo "== devices"; $C devices 2>&1 | tee "$OUT/devices.txt" | head -40
echo "== gpu tests"
for t in $B/bin/test_gpu_*; do
  [ -x "$t" ] || continue
  "$t" --gtest_brief=1 2>&1 | tee "$OUT/$(basename "$t").log" | tail -25
done
echo "== quickstart on cuda"
rm -rf "$ROOT/results/gpu-quickstart"
( time $C run configs/quickstart.yaml --name gpu-quickstart --backend cuda ) > "$OUT/quickstart.log" 2>&1
tail -40 "$OUT/quickstart.log"
cp "$ROOT/results/gpu-quickstart/records.jsonl" "$OUT/quickstart-records.jsonl" 2>/dev/null
echo "== KernelBench level-1 ReLU (4096 x 393216 fp32), float4 candidate: 1 warm-up then 5 timed evals"
T=tasks/level1/relu_kernelbench; S=$T/solutions/good.cu
$C eval --task $T --candidate $S --backend cuda --json > "$OUT/relu-warm.json" 2>&1
for i in 1 2 3 4 5; do
  s=$(date +%s.%N); $C eval --task $T --candidate $S --backend cuda --json > "$OUT/relu-$i.json" 2>&1; e=$(date +%s.%N)
  echo "eval $i wall_s $(echo "$e - $s" | bc)" | tee -a "$OUT/relu-wall.txt"
done
python3 - "$OUT" <<'PY'
import json, sys, glob, statistics
out = sys.argv[1]
rows = []
for i in range(1, 6):
    try:
        j = json.load(open(f"{out}/relu-{i}.json"))
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
echo "== compile latency (warm worker)"
$B/bin/test_gpu_cuda --gtest_filter='*CompileLatency*' 2>&1 | tail -5
