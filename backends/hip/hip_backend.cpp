// Registers the "hip" backend (harness/backend_registry.h): hiprtc compiles, HIP
// runtime execution. With no ROCm or no AMD GPU it reports 0 devices; compile-only
// workers still compile (gfx90a by default).
#include <cstdlib>

#include "backends/hip/hip_device.h"
#include "backends/hip/hiprtc_compiler.h"
#include "harness/backend_registry.h"

namespace crucible {
namespace {

BackendInfo hip_backend_info() {
  BackendInfo b;
  b.name = "hip";
  b.priority = 10;
  b.family = "gpu";
  b.needs_geometry = true;
  b.device_count = [] { return hip_device_count(); };
  b.open_device = [](int ordinal) -> std::unique_ptr<Device> {
    auto dev = std::make_unique<HipDevice>(ordinal);
    const char* skip = std::getenv("CRUCIBLE_SKIP_PEAKS");
    if (!(skip && *skip && std::string(skip) != "0")) {
      try {
        dev->measure_peaks();
      } catch (const std::exception&) {
        // Not enough memory or a busy device: the record simply has no sol.
      }
    }
    return dev;
  };
  b.make_compiler = [](const Device* device) -> std::unique_ptr<Compiler> {
    // The full target name (with :sramecc/:xnack features) when a device is open.
    if (auto* hd = dynamic_cast<const HipDevice*>(device)) return std::make_unique<HiprtcCompiler>(hd->gcn_arch_name());
    return std::make_unique<HiprtcCompiler>(device ? device->facts().arch : std::string());
  };
  return b;
}

}  // namespace

CRU_REGISTER_BACKEND(hip_backend_info);

}  // namespace crucible
