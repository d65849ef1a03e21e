// The backend-neutral device and compiler interfaces. Verification
// (harness/verify.h) and timing (harness/measure_cold.h) are written once against
// these; a backend (backends/<name>/) implements them and registers itself by name
// (harness/backend_registry.h). Only a worker process ever creates a Device.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/dtype.h"
#include "harness/launch_plan.h"

namespace crucible {

// ---- facts the plan's expressions may use, plus what the report shows
struct DeviceFacts {
  std::string backend;          // "cpu", "cuda", "hip"
  std::string name;             // "NVIDIA H200", host CPU model
  std::string arch;             // "sm_90", "gfx90a", "x86_64"
  int64_t ordinal = 0;
  int64_t sm_count = 1;
  int64_t warp_size = 1;
  int64_t max_threads_per_block = 1;
  int64_t max_smem_per_block = 0;        // default limit
  int64_t max_smem_per_block_optin = 0;  // with opt-in (CUDA), else same as default
  int64_t l2_bytes = 0;                  // the cache a cold measurement flushes
  int64_t global_mem_bytes = 0;
  int64_t clock_khz = 0;                 // default SM clock
  bool supports_cluster = false;
  bool supports_tma = false;
  // measured once per device (harness/peaks): 0 when not measured
  double peak_bytes_per_s = 0;
  double peak_flops = 0;
};

// The names a plan's expressions may use for the device facts.
void add_device_facts(const DeviceFacts&, std::map<std::string, int64_t>& ints);

// ---- faults a backend reports; the worker turns them into verdicts
class DeviceFault : public std::runtime_error {
 public:
  enum class Kind { launch, runtime, timeout };
  DeviceFault(Kind k, const std::string& what, bool sticky)
      : std::runtime_error(what), kind(k), sticky(sticky) {}
  Kind kind;
  bool sticky;  // the context is unusable: the worker must be replaced
};

// ---- compile
struct CompileOptions {
  std::string arch;                    // empty: the device's own / backend default
  std::vector<std::string> extra;      // appended to the backend's default flags
  int64_t log_cap_bytes = 16 * 1024;
};

struct CompileResult {
  bool ok = false;
  std::string log;                     // capped; line numbers are the candidate's own
  std::vector<uint8_t> artifact;       // cubin / code object / shared object
  std::string artifact_kind;           // "cubin", "hsaco", "so"
  double compile_ms = 0;
};

class Compiler {
 public:
  virtual ~Compiler() = default;
  virtual std::string name() const = 0;         // "nvrtc", "hiprtc", "c++"
  // Everything besides the source that decides the artifact (version, target, flags):
  // part of the artifact cache key.
  virtual std::string fingerprint(const CompileOptions&) const = 0;
  // `source` is the candidate file as stored; the backend puts the prelude in front
  // and maps log line numbers back. Never throws for a bad candidate.
  virtual CompileResult compile(const std::string& source, const std::string& name,
                                const CompileOptions&) = 0;
};

// ---- execute
class Module {
 public:
  virtual ~Module() = default;
};

struct CompareStats {
  uint64_t count = 0;
  uint64_t mismatches = 0;        // outside atol + rtol*|ref|, NaN/Inf included
  uint64_t nonfinite = 0;         // NaN or Inf in the output where the reference is finite
  uint64_t unwritten = 0;         // still holding the poison pattern where the reference does not
  double max_abs_err = 0;         // over finite pairs
  double max_rel_err = 0;
  int64_t first_mismatch = -1;
  double first_expected = 0;
  double first_actual = 0;
  double out_min = 0, out_max = 0;  // of the output's finite elements (constant-output check)
};

struct Tolerance {
  double atol = 0;
  double rtol = 0;
};

// What a Philox fill produces: see backends/common/include/crucible/philox.h.
struct FillSpec {
  Dtype dtype = Dtype::f32;
  uint64_t count = 0;
  uint64_t seed = 0;
  uint32_t stream = 0;   // tensor's index among the task's inputs
  int dist = 0;          // CRU_DIST_* from crucible/philox.h
  double p0 = 0, p1 = 0; // normal: mean, std; uniform: low, high; randint: low, high (exclusive)
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceFacts& facts() const = 0;

  virtual uint64_t alloc(size_t bytes) = 0;
  virtual void release(uint64_t buffer) = 0;
  virtual void upload(uint64_t buffer, const void* src, size_t bytes) = 0;
  virtual void download(uint64_t buffer, void* dst, size_t bytes) = 0;

  // Device-side building blocks of verification: they run where the data is, and only
  // the small summary comes back.
  virtual void fill(uint64_t buffer, const FillSpec&) = 0;
  virtual void poison(uint64_t buffer, size_t bytes) = 0;         // every byte 0xFF (a NaN pattern)
  virtual uint64_t checksum(uint64_t buffer, size_t bytes) = 0;   // order-independent hash of the bytes
  virtual CompareStats compare(uint64_t out, uint64_t ref, Dtype, uint64_t count, const Tolerance&) = 0;

  // Loads an artifact of this backend's compiler. Throws DeviceFault (launch) if refused.
  virtual std::unique_ptr<Module> load(const std::vector<uint8_t>& artifact) = 0;
  // Checks the plan against the kernels before anything runs (names, argument count
  // and sizes, block size, shared memory, clusters, tma). Throws PlanError.
  virtual void check(Module&, const std::vector<ResolvedLaunch>&) = 0;
  // Runs the plan's launches, in order, and waits. Throws DeviceFault.
  virtual void run(Module&, const std::vector<ResolvedLaunch>&) = 0;
  // One cold sample: flush the cache, hold the stream (blocking kernel) so launch
  // overhead is untimed, record events around the launches, release, wait.
  // Returns milliseconds. Throws DeviceFault.
  virtual double run_timed(Module&, const std::vector<ResolvedLaunch>&) = 0;

  // Cross-check of the timer (CUPTI on CUDA): runs the plan `reps` times under
  // activity tracing; returns the mean per-run summed kernel time and the kernel
  // count per run. Backends without one return {-1, -1}.
  struct TraceResult { double kernel_ms = -1; double kernels_per_run = -1; };
  virtual TraceResult trace(Module&, const std::vector<ResolvedLaunch>&, int reps) {
    (void)reps;
    return {};
  }
  // How long one run() or run_timed() may take before it is a timeout fault.
  virtual void set_run_deadline_ms(int ms) { (void)ms; }
  // The SM clock seen now, in kHz (0 if unknown).
  virtual int64_t current_clock_khz() { return 0; }
};

}  // namespace crucible
