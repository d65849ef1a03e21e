// The CPU backend's executor: the only process where candidate code runs on the host.
// The trusted process starts it as `<its own binary> __cpu_executor <control fd>`; a
// binary that may host CPU-backend devices (the CLI, test programs) dispatches to
// cpu_executor_main when argv[1] == kCpuExecutorArg, before doing anything else.
#pragma once

namespace crucible {

inline constexpr const char* kCpuExecutorArg = "__cpu_executor";

// Never returns to the caller's logic in a useful way: the return value is the exit code.
int cpu_executor_main(int argc, char** argv);

// Convenience for main(): runs the executor and returns true when argv asks for it.
inline bool is_cpu_executor_invocation(int argc, char** argv) {
  if (argc < 2) return false;
  const char* a = argv[1];
  const char* b = kCpuExecutorArg;
  while (*a && *a == *b) ++a, ++b;
  return *a == 0 && *b == 0;
}

}  // namespace crucible
