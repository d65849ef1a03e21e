// Benchmark (label gpu, so CI skips it): compile latency per candidate through a warm
// compile-only NVRTC worker, the path every candidate takes in `crucible eval` and
// `crucible run`. Prints the median; asserts only that compiles succeed (speed targets
// are benchmarks, never timed unit tests). Distinct sources defeat the artifact cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "harness/worker_client.h"

using namespace crucible;

TEST(CompileLatency, NvrtcWarmWorkerMedian) {
  setenv("CRUCIBLE_CACHE_DIR", "off", 1);
  const char* root = getenv("CRUCIBLE_ROOT");
  std::ifstream f((root ? std::string(root) : std::string(CRUCIBLE_TEST_DIR) + "/..") + "/tasks/quickstart/relu/solutions/good.cu");
  ASSERT_TRUE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  WorkerSpec spec;
  spec.backend = "cuda";
  spec.compile_only = true;
  // CRUCIBLE_BIN: where the crucible binary is when the tests travel in the GPU bundle.
  const char* bin = getenv("CRUCIBLE_BIN");
  spec.exe = bin ? bin : std::string(CRUCIBLE_BINARY_DIR) + "/crucible";
  Worker w(spec);
  std::vector<double> wall, nvrtc;
  for (int i = 0; i < 22; ++i) {
    std::string src = "// variant " + std::to_string(i) + "\n" + ss.str();
    auto t0 = std::chrono::steady_clock::now();
    auto r = w.call({{"op", "compile"}, {"source", src}, {"name", "candidate"}, {"arch", "sm_90"}}, "compile");
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.status, WorkerReply::Status::ok) << r.detail;
    ASSERT_TRUE(r.msg.value("ok", false)) << r.msg.dump();
    if (i >= 2) {  // the first compiles warm NVRTC up (180 ms first call measured here)
      wall.push_back(ms);
      nvrtc.push_back(r.msg.value("compile_ms", 0.0));
    }
  }
  std::sort(wall.begin(), wall.end());
  std::sort(nvrtc.begin(), nvrtc.end());
  std::printf("compile latency, warm worker, %zu candidates: median %.1f ms round trip (NVRTC alone %.1f ms), min %.1f, max %.1f\n",
              wall.size(), wall[wall.size() / 2], nvrtc[nvrtc.size() / 2], wall.front(), wall.back());
}
