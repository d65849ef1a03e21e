// The CPU backend's Device: buffers in shared memory owned by this (trusted) process;
// each Module is a separate executor process (executor_client.h) that maps only the
// buffers its launches name. Comparison, checksums and the clock stay here.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cpu/shm_buffer.h"
#include "harness/device.h"

namespace crucible {

class CpuDevice : public Device {
 public:
  CpuDevice();
  ~CpuDevice() override;

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

  // Per run (and per load); default 10 s or $CRUCIBLE_CPU_RUN_DEADLINE_MS.
  void set_run_deadline_ms(int ms) override { run_deadline_ms_ = ms; }
  int run_deadline_ms() const { return run_deadline_ms_; }
  // The binary started as the executor (it must dispatch `__cpu_executor`, see
  // cpu_executor.h); default /proc/self/exe.
  void set_executor_path(std::string path) { executor_path_ = std::move(path); }
  // The module's executor process id (diagnostics and tests); -1 once it is dead.
  int executor_pid(Module&) const;
  // Bytes touched before each timed sample to push the plan's data out of the caches.
  size_t flush_bytes() const { return flush_bytes_; }

  struct Modules;  // the live modules, told when a buffer is released

 private:
  ShmBuffer& buffer(uint64_t id, const char* what);
  void flush_cache();

  DeviceFacts facts_;
  int run_deadline_ms_ = 10000;
  std::string executor_path_ = "/proc/self/exe";
  std::mutex mu_;
  uint64_t next_id_ = 1;
  std::map<uint64_t, std::unique_ptr<ShmBuffer>> buffers_;
  std::shared_ptr<Modules> modules_;
  size_t flush_bytes_ = 0;
  void* flush_ = nullptr;
  unsigned char flush_round_ = 0;
};

// The last-level cache's size in bytes (sysfs, then sysconf, then 64 MiB).
int64_t host_llc_bytes();

}  // namespace crucible
