#include "backends/cuda/cuda_nvml.h"

#include <dlfcn.h>

namespace crucible {
namespace {

// The few NVML declarations needed (nvml.h is not always installed with the toolkit).
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;  // NVML_CLOCK_SM

struct Nvml {
  int (*init)() = nullptr;
  int (*by_bus)(const char*, nvmlDevice_t*) = nullptr;
  int (*clock)(nvmlDevice_t, int, unsigned*) = nullptr;
  bool ok = false;
};

const Nvml& nvml() {
  static const Nvml n = [] {
    Nvml n;
    void* h = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return n;
    n.init = reinterpret_cast<int (*)()>(dlsym(h, "nvmlInit_v2"));
    n.by_bus = reinterpret_cast<int (*)(const char*, nvmlDevice_t*)>(dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2"));
    n.clock = reinterpret_cast<int (*)(nvmlDevice_t, int, unsigned*)>(dlsym(h, "nvmlDeviceGetClockInfo"));
    n.ok = n.init && n.by_bus && n.clock && n.init() == kNvmlSuccess;
    return n;
  }();
  return n;
}

}  // namespace

int64_t nvml_sm_clock_khz(const std::string& pci_bus_id) {
  const Nvml& n = nvml();
  if (!n.ok || pci_bus_id.empty()) return 0;
  nvmlDevice_t dev = nullptr;
  if (n.by_bus(pci_bus_id.c_str(), &dev) != kNvmlSuccess) return 0;
  unsigned mhz = 0;
  if (n.clock(dev, kNvmlClockSm, &mhz) != kNvmlSuccess) return 0;
  return static_cast<int64_t>(mhz) * 1000;
}

}  // namespace crucible
