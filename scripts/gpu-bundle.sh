#!/usr/bin/env bash
# Builds here and packs what the GPU machine needs into gpu-bundle/ (git-ignored):
# the crucible binary, the test binaries, and the non-system shared libraries they load
# (by ldd) that the GPU machine lacks. CUDA's own libraries (libcuda, NVRTC, CUPTI) are
# left out: they must come from the GPU machine's /usr/local/cuda and driver.
# Then, on the GPU machine (the `device` tool, carry: [gpu-bundle]):
#   bash gpu-bundle/run-gpu.sh        # GPU tests + benchmarks, logs under $OUT
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
[ "$BUILD" = build ] && scripts/setup.sh
B=gpu-bundle
rm -rf "$B"; mkdir -p "$B/bin" "$B/lib"
cp "$BUILD"/crucible "$B/bin/"
for t in "$BUILD"/tests/test_*; do [ -x "$t" ] && cp "$t" "$B/bin/"; done
for f in "$B"/bin/*; do
  ldd "$f" | awk '/=> \//{print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libcuda.so*|libnvrtc*|libcupti*|libnvidia*|libc.so*|libm.so*|libpthread*|libdl.so*|librt.so*|libresolv*|ld-linux*) ;;
      *) cp -nL "$lib" "$B/lib/" ;;
    esac
  done
done
strip --strip-debug "$B"/bin/* "$B"/lib/* 2>/dev/null || true
cp scripts/run-gpu.sh "$B/run-gpu.sh"
du -sh "$B"
