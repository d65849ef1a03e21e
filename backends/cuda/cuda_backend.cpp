// Registers the "cuda" backend (harness/backend_registry.h): NVRTC compiles,
// driver-API execution. With no driver or no GPU it reports 0 devices.
#include <cstdlib>

#include "backends/cuda/cuda_device.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "harness/backend_registry.h"

namespace crucible {
namespace {

BackendInfo cuda_backend_info() {
  BackendInfo b;
  b.name = "cuda";
  b.priority = 20;
  b.family = "gpu";
  b.needs_geometry = true;
  b.device_count = [] { return cuda_device_count(); };
  b.open_device = [](int ordinal) -> std::unique_ptr<Device> {
    auto dev = std::make_unique<CudaDevice>(ordinal);
    // Peaks for % of speed of light: cached per device after the first measurement.
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
    return std::make_unique<NvrtcCompiler>(device ? device->facts().arch : std::string());
  };
  return b;
}

}  // namespace

CRU_REGISTER_BACKEND(cuda_backend_info);

}  // namespace crucible
