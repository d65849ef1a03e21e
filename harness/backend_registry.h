// Backends registered by name at build time (as ggml registers its backends): a
// backend's .cpp defines a static CRU_REGISTER_BACKEND; the core never names one.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "harness/device.h"

namespace crucible {

struct BackendInfo {
  std::string name;        // "cpu", "cuda", "hip"
  int priority = 0;        // `auto` picks the highest that has a device
  std::string family;      // reference family in task.yaml: "cpu" or "gpu"
  bool needs_geometry = true;  // plans must give grid and block
  // Number of devices visible; must not create a context that a later fork would inherit
  // (called only inside workers or `crucible devices`).
  std::function<int()> device_count;
  std::function<std::unique_ptr<Device>(int ordinal)> open_device;
  // compile_only: no device needed (arch from options or the backend default)
  std::function<std::unique_ptr<Compiler>(const Device* device)> make_compiler;
};

void register_backend(BackendInfo);
const std::vector<BackendInfo>& backends();
const BackendInfo* find_backend(const std::string& name);

struct BackendRegistrar {
  explicit BackendRegistrar(BackendInfo info) { register_backend(std::move(info)); }
};

}  // namespace crucible

#define CRU_REGISTER_BACKEND_CAT2(a, b) a##b
#define CRU_REGISTER_BACKEND_CAT(a, b) CRU_REGISTER_BACKEND_CAT2(a, b)
#define CRU_REGISTER_BACKEND(make_info) \
  static ::crucible::BackendRegistrar CRU_REGISTER_BACKEND_CAT(cru_backend_reg_, __LINE__)(make_info())
