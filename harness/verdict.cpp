#include "harness/verdict.h"

namespace crucible {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::format_error: return "format_error";
    case Verdict::compile_error: return "compile_error";
    case Verdict::launch_error: return "launch_error";
    case Verdict::runtime_error: return "runtime_error";
    case Verdict::timeout: return "timeout";
    case Verdict::crash: return "crash";
    case Verdict::wrong_output: return "wrong_output";
    case Verdict::agent_error: return "agent_error";
  }
  return "?";
}

std::optional<Verdict> parse_verdict(const std::string& s) {
  for (Verdict v : {Verdict::pass, Verdict::format_error, Verdict::compile_error, Verdict::launch_error,
                    Verdict::runtime_error, Verdict::timeout, Verdict::crash, Verdict::wrong_output,
                    Verdict::agent_error})
    if (s == verdict_name(v)) return v;
  return std::nullopt;
}

}  // namespace crucible
