#!/usr/bin/env bash
# Re-check on the GPU machine of the tasks changed after the main GPU run: the level-3
# suite timed (references and good candidates), and the torch cross-check of the tasks
# whose model.py or plans were fixed. Outputs packed into $OUT/gpu-final.tgz.
set -uo pipefail
B=$(pwd)/gpu-bundle; C=$B/bin/crucible
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64:${LD_LIBRARY_PATH:-}
export CRUCIBLE_CACHE_DIR=/tmp/crucible-cache
O=/tmp/gf; rm -rf $O; mkdir -p $O
rm -rf results/gpu-time-level3
$C run configs/time-level3.yaml --name gpu-time-level3 --backend cuda > $O/time-level3.log 2>&1
grep -E "^\[" $O/time-level3.log
cp results/gpu-time-level3/records.jsonl $O/time-level3.jsonl
for t in avg_pool_1d groupnorm max_pool_2d lstm_cell conv_stage gru_cell; do
  PYTHONUNBUFFERED=1 timeout 90 python3 scripts/torch-crosscheck.py --crucible $C --name $t --reps 10 --budget-s 30 --report results/xc-$t.json 2>&1 | grep -E "^$t |^     " | tee -a $O/crosscheck.txt
done
cp tasks/baselines/h200.json $O/h200.json
tar czf ${OUT:-/tmp}/gpu-final.tgz -C $O .
