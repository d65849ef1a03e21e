#!/usr/bin/env bash
# Issue-4 benchmark on the GPU machine: whole-process `crucible eval` of the float4 ReLU
# candidate on KernelBench's level-1 ReLU size (4096 x 393216 fp32): 1 warm-up (fills
# the artifact and peak caches), then 5 timed evaluations; prints wall, speedup, medians.
set -uo pipefail
B=$(pwd)/gpu-bundle
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
export CRUCIBLE_CACHE_DIR=/tmp/crucible-cache
C=$B/bin/crucible; T=tasks/level1/relu_kernelbench; S=$T/solutions/good.cu
$C eval --task $T --candidate $S --backend cuda --json > /tmp/warm.json 2>&1
for i in 1 2 3 4 5; do
  s=$(date +%s%N); $C eval --task $T --candidate $S --backend cuda --json > /tmp/r$i.json 2>&1; e=$(date +%s%N)
  python3 - "$i" "$(( (e - s) / 1000000 ))" <<'PY'
import json, sys
j = json.load(open(f"/tmp/r{sys.argv[1]}.json"))
s = [x for x in j["shapes"] if x.get("candidate")][0]
print(f"eval {sys.argv[1]}: whole process {sys.argv[2]} ms, worker {j['wall_ms']:.0f} ms, verdict {j['verdict']}, "
      f"speedup {j['speedup']:.4f}, cand {s['candidate']['median_ms']:.4f} ms ({s['candidate']['samples']} samples), "
      f"ref {s['reference']['median_ms']:.4f} ms, cupti {s['cupti']['kernel_ms']:.4f} ms, flags {j['flags']}")
PY
done
