#!/usr/bin/env bash
# Installs the Debian packages Crucible builds against (as root, or via sudo) and
# configures and builds build/crucible. CUDA is used when /usr/local/cuda exists.
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS="build-essential cmake ninja-build pkg-config libtbb-dev libyaml-cpp-dev nlohmann-json3-dev \
libcurl4-openssl-dev libgtest-dev libcli11-dev libffi-dev libseccomp-dev libcpp-httplib-dev libamdhip64-dev chromium"
missing=""
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build -j"$(nproc)"
