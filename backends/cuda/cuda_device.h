// The CUDA device: driver API only, one primary context and one stream of its own,
// support kernels (fill, checksum, compare, blocking, fma peak) compiled once per
// worker with NVRTC. Only a worker process opens one (harness/device.h).
#pragma once
#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/cuda/cuda_raii.h"
#include "harness/device.h"

namespace crucible {

// cuInit + cuDeviceGetCount; 0 on any failure (no driver, no device, cuInit error).
int cuda_device_count();

class CudaModule : public Module {
 public:
  struct Function {
    CUfunction fn = nullptr;
    int max_threads = 0;
    int static_smem = 0;
    int dyn_smem_set = -1;                // the MAX_DYNAMIC_SHARED_SIZE_BYTES we set, -1: untouched
    std::vector<size_t> param_sizes;      // from cuFuncGetParamInfo
    bool have_params = false;             // false when the driver lacks cuFuncGetParamInfo
  };
  // `poisoned` is the device's flag: after a sticky fault or timeout the module is
  // leaked rather than unloaded (unloading could block behind a running kernel).
  CudaModule(cu::ModuleHandle m, std::shared_ptr<const bool> poisoned) : mod_(std::move(m)), poisoned_(std::move(poisoned)) {}
  ~CudaModule() override {
    if (poisoned_ && *poisoned_) (void)mod_.release();
  }
  CUmodule get() const { return mod_.get(); }
  // Null when the module has no kernel of that name.
  Function* find(const std::string& name);

 private:
  cu::ModuleHandle mod_;
  std::shared_ptr<const bool> poisoned_;
  std::map<std::string, Function> fns_;
};

class CudaDevice : public Device {
 public:
  explicit CudaDevice(int ordinal);
  ~CudaDevice() override;

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
  TraceResult trace(Module&, const std::vector<ResolvedLaunch>&, int reps) override;
  int64_t current_clock_khz() override;

  // Deadline for one run()'s launches (and each timed sample); past it the run is a
  // sticky timeout fault (a running kernel cannot be stopped). Default 10 s.
  void set_run_deadline_ms(int ms) override { deadline_ms_ = ms > 0 ? ms : 10000; }
  int64_t run_deadline_ms() const { return deadline_ms_; }

  // Peaks for % of speed of light: device-to-device copy bandwidth (bytes read +
  // written per second, buffers >= 16x L2 and 2 GiB) and fp32 FMA throughput. Read from the
  // cache dir when measured before on this device (by UUID), else measured and
  // stored. Fills facts().peak_bytes_per_s / peak_flops. Returns the SM clock seen
  // while measuring (kHz, 0 unknown).
  int64_t measure_peaks(bool use_cache = true);
  // DRAM bandwidth from the memory clock and bus width the driver reports (0 if not).
  double theoretical_dram_bytes_per_s() const;

  // Samples whose blocking kernel ran out its own timeout before the host released
  // it (launch overhead may then be in that sample's time).
  int64_t blocking_timeouts() const { return blocking_timeouts_; }
  const std::string& uuid() const { return uuid_; }
  CUstream stream() const { return stream_.get(); }

 private:
  struct ArgSlot;
  void make_current();
  // Throws the DeviceFault for r; marks the device poisoned unless the error only
  // rejected a launch.
  [[noreturn]] void fault(CUresult r, const std::string& what);
  // Polls the stream until done or the deadline; throws DeviceFault (timeout: sticky).
  void sync(const std::string& what, int64_t deadline_ms);
  void sync(const std::string& what) { sync(what, deadline_ms_); }
  CUfunction support(const char* name);
  void launch_support(const char* name, unsigned grid, unsigned block, void** params, const char* what);
  CudaModule::Function& function_for(CudaModule&, const ResolvedLaunch&);
  void enqueue(CudaModule&, const std::vector<ResolvedLaunch>&);
  void build_args(const ResolvedLaunch&, std::vector<ArgSlot>&, std::vector<void*>&);
  // Encodes launch l's argument `index` (tma) into the 128-byte CUtensorMap at out; PlanError if refused.
  void encode_tma(const ResolvedLaunch& l, size_t index, void* out);
  size_t size_of(uint64_t buffer) const;
  unsigned support_grid(uint64_t work) const;

  int ordinal_ = 0;
  CUdevice dev_ = 0;
  DeviceFacts facts_;
  std::string uuid_;
  std::string pci_bus_id_;
  std::unique_ptr<cu::PrimaryContext> ctx_;   // declared first among handles: released last
  cu::Stream stream_;
  cu::Event ev_start_, ev_stop_;
  std::map<CUdeviceptr, cu::DeviceMem> buffers_;
  std::map<CUdeviceptr, size_t> sizes_;
  std::unique_ptr<CudaModule> support_;
  cu::DeviceMem scratch_;           // compare/checksum summaries
  cu::DeviceMem flush_;             // >= L2 bytes, memset before each timed sample
  size_t flush_bytes_ = 0;
  cu::HostMem block_flag_;          // host-mapped flag the blocking kernel spins on
  CUdeviceptr block_flag_dev_ = 0;
  int64_t deadline_ms_ = 10000;
  int64_t blocking_timeouts_ = 0;
  // Sticky fault or timeout: the context must not be touched again (shared with modules).
  std::shared_ptr<bool> poisoned_ = std::make_shared<bool>(false);
};

}  // namespace crucible
