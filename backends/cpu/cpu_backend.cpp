// Registers the CPU backend: always present, lowest priority, one device (the host).
#include "backends/cpu/cpu_compiler.h"
#include "backends/cpu/cpu_device.h"
#include "harness/backend_registry.h"

namespace crucible {
namespace {

BackendInfo cpu_backend_info() {
  BackendInfo b;
  b.name = "cpu";
  b.priority = 0;
  b.family = "cpu";
  b.needs_geometry = false;
  b.device_count = [] { return 1; };
  b.open_device = [](int ordinal) -> std::unique_ptr<Device> {
    if (ordinal != 0) CRU_THROW("the CPU backend has one device (0), not " + std::to_string(ordinal));
    return std::make_unique<CpuDevice>();
  };
  b.make_compiler = [](const Device*) -> std::unique_ptr<Compiler> { return std::make_unique<CpuCompiler>(); };
  return b;
}

}  // namespace
}  // namespace crucible

CRU_REGISTER_BACKEND(crucible::cpu_backend_info);
