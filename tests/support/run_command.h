// Test support: runs a shell command and returns what it printed (stdout; add 2>&1 to
// the command for stderr), with its wait status. Used by the tests that drive the
// `crucible` binary (test_cli, test_suite_cpu, test_adversarial).
#pragma once
#include <cstdio>
#include <string>

namespace crucible::testing {

inline std::string run_command(const std::string& cmd, int* status = nullptr) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    if (status) *status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  if (status) *status = st;
  return out;
}

}  // namespace crucible::testing
