#!/usr/bin/env bash
# On the GPU machine, from the repository root, with gpu-bundle/ carried (built here by
# scripts/gpu-bundle.sh): re-times the PyTorch baselines and cross-checks every task
# (scripts/torch-crosscheck.py, writes tasks/baselines/h200.json and h200.meta.json), then
# times every level's stored solutions against their references with those baselines in
# place (records carry speedup_vs_torch_eager), writes a report per level, and shows
# `crucible eval` of the KernelBench ReLU with its line over PyTorch eager.
# Everything is packed into $OUT/gpu-baselines.tgz (the device tool returns at most 8 files).
set -uo pipefail
ROOT=$(pwd)
B=$ROOT/gpu-bundle
C=$B/bin/crucible
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
export CRUCIBLE_CACHE_DIR=/tmp/crucible-cache
O=/tmp/gpu-baselines; rm -rf "$O"; mkdir -p "$O"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,memory.used --format=csv > "$O/gpu.txt" 2>&1
cat "$O/gpu.txt"
NAME=${CROSSCHECK_NAME:-*}

echo "== torch cross-check and baselines ($NAME)"
s=$(date +%s)
PYTHONUNBUFFERED=1 timeout ${CROSSCHECK_TIMEOUT:-330} python3 scripts/torch-crosscheck.py --crucible "$C" --name "$NAME" \
  --budget-s ${COMPILE_BUDGET_S:-200} --reps 30 > "$O/torch-crosscheck.txt" 2>&1
echo "exit $? after $(( $(date +%s) - s )) s"
grep -vE "^pass " "$O/torch-crosscheck.txt" | tail -60
cp tasks/baselines/h200.json tasks/baselines/h200.meta.json results/torch-crosscheck.json "$O/" 2>/dev/null

echo "== level suites on cuda, timed, with the new baselines"
for l in ${LEVELS:-1 2 3}; do
  rm -rf "$ROOT/results/gpu-time-level$l"
  s=$(date +%s)
  $C run configs/time-level$l.yaml --name gpu-time-level$l --backend cuda > "$O/time-level$l.log" 2>&1
  echo "level $l: exit $? after $(( $(date +%s) - s )) s"
  grep -vE "  pass" "$O/time-level$l.log" | grep -vE "^replay|^$" | tail -14
  cp "$ROOT/results/gpu-time-level$l/records.jsonl" "$O/time-level$l.jsonl" 2>/dev/null
  $C report "$ROOT/results/gpu-time-level$l" -q -o "$O/report-level$l" > /dev/null 2>&1
done

echo "== crucible eval of the KernelBench ReLU (text)"
$C eval --task tasks/level1/relu_kernelbench --candidate tasks/level1/relu_kernelbench/solutions/good.cu --backend cuda \
  > "$O/relu-eval.txt" 2>&1
tail -6 "$O/relu-eval.txt"

echo "== CUDA device tests"
timeout 180 "$B/bin/test_gpu_cuda" --gtest_brief=1 > "$O/test_gpu_cuda.log" 2>&1; echo "exit $?"
tail -5 "$O/test_gpu_cuda.log"
cat /tmp/crucible-cache/artifacts/pe/peaks-cuda-v2-* > "$O/peaks.json" 2>/dev/null

tar czf "${OUT:-/tmp}/gpu-baselines.tgz" -C "$O" .
