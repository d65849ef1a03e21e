// RAII owners for HIP handles, and the one place hipError_t becomes a C++ exception
// (the HIP twin of backends/cuda/cuda_raii.h). Destructors never throw: after a
// sticky error every call fails, and the worker is about to exit anyway.
#pragma once
#include <string>
#include <utility>

#include "backends/hip/hip_api.h"
#include "harness/device.h"

namespace crucible::hip {

// Errors after which the device state is unusable (the worker is replaced).
bool is_sticky(hipError_t);
// Errors a launch's configuration or a bad code object causes; the device stays usable.
bool is_launch_error(hipError_t);

// Throws DeviceFault: launch (non-sticky) for configuration errors and out of
// memory, runtime (sticky) for everything else.
[[noreturn]] void throw_fault(hipError_t, const std::string& what);
inline void check(hipError_t r, const std::string& what) {
  if (r != hipSuccess) throw_fault(r, what);
}

template <class Handle, class Deleter>
class Unique {
 public:
  Unique() = default;
  explicit Unique(Handle h) : h_(h) {}
  ~Unique() { reset(); }
  Unique(const Unique&) = delete;
  Unique& operator=(const Unique&) = delete;
  Unique(Unique&& o) noexcept : h_(std::exchange(o.h_, Handle{})) {}
  Unique& operator=(Unique&& o) noexcept {
    if (this != &o) reset(), h_ = std::exchange(o.h_, Handle{});
    return *this;
  }
  Handle get() const { return h_; }
  explicit operator bool() const { return h_ != Handle{}; }
  void reset() {
    if (h_ != Handle{}) Deleter{}(h_);
    h_ = Handle{};
  }
  // Gives up ownership without freeing (after a fault the process exits instead).
  Handle release() { return std::exchange(h_, Handle{}); }

 private:
  Handle h_{};
};

struct StreamDeleter {
  void operator()(hipStream_t s) const { (void)runtime()->hipStreamDestroy(s); }
};
struct EventDeleter {
  void operator()(hipEvent_t e) const { (void)runtime()->hipEventDestroy(e); }
};
struct ModuleDeleter {
  void operator()(hipModule_t m) const { (void)runtime()->hipModuleUnload(m); }
};
struct DeviceMemDeleter {
  void operator()(void* p) const { (void)runtime()->hipFree(p); }
};
struct HostMemDeleter {
  void operator()(void* p) const { (void)runtime()->hipHostFree(p); }
};

using Stream = Unique<hipStream_t, StreamDeleter>;
using Event = Unique<hipEvent_t, EventDeleter>;
using ModuleHandle = Unique<hipModule_t, ModuleDeleter>;
using DeviceMem = Unique<void*, DeviceMemDeleter>;
using HostMem = Unique<void*, HostMemDeleter>;

inline Stream make_stream() {
  hipStream_t s = nullptr;
  // Blocking with respect to the null stream: synchronous copies order after our work.
  check(runtime()->hipStreamCreateWithFlags(&s, hipStreamDefault), "hipStreamCreateWithFlags");
  return Stream(s);
}
inline Event make_event() {
  hipEvent_t e = nullptr;
  check(runtime()->hipEventCreate(&e), "hipEventCreate");
  return Event(e);
}

}  // namespace crucible::hip
