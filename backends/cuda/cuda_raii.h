// RAII owners for CUDA driver handles, and the one place CUresults become C++
// exceptions. Destructors never throw: after a sticky error every call fails, and
// the worker is about to exit anyway.
#pragma once
#include <cuda.h>

#include <string>
#include <utility>

#include "backends/cuda/cuda_api.h"
#include "harness/device.h"

namespace crucible::cu {

// Errors after which the context is unusable (CUDA's "sticky" errors).
bool is_sticky(CUresult);
// Errors a launch's configuration causes; the context stays usable.
bool is_launch_error(CUresult);

// Throws DeviceFault: launch (non-sticky) for configuration errors and out of
// memory, runtime (sticky) for everything else. `what` says which call and why.
[[noreturn]] void throw_fault(CUresult, const std::string& what);
inline void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) throw_fault(r, what);
}
inline void check(CUresult r, const std::string& what) {
  if (r != CUDA_SUCCESS) throw_fault(r, what);
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
  void operator()(CUstream s) const { driver()->cuStreamDestroy(s); }
};
struct EventDeleter {
  void operator()(CUevent e) const { driver()->cuEventDestroy(e); }
};
struct ModuleDeleter {
  void operator()(CUmodule m) const { driver()->cuModuleUnload(m); }
};
struct DeviceMemDeleter {
  void operator()(CUdeviceptr p) const { driver()->cuMemFree(p); }
};
struct HostMemDeleter {
  void operator()(void* p) const { driver()->cuMemFreeHost(p); }
};

using Stream = Unique<CUstream, StreamDeleter>;
using Event = Unique<CUevent, EventDeleter>;
using ModuleHandle = Unique<CUmodule, ModuleDeleter>;
using DeviceMem = Unique<CUdeviceptr, DeviceMemDeleter>;
using HostMem = Unique<void*, HostMemDeleter>;

// The device's primary context, retained for this object's life.
class PrimaryContext {
 public:
  PrimaryContext() = default;
  explicit PrimaryContext(CUdevice dev) : dev_(dev) {
    check(driver()->cuDevicePrimaryCtxRetain(&ctx_, dev), "cuDevicePrimaryCtxRetain");
  }
  ~PrimaryContext() {
    if (ctx_ && !leak_) driver()->cuDevicePrimaryCtxRelease(dev_);
  }
  void leak() { leak_ = true; }
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  CUcontext get() const { return ctx_; }

 private:
  CUdevice dev_ = 0;
  CUcontext ctx_ = nullptr;
  bool leak_ = false;
};

inline Stream make_stream() {
  CUstream s = nullptr;
  // Blocking with respect to the legacy stream: synchronous copies order after our work.
  check(driver()->cuStreamCreate(&s, CU_STREAM_DEFAULT), "cuStreamCreate");
  return Stream(s);
}
inline Event make_event() {
  CUevent e = nullptr;
  check(driver()->cuEventCreate(&e, CU_EVENT_DEFAULT), "cuEventCreate");
  return Event(e);
}

}  // namespace crucible::cu
