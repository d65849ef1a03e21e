// The closed set of dispositions for every evaluation outcome (as the CUTLASS
// profiler has one for every profiling outcome), and the flags a record may carry.
#pragma once
#include <optional>
#include <string>

namespace crucible {

enum class Verdict {
  pass,
  format_error,    // the candidate file or its launch plan is malformed or does not fit the kernel
  compile_error,
  launch_error,    // the launch was refused (bad config, too many resources)
  runtime_error,   // a sticky device fault or a fault inside the candidate
  timeout,
  crash,           // the worker died
  wrong_output,
  agent_error,     // the model's answer could not be obtained or read (agents only)
};

const char* verdict_name(Verdict);
std::optional<Verdict> parse_verdict(const std::string&);

// Flags: strings so that records stay readable; the known ones are named here.
namespace flag {
inline constexpr const char* input_mutated = "input_mutated";
inline constexpr const char* unwritten_output = "unwritten_output";
inline constexpr const char* nondeterministic = "nondeterministic";
inline constexpr const char* suspicious_speedup = "suspicious_speedup";
inline constexpr const char* stale_output = "stale_output";             // second run on fresh inputs disagreed
inline constexpr const char* timed_output_wrong = "timed_output_wrong"; // a re-checked timed sample was wrong
inline constexpr const char* nan_output = "nan_output";
inline constexpr const char* constant_output = "constant_output";
inline constexpr const char* noisy_timing = "noisy_timing";           // stopped at the time cap above the noise target
inline constexpr const char* cupti_mismatch = "cupti_mismatch";
inline constexpr const char* low_clock = "low_clock";
}  // namespace flag

}  // namespace crucible
