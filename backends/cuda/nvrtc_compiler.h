// NVRTC: candidate source (with the crucible/kernel.h prelude in front) to an sm_XX
// CUBIN, cached on disk by (source, fingerprint). Also compiles the harness's own
// support kernels (backends/common/kernels/*.cuh), which need exact arithmetic.
#pragma once
#include <string>
#include <vector>

#include "harness/artifact_cache.h"
#include "harness/device.h"

namespace crucible {

class NvrtcCompiler : public Compiler {
 public:
  // default_arch: the device's ("sm_90"), or empty for sm_90.
  explicit NvrtcCompiler(std::string default_arch = {});

  std::string name() const override { return "nvrtc"; }
  std::string fingerprint(const CompileOptions&) const override;
  CompileResult compile(const std::string& source, const std::string& name, const CompileOptions&) override;

  // The support kernels (fill, poison, checksum, compare, blocking, fma peak),
  // compiled with --fmad=false so the Philox mapping is exact. Throws crucible::Error
  // when they do not compile (a harness fault, never a candidate's).
  std::vector<uint8_t> compile_support(const std::string& arch);

  // "sm_90" from "90", "sm_90", "sm_90a", "compute_90"; throws InputError otherwise.
  static std::string normalize_arch(const std::string& arch);
  // NVRTC's version, "13.0".
  static std::string nvrtc_version();
  // The full source the harness compiles for a candidate: prelude, #line, candidate.
  static std::string with_prelude(const std::string& source);
  // The support kernels' translation unit.
  static std::string support_source();

  // Low level: one NVRTC compile of `source` with these exact options (the embedded
  // crucible/*.h and kernels/*.cuh are available as headers). Never throws.
  static CompileResult compile_raw(const std::string& source, const std::string& program_name,
                                   const std::vector<std::string>& options, int64_t log_cap);

 private:
  std::vector<std::string> candidate_options(const CompileOptions&) const;
  std::string arch_for(const CompileOptions&) const;
  std::string default_arch_;
  ArtifactCache cache_;
};

}  // namespace crucible
