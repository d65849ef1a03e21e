// Degenerate candidates for the gaming audit (issue 7): programs that do no real work
// (write nothing, zeros, a constant, a copy of an input, another seed's answer, NaN,
// the reference followed by zeroing the inputs). Generated from a task's tensors in the
// candidate format of a backend family: C++ for "cpu", CUDA/HIP for "gpu". Every one
// must fail every task; one that passes shows the task is gameable.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/launch_plan.h"
#include "harness/task.h"

namespace crucible {

enum class DegenerateKind { write_nothing, zeros, constant, copy_input, other_seed, nan_fill, input_mutation };

const std::vector<DegenerateKind>& all_degenerate_kinds();
const char* degenerate_name(DegenerateKind);
std::optional<DegenerateKind> parse_degenerate(const std::string&);
// Why a task that lets this kind pass is gameable, in words for the audit table.
const char* degenerate_defect_reason(DegenerateKind);

// The reference's outputs for one shape on inputs of a seed the candidate is never
// given; other_seed candidates replay them (at most `stored` elements each, repeated).
struct StoredShapeOutputs {
  Params params;
  std::vector<std::vector<uint8_t>> outputs;  // per task output, raw little-endian, maybe truncated
};

struct DegenerateCandidate {
  DegenerateKind kind;
  std::string source;        // empty when not applicable
  std::string not_applicable;  // why, when source is empty
};

// family: "cpu" or "gpu". reference_source: the task's reference for that family (used
// by input_mutation). stored: used by other_seed (empty: not applicable).
DegenerateCandidate make_degenerate(const Task&, DegenerateKind, const std::string& family,
                                    const std::string& reference_source,
                                    const std::vector<StoredShapeOutputs>& stored = {});

// Re-emits a parsed plan as the YAML of a /*@launch block (used to append launches).
std::string plan_to_yaml(const LaunchPlan&);
// `source` with its /*@launch ... @*/ block removed.
std::string strip_plan_block(const std::string& source);

}  // namespace crucible
