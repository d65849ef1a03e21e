// hiprtc: candidate source (with the crucible/kernel.h prelude in front, as NVRTC
// gets it) to an AMD GPU code object ("hsaco") for a gfx target, cached on disk by
// (source, fingerprint). Also compiles the harness's support kernels from the same
// backends/common/kernels/*.cuh sources the CUDA backend uses.
#pragma once
#include <string>
#include <vector>

#include "harness/artifact_cache.h"
#include "harness/device.h"

namespace crucible {

class HiprtcCompiler : public Compiler {
 public:
  // default_arch: the device's gcnArchName ("gfx90a:sramecc+:xnack-"), or empty for gfx90a.
  explicit HiprtcCompiler(std::string default_arch = {});

  std::string name() const override { return "hiprtc"; }
  std::string fingerprint(const CompileOptions&) const override;
  CompileResult compile(const std::string& source, const std::string& name, const CompileOptions&) override;

  // The support kernels (fill, checksum, compare, blocking, fma peak) for `arch`,
  // compiled with contraction off so the Philox mapping is exact. Throws
  // crucible::Error when they do not compile (a harness fault).
  std::vector<uint8_t> compile_support(const std::string& arch);

  // "gfx90a" / "gfx90a:xnack-" checked for form; throws InputError otherwise.
  static std::string normalize_arch(const std::string& arch);
  // The processor part: "gfx90a" of "gfx90a:sramecc+:xnack-".
  static std::string processor(const std::string& arch);
  // Empty when this ROCm's hiprtc can compile for the target; else the reason, e.g.
  // "target gfx942 is not supported by this ROCm's hiprtc (5.2)". Debian's ROCm 5.2
  // hiprtc aborts the whole process for targets it does not know, so this is checked
  // before every compile; for other ROCm releases nothing is refused here (a crash
  // still becomes a compile_error in the driver, harness/eval_service.cpp).
  static std::string unsupported_target(const std::string& arch);
  // "hiprtc 9.0 (ROCm 5.2.21153)"
  static std::string hiprtc_version();
  // The full source the harness compiles for a candidate: prelude, #line, candidate.
  static std::string with_prelude(const std::string& source);
  // The support kernels' translation unit (the alias header and the shared .cuh files).
  static std::string support_source();

  // One hiprtc compile of `source` with these exact options (the embedded crucible/*.h
  // and kernels/*.cuh are available as headers). Never throws.
  static CompileResult compile_raw(const std::string& source, const std::string& program_name,
                                   const std::vector<std::string>& options, int64_t log_cap);

 private:
  std::vector<std::string> candidate_options(const CompileOptions&) const;
  std::string arch_for(const CompileOptions&) const;
  std::string default_arch_;
  ArtifactCache cache_;
};

}  // namespace crucible
