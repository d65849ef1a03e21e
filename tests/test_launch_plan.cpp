// Tests the candidate launch plan (harness/launch_plan.h): finding the /*@launch
// block, the YAML schema (launches, geometry, cluster, smem, args in flow and block
// form, typed scalars, tma, scratch), name checks, resolution for one shape, and that
// every error names the line in the candidate file, the launch and the field.
#include <gtest/gtest.h>

#include <string>

#include "harness/launch_plan.h"

using namespace crucible;

namespace {

// DESIGN.md's example, verbatim: the @launch marker is on line 12.
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

// A source whose plan body is `body`; the marker is on line 3, so the body's first
// line is line 4.
std::string with_plan(const std::string& body) {
  return "// kernel file\nextern \"C\" __global__ void k(float* x) {}\n/*@launch\n" + body + "@*/\n";
}

template <class F>
std::string plan_error(F f) {
  try {
    f();
  } catch (const PlanError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected PlanError";
  return "";
}

std::string parse_error(const std::string& body, bool geometry = true) {
  return plan_error([&] { parse_launch_plan(with_plan(body), geometry); });
}

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

ExprEnv env_n(int64_t n) {
  ExprEnv env;
  env.ints["N"] = n;
  env.ints["sm_count"] = 132;
  env.ints["warp_size"] = 32;
  return env;
}

std::vector<TensorBinding> xy_bindings(int64_t n) {
  return {{"x", 11, Dtype::f32, {n}}, {"y", 22, Dtype::f32, {n}}};
}

}  // namespace

TEST(LaunchPlan, DesignExampleParses) {
  LaunchPlan p = parse_launch_plan(kRelu, true);
  EXPECT_EQ(p.first_line, 12);
  ASSERT_EQ(p.launches.size(), 2u);
  const PlanLaunch& a = p.launches[0];
  EXPECT_EQ(a.kernel, "relu4");
  EXPECT_EQ(a.line, 14);
  ASSERT_EQ(a.grid.size(), 1u);
  EXPECT_EQ(a.grid[0].text(), "min(ceil_div(N / 4, 256), sm_count * 8)");
  ASSERT_EQ(a.block.size(), 1u);
  EXPECT_EQ(a.block[0].text(), "256");
  EXPECT_TRUE(a.cluster.empty());
  EXPECT_FALSE(a.smem.has_value());
  ASSERT_EQ(a.args.size(), 3u);
  EXPECT_EQ(a.args[0].kind, PlanArg::Kind::tensor);
  EXPECT_EQ(a.args[0].tensor, "x");
  EXPECT_EQ(a.args[1].tensor, "y");
  EXPECT_EQ(a.args[2].kind, PlanArg::Kind::scalar);
  EXPECT_EQ(a.args[2].scalar_type, ScalarType::i64);
  EXPECT_EQ(a.args[2].value.text(), "N / 4");
  EXPECT_EQ(a.args[2].text, "i64(N / 4)");
  EXPECT_EQ(a.args[2].line, 17);
  const PlanLaunch& b = p.launches[1];
  EXPECT_EQ(b.kernel, "relu_tail");
  EXPECT_EQ(b.line, 18);
  ASSERT_EQ(b.args.size(), 4u);
  EXPECT_EQ(b.args[3].value.text(), "N");
  EXPECT_TRUE(p.scratch.empty());

  check_plan_names(p, {"x", "y"}, {"N", "sm_count", "warp_size"}, {});

  auto r = resolve_plan(p, env_n(1000003), xy_bindings(1000003));
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kernel, "relu4");
  EXPECT_EQ(r[0].index, 0);
  EXPECT_EQ(r[0].line, 14);
  EXPECT_EQ(r[0].grid[0], 977);  // ceil(250000 / 256)
  EXPECT_EQ(r[0].grid[1], 1);
  EXPECT_EQ(r[0].grid[2], 1);
  EXPECT_EQ(r[0].block[0], 256);
  EXPECT_EQ(r[0].cluster[0], 0);
  EXPECT_EQ(r[0].smem, 0);
  ASSERT_EQ(r[0].args.size(), 3u);
  EXPECT_EQ(r[0].args[0].buffer, 11u);
  EXPECT_EQ(r[0].args[1].buffer, 22u);
  EXPECT_EQ(r[0].args[2].ival, 250000);
  EXPECT_EQ(r[1].index, 1);
  EXPECT_EQ(r[1].args[2].ival, 1000000);
  EXPECT_EQ(r[1].args[3].ival, 1000003);
  // The grid is capped by the device: 132 * 8.
  EXPECT_EQ(resolve_plan(p, env_n(1610612736), xy_bindings(1610612736))[0].grid[0], 1056);
}

TEST(LaunchPlan, FlowAndBlockArgListsAgree) {
  const std::string flow = R"(launches:
  - kernel: k
    grid: [ceil_div(N, 256), 2]
    block: [128, 1, 1]
    args: [x, i32(min(N, 4)), tma(A, box: [64, 32], swizzle: 128), f32(eps * 2)]
)";
  const std::string block = R"Y(launches:
  - kernel: k
    grid:
      - ceil_div(N, 256)
      - 2
    block: 128, 1, 1
    args:
      - x
      - i32(min(N, 4))     # a comment
      - tma(A, box: [64, 32], swizzle: 128)
      - "f32(eps * 2)"
)Y";
  for (const auto& body : {flow, block}) {
    LaunchPlan p = parse_launch_plan(with_plan(body), true);
    ASSERT_EQ(p.launches.size(), 1u);
    const PlanLaunch& l = p.launches[0];
    ASSERT_EQ(l.grid.size(), 2u) << body;
    EXPECT_EQ(l.grid[0].text(), "ceil_div(N, 256)");
    EXPECT_EQ(l.grid[1].text(), "2");
    ASSERT_EQ(l.block.size(), 3u);
    ASSERT_EQ(l.args.size(), 4u) << body;
    EXPECT_EQ(l.args[0].kind, PlanArg::Kind::tensor);
    EXPECT_EQ(l.args[1].kind, PlanArg::Kind::scalar);
    EXPECT_EQ(l.args[1].scalar_type, ScalarType::i32);
    EXPECT_EQ(l.args[1].value.text(), "min(N, 4)");
    EXPECT_EQ(l.args[2].kind, PlanArg::Kind::tma);
    EXPECT_EQ(l.args[2].tma.tensor, "A");
    ASSERT_EQ(l.args[2].tma.box.size(), 2u);
    EXPECT_EQ(l.args[2].tma.box[0].text(), "64");
    EXPECT_EQ(l.args[2].tma.box[1].text(), "32");
    EXPECT_EQ(l.args[2].tma.swizzle, 128);
    EXPECT_EQ(l.args[3].scalar_type, ScalarType::f32);
    EXPECT_EQ(l.args[3].value.text(), "eps * 2");
  }
  // Block-form arguments carry their own lines (body starts on line 4).
  LaunchPlan p = parse_launch_plan(with_plan(block), true);
  EXPECT_EQ(p.launches[0].args[0].line, 11);
  EXPECT_EQ(p.launches[0].args[3].line, 14);
}

TEST(LaunchPlan, ScalarsResolve) {
  LaunchPlan p = parse_launch_plan(with_plan(R"(launches:
  - kernel: k
    grid: 1
    block: warp_size
    args: [i32(N - 1), i64(N * N), u32(N + 1), f32(eps), f64(1 / N), f32(0.5)]
)"),
                                   true);
  ExprEnv env = env_n(100000);
  env.reals["eps"] = 1e-5;
  check_plan_names(p, {}, {"N", "warp_size"}, {"eps"});
  auto r = resolve_plan(p, env, {});
  const auto& a = r[0].args;
  ASSERT_EQ(a.size(), 6u);
  EXPECT_EQ(r[0].block[0], 32);
  EXPECT_EQ(a[0].scalar_type, ScalarType::i32);
  EXPECT_EQ(a[0].ival, 99999);
  EXPECT_EQ(a[1].ival, 10000000000);
  EXPECT_EQ(a[2].scalar_type, ScalarType::u32);
  EXPECT_EQ(a[2].ival, 100001);
  EXPECT_DOUBLE_EQ(a[3].fval, 1e-5);
  EXPECT_DOUBLE_EQ(a[4].fval, 1e-5);  // real division inside f64(...)
  EXPECT_DOUBLE_EQ(a[5].fval, 0.5);
  EXPECT_EQ(a[3].kind, PlanArg::Kind::scalar);
}

TEST(LaunchPlan, ScalarRangeErrors) {
  auto plan = [](const std::string& arg) {
    return parse_launch_plan(with_plan("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args: [" + arg + "]\n"),
                             true);
  };
  std::string m = plan_error([&] { resolve_plan(plan("i32(N * N)"), env_n(100000), {}); });
  EXPECT_HAS(m, "line 8: launch 1 (k), field 'args'");
  EXPECT_HAS(m, "argument 1 'i32(N * N)'");
  EXPECT_HAS(m, "10000000000");
  EXPECT_HAS(m, "N = 100000");
  EXPECT_HAS(m, "does not fit in i32");
  m = plan_error([&] { resolve_plan(plan("u32(N - 5)"), env_n(1), {}); });
  EXPECT_HAS(m, "does not fit in u32");
  m = plan_error([&] { resolve_plan(plan("u32(N)"), env_n(4294967296), {}); });
  EXPECT_HAS(m, "does not fit in u32");
  EXPECT_EQ(resolve_plan(plan("u32(N)"), env_n(4294967295), {})[0].args[0].ival, 4294967295);
  EXPECT_EQ(resolve_plan(plan("i32(-N)"), env_n(2147483648), {})[0].args[0].ival, -2147483648);
  m = plan_error([&] { resolve_plan(plan("f32(1e39)"), env_n(1), {}); });
  EXPECT_HAS(m, "does not fit in f32");
  m = plan_error([&] { resolve_plan(plan("i64(N / 0)"), env_n(1), {}); });
  EXPECT_HAS(m, "division by zero");
  m = plan_error([&] { resolve_plan(plan("i64(N * 0.5)"), env_n(1), {}); });
  EXPECT_HAS(m, "real number 0.5");
}

TEST(LaunchPlan, Scratch) {
  LaunchPlan p = parse_launch_plan(with_plan(R"(launches:
  - kernel: k
    grid: 1
    block: 1
    args: [x, tmp, partial]
scratch:
  tmp: {dtype: f32, count: ceil_div(N, 1024)}
  partial:
    dtype: i64
    count: max(N, 1)
)"),
                                   true);
  ASSERT_EQ(p.scratch.size(), 2u);
  EXPECT_EQ(p.scratch[0].name, "tmp");
  EXPECT_EQ(p.scratch[0].dtype, Dtype::f32);
  EXPECT_EQ(p.scratch[0].count.text(), "ceil_div(N, 1024)");
  EXPECT_EQ(p.scratch[0].count.eval(env_n(2049)), 3);
  EXPECT_EQ(p.scratch[0].line, 10);
  EXPECT_EQ(p.scratch[1].name, "partial");
  EXPECT_EQ(p.scratch[1].dtype, Dtype::i64);
  // Scratch names count as known tensors even if the caller left them out.
  check_plan_names(p, {"x"}, {"N"}, {});

  std::string m = parse_error("launches:\n  - {kernel: k, grid: 1, block: 1}\nscratch:\n  tmp: {dtype: f31, count: 4}\n");
  EXPECT_HAS(m, "line 7: scratch 'tmp', field 'dtype'");
  EXPECT_HAS(m, "f32, f16, bf16");
  m = parse_error("launches:\n  - {kernel: k, grid: 1, block: 1}\nscratch:\n  tmp: {dtype: f32}\n");
  EXPECT_HAS(m, "scratch 'tmp', field 'count'");
  EXPECT_HAS(m, "missing");
  m = parse_error("launches:\n  - {kernel: k, grid: 1, block: 1}\nscratch:\n  tmp: {dtype: f32, count: 4, size: 3}\n");
  EXPECT_HAS(m, "unknown field 'size'; allowed fields: dtype, count");
  m = parse_error("launches:\n  - {kernel: k, grid: 1, block: 1}\nscratch:\n  tmp: {dtype: f32, count: N +}\n");
  EXPECT_HAS(m, "line 7: scratch 'tmp', field 'count': at column 4 of 'N +'");
  m = parse_error("launches:\n  - {kernel: k, grid: 1, block: 1}\nscratch: [a, b]\n");
  EXPECT_HAS(m, "field 'scratch': expected a mapping");
  m = plan_error([&] { check_plan_names(parse_launch_plan(with_plan(
      "launches:\n  - {kernel: k, grid: 1, block: 1}\nscratch:\n  tmp: {dtype: f32, count: Q}\n"), true), {}, {"N"}, {}); });
  EXPECT_HAS(m, "line 7: scratch 'tmp', field 'count': unknown name 'Q'");
}

TEST(LaunchPlan, ClusterAndSmem) {
  LaunchPlan p = parse_launch_plan(with_plan(R"(launches:
  - kernel: k
    grid: [8, 4]
    block: [128]
    cluster: [2]
    smem: 48 * 1024 + N
    args: []
)"),
                                   true);
  const PlanLaunch& l = p.launches[0];
  ASSERT_EQ(l.cluster.size(), 1u);
  ASSERT_TRUE(l.smem.has_value());
  auto r = resolve_plan(p, env_n(16), {});
  EXPECT_EQ(r[0].grid[0], 8);
  EXPECT_EQ(r[0].grid[1], 4);
  EXPECT_EQ(r[0].grid[2], 1);
  EXPECT_EQ(r[0].cluster[0], 2);
  EXPECT_EQ(r[0].cluster[1], 1);
  EXPECT_EQ(r[0].cluster[2], 1);
  EXPECT_EQ(r[0].smem, 49168);
  EXPECT_TRUE(r[0].args.empty());

  std::string m = parse_error("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    cluster: [1, 2, 3, 4]\n");
  EXPECT_HAS(m, "line 8: launch 1 (k), field 'cluster': expected 1 to 3 integer expressions, got 4");
  m = plan_error([&] {
    resolve_plan(parse_launch_plan(with_plan("launches:\n  - {kernel: k, grid: 1, block: 1, smem: N - 10}\n"), true),
                 env_n(4), {});
  });
  EXPECT_HAS(m, "field 'smem'");
  EXPECT_HAS(m, "is -6 (with N = 4)");
}

TEST(LaunchPlan, Tma) {
  const std::string body = R"(launches:
  - kernel: gemm
    grid: 1
    block: 128
    args: [tma(A, box: [64, K / 4]), tma(B, swizzle: 64, box: [32, 32]), C]
)";
  LaunchPlan p = parse_launch_plan(with_plan(body), true);
  const auto& a = p.launches[0].args;
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].kind, PlanArg::Kind::tma);
  EXPECT_EQ(a[0].tma.swizzle, 0);
  EXPECT_EQ(a[1].tma.tensor, "B");
  EXPECT_EQ(a[1].tma.swizzle, 64);
  ExprEnv env;
  env.ints["K"] = 256;
  std::vector<TensorBinding> t = {{"A", 1, Dtype::f16, {128, 256}},
                                  {"B", 2, Dtype::bf16, {256, 64}},
                                  {"C", 3, Dtype::f32, {128, 64}}};
  check_plan_names(p, {"A", "B", "C"}, {"K"}, {});
  auto r = resolve_plan(p, env, t);
  const auto& ra = r[0].args;
  EXPECT_EQ(ra[0].kind, PlanArg::Kind::tma);
  EXPECT_EQ(ra[0].buffer, 1u);
  EXPECT_EQ(ra[0].dtype, Dtype::f16);
  EXPECT_EQ(ra[0].shape, (std::vector<int64_t>{128, 256}));
  EXPECT_EQ(ra[0].box, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(ra[1].swizzle, 64);
  EXPECT_EQ(ra[1].dtype, Dtype::bf16);
  EXPECT_EQ(ra[2].buffer, 3u);

  t[0].shape = {128, 256, 2};
  std::string m = plan_error([&] { resolve_plan(p, env, t); });
  EXPECT_HAS(m, "box has 2 entries but tensor 'A' has 3 dimensions");

  auto arg_error = [](const std::string& arg) {
    return parse_error("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args: [" + arg + "]\n");
  };
  m = arg_error("tma(A, box: [64, 64], swizzle: 96)");
  EXPECT_HAS(m, "line 8: launch 1 (k), field 'args'");
  EXPECT_HAS(m, "'swizzle' expects 0, 32, 64 or 128 (bytes), got '96'");
  EXPECT_HAS(arg_error("tma(A, box: [1, 1, 1, 1, 1, 1])"), "'box' expects 1 to 5 integer expressions, got 6");
  EXPECT_HAS(arg_error("tma(A, swizzle: 32)"), "missing 'box'");
  EXPECT_HAS(arg_error("tma(A, box: [8], stride: 2)"), "unknown tma option 'stride: 2'; allowed options: box, swizzle");
  EXPECT_HAS(arg_error("tma(box: [8])"), "tensor name first");
}

TEST(LaunchPlan, FindingTheBlock) {
  std::string m = plan_error([] { parse_launch_plan("extern \"C\" void k() {}\n", true); });
  EXPECT_HAS(m, "no launch plan found");
  EXPECT_HAS(m, "/*@launch");
  std::string two = with_plan("launches:\n  - {kernel: k, grid: 1, block: 1}\n") + "\n" +
                    with_plan("launches:\n  - {kernel: k, grid: 1, block: 1}\n");
  m = plan_error([&] { parse_launch_plan(two, true); });
  EXPECT_HAS(m, "found 2 /*@launch blocks (lines 3, 10)");
  EXPECT_HAS(m, "exactly one");
  m = plan_error([] { parse_launch_plan("x\n/*@launch\nlaunches: []\n", true); });
  EXPECT_HAS(m, "line 2: the /*@launch block is not closed");
  m = plan_error([] { parse_launch_plan("x\n/*@launch\nlaunches: []\n*/\nint y;\n/* @*/", true); });
  EXPECT_HAS(m, "line 2: the /*@launch block is not closed");
  EXPECT_HAS(m, "'*/' on line 4");
}

TEST(LaunchPlan, ErrorsNameLineLaunchAndField) {
  const std::string two = R"(launches:
  - kernel: relu4
    grid: 1
    block: 256
    args: [x, y]
  - kernel: relu_tail
    grid: [1, 1, 1, 1]
    block: 32
    args: [x, y]
)";
  EXPECT_EQ(parse_error(two),
            "line 10: launch 2 (relu_tail), field 'grid': expected 1 to 3 integer expressions, got 4");

  std::string m = parse_error("launches:\n  - kernel: k\n    grd: 1\n    grid: 1\n    block: 1\n");
  EXPECT_HAS(m, "line 6: launch 1 (k): unknown field 'grd'; allowed fields: kernel, grid, block, cluster, smem, args");
  m = parse_error("launches:\n  - {kernel: k, grid: 1, block: 1}\nlaunch_bounds: 3\n");
  EXPECT_HAS(m, "line 6: unknown top-level key 'launch_bounds'; allowed keys: launches, scratch");
  m = parse_error("launches:\n  - grid: 1\n    block: 1\n");
  EXPECT_HAS(m, "line 5: launch 1: missing field 'kernel'");
  m = parse_error("launches:\n  - kernel: relu<float>\n    grid: 1\n    block: 1\n");
  EXPECT_HAS(m, "line 5: launch 1, field 'kernel': expected the name of an extern \"C\" kernel function");
  m = parse_error("launches:\n  - kernel: k\n    block: 1\n");
  EXPECT_HAS(m, "line 5: launch 1 (k), field 'grid': missing");
  m = parse_error("launches:\n  - kernel: k\n    grid: 1\n");
  EXPECT_HAS(m, "launch 1 (k), field 'block': missing");
  m = parse_error("launches:\n  - kernel: k\n    grid: ceil_div(N, 256\n    block: 1\n");
  EXPECT_HAS(m, "line 6: launch 1 (k), field 'grid': at column 16 of 'ceil_div(N, 256': expected ',' or ')'");
  m = parse_error("launches:\n  - kernel: k\n    grid: [1, N +]\n    block: 1\n");
  EXPECT_HAS(m, "line 6: launch 1 (k), field 'grid': entry 2: at column 4 of 'N +'");
  m = parse_error("launches:\n  - kernel: k\n    grid: {x: 1}\n    block: 1\n");
  EXPECT_HAS(m, "field 'grid': expected 1 to 3 integer expressions, got a mapping");
  m = parse_error("launches:\n  - kernel: k\n    grid: []\n    block: 1\n");
  EXPECT_HAS(m, "field 'grid': expected 1 to 3 integer expressions, got 0");
  m = parse_error("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    smem: [1, 2]\n");
  EXPECT_HAS(m, "line 8: launch 1 (k), field 'smem': expected one integer expression");
  m = parse_error("launches: []\n");
  EXPECT_HAS(m, "line 4: field 'launches': expected a non-empty list of launches");
  m = parse_error("scratch: {}\n");
  EXPECT_HAS(m, "missing 'launches:'");
  m = parse_error("- kernel: k\n");
  EXPECT_HAS(m, "must be a YAML mapping");
  m = parse_error("launches:\n  - kernel: k\n   grid: 1\n");
  EXPECT_HAS(m, "not valid YAML");
  EXPECT_HAS(m, "line 6");
  m = parse_error("launches:\n  - 42\n");
  EXPECT_HAS(m, "line 5: launch 1: expected a mapping");
}

TEST(LaunchPlan, ArgumentErrors) {
  auto arg_error = [](const std::string& args) {
    return parse_error("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args: " + args + "\n");
  };
  std::string m = arg_error("[x, i16(N)]");
  EXPECT_HAS(m, "line 8: launch 1 (k), field 'args': argument 2 'i16(N)': unknown argument form 'i16(...)'");
  EXPECT_HAS(m, "i32(expr), i64(expr)");
  m = arg_error("[x, i64(N) + 1]");
  EXPECT_HAS(m, "argument 2 'i64(N) + 1': expected the argument to end at the ')'");
  m = arg_error("[x, i64(N / (4]");
  EXPECT_HAS(m, "argument 2 'i64(N / (4'");
  m = arg_error("[x, 3]");
  EXPECT_HAS(m, "argument 2 '3': expected a tensor name, i32(expr)");
  m = arg_error("[x, i64(N +)]");
  EXPECT_HAS(m, "argument 2 'i64(N +)': at column 4 of 'N +'");
  m = arg_error("[x, {a: 1}]");
  EXPECT_HAS(m, "argument 2: expected a tensor name");
  EXPECT_HAS(m, "got a mapping");
  m = parse_error("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    args:\n      - x\n      - f64(eps *)\n");
  EXPECT_HAS(m, "line 10: launch 1 (k), field 'args': argument 2 'f64(eps *)'");
}

TEST(LaunchPlan, CpuBackendIgnoresGeometry) {
  const std::string body = "launches:\n  - kernel: relu\n    args: [x, y, i64(N)]\n";
  LaunchPlan p = parse_launch_plan(with_plan(body), false);
  EXPECT_TRUE(p.launches[0].grid.empty());
  EXPECT_TRUE(p.launches[0].block.empty());
  auto r = resolve_plan(p, env_n(5), xy_bindings(5));
  EXPECT_EQ(r[0].grid[0], 1);
  EXPECT_EQ(r[0].block[0], 1);
  EXPECT_EQ(r[0].args[2].ival, 5);
  // Geometry written anyway is ignored, even if it would not evaluate.
  p = parse_launch_plan(with_plan("launches:\n  - kernel: relu\n    grid: sm_count * 4\n    block: 256\n    args: [x]\n"),
                        false);
  EXPECT_TRUE(p.launches[0].grid.empty());
  check_plan_names(p, {"x"}, {"N"}, {});
  // A GPU backend requires it.
  EXPECT_HAS(parse_error(body, true), "field 'grid': missing");
}

TEST(LaunchPlan, CheckPlanNames) {
  LaunchPlan p = parse_launch_plan(kRelu, true);
  std::string m = plan_error([&] { check_plan_names(p, {"x", "out"}, {"N", "sm_count"}, {}); });
  EXPECT_HAS(m, "line 17: launch 1 (relu4), field 'args': argument 2 'y': unknown tensor 'y'; known tensors: x, out");
  m = plan_error([&] { check_plan_names(p, {"x", "y"}, {"N"}, {}); });
  EXPECT_HAS(m, "line 14: launch 1 (relu4), field 'grid': unknown name 'sm_count'");
  EXPECT_HAS(m, "known names: N");
  m = plan_error([&] { check_plan_names(p, {"x", "y"}, {"sm_count"}, {"N"}); });
  EXPECT_HAS(m, "'N' in 'min(ceil_div(N / 4, 256), sm_count * 8)' is a real constant");

  LaunchPlan q = parse_launch_plan(
      with_plan("launches:\n  - kernel: k\n    grid: 1\n    block: 1\n    smem: S\n    args: [f32(alpha * N), tma(Z, box: [B])]\n"),
      true);
  m = plan_error([&] { check_plan_names(q, {"Z"}, {"N", "B"}, {"alpha"}); });
  EXPECT_HAS(m, "field 'smem': unknown name 'S'");
  m = plan_error([&] { check_plan_names(q, {"Z"}, {"N", "S"}, {"alpha"}); });
  EXPECT_HAS(m, "argument 2 'tma(Z, box: [B])': unknown name 'B'");
  m = plan_error([&] { check_plan_names(q, {}, {"N", "S", "B"}, {"alpha"}); });
  EXPECT_HAS(m, "unknown tensor 'Z'");
  check_plan_names(q, {"Z"}, {"N", "S", "B"}, {"alpha"});  // all known: no throw
  m = plan_error([&] { check_plan_names(q, {"Z"}, {"N", "S", "B"}, {}); });
  EXPECT_HAS(m, "argument 1 'f32(alpha * N)': unknown name 'alpha'");
}

TEST(LaunchPlan, ResolveErrors) {
  LaunchPlan p = parse_launch_plan(kRelu, true);
  std::string m = plan_error([&] { resolve_plan(p, env_n(3), xy_bindings(3)); });
  EXPECT_HAS(m, "line 14: launch 1 (relu4), field 'grid'");
  EXPECT_HAS(m, "is 0 (with N = 3, sm_count = 132)");
  EXPECT_HAS(m, "between 1 and");
  m = plan_error([&] { resolve_plan(p, env_n(1000), {{"x", 1, Dtype::f32, {1000}}}); });
  EXPECT_HAS(m, "unknown tensor 'y'; bound tensors: x");
  ExprEnv no_n;
  no_n.ints["sm_count"] = 1;
  m = plan_error([&] { resolve_plan(p, no_n, xy_bindings(1)); });
  EXPECT_HAS(m, "launch 1 (relu4), field 'grid': at column");
  EXPECT_HAS(m, "unknown name 'N'");
  LaunchPlan big = parse_launch_plan(with_plan("launches:\n  - {kernel: k, grid: [1, N], block: 1}\n"), true);
  m = plan_error([&] { resolve_plan(big, env_n(int64_t{1} << 40), {}); });
  EXPECT_HAS(m, "field 'grid': entry 2: 'N' is 1099511627776");
}
