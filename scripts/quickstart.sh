#!/usr/bin/env bash
# Sets up, builds and runs the main job: the quickstart suite on the best backend here.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/crucible run configs/quickstart.yaml --name quickstart "$@"
