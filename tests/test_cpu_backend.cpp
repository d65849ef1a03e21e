// Tests the CPU backend: the system-compiler Compiler (good/bad sources, timeout,
// load-time code refused), the shared-memory Device's verification blocks (fill,
// poison, checksum, compare on every dtype incl. f16/bf16, NaN and unwritten
// elements), and the isolated executor (vector add through libffi, every scalar type,
// crashes, endless loops, forbidden system calls killed by seccomp, early replies,
// timing). This binary is also its own executor: main() dispatches `__cpu_executor`.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <algorithm>
#include <iterator>

#include "backends/cpu/cpu_compiler.h"
#include "backends/cpu/cpu_device.h"
#include "backends/cpu/cpu_executor.h"
#include "backends/cpu/host_compare.h"
#include "harness/backend_registry.h"
#include "harness/inputs.h"

using namespace crucible;

namespace {

std::vector<uint8_t> build(const std::string& src, std::string* log = nullptr) {
  CpuCompiler cc;
  CompileResult r = cc.compile(src, "candidate", {});
  if (log) *log = r.log;
  EXPECT_TRUE(r.ok) << r.log;
  return r.artifact;
}

ResolvedArg tensor(uint64_t id) {
  ResolvedArg a;
  a.kind = PlanArg::Kind::tensor;
  a.buffer = id;
  return a;
}
ResolvedArg scalar(ScalarType t, int64_t i, double f = 0) {
  ResolvedArg a;
  a.kind = PlanArg::Kind::scalar;
  a.scalar_type = t;
  a.ival = i;
  a.fval = f;
  return a;
}
ResolvedLaunch launch(const std::string& kernel, std::vector<ResolvedArg> args, int index = 0) {
  ResolvedLaunch L;
  L.kernel = kernel;
  L.args = std::move(args);
  L.index = index;
  return L;
}

const char* kAdd = R"(#include <cstdint>
extern "C" void add(const float* a, const float* b, float* c, long n) {
  for (long i = 0; i < n; ++i) c[i] = a[i] + b[i];
}
)";

// A kernel body that does `body` when called as `bad(float* x)`.
std::string bad_kernel(const std::string& includes, const std::string& body) {
  return includes + "\nextern \"C\" void bad(float* x) {\n" + body + "\n}\n";
}

struct Fixture : ::testing::Test {
  CpuDevice dev;
  uint64_t x = 0;
  void SetUp() override { x = dev.alloc(64 * sizeof(float)); }
  // Runs bad() from `src` and returns the fault it throws.
  DeviceFault run_bad(const std::string& src) {
    auto mod = dev.load(build(src));
    std::vector<ResolvedLaunch> plan = {launch("bad", {tensor(x)})};
    dev.check(*mod, plan);
    try {
      dev.run(*mod, plan);
    } catch (const DeviceFault& f) {
      return f;
    }
    ADD_FAILURE() << "expected a DeviceFault";
    return DeviceFault(DeviceFault::Kind::launch, "none", false);
  }
};

}  // namespace

// ---------------------------------------------------------------- registration

TEST(CpuBackend, IsRegistered) {
  const BackendInfo* b = find_backend("cpu");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->priority, 0);
  EXPECT_EQ(b->family, "cpu");
  EXPECT_FALSE(b->needs_geometry);
  EXPECT_EQ(b->device_count(), 1);
  auto dev = b->open_device(0);
  EXPECT_EQ(dev->facts().backend, "cpu");
  EXPECT_GE(dev->facts().sm_count, 1);
  EXPECT_EQ(dev->facts().warp_size, 1);
  EXPECT_GT(dev->facts().l2_bytes, 0);
  EXPECT_FALSE(dev->facts().name.empty());
  EXPECT_EQ(b->make_compiler(dev.get())->name(), "c++");
}

// ---------------------------------------------------------------- compiler

TEST(CpuCompiler, BuildsASharedObject) {
  CpuCompiler cc;
  CompileResult r = cc.compile(kAdd, "candidate", {});
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.artifact_kind, "so");
  ASSERT_GT(r.artifact.size(), 4u);
  EXPECT_EQ(std::memcmp(r.artifact.data(), "\x7f" "ELF", 4), 0);
  EXPECT_GT(r.compile_ms, 0);
}

TEST(CpuCompiler, ErrorLogNamesTheCandidatesLine) {
  CpuCompiler cc;
  CompileResult r = cc.compile("#include <cstdint>\n\nextern \"C\" void f(float* x) { x[0] = undeclared_thing; }\n",
                               "candidate", {});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.artifact.empty());
  EXPECT_NE(r.log.find("candidate.cpp:3:"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("undeclared_thing"), std::string::npos) << r.log;
}

TEST(CpuCompiler, LogIsCapped) {
  CpuCompiler cc;
  std::string src;
  for (int i = 0; i < 200; ++i) src += "int f" + std::to_string(i) + "() { return nope" + std::to_string(i) + "; }\n";
  CompileOptions opt;
  opt.log_cap_bytes = 300;
  opt.extra = {"-fmax-errors=0"};
  CompileResult r = cc.compile(src, "candidate", opt);
  EXPECT_FALSE(r.ok);
  EXPECT_LT(r.log.size(), 400u);
  EXPECT_NE(r.log.find("log truncated"), std::string::npos) << r.log;
}

TEST(CpuCompiler, UndefinedSymbolIsACompileError) {
  CpuCompiler cc;
  CompileResult r = cc.compile("extern \"C\" float helper(float);\nextern \"C\" void f(float* x) { x[0] = helper(x[0]); }\n",
                               "candidate", {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("helper"), std::string::npos) << r.log;
}

TEST(CpuCompiler, FingerprintHasCompilerVersionAndFlags) {
  CpuCompiler cc;
  CompileOptions opt;
  std::string fp = cc.fingerprint(opt);
  EXPECT_NE(fp.find(cc.compiler_path()), std::string::npos);
  EXPECT_NE(fp.find("-O2"), std::string::npos);
  EXPECT_NE(fp.find("-march=native"), std::string::npos);
  EXPECT_NE(fp.find("-fno-exceptions"), std::string::npos);
  opt.extra = {"-DFOO=1"};
  EXPECT_NE(cc.fingerprint(opt), fp);
  EXPECT_NE(cc.fingerprint(opt).find("-DFOO=1"), std::string::npos);
  // the version line is in it (gcc and clang both print their name in it)
  EXPECT_GT(fp.size(), cc.compiler_path().size() + 10);
}

TEST(CpuCompiler, CanIncludeCrucibleHeaders) {
  CpuCompiler cc;
  CompileResult r = cc.compile("#include <crucible/philox.h>\nextern \"C\" void f(float* x) { x[0] = 1; }\n", "candidate", {});
  EXPECT_TRUE(r.ok) << r.log;
}

TEST(CpuCompiler, RefusesCodeThatRunsAtLoadTime) {
  CpuCompiler cc;
  for (const char* src : {
           "#include <cstdlib>\nint v = std::rand();\nextern \"C\" void f(int* x) { x[0] = v; }\n",
           "volatile int g;\n__attribute__((constructor)) static void boot() { g = 1; }\nextern \"C\" void f(int* x) { x[0] = g; }\n",
           "extern \"C\" { static void impl(int* x) { x[0] = 1; }\n"
           "static void (*pick())(int*) { return impl; }\n"
           "void f(int*) __attribute__((ifunc(\"pick\"))); }\n",
           "asm(\".section .init\\n\\tnop\\n.previous\");\nextern \"C\" void f(int* x) { x[0] = 1; }\n",
           "#include <vector>\nstd::vector<int> cache(10);\nextern \"C\" void f(int* x) { x[0] = cache.size(); }\n",
       }) {
    CompileResult r = cc.compile(src, "candidate", {});
    EXPECT_FALSE(r.ok) << src;
    EXPECT_NE(r.log.find("load-time"), std::string::npos) << r.log;
  }
}

TEST(CpuCompiler, TimesOutAndSaysSo) {
  // A "compiler" that never finishes (and a child of it, to check the group is killed).
  std::string dir = ::testing::TempDir() + "/slowcxx";
  mkdir(dir.c_str(), 0700);
  std::string script = dir + "/cxx.sh";
  {
    std::ofstream f(script);
    f << "#!/bin/sh\nif [ \"$1\" = --version ]; then echo slowcxx 1.0; exit 0; fi\nsleep 30 & sleep 30\n";
  }
  chmod(script.c_str(), 0755);
  setenv("CRUCIBLE_CXX", script.c_str(), 1);
  CpuCompiler cc;
  unsetenv("CRUCIBLE_CXX");
  EXPECT_EQ(cc.compiler_path(), script);
  cc.set_timeout_ms(300);
  auto t0 = std::chrono::steady_clock::now();
  CompileResult r = cc.compile(kAdd, "candidate", {});
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("compile timed out"), std::string::npos) << r.log;
  EXPECT_LT(s, 2.0);
  EXPECT_NE(cc.fingerprint({}).find("slowcxx 1.0"), std::string::npos);
}

// ---------------------------------------------------------------- buffers

TEST(CpuDevice, UploadDownloadPoisonChecksum) {
  CpuDevice dev;
  std::vector<uint8_t> data(1003);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 1);
  uint64_t b = dev.alloc(data.size());
  std::vector<uint8_t> fresh(data.size(), 1);
  dev.download(b, fresh.data(), fresh.size());
  EXPECT_EQ(fresh, std::vector<uint8_t>(data.size(), 0));  // new buffers hold no old data
  dev.upload(b, data.data(), data.size());
  std::vector<uint8_t> back(data.size());
  dev.download(b, back.data(), back.size());
  EXPECT_EQ(back, data);

  const uint64_t c0 = dev.checksum(b, data.size());
  EXPECT_EQ(c0, host_checksum(data.data(), data.size()));
  // one bit in the tail, one in the middle, and two swapped words all change it
  for (size_t pos : {size_t(1002), size_t(500)}) {
    auto d = data;
    d[pos] ^= 1;
    dev.upload(b, d.data(), d.size());
    EXPECT_NE(dev.checksum(b, d.size()), c0) << pos;
  }
  auto d = data;
  std::swap_ranges(d.begin(), d.begin() + 8, d.begin() + 8);
  dev.upload(b, d.data(), d.size());
  EXPECT_NE(dev.checksum(b, d.size()), c0);
  EXPECT_NE(dev.checksum(b, 0), dev.checksum(b, 8));

  dev.poison(b, data.size());
  dev.download(b, back.data(), back.size());
  EXPECT_EQ(back, std::vector<uint8_t>(data.size(), 0xFF));
  EXPECT_THROW(dev.upload(b, data.data(), data.size() + 1), Error);
  dev.release(b);
  EXPECT_THROW(dev.checksum(b, 1), Error);
}

TEST(CpuDevice, ChecksumIsTheSameOnTheParallelPath) {
  std::vector<uint64_t> big((size_t(16) << 20) / 8 + 3);
  std::mt19937_64 rng(5);
  for (auto& v : big) v = rng();
  const size_t bytes = big.size() * 8 - 5;
  // The serial definition, word by word, against the parallel one.
  const uint64_t par = host_checksum(big.data(), bytes);
  uint64_t ser_a = host_checksum(big.data(), 4096);  // small: serial path
  EXPECT_NE(par, ser_a);
  big[big.size() / 2] ^= 1ull << 40;
  EXPECT_NE(host_checksum(big.data(), bytes), par);
  big[big.size() / 2] ^= 1ull << 40;
  EXPECT_EQ(host_checksum(big.data(), bytes), par);
}

TEST(CpuDevice, FillIsTheHostGenerator) {
  CpuDevice dev;
  FillSpec s;
  s.dtype = Dtype::f32;
  s.count = 10007;
  s.seed = 42;
  s.stream = 3;
  s.dist = *parse_dist("normal");
  s.p0 = 0;
  s.p1 = 1;
  uint64_t b = dev.alloc(s.count * 4);
  dev.fill(b, s);
  std::vector<float> got(s.count), want(s.count);
  dev.download(b, got.data(), got.size() * 4);
  generate_host(s, want.data());
  EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size() * 4), 0);
  double sum = 0;
  for (float v : got) sum += v;
  EXPECT_LT(std::fabs(sum / s.count), 0.05);  // it really is N(0, 1)-ish, not zeros
  EXPECT_GT(std::fabs(got[0]) + std::fabs(got[1]), 0);
  s.count = 20000;
  EXPECT_THROW(dev.fill(b, s), Error);
}

// ---------------------------------------------------------------- compare

namespace {

template <typename T>
CompareStats cmp(CpuDevice& dev, Dtype dt, const std::vector<T>& out, const std::vector<T>& ref, Tolerance tol) {
  uint64_t o = dev.alloc(out.size() * sizeof(T)), r = dev.alloc(ref.size() * sizeof(T));
  dev.upload(o, out.data(), out.size() * sizeof(T));
  dev.upload(r, ref.data(), ref.size() * sizeof(T));
  CompareStats s = dev.compare(o, r, dt, out.size(), tol);
  dev.release(o);
  dev.release(r);
  return s;
}

}  // namespace

TEST(CpuCompare, F32ToleranceAndFirstMismatch) {
  CpuDevice dev;
  std::vector<float> ref = {1, -2, 3, 4, 5, 100};
  auto out = ref;
  CompareStats s = cmp(dev, Dtype::f32, out, ref, {0, 0});
  EXPECT_EQ(s.count, 6u);
  EXPECT_EQ(s.mismatches, 0u);
  EXPECT_EQ(s.first_mismatch, -1);
  EXPECT_EQ(s.out_min, -2);
  EXPECT_EQ(s.out_max, 100);

  out[5] = 100.5f;  // within rtol 1e-2 of 100
  out[2] = 3.5f;    // outside
  out[4] = 5.5f;    // outside, later
  s = cmp(dev, Dtype::f32, out, ref, {1e-3, 1e-2});
  EXPECT_EQ(s.mismatches, 2u);
  EXPECT_EQ(s.first_mismatch, 2);
  EXPECT_EQ(s.first_expected, 3.0);
  EXPECT_EQ(s.first_actual, 3.5);
  EXPECT_DOUBLE_EQ(s.max_abs_err, 0.5);
  EXPECT_DOUBLE_EQ(s.max_rel_err, 0.5 / 3);
  EXPECT_EQ(s.nonfinite, 0u);
  EXPECT_EQ(s.unwritten, 0u);
}

TEST(CpuCompare, NaNAndInf) {
  CpuDevice dev;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> ref = {nan, 1, 2, inf, -inf, 3};
  std::vector<float> out = {nan, nan, inf, inf, -inf, 3};
  CompareStats s = cmp(dev, Dtype::f32, out, ref, {1e-3, 1e-3});
  EXPECT_EQ(s.mismatches, 2u);   // NaN and Inf where the reference is finite
  EXPECT_EQ(s.nonfinite, 2u);
  EXPECT_EQ(s.first_mismatch, 1);
  EXPECT_EQ(s.max_abs_err, 0);   // only finite pairs count
  EXPECT_EQ(s.out_min, 3);
  EXPECT_EQ(s.out_max, 3);
  // NaN is not a wildcard: a number where the reference is NaN is wrong too
  s = cmp(dev, Dtype::f32, std::vector<float>{0}, std::vector<float>{nan}, {1, 1});
  EXPECT_EQ(s.mismatches, 1u);
  s = cmp(dev, Dtype::f32, std::vector<float>{-inf}, std::vector<float>{inf}, {1, 1});
  EXPECT_EQ(s.mismatches, 1u);
}

TEST(CpuCompare, UnwrittenIsThePoisonPattern) {
  CpuDevice dev;
  const size_t n = 1000;
  std::vector<float> ref(n, 1.5f);
  uint64_t o = dev.alloc(n * 4), r = dev.alloc(n * 4);
  dev.upload(r, ref.data(), n * 4);
  dev.poison(o, n * 4);
  dev.upload(o, ref.data(), 600 * 4);  // the candidate wrote only the first 600
  CompareStats s = dev.compare(o, r, Dtype::f32, n, {0, 0});
  EXPECT_EQ(s.unwritten, 400u);
  EXPECT_EQ(s.mismatches, 400u);
  EXPECT_EQ(s.first_mismatch, 600);
  // where the reference itself holds the pattern, it is not "unwritten"
  dev.poison(r, n * 4);
  s = dev.compare(o, r, Dtype::f32, n, {0, 0});
  EXPECT_EQ(s.unwritten, 0u);
  // integers: the poison is -1, and still detected as unwritten
  std::vector<int32_t> iref(n, 7);
  dev.upload(r, iref.data(), n * 4);
  dev.poison(o, n * 4);
  s = dev.compare(o, r, Dtype::i32, n, {0, 0});
  EXPECT_EQ(s.unwritten, n);
  EXPECT_EQ(s.mismatches, n);
  EXPECT_EQ(s.first_actual, -1);
}

TEST(CpuCompare, HalfAndBfloat16) {
  CpuDevice dev;
  // exact conversions, subnormals and specials included
  EXPECT_EQ(half_bits_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_bits_to_float(0xC000), -2.0f);
  EXPECT_EQ(half_bits_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_bits_to_float(0x7BFF), 65504.0f);
  EXPECT_TRUE(std::isinf(half_bits_to_float(0x7C00)));
  EXPECT_TRUE(std::isnan(half_bits_to_float(0x7E00)));
  EXPECT_EQ(bf16_bits_to_float(0x3F80), 1.0f);
  EXPECT_EQ(bf16_bits_to_float(0xC040), -3.0f);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float a = half_bits_to_float(static_cast<uint16_t>(h)), b = half_to_float(static_cast<uint16_t>(h));
    if (std::isnan(a)) EXPECT_TRUE(std::isnan(b));
    else EXPECT_EQ(a, b) << h;
  }

  std::vector<uint16_t> ref = {float_to_half(1.0f), float_to_half(2.5f), float_to_half(-0.125f), 0x7E00};
  auto out = ref;
  out[1] = float_to_half(2.75f);
  CompareStats s = cmp(dev, Dtype::f16, out, ref, {0.1, 0});
  EXPECT_EQ(s.mismatches, 1u);
  EXPECT_EQ(s.first_mismatch, 1);
  EXPECT_EQ(s.first_expected, 2.5);
  EXPECT_EQ(s.first_actual, 2.75);
  EXPECT_EQ(s.out_min, -0.125);
  out[1] = 0xFFFF;  // poison
  s = cmp(dev, Dtype::f16, out, ref, {0.1, 0});
  EXPECT_EQ(s.unwritten, 1u);
  EXPECT_EQ(s.nonfinite, 1u);

  std::vector<uint16_t> bref = {float_to_bf16(1.0f), float_to_bf16(-3.0f), float_to_bf16(1e30f)};
  auto bout = bref;
  s = cmp(dev, Dtype::bf16, bout, bref, {0, 0});
  EXPECT_EQ(s.mismatches, 0u);
  EXPECT_EQ(s.out_max, static_cast<double>(bf16_to_float(float_to_bf16(1e30f))));
  bout[0] = float_to_bf16(1.0078125f);  // next bf16 after 1
  s = cmp(dev, Dtype::bf16, bout, bref, {0, 0.01});
  EXPECT_EQ(s.mismatches, 0u);
  EXPECT_DOUBLE_EQ(s.max_abs_err, 0.0078125);
  s = cmp(dev, Dtype::bf16, bout, bref, {0, 0.001});
  EXPECT_EQ(s.mismatches, 1u);
}

TEST(CpuCompare, IntegerAndBoolDtypes) {
  CpuDevice dev;
  CompareStats s = cmp(dev, Dtype::i64, std::vector<int64_t>{(int64_t(1) << 60) + 1, 5},
                       std::vector<int64_t>{int64_t(1) << 60, 5}, {0, 0});
  EXPECT_EQ(s.mismatches, 1u);  // exact beyond 2^53
  EXPECT_EQ(s.first_mismatch, 0);
  s = cmp(dev, Dtype::i32, std::vector<int32_t>{1, 2, 3}, std::vector<int32_t>{1, 2, 4}, {1, 0});
  EXPECT_EQ(s.mismatches, 0u);
  EXPECT_EQ(s.max_abs_err, 1);
  s = cmp(dev, Dtype::u8, std::vector<uint8_t>{0, 200, 9}, std::vector<uint8_t>{0, 201, 9}, {0, 0});
  EXPECT_EQ(s.mismatches, 1u);
  EXPECT_EQ(s.out_max, 200);
  // bool compares truth values
  s = cmp(dev, Dtype::boolean, std::vector<uint8_t>{1, 2, 0}, std::vector<uint8_t>{1, 1, 1}, {0, 0});
  EXPECT_EQ(s.mismatches, 1u);
  EXPECT_EQ(s.first_mismatch, 2);
  s = cmp(dev, Dtype::f64, std::vector<double>{1.0 + 1e-12}, std::vector<double>{1.0}, {0, 0});
  EXPECT_EQ(s.mismatches, 1u);
}

TEST(CpuCompare, ParallelPathMatchesCounts) {
  CpuDevice dev;
  const size_t n = size_t(3) << 20;  // 12 MiB of f32: the TBB path
  std::vector<float> ref(n), out(n);
  for (size_t i = 0; i < n; ++i) ref[i] = out[i] = static_cast<float>(i % 1000) - 500;
  for (size_t i = 12345; i < n; i += 100003) out[i] += 10;
  out[n - 1] = std::numeric_limits<float>::quiet_NaN();
  CompareStats s = cmp(dev, Dtype::f32, out, ref, {1e-5, 1e-5});
  size_t expect = 0;
  for (size_t i = 12345; i < n; i += 100003) ++expect;
  EXPECT_EQ(s.mismatches, expect + (out[n - 1] != out[n - 1] ? 1 : 0));
  EXPECT_EQ(s.first_mismatch, 12345);
  EXPECT_EQ(s.nonfinite, 1u);
  EXPECT_DOUBLE_EQ(s.max_abs_err, 10);
  EXPECT_EQ(s.out_min, -500);
}

// ---------------------------------------------------------------- executor

TEST_F(Fixture, AddsVectors) {
  const long n = 100001;
  std::vector<float> a(n), b(n);
  for (long i = 0; i < n; ++i) a[i] = i * 0.5f, b[i] = 1 - i;
  uint64_t A = dev.alloc(n * 4), B = dev.alloc(n * 4), C = dev.alloc(n * 4);
  dev.upload(A, a.data(), n * 4);
  dev.upload(B, b.data(), n * 4);
  dev.poison(C, n * 4);
  auto mod = dev.load(build(kAdd));
  std::vector<ResolvedLaunch> plan = {launch("add", {tensor(A), tensor(B), tensor(C), scalar(ScalarType::i64, n)})};
  dev.check(*mod, plan);
  dev.run(*mod, plan);
  std::vector<float> c(n);
  dev.download(C, c.data(), n * 4);
  for (long i = 0; i < n; i += 997) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  EXPECT_EQ(c[n - 1], a[n - 1] + b[n - 1]);
  // again, on new inputs in the same buffers (the executor keeps its mappings)
  for (long i = 0; i < n; ++i) a[i] = 3;
  dev.upload(A, a.data(), n * 4);
  dev.run(*mod, plan);
  dev.download(C, c.data(), n * 4);
  EXPECT_EQ(c[7], 3 + b[7]);
  // a buffer released and a new one allocated: the new one is mapped
  dev.release(C);
  uint64_t C2 = dev.alloc(n * 4);
  plan[0].args[2] = tensor(C2);
  dev.run(*mod, plan);
  dev.download(C2, c.data(), n * 4);
  EXPECT_EQ(c[n - 1], a[n - 1] + b[n - 1]);
}

TEST_F(Fixture, PassesEveryScalarType) {
  const char* src = R"(#include <cstdint>
extern "C" void args(double* out, int32_t a, int64_t b, uint32_t c, float d, double e, const double* in) {
  out[0] = a; out[1] = (double)b; out[2] = c; out[3] = d; out[4] = e; out[5] = in[0];
}
extern "C" void twice(double* out) { for (int i = 0; i < 6; ++i) out[i] *= 2; }
)";
  uint64_t out = dev.alloc(6 * 8), in = dev.alloc(8);
  double seven = 7.25;
  dev.upload(in, &seven, 8);
  auto mod = dev.load(build(src));
  std::vector<ResolvedLaunch> plan = {
      launch("args", {tensor(out), scalar(ScalarType::i32, -5), scalar(ScalarType::i64, int64_t(1) << 40),
                      scalar(ScalarType::u32, 4000000000ll), scalar(ScalarType::f32, 0, 0.1),
                      scalar(ScalarType::f64, 0, 1e-300), tensor(in)}),
      launch("twice", {tensor(out)}, 1)};  // launches run in order
  dev.check(*mod, plan);
  dev.run(*mod, plan);
  double v[6];
  dev.download(out, v, sizeof v);
  EXPECT_EQ(v[0], -10);
  EXPECT_EQ(v[1], std::ldexp(1.0, 41));
  EXPECT_EQ(v[2], 8000000000.0);
  EXPECT_EQ(v[3], 2.0 * static_cast<double>(0.1f));  // rounded to float, as an f32 argument is
  EXPECT_EQ(v[4], 2e-300);
  EXPECT_EQ(v[5], 14.5);
}

TEST_F(Fixture, CheckFindsMissingFunctionsAndBuffers) {
  auto mod = dev.load(build("extern \"C\" void present(float* x) { x[0] = 1; }\nvoid mangled(float* x) { x[0] = 2; }\n"));
  dev.check(*mod, {launch("present", {tensor(x)})});
  try {
    dev.check(*mod, {launch("present", {tensor(x)}), launch("mangled", {tensor(x)}, 1)});
    FAIL() << "expected PlanError";
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("launch 1: no extern \"C\" function 'mangled' in the candidate"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(dev.check(*mod, {launch("present", {tensor(9999)})}), PlanError);
  ResolvedArg tma = tensor(x);
  tma.kind = PlanArg::Kind::tma;
  EXPECT_THROW(dev.check(*mod, {launch("present", {tma})}), PlanError);
  // the module still runs after failed checks
  dev.run(*mod, {launch("present", {tensor(x)})});
  float v;
  dev.download(x, &v, 4);
  EXPECT_EQ(v, 1);
}

TEST_F(Fixture, SegfaultIsARuntimeFaultAndTheDeviceLivesOn) {
  auto mod = dev.load(build(bad_kernel("", "volatile float* p = nullptr; x[0] = *p;")));
  std::vector<ResolvedLaunch> plan = {launch("bad", {tensor(x)})};
  try {
    dev.run(*mod, plan);
    FAIL() << "expected a fault";
  } catch (const DeviceFault& f) {
    EXPECT_EQ(f.kind, DeviceFault::Kind::runtime);
    EXPECT_FALSE(f.sticky);
    EXPECT_NE(std::string(f.what()).find("SIGSEGV"), std::string::npos) << f.what();
  }
  // the module is dead
  try {
    dev.run(*mod, plan);
    FAIL() << "expected a fault";
  } catch (const DeviceFault& f) {
    EXPECT_EQ(f.kind, DeviceFault::Kind::runtime);
  }
  // the device is not: a new module works
  auto good = dev.load(build("extern \"C\" void ok(float* x) { x[0] = 42; }\n"));
  dev.run(*good, {launch("ok", {tensor(x)})});
  float v;
  dev.download(x, &v, 4);
  EXPECT_EQ(v, 42);
}

TEST_F(Fixture, EndlessLoopTimesOutWithinTheDeadline) {
  dev.set_run_deadline_ms(500);
  auto mod = dev.load(build(bad_kernel("", "for (volatile long i = 0;; ++i) x[0] = i;")));
  auto t0 = std::chrono::steady_clock::now();
  try {
    dev.run(*mod, {launch("bad", {tensor(x)})});
    FAIL() << "expected a timeout";
  } catch (const DeviceFault& f) {
    EXPECT_EQ(f.kind, DeviceFault::Kind::timeout) << f.what();
    EXPECT_FALSE(f.sticky);
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(s, 0.5);
  EXPECT_LT(s, 1.5);
  EXPECT_THROW(dev.run(*mod, {launch("bad", {tensor(x)})}), DeviceFault);
}

TEST_F(Fixture, OpenIsKilledBySeccomp) {
  DeviceFault f = run_bad(bad_kernel("#include <fcntl.h>\n#include <unistd.h>",
                                     "int fd = open(\"/etc/hostname\", O_RDONLY); x[0] = fd;"));
  EXPECT_EQ(f.kind, DeviceFault::Kind::runtime);
  EXPECT_NE(std::string(f.what()).find("seccomp"), std::string::npos) << f.what();
  EXPECT_NE(std::string(f.what()).find("SIGSYS"), std::string::npos) << f.what();
}

TEST_F(Fixture, WriteToStdoutIsKilledBySeccomp) {
  DeviceFault f = run_bad(bad_kernel("#include <unistd.h>", "x[0] = write(1, \"PASS\\n\", 5);"));
  EXPECT_EQ(f.kind, DeviceFault::Kind::runtime);
  EXPECT_NE(std::string(f.what()).find("seccomp"), std::string::npos) << f.what();
}

TEST_F(Fixture, ForkIsKilledBySeccomp) {
  DeviceFault f = run_bad(bad_kernel("#include <unistd.h>", "x[0] = fork();"));
  EXPECT_EQ(f.kind, DeviceFault::Kind::runtime);
  EXPECT_NE(std::string(f.what()).find("seccomp"), std::string::npos) << f.what();
}

TEST_F(Fixture, ThreadsAndSleepAreKilledBySeccomp) {
  DeviceFault f = run_bad(bad_kernel("#include <time.h>", "struct timespec t{0, 1000}; x[0] = nanosleep(&t, 0);"));
  EXPECT_NE(std::string(f.what()).find("seccomp"), std::string::npos) << f.what();
}

TEST_F(Fixture, ExitIsAFault) {
  DeviceFault f = run_bad(bad_kernel("#include <unistd.h>", "_exit(0);"));
  EXPECT_EQ(f.kind, DeviceFault::Kind::runtime) << f.what();
}

TEST_F(Fixture, MallocWorksUnderTheFilter) {
  auto mod = dev.load(build(R"(#include <cstdlib>
#include <cstring>
#include <vector>
extern "C" void heap(float* x) {
  std::vector<float> v(1 << 20, 2.0f);          // large: mmap
  float* s = (float*)malloc(64); s[0] = 3; s = (float*)realloc(s, 1 << 24); // mremap
  x[0] = v[12345] + s[0]; free(s);
}
)"));
  dev.run(*mod, {launch("heap", {tensor(x)})});
  float v;
  dev.download(x, &v, 4);
  EXPECT_EQ(v, 5);
}

TEST_F(Fixture, EarlyDoneReplyDoesNotStopTheClock) {
  // The candidate forges the executor's "done" on the control socket, then keeps
  // working for 300 ms: the trusted clock must still see the work.
  const char* src = R"(#include <cstdint>
#include <ctime>
#include <unistd.h>
extern "C" void cheat(float* x) {
  uint32_t ok = 100;
  (void)write(3, &ok, 4);
  timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do { clock_gettime(CLOCK_MONOTONIC, &b); x[1] += 1; }
  while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < 300);
  x[0] = 1;
}
)";
  auto mod = dev.load(build(src));
  std::vector<ResolvedLaunch> plan = {launch("cheat", {tensor(x)})};
  double ms = dev.run_timed(*mod, plan);
  EXPECT_GE(ms, 290);
  float v;
  dev.download(x, &v, 4);
  EXPECT_EQ(v, 1);  // the work was finished when run_timed returned
  // and the stale second "done" does not answer the next request early
  ms = dev.run_timed(*mod, plan);
  EXPECT_GE(ms, 290);
}

namespace {
// The distinct shared-memory buffers mapped into a process (by inode).
std::set<std::string> mapped_buffers(int pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::set<std::string> inodes;
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("crucible-buf") == std::string::npos) continue;
    std::istringstream ls(line);
    std::string range, perms, off, devno, inode;
    ls >> range >> perms >> off >> devno >> inode;
    inodes.insert(inode);
  }
  return inodes;
}
}  // namespace

TEST_F(Fixture, ReferenceBuffersAreNotMappedIntoTheCandidate) {
  // Reference and candidate share an input; only the reference's launch names
  // `secret`, and only its executor ever maps it.
  uint64_t in = dev.alloc(4096), secret = dev.alloc(4096), found = dev.alloc(8);
  auto ref = dev.load(build("#include <cstdint>\nextern \"C\" void put(const uint64_t* in, uint64_t* s) { for (int i = 0; i < 512; ++i) s[i] = in[i] + 0x5EC2E7; }\n"));
  auto cand = dev.load(build("#include <cstdint>\nextern \"C\" void look(const uint64_t* in, uint64_t* f) { f[0] = in[0] + 1; }\n"));
  dev.run(*ref, {launch("put", {tensor(in), tensor(secret)})});
  dev.run(*cand, {launch("look", {tensor(in), tensor(found)})});
  uint64_t f = 0, s0 = 0;
  dev.download(found, &f, 8);
  dev.download(secret, &s0, 8);
  EXPECT_EQ(f, 1u);
  EXPECT_EQ(s0, 0x5EC2E7u);
  auto ref_maps = mapped_buffers(dev.executor_pid(*ref));
  auto cand_maps = mapped_buffers(dev.executor_pid(*cand));
  EXPECT_EQ(ref_maps.size(), 2u);
  EXPECT_EQ(cand_maps.size(), 2u);
  std::vector<std::string> shared;
  std::set_intersection(ref_maps.begin(), ref_maps.end(), cand_maps.begin(), cand_maps.end(), std::back_inserter(shared));
  EXPECT_EQ(shared.size(), 1u);  // only the input
  // a released buffer leaves the executor too
  dev.release(found);
  uint64_t found2 = dev.alloc(8);
  dev.run(*cand, {launch("look", {tensor(in), tensor(found2)})});
  EXPECT_EQ(mapped_buffers(dev.executor_pid(*cand)).size(), 2u);
  // the fixture's buffer `x`, never named by either, is in neither
  EXPECT_EQ(dev.executor_pid(*cand) > 0, true);
}

TEST_F(Fixture, RunTimedIsSaneAndPositive) {
  const long n = 1 << 20;
  uint64_t A = dev.alloc(n * 4), B = dev.alloc(n * 4), C = dev.alloc(n * 4);
  auto mod = dev.load(build(kAdd));
  std::vector<ResolvedLaunch> plan = {launch("add", {tensor(A), tensor(B), tensor(C), scalar(ScalarType::i64, n)})};
  std::vector<ResolvedLaunch> tiny = {launch("add", {tensor(A), tensor(B), tensor(C), scalar(ScalarType::i64, 1)})};
  double t_big = 0, t_small = 1e9;
  for (int i = 0; i < 5; ++i) {
    double t = dev.run_timed(*mod, plan);
    EXPECT_GT(t, 0);
    EXPECT_LT(t, 1000);
    t_big = std::max(t_big, t);
    t_small = std::min(t_small, dev.run_timed(*mod, tiny));
  }
  EXPECT_GT(t_small, 0);
  EXPECT_LT(t_small, t_big);
  EXPECT_GT(dev.flush_bytes(), size_t(0));
}

TEST_F(Fixture, LoadRefusesObjectsWithConstructors) {
  // Built outside the compiler's own check (as if from a tampered cache).
  std::string dir = ::testing::TempDir();
  std::string src = dir + "/ctor.cpp", so = dir + "/ctor.so";
  {
    std::ofstream f(src);
    f << "volatile int g;\n__attribute__((constructor)) static void boot() { g = 1; }\nextern \"C\" void f(int* x) { x[0] = g; }\n";
  }
  ASSERT_EQ(std::system(("c++ -shared -fPIC -O2 " + src + " -o " + so).c_str()), 0);
  std::ifstream in(so, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    dev.load(bytes);
    FAIL() << "expected a refusal";
  } catch (const DeviceFault& f) {
    EXPECT_EQ(f.kind, DeviceFault::Kind::launch);
    EXPECT_NE(std::string(f.what()).find("load-time"), std::string::npos) << f.what();
  }
  EXPECT_THROW(dev.load(std::vector<uint8_t>{1, 2, 3}), DeviceFault);
}

int main(int argc, char** argv) {
  if (is_cpu_executor_invocation(argc, argv)) return cpu_executor_main(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
