// Tests the CUDA device on a real GPU (label gpu; every test skips where
// device_count() is 0): facts; Philox fill bit-identical to generate_host for every
// dtype and distribution; checksum and compare identical to the CPU backend's host
// versions; a ReLU candidate's run; plan checks (argument count and sizes, block
// size, shared memory, clusters, missing kernel); 2-block cluster and TMA kernels;
// timed runs, the CUPTI cross-check and the measured peaks; and, each in a fresh
// process, an illegal address (sticky runtime fault named CUDA_ERROR_ILLEGAL_ADDRESS)
// and an endless kernel (sticky timeout).
#include <gtest/gtest.h>

#ifdef CRUCIBLE_HAVE_CUDA

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <vector>

#include <crucible/philox.h>
#include <nlohmann/json.hpp>

#include "backends/cpu/host_compare.h"
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "harness/artifact_cache.h"
#include "harness/inputs.h"
#include "harness/launch_plan.h"

namespace fs = std::filesystem;
using namespace crucible;

namespace {

const char* kRelu = R"(extern "C" __global__ void relu4(const float4* __restrict__ x, float4* __restrict__ y, long n4) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n4; i += (long)gridDim.x * blockDim.x) {
    float4 v = x[i];
    v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
    y[i] = v;
  }
}
extern "C" __global__ void relu_tail(const float* x, float* y, long begin, long n) {
  long i = begin + blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = fmaxf(x[i], 0.f);
}
extern "C" __global__ void big_smem(float* y) {
  extern __shared__ float s[];
  s[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  y[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
extern "C" __global__ void cluster_rank(int* out) {
  unsigned r, n;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
  if (threadIdx.x == 0) out[blockIdx.x] = (int)(r + 10 * n);
}
struct alignas(64) TensorMap { unsigned long long opaque[16]; };
// One 16x32 f32 tile per block through the Tensor Memory Accelerator, then copied out.
extern "C" __global__ void tma_copy(const __grid_constant__ TensorMap map, float* out, int cols) {
  __shared__ alignas(128) float tile[16][32];
  __shared__ alignas(8) unsigned long long bar;
  unsigned bar_a = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned tile_a = (unsigned)__cvta_generic_to_shared(&tile[0][0]);
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 16;
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(bar_a) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar_a), "r"(16 * 32 * 4) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 :: "r"(tile_a), "l"((unsigned long long)&map), "r"(x0), "r"(y0), "r"(bar_a) : "memory");
  }
  unsigned done = 0;
  while (!done) {
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done) : "r"(bar_a) : "memory");
  }
  for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x)
    out[(long)(y0 + i / 32) * cols + x0 + i % 32] = tile[i / 32][i % 32];
}
extern "C" __global__ void bad_address(float* p) { p[(1ll << 40) + threadIdx.x] = 1.f; }
extern "C" __global__ void spin(const int* p) { while (*(volatile const int*)p == 0) {} }
)";

ResolvedArg tensor(uint64_t buf) {
  ResolvedArg a;
  a.kind = PlanArg::Kind::tensor;
  a.buffer = buf;
  return a;
}
ResolvedArg scalar(ScalarType t, int64_t v) {
  ResolvedArg a;
  a.kind = PlanArg::Kind::scalar;
  a.scalar_type = t;
  a.ival = v;
  return a;
}
ResolvedLaunch launch(const std::string& k, int64_t grid, int64_t block, std::vector<ResolvedArg> args) {
  ResolvedLaunch l;
  l.kernel = k;
  l.grid[0] = grid;
  l.block[0] = block;
  l.args = std::move(args);
  return l;
}

std::vector<ResolvedLaunch> relu_plan(const DeviceFacts& f, uint64_t x, uint64_t y, int64_t n) {
  int64_t n4 = n / 4;
  int64_t grid = std::max<int64_t>(1, std::min<int64_t>((n4 + 255) / 256, f.sm_count * 8));
  auto a = launch("relu4", grid, 256, {tensor(x), tensor(y), scalar(ScalarType::i64, n4)});
  auto b = launch("relu_tail", 1, 32, {tensor(x), tensor(y), scalar(ScalarType::i64, n4 * 4), scalar(ScalarType::i64, n)});
  b.index = 1;
  return {a, b};
}

template <class T>
std::vector<T> download_vec(CudaDevice& d, uint64_t buf, size_t n) {
  std::vector<T> v(n);
  d.download(buf, v.data(), n * sizeof(T));
  return v;
}

// One device and the test kernels' module for the whole suite (opening and
// compiling once keeps the suite fast).
class CudaGpu : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (cuda_device_count() == 0) return;
    setenv("CRUCIBLE_CACHE_DIR", cache_dir().c_str(), 1);
    dev_ = new CudaDevice(0);
    NvrtcCompiler c(dev_->facts().arch);
    CompileResult r = c.compile(kRelu, "tests.cu", {});
    if (!r.ok) {
      compile_log_ = new std::string(r.log);
      return;
    }
    mod_ = dev_->load(r.artifact).release();
  }
  static void TearDownTestSuite() {
    delete mod_;
    delete dev_;
    mod_ = nullptr;
    dev_ = nullptr;
    fs::remove_all(cache_dir());
  }
  static fs::path cache_dir() { return fs::temp_directory_path() / ("crucible-gpu-test-" + std::to_string(::getpid())); }
  void SetUp() override {
    if (!dev_) GTEST_SKIP() << "no CUDA device";
    ASSERT_NE(mod_, nullptr) << (compile_log_ ? *compile_log_ : std::string("test kernels did not load"));
  }
  CudaDevice& dev() { return *dev_; }
  Module& mod() { return *mod_; }
  static CudaDevice* dev_;
  static Module* mod_;
  static std::string* compile_log_;
};
CudaDevice* CudaGpu::dev_ = nullptr;
Module* CudaGpu::mod_ = nullptr;
std::string* CudaGpu::compile_log_ = nullptr;

// RAII device buffer for the tests.
struct Buf {
  CudaDevice& d;
  uint64_t id;
  Buf(CudaDevice& dev, size_t bytes) : d(dev), id(dev.alloc(bytes)) {}
  ~Buf() { d.release(id); }
};

}  // namespace

TEST_F(CudaGpu, FactsComeFromTheDevice) {
  const DeviceFacts& f = dev().facts();
  EXPECT_EQ(f.backend, "cuda");
  EXPECT_FALSE(f.name.empty());
  EXPECT_EQ(f.arch.rfind("sm_", 0), 0u);
  EXPECT_GT(f.sm_count, 0);
  EXPECT_EQ(f.warp_size, 32);
  EXPECT_GE(f.max_threads_per_block, 512);
  EXPECT_GE(f.max_smem_per_block, 48 * 1024);
  EXPECT_GE(f.max_smem_per_block_optin, f.max_smem_per_block);
  EXPECT_GT(f.l2_bytes, 0);
  EXPECT_GT(f.clock_khz, 0);
  if (f.arch >= "sm_90") {
    EXPECT_TRUE(f.supports_cluster);
    EXPECT_TRUE(f.supports_tma);
  }
  EXPECT_GT(dev().current_clock_khz(), 0);
}

TEST_F(CudaGpu, FillMatchesGenerateHostBitForBit) {
  struct Dist {
    int id;
    double p0, p1;
  };
  const Dist dists[] = {{CRU_DIST_NORMAL, 0.5, 2.0},   {CRU_DIST_UNIFORM, -3.0, 5.0}, {CRU_DIST_RANDINT, -100, 1000},
                        {CRU_DIST_BERNOULLI, 0.3, 0},  {CRU_DIST_CONSTANT, 1.25, 0}};
  const Dtype dtypes[] = {Dtype::f32, Dtype::f16, Dtype::bf16, Dtype::f64,
                          Dtype::i32, Dtype::i64, Dtype::u8,   Dtype::boolean};
  const uint64_t count = 100003;  // odd: the grid-stride tail is covered
  for (Dtype t : dtypes) {
    for (const Dist& ds : dists) {
      FillSpec s;
      s.dtype = t;
      s.count = count;
      s.seed = 0x1234567890ABCDEFull;
      s.stream = 3;
      s.dist = ds.id;
      s.p0 = ds.p0;
      s.p1 = ds.p1;
      const size_t bytes = count * dtype_size(t);
      std::vector<unsigned char> host(bytes), got(bytes);
      generate_host(s, host.data());
      Buf b(dev(), bytes);
      dev().poison(b.id, bytes);
      dev().fill(b.id, s);
      dev().download(b.id, got.data(), bytes);
      size_t first = bytes;
      for (size_t i = 0; i < bytes; ++i)
        if (host[i] != got[i]) {
          first = i;
          break;
        }
      EXPECT_EQ(first, bytes) << dtype_name(t) << " dist " << ds.id << ": first differing element "
                              << first / dtype_size(t);
    }
  }
}

TEST_F(CudaGpu, ChecksumEqualsHostChecksum) {
  for (size_t bytes : {size_t(0), size_t(7), size_t(8), size_t(1001), size_t((1 << 20) + 3)}) {
    std::vector<unsigned char> h(bytes);
    for (size_t i = 0; i < bytes; ++i) h[i] = static_cast<unsigned char>(i * 131 + 7);
    Buf b(dev(), bytes);
    if (bytes) dev().upload(b.id, h.data(), bytes);
    EXPECT_EQ(dev().checksum(b.id, bytes), host_checksum(h.data(), bytes)) << bytes;
    if (bytes) {
      h[bytes / 2] ^= 1;
      dev().upload(b.id, h.data(), bytes);
      EXPECT_EQ(dev().checksum(b.id, bytes), host_checksum(h.data(), bytes)) << bytes;
    }
  }
  std::vector<unsigned char> a(4096, 1);
  Buf b(dev(), a.size());
  dev().upload(b.id, a.data(), a.size());
  uint64_t before = dev().checksum(b.id, a.size());
  a[100] = 2;
  dev().upload(b.id, a.data(), a.size());
  EXPECT_NE(dev().checksum(b.id, a.size()), before);
}

namespace {

// out/ref pairs covering every rule of CompareStats, for one dtype.
void make_compare_case(Dtype t, size_t n, std::vector<unsigned char>& out, std::vector<unsigned char>& ref) {
  const size_t es = dtype_size(t);
  FillSpec s;
  s.dtype = t;
  s.count = n;
  s.seed = 99;
  s.dist = dtype_is_float(t) ? CRU_DIST_NORMAL : CRU_DIST_RANDINT;
  s.p0 = dtype_is_float(t) ? 0 : -50;
  s.p1 = dtype_is_float(t) ? 1 : 50;
  if (t == Dtype::u8 || t == Dtype::boolean) s.p0 = 0, s.p1 = 2;
  ref.resize(n * es);
  out.resize(n * es);
  generate_host(s, ref.data());
  out = ref;
  FillSpec noise = s;
  noise.seed = 7;
  std::vector<unsigned char> other(n * es);
  generate_host(noise, other.data());
  // Every 10th element differs; a few are poisoned; floats get NaN/Inf cases.
  for (size_t i = 5; i < n; i += 10) std::memcpy(&out[i * es], &other[i * es], es);
  for (size_t i = 3; i < n; i += 97) std::memset(&out[i * es], 0xFF, es);
  if (t == Dtype::f32) {
    float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::memcpy(&ref[0], &nan, 4), std::memcpy(&out[0], &nan, 4);      // NaN matches NaN
    std::memcpy(&ref[4], &inf, 4), std::memcpy(&out[4], &inf, 4);      // Inf matches Inf
    std::memcpy(&out[8], &inf, 4);                                      // Inf where finite
    float tiny = 1e-7f, r;
    std::memcpy(&r, &ref[12], 4);
    r += tiny;
    std::memcpy(&out[12], &r, 4);                                       // within tolerance
  }
}

void expect_same_stats(const CompareStats& a, const CompareStats& b, const std::string& what) {
  EXPECT_EQ(a.count, b.count) << what;
  EXPECT_EQ(a.mismatches, b.mismatches) << what;
  EXPECT_EQ(a.nonfinite, b.nonfinite) << what;
  EXPECT_EQ(a.unwritten, b.unwritten) << what;
  EXPECT_EQ(a.max_abs_err, b.max_abs_err) << what;
  EXPECT_EQ(a.max_rel_err, b.max_rel_err) << what;
  EXPECT_EQ(a.first_mismatch, b.first_mismatch) << what;
  if (a.first_mismatch >= 0) {
    EXPECT_TRUE(a.first_expected == b.first_expected ||
                (std::isnan(a.first_expected) && std::isnan(b.first_expected))) << what;
    EXPECT_TRUE(a.first_actual == b.first_actual || (std::isnan(a.first_actual) && std::isnan(b.first_actual)))
        << what;
  }
  EXPECT_EQ(a.out_min, b.out_min) << what;
  EXPECT_EQ(a.out_max, b.out_max) << what;
}

}  // namespace

TEST_F(CudaGpu, CompareMatchesHostCompareForEveryDtype) {
  const Dtype dtypes[] = {Dtype::f32, Dtype::f16, Dtype::bf16, Dtype::f64,
                          Dtype::i32, Dtype::i64, Dtype::u8,   Dtype::boolean};
  for (Dtype t : dtypes) {
    for (Tolerance tol : {Tolerance{0, 0}, Tolerance{1e-4, 1e-4}, Tolerance{0.5, 0.1}}) {
      const size_t n = 70001;
      std::vector<unsigned char> out, ref;
      make_compare_case(t, n, out, ref);
      Buf bo(dev(), out.size()), br(dev(), ref.size());
      dev().upload(bo.id, out.data(), out.size());
      dev().upload(br.id, ref.data(), ref.size());
      CompareStats d = dev().compare(bo.id, br.id, t, n, tol);
      CompareStats h = host_compare(out.data(), ref.data(), t, n, tol);
      expect_same_stats(d, h, std::string(dtype_name(t)) + " atol " + std::to_string(tol.atol));
    }
  }
}

TEST_F(CudaGpu, CompareSemantics) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> ref = {1.0f, nan, inf, 2.0f, 3.0f, 4.0f, 5.0f};
  std::vector<float> out = {1.0f, nan, inf, 2.5f, inf, 4.0f, 0.0f};
  std::memset(&out[5], 0xFF, 4);  // never written
  Buf bo(dev(), 28), br(dev(), 28);
  dev().upload(bo.id, out.data(), 28);
  dev().upload(br.id, ref.data(), 28);
  CompareStats s = dev().compare(bo.id, br.id, Dtype::f32, 7, {1e-4, 1e-4});
  EXPECT_EQ(s.count, 7u);
  EXPECT_EQ(s.mismatches, 4u);  // 2.5 vs 2, inf vs 3, poison vs 4, 0 vs 5
  EXPECT_EQ(s.nonfinite, 2u);   // inf and the poison NaN where the reference is finite
  EXPECT_EQ(s.unwritten, 1u);
  EXPECT_EQ(s.first_mismatch, 3);
  EXPECT_EQ(s.first_expected, 2.0);
  EXPECT_EQ(s.first_actual, 2.5);
  EXPECT_EQ(s.max_abs_err, 5.0);
  EXPECT_EQ(s.max_rel_err, 1.0);
  EXPECT_EQ(s.out_min, 0.0);
  EXPECT_EQ(s.out_max, 2.5);
  // Identical buffers: nothing to report.
  CompareStats same = dev().compare(br.id, br.id, Dtype::f32, 7, {0, 0});
  EXPECT_EQ(same.mismatches, 0u);
  EXPECT_EQ(same.first_mismatch, -1);
}

TEST_F(CudaGpu, RunsAReluCandidate) {
  const int64_t n = 1000003;
  Buf x(dev(), n * 4), y(dev(), n * 4);
  FillSpec s;
  s.count = n;
  s.seed = 5;
  s.dist = CRU_DIST_NORMAL;
  s.p1 = 1;
  dev().fill(x.id, s);
  dev().poison(y.id, n * 4);
  auto plan = relu_plan(dev().facts(), x.id, y.id, n);
  dev().check(mod(), plan);
  dev().run(mod(), plan);
  auto xs = download_vec<float>(dev(), x.id, n);
  auto ys = download_vec<float>(dev(), y.id, n);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) bad += ys[i] != std::max(xs[i], 0.0f);
  EXPECT_EQ(bad, 0);
  // The same check on the device, against a reference computed on the host.
  std::vector<float> want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = std::max(xs[i], 0.0f);
  Buf r(dev(), n * 4);
  dev().upload(r.id, want.data(), n * 4);
  CompareStats st = dev().compare(y.id, r.id, Dtype::f32, n, {0, 0});
  EXPECT_EQ(st.mismatches, 0u);
  EXPECT_EQ(st.unwritten, 0u);
  EXPECT_EQ(st.out_min, 0.0);
}

TEST_F(CudaGpu, CheckRejectsPlansThatDoNotFit) {
  Buf x(dev(), 4096), y(dev(), 4096);
  auto expect_plan_error = [&](std::vector<ResolvedLaunch> plan, const std::string& part) {
    try {
      dev().check(mod(), plan);
      ADD_FAILURE() << "no PlanError; expected one containing: " << part;
    } catch (const PlanError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  // Wrong argument count.
  expect_plan_error({launch("relu4", 1, 256, {tensor(x.id), tensor(y.id)})}, "takes 3 parameters");
  // i32 where the kernel takes long.
  expect_plan_error({launch("relu4", 1, 256, {tensor(x.id), tensor(y.id), scalar(ScalarType::i32, 10)})},
                    "is 8 bytes");
  // Block too large.
  expect_plan_error({launch("relu4", 1, 2048, {tensor(x.id), tensor(y.id), scalar(ScalarType::i64, 10)})},
                    "block.x is 2048");
  auto two_d = launch("relu4", 1, 64, {tensor(x.id), tensor(y.id), scalar(ScalarType::i64, 10)});
  two_d.block[1] = 32;  // 2048 threads in all
  expect_plan_error({two_d}, "allows at most");
  // No such kernel.
  expect_plan_error({launch("relu8", 1, 256, {tensor(x.id)})}, "no kernel named 'relu8'");
  // Shared memory over the device's limit.
  auto smem = launch("big_smem", 1, 256, {tensor(y.id)});
  smem.smem = dev().facts().max_smem_per_block_optin + 1024;
  expect_plan_error({smem}, "shared memory");
  // Cluster dims that do not divide the grid.
  if (dev().facts().supports_cluster) {
    auto cl = launch("cluster_rank", 3, 32, {tensor(y.id)});
    cl.cluster[0] = 2;
    expect_plan_error({cl}, "not a multiple of cluster.x");
  }
  // A plan that fits passes.
  EXPECT_NO_THROW(dev().check(mod(), relu_plan(dev().facts(), x.id, y.id, 1000)));
}

TEST_F(CudaGpu, OptsInToLargeDynamicSharedMemory) {
  if (dev().facts().max_smem_per_block_optin <= 48 * 1024) GTEST_SKIP() << "no opt-in shared memory here";
  Buf y(dev(), 256 * 4);
  auto l = launch("big_smem", 1, 256, {tensor(y.id)});
  l.smem = 100 * 1024;
  dev().check(mod(), {l});
  dev().run(mod(), {l});
  auto ys = download_vec<float>(dev(), y.id, 256);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(ys[i], static_cast<float>(255 - i));
}

TEST_F(CudaGpu, TwoBlockClusterLaunch) {
  if (!dev().facts().supports_cluster) GTEST_SKIP() << "no thread block clusters on " << dev().facts().arch;
  Buf out(dev(), 8 * 4);
  dev().poison(out.id, 32);
  auto l = launch("cluster_rank", 8, 32, {tensor(out.id)});
  l.cluster[0] = 2;
  dev().check(mod(), {l});
  dev().run(mod(), {l});
  auto v = download_vec<int>(dev(), out.id, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v[i], (i % 2) + 20) << i;
}

TEST_F(CudaGpu, TmaDescriptorLoadsTiles) {
  if (!dev().facts().supports_tma) GTEST_SKIP() << "no TMA on " << dev().facts().arch;
  const int rows = 64, cols = 128;
  Buf a(dev(), rows * cols * 4), out(dev(), rows * cols * 4);
  FillSpec s;
  s.count = rows * cols;
  s.seed = 11;
  s.dist = CRU_DIST_UNIFORM;
  s.p0 = -1;
  s.p1 = 1;
  dev().fill(a.id, s);
  dev().poison(out.id, rows * cols * 4);
  ResolvedArg tma;
  tma.kind = PlanArg::Kind::tma;
  tma.buffer = a.id;
  tma.dtype = Dtype::f32;
  tma.shape = {rows, cols};
  tma.box = {32, 16};  // innermost first: 32 columns by 16 rows
  tma.swizzle = 0;
  auto l = launch("tma_copy", cols / 32, 128, {tma, tensor(out.id), scalar(ScalarType::i32, cols)});
  l.grid[1] = rows / 16;
  dev().check(mod(), {l});
  dev().run(mod(), {l});
  CompareStats st = dev().compare(out.id, a.id, Dtype::f32, rows * cols, {0, 0});
  EXPECT_EQ(st.mismatches, 0u);
  EXPECT_EQ(st.unwritten, 0u);
  // A box the TMA cannot take is a plan error.
  l.args[0].box = {300, 16};
  EXPECT_THROW(dev().check(mod(), {l}), PlanError);
}

TEST_F(CudaGpu, TimedRunIsPositiveAndHeld) {
  const int64_t n = 1 << 24;
  Buf x(dev(), n * 4), y(dev(), n * 4);
  FillSpec s;
  s.count = n;
  s.dist = CRU_DIST_UNIFORM;
  s.p0 = -1;
  s.p1 = 1;
  dev().fill(x.id, s);
  auto plan = relu_plan(dev().facts(), x.id, y.id, n);
  dev().check(mod(), plan);
  int64_t timeouts = dev().blocking_timeouts();
  double ms = 0;
  for (int i = 0; i < 5; ++i) {
    ms = dev().run_timed(mod(), plan);
    EXPECT_GT(ms, 0.0);
    EXPECT_LT(ms, 1000.0);
  }
  EXPECT_EQ(dev().blocking_timeouts(), timeouts);
  // 128 MiB moved: a memory-bound time, far above launch overhead.
  EXPECT_GT(ms, 0.005);
}

TEST_F(CudaGpu, TraceCountsThePlansKernels) {
  const int64_t n = 1 << 22;
  Buf x(dev(), n * 4), y(dev(), n * 4);
  auto plan = relu_plan(dev().facts(), x.id, y.id, n);
  dev().check(mod(), plan);
  Device::TraceResult t = dev().trace(mod(), plan, 3);
  if (t.kernel_ms < 0) GTEST_SKIP() << "CUPTI unavailable here";
  EXPECT_DOUBLE_EQ(t.kernels_per_run, 2.0);
  EXPECT_GT(t.kernel_ms, 0.0);
  // The device still works after tracing.
  dev().run(mod(), plan);
}

TEST_F(CudaGpu, MeasuresPeaks) {
  int64_t clock = dev().measure_peaks(/*use_cache=*/false);
  const DeviceFacts& f = dev().facts();
  EXPECT_GT(f.peak_bytes_per_s, 1e11);  // any current GPU copies faster than 100 GB/s
  EXPECT_GT(f.peak_flops, 1e12);
  EXPECT_GE(clock, 0);
  // Plausible against the DRAM's theoretical bandwidth (the driver's memory clock and
  // bus width): at least half of it, and not above it.
  double th = dev().theoretical_dram_bytes_per_s();
  if (th > 0) {
    EXPECT_GE(f.peak_bytes_per_s, 0.5 * th);
    EXPECT_LE(f.peak_bytes_per_s, 1.02 * th);
  }
  // Cached now: a second call reads the same numbers back.
  double bw = f.peak_bytes_per_s;
  dev().measure_peaks(true);
  EXPECT_EQ(dev().facts().peak_bytes_per_s, bw);
  if (th <= 0) return;
  // A cached figure measured on a shared GPU (here: forged, 1 GB/s) is not trusted: it
  // is measured again, and the cache gets the plausible figure back.
  std::filesystem::path entry;
  for (auto& e : std::filesystem::recursive_directory_iterator(ArtifactCache().dir()))
    if (e.path().filename().string().rfind("peaks-cuda-v2-", 0) == 0) entry = e.path();
  ASSERT_FALSE(entry.empty()) << "no peaks entry under " << ArtifactCache().dir();
  std::ofstream(entry) << R"({"peak_bytes_per_s": 1e9, "peak_flops": 1e12, "clock_khz": 0})";
  dev().measure_peaks(true);
  EXPECT_GE(dev().facts().peak_bytes_per_s, 0.5 * th);
  std::ifstream in(entry);
  EXPECT_GE(nlohmann::json::parse(in)["peak_bytes_per_s"].get<double>(), 0.5 * th);
}

// ---- faults that poison the context: each in a fresh process (a death test in
// the threadsafe style re-executes this binary), so later tests keep a good device.

namespace {

std::unique_ptr<Module> load_tests(CudaDevice& d) {
  NvrtcCompiler c(d.facts().arch);
  CompileResult r = c.compile(kRelu, "tests.cu", {});
  if (!r.ok) std::_Exit(3);
  return d.load(r.artifact);
}

// Child bodies: exit 0 when the fault is what it must be. _Exit, so no destructor
// touches a dead context or waits behind a kernel that still spins.
[[noreturn]] void illegal_address_child() {
  CudaDevice d(0);
  auto m = load_tests(d);
  uint64_t b = d.alloc(1024);
  try {
    d.run(*m, {launch("bad_address", 1, 32, {tensor(b)})});
  } catch (const DeviceFault& e) {
    bool ok = e.kind == DeviceFault::Kind::runtime && e.sticky &&
              std::string(e.what()).find("CUDA_ERROR_ILLEGAL_ADDRESS") != std::string::npos;
    std::fprintf(stderr, "fault: %s\n", e.what());
    std::_Exit(ok ? 0 : 5);
  }
  std::_Exit(4);  // no fault at all
}

[[noreturn]] void endless_kernel_child() {
  CudaDevice d(0);
  auto m = load_tests(d);
  uint64_t b = d.alloc(64);
  int zero[16] = {};
  d.upload(b, zero, sizeof zero);
  d.set_run_deadline_ms(300);
  auto t0 = std::chrono::steady_clock::now();
  try {
    d.run(*m, {launch("spin", 1, 1, {tensor(b)})});
  } catch (const DeviceFault& e) {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    bool ok = e.kind == DeviceFault::Kind::timeout && e.sticky && s < 5.0;
    std::fprintf(stderr, "fault: %s\n", e.what());
    std::_Exit(ok ? 0 : 5);
  }
  std::_Exit(4);
}

}  // namespace

TEST(CudaFault, IllegalAddressIsAStickyRuntimeFault) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(illegal_address_child(), ::testing::ExitedWithCode(0), "CUDA_ERROR_ILLEGAL_ADDRESS");
}

TEST(CudaFault, EndlessKernelIsAStickyTimeout) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device";
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(endless_kernel_child(), ::testing::ExitedWithCode(0), "did not finish within 300 ms");
}

#else

TEST(CudaGpu, SkippedWithoutCudaToolkit) { GTEST_SKIP() << "built without the CUDA toolkit"; }

#endif
