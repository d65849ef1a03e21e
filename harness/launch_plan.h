// The candidate format: one source file with kernels and a launch plan in a
// /*@launch ... @*/ comment block (YAML). See docs/candidate-format.md.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/dtype.h"
#include "harness/expr.h"

namespace crucible {

// A plan that is malformed or does not fit: the message says which launch, which
// field and what is wrong, in words a model can act on. Becomes a format_error verdict.
class PlanError : public std::runtime_error {
 public:
  explicit PlanError(const std::string& what) : std::runtime_error(what) {}
};

enum class ScalarType : uint8_t { i32, i64, u32, f32, f64 };
const char* scalar_type_name(ScalarType);

struct TmaSpec {
  std::string tensor;
  std::vector<Expr> box;  // box extent per dimension, innermost first as written
  int swizzle = 0;        // 0, 32, 64 or 128 bytes
};

struct PlanArg {
  enum class Kind : uint8_t { tensor, scalar, tma } kind = Kind::tensor;
  std::string text;     // as written, for messages
  std::string tensor;   // Kind::tensor: an input, output or scratch name
  ScalarType scalar_type = ScalarType::i32;  // Kind::scalar
  Expr value;           // Kind::scalar
  TmaSpec tma;          // Kind::tma
  int line = 0;         // line in the candidate file where this argument is written
};

struct PlanLaunch {
  std::string kernel;
  std::vector<Expr> grid;      // 1..3 entries; empty on the CPU backend
  std::vector<Expr> block;     // 1..3 entries; empty on the CPU backend
  std::vector<Expr> cluster;   // optional, 0 or 1..3 entries
  std::optional<Expr> smem;    // dynamic shared memory bytes
  std::vector<PlanArg> args;
  int line = 0;                // line in the candidate file where this launch starts
};

struct ScratchSpec {
  std::string name;
  Dtype dtype = Dtype::f32;
  Expr count;
  int line = 0;         // line in the candidate file
};

struct LaunchPlan {
  std::vector<PlanLaunch> launches;
  std::vector<ScratchSpec> scratch;
  int first_line = 0;  // line of the @launch marker
};

// Finds the single /*@launch ... @*/ block in `source` and parses it.
// require_geometry: GPU backends need grid and block; the CPU backend forbids neither
// and ignores them. Throws PlanError.
LaunchPlan parse_launch_plan(const std::string& source, bool require_geometry);

// Checks every tensor name against `known` (inputs, outputs, scratch) and every
// expression's names against `known_ints` / `known_reals`; throws PlanError.
void check_plan_names(const LaunchPlan&, const std::vector<std::string>& known_tensors,
                      const std::vector<std::string>& known_ints, const std::vector<std::string>& known_reals);

// ---- A plan resolved for one shape on one device: what a backend launches.
struct ResolvedArg {
  PlanArg::Kind kind = PlanArg::Kind::tensor;
  ScalarType scalar_type = ScalarType::i32;
  uint64_t buffer = 0;          // tensor / tma: the device buffer id
  int64_t ival = 0;             // i32 / i64 / u32
  double fval = 0;              // f32 / f64
  // tma only: the tensor's dtype and shape (outermost first) and the evaluated box
  Dtype dtype = Dtype::f32;
  std::vector<int64_t> shape;
  std::vector<int64_t> box;
  int swizzle = 0;
};

struct ResolvedLaunch {
  std::string kernel;
  int64_t grid[3] = {1, 1, 1};
  int64_t block[3] = {1, 1, 1};
  int64_t cluster[3] = {0, 0, 0};  // all 0: no cluster launch
  int64_t smem = 0;
  std::vector<ResolvedArg> args;
  int index = 0;                   // position in the plan, for messages
  int line = 0;                    // line in the candidate file where this launch starts
};

struct TensorBinding {
  std::string name;
  uint64_t buffer = 0;
  Dtype dtype = Dtype::f32;
  std::vector<int64_t> shape;
};

// Evaluates every expression; throws PlanError for a name that is not bound, a
// non-positive grid/block, a 32-bit scalar that overflows, and so on.
std::vector<ResolvedLaunch> resolve_plan(const LaunchPlan&, const ExprEnv& env,
                                         const std::vector<TensorBinding>& tensors);

}  // namespace crucible
