#!/usr/bin/env bash
# Sets up, builds and runs every test. Tests labelled `gpu` need a GPU: without one
# they are skipped visibly (listed, not run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
if [ -e /dev/nvidiactl ] || [ -e /dev/kfd ]; then
  ctest --output-on-failure -j"$(nproc)"
else
  echo "No GPU on this machine: skipping the tests labelled 'gpu':"
  ctest -N -L gpu | sed -n 's/^ *Test *#[0-9]*: /  skipped: /p'
  ctest --output-on-failure -j"$(nproc)" -LE gpu
fi
