#include "harness/device_json.h"

namespace crucible {

nlohmann::json to_json(const DeviceFacts& f) {
  return {{"backend", f.backend}, {"name", f.name}, {"arch", f.arch}, {"ordinal", f.ordinal},
          {"sm_count", f.sm_count}, {"warp_size", f.warp_size}, {"max_threads_per_block", f.max_threads_per_block},
          {"max_smem_per_block", f.max_smem_per_block}, {"max_smem_per_block_optin", f.max_smem_per_block_optin},
          {"l2_bytes", f.l2_bytes}, {"global_mem_bytes", f.global_mem_bytes}, {"clock_khz", f.clock_khz},
          {"supports_cluster", f.supports_cluster}, {"supports_tma", f.supports_tma},
          {"peak_bytes_per_s", f.peak_bytes_per_s}, {"peak_flops", f.peak_flops}};
}

DeviceFacts device_facts_from_json(const nlohmann::json& j) {
  DeviceFacts f;
  f.backend = j.value("backend", "");
  f.name = j.value("name", "");
  f.arch = j.value("arch", "");
  f.ordinal = j.value("ordinal", 0ll);
  f.sm_count = j.value("sm_count", 1ll);
  f.warp_size = j.value("warp_size", 1ll);
  f.max_threads_per_block = j.value("max_threads_per_block", 1ll);
  f.max_smem_per_block = j.value("max_smem_per_block", 0ll);
  f.max_smem_per_block_optin = j.value("max_smem_per_block_optin", 0ll);
  f.l2_bytes = j.value("l2_bytes", 0ll);
  f.global_mem_bytes = j.value("global_mem_bytes", 0ll);
  f.clock_khz = j.value("clock_khz", 0ll);
  f.supports_cluster = j.value("supports_cluster", false);
  f.supports_tma = j.value("supports_tma", false);
  f.peak_bytes_per_s = j.value("peak_bytes_per_s", 0.0);
  f.peak_flops = j.value("peak_flops", 0.0);
  return f;
}

}  // namespace crucible
