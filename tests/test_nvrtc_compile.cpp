// Tests the CUDA backend's compiler without a GPU (runs in CI): NVRTC compiles a
// candidate with the crucible/kernel.h prelude to an sm_90 CUBIN, maps compile-log
// lines to the candidate's own, caps logs, caches artifacts on disk; the support
// kernels (fill, checksum, compare, blocking, fma peak) compile with --fmad=false;
// the artifact cache itself; and the "cuda" backend reports 0 devices, not an
// error, where there is no driver.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "harness/artifact_cache.h"
#include "harness/backend_registry.h"

#ifdef CRUCIBLE_HAVE_CUDA
#include "backends/cuda/cuda_api.h"
#include "backends/cuda/nvrtc_compiler.h"
#endif

namespace fs = std::filesystem;
using namespace crucible;

namespace {

fs::path fresh_dir(const std::string& tag) {
  fs::path d = fs::temp_directory_path() /
               ("crucible-test-" + tag + "-" + std::to_string(::getpid()) + "-" +
                std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(d);
  return d;
}

bool is_elf(const std::vector<uint8_t>& b) {
  return b.size() > 4 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F';
}

bool contains(const std::vector<uint8_t>& hay, const std::string& needle) {
  return std::search(hay.begin(), hay.end(), needle.begin(), needle.end()) != hay.end();
}

}  // namespace

// ---- the artifact cache (backend-neutral; always built)

TEST(ArtifactCache, Sha256MatchesKnownDigests) {
  EXPECT_EQ(ArtifactCache::sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(ArtifactCache::sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Two blocks of padding.
  EXPECT_EQ(ArtifactCache::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(ArtifactCache, KeyDependsOnSourceAndFingerprint) {
  auto k = ArtifactCache::key("src", "fp");
  EXPECT_EQ(k.size(), 64u);
  EXPECT_NE(k, ArtifactCache::key("src", "fp2"));
  EXPECT_NE(k, ArtifactCache::key("src2", "fp"));
  // Length prefix: moving a character across the boundary changes the key.
  EXPECT_NE(ArtifactCache::key("ab", "c"), ArtifactCache::key("a", "bc"));
}

TEST(ArtifactCache, PutThenGetRoundTripsAndLeavesNoTemporaries) {
  fs::path dir = fresh_dir("cache");
  ArtifactCache c(dir);
  std::string key = ArtifactCache::key("x", "y");
  EXPECT_FALSE(c.get(key).has_value());
  std::vector<uint8_t> bytes = {1, 2, 3, 0, 255};
  c.put(key, bytes);
  auto got = c.get(key);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, bytes);
  c.put_text("peaks-test", "{\"a\": 1}\n");
  EXPECT_EQ(c.get_text("peaks-test").value_or(""), "{\"a\": 1}\n");
  for (auto& e : fs::recursive_directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  // Keys that could escape the directory are refused.
  c.put("../evil", bytes);
  EXPECT_FALSE(fs::exists(dir / "evil"));
  EXPECT_FALSE(c.get("../evil").has_value());
  fs::remove_all(dir);
}

TEST(ArtifactCache, DefaultDirFollowsEnvironment) {
  const char* old = std::getenv("CRUCIBLE_CACHE_DIR");
  std::string saved = old ? old : "";
  setenv("CRUCIBLE_CACHE_DIR", "/tmp/crucible-env-cache", 1);
  EXPECT_EQ(ArtifactCache::default_dir(), fs::path("/tmp/crucible-env-cache"));
  setenv("CRUCIBLE_CACHE_DIR", "off", 1);
  EXPECT_FALSE(ArtifactCache().enabled());
  if (old) setenv("CRUCIBLE_CACHE_DIR", saved.c_str(), 1);
  else unsetenv("CRUCIBLE_CACHE_DIR");
}

#ifdef CRUCIBLE_HAVE_CUDA

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
/*@launch
launches:
  - kernel: relu4
    grid: min(ceil_div(N / 4, 256), sm_count * 8)
    block: 256
    args: [x, y, i64(N / 4)]
  - kernel: relu_tail
    grid: 1
    block: 32
    args: [x, y, i64(N / 4 * 4), i64(N)]
@*/
)";

class NvrtcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fresh_dir("nvrtc");
    setenv("CRUCIBLE_CACHE_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("CRUCIBLE_CACHE_DIR");
    fs::remove_all(dir_);
  }
  fs::path dir_;
};

}  // namespace

TEST_F(NvrtcTest, CompilesReluFloat4WithPreludeToSm90Cubin) {
  NvrtcCompiler c;
  CompileOptions o;
  o.arch = "sm_90";
  CompileResult r = c.compile(kRelu, "relu.cu", o);
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.artifact_kind, "cubin");
  EXPECT_TRUE(is_elf(r.artifact));
  EXPECT_TRUE(contains(r.artifact, "relu4"));
  EXPECT_TRUE(contains(r.artifact, "relu_tail"));
  EXPECT_GT(r.compile_ms, 0);
}

TEST_F(NvrtcTest, PreludeTypesAreAvailable) {
  NvrtcCompiler c;
  const char* src = R"(extern "C" __global__ void k(const __half* a, __nv_bfloat16* b, uint32_t n, int64_t m) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = __float2bfloat16(__half2float(a[i]) + (float)m + (float)CRU_WARP_SIZE);
  float s = cru_shfl_xor(1.0f, 1);
  if (s < 0) b[0] = __float2bfloat16(s);
}
)";
  CompileResult r = c.compile(src, "k.cu", {});
  EXPECT_TRUE(r.ok) << r.log;
}

TEST_F(NvrtcTest, SyntaxErrorGivesCandidateLineNumbers) {
  NvrtcCompiler c;
  const char* src =
      "extern \"C\" __global__ void k(float* y) {\n"  // line 1
      "  int ok = 1;\n"                               // line 2
      "  y[0] = undeclared_name + ok;\n"              // line 3
      "}\n";
  CompileResult r = c.compile(src, "bad.cu", {});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.artifact.empty());
  EXPECT_NE(r.log.find("candidate.cu(3)"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("undeclared_name"), std::string::npos) << r.log;
  // The prelude's own lines must not shift the candidate's.
  EXPECT_EQ(r.log.find("candidate.cu(5)"), std::string::npos) << r.log;
}

TEST_F(NvrtcTest, CompileLogIsCapped) {
  NvrtcCompiler c;
  std::string src = "extern \"C\" __global__ void k(float* y) {\n";
  for (int i = 0; i < 200; ++i) src += "  y[0] = missing_" + std::to_string(i) + ";\n";
  src += "}\n";
  CompileOptions o;
  o.log_cap_bytes = 512;
  CompileResult r = c.compile(src, "bad.cu", o);
  EXPECT_FALSE(r.ok);
  EXPECT_LE(r.log.size(), 512u + 100u);
  EXPECT_NE(r.log.find("truncated"), std::string::npos);
}

TEST_F(NvrtcTest, IncludesOutsideThePreludeAndToolkitAreRefused) {
  NvrtcCompiler c;
  const char* body = "extern \"C\" __global__ void k(float* y) { y[0] = 1.f; }\n";
  for (std::string inc : {"#include \"/dev/zero\"", "#include </etc/passwd>", "  #  include \"../../etc/hosts\"",
                          "#include \"secrets.txt\"", "#define H </dev/urandom>\n#include H",
                          "%:include \"/dev/zero\"", "#include_next </etc/passwd>",
                          "/* a comment */ #include \\\n \"/dev/zero\""}) {
    CompileResult r = c.compile("// line 1\n" + inc + "\n" + body, "x.cu", {});
    EXPECT_FALSE(r.ok) << inc;
    EXPECT_NE(r.log.find("not allowed"), std::string::npos) << inc << "\n" << r.log;
    EXPECT_NE(r.log.find("candidate.cu("), std::string::npos) << r.log;
  }
  // A raw string cannot open a fake comment that hides a later directive.
  CompileResult raw = c.compile(std::string("const char* s = R\"x(\" /*)x\";\n#include \"/dev/zero\"\n") + body,
                                "x.cu", {});
  EXPECT_FALSE(raw.ok);
  EXPECT_NE(raw.log.find("candidate.cu(2)"), std::string::npos) << raw.log;
  // The refused include's own line is named.
  CompileResult r = c.compile("// 1\n// 2\n#include \"/dev/zero\"\n", "x.cu", {});
  EXPECT_NE(r.log.find("candidate.cu(3)"), std::string::npos) << r.log;
  // The prelude's headers and the toolkit's are fine; so are includes inside comments.
  for (std::string inc : {"#include <crucible/kernel.h>", "#include <cuda_fp16.h>", "#include \"cuda_bf16.h\"",
                          "// #include </etc/passwd>", "/*\n#include </etc/passwd>\n*/",
                          "const char* s = R\"(\n#include </etc/passwd>\n)\";"}) {
    CompileResult ok = c.compile(inc + "\n" + body, "x.cu", {});
    EXPECT_TRUE(ok.ok) << inc << "\n" << ok.log;
  }
}

TEST_F(NvrtcTest, ArchitectureOptionDecidesTarget) {
  NvrtcCompiler c("sm_80");
  CompileOptions o;
  EXPECT_NE(c.fingerprint(o).find("--gpu-architecture=sm_80"), std::string::npos);
  o.arch = "90";
  std::string fp = c.fingerprint(o);
  EXPECT_NE(fp.find("--gpu-architecture=sm_90"), std::string::npos);
  EXPECT_NE(fp.find("--fmad=true"), std::string::npos);
  EXPECT_NE(fp.find("nvrtc-" + NvrtcCompiler::nvrtc_version()), std::string::npos);
  o.extra = {"-lineinfo"};
  EXPECT_NE(c.fingerprint(o), fp);
  EXPECT_EQ(NvrtcCompiler::normalize_arch("sm_90a"), "sm_90a");
  EXPECT_EQ(NvrtcCompiler::normalize_arch("compute_80"), "sm_80");
  EXPECT_THROW(NvrtcCompiler::normalize_arch("gfx90a"), std::exception);
  // A bad arch is a compile error for the candidate, not an exception.
  o.arch = "banana";
  CompileResult r = c.compile(kRelu, "relu.cu", o);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("banana"), std::string::npos);
}

TEST_F(NvrtcTest, RepeatedCompileComesFromTheDiskCache) {
  NvrtcCompiler c;
  CompileResult a = c.compile(kRelu, "relu.cu", {});
  ASSERT_TRUE(a.ok) << a.log;
  size_t files = 0;
  for (auto& e : fs::recursive_directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u);
  NvrtcCompiler fresh;  // another worker: same cache dir, same key
  CompileResult b = fresh.compile(kRelu, "relu.cu", {});
  ASSERT_TRUE(b.ok);
  EXPECT_EQ(a.artifact, b.artifact);
  EXPECT_LT(b.compile_ms, a.compile_ms);
  // Another option: another key.
  CompileOptions o;
  o.extra = {"-lineinfo"};
  CompileResult d = fresh.compile(kRelu, "relu.cu", o);
  ASSERT_TRUE(d.ok);
  files = 0;
  for (auto& e : fs::recursive_directory_iterator(dir_)) files += e.is_regular_file();
  EXPECT_EQ(files, 2u);
}

TEST_F(NvrtcTest, SupportKernelsCompileWithExactArithmetic) {
  std::string src = NvrtcCompiler::support_source();
  EXPECT_NE(src.find("kernels/fill.cuh"), std::string::npos);
  EXPECT_NE(src.find("kernels/verify.cuh"), std::string::npos);
  EXPECT_NE(src.find("kernels/timing.cuh"), std::string::npos);
  NvrtcCompiler c;
  std::vector<uint8_t> cubin = c.compile_support("sm_90");
  EXPECT_TRUE(is_elf(cubin));
  for (const char* k : {"cru_fill", "cru_checksum", "cru_compare", "cru_block_stream", "cru_fma_peak"})
    EXPECT_TRUE(contains(cubin, k)) << k;
  // The same source with contraction on gives different code: the support build
  // really is --fmad=false (FMA contraction changes the Philox normal mapping).
  std::vector<std::string> base = {"--gpu-architecture=sm_90", "-std=c++17", "-default-device",
                                   "--include-path=/usr/local/cuda/include"};
  auto with = base, without = base;
  with.push_back("--fmad=true");
  without.push_back("--fmad=false");
  CompileResult on = NvrtcCompiler::compile_raw(src, "s.cu", with, 1 << 16);
  CompileResult off = NvrtcCompiler::compile_raw(src, "s.cu", without, 1 << 16);
  ASSERT_TRUE(on.ok) << on.log;
  ASSERT_TRUE(off.ok) << off.log;
  EXPECT_NE(on.artifact, off.artifact);
}

TEST(CudaBackend, RegisteredAndCountsZeroWithoutADriver) {
  const BackendInfo* b = find_backend("cuda");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->priority, 20);
  EXPECT_EQ(b->family, "gpu");
  EXPECT_TRUE(b->needs_geometry);
  int n = -1;
  EXPECT_NO_THROW(n = b->device_count());
  EXPECT_GE(n, 0);
  if (!cu::driver()) {
    EXPECT_EQ(n, 0) << cu::driver_load_error();
  }
  auto c = b->make_compiler(nullptr);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->name(), "nvrtc");
  EXPECT_NE(c->fingerprint({}).find("sm_90"), std::string::npos);
}

#else

TEST(NvrtcCompile, SkippedWithoutCudaToolkit) { GTEST_SKIP() << "built without the CUDA toolkit"; }

#endif
