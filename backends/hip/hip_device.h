// The HIP device: the HIP runtime through dlopen'd entry points (hip_api.h), one
// stream of its own, support kernels (fill, checksum, compare, blocking, fma peak)
// compiled once per worker with hiprtc from backends/common/kernels — the same
// sources as CUDA. Structure and semantics follow backends/cuda/cuda_device.h; only a
// worker process opens one (harness/device.h). Not yet run on AMD hardware.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/hip/hip_raii.h"
#include "harness/device.h"

namespace crucible {

// hipInit + hipGetDeviceCount; 0 on any failure (no ROCm, no device, init error).
int hip_device_count();

// Bytes a cold measurement must overwrite: L2 plus the Infinity Cache (MALL) of the
// known parts (MI300: 256 MiB; RDNA2/3: 32-128 MiB), which HIP 5.2 does not report.
int64_t hip_last_level_cache_bytes(const std::string& gcn_arch, int64_t l2_bytes);

class HipModule : public Module {
 public:
  struct Function {
    hipFunction_t fn = nullptr;
    int max_threads = 0;
    int static_smem = 0;
  };
  HipModule(hip::ModuleHandle m, std::shared_ptr<const bool> poisoned)
      : mod_(std::move(m)), poisoned_(std::move(poisoned)) {}
  ~HipModule() override {
    if (poisoned_ && *poisoned_) (void)mod_.release();
  }
  // Null when the module has no kernel of that name.
  Function* find(const std::string& name);

 private:
  hip::ModuleHandle mod_;
  std::shared_ptr<const bool> poisoned_;
  std::map<std::string, Function> fns_;
};

class HipDevice : public Device {
 public:
  explicit HipDevice(int ordinal);
  ~HipDevice() override;

  const DeviceFacts& facts() const override { return facts_; }

  uint64_t alloc(size_t bytes) override;
  void release(uint64_t buffer) override;
  void upload(uint64_t buffer, const void* src, size_t bytes) override;
  void download(uint64_t buffer, void* dst, size_t bytes) override;

  void fill(uint64_t buffer, const FillSpec&) override;
  void poison(uint64_t buffer, size_t bytes) override;
  uint64_t checksum(uint64_t buffer, size_t bytes) override;
  CompareStats compare(uint64_t out, uint64_t ref, Dtype, uint64_t count, const Tolerance&) override;

  std::unique_ptr<Module> load(const std::vector<uint8_t>& artifact) override;
  void check(Module&, const std::vector<ResolvedLaunch>&) override;
  void run(Module&, const std::vector<ResolvedLaunch>&) override;
  double run_timed(Module&, const std::vector<ResolvedLaunch>&) override;

  void set_run_deadline_ms(int ms) override { deadline_ms_ = ms > 0 ? ms : 10000; }

  // Peaks for % of speed of light (copy bandwidth, fp32 FMA), as CudaDevice's.
  void measure_peaks();
  // DRAM bandwidth from the memory clock and bus width the runtime reports (0 if not).
  double theoretical_dram_bytes_per_s() const;

  int64_t blocking_timeouts() const { return blocking_timeouts_; }
  const std::string& gcn_arch_name() const { return gcn_arch_; }

 private:
  struct ArgSlot;
  void make_current();
  [[noreturn]] void fault(hipError_t r, const std::string& what);
  void sync(const std::string& what, int64_t deadline_ms);
  void sync(const std::string& what) { sync(what, deadline_ms_); }
  hipFunction_t support(const char* name);
  void launch_support(const char* name, unsigned grid, unsigned block, void** params, const char* what);
  HipModule::Function& function_for(HipModule&, const ResolvedLaunch&);
  void enqueue(HipModule&, const std::vector<ResolvedLaunch>&);
  size_t size_of(uint64_t buffer) const;
  unsigned support_grid(uint64_t work) const;

  int ordinal_ = 0;
  DeviceFacts facts_;
  std::string gcn_arch_;            // full gcnArchName, "gfx90a:sramecc+:xnack-"
  int64_t max_block_[3] = {1024, 1024, 1024};
  int64_t max_grid_[3] = {INT32_MAX, 65535, 65535};
  hip::Stream stream_;
  hip::Event ev_start_, ev_stop_;
  std::map<uintptr_t, hip::DeviceMem> buffers_;
  std::map<uintptr_t, size_t> sizes_;
  std::unique_ptr<HipModule> support_;
  hip::DeviceMem scratch_;          // compare/checksum summaries
  hip::DeviceMem flush_;            // >= L2 + Infinity Cache, memset before each timed sample
  size_t flush_bytes_ = 0;
  hip::HostMem block_flag_;         // host-mapped, coherent flag the blocking kernel spins on
  void* block_flag_dev_ = nullptr;
  int64_t deadline_ms_ = 10000;
  int64_t blocking_timeouts_ = 0;
  std::shared_ptr<bool> poisoned_ = std::make_shared<bool>(false);
};

}  // namespace crucible
