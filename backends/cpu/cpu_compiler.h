// The CPU backend's compiler: the system C++ compiler (`c++`, or $CRUCIBLE_CXX) run as
// a child process with a deadline, building the candidate into a shared object.
#pragma once
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/elf_check.h"
#include "harness/device.h"

namespace crucible {

class CpuCompiler : public Compiler {
 public:
  CpuCompiler();
  std::string name() const override { return "c++"; }
  // Compiler path, first line of `--version`, and the flags.
  std::string fingerprint(const CompileOptions&) const override;
  CompileResult compile(const std::string& source, const std::string& name, const CompileOptions&) override;

  // -O2 -march=native -std=c++17 -shared -fPIC -fno-exceptions (and link/diagnostic
  // flags); CompileOptions::arch replaces `native` unless it names this
  // machine (the device's arch fact, e.g. x86_64), CompileOptions::extra is appended.
  std::vector<std::string> flags(const CompileOptions&) const;
  const std::string& compiler_path() const { return cxx_; }
  // Wall-clock limit of one compile; default 60 s or $CRUCIBLE_CPU_COMPILE_TIMEOUT_MS.
  void set_timeout_ms(int64_t ms) { timeout_ms_ = ms; }

 private:
  // What an empty object built with these flags runs at load time (cached per flags).
  LoadTimeCode baseline(const std::vector<std::string>& flags);

  std::string cxx_;
  int64_t timeout_ms_ = 60000;
  mutable std::once_flag version_once_;
  mutable std::string version_;
  std::mutex baseline_mu_;
  std::map<std::string, LoadTimeCode> baselines_;
};

}  // namespace crucible
