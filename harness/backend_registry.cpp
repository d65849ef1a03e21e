#include "harness/backend_registry.h"

#include <algorithm>

namespace crucible {

static std::vector<BackendInfo>& registry() {
  static std::vector<BackendInfo> r;
  return r;
}

void register_backend(BackendInfo info) {
  auto& r = registry();
  r.push_back(std::move(info));
  std::stable_sort(r.begin(), r.end(), [](const BackendInfo& a, const BackendInfo& b) { return a.priority > b.priority; });
}

const std::vector<BackendInfo>& backends() { return registry(); }

const BackendInfo* find_backend(const std::string& name) {
  for (auto& b : registry())
    if (b.name == name) return &b;
  return nullptr;
}

void add_device_facts(const DeviceFacts& f, std::map<std::string, int64_t>& ints) {
  ints["sm_count"] = f.sm_count;
  ints["warp_size"] = f.warp_size;
  ints["max_threads_per_block"] = f.max_threads_per_block;
  ints["max_smem_per_block"] = f.max_smem_per_block_optin ? f.max_smem_per_block_optin : f.max_smem_per_block;
  ints["l2_bytes"] = f.l2_bytes;
}

}  // namespace crucible
